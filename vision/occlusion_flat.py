"""Flat things lying on the board: a card, a cup, a phone hide the tiles' structure.

Every half-tile cell of a real board holds a tile corner (always wall) and a
corner of the tile's centre (always corridor), so a wall/corridor boundary, and
along two sides the seams between separate tiles. A card, a phone or a cup lying
over the tiles replaces all that with one smooth surface (a print, a rim or a
glossy gradient at most): its cells lose nearly all of their gradient. The
strength is the mean gradient of log grey level per cell relative to the board's
median cell, so a shadow (light scaled) keeps it and the camera's blur and
exposure cancel out.

A lamp's glare also flattens cells (light added), but the tiles under it still
read and their corners keep the wall's colour; an object makes the tiles under
it unclear or brings a colour of its own to their corners. So a group of flat
cells counts only when it lies on an unclear tile or a foreign tile corner
(:func:`vision.occlusion_lattice.lattice_foreign`). Blown-out cells with the
cells around them (the glare's halo) and the squares pawns stand on are left out.

At night the camera's gain is high: in a dark object (a cup over the glowing walls)
the sensor's noise alone makes a gradient as strong as the tiles' structure, so the
log grey is smoothed first (``night_flat_blur``, 1.5 px of the 48 px tile: the noise
goes, the tiles' edges stay).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import cv2
import numpy as np

from companion.board import SIZE, Square
from vision.occlusion_lattice import _LOG_GREY
from vision.rectify import Rectified

#: Cells per tile side: half tiles, each holding one tile corner and one corner of the centre.
CELLS = 2


def _tile_area(rect: Rectified, rim: int = 0) -> np.ndarray:
    """The rectified tile area (whole cells), with ``rim`` pixels more all round."""
    m, side = rect.margin_px, SIZE * CELLS * (rect.tile_px // CELLS)
    return rect.image[m - rim : m + side + rim, m - rim : m + side + rim]


def _relative_strength(rect: Rectified, smooth: float = 0.0) -> np.ndarray:
    """14x14 mean gradient of log grey per cell over the board's median cell (box means by area resize).

    ``smooth``: Gaussian sigma (rectified pixels) applied to the log grey first, or 0.
    """
    log = cv2.LUT(cv2.cvtColor(_tile_area(rect, 1), cv2.COLOR_BGR2GRAY), _LOG_GREY)
    if smooth > 0:
        log = cv2.GaussianBlur(log, (0, 0), smooth)
    grad = cv2.absdiff(cv2.Sobel(log, cv2.CV_32F, 1, 0, ksize=3), 0.0)
    grad += cv2.absdiff(cv2.Sobel(log, cv2.CV_32F, 0, 1, ksize=3), 0.0)
    k = SIZE * CELLS
    strength = cv2.resize(grad[1:-1, 1:-1], (k, k), interpolation=cv2.INTER_AREA)
    return strength / max(float(np.median(strength)), 1e-6)


def _glare_cells(rect: Rectified, clip_level: float) -> np.ndarray:
    """14x14 booleans: cells over half blown out (brightest channel >= ``clip_level``) and their neighbours.

    A lamp's glare clips its core and its halo around it adds so much light that the
    cells there lose most of their gradient (a clean third-renderer board made 5 such
    cells beside its glare, on two unclear tiles), so the neighbours are left out too.
    """
    area = _tile_area(rect)
    blue, green, red = cv2.split(area)
    clipped = (cv2.max(cv2.max(blue, green), red) >= clip_level).astype(np.float32)
    k = SIZE * CELLS
    share = cv2.resize(clipped, (k, k), interpolation=cv2.INTER_AREA)
    return cv2.dilate((share > 0.5).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0


def flat_groups(
    rect: Rectified,
    unclear: set[Square],
    foreign: np.ndarray,
    covered: Iterable[Square] = (),
    flat_level: float = 0.3,
    clip_level: float = 252.0,
    smooth: float = 0.0,
    seamless: Callable[[], np.ndarray] | None = None,
) -> tuple[int, int]:
    """Largest 4-connected group of flat half-tile cells lying on an unclear tile or a foreign tile corner.

    ``foreign``: 8x8 lattice points (:func:`vision.occlusion_lattice.lattice_foreign`);
    cells of ``covered`` squares (pawns) never count. Only measured when the board
    shows something (an unclear tile or a foreign point): 0 otherwise. ``smooth``: see
    :func:`_relative_strength` (at night: the sensor's noise, see the module docstring).
    ``seamless``: called at most once, only when a flat group lies on neither, it gives the 8x8 lattice
    points whose tiles' seams are gone (see :func:`vision.occlusion.signals`): such a point marks a group
    like a foreign one, and with it the cells are measured even on a board with nothing else to show.

    Second: the largest group of flat cells darker (mean grey) than the board's darkest tenth of cells,
    wherever it lies (:func:`_darker`). Both 0 when nothing is measured.
    """
    if not unclear and not foreign.any() and seamless is None:
        return 0, 0
    rel = _relative_strength(rect, smooth)
    for r, c in covered:
        rel[r * CELLS : (r + 1) * CELLS, c * CELLS : (c + 1) * CELLS] = np.inf
    if not (rel < flat_level).any():  # the common case on a clean board: no need to look for glare
        return 0, 0
    rel[_glare_cells(rect, clip_level)] = np.inf
    count, labels = cv2.connectedComponents((rel < flat_level).astype(np.uint8), connectivity=4)
    dark = _darker(rect, labels, count)
    best = 0
    marks, bare = foreign, None
    for i in range(1, count):
        cells = np.argwhere(labels == i)
        if len(cells) <= best:
            continue
        squares = {(int(a) // CELLS, int(b) // CELLS) for a, b in cells}
        if not _lies_on(squares, unclear, marks) and seamless is not None and bare is None:
            bare = seamless()
            marks = foreign | bare
        if _lies_on(squares, unclear, marks):
            best = len(cells)
    return best, dark


def _darker(rect: Rectified, labels: np.ndarray, count: int) -> int:
    """Size of the largest labelled group of cells whose mean grey is under the board's darkest tenth of cells.

    Every half tile holds a wall and a corridor corner, so a real board's cells are never
    flat; glare (light added) flattens cells but makes them brighter, and a shadow (light
    scaled) keeps their log-grey structure. A flat *dark* surface is something lying on the
    tiles: the coffee in a cup seen from above, a dark phone, a sleeve. Darker than the board's
    own darkest tenth of cells, not just its median: on 508 clean located frames of five
    renderers (day and night, /tmp/dev and fresh seeds 2140000-2149019) one flat cell of a
    low-contrast board was darker than the median (1.00 of it) but 1.14x its 10th percentile,
    while two cups over the middle of fourth-renderer boards (fresh fo_occ8 0007, 0010: their
    tiles still read, no foreign corner beside them) made 2 cells at 0.35x and 0.22x.
    """
    if count <= 1:
        return 0
    grey = cv2.cvtColor(_tile_area(rect), cv2.COLOR_BGR2GRAY).astype(np.float32)
    k = SIZE * CELLS
    cells = cv2.resize(grey, (k, k), interpolation=cv2.INTER_AREA)
    level = float(np.percentile(cells, 10))
    sizes = [int((labels == i).sum()) for i in range(1, count) if float(cells[labels == i].mean()) < level]
    return max(sizes, default=0)


def _lies_on(squares: set[Square], unclear: set[Square], marks: np.ndarray) -> bool:
    """Does one of ``squares`` hold an unclear tile or a marked lattice point (8x8) at one of its corners?"""
    return any(sq in unclear or marks[sq[0] : sq[0] + 2, sq[1] : sq[1] + 2].any() for sq in squares)
