"""The ring-slope and fringe features p34 measured (vision.pawn_features._ring_plane, vision.pawn_fringe)."""

from __future__ import annotations

import math

import numpy as np

from vision.pawn_features import _ring_plane
from vision.pawn_fringe import fringe_asym


def test_ring_plane_reads_a_ramps_relative_slope() -> None:
    t = 48
    ys, xs = np.mgrid[-20:21, -20:21]
    dx, dy = xs.ravel().astype(np.float64), ys.ravel().astype(np.float64)
    level = 1.0 + 0.3 * dx / t  # 0.3 of the level per tile, along x
    assert math.isclose(_ring_plane(dx, dy, level, t), 0.3, rel_tol=1e-6)
    assert _ring_plane(dx, dy, np.ones_like(dx), t) < 1e-9


def _disc_scene(shadow: bool) -> tuple[np.ndarray, np.ndarray, tuple[int, int, int, int]]:
    size, r = 80, 12
    yy, xx = np.mgrid[:size, :size]
    disc = (xx - 40) ** 2 + (yy - 40) ** 2 <= r * r
    labels = np.where(disc, 1, 0).astype(np.int32)
    grey = np.full((size, size), 200, np.uint8)
    if shadow:  # a cast shadow on one side only
        grey[((xx - 48) ** 2 + (yy - 40) ** 2 <= (r + 4) ** 2) & ~disc] = 80
    else:  # a printed outline round the whole picture
        grey[((xx - 40) ** 2 + (yy - 40) ** 2 <= (r + 3) ** 2) & ~disc] = 80
    return labels, grey, (40 - r, 40 - r, 2 * r + 1, 2 * r + 1)


def test_a_one_sided_fringe_is_asymmetric_an_outline_is_not() -> None:
    labels, grey, box = _disc_scene(True)
    shadowed = fringe_asym(labels, 1, grey, box)
    labels, grey, box = _disc_scene(False)
    outlined = fringe_asym(labels, 1, grey, box)
    assert shadowed > 0.3
    assert outlined < 0.1
