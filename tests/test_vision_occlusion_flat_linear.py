"""Light added keeps the tiles' structure in linear light, so a lit corner is excused over it even on an unclear tile.

Fresh sixth-renderer day seed 9360005 (a clean board): a white pool over the top edge washed tile (0, 3) out of
the read (unclear) and lit its corner (0, 4) (foreign, lit as a pool lights); its 4 flat half tiles faded out and
kept their seams, but a lit corner was excused only where the tiles read: "something lying on the board (4 half
tiles)". Its flat cells kept 0.78-0.89 of the board's median cell's structure in linear light; the flat cells of
the hands and objects on a marked tile kept 0.00-0.54.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import vision.occlusion_flat as flat
from tests.support.clean_board import clean_rect, with_pool
from vision.occlusion import OcclusionConfig
from vision.occlusion_flat import CELLS, _linear_strength, _relative_strength, flat_groups


def _lit_corner() -> np.ndarray:
    """The 8x8 lattice with the top edge's corner (0, 3) marked (foreign, and lit)."""
    corner = np.zeros((8, 8), bool)
    corner[0, 3] = True
    return corner


def test_a_pool_over_an_unclear_edge_tile_is_light(monkeypatch: pytest.MonkeyPatch) -> None:
    rect = clean_rect(43, "dark", "day")
    lit = with_pool(rect, (0.3, 3.5), 0.8, 0.6)
    cells = (slice(0, CELLS), slice(3 * CELLS - 1, 4 * CELLS))
    assert (_relative_strength(lit)[cells] < OcclusionConfig().flat_level).any()  # log grey goes flat
    assert np.median(_linear_strength(lit)[cells]) >= flat.LINEAR_KEEP  # linear light keeps the tiles
    corner = _lit_corner()
    found = flat_groups(lit, {(0, 3)}, corner, lit_points=lambda: corner)[0]
    assert found < OcclusionConfig().min_flat_cells
    monkeypatch.setattr(flat, "LINEAR_KEEP", np.inf)  # the lit corner excused only where the tiles read
    assert flat_groups(lit, {(0, 3)}, corner, lit_points=lambda: corner)[0] >= OcclusionConfig().min_flat_cells


def test_a_pale_card_on_a_lit_corner_stays_a_surface() -> None:
    """A plain pale card there loses the tiles' structure in linear light too."""
    rect = clean_rect(43, "dark", "day")
    t, m = rect.tile_px, rect.margin_px
    card = dataclasses.replace(rect, image=rect.image.copy())
    card.image[m : m + 2 * t, m + 2 * t + t // 2 : m + 4 * t + t // 2] = (225, 228, 232)
    corner = _lit_corner()
    found = flat_groups(card, {(0, 3)}, corner, lit_points=lambda: corner)[0]
    assert found >= OcclusionConfig().min_flat_cells
