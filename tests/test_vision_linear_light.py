"""The reader's one decoding table (vision.linear_light): sRGB, the curve cameras encode, dark end included."""

from __future__ import annotations

import numpy as np
import pytest

from vision.linear_light import SRGB_TO_LINEAR, srgb_to_linear
from vision.occlusion_lattice import light_seams
from vision.rectify import Rectified

T, M = 48, 36


def _encode(linear: np.ndarray) -> np.ndarray:
    """8-bit sRGB of linear light (0..1): what a camera writes."""
    x = np.clip(linear, 0.0, 1.0)
    return np.round(np.where(x <= 0.0031308, x * 12.92, 1.055 * x ** (1 / 2.4) - 0.055) * 255.0).astype(np.uint8)


def test_the_table_is_the_srgb_curve_with_its_straight_dark_segment() -> None:
    assert SRGB_TO_LINEAR.dtype == np.float32 and SRGB_TO_LINEAR.shape == (256,)
    assert SRGB_TO_LINEAR[0] == 0.0 and SRGB_TO_LINEAR[255] == pytest.approx(1.0)
    assert SRGB_TO_LINEAR[10] == pytest.approx(10 / 255 / 12.92, rel=1e-6)  # the straight segment, not a power
    assert SRGB_TO_LINEAR[128] == pytest.approx(0.21586, abs=1e-5)
    assert (np.diff(SRGB_TO_LINEAR) > 0).all()


def test_decoding_undoes_what_a_camera_encodes() -> None:
    linear = np.linspace(0.0, 1.0, 2001)
    decoded = srgb_to_linear(_encode(linear)).astype(np.float64)
    # Off by at most half an 8-bit step, measured in linear light at that level.
    step = np.gradient(SRGB_TO_LINEAR.astype(np.float64))[_encode(linear)]
    assert (np.abs(decoded - linear) <= 0.5 * step + 1e-7).all()
    with pytest.raises(TypeError):
        srgb_to_linear(linear)


def test_light_added_over_a_dark_board_keeps_its_seams_in_linear_light() -> None:
    """Dark walls (8-bit 30) with darker seams (12); a veil of linear light over the right half lifts the walls
    to ~71. Decoded with the curve the camera encoded, the veil cancels in the band-pass and the seams under it
    keep the strength of those outside (a 2.2 power read them 1.37x apart here: it crushes the dark end)."""
    side = 7 * T + 2 * M
    level = np.full((side, side), 30.0) + np.random.default_rng(3).normal(0, 1.0, (side, side))
    level[:, M::T] = 12
    level[M::T, :] = 12
    linear = SRGB_TO_LINEAR[np.round(level).astype(np.uint8)].astype(np.float64)
    x = np.arange(side)[None, :]
    veil = 0.06 / (1 + np.exp(-(x - (M + 3.5 * T)) / 6.0))
    image = np.repeat(_encode(linear + veil)[..., None], 3, axis=-1)
    assert image[M + T // 2, M + 6 * T + T // 2, 0] > 2 * image[M + T // 2, M + T // 2, 0]  # the veil is strong
    seams = light_seams(Rectified(image, T, M, np.eye(3), np.zeros((4, 2))))[1:-1, 1:-1]  # the inner points
    dark, lit = seams[:, :2].mean(), seams[:, 4:].mean()
    assert 0.85 < lit / dark < 1.15
