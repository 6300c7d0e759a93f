"""Things standing on or held over the board, drawn on the undistorted canvas: pawns and occluders.

Pawns are 3D: solids of revolution (a cylinder with a ball head, a chess-like
pawn, a domed peg) or an extruded meeple, made of world points pushed through
the camera, so their bodies lean away from the principal point as a real
overhead lens shows them. Each casts a soft shadow along the light.

Occluders (an arm and hand, a held mug, a card held above the board) come in
from an image edge and always hide a real part of the tile area.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import cv2
import numpy as np

from tests.support.holdout_art import Colour, hsv_colour
from tests.support.holdout_camera import Camera

PAWN_SHAPES = ("cylball", "chess", "peg", "meeple")
_PAWN_HUES = {"red": (0.98, 0.02), "yellow": (0.12, 0.16), "green": (0.27, 0.4), "blue": (0.57, 0.66)}


@dataclass(frozen=True)
class Pawn:
    """One pawn: where its base stands (world X, Y), its colour, shape and size (tile units)."""

    x: float
    y: float
    colour: Colour
    shape: str
    radius: float
    height: float
    turn: float


def pawn_colour(rng: random.Random, name: str) -> Colour:
    """A varied plastic colour of the named family (exact hue, saturation and value vary)."""
    lo, hi = _PAWN_HUES[name]
    hue = rng.uniform(lo, hi + (1.0 if hi < lo else 0.0))
    sat = rng.uniform(0.55, 0.95) if name != "yellow" else rng.uniform(0.6, 0.9)
    val = rng.uniform(0.55, 0.95) if name != "blue" else rng.uniform(0.45, 0.85)
    return hsv_colour(hue, sat, val)


def _profile(shape: str, radius: float, height: float) -> list[tuple[float, float]]:
    """(height, radius) rings from the base up for a solid of revolution."""
    rings: list[tuple[float, float]] = []
    n = 22
    for i in range(n + 1):
        z = height * i / n
        t = z / height
        if shape == "cylball":
            head_c, head_r = 0.78 * height, 0.22 * height
            if t < 0.08:
                r = radius
            elif z < head_c - head_r * 0.8:
                r = radius * 0.72
            else:
                r = math.sqrt(max(head_r**2 - (z - head_c) ** 2, 0.0))
        elif shape == "chess":
            head_c, head_r = 0.8 * height, 0.2 * height
            if t < 0.12:
                r = radius * (1.0 - 0.5 * t)
            elif t < 0.55:
                r = radius * (0.8 - 0.6 * (t - 0.12))
            elif t < 0.62:
                r = radius * 0.7
            else:
                r = math.sqrt(max(head_r**2 - (z - head_c) ** 2, 0.0))
        else:  # peg: a straight body with a domed top
            dome = 0.35 * height
            above = max(z - (height - dome), 0.0) / dome
            r = radius * 0.8 * math.sqrt(max(1.0 - above * above, 0.0))
        rings.append((z, r))
    return rings


def _meeple_faces(p: Pawn) -> list[tuple[np.ndarray, np.ndarray]]:
    """Faces (world points (N, 3), outward normal) of an extruded meeple standing at the pawn's place."""
    h, w = p.height, p.radius * 1.9
    outline = np.array([
        (-0.5, 0.0), (-0.12, 0.0), (0.0, 0.22), (0.12, 0.0), (0.5, 0.0), (0.3, 0.45), (0.5, 0.58),
        (0.45, 0.68), (0.16, 0.66), (0.2, 0.82), (0.0, 1.0), (-0.2, 0.82), (-0.16, 0.66), (-0.45, 0.68),
        (-0.5, 0.58), (-0.3, 0.45),
    ])  # fmt: skip
    a = np.array([math.cos(p.turn), math.sin(p.turn), 0.0])
    n = np.array([-math.sin(p.turn), math.cos(p.turn), 0.0])
    up = np.array([0.0, 0.0, -1.0])
    base = np.array([p.x, p.y, 0.0])
    depth = p.radius * 0.7
    def face(side: float) -> np.ndarray:
        return base + outline[:, :1] * w * a + outline[:, 1:] * h * up + side * depth / 2 * n
    front, back = face(1.0), face(-1.0)
    faces = [(front, n), (back, -n)]
    for i in range(len(outline)):
        j = (i + 1) % len(outline)
        quad = np.array([front[i], front[j], back[j], back[i]])
        edge = outline[j] - outline[i]
        normal2 = np.array([edge[1], -edge[0]])
        normal2 /= max(np.linalg.norm(normal2), 1e-9)
        faces.append((quad, normal2[0] * a + normal2[1] * up))
    return faces


