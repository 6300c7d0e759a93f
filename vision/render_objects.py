"""Pawns, drawn in image space through the scene's camera.

Pawns are lathe solids (a chess-pawn-like cone with a ball head, or a plain
cone) projected through the real camera, so they lean away from the image
centre and are seen slightly from the side, like a real figure under an
overhead camera; their flat shadows are world polygons handed to the table
canvas.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.render_camera import Camera
from vision.render_looks import BGR

SHIFT = 4
ONE = 1 << SHIFT

PAWN_COLORS: dict[str, BGR] = {
    "red": (38, 38, 195),
    "yellow": (35, 205, 235),
    "green": (55, 150, 40),
    "blue": (175, 85, 25),
}


PAWN_ORDER: tuple[str, ...] = tuple(PAWN_COLORS)
PAWN_KINDS: tuple[str, ...] = ("pawn", "cone", "meeple")


def pawn_profile(scale: float, kind: str = "pawn") -> list[tuple[float, float]]:
    """(height, radius) discs of a pawn from the base up, in tile units.

    ``pawn``: a chess-pawn-like body with a collar and a ball head; ``cone``: the
    classic Labyrinth figure, a straight cone topped by a ball; ``meeple``: a
    squat round-topped figure.
    """
    out: list[tuple[float, float]] = []
    steps = 44
    for k in range(steps + 1):
        z = 0.67 * k / steps
        if kind == "cone":
            if z <= 0.04:
                r = 0.2
            elif z <= 0.48:
                r = 0.19 - (z - 0.04) / 0.44 * 0.13
            else:
                dz = z - 0.57
                r = max(math.sqrt(max(0.1**2 - dz * dz, 0.0)), 0.06 if z < 0.57 else 0.0)
        elif kind == "meeple":
            zz = z * 0.8
            if zz <= 0.36:
                r = 0.22 - zz * 0.12
            else:
                dz = zz - 0.36
                r = math.sqrt(max(0.18**2 - dz * dz, 0.0))
        elif z <= 0.05:
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
    kind: str = "pawn"


def pawn_positions(
    squares: dict[str, tuple[int, int]], seed: int, jitter: float = 0.07
) -> dict[str, tuple[float, float]]:
    """Base centres for pawns on squares: the square centre ± jitter, spread out when several share one.

    The placement is keyed by ``seed``, the square and who stands there, so a
    pawn that did not move stays exactly where it was from frame to frame.
    """
    by_square: dict[tuple[int, int], list[str]] = {}
    for color, sq in squares.items():
        by_square.setdefault(sq, []).append(color)
    out: dict[str, tuple[float, float]] = {}
    for (r, c), colors in by_square.items():
        n = len(colors)
        key = sum(1 << PAWN_ORDER.index(col) for col in colors)
        rng = np.random.default_rng([abs(seed), 7, r, c, key])
        spread = 0.0 if n == 1 else (0.21 if n == 2 else 0.25)
        start = rng.uniform(0, 2 * math.pi)
        for k, color in enumerate(sorted(colors, key=PAWN_ORDER.index)):
            a = start + 2 * math.pi * k / n
            dx, dy = np.clip(rng.normal(0, jitter / 2, 2), -jitter, jitter) * (1.0 if n == 1 else 0.4)
            out[color] = (c + 0.5 + spread * math.cos(a) + dx, r + 0.5 + spread * math.sin(a) + dy)
    return out


def pawn_shadow(pawn: Pawn, light: tuple[float, float]) -> np.ndarray:
    """World polygon of the pawn's shadow cast along ``light`` (shadow offset per unit height)."""
    pts = []
    for z, r in pawn_profile(pawn.scale, pawn.kind)[::4]:
        a = np.linspace(0, 2 * math.pi, 16, endpoint=False)
        pts.append(np.column_stack([pawn.x + z * light[0] + r * np.cos(a), pawn.y + z * light[1] + r * np.sin(a)]))
    allp = np.concatenate(pts).astype(np.float32)
    return cv2.convexHull(allp).reshape(-1, 2).astype(np.float64)


