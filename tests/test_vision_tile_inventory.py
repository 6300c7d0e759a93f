"""The inventory check decides only what the camera did not see (vision.tiles + vision.tile_decode.in_inventory).

FORMATS.md accepts any board of the ten shapes; only some commands check the physical
inventory. A board that breaks every edition's counts, drawn cleanly, must read as drawn.
"""

from __future__ import annotations

import random

import numpy as np

from companion.board import FIXED_TILES, SIZE, Board, Tile
from tests.test_vision_tile_decode import _board, _evidence, _one_t_too_many
from vision.reader import BoardReader
from vision.render import render_photo
from vision.tile_decode import decode, in_inventory, shape_prior, within_inventory
from vision.tile_features import DEFAULT_CONFIG
from vision.tile_model import Band
from vision.tiles import _split_sides


def _broken_board(seed: int) -> Board:
    """A board with 9 movable Ts and 16 straights (editions allow 5-6 and 11-13), the rest corners."""
    rng = random.Random(seed)
    movable = [(r, c) for r in range(SIZE) for c in range(SIZE) if (r, c) not in FIXED_TILES]
    rng.shuffle(movable)
    kinds = dict(zip(movable, [Tile.NES] * 9 + [Tile.NS] * 16 + [Tile.NE] * (len(movable) - 25), strict=True))
    tiles = tuple(
        FIXED_TILES[(r, c)] if (r, c) in FIXED_TILES else kinds[(r, c)].rotated(rng.randrange(4))
        for r in range(SIZE)
        for c in range(SIZE)
    )
    return Board(tiles, Tile.NE, {})


def test_a_clean_board_that_breaks_the_inventory_reads_as_drawn() -> None:
    board = _broken_board(7)
    image, label = render_photo(board, seed=2700900, look="classic", size=(1280, 960))
    obs = BoardReader().read(image)
    assert obs.readable
    assert [[str(t) for t in row] for row in obs.tile_rows()] == label["tiles"]


def test_a_clearly_seen_seventh_t_stays() -> None:
    # The same board as test_a_seventh_t_goes_back_to_the_tile_whose_evidence_is_weakest, but
    # the camera saw every side: the board shows seven Ts, and it is read with seven.
    prior, prob, shapes, truth, (r, c) = _one_t_too_many(6)
    seen = np.zeros((SIZE, SIZE, 4), dtype=bool)
    assert (in_inventory(prob, prior, shapes, seen) == shapes).all()
    # Unseen there (a pawn over that side), the inventory mends it.
    seen[r, c, 1] = True
    assert (in_inventory(prob, prior, shapes, seen) == truth).all()


def test_an_unseen_side_that_cannot_fit_the_counts_alone_changes_nothing() -> None:
    # Eight Ts: two must go, but only one of them has a side the camera did not see.
    prior = shape_prior(15.0)
    truth = _board(6)
    prob = _evidence(truth)
    movable = [(r, c) for r in range(SIZE) for c in range(SIZE) if (r, c) not in FIXED_TILES and truth[r, c] == 5]
    (r1, c1), (r2, c2) = movable[:2]
    prob[r1, c1, 1] = prob[r2, c2, 1] = 0.95
    shapes, _ = decode(prob, prior)
    weak = np.zeros((SIZE, SIZE, 4), dtype=bool)
    weak[r1, c1, 1] = True
    assert (in_inventory(prob, prior, shapes, weak) == shapes).all()


def test_within_inventory_tells_a_board_with_a_t_too_many() -> None:
    _, _, shapes, truth, _ = _one_t_too_many(6)
    assert within_inventory(truth)
    assert not within_inventory(shapes)


def _band(logit: np.ndarray, weight: float) -> Band:
    return Band(model=None, logit=logit, weight=np.full(logit.shape, weight))  # type: ignore[arg-type]


def test_sides_the_two_bands_read_clearly_but_opposite_are_split() -> None:
    cfg = DEFAULT_CONFIG
    usual = np.full((SIZE, SIZE, 4), 4.0)
    outer = np.full((SIZE, SIZE, 4), 9.0)
    outer[1, 2, 3] = -9.0  # opposite, both clear: split
    outer[2, 2, 0] = -1.0  # opposite, but the border band is in doubt: not split
    usual[3, 3, 1] = -5.0  # opposite the other way round: split too
    split = _split_sides(_band(usual, 0.9), _band(outer, 0.9), cfg)
    assert split[1, 2, 3] and split[3, 3, 1] and not split[2, 2, 0]
    assert split.sum() == 2
    # A band not typical of either class is no clear reading.
    assert not _split_sides(_band(usual, 0.9), _band(outer, 0.3), cfg).any()