def _shade(colour: Colour, normal: np.ndarray, light: np.ndarray) -> tuple[float, float, float]:
    lam = max(float(np.dot(normal, light)), 0.0)
    k = 0.45 + 0.65 * lam
    return tuple(min(c * k, 255.0) for c in colour)  # type: ignore[return-value]


def _pawn_solids(p: Pawn, light: np.ndarray) -> list[tuple[np.ndarray, tuple[float, float, float]]]:
    """Polygons (world points) in drawing order, each with its shaded colour."""
    if p.shape == "meeple":
        faces = _meeple_faces(p)
        return [(pts, _shade(p.colour, nrm, light)) for pts, nrm in faces]
    out = []
    t = np.linspace(0, 2 * np.pi, 28, endpoint=False)
    rings = _profile(p.shape, p.radius, p.height)
    for i, (z, r) in enumerate(rings):
        if r <= 1e-4:
            continue
        z_prev, r_prev = rings[max(i - 1, 0)]
        slope = (r_prev - r) / max(z - z_prev, 1e-6) if i else 0.0
        up = 1.0 / math.sqrt(1.0 + slope * slope) if slope > 0 else 0.25
        pts = np.stack([p.x + r * np.cos(t), p.y + r * np.sin(t), np.full_like(t, -z)], axis=1)
        # the visible rim of a ring: its normal leans up by how fast the profile narrows
        normal = np.array([0.0, 0.0, -1.0]) * up
        colour = _shade(p.colour, normal + np.array([0.0, 0.0, -0.35]), light)
        out.append((pts, colour))
    return out


def draw_pawns(canvas: np.ndarray, glow: np.ndarray, cam: Camera, pawns: list[Pawn], light: np.ndarray,
               shadow_strength: float) -> None:
    """Shadows first (all pawns), then bodies from the farthest to the nearest pawn.

    ``light`` is the unit direction toward the light (world frame; negative Z is up).
    """
    ppu = cam.pixels_per_unit(np.array([3.5, 3.5, 0.0]))
    for p in pawns:
        pts = np.concatenate([poly for poly, _ in _pawn_solids(p, light)])
        on_table = pts - (pts[:, 2:3] / light[2]) * light[None, :]
        px = cam.project_canvas(np.concatenate([on_table, pts[pts[:, 2] > -0.02]]))
        hull = cv2.convexHull(np.round(px * 16).astype(np.int32))
        _soft_multiply(canvas, hull, ppu * 0.07, 1.0 - shadow_strength)
    order = sorted(pawns, key=lambda q: -float(cam.depth(np.array([[q.x, q.y, -q.height / 2]]))[0]))
    for p in order:
        _draw_pawn(canvas, glow, cam, p, light, ppu)


