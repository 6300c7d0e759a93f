"""A glint is a highlight on the body, not light paper under the blob's hull (vision.pawn_features._own_glint)."""

from __future__ import annotations

import numpy as np

from vision.pawn_features import FEATURES, features
from vision.rectify import Rectified

T = 48
GLINT = FEATURES.index("glint")
#: HSV of the board (a dark wall), a red body and light unsaturated paper or a highlight.
WALL, RED, WHITE = (0, 40, 60), (0, 220, 170), (0, 10, 240)


def _rect(size: int) -> Rectified:
    return Rectified(np.zeros((size, size, 3), np.uint8), T, 0, np.eye(3), np.zeros((4, 2), np.float32))


def _glint(hsv: np.ndarray, blob: np.ndarray) -> float:
    """The glint feature of ``blob`` (bool) drawn in ``hsv``."""
    ys, xs = np.nonzero(blob)
    box = (int(xs.min()), int(ys.min()), int(xs.max() - xs.min() + 1), int(ys.max() - ys.min() + 1))
    found = features(blob.astype(np.int32), 1, hsv, box, np.array([0.0, 0.0]), _rect(hsv.shape[0]))
    assert found is not None
    return found[0][GLINT]


def _scene(size: int = 96) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    yy, xx = np.mgrid[:size, :size]
    hsv = np.empty((size, size, 3), np.uint8)
    hsv[:] = WALL
    return hsv, yy, xx


def test_a_highlight_surrounded_by_the_body_is_a_glint() -> None:
    hsv, yy, xx = _scene()
    body = (yy - 48) ** 2 + (xx - 48) ** 2 <= 15**2
    spot = (yy - 43) ** 2 + (xx - 44) ** 2 <= 3**2
    hsv[body] = RED
    hsv[spot] = WHITE
    assert _glint(hsv, body & ~spot) > 0.3


def test_light_paper_between_a_crescents_horns_is_no_glint() -> None:
    # A printed crescent on a pale medallion: the hull spans the paper between its horns,
    # and that paper runs on beyond the hull.
    hsv, yy, xx = _scene()
    medallion = (yy - 48) ** 2 + (xx - 48) ** 2 <= 28**2
    crescent = ((yy - 48) ** 2 + (xx - 48) ** 2 <= 16**2) & ((yy - 48) ** 2 + (xx - 56) ** 2 > 13**2)
    hsv[medallion] = WHITE
    hsv[crescent] = RED
    assert _glint(hsv, crescent) == 0.0


def test_a_two_tone_discs_shared_button_is_no_glint() -> None:
    # A printed ball: red upper half, white button in the middle shared with the lower half.
    hsv, yy, xx = _scene()
    disc = (yy - 48) ** 2 + (xx - 48) ** 2 <= 16**2
    button = (yy - 48) ** 2 + (xx - 48) ** 2 <= 5**2
    upper = disc & (yy < 48) & ~button
    hsv[disc] = (120, 200, 90)  # a navy lower half
    hsv[upper] = RED
    hsv[button] = WHITE
    assert _glint(hsv, upper) == 0.0
