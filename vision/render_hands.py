"""Hands and arms over the board, drawn in image space.

A player's arm enters from an image edge (a sleeve, then the bare forearm),
and the hand reaches a point over the board: flat with spread fingers, pinching
a tile, or pointing. Each part is shaded as a rounded volume (darker toward its
outline, lit on the side facing the light) and casts a soft shadow on the
board, offset along the light because the hand is well above the table.
Skin tones range from very light to very dark.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.render_camera import Camera
from vision.render_looks import BGR, jitter_color

SHIFT = 4
ONE = 1 << SHIFT

_SKIN: tuple[BGR, ...] = ((190, 205, 240), (150, 178, 228), (112, 148, 205), (80, 112, 168), (45, 62, 98))
POSES: tuple[str, ...] = ("flat", "pinch", "point", "fist")
_FINGER_LENGTHS: dict[str, tuple[float, float, float, float]] = {
    "flat": (1.0, 1.0, 1.0, 1.0),
    "pinch": (0.75, 0.8, 0.7, 0.6),
    "point": (1.05, 0.4, 0.38, 0.35),
    "fist": (0.35, 0.35, 0.33, 0.3),
}


def skin_tone(rng: np.random.Generator) -> BGR:
    """A skin colour between very light and very dark."""
    t = rng.uniform(0, len(_SKIN) - 1)
    i = min(int(t), len(_SKIN) - 2)
    f = t - i
    base = tuple(a + (b - a) * f for a, b in zip(_SKIN[i], _SKIN[i + 1], strict=True))
    return jitter_color(rng, base, hue=0.01, sat=0.1, val=0.06)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Arm:
    """One arm's geometry in image pixels."""

    entry: np.ndarray
    wrist: np.ndarray
    palm: np.ndarray  # centre
    axis: np.ndarray  # unit vector from entry toward the fingertips
    fore_width: float
    palm_width: float
    palm_length: float
    fingers: list[tuple[np.ndarray, np.ndarray, float]]  # base, tip, width
    thumb: tuple[np.ndarray, np.ndarray, float]
    cuff: float  # fraction of entry->wrist covered by the sleeve


