"""Things standing above the table, drawn in image space: pawns and hands.

Pawns are lathe solids (a chess-pawn-like cone with a ball head) projected
through the real camera, so they lean away from the image centre and are seen
slightly from the side, like a real figure under an overhead camera; their flat
shadows are world polygons handed to the table canvas. Hands and arms enter
from an image edge and reach over the board.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.render_camera import Camera
from vision.render_looks import BGR, jitter_color

SHIFT = 4
ONE = 1 << SHIFT

PAWN_COLORS: dict[str, BGR] = {
    "red": (38, 38, 195),
    "yellow": (35, 205, 235),
    "green": (55, 150, 40),
    "blue": (175, 85, 25),
}


def pawn_profile(scale: float) -> list[tuple[float, float]]:
    """(height, radius) discs of a pawn from the base up, in tile units."""
    out: list[tuple[float, float]] = []
    steps = 44
    for k in range(steps + 1):
        z = 0.67 * k / steps
        if z <= 0.05:
            r = 0.21
        elif z <= 0.42:
            r = 0.19 - (z - 0.05) / 0.37 * 0.10
        elif z <= 0.47:
            r = 0.125
        else:
            dz = z - 0.565
            r = math.sqrt(max(0.105**2 - dz * dz, 0.0))
        out.append((z * scale, max(r, 0.012) * scale))
    return out


@dataclass(frozen=True)
class Pawn:
    """One pawn to draw: colour name, base centre on the table (tile units), colour, size."""

    color: str
    x: float
    y: float
    bgr: BGR
    scale: float = 1.0


def pawn_positions(
    squares: dict[str, tuple[int, int]], rng: np.random.Generator, jitter: float = 0.07
) -> dict[str, tuple[float, float]]:
    """Base centres for pawns on squares: the square centre ± jitter, spread out when several share one."""
    by_square: dict[tuple[int, int], list[str]] = {}
    for color, sq in squares.items():
        by_square.setdefault(sq, []).append(color)
    out: dict[str, tuple[float, float]] = {}
    for (r, c), colors in by_square.items():
        n = len(colors)
        spread = 0.0 if n == 1 else (0.21 if n == 2 else 0.25)
        start = rng.uniform(0, 2 * math.pi)
        for k, color in enumerate(colors):
            a = start + 2 * math.pi * k / n
            dx, dy = np.clip(rng.normal(0, jitter / 2, 2), -jitter, jitter) * (1.0 if n == 1 else 0.4)
            out[color] = (c + 0.5 + spread * math.cos(a) + dx, r + 0.5 + spread * math.sin(a) + dy)
    return out


def pawn_shadow(pawn: Pawn, light: tuple[float, float]) -> np.ndarray:
    """World polygon of the pawn's shadow cast along ``light`` (shadow offset per unit height)."""
    pts = []
    for z, r in pawn_profile(pawn.scale)[::4]:
        a = np.linspace(0, 2 * math.pi, 16, endpoint=False)
        pts.append(np.column_stack([pawn.x + z * light[0] + r * np.cos(a), pawn.y + z * light[1] + r * np.sin(a)]))
    allp = np.concatenate(pts).astype(np.float32)
    return cv2.convexHull(allp).reshape(-1, 2).astype(np.float64)


def draw_pawn(img: np.ndarray, cam: Camera, pawn: Pawn, light: tuple[float, float]) -> tuple[float, float]:
    """Draw one pawn onto a 4-channel uint8 image (glow channel cleared); returns the base pixel."""
    profile = pawn_profile(pawn.scale)
    n = 20
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    rings = []
    for z, r in profile:
        rings.append(np.column_stack([pawn.x + r * np.cos(a), pawn.y + r * np.sin(a), np.full(n, -z)]))
    px = cam.project(np.concatenate(rings)).reshape(len(profile), n, 2)
    lit_dir = math.atan2(-light[1], -light[0])  # the side facing the light
    facing = np.cos(a - lit_dir)
    dark = (*tuple(v * 0.45 for v in pawn.bgr), 0)
    mid = (*tuple(v * 0.85 for v in pawn.bgr), 0)
    bright = (*tuple(min(255.0, v * 1.15 + 25) for v in pawn.bgr), 0)
    lit = facing > 0.0
    spot = facing > 0.75
    for k in range(len(profile)):
        ring = np.round(px[k] * ONE).astype(np.int32)
        cv2.fillPoly(img, [ring], dark, cv2.LINE_AA, shift=SHIFT)
        half = np.round(px[k][lit] * ONE).astype(np.int32)
        if len(half) >= 3:
            cv2.fillPoly(img, [half], mid, cv2.LINE_AA, shift=SHIFT)
        top = k >= len(profile) - 9
        if top or k % 3 == 0:
            hi = px[k][spot]
            if len(hi) >= 2:
                centre = px[k].mean(axis=0)
                pts = np.concatenate([hi, (hi + centre) / 2][::-1])
                cv2.fillPoly(img, [np.round(pts * ONE).astype(np.int32)], bright, cv2.LINE_AA, shift=SHIFT)
    # a small specular glint on the head
    head = profile[-6]
    hx = pawn.x - math.cos(lit_dir) * -head[1] * 0.5
    hy = pawn.y - math.sin(lit_dir) * -head[1] * 0.5
    g = cam.project(np.array([[hx, hy, -head[0]]]))[0]
    rad = max(1.0, cam.pixels_per_unit() * 0.025 * pawn.scale)
    cv2.circle(img, (round(g[0] * ONE), round(g[1] * ONE)), round(rad * ONE),
               (235, 240, 245, 0), -1, cv2.LINE_AA, shift=SHIFT)  # fmt: skip
    base = cam.project(np.array([[pawn.x, pawn.y, 0.0]]))[0]
    return float(base[0]), float(base[1])


