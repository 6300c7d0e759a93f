"""A shadow over the board's frame band darkens it evenly: not an arm (vision.occlusion_band._shaded)."""

from __future__ import annotations

import numpy as np

from vision.occlusion import frame_band
from vision.rectify import Rectified

T, M = 48, 36
SHAPE = (2000, 2000)  # the whole band inside the photo


def _board(frame: tuple[int, int, int]) -> np.ndarray:
    """A rectified board of green walls inside a printed frame of colour ``frame`` (BGR), with sensor noise."""
    side = 7 * T + 2 * M
    image = np.empty((side, side, 3), np.float32)
    image[:] = frame
    image[M : M + 7 * T, M : M + 7 * T] = (40, 150, 60)
    return np.clip(image + np.random.default_rng(7).normal(0, 3, image.shape), 0, 255).astype(np.uint8)


def _view(pixels: np.ndarray) -> Rectified:
    square = np.array([[M, M], [M + 7 * T, M], [M + 7 * T, M + 7 * T], [M, M + 7 * T]], np.float64)
    return Rectified(image=pixels, tile_px=T, margin_px=M, homography=np.eye(3), corners=square)


BAND = (slice(10, M), slice(M + 4 * T, M + 7 * T))  # the top frame over its three right tiles (no gate)


def test_a_shadow_on_the_frame_band_is_not_an_arm_by_day() -> None:
    image = _board((70, 150, 200))
    assert (frame_band(_view(image), SHAPE) == 1).sum() == 0
    shaded = image.copy()
    shaded[BAND] = (shaded[BAND].astype(np.float32) * 0.45).astype(np.uint8)  # R, G, B scaled alike
    assert (frame_band(_view(shaded), SHAPE) == 1).sum() == 0
    # At night the frame's light is the tiles' glow: a darker run still counts there.
    assert (frame_band(_view(shaded), SHAPE, night=True) == 1).sum() >= 2


def test_a_dark_sleeve_of_another_colour_still_crosses_the_frame() -> None:
    image = _board((70, 150, 200))
    sleeve = image.copy()
    sleeve[BAND] = (90, 40, 30)  # darker and blue: its own colour
    assert (frame_band(_view(sleeve), SHAPE) == 1).sum() >= 2
