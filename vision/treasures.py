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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.board import SIZE, START_SQUARES, Square
from companion.observation import TileReading
from vision.rectify import Rectified

DESCRIPTOR_SIZE = 40
HUE_BINS = 12
LIGHT_BINS = 8
RINGS = 4


@dataclass(frozen=True)
class TreasureConfig:
    """``radius``: the disc (tiles) where a picture is looked for: inside the narrowest
    corridor, so walls never count; ``describe_radius``: the disc the descriptor covers
    (most of a picture); ``foreign_distance``: Lab distance from the corridor colour that
    makes a pixel part of a picture, raised to ``texture_factor`` times the corridor's own
    texture spread (cracks, gravel); ``min_share``: share of the disc such pixels must cover."""

    radius: float = 0.15
    describe_radius: float = 0.22
    foreign_distance: float = 22.0
    texture_factor: float = 1.5
    min_share: float = 0.3


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


def describe(
    rect: Rectified,
    tiles: Sequence[TileReading],
    config: TreasureConfig | None = None,
    hidden: Iterable[Square] = (),
) -> list[Picture]:
    """Per square (row-major): is there a picture, and its descriptor (empty when none).

    The four start squares never carry a treasure (their markings are not pictures),
    and ``hidden`` squares (under a pawn) cannot show one. Vectorised over the 49
    tiles; only tiles with a picture get a descriptor.
    """
    cfg = config or TreasureConfig()
    t = rect.tile_px
    grid = rect.tiles_array()  # (7, 7, t, t, 3) BGR
    flat = grid.reshape(-1, t, 3)
    lab8 = cv2.cvtColor(flat, cv2.COLOR_BGR2Lab).reshape(SIZE * SIZE, t * t, 3)
    hsv = cv2.cvtColor(flat, cv2.COLOR_BGR2HSV).reshape(SIZE * SIZE, t * t, 3)
    disc, _ = _disc_geometry(t, cfg.radius)
    wide, ring = _disc_geometry(t, cfg.describe_radius)
    ref, texture = _corridor_colours(lab8.reshape(SIZE * SIZE, t, t, 3), tiles, t)  # (49, 3), (49,)
    # Only the pixels of the two discs are ever read: colour distances and descriptors work
    # on those (row-major order kept, so every sum and histogram is the same as over the tile).
    area = (disc | wide).ravel()
    in_disc, in_wide = disc.ravel()[area], wide.ravel()[area]
    lab = lab8[:, area].astype(np.float32)  # (49, n, 3)
    dist = np.linalg.norm(lab - ref[:, None, :], axis=2)
    limit = np.maximum(cfg.foreign_distance, cfg.texture_factor * texture)
    foreign = dist > limit[:, None]
    shares = (foreign & in_disc[None]).sum(axis=1) / float(disc.sum())
    hsv_wide, ring_wide = hsv[:, area][:, in_wide], ring.ravel()[wide.ravel()]
    skip = set(START_SQUARES) | set(hidden)
    out: list[Picture] = []
    for i in range(SIZE * SIZE):
        share = float(shares[i])
        if share < cfg.min_share or divmod(i, SIZE) in skip:
            out.append(Picture(False, (), share))
        else:
            described = _descriptor(lab[i][in_wide], hsv_wide[i], foreign[i][in_wide], ring_wide, ref[i])
            out.append(Picture(True, described, share))
    return out