def draw_pawns(img: np.ndarray, cam: Camera, pawns: Sequence[Pawn], light: tuple[float, float]) -> dict[str, tuple]:
    """Draw pawns far-to-near so nearer ones overlap farther ones; returns each base pixel."""
    depth = {p.color: float(cam.depth(np.array([[p.x, p.y, -0.3]]))[0]) for p in pawns}
    out: dict[str, tuple] = {}
    for p in sorted(pawns, key=lambda q: -depth[q.color]):
        out[p.color] = draw_pawn(img, cam, p, light)
    return out


# --------------------------------------------------------------------------- hands

_SKIN: tuple[BGR, ...] = ((190, 205, 240), (150, 178, 228), (112, 148, 205), (80, 112, 168), (52, 72, 112))


def skin_tone(rng: np.random.Generator) -> BGR:
    """A skin colour between very light and very dark."""
    t = rng.uniform(0, len(_SKIN) - 1)
    i = min(int(t), len(_SKIN) - 2)
    f = t - i
    base = tuple(a + (b - a) * f for a, b in zip(_SKIN[i], _SKIN[i + 1], strict=True))
    return jitter_color(rng, base, hue=0.01, sat=0.1, val=0.06)  # type: ignore[arg-type]


def _edge_point(rng: np.random.Generator, w: int, h: int, target: np.ndarray) -> np.ndarray:
    side = int(rng.choice(4, p=[0.15, 0.3, 0.3, 0.25]))  # top, right, bottom, left
    if side == 0:
        return np.array([rng.uniform(0, w), -0.05 * h])
    if side == 1:
        return np.array([1.05 * w, rng.uniform(0, h)])
    if side == 2:
        return np.array([rng.uniform(0, w), 1.05 * h])
    return np.array([-0.05 * w, rng.uniform(0, h)])


