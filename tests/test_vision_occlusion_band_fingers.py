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


def _corner_fingers(image: np.ndarray, colour: tuple[int, int, int], reach: int) -> np.ndarray:
    """A hand over the board's top-right corner: fingers over the top frame (segments 11, 13) and over the right
    frame (segment 1), the frame clear between them, each reaching ``reach`` pixels past the tile area's edge."""
    out = image.copy()
    side = M + 7 * T
    for k in (11, 13):
        out[0 : M + reach, M + k * HALF + 3 : M + (k + 1) * HALF - 3] = colour
    out[M + HALF + 3 : M + 2 * HALF - 3, side - reach :] = colour
    return out


def test_fingers_over_the_board_corner_are_counted_round_it() -> None:
    image = _framed_board((140, 60, 190), seams=True)
    cfg = OcclusionConfig()
    hand = signals(_view(_corner_fingers(image, (120, 150, 210), 14)), SHAPE, _readings(), 0.99)
    assert hand.band_alone < cfg.min_band_alone and hand.band_flat < cfg.min_band_flat
    assert hand.band_fingers >= cfg.min_band_fingers  # two on the top side, one on the right: one hand
    assert decide(hand, "day", cfg) is not None


def test_finger_run_goes_round_the_corners_of_the_frame() -> None:
    cfg = OcclusionConfig()
    values = np.full((56, 3), 30.0)
    expected = values.copy()
    inner = np.full((56, 3), 60.0)
    flags = np.zeros(56, dtype=np.int8)

    def mark(*segments: int) -> None:
        flags[:] = 0
        for k in segments:
            flags[k] = 1
            values[k] = inner[k] = (40.0, 25.0, 12.0)

    mark(11, 13, 14 + 1)  # top 11, 13 and right 1 across the top-right corner
    assert finger_run(flags, values, expected, inner, cfg) == 3
    mark(42 + 2, 42 + 0, 1)  # left 2, 0 and top 1 across the top-left corner (the ring's closing point)
    assert finger_run(flags, values, expected, inner, cfg) == 3
    mark(11, 13, 14 + 3)  # right 3 is three segments from top 13: another hand or a spot, not the same fingers
    assert finger_run(flags, values, expected, inner, cfg) == 2


def test_a_finger_keeps_its_colour_over_the_tile_within_finger_cont() -> None:
    """A finger's skin over the edge tile is shaded a little apart from its skin over the frame (its curve, the tile's
    own shadow): 0.09-0.10 of its shift on dev hands whose third finger stayed under the old bound 0.08; light over
    the frame leaves the tile 0.39+ apart on dev frames (0.14 for a pink light over a black frame and pale tiles,
    fresh; measurements: vision/notes/occlusion_band.md, o47)."""
    cfg = OcclusionConfig()
    values = np.full((56, 3), 30.0)
    expected = values.copy()
    inner = np.full((56, 3), 60.0)
    flags = np.zeros(56, dtype=np.int8)
    for k in (2, 4, 6):
        flags[k] = 1
        values[k] = inner[k] = (40.0, 25.0, 12.0)
    shift = float(np.linalg.norm(values[4] - expected[4]))
    inner[4] = values[4] + (0.1 * shift, 0.0, 0.0)  # 0.10 of the shift apart: still the finger's surface
    assert finger_run(flags, values, expected, inner, cfg) == 3
    inner[4] = values[4] + (0.3 * shift, 0.0, 0.0)  # 0.30 apart: the tile keeps its own colour
    assert finger_run(flags, values, expected, inner, cfg) == 1
