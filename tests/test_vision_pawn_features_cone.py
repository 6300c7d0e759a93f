"""A slender blob's lean is measured within the nadir's uncertainty (vision.pawn_features._within_cone)."""

from __future__ import annotations

import math

import numpy as np

from tests.test_vision_pawn_geometry import TILE, _view
from vision.pawn_features import _within_cone
from vision.pawn_geometry import nadir_spread


def _stick(angle: float, length: float = 30.0, width: float = 3.0) -> tuple[np.ndarray, np.ndarray]:
    """Pixel offsets (about the centroid) of a stick ``length`` x ``width`` pixels along ``angle`` radians."""
    a, b = np.meshgrid(np.arange(-length / 2, length / 2 + 1), np.arange(-width / 2, width / 2 + 1))
    a, b = a.ravel(), b.ravel()
    c, s = math.cos(angle), math.sin(angle)
    return a * c - b * s, a * s + b * c


def test_a_stick_just_off_the_ray_is_measured_along_itself_where_the_nadir_is_uncertain() -> None:
    rect = _view(4.0)[0]  # steep: the nadir is tiles off
    reach = 2.0 * TILE
    assert math.atan2(nadir_spread(rect), reach) > math.radians(10)
    dx, dy = _within_cone(*_stick(math.radians(10)), (1.0, 0.0), rect, reach)
    assert math.isclose(math.degrees(math.atan2(dy, dx)), 10.0, abs_tol=0.5)


def test_the_turn_is_at_most_the_cone() -> None:
    rect = _view(35.0)[0]  # oblique: a fraction of a tile
    reach = 4.0 * TILE
    cone = math.degrees(math.atan2(nadir_spread(rect), reach))
    assert cone < 30.0
    dx, dy = _within_cone(*_stick(math.radians(60)), (1.0, 0.0), rect, reach)
    assert math.isclose(math.degrees(math.atan2(dy, dx)), cone, abs_tol=1e-6)


def test_a_round_blob_keeps_the_ray() -> None:
    ys, xs = np.mgrid[-8:9, -8:9]
    inside = xs**2 + 1.5 * ys**2 <= 64  # an ellipse under the slender ratio
    ray = (0.6, 0.8)
    assert _within_cone(xs[inside].astype(float), ys[inside].astype(float), ray, _view(4.0)[0], TILE) == ray