def _corridor_colours(lab: np.ndarray, tiles: Sequence[TileReading], t: int) -> tuple[np.ndarray, np.ndarray]:
    """Each tile's corridor colour (49, 3) and texture spread (49,), from small patches between its centre
    and its open sides (always corridor).

    A tile whose reading has no open side (impossible for a valid shape) falls back to the board's median.
    """
    half = max(1, t // 12)
    c = t // 2
    d = int(0.36 * t)
    spots = ((c - d, c), (c, c + d), (c + d, c), (c, c - d))  # (y, x) toward N, E, S, W
    patches = np.stack(
        [lab[:, y - half : y + half + 1, x - half : x + half + 1].reshape(len(lab), -1, 3) for y, x in spots], axis=1
    ).astype(np.float32)  # (49, 4, n, 3)
    medians = np.median(patches, axis=2)  # (49, 4, 3)
    openings = np.array([int(r.openings) for r in tiles], dtype=np.int64)
    is_open = ((openings[:, None] >> np.arange(4)[None]) & 1).astype(bool)  # N E S W bits 1 2 4 8
    weights = is_open[..., None].astype(np.float32)
    counts = weights.sum(axis=1)
    mean = (medians * weights).sum(axis=1) / np.maximum(counts, 1.0)
    fallback = np.median(medians.reshape(-1, 3), axis=0)
    ref = np.where(counts > 0, mean, fallback).astype(np.float32)
    # How far the corridor's own texture (cracks, gravel, grain) strays from its colour, per tile.
    spread = np.linalg.norm(patches - ref[:, None, None, :], axis=3)  # (49, 4, n)
    open_spread = np.where(is_open[..., None], spread, -1.0).reshape(len(lab), -1)
    ranked = -np.sort(-open_spread, axis=1)  # descending; closed sides (-1) sort last
    n_open = (open_spread >= 0).sum(axis=1)
    texture = np.where(n_open > 0, ranked[np.arange(len(lab)), (0.1 * n_open).astype(np.int64)], 0.0)
    return ref, texture.astype(np.float32)


def _descriptor(
    lab: np.ndarray, hsv: np.ndarray, foreign: np.ndarray, ring: np.ndarray, ref: np.ndarray
) -> tuple[float, ...]:
    """One picture's descriptor from the describe disc's pixels, row-major: Lab (n, 3) float,
    HSV (n, 3) uint8, which are foreign (n,), their ring index (n,); ``ref`` the corridor colour."""
    sel = foreign
    n_sel = max(1, int(sel.sum()))
    light = lab[:, 0] - ref[0]  # lightness relative to the corridor: exposure-tolerant
    chroma = np.hypot(lab[:, 1] - 128.0, lab[:, 2] - 128.0)
    hue = hsv[:, 0].astype(np.int64)
    sat = hsv[:, 1].astype(np.float32) / 255.0
    hue_hist = np.bincount((hue[sel] * HUE_BINS) // 180, weights=sat[sel], minlength=HUE_BINS)[:HUE_BINS]
    hue_hist = hue_hist / max(1e-6, float(hue_hist.sum()))
    light_bins = np.clip(((light[sel] + 120.0) * LIGHT_BINS / 240.0).astype(np.int64), 0, LIGHT_BINS - 1)
    light_hist = np.bincount(light_bins, minlength=LIGHT_BINS) / float(n_sel)
    rings_idx = ring
    counts = np.maximum(np.bincount(rings_idx, minlength=RINGS), 1).astype(np.float64)
    angle = np.deg2rad(hue * 2.0)
    w = sat
    vx = np.bincount(rings_idx, weights=np.cos(angle) * w, minlength=RINGS)
    vy = np.bincount(rings_idx, weights=np.sin(angle) * w, minlength=RINGS)
    rings = np.stack(
        [
            np.bincount(rings_idx, weights=sel, minlength=RINGS) / counts,
            np.bincount(rings_idx, weights=light, minlength=RINGS) / counts / 100.0,
            np.bincount(rings_idx, weights=chroma, minlength=RINGS) / counts / 100.0,
            np.hypot(vx, vy) / counts,
        ],
        axis=1,
    ).ravel()
    stats = [
        n_sel / max(1.0, float(len(ring))),
        float(chroma[sel].mean()) / 100.0 if sel.any() else 0.0,
        float(light[sel].std()) / 100.0 if sel.any() else 0.0,
        float(sat[sel].mean()) if sel.any() else 0.0,
    ]
    vector = np.concatenate([hue_hist, light_hist, rings, stats])
    return tuple(round(v, 4) for v in vector.tolist())  # tolist: the same Python floats, made at once


def descriptor_distance(a: Sequence[float], b: Sequence[float]) -> float:
    """Distance between two picture descriptors (L1 over the histogram parts, L2 over the rest)."""
    if len(a) != DESCRIPTOR_SIZE or len(b) != DESCRIPTOR_SIZE:
        return float("inf")
    va, vb = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    h = HUE_BINS + LIGHT_BINS
    return float(np.abs(va[:h] - vb[:h]).sum() + np.linalg.norm(va[h:] - vb[h:]))
