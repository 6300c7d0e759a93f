"""At night a coloured LED's spill over the frame tints the glowing edge corner a little: light, not an arm
(vision.occlusion_band._tinted_at_night)."""

from __future__ import annotations

import numpy as np

from vision.occlusion_band import _tinted_at_night
from vision.occlusion_config import OcclusionConfig

INDEX = 5  # a top segment: its edge tile corner is lattice point (0, 3)


def _frame_and_corners() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Band values and their model (a red light over one dark segment), flags, and the glowing corners' colours."""
    expected = np.zeros((4 * 14, 3), np.float32)
    expected[:] = (33.0, 23.0, 0.47)  # the dark frame's model (r, g shares, lightness)
    values = expected.copy()
    values[INDEX] = (61.0, 12.0, 0.68)  # the red LED's light added to the dark frame
    flags = np.zeros(4 * 14, bool)
    flags[INDEX] = True
    colours = np.zeros((8, 8, 3), np.float32)
    colours[:] = (35.0, 42.0, 6.4)  # glowing green walls
    return values, expected, flags, colours


def _tinted_corner() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_frame_and_corners` with the edge corner beside the lit segment tinted a fifth of the way and brighter."""
    values, expected, flags, colours = _frame_and_corners()
    shift = values[INDEX, :2] - expected[INDEX, :2]
    colours[0, 3, :2] += 0.2 * shift
    colours[0, 3, 2] = 7.5
    return values, expected, flags, colours


def test_at_night_a_red_spill_that_tints_the_glowing_corner_a_little_is_no_arm() -> None:
    cfg = OcclusionConfig()
    values, expected, flags, colours = _frame_and_corners()
    foreign = np.zeros((8, 8), bool)
    assert not _tinted_at_night(values, expected, flags, colours, foreign, cfg)[INDEX]  # corner untouched
    shift = values[INDEX, :2] - expected[INDEX, :2]
    colours[0, 3, :2] += 0.2 * shift  # the glow outshines the LED: a fifth of the way, the seams kept
    colours[0, 3, 2] = 7.5  # and brighter
    assert _tinted_at_night(values, expected, flags, colours, foreign, cfg)[INDEX]


def test_a_hand_that_hides_the_glow_or_brings_its_own_colour_still_counts() -> None:
    cfg = OcclusionConfig()
    values, expected, flags, colours = _frame_and_corners()
    shift = values[INDEX, :2] - expected[INDEX, :2]
    colours[0, 3, :2] += 0.2 * shift
    foreign = np.zeros((8, 8), bool)
    colours[0, 3, 2] = 5.0  # darker than the board's corners: something hides the glow
    assert not _tinted_at_night(values, expected, flags, colours, foreign, cfg)[INDEX]
    colours[0, 3, 2] = 7.5
    foreign[0, 3] = True  # the corner lost its seams or has a colour of its own
    assert not _tinted_at_night(values, expected, flags, colours, foreign, cfg)[INDEX]
    foreign[0, 3] = False
    values[INDEX, 2] = 0.3  # the segment darker than its model: light was taken, not added
    assert not _tinted_at_night(values, expected, flags, colours, foreign, cfg)[INDEX]


def test_a_tinted_segment_beside_a_hand_hiding_the_glow_still_counts() -> None:
    cfg = OcclusionConfig()
    values, expected, flags, colours = _tinted_corner()
    flags[INDEX + 1] = True  # the next segment, lit the same way (its edge corner is (0, 3) too)
    values[INDEX + 1] = values[INDEX]
    foreign = np.zeros((8, 8), bool)
    assert _tinted_at_night(values, expected, flags, colours, foreign, cfg)[[INDEX, INDEX + 1]].all()
    hand = INDEX - 1  # a segment whose edge corner (0, 2) a dark hand covers: foreign, its glow hidden
    flags[hand] = True
    values[hand] = (45.0, 20.0, 0.55)
    foreign[0, 2] = True
    colours[0, 2, 2] = 2.0
    tinted = _tinted_at_night(values, expected, flags, colours, foreign, cfg)
    assert not tinted[INDEX] and tinted[INDEX + 1]  # the LED lights the hand's side as it lights the frame


def test_a_hand_too_dark_to_have_a_colour_still_backs_the_segment_beside_it() -> None:
    cfg = OcclusionConfig()
    values, expected, flags, colours = _tinted_corner()
    foreign = np.zeros((8, 8), bool)
    hand = INDEX - 1
    flags[hand] = True
    values[hand] = (45.0, 20.0, 0.55)
    colours[0, 2, 2] = 6.4 / cfg.night_lit - 0.5  # its glow hidden, its colour not told apart (not foreign)
    assert not _tinted_at_night(values, expected, flags, colours, foreign, cfg)[INDEX]
    colours[0, 2, 2] = 6.0  # a corner of the board's own light a little dimmer: no hand
    assert _tinted_at_night(values, expected, flags, colours, foreign, cfg)[INDEX]
