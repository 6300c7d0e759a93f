"""Tests of :mod:`vision.pawn_features`' stepped-shading measure (drawn facets vs a light field)."""

from __future__ import annotations

import numpy as np

from vision.pawn_features import _surface

T = 48


def _disc_pixels(size: int = 24) -> tuple[np.ndarray, np.ndarray]:
    yy, xx = np.mgrid[:size, :size]
    return np.nonzero((yy - size / 2 + 0.5) ** 2 + (xx - size / 2 + 0.5) ** 2 <= (size / 2 - 1) ** 2)


def _measure(image: np.ndarray) -> tuple[float, float]:
    raw = np.clip(image, 0, 255).astype(np.uint8)
    surface, _, steps, _ = _surface(raw.astype(np.float64), _disc_pixels(image.shape[0]), T)
    return surface, steps


def test_a_smooth_light_field_is_not_stepped() -> None:
    # A rounded body lit from one side: brightness falls smoothly across it.
    yy, xx = np.mgrid[:24, :24].astype(np.float64)
    surface, steps = _measure(200.0 - 4.0 * xx - 0.05 * (xx - 12.0) ** 2 + 0.5 * yy)
    assert surface > 0.3
    assert steps < 0.6


def test_drawn_facets_are_stepped() -> None:
    # A printed gem: a flat fill with a light and a dark facet at hard edges (a little noise).
    yy, xx = np.mgrid[:24, :24]
    facets = np.full((24, 24), 160.0)
    facets[xx + yy < 14] = 230.0
    facets[xx + yy > 34] = 80.0
    facets += np.random.default_rng(0).normal(0.0, 2.0, facets.shape)
    surface, steps = _measure(facets)
    assert surface > 0.3  # the quadratic's range alone reads it as shading
    assert steps > 1.0


def test_a_flat_level_with_noise_is_neither() -> None:
    flat = 150.0 + np.random.default_rng(1).normal(0.0, 2.0, (24, 24))
    surface, _ = _measure(flat)
    assert surface < 0.1
