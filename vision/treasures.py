"""Treasure pictures: which tiles show one, and a compact descriptor to recognise it later.

Treasures are *tracked*, not re-recognised every turn (DESIGN.md §3): the
engine knows every tile's identity from setup through each push. Vision only
says which squares show a picture and gives a small appearance vector, so a
picture named once (at setup) can be matched again later — after the tile has
been pushed and turned, under other lighting.

Detection: a picture sits at the tile's centre, on the corridor. The
corridor's own colour is sampled on the tile's open sides (between the centre
and the open edges, always corridor) and the picture is the share of centre
pixels unlike it.

Descriptor (:data:`DESCRIPTOR_SIZE` = 40 numbers, rotation-invariant, lighting-
tolerant): a hue histogram of the saturated picture pixels (12 bins, weighted by
saturation), a histogram of lightness relative to the corridor for all picture
pixels (8 bins), per-ring statistics (4 rings: foreign share, mean relative
lightness, mean chroma, hue-vector length: 16 numbers), and 4 global numbers.
Compare two with :func:`descriptor_distance` (smaller = more alike).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.board import SIZE
from companion.observation import TileReading
from vision.rectify import Rectified

DESCRIPTOR_SIZE = 40
HUE_BINS = 12
LIGHT_BINS = 8
RINGS = 4


@dataclass(frozen=True)
class TreasureConfig:
    """``radius``: picture disc radius in tiles; ``foreign_distance``: Lab distance from the
    corridor colour that makes a pixel part of a picture; ``min_share``: share of the disc
    such pixels must cover."""

    radius: float = 0.3
    foreign_distance: float = 22.0
    min_share: float = 0.18


@dataclass(frozen=True)
class Picture:
    treasure: bool
    descriptor: tuple[float, ...]
    share: float


def _disc_geometry(tile_px: int, radius: float) -> tuple[np.ndarray, np.ndarray]:
    yy, xx = np.mgrid[0:tile_px, 0:tile_px].astype(np.float32)
    c = (tile_px - 1) / 2.0
    rr = np.hypot(xx - c, yy - c) / tile_px
    disc = rr <= radius
    ring = np.minimum((rr / radius * RINGS).astype(np.int32), RINGS - 1)
    return disc, ring


def describe(rect: Rectified, tiles: Sequence[TileReading], config: TreasureConfig | None = None) -> list[Picture]:
    """Per square (row-major): is there a picture, and its descriptor (empty when none)."""
    cfg = config or TreasureConfig()
    t = rect.tile_px
    grid = rect.tiles_array()  # (7, 7, t, t, 3) BGR
    lab = cv2.cvtColor(grid.reshape(-1, t, 3), cv2.COLOR_BGR2Lab).reshape(grid.shape).astype(np.float32)
    hsv = cv2.cvtColor(grid.reshape(-1, t, 3), cv2.COLOR_BGR2HSV).reshape(grid.shape)
    disc, ring = _disc_geometry(t, cfg.radius)
    corridor_all = _corridor_colours(lab, tiles, t)
    fallback = np.median(np.stack([c for c in corridor_all if c is not None]), axis=0) if any(
        c is not None for c in corridor_all
    ) else np.median(lab.reshape(-1, 3), axis=0)
    out: list[Picture] = []
    for i in range(SIZE * SIZE):
        r, c = divmod(i, SIZE)
        ref = corridor_all[i] if corridor_all[i] is not None else fallback
        tile_lab = lab[r, c]
        dist = np.linalg.norm(tile_lab - ref, axis=2)
        foreign = (dist > cfg.foreign_distance) & disc
        share = float(foreign.sum()) / float(disc.sum())
        if share < cfg.min_share:
            out.append(Picture(False, (), share))
            continue
        out.append(Picture(True, _descriptor(tile_lab, hsv[r, c], foreign, ring, disc, ref), share))
    return out


def _corridor_colours(lab: np.ndarray, tiles: Sequence[TileReading], t: int) -> list[np.ndarray | None]:
    """Each tile's corridor colour, sampled halfway between its centre and each open side."""
    half = max(1, t // 12)
    c = t // 2
    offsets = {1: (0, -int(0.36 * t)), 2: (int(0.36 * t), 0), 4: (0, int(0.36 * t)), 8: (-int(0.36 * t), 0)}
    out: list[np.ndarray | None] = []
    for i, reading in enumerate(tiles):
        r, col = divmod(i, SIZE)
        patches = []
        for bit, (dx, dy) in offsets.items():
            if int(reading.openings) & bit:
                x, y = c + dx, c + dy
                patches.append(lab[r, col, y - half : y + half + 1, x - half : x + half + 1].reshape(-1, 3))
        out.append(np.median(np.concatenate(patches), axis=0) if patches else None)
    return out


def _descriptor(
    lab: np.ndarray, hsv: np.ndarray, foreign: np.ndarray, ring: np.ndarray, disc: np.ndarray, ref: np.ndarray
) -> tuple[float, ...]:
    light = lab[..., 0] - ref[0]  # lightness relative to the corridor: exposure-tolerant
    a, b = lab[..., 1] - 128.0, lab[..., 2] - 128.0
    chroma = np.hypot(a, b)
    hue = hsv[..., 0].astype(np.float32)
    sat = hsv[..., 1].astype(np.float32) / 255.0
    sel = foreign
    hue_hist = np.histogram(hue[sel], bins=HUE_BINS, range=(0, 180), weights=sat[sel])[0]
    hue_hist = hue_hist / max(1e-6, hue_hist.sum())
    light_hist = np.histogram(np.clip(light[sel], -120, 119), bins=LIGHT_BINS, range=(-120, 120))[0].astype(np.float64)
    light_hist = light_hist / max(1.0, light_hist.sum())
    rings = []
    for k in range(RINGS):
        in_ring = disc & (ring == k)
        n = max(1, int(in_ring.sum()))
        ang = np.deg2rad(hue[in_ring] * 2.0)
        w = sat[in_ring]
        vec = np.hypot(float((np.cos(ang) * w).sum()), float((np.sin(ang) * w).sum())) / n
        rings += [
            float(foreign[in_ring].sum()) / n,
            float(light[in_ring].mean()) / 100.0 if in_ring.any() else 0.0,
            float(chroma[in_ring].mean()) / 100.0 if in_ring.any() else 0.0,
            vec,
        ]
    share = float(sel.sum()) / max(1, int(disc.sum()))
    stats = [share, float(chroma[sel].mean()) / 100.0, float(light[sel].std()) / 100.0, float(sat[sel].mean())]
    vector = np.concatenate([hue_hist, light_hist, rings, stats]).astype(np.float64)
    return tuple(round(float(v), 4) for v in vector)


def descriptor_distance(a: Sequence[float], b: Sequence[float]) -> float:
    """Distance between two picture descriptors (L1 over the histogram parts, L2 over the rest)."""
    if len(a) != DESCRIPTOR_SIZE or len(b) != DESCRIPTOR_SIZE:
        return float("inf")
    va, vb = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    h = HUE_BINS + LIGHT_BINS
    return float(np.abs(va[:h] - vb[:h]).sum() + np.linalg.norm(va[h:] - vb[h:]))
