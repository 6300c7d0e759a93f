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
tolerant). The tile's corridor is its white reference: every picture pixel is
divided by the corridor's colour (in log space), which takes out the light's
colour and strength, so only the print's colour *relative to the board's*
remains. Picture pixels count as far as they are saturated (plaques, outlines
and shading are grey in every edition). Then: a hue histogram in the
log-chromaticity plane around the corridor's colour (15 sectors, soft-binned,
plus one for nearly colourless pixels), a histogram of brightness relative to the
corridor (4 bins), the picture's share of 4 rings (its radial profile), how
strongly its outline repeats 2..6 times around the centre in the inner and outer
half (rotation-invariant Fourier magnitudes: ellipse, triangle, square, star,
hexagon; 10 numbers) and the mean and spread of its relative colour and
brightness (6). Compare two with :func:`descriptor_distance` (chi-square over the
histograms, L1 over the rest; smaller = more alike).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from companion.board import SIZE, START_SQUARES, Square
from companion.observation import TileReading
from vision.rectify import Rectified

DESCRIPTOR_SIZE = 40
HUE_BINS = 15  # sectors of hue around the corridor's colour in the log-chromaticity plane
CHROMA_FULL = 0.3  # log-chromaticity distance from the corridor's colour that counts as fully coloured
LIGHT_BINS = 4
LIGHT_LOW, LIGHT_HIGH = -2.0, 0.6  # log brightness relative to the corridor's
RINGS = 4
HARMONICS = (2, 3, 4, 5, 6)
#: Weights of the distance's three parts (histograms, shape, mean colours): measured on two
#: renderers' boards, the shape as much as the colour, the mean colours half (they repeat the histograms).
W_HIST, W_SHAPE, W_COLOUR = 1.0, 1.0, 0.5


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


@dataclass(frozen=True)
class _Geometry:
    """The discs' pixels and the descriptor's ring and harmonic weights, per tile size (cached)."""

    area: np.ndarray  # (t*t,) pixels of either disc
    in_disc: np.ndarray  # (n,) of those, in the search disc
    in_wide: np.ndarray  # (n,) of those, in the describe disc
    wide_idx: np.ndarray  # (m,) flat indices of the describe disc's pixels
    disc_size: int
    rings: np.ndarray  # (m, RINGS) one-hot ring of each describe pixel
    ring_sizes: np.ndarray  # (RINGS,)
    waves: np.ndarray  # (m, 2 * len(HARMONICS) * 2) cos/sin of k*angle, inner and outer half
    halves: np.ndarray  # (m, 2) one-hot inner/outer half