def _edge_point(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    side = int(rng.choice(4, p=[0.15, 0.3, 0.3, 0.25]))  # top, right, bottom, left
    if side == 0:
        return np.array([rng.uniform(0, w), -0.08 * h])
    if side == 1:
        return np.array([w + 0.08 * h, rng.uniform(0, h)])
    if side == 2:
        return np.array([rng.uniform(0, w), 1.08 * h])
    return np.array([-0.08 * h, rng.uniform(0, h)])


def make_arm(rng: np.random.Generator, entry: np.ndarray, target: np.ndarray, unit: float) -> Arm:
    """An arm from ``entry`` whose fingertips reach ``target``; ``unit`` = pixels per tile at hand height."""
    d = target - entry
    u = d / max(float(np.hypot(*d)), 1e-6)
    n = np.array([-u[1], u[0]])
    pose = str(rng.choice(POSES, p=[0.4, 0.25, 0.2, 0.15]))
    fore_w = unit * rng.uniform(1.35, 1.8)
    palm_w = unit * rng.uniform(1.9, 2.3)
    palm_l = unit * rng.uniform(2.0, 2.4)
    finger_l = unit * rng.uniform(1.6, 2.0)
    lengths = _FINGER_LENGTHS[pose]
    reach = finger_l * max(lengths)
    palm = target - u * (reach + palm_l * 0.42)
    wrist = palm - u * palm_l * 0.5
    spread = rng.uniform(0.04, 0.22) if pose == "flat" else rng.uniform(-0.08, 0.05)
    fingers = []
    hand_side = 1.0 if rng.random() < 0.5 else -1.0  # left or right hand: where the thumb is
    for k in range(4):
        off = (k - 1.5) / 1.5 * hand_side
        base = palm + u * palm_l * 0.38 + n * off * palm_w * 0.34
        ang = math.atan2(u[1], u[0]) + off * spread
        fl = finger_l * lengths[k] * (1.0 - 0.12 * abs(off)) * rng.uniform(0.92, 1.05)
        tip = base + np.array([math.cos(ang), math.sin(ang)]) * fl
        fingers.append((base, tip, palm_w * rng.uniform(0.2, 0.23)))
    tb = palm - n * hand_side * palm_w * 0.42 + u * palm_l * 0.05
    ta = math.atan2(u[1], u[0]) - hand_side * rng.uniform(0.35, 0.9)
    tt = tb + np.array([math.cos(ta), math.sin(ta)]) * finger_l * rng.uniform(0.65, 0.85)
    return Arm(entry, wrist, palm, u, fore_w, palm_w, palm_l, fingers, (tb, tt, palm_w * 0.25),
               float(rng.uniform(0.2, 0.85)))  # fmt: skip


def _pt(p: np.ndarray, off: tuple[int, int]) -> tuple[int, int]:
    return (round((p[0] - off[0]) * ONE), round((p[1] - off[1]) * ONE))


def _poly(points: list[np.ndarray], off: tuple[int, int]) -> np.ndarray:
    return np.array([_pt(p, off) for p in points], dtype=np.int32)


def _rounded(mask: np.ndarray, width: float) -> np.ndarray:
    """0.6 at a part's outline rising to 1 along its middle: a rounded volume."""
    inside = cv2.copyMakeBorder((mask > 127).astype(np.uint8), 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    dist = cv2.distanceTransform(inside, cv2.DIST_L2, 3)[1:-1, 1:-1]
    return 0.6 + 0.4 * np.sqrt(np.clip(dist / max(width * 0.5, 1.0), 0, 1))


class _Painter:
    """Paints shaded parts into an ROI, touching only each part's bounding box."""

    def __init__(self, rgb: np.ndarray, alpha: np.ndarray, off: tuple[int, int], n: np.ndarray, side_light: float):
        self.rgb, self.alpha, self.off, self.n, self.side_light = rgb, alpha, off, n, side_light

    def part(self, mask: np.ndarray, color: np.ndarray, width: float, centre: np.ndarray,
             folds: tuple[np.ndarray, float, float] | None = None) -> None:
        x, y, w, h = cv2.boundingRect(mask)
        if w == 0 or h == 0:
            return
        sl = np.s_[y : y + h, x : x + w]
        m = mask[sl]
        ys, xs = np.mgrid[y : y + h, x : x + w].astype(np.float32)
        xs += self.off[0]
        ys += self.off[1]
        across = ((xs - centre[0]) * self.n[0] + (ys - centre[1]) * self.n[1]) / max(width * 0.5, 1.0)
        shade = _rounded(m, width) * (1.0 + 0.12 * self.side_light * np.clip(across, -1, 1))
        if folds is not None:
            axis, period, phase = folds
            along = (xs - centre[0]) * axis[0] + (ys - centre[1]) * axis[1]
            shade *= 0.88 + 0.12 * np.sin(along / period + phase)
        a = (m.astype(np.float32) / 255.0)[:, :, None]
        rgb = self.rgb[sl]
        rgb += (color * shade[:, :, None] - rgb) * a
        np.maximum(self.alpha[sl], a[:, :, 0], out=self.alpha[sl])


def draw_arm(rgb: np.ndarray, alpha: np.ndarray, arm: Arm, off: tuple[int, int], skin: BGR, cloth: BGR,
             light: tuple[float, float], rng: np.random.Generator) -> None:
    """Paint one arm into an ROI (float32 BGR and 0..1 coverage); ``off`` = ROI origin in the image."""
    h, w = alpha.shape
    tone = np.array(skin, np.float32)
    n = np.array([-arm.axis[1], arm.axis[0]])
    lit = np.array([-light[0], -light[1]])
    lit = lit / max(float(np.hypot(*lit)), 1e-6)
    paint = _Painter(rgb, alpha, off, n, float(np.dot(lit, n)))  # side_light > 0: the +n side faces the light

    # forearm, tapering to the wrist
    m = np.zeros((h, w), np.uint8)
    fw = arm.fore_width
    pts = [arm.entry + n * fw * 0.55, arm.wrist + n * fw * 0.4, arm.wrist - n * fw * 0.4, arm.entry - n * fw * 0.55]
    cv2.fillPoly(m, [_poly(pts, off)], 255, cv2.LINE_AA, shift=SHIFT)
    paint.part(m, tone, fw, arm.wrist)
    # sleeve with folds
    m[:] = 0
    cuff = arm.entry + (arm.wrist - arm.entry) * arm.cuff
    sw = fw * rng.uniform(1.2, 1.5)
    pts = [arm.entry + n * sw * 0.6, cuff + n * sw * 0.5, cuff - n * sw * 0.5, arm.entry - n * sw * 0.6]
    cv2.fillPoly(m, [_poly(pts, off)], 255, cv2.LINE_AA, shift=SHIFT)
    paint.part(m, np.array(cloth, np.float32), sw, cuff, (arm.axis, fw * rng.uniform(0.25, 0.45), rng.uniform(0, 6)))
    # thumb under the palm's edge, palm, then fingers
    tb, tt, tw = arm.thumb
    _finger(rgb, alpha, tb, tt, tw, off, tone, lit)
    m[:] = 0
    ang = math.degrees(math.atan2(arm.axis[1], arm.axis[0]))
    cv2.ellipse(m, _pt(arm.palm, off), (round(arm.palm_length * 0.55 * ONE), round(arm.palm_width * 0.5 * ONE)),
                ang, 0, 360, 255, -1, cv2.LINE_AA, shift=SHIFT)  # fmt: skip
    cv2.line(m, _pt(arm.wrist, off), _pt(arm.palm, off), 255, max(2, int(arm.fore_width * 0.8)), cv2.LINE_AA,
             shift=SHIFT)  # fmt: skip
    paint.part(m, tone, arm.palm_width, arm.palm)
    for base, tip, fwid in arm.fingers:
        _finger(rgb, alpha, base, tip, fwid, off, tone, lit)


def _finger(rgb: np.ndarray, alpha: np.ndarray, base: np.ndarray, tip: np.ndarray, width: float,
            off: tuple[int, int], tone: np.ndarray, lit: np.ndarray) -> None:
    """A finger as a shaded capsule: darker rim, body, a highlight toward the light, a nail, a knuckle crease."""
    wi = max(2, round(width))
    for scale, k, shift in ((1.0, 0.72, np.zeros(2)), (0.75, 0.93, np.zeros(2)), (0.3, 1.06, lit * width * 0.18)):
        color = tuple(float(min(255.0, v * k)) for v in tone)
        cv2.line(rgb, _pt(base + shift, off), _pt(tip + shift, off), color, max(1, round(wi * scale)), cv2.LINE_AA,
                 shift=SHIFT)  # fmt: skip
    cv2.line(alpha, _pt(base, off), _pt(tip, off), 1.0, wi, cv2.LINE_AA, shift=SHIFT)
    d = tip - base
    length = float(np.hypot(*d))
    if length < 2:
        return
    u = d / length
    n = np.array([-u[1], u[0]])
    nail = tip - u * width * 0.55
    ang = math.degrees(math.atan2(u[1], u[0]))
    nail_color = tuple(float(min(255.0, v * 1.1 + 14)) for v in tone)
    cv2.ellipse(rgb, _pt(nail, off), (round(width * 0.3 * ONE), round(width * 0.24 * ONE)), ang, 0, 360,
                nail_color, -1, cv2.LINE_AA, shift=SHIFT)  # fmt: skip
    crease = base + u * length * 0.45
    cv2.line(rgb, _pt(crease - n * width * 0.25, off), _pt(crease + n * width * 0.25, off),
             tuple(float(v * 0.78) for v in tone), max(1, round(width * 0.05)), cv2.LINE_AA, shift=SHIFT)  # fmt: skip


def draw_hands(
    img: np.ndarray,
    cam: Camera,
    rng: np.random.Generator,
    light: tuple[float, float],
    count: int = 1,
    keep_clear: np.ndarray | None = None,
    board: np.ndarray | None = None,
    min_tiles: float = 1.5,
) -> np.ndarray:
    """Draw ``count`` arms onto a 4-channel uint8 image; returns the covered mask (0..255).

    The arms reach over the board, unless ``keep_clear`` (an image polygon, the
    board with its frame) is given: then they rest on the table beside it, and
    an arm that would still touch the polygon is not drawn (a hand near the
    board that hides nothing). With ``board`` (the image polygon of the 7x7 tile
    area) an arm over the board must hide at least ``min_tiles`` tiles' worth of
    it, so an occluded frame is never just a fingertip on the frame.
    """
    h, w = img.shape[:2]
    unit = cam.pixels_per_unit() * rng.uniform(1.05, 1.3)  # hands are above the board: larger
    covered = np.zeros((h, w), np.uint8)
    clear = None if keep_clear is None else np.asarray(keep_clear, dtype=np.float32).reshape(-1, 1, 2)
    attempts = count * 8
    drawn = 0
    for _ in range(attempts):
        if drawn >= count:
            break
        entry = _edge_point(rng, w, h)
        if clear is None:
            target = cam.project_plane(rng.uniform(0.3, 6.7, 2))[0]
        else:
            # reach in a little from the edge, toward the middle of the image, on the table
            inward = np.array([w / 2, h / 2]) - entry
            inward /= max(float(np.hypot(*inward)), 1e-6)
            side = np.array([-inward[1], inward[0]])
            target = entry + inward * unit * rng.uniform(3.5, 7.0) + side * unit * rng.normal(0, 1.5)
            if cv2.pointPolygonTest(clear, (float(target[0]), float(target[1])), True) > -unit * 0.8:
                continue
        arm = make_arm(rng, entry, target, unit)
        skin = skin_tone(rng)
        cloth = jitter_color(rng, tuple(float(v) for v in rng.uniform(20, 230, 3)), sat=0.3)  # type: ignore[arg-type]
        lift = unit * rng.uniform(0.6, 1.6)
        blur = max(2.0, unit * 0.35)
        pts = np.array([arm.entry, arm.wrist, arm.palm, *[f[1] for f in arm.fingers], arm.thumb[1]])
        pad = int(max(arm.fore_width, arm.palm_width) + abs(light[0] * lift) + abs(light[1] * lift) + 3 * blur)
        x0, y0 = (max(0, int(v) - pad) for v in pts.min(axis=0))
        x1, y1 = int(min(w, pts[:, 0].max() + pad)), int(min(h, pts[:, 1].max() + pad))
        if x1 <= x0 or y1 <= y0:
            continue
        roi = img[y0:y1, x0:x1]
        rgb = roi[:, :, :3].astype(np.float32)
        alpha = np.zeros((y1 - y0, x1 - x0), np.float32)
        hand = rgb.copy()
        draw_arm(hand, alpha, arm, (x0, y0), skin, cloth, light, rng)
        # the hand is nearer the camera than the board the lens is focused on: slightly out of focus
        defocus = max(0.6, unit * rng.uniform(0.01, 0.04))
        hand = np.asarray(cv2.GaussianBlur(hand, (0, 0), defocus), dtype=np.float32)
        alpha = np.asarray(cv2.GaussianBlur(alpha, (0, 0), defocus), dtype=np.float32)
        if clear is not None:
            inside = np.zeros(alpha.shape, np.uint8)
            cv2.fillPoly(inside, [np.round(clear.reshape(-1, 2) - (x0, y0)).astype(np.int32)], 1)
            if (alpha[inside > 0] > 0.02).any():
                continue  # it would hide part of the board
        elif board is not None:
            inside = np.zeros(alpha.shape, np.uint8)
            quad = np.asarray(board, dtype=np.float64).reshape(-1, 2)
            cv2.fillPoly(inside, [np.round(quad - (x0, y0)).astype(np.int32)], 1)
            tile_area = cv2.contourArea(quad.astype(np.float32)) / 49.0
            if float((alpha[inside > 0] > 0.5).sum()) < min_tiles * tile_area:
                continue  # barely over the board: reach again
        drawn += 1
        # soft shadow on the board, offset along the light (blurred at a quarter of the resolution)
        q = 4
        small = cv2.resize(alpha, ((x1 - x0 + q - 1) // q, (y1 - y0 + q - 1) // q), interpolation=cv2.INTER_AREA)
        m = np.array([[1, 0, light[0] * lift / q], [0, 1, light[1] * lift / q]], dtype=np.float32)
        small = cv2.GaussianBlur(cv2.warpAffine(small, m, small.shape[::-1]), (0, 0), blur / q)
        shadow = cv2.resize(small, (x1 - x0, y1 - y0), interpolation=cv2.INTER_LINEAR)
        rgb *= (1.0 - 0.5 * shadow)[:, :, None]
        a = alpha[:, :, None]
        roi[:, :, :3] = np.clip(rgb + (hand - rgb) * a, 0, 255).astype(np.uint8)
        roi[:, :, 3] = (roi[:, :, 3].astype(np.float32) * (1.0 - alpha)).astype(np.uint8)
        region = covered[y0:y1, x0:x1]
        np.maximum(region, (alpha * 255).astype(np.uint8), out=region)
    return covered
