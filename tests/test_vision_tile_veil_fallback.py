"""Sides neither colour band reads typically lean on the linear-light read against their own ends
(vision.tiles._veil_fallback), by day only, and never on sides a found pawn may shade."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from companion.board import SIZE, Tile
from tests.support.sixth_render import render_frame
from vision.reader import BoardReader
from vision.tile_model import Band, TileModel
from vision.tiles import DEFAULT_CONFIG, _colour_atypical, _veil_fallback, shaded_sides, tiles_for_lighting

_MODEL = TileModel(np.zeros(1), 1.0, -1.0, 1.0)
_SEEN = np.ones((SIZE, SIZE, 4))


def _band(logit: float, weight: float, at: tuple[int, int, int] = (3, 3, 0), elsewhere: float = 0.95) -> Band:
    """A band reading every side closed at -8 with weight ``elsewhere``, and ``logit`` / ``weight`` at ``at``."""
    logits = np.full((SIZE, SIZE, 4), -8.0)
    weights = np.full((SIZE, SIZE, 4), elsewhere)
    logits[at], weights[at] = logit, weight
    return Band(_MODEL, logits, weights)


def test_a_side_no_colour_band_reads_typically_moves_toward_a_typical_linear_light_read() -> None:
    # Under a glare pool: both colour bands atypical (0.05, 0.1) and confidently closed, the linear-light
    # read against the side's ends typical and open.
    colour = np.full((SIZE, SIZE, 4), -8.0)
    colour[3, 3, 0] = -7.0
    usual, outer, veil = _band(-9.0, 0.05), _band(-6.0, 0.1), _band(8.0, 1.0)
    shift = _veil_fallback(colour, usual, outer, veil, _SEEN, DEFAULT_CONFIG)
    share = 1.0 - 0.1 / DEFAULT_CONFIG.veil_fallback  # the colour bands' shortfall from typical
    assert np.isclose(shift[3, 3, 0], share * (8.0 - -7.0))
    assert colour[3, 3, 0] + shift[3, 3, 0] > 0.0
    # Every side a colour band reads typically stays as read.
    assert not np.delete(shift.reshape(-1), 3 * SIZE * 4 + 3 * 4).any()


def test_the_fallback_counts_as_far_as_it_is_typical_and_seen() -> None:
    colour = np.full((SIZE, SIZE, 4), -8.0)
    usual, outer = _band(-9.0, 0.0), _band(-6.0, 0.0)
    burnt = _veil_fallback(colour, usual, outer, _band(10.0, 0.02), _SEEN, DEFAULT_CONFIG)
    assert np.isclose(burnt[3, 3, 0], 0.02 * 18.0)  # a spot burnt to white: its read is atypical too
    seen = _SEEN.copy()
    seen[3, 3, 0] = 0.25
    half = _veil_fallback(colour, usual, outer, _band(10.0, 1.0), seen, DEFAULT_CONFIG)
    assert np.isclose(half[3, 3, 0], 0.25 * 18.0)


def test_sides_a_pawn_may_shade_and_typical_colour_reads_are_left_alone() -> None:
    colour = np.full((SIZE, SIZE, 4), -8.0)
    usual, outer, veil = _band(-9.0, 0.05), _band(-6.0, 0.05), _band(8.0, 1.0)
    shaded = shaded_sides([(3, 3)])
    assert not _veil_fallback(colour, usual, outer, veil, _SEEN, DEFAULT_CONFIG, shaded).any()
    assert not _colour_atypical(usual, outer, DEFAULT_CONFIG, shaded).any()
    assert _colour_atypical(usual, outer, DEFAULT_CONFIG, None).sum() == 1
    typical = _veil_fallback(colour, usual, _band(-6.0, DEFAULT_CONFIG.veil_fallback), veil, _SEEN, DEFAULT_CONFIG)
    assert not typical.any()


def test_the_fallback_is_a_day_rule() -> None:
    assert tiles_for_lighting(None, "day").veil_fallback == DEFAULT_CONFIG.veil_fallback > 0.0
    assert tiles_for_lighting(None, "night").veil_fallback == 0.0
    assert tiles_for_lighting(replace(DEFAULT_CONFIG, veil_fallback=0.3), "night").veil_fallback == 0.0


@pytest.mark.parametrize(("seed", "square"), [(9600002, (0, 5)), (9600113, (6, 3))])
def test_sides_the_colour_bands_cannot_read_take_the_linear_light_read(seed: int, square: tuple[int, int]) -> None:
    # 9600002: a lamp's pool on a straight NS: its closed E side reads open in both colour bands at
    # typicality 0.14/0.25, the linear-light read closed at 0.8 (NES before). 9600113: a picture over the
    # centre of a T ESW: S reads -0.4 at 0.03/0.07, the linear-light read open at 1.0 (EW before).
    image, label = render_frame(seed)
    reading = BoardReader().read_detailed(image, corners=label["corners"])
    assert reading.observation.readable and not reading.observation.occluded
    row, col = square
    assert reading.observation.tiles[row * SIZE + col].openings == Tile.parse(label["tiles"][row][col])