def _draw_pawn(canvas: np.ndarray, glow: np.ndarray, cam: Camera, p: Pawn, light: np.ndarray, ppu: float) -> None:
    """One pawn body, drawn in a window around it, then smoothed inside its silhouette (rounded plastic)
    and shaded across by the light's side."""
    solids = _pawn_solids(p, light)
    if p.shape == "meeple":
        solids.sort(key=lambda f: -float(cam.depth(f[0]).mean()))
    polys = [cam.project_canvas(poly) for poly, _ in solids]
    allpx = np.concatenate(polys)
    pad = 4
    x0 = max(int(allpx[:, 0].min()) - pad, 0)
    y0 = max(int(allpx[:, 1].min()) - pad, 0)
    x1 = min(int(allpx[:, 0].max()) + pad + 1, canvas.shape[1])
    y1 = min(int(allpx[:, 1].max()) + pad + 1, canvas.shape[0])
    if x1 - x0 < 2 or y1 - y0 < 2:
        return
    body = np.zeros((y1 - y0, x1 - x0, 3), np.float32)
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    shift = np.array([x0, y0])
    for px, (poly, colour) in zip(polys, solids, strict=True):
        pts = np.round((px - shift) * 16).astype(np.int32)
        if p.shape == "meeple" and len(poly) == 4:
            pts = cv2.convexHull(pts)
        cv2.fillPoly(body, [pts], colour, cv2.LINE_AA, 4)
        cv2.fillPoly(mask, [pts], 1.0, cv2.LINE_AA, 4)
    sigma = max(p.radius * ppu * 0.12, 0.6)
    weight = cv2.GaussianBlur(mask, (0, 0), sigma)
    body = cv2.GaussianBlur(body, (0, 0), sigma) / np.maximum(weight, 1e-3)[..., None]
    # brighter on the side facing the light, darker away from it
    top = cam.project_canvas(np.array([[p.x, p.y, -p.height * 0.6]]))[0] - shift
    side = cam.project_canvas(np.array([[p.x + light[0], p.y + light[1], -p.height * 0.6]]))[0] - shift - top
    side /= max(float(np.linalg.norm(side)), 1e-6)
    yy, xx = np.mgrid[0 : y1 - y0, 0 : x1 - x0].astype(np.float32)
    across = ((xx - top[0]) * side[0] + (yy - top[1]) * side[1]) / max(p.radius * ppu, 1.0)
    body *= np.clip(1.0 + 0.3 * across, 0.55, 1.4)[..., None]
    if p.shape != "meeple":  # a soft specular highlight on the head
        head = np.array([[p.x + 0.3 * p.radius * light[0], p.y + 0.3 * p.radius * light[1], -p.height * 0.86]])
        c = cam.project_canvas(head)[0] - shift
        spot = np.exp(-((xx - c[0]) ** 2 + (yy - c[1]) ** 2) / (2 * max(p.radius * ppu * 0.15, 0.7) ** 2))
        body += (spot * 110.0)[..., None]
    a = mask[..., None]
    win = canvas[y0:y1, x0:x1]
    win[:] = win * (1.0 - a) + np.clip(body, 0, 255) * a
    glow[y0:y1, x0:x1] *= 1.0 - mask