def _hand_mask(rng: np.random.Generator, w: int, h: int, entry: np.ndarray, target: np.ndarray,
               unit: float) -> tuple[np.ndarray, np.ndarray, float]:
    """Masks (skin, sleeve) of one arm reaching from ``entry`` to fingertips at ``target``; also the arm width."""
    d = target - entry
    length = float(np.hypot(*d))
    u = d / max(length, 1e-6)
    nrm = np.array([-u[1], u[0]])
    fore_w = unit * rng.uniform(1.3, 1.8)
    palm_w = unit * rng.uniform(1.8, 2.3)
    palm_l = unit * rng.uniform(1.9, 2.4)
    finger_l = unit * rng.uniform(1.2, 1.9)
    pinch = rng.random() < 0.35
    if pinch:
        finger_l *= 0.7
    palm_c = target - u * (finger_l + palm_l * 0.45)
    wrist = palm_c - u * palm_l * 0.45
    skin = np.zeros((h, w), np.uint8)
    arm = np.array([entry + nrm * fore_w * 0.6, wrist + nrm * fore_w * 0.5,
                    wrist - nrm * fore_w * 0.5, entry - nrm * fore_w * 0.6])  # fmt: skip
    cv2.fillPoly(skin, [np.round(arm * ONE).astype(np.int32)], 255, cv2.LINE_AA, shift=SHIFT)
    ang = math.degrees(math.atan2(u[1], u[0]))
    cv2.ellipse(skin, (int(palm_c[0] * ONE), int(palm_c[1] * ONE)),
                (int(palm_l * 0.55 * ONE), int(palm_w * 0.5 * ONE)), ang, 0, 360, 255, -1, cv2.LINE_AA,
                shift=SHIFT)  # fmt: skip
    tip_base = palm_c + u * palm_l * 0.4
    spread = rng.uniform(0.05, 0.3)
    for k in range(4):
        off = (k - 1.5) / 1.5
        base = tip_base + nrm * off * palm_w * 0.33
        fa = math.atan2(u[1], u[0]) + off * spread + (-(off * 0.5) if pinch else 0.0)
        fl = finger_l * (1.0 - 0.18 * abs(off)) * rng.uniform(0.9, 1.05)
        tip = base + np.array([math.cos(fa), math.sin(fa)]) * fl
        thick = max(2, int(palm_w * 0.2))
        cv2.line(skin, (int(base[0] * ONE), int(base[1] * ONE)), (int(tip[0] * ONE), int(tip[1] * ONE)), 255,
                 thick, cv2.LINE_AA, shift=SHIFT)  # fmt: skip
    side = 1 if rng.random() < 0.5 else -1
    tb = palm_c + nrm * side * palm_w * 0.4 - u * palm_l * 0.1
    ta = math.atan2(u[1], u[0]) + side * rng.uniform(0.5, 1.0)
    tt = tb + np.array([math.cos(ta), math.sin(ta)]) * finger_l * 0.8
    cv2.line(skin, (int(tb[0] * ONE), int(tb[1] * ONE)), (int(tt[0] * ONE), int(tt[1] * ONE)), 255,
             max(2, int(palm_w * 0.24)), cv2.LINE_AA, shift=SHIFT)  # fmt: skip
    sleeve = np.zeros((h, w), np.uint8)
    cuff = entry + (wrist - entry) * rng.uniform(0.25, 0.85)
    sw = fore_w * rng.uniform(1.25, 1.6)
    sl = np.array([entry + nrm * sw * 0.6, cuff + nrm * sw * 0.5, cuff - nrm * sw * 0.5, entry - nrm * sw * 0.6])
    cv2.fillPoly(sleeve, [np.round(sl * ONE).astype(np.int32)], 255, cv2.LINE_AA, shift=SHIFT)
    return skin, sleeve, fore_w


def draw_hands(
    img: np.ndarray,
    cam: Camera,
    rng: np.random.Generator,
    light: tuple[float, float],
    count: int = 1,
) -> np.ndarray:
    """Draw ``count`` arms reaching over the board onto a 4-channel uint8 image; returns the covered mask."""
    h, w = img.shape[:2]
    unit = cam.pixels_per_unit() * rng.uniform(1.05, 1.35)  # hands are above the board: larger
    covered = np.zeros((h, w), np.uint8)
    for _ in range(count):
        xy = rng.uniform(0.3, 6.7, 2)
        target = cam.project_plane(xy)[0]
        entry = _edge_point(rng, w, h, target)
        skin, sleeve, arm_w = _hand_mask(rng, w, h, entry, target, unit)
        both = cv2.max(skin, sleeve)
        # soft shadow on the board, offset along the light
        lift = unit * rng.uniform(0.6, 1.6)
        m = np.float32([[1, 0, light[0] * lift], [0, 1, light[1] * lift]])
        shadow = cv2.warpAffine(both, m, (w, h))
        shadow = cv2.GaussianBlur(shadow, (0, 0), max(2.0, unit * 0.35)).astype(np.float32) / 255.0
        k = 1.0 - 0.5 * shadow
        img[:, :, :3] = (img[:, :, :3].astype(np.float32) * k[:, :, None]).astype(np.uint8)
        # rounded shading across the arm from the distance to its outline
        dist = cv2.distanceTransform((both > 127).astype(np.uint8), cv2.DIST_L2, 3)
        shade = 0.62 + 0.38 * np.sqrt(np.clip(dist / max(arm_w * 0.45, 1.0), 0, 1))
        tone = np.array(skin_tone(rng), np.float32)
        cloth = np.array(jitter_color(rng, tuple(rng.uniform(20, 230, 3)), sat=0.3), np.float32)
        color = np.where((sleeve > 127)[:, :, None], cloth, tone) * shade[:, :, None]
        alpha = (both.astype(np.float32) / 255.0)[:, :, None]
        rgb = img[:, :, :3].astype(np.float32)
        img[:, :, :3] = np.clip(rgb + (color - rgb) * alpha, 0, 255).astype(np.uint8)
        img[:, :, 3] = (img[:, :, 3].astype(np.float32) * (1 - alpha[:, :, 0])).astype(np.uint8)
        covered = cv2.max(covered, both)
    return covered