def draw_pawn(img: np.ndarray, cam: Camera, pawn: Pawn, light: tuple[float, float]) -> tuple[float, float]:
    """Draw one pawn onto a 4-channel uint8 image (glow channel cleared); returns the base pixel.

    The solid is drawn as stacked discs, each in bands of brightness by how
    much its side faces the light; the bands are then smoothed inside the
    silhouette (a normalised blur) so the plastic looks rounded, not terraced.
    """
    h_img, w_img = img.shape[:2]
    profile = pawn_profile(pawn.scale, pawn.kind)
    n = 24
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    rings = []
    for z, r in profile:
        rings.append(np.column_stack([pawn.x + r * np.cos(a), pawn.y + r * np.sin(a), np.full(n, -z)]))
    px = cam.project(np.concatenate(rings)).reshape(len(profile), n, 2)
    base = cam.project(np.array([[pawn.x, pawn.y, 0.0]]))[0]
    ppu = cam.pixels_per_unit()
    pad = int(ppu * 0.05) + 4
    x0 = max(0, int(px[:, :, 0].min()) - pad)
    y0 = max(0, int(px[:, :, 1].min()) - pad)
    x1 = min(w_img, int(px[:, :, 0].max()) + pad + 1)
    y1 = min(h_img, int(px[:, :, 1].max()) + pad + 1)
    if x1 <= x0 or y1 <= y0:
        return float(base[0]), float(base[1])
    local = px - (x0, y0)
    layer = np.zeros((y1 - y0, x1 - x0, 3), np.float32)
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    lit_dir = math.atan2(-light[1], -light[0])  # the side facing the light
    facing = np.cos(a - lit_dir)
    color = np.array(pawn.bgr, np.float32)
    bands = [(-2.0, 0.45), (-0.4, 0.62), (0.1, 0.82), (0.55, 1.0)]
    for k in range(len(profile)):
        ring = local[k]
        cv2.fillPoly(mask, [np.round(ring * ONE).astype(np.int32)], 1.0, cv2.LINE_AA, shift=SHIFT)
        lift = 0.15 * k / len(profile)  # upper discs (the head) also catch light from above
        centre = ring.mean(axis=0)
        for threshold, k_light in bands:
            sel = facing > threshold
            if sel.sum() < 3:
                continue
            pts = ring if sel.all() else np.concatenate([ring[sel], (centre + ring[sel][::-1]) / 2])
            tone = tuple(float(min(255.0, v * (k_light + lift))) for v in color)
            cv2.fillPoly(layer, [np.round(pts * ONE).astype(np.int32)], tone, cv2.LINE_AA, shift=SHIFT)
    sigma = max(0.8, ppu * 0.02 * pawn.scale)
    weight = cv2.GaussianBlur(mask, (0, 0), sigma)
    smooth = cv2.GaussianBlur(layer * mask[:, :, None], (0, 0), sigma) / np.maximum(weight, 1e-3)[:, :, None]
    roi = img[y0:y1, x0:x1]
    alpha = np.clip(mask, 0, 1)
    rgb = roi[:, :, :3].astype(np.float32)
    roi[:, :, :3] = np.clip(rgb + (smooth - rgb) * alpha[:, :, None], 0, 255).astype(np.uint8)
    roi[:, :, 3] = (roi[:, :, 3].astype(np.float32) * (1.0 - alpha)).astype(np.uint8)
    # a small specular glint on the head, toward the light
    head_z, head_r = profile[-6]
    hx = pawn.x + math.cos(lit_dir) * head_r * 0.45
    hy = pawn.y + math.sin(lit_dir) * head_r * 0.45
    g = cam.project(np.array([[hx, hy, -head_z]]))[0]
    rad = max(1.0, ppu * 0.022 * pawn.scale)
    cv2.circle(img, (round(g[0] * ONE), round(g[1] * ONE)), round(rad * ONE),
               (235, 240, 245, 0), -1, cv2.LINE_AA, shift=SHIFT)  # fmt: skip
    return float(base[0]), float(base[1])


def draw_pawns(img: np.ndarray, cam: Camera, pawns: Sequence[Pawn], light: tuple[float, float]) -> dict[str, tuple]:
    """Draw pawns far-to-near so nearer ones overlap farther ones; returns each base pixel."""
    depth = {p.color: float(cam.depth(np.array([[p.x, p.y, -0.3]]))[0]) for p in pawns}
    out: dict[str, tuple] = {}
    for p in sorted(pawns, key=lambda q: -depth[q.color]):
        out[p.color] = draw_pawn(img, cam, p, light)
    return out
