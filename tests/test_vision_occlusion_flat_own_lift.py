"""A glare pool's halo lifts wall cells over their own kind, not over the board's median cell.

Dev sixth-renderer day seed 9310068 (a clean board, pale corridors between dark walls): a white pool cut by the
board's bottom-right edge flattened 5 half tiles beside its blown-out core; one cell beside them, mostly wall,
was lit by the pool's halo yet 0.94 of the board's median cell, so the group did not "fade out" and the frame
read "something lying on the board (5 half tiles)". Measured against the cells of its own kind (the two tile
sides it lies along open or closed) the cell is lifted, as light added lifts every cell it reaches.
"""

from __future__ import annotations

import dataclasses
import random

import numpy as np

from companion.board import random_setup
from tests.support.clean_board import clean_rect, with_pool
from vision.occlusion import OcclusionConfig
from vision.occlusion_flat import CELLS, _fading, _own_lift, flat_groups


def _openings(seed: int) -> np.ndarray:
    """The true tiles (7x7 masks) of the clean board of ``seed``."""
    board, _ = random_setup(random.Random(seed))
    return np.array([int(tile) for tile in board.tiles]).reshape(7, 7)


def test_a_wall_cell_is_measured_against_wall_cells() -> None:
    """Cells along two closed sides (walls) and along two open arms (corridor) each have their own level."""
    openings = np.full((7, 7), 1 | 2)  # every tile an N-E corner: its four cells of four kinds
    rows, cols = np.indices((14, 14))
    kind = 2 * (rows % 2 == 0) + (cols % 2 == 1)  # along the open N arm, along the open E arm
    grey = 40.0 + 10.0 * kind
    pawns = np.zeros((14, 14), bool)
    assert np.allclose(_own_lift(grey, openings, pawns), 1.0)  # every cell at its kind's level, the kinds apart
    grey[5, 4] = 45.0  # a cell between two walls (bottom-left), lifted, still under the board's median cell
    assert _own_lift(grey, openings, pawns)[5, 4] > 1.0 and grey[5, 4] < np.median(grey)


def test_a_lifted_dark_cell_beside_the_flat_core_still_fades() -> None:
    group = np.zeros((14, 14), bool)
    group[11, 9:14] = True
    strength = np.full((14, 14), 1.2)
    strength[10:14, 8:14] = 0.5
    strength[group] = 0.2
    grey = np.full((14, 14), 100.0)
    grey[10:14, 9:14] = 180.0
    grey[11, 8] = 94.0  # mostly wall, lifted by the halo, under the board's median
    glare = np.zeros((14, 14), bool)
    glare[12:14, 9:14] = True
    pawns = np.zeros((14, 14), bool)
    lift = np.ones((14, 14))
    assert not _fading(group, strength, grey, glare, pawns)  # against the board's median cell alone: an outline
    lift[11, 8] = 1.4
    assert _fading(group, strength, grey, glare, pawns, lift)
    strength[11, 8] = 1.1  # the tiles' full structure beside it: an outline whatever its light
    assert not _fading(group, strength, grey, glare, pawns, lift)


def test_a_pool_cut_by_the_board_edge_is_light_not_something_lying_on_the_board() -> None:
    seed = 43
    rect = clean_rect(seed, "dark", "day")
    cfg = OcclusionConfig()
    nothing = np.zeros((8, 8), bool)
    lit = with_pool(rect, (6.0, 1.5), 0.6, 1.0)
    unclear = {(6, 1)}  # the pool washed its edge tile out of the read
    assert flat_groups(lit, unclear, nothing)[0] >= cfg.min_flat_cells  # without the cells' own kinds
    assert flat_groups(lit, unclear, nothing, openings=_openings(seed))[0] < cfg.min_flat_cells


def test_a_card_beside_the_pool_is_still_a_surface() -> None:
    """The kinds excuse light, not an outline: a plain card in the same place keeps its flat cells."""
    seed = 43
    rect = clean_rect(seed, "dark", "day")
    t, m = rect.tile_px, rect.margin_px
    card = dataclasses.replace(rect, image=rect.image.copy())
    card.image[m + 5 * t : m + 7 * t, m + 1 * t : m + 3 * t] = (225, 228, 232)
    found = flat_groups(card, {(6, 1)}, np.zeros((8, 8), bool), openings=_openings(seed))[0]
    assert found >= max(OcclusionConfig().min_flat_cells, (2 * CELLS - 2) ** 2)