@cache
def _geometry(tile_px: int, radius: float, describe_radius: float) -> _Geometry:
    disc, _ = _disc_geometry(tile_px, radius)
    wide, ring = _disc_geometry(tile_px, describe_radius)
    area = (disc | wide).ravel()
    wide_idx = np.flatnonzero(wide.ravel())
    ring_w = ring.ravel()[wide_idx]
    rings = np.eye(RINGS, dtype=np.float32)[ring_w]
    yy, xx = np.mgrid[0:tile_px, 0:tile_px].astype(np.float32)
    c = (tile_px - 1) / 2.0
    angle = np.arctan2(yy - c, xx - c).ravel()[wide_idx]
    outer = (ring_w >= RINGS // 2).astype(np.int64)
    halves = np.eye(2, dtype=np.float32)[outer]
    k = np.array(HARMONICS, dtype=np.float32)
    trig = np.stack([np.cos(angle[:, None] * k), np.sin(angle[:, None] * k)], axis=-1)  # (m, K, 2)
    waves = (halves[:, :, None, None] * trig[:, None, :, :]).reshape(len(wide_idx), -1)
    return _Geometry(
        area,
        disc.ravel()[area],
        wide.ravel()[area],
        wide_idx,
        int(disc.sum()),
        rings,
        np.maximum(rings.sum(axis=0), 1.0),
        waves.astype(np.float32),
        halves,
    )


def describe(
    rect: Rectified,
    tiles: Sequence[TileReading],
    config: TreasureConfig | None = None,
    hidden: Iterable[Square] = (),
    lab: np.ndarray | None = None,
) -> list[Picture]:
    """Per square (row-major): is there a picture, and its descriptor (empty when none).

    The four start squares never carry a treasure (their markings are not pictures),
    and ``hidden`` squares (under a pawn) cannot show one. Vectorised over the 49
    tiles, and the descriptors over all pictures at once. ``lab``: the view's tile area
    in Lab as :func:`vision.tile_features.view_bands` converted it (the reader's), so it
    is not converted twice (Lab is per pixel: the same values either way).
    """
    cfg = config or TreasureConfig()
    t, m = rect.tile_px, rect.margin_px
    # The tiles as a (7, 7, t, t, 3) BGR view (tiles_array()'s layout, not copied): only the
    # tiles with a picture are gathered from it (for their descriptors).
    grid = rect.image[m : m + SIZE * t, m : m + SIZE * t].reshape(SIZE, t, SIZE, t, 3).swapaxes(1, 2)
    if lab is None or lab.shape != rect.image.shape:
        flat = rect.tiles_array().reshape(-1, t, 3)
        lab8 = cv2.cvtColor(flat, cv2.COLOR_BGR2Lab).reshape(SIZE * SIZE, t * t, 3)
    else:
        area = lab[m : m + SIZE * t, m : m + SIZE * t]  # tiles_array()'s layout: tile by tile
        lab8 = area.reshape(SIZE, t, SIZE, t, 3).swapaxes(1, 2).reshape(SIZE * SIZE, t * t, 3)
    geo = _geometry(t, cfg.radius, cfg.describe_radius)
    ref, texture = _corridor_colours(lab8.reshape(SIZE * SIZE, t, t, 3), tiles, t)  # (49, 3), (49,)
    # Only the pixels of the two discs are ever read: colour distances and descriptors work
    # on those (row-major order kept, so every sum and histogram is the same as over the tile).
    lab = lab8[:, geo.area].astype(np.float32)  # (49, n, 3)
    diff = lab - ref[:, None, :]
    limit = np.maximum(cfg.foreign_distance, cfg.texture_factor * texture)
    foreign = np.einsum("pnc,pnc->pn", diff, diff) > (limit**2)[:, None]  # squared: no square roots
    shares = (foreign & geo.in_disc[None]).sum(axis=1) / float(geo.disc_size)
    skip = np.zeros(SIZE * SIZE, dtype=bool)
    for r, c in set(START_SQUARES) | set(hidden):
        if 0 <= r < SIZE and 0 <= c < SIZE:
            skip[r * SIZE + c] = True
    found = np.flatnonzero((shares >= cfg.min_share) & ~skip)
    vectors: list[tuple[float, ...]] = []
    if len(found):
        bgr = grid[found // SIZE, found % SIZE].reshape(len(found), t * t, 3)[:, geo.wide_idx].astype(np.float32)
        ref_bgr = cv2.cvtColor(ref[found][None].round().clip(0, 255).astype(np.uint8), cv2.COLOR_Lab2BGR)[0]
        mask = foreign[found][:, geo.in_wide]
        vectors = [tuple(v) for v in np.round(_descriptors(bgr, ref_bgr.astype(np.float32), mask, geo), 4).tolist()]
    out = [Picture(False, (), s) for s in shares.tolist()]
    for i, vector in zip(found.tolist(), vectors, strict=True):
        out[i] = Picture(True, vector, out[i].share)
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
    # The middle value of each patch (an odd count, (2 half + 1)**2): np.median's, by one partition.
    middle = patches.shape[2] // 2
    medians = np.partition(patches, middle, axis=2)[:, :, middle]  # (49, 4, 3)
    openings = np.array([int(r.openings) for r in tiles], dtype=np.int64)
    is_open = ((openings[:, None] >> np.arange(4)[None]) & 1).astype(bool)  # N E S W bits 1 2 4 8
    weights = is_open[..., None].astype(np.float32)
    counts = weights.sum(axis=1)
    mean = (medians * weights).sum(axis=1) / np.maximum(counts, 1.0)
    if (counts > 0).all():
        ref = mean.astype(np.float32)
    else:
        ref = np.where(counts > 0, mean, np.median(medians.reshape(-1, 3), axis=0)).astype(np.float32)
    # How far the corridor's own texture (cracks, gravel, grain) strays from its colour, per tile.
    off = patches - ref[:, None, None, :]
    spread = np.sqrt(off[..., 0] ** 2 + off[..., 1] ** 2 + off[..., 2] ** 2)  # (49, 4, n)
    open_spread = np.where(is_open[..., None], spread, -1.0).reshape(len(lab), -1)
    ranked = -np.sort(-open_spread, axis=1)  # descending; closed sides (-1) sort last
    n_open = (open_spread >= 0).sum(axis=1)
    texture = np.where(n_open > 0, ranked[np.arange(len(lab)), (0.1 * n_open).astype(np.int64)], 0.0)
    return ref, texture.astype(np.float32)


def _descriptors(bgr: np.ndarray, ref: np.ndarray, mask: np.ndarray, geo: _Geometry) -> np.ndarray:
    """Descriptors (P, 40) of P pictures: the describe disc's pixels (P, n, 3) BGR, the corridor colour
    (P, 3) BGR of each tile, and which pixels are the picture's (P, n)."""
    # The corridor is the tile's own white reference: dividing by it takes out the light's
    # colour and strength (daylight, a warm lamp, an LED pool), the edition's print stays.
    logs = np.log(bgr + 4.0) - np.log(ref + 4.0)[:, None, :]
    u = logs[..., 2] - logs[..., 1]  # log red/green
    v = logs[..., 0] - logs[..., 1]  # log blue/green
    w = (logs[..., 0] + logs[..., 1] + logs[..., 2]) * np.float32(1.0 / 3.0)  # log brightness relative to the corridor
    # Each picture pixel counts as far as it is saturated: a plaque behind the picture, its
    # outline and its shading are grey in every edition, the print's own colours are not.
    blue, green, red = bgr[..., 0], bgr[..., 1], bgr[..., 2]  # per channel: reductions over 3 are slow
    brightest = np.maximum(np.maximum(blue, green), red)
    saturation = (brightest - np.minimum(np.minimum(blue, green), red)) / np.maximum(brightest, 1.0)
    weight = mask.astype(np.float32) * saturation
    count = np.maximum(weight.sum(axis=1, keepdims=True), 1e-3)
    n_pics = len(bgr)
    offset = np.arange(n_pics)[:, None]
    # Hue around the corridor's colour, in HUE_BINS sectors split linearly between the two nearest
    # (a colour near a border does not jump bins between frames), weighted by how far from the
    # corridor's colour it is; what is nearly colourless goes to one more bin.
    colourful = np.minimum(np.hypot(u, v) / CHROMA_FULL, 1.0) * weight
    pos = (np.arctan2(v, u) / (2 * np.pi) % 1.0) * HUE_BINS
    low = pos.astype(np.int64) % HUE_BINS
    frac = (pos - np.floor(pos)).astype(np.float32)
    base = offset * (HUE_BINS + 1)
    size = n_pics * (HUE_BINS + 1)
    chroma = np.bincount((base + low).ravel(), (colourful * (1 - frac)).ravel(), size)
    chroma += np.bincount((base + (low + 1) % HUE_BINS).ravel(), (colourful * frac).ravel(), size)
    chroma += np.bincount(np.broadcast_to(base + HUE_BINS, weight.shape).ravel(), (weight - colourful).ravel(), size)
    iw = np.clip(((w - LIGHT_LOW) * LIGHT_BINS / (LIGHT_HIGH - LIGHT_LOW)).astype(np.int64), 0, LIGHT_BINS - 1)
    light = np.bincount((offset * LIGHT_BINS + iw).ravel(), weight.ravel(), n_pics * LIGHT_BINS)
    hists = (
        np.concatenate([chroma.reshape(n_pics, -1), light.reshape(n_pics, -1)], axis=1) / count
    )  # (P, 20), each part sums to 1
    # Shape, whatever the tile's turn: the picture's share of each ring, and how strongly
    # its outline repeats 2..6 times around the centre (ellipse, triangle, square, star, hexagon).
    ring_share = (weight @ geo.rings) / geo.ring_sizes  # (P, RINGS)
    waves = weight @ geo.waves  # (P, 2 * HARMONICS * 2): cos and sin sums, inner and outer half
    waves = waves.reshape(n_pics, 2, len(HARMONICS), 2)
    half_counts = np.maximum(weight @ geo.halves, 1.0)  # (P, 2)
    angular = np.hypot(waves[..., 0], waves[..., 1]) / half_counts[:, :, None]
    return np.concatenate([hists, ring_share, angular.reshape(n_pics, -1), _extra(u, v, w, weight, count)], axis=1)


def _extra(u: np.ndarray, v: np.ndarray, w: np.ndarray, weight: np.ndarray, count: np.ndarray) -> np.ndarray:
    """Mean relative colour and brightness of the picture's pixels, and their colour and brightness spread (P, 6)."""
    mu = (u * weight).sum(axis=1, keepdims=True) / count
    mv = (v * weight).sum(axis=1, keepdims=True) / count
    mw = (w * weight).sum(axis=1, keepdims=True) / count
    spread = [
        np.sqrt(((x - m) ** 2 * weight).sum(axis=1, keepdims=True) / count) for x, m in ((u, mu), (v, mv), (w, mw))
    ]
    return np.concatenate([mu, mv, mw, *spread], axis=1)


def descriptor_distance(a: Sequence[float], b: Sequence[float]) -> float:
    """Distance between two picture descriptors (smaller = more alike): chi-square over the colour and
    brightness histograms, L1 over the shape numbers, L1 over the mean colours (scaled)."""
    if len(a) != DESCRIPTOR_SIZE or len(b) != DESCRIPTOR_SIZE:
        return float("inf")
    va, vb = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    h = HUE_BINS + 1 + LIGHT_BINS
    total, diff = va[:h] + vb[:h], va[:h] - vb[:h]
    chi2 = float((diff**2 / np.maximum(total, 1e-9)).sum()) * 0.5
    shape = float(np.abs(va[h:-6] - vb[h:-6]).sum())
    colour = float(np.abs(va[-6:] - vb[-6:]).sum())
    return chi2 * W_HIST + shape * W_SHAPE + colour * W_COLOUR
