"""Edges at an angle to the grid: a hand's outline crossing the tiles' seams.

The board's seams run along the two grid axes: wherever tile corners meet and along each tile's sides
the edges in the rectified view are horizontal or vertical (the corridors' walls too). A hand's outline,
its fingers and the gaps between them run at any angle, most of them far from the axes. Per point of the
half-tile grid (the tile corners and the middles of the tiles' sides; the tiles' middles hold treasure
pictures, round and at every angle, and are left out), :func:`off_axis_scores` is the mean of cos(4
theta) over the patch's gradients (theta their direction), weighted by their strength: 1 where every edge
runs along an axis, -1 at 45 degrees, 0 for a circle.

A pale hand whose skin passes the colour tests (it lies on the glare line, or keeps the walls' hue) still
brings fingers at an angle. Alone the cue is too weak (pawns, pictures and shadows make single points off
the axes); :func:`off_axis_from_edge` counts only a cluster reaching in from the board's edge, where a hand
enters, that holds a corner the colour tests already found foreign. Measurements: vision/notes/occlusion.md
(o45).
"""

from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np

from companion.board import SIZE
from vision.occlusion_lattice import _LOG_GREY, _box_sums
from vision.rectify import Rectified

#: Points of the half-tile grid per side: tile corners at even indices, tiles' middles at odd ones.
HALF = 2 * SIZE + 1


def off_axis_scores(rect: Rectified, reach: float = 0.15) -> np.ndarray:
    """15x15 strength-weighted mean cos(4 theta) of the log-grey gradients around each half-tile grid point
    (``reach`` tiles each way, cut at the tile area's edge); 1: edges along the grid's axes, -1: at 45 degrees.

    Log grey, as :func:`vision.occlusion_lattice.lattice_structure`: a shadow scales the light and keeps the
    edges' directions. Box sums over integral images of the tile area: ~2 ms.
    """
    t, m = rect.tile_px, rect.margin_px
    lo, hi = m - 1, m + SIZE * t + 1
    log = _LOG_GREY[cv2.cvtColor(rect.image[lo:hi, lo:hi], cv2.COLOR_BGR2GRAY)]
    gx = cv2.Sobel(log, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(log, cv2.CV_32F, 0, 1, ksize=3)
    xx, yy = gx * gx, gy * gy
    power = xx + yy + 1e-9
    strength = np.sqrt(power)
    # cos 4 theta = ((gx^2 - gy^2)^2 - 4 gx^2 gy^2) / |g|^4, weighted by |g|.
    cos4 = ((xx - yy) ** 2 - 4.0 * xx * yy) / (power * strength)
    half = max(1, round(reach * t))
    points = np.arange(HALF) * t // 2
    start = np.clip(points - half, 0, SIZE * t) + 1  # in the crop (its 1-pixel rim)
    stop = np.clip(points + half, 0, SIZE * t) + 1
    num = _box_sums(cv2.integral(cos4.astype(np.float64)), start, stop)
    den = _box_sums(cv2.integral(strength.astype(np.float64)), start, stop)
    return num / np.maximum(den, 1e-9)


def off_axis_from_edge(
    rect: Rectified,
    foreign: np.ndarray,
    boxes: Iterable[tuple[int, int, int, int]],
    cut: float,
    grow: float,
    board_min: float,
) -> int:
    """Size of the largest 4-connected cluster of half-tile grid points off the axes (score under ``cut``,
    :func:`off_axis_scores`) that touches the tile area's edge and holds a ``foreign`` lattice point (8x8,
    :func:`vision.occlusion_lattice.lattice_foreign`); points inside a pawn's box (``x, y, w, h`` rectified
    pixels, grown by ``grow`` tiles) are left out. 0 without a foreign point (not measured then), and 0 where
    the board's own seams do not read along the axes: the median score of the points under ``board_min``.

    A pawn seen from the side, its shadow, a printed picture reaching a tile's side or a shadow band's soft
    edge each put a point or two off the axes; on the clean day frames measured none made a cluster of 3
    from the edge. Fingers reaching in over the edge cross seams and corners in a row. An edition whose walls
    are hatched at an angle (a held-out look with diagonal stripes: median 0.38, a clean frame's cluster of 4
    at its corner) or a hazy, noisy view (scores near 0 everywhere) has no axes to cross.
    """
    if not foreign.any():
        return 0
    scores = off_axis_scores(rect)
    seams = np.ones(scores.shape, dtype=bool)
    seams[1::2, 1::2] = False  # the tiles' middles: pictures
    if float(np.median(scores[seams])) < board_min:
        return 0
    off = (scores < cut) & seams
    t, m = rect.tile_px, rect.margin_px
    lines = m + np.arange(HALF) * t / 2.0
    g = grow * t
    for bx, by, bw, bh in boxes:
        rows = (lines >= by - g) & (lines <= by + bh + g)
        cols = (lines >= bx - g) & (lines <= bx + bw + g)
        off &= ~(rows[:, None] & cols[None, :])
    marked = np.zeros_like(off)
    marked[::2, ::2] = foreign
    count, labels = cv2.connectedComponents(off.astype(np.uint8), connectivity=4)
    edge = set(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]).tolist())
    held = set(labels[marked & off].tolist())
    return max((int((labels == i).sum()) for i in range(1, count) if i in edge and i in held), default=0)
