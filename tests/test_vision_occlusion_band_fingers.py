"""By day fingers spread apart over the frame cross it in runs of one segment with the frame clear between them and
go on over the edge tiles in the same colour; a light over the frame leaves the edge tile's colour apart from the
frame's (vision.occlusion_band.finger_run)."""

from __future__ import annotations

import numpy as np

from tests.test_vision_occlusion import M, T, _framed_board, _readings, _view
from vision.occlusion import decide, signals
from vision.occlusion_band import finger_run
from vision.occlusion_config import OcclusionConfig

SHAPE = (2000, 2000)  # the whole band inside the photo
HALF = T // 2


def _fingers(image: np.ndarray, colour: tuple[int, int, int], reach: int) -> np.ndarray:
    """Four fingers over the top frame (segments 3, 5, 7, 9), the frame clear between them, reaching ``reach``
    pixels past the tile area's edge."""
    out = image.copy()
    for k in (3, 5, 7, 9):
        out[0 : M + reach, M + k * HALF + 3 : M + (k + 1) * HALF - 3] = colour
    return out


def test_spread_fingers_going_on_over_the_edge_tiles_decide() -> None:
    image = _framed_board((140, 60, 190), seams=True)  # a pink frame around green walls
    cfg = OcclusionConfig()
    hand = signals(_view(_fingers(image, (120, 150, 210), 14)), SHAPE, _readings(), 0.99)
    assert hand.band_alone < cfg.min_band_alone and hand.band_flat < cfg.min_band_flat  # cut apart: no run
    assert hand.band_fingers >= cfg.min_band_fingers
    assert decide(hand, "day", cfg) is not None
    # the same colour over the frame only (a cloth's checks past the board's edge, spots of light): not fingers
    checks = signals(_view(_fingers(image, (120, 150, 210), -2)), SHAPE, _readings(), 0.99)
    assert checks.band_alone >= 1 and checks.band_fingers == 0
    assert decide(checks, "day", cfg) is None


def test_finger_run_counts_segments_at_most_one_apart_on_one_side() -> None:
    cfg = OcclusionConfig()
    values = np.zeros((56, 3))
    values[:] = (30.0, 30.0, 10.0)
    expected = values.copy()
    inner = np.full((56, 3), 60.0)
    flags = np.zeros(56, dtype=np.int8)
    for k in (2, 4, 6, 9):  # 2, 4, 6 one apart, 9 two apart from 6
        flags[k] = 1
        values[k] = inner[k] = (40.0, 25.0, 12.0)
    assert finger_run(flags, values, expected, inner, cfg) == 3
    inner[4] = (30.0, 30.0, 10.0)  # the tile beside segment 4 keeps its own colour: light, not a finger
    assert finger_run(flags, values, expected, inner, cfg) == 1
    inner[4] = values[4] = (30.0, 30.0, 16.0)  # a haze: the print's colour, brighter in every channel ...
    assert finger_run(flags, values, expected, inner, cfg) == 1  # ... washing frame and tile alike: no finger
