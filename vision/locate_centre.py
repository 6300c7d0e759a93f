"""Where a tile lattice sits in the photo: the centre of the 7x7-tile window it fills.

:mod:`vision.locate_lattice` proposes lattice vectors for the whole photo (or a window of
it); a lattice alone says nothing about where the board is. Both functions here answer
that from one map, the periodic energy (how much the gradients, in the lattice's
canonical frame, repeat one pitch either way): :func:`periodic_centre` takes the window
where the lattice repeats most, :func:`ended_centre` the window where it repeats and
then stops (a board's frame band, not a cloth running on to the image edge).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.order_stats import percentile

__all__ = ["ended_centre", "periodic_centre"]


def _periodic_energy(gu: np.ndarray, gv: np.ndarray, pitch: float) -> np.ndarray | None:
    """Per pixel, how much the gradients repeat one ``pitch`` either way (None when no 7x7 window of that
    pitch fits): the map :func:`periodic_centre` and :func:`ended_centre` place their windows on."""
    h, w = gu.shape
    p = round(pitch)
    if 7 * pitch > 1.05 * max(h, w) or p < 4 or 2 * p >= min(h, w):
        return None
    # No pixel may count for more than a strong seam: at night glowing pictures, pawns and
    # the frame's marks outweighed every seam of the board (a fifth-renderer night board was
    # placed two tiles off, its grid refuted, the board "not found"). The 99th percentile
    # of the gradient (of every 4th pixel: ~0.05 ms) is still an edge's, and clips only those.
    top = float(percentile(np.abs(np.concatenate([gu[::4, ::4].ravel(), gv[::4, ::4].ravel()])), 99.0))
    if top > 0:
        gu, gv = np.clip(gu, -top, top), np.clip(gv, -top, top)
    periodic = np.zeros_like(gu)
    periodic[:, p:-p] = gu[:, p:-p] * (gu[:, 2 * p :] + gu[:, : -2 * p])
    periodic[p:-p, :] += gv[p:-p, :] * (gv[2 * p :, :] + gv[: -2 * p, :])
    return periodic


def periodic_centre(gu: np.ndarray, gv: np.ndarray, pitch: float) -> np.ndarray | None:
    """Centre (x, y, rotated frame) of the 7x7-tile window where the gradients repeat at ``pitch``."""
    periodic = _periodic_energy(gu, gv, pitch)
    if periodic is None:
        return None
    h, w = gu.shape
    # The window sum at half resolution: the centre is only needed to a fraction of a tile.
    small = cv2.resize(periodic[: h // 2 * 2, : w // 2 * 2], (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    win = max(round(3.5 * pitch), 3)
    summed = cv2.boxFilter(small, -1, (win, win), normalize=False, borderType=cv2.BORDER_CONSTANT)
    cy, cx = np.unravel_index(int(np.argmax(summed)), summed.shape)
    return np.array([2 * cx + 0.5, 2 * cy + 0.5], dtype=np.float64)


def ended_centre(gu: np.ndarray, gv: np.ndarray, pitch: float) -> np.ndarray | None:
    """Centre of the 7x7 window whose lattice ENDS around it: periodic energy inside minus a ring outside.

    :func:`periodic_centre` places the window where the pitch repeats most; on a
    checked cloth whose squares share the board's harmonics that is the cloth, tiles
    away from the board (vision/notes/locate_centre.md). A board's lattice stops: a frame
    band, then the table; a cloth's runs on to the image edge. So each window is
    scored by how far the periodic energy density of the ring from 3.5 to 4 tiles
    about its centre (the board's frame band) falls below the window's own:
    (inside - ring) / (inside + |ring|), contrast-free (a board's seams are fainter
    than a cloth's checks), among windows with a tenth of the strongest repeat.
    Asked only for refused frames (:func:`vision.locate_grid.coarse_answers`' ``later``).
    """
    periodic = _periodic_energy(gu, gv, pitch)
    if periodic is None:
        return None
    h, w = gu.shape
    p = round(pitch)
    # Only agreement counts: a seam's repeat is positive, noise averages out either way.
    periodic = np.maximum(periodic, 0.0)
    small = cv2.resize(periodic[: h // 2 * 2, : w // 2 * 2], (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    win = max(round(3.5 * pitch), 3)
    ring = max(round(4.0 * pitch), win + 2)  # half a tile outside: the frame band, not the table beyond
    inner = cv2.boxFilter(small, -1, (win, win), normalize=False, borderType=cv2.BORDER_CONSTANT)
    outer = cv2.boxFilter(small, -1, (ring, ring), normalize=False, borderType=cv2.BORDER_CONSTANT)
    # The ring's density over its part inside the image: the image edge is no end (a cloth
    # runs on past it), so a window in a cloth's corner scores its cloth ring.
    ones = np.zeros_like(small)  # where the repeat is defined (p pixels from the edge on)
    ones[(p + 1) // 2 : -((p + 1) // 2), (p + 1) // 2 : -((p + 1) // 2)] = 1.0
    n_in = cv2.boxFilter(ones, -1, (win, win), normalize=False, borderType=cv2.BORDER_CONSTANT)
    n_out = cv2.boxFilter(ones, -1, (ring, ring), normalize=False, borderType=cv2.BORDER_CONSTANT)
    inside = inner / float(win * win)
    around = (outer - inner) / np.maximum(n_out - n_in, 1.0)
    # How far the lattice ends, whatever its contrast (a board's seams are fainter than a
    # cloth's checks): the ring's share removed, among windows with a tenth of the
    # strongest repeat at least (a bare table's noise ends everywhere).
    score = (inside - around) / (inside + np.abs(around) + 1e-12)
    score[inside < 0.1 * float(inside.max())] = -np.inf
    # The window must lie inside the image (its centre at least half a window from the edge).
    half = win // 2
    score[:half, :] = -np.inf
    score[-half:, :] = -np.inf
    score[:, :half] = -np.inf
    score[:, -half:] = -np.inf
    cy, cx = np.unravel_index(int(np.argmax(score)), score.shape)
    if not np.isfinite(score[cy, cx]):
        return None
    return np.array([2 * cx + 0.5, 2 * cy + 0.5], dtype=np.float64)