def _soft_multiply(canvas: np.ndarray, poly: np.ndarray, blur: float, factor: float) -> None:
    """Multiply the canvas by ``factor`` inside ``poly`` (16x fixed point), with a soft edge."""
    x, y, w, h = cv2.boundingRect(poly // 16)
    pad = int(blur * 3) + 2
    x0, y0 = max(x - pad, 0), max(y - pad, 0)
    x1, y1 = min(x + w + pad, canvas.shape[1]), min(y + h + pad, canvas.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillPoly(mask, [poly - np.array([x0 * 16, y0 * 16], np.int32)], 1.0, cv2.LINE_AA, 4)
    mask = cv2.GaussianBlur(mask, (0, 0), max(blur, 0.5))
    canvas[y0:y1, x0:x1] *= (1.0 - (1.0 - factor) * mask)[..., None]


SKIN: tuple[Colour, ...] = ((150.0, 175.0, 225.0), (120.0, 150.0, 205.0), (95.0, 125.0, 180.0),
                            (70.0, 95.0, 150.0), (45.0, 65.0, 105.0))


def occluder_mask(
    rng: random.Random, cam: Camera, kind: str, target_w: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, tuple[int, int]]:
    """An occluder's colour image, its coverage (uint8) and its shadow offset in pixels, canvas-sized.

    ``kind`` is ``arm``, ``mug`` or ``card`` (held over the board: drawn larger, it is
    nearer the lens) or ``rest`` (a hand lying on the table). The thing reaches in
    from the image edge nearest its target, a world point (by default a random
    point over the tile area).
    """
    cw, ch = cam.canvas_size
    m = cam.margin
    ppu = cam.pixels_per_unit(np.array([3.5, 3.5, 0.0]))
    close = rng.uniform(1.0, 1.15) if kind == "rest" else rng.uniform(1.2, 1.8)
    if target_w is None:
        target_w = np.array([[rng.uniform(0.7, 6.3), rng.uniform(0.7, 6.3), 0.0]])
    target = cam.project_canvas(target_w)[0]
    # enter through the photo edge nearest the target (sometimes another edge)
    dists = [target[0] - m, cw - m - target[0], target[1] - m, ch - m - target[1]]
    side = int(np.argmin(dists)) if rng.random() < 0.7 else rng.randrange(4)
    along = rng.uniform(-0.25, 0.25)
    if side == 0:
        entry = np.array([-ppu, target[1] + along * ch])
    elif side == 1:
        entry = np.array([cw + ppu, target[1] + along * ch])
    elif side == 2:
        entry = np.array([target[0] + along * cw, -ppu])
    else:
        entry = np.array([target[0] + along * cw, ch + ppu])
    direction = target - entry
    direction /= max(np.linalg.norm(direction), 1e-6)
    perp = np.array([-direction[1], direction[0]])
    colour = np.zeros((ch, cw, 3), np.float32)
    cover = np.zeros((ch, cw), np.uint8)
    skin = np.array(rng.choice(SKIN), np.float32) * rng.uniform(0.9, 1.1)
    hand = ppu * rng.uniform(1.3, 1.8) * close
    arm_w = ppu * rng.uniform(0.9, 1.25) * close

    def pt(v: np.ndarray) -> tuple[int, int]:
        return round(v[0] * 16), round(v[1] * 16)

    def capsule(a: np.ndarray, b: np.ndarray, width: float, col: np.ndarray) -> None:
        cv2.line(colour, pt(a), pt(b), col.tolist(), max(int(width), 1), cv2.LINE_AA, 4)
        cv2.line(cover, pt(a), pt(b), 255, max(int(width), 1), cv2.LINE_AA, 4)

    if kind == "card":
        size = np.array([1.6, 2.4]) * ppu * close * rng.uniform(1.0, 1.3)
        ang = rng.uniform(0, math.pi)
        c, s = math.cos(ang), math.sin(ang)
        corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * size / 2
        card = corners @ np.array([[c, s], [-s, c]]) + target
        wrist = target - direction * (size.max() * 0.5 + hand * 0.3)
        capsule(entry, wrist, arm_w, skin * 0.9)
        pts = np.round(card * 16).astype(np.int32)
        cv2.fillPoly(colour, [pts], (230.0, 232.0, 236.0), cv2.LINE_AA, 4)
        cv2.fillPoly(cover, [pts], 255, cv2.LINE_AA, 4)
        inner = np.round(((corners * 0.8) @ np.array([[c, s], [-s, c]]) + target) * 16).astype(np.int32)
        cv2.fillPoly(colour, [inner], hsv_colour(rng.random(), 0.85, 0.85), cv2.LINE_AA, 4)
        capsule(wrist, target - direction * size.max() * 0.3, hand * 0.22, skin)  # thumb over the edge
    else:
        wrist = target - direction * hand * 0.9
        if rng.random() < 0.7:
            sleeve_end = entry + (wrist - entry) * rng.uniform(0.4, 0.85)
            capsule(entry, wrist, arm_w, skin * 0.95)
            cloth = hsv_colour(rng.random(), rng.uniform(0.2, 0.9), rng.uniform(0.2, 0.9))
            capsule(entry, sleeve_end, arm_w * 1.15, np.array(cloth, np.float32))
        else:
            capsule(entry, wrist, arm_w, skin * 0.95)
        palm = wrist + direction * hand * 0.35
        axes = (int(hand * 0.42 * 16), int(hand * 0.36 * 16))
        angle = math.degrees(math.atan2(direction[1], direction[0]))
        cv2.ellipse(colour, pt(palm), axes, angle, 0, 360, skin.tolist(), -1, cv2.LINE_AA, 4)
        cv2.ellipse(cover, pt(palm), axes, angle, 0, 360, 255, -1, cv2.LINE_AA, 4)
        if kind == "mug":
            mug_r = ppu * rng.uniform(0.9, 1.3) * close
            mug_c = palm + direction * (hand * 0.3 + mug_r * 1.2) + perp * rng.uniform(-0.3, 0.3) * mug_r
            body = np.array(hsv_colour(rng.random(), rng.uniform(0.0, 0.8), rng.uniform(0.5, 0.95)), np.float32)
            # the handle, a thick ring between the hand and the mug, then the fingers around it
            grip = mug_c - direction * mug_r * 1.05
            cv2.circle(colour, pt(grip), int(mug_r * 0.32 * 16), (body * 0.7).tolist(), max(int(mug_r * 0.14), 2),
                       cv2.LINE_AA, 4)
            cv2.circle(cover, pt(grip), int(mug_r * 0.32 * 16), 255, max(int(mug_r * 0.14), 2), cv2.LINE_AA, 4)
            for f in (-1.0, 0.0, 1.0):
                base = grip - direction * mug_r * 0.2 + perp * f * hand * 0.15
                capsule(base, base + direction * hand * 0.3 + perp * f * hand * 0.05, hand * 0.16, skin * 0.97)
            cv2.circle(colour, pt(mug_c), int(mug_r * 16), (body * 0.85).tolist(), -1, cv2.LINE_AA, 4)
            cv2.circle(cover, pt(mug_c), int(mug_r * 16), 255, -1, cv2.LINE_AA, 4)
            cv2.circle(colour, pt(mug_c), int(mug_r * 0.97 * 16), np.minimum(body * 1.15 + 20, 255).tolist(),
                       max(int(mug_r * 0.05), 1), cv2.LINE_AA, 4)
            drink = rng.choice([(25.0, 45.0, 70.0), (60.0, 110.0, 160.0), (200.0, 205.0, 210.0)])
            cv2.circle(colour, pt(mug_c), int(mug_r * 0.8 * 16), drink, -1, cv2.LINE_AA, 4)
        else:
            spread = rng.uniform(0.08, 0.25)
            for k, f in enumerate((-1.5, -0.5, 0.5, 1.5)):
                a = math.atan2(direction[1], direction[0]) + f * spread
                d = np.array([math.cos(a), math.sin(a)])
                base = palm + direction * hand * 0.3 + perp * f * hand * 0.17
                length = hand * (0.5 + 0.12 * (1.5 - abs(f))) * rng.uniform(0.85, 1.1)
                capsule(base, base + d * length, hand * 0.17, skin * (0.95 + 0.03 * k))
            tside = rng.choice([-1.0, 1.0])
            tbase = palm + perp * tside * hand * 0.3
            tdir = direction * 0.6 + perp * tside * 0.8
            capsule(tbase, tbase + tdir / np.linalg.norm(tdir) * hand * 0.45, hand * 0.2, skin)
    height_px = ppu * (rng.uniform(0.1, 0.3) if kind == "rest" else rng.uniform(1.5, 4.0))
    return colour, cover, (int(height_px), int(height_px))


def place_occluder(rng: random.Random, cam: Camera, canvas: np.ndarray, glow: np.ndarray,
                   shadow_dir: tuple[float, float], kind: str) -> float:
    """Draw an occluder that hides at least 1.5 tiles' worth of the tile area (the best of a few tries),
    with its cast shadow; returns how many tiles' worth it hides."""
    best = None
    for _ in range(6):
        colour, cover, lift = occluder_mask(rng, cam, kind)
        hidden = board_hidden_tiles(cam, cover, 0.0)
        if best is None or hidden > best[0]:
            best = (hidden, colour, cover, lift)
        if hidden >= 1.5:
            break
    assert best is not None
    hidden, colour, cover, lift = best
    _composite(cam, canvas, glow, colour, cover, lift, shadow_dir)
    return hidden


def place_resting_hand(rng: random.Random, cam: Camera, canvas: np.ndarray, glow: np.ndarray,
                       shadow_dir: tuple[float, float], frame_width: float) -> bool:
    """A hand lying on the table beside the board, in view but hiding none of it (not an occlusion).

    Returns False when no such place was found in the photo (then nothing is drawn).
    """
    w, h = cam.size
    for _ in range(5):
        side = rng.randrange(4)
        out = -frame_width - rng.uniform(0.6, 2.5)
        along = rng.uniform(0.0, 7.0)
        x, y = [(out, along), (7.0 - out, along), (along, out), (along, 7.0 - out)][side]
        target_w = np.array([[x, y, 0.0]])
        px = cam.project(target_w)[0]
        if not (0 <= px[0] < w and 0 <= px[1] < h):
            continue
        colour, cover, lift = occluder_mask(rng, cam, "rest", target_w)
        if board_hidden_tiles(cam, cover, frame_width + 0.1) > 0.0:
            continue
        _composite(cam, canvas, glow, colour, cover, lift, shadow_dir)
        return True
    return False


def _composite(cam: Camera, canvas: np.ndarray, glow: np.ndarray, colour: np.ndarray, cover: np.ndarray,
               lift: tuple[int, int], shadow_dir: tuple[float, float]) -> None:
    """Lay the occluder over the canvas, shaded like a rounded limb, after its soft shadow.

    Works in the window that the occluder and its shadow can touch: full-canvas float
    arithmetic would cost more than the rest of the photo.
    """
    ppu = cam.pixels_per_unit(np.array([3.5, 3.5, 0.0]))
    blur = max(ppu * 0.12 * max(lift[0] / ppu, 0.3), 1.0)
    x, y, w, h = cv2.boundingRect(cover)
    if w == 0 or h == 0:
        return
    dx, dy = shadow_dir[0] * lift[0], shadow_dir[1] * lift[1]
    pad = int(3 * blur * 4) + 4
    x0, y0 = max(int(min(x, x + dx)) - pad, 0), max(int(min(y, y + dy)) - pad, 0)
    x1 = min(int(max(x + w, x + w + dx)) + pad, canvas.shape[1])
    y1 = min(int(max(y + h, y + h + dy)) + pad, canvas.shape[0])
    win = (slice(y0, y1), slice(x0, x1))
    alpha = cover[win].astype(np.float32) / 255.0
    # shading across the limb: darker toward its outline, like a rounded body
    dist = cv2.distanceTransform((cover[win] > 127).astype(np.uint8), cv2.DIST_L2, 3)
    rim = np.clip(dist / max(ppu * 0.35, 1.0), 0.0, 1.0)
    shade = 0.55 + 0.45 * np.sqrt(rim)
    small = cv2.resize(alpha, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    shift = np.array([[1, 0, dx / 4], [0, 1, dy / 4]], np.float32)
    small = cv2.warpAffine(small, shift, (small.shape[1], small.shape[0]))
    small = cv2.GaussianBlur(small, (0, 0), blur)
    shadow = cv2.resize(small, (alpha.shape[1], alpha.shape[0]), interpolation=cv2.INTER_LINEAR)
    region = canvas[win]
    region *= (1.0 - 0.55 * shadow)[..., None]
    a3 = alpha[..., None]
    region[:] = region * (1.0 - a3) + colour[win] * shade[..., None] * a3
    glow[win] *= (1.0 - 0.8 * shadow) * (1.0 - alpha)


def board_hidden_tiles(cam: Camera, cover: np.ndarray, extent: float) -> float:
    """How many tiles' worth of the board ``cover`` (uint8, >127 = hidden) hides: the tile area grown by
    ``extent`` tiles on every side (0: the tile area alone)."""
    ppu = cam.pixels_per_unit(np.array([3.5, 3.5, 0.0]))
    lo, hi = -extent, 7.0 + extent
    outline = cam.project_canvas(np.array([[lo, lo, 0], [hi, lo, 0], [hi, hi, 0], [lo, hi, 0]], float))
    board = np.zeros(cover.shape, np.uint8)
    cv2.fillPoly(board, [np.round(outline).astype(np.int32)], 1)
    return float(np.count_nonzero((cover > 127) & (board > 0))) / (ppu * ppu)
