"""The board-level inventory check of the decoded shapes (vision.tile_decode.in_inventory)."""

from __future__ import annotations

import numpy as np

from companion.board import FIXED_TILES, SIZE, Tile
from vision.tile_decode import SHAPES, decode, in_inventory, shape_prior


def _board(ts: int) -> np.ndarray:
    """A (7, 7) board of Tile masks with the fixed tiles and ``ts`` movable Ts, 12 straights, the rest corners."""
    shapes = np.zeros((SIZE, SIZE), dtype=np.int64)
    movable = [(r, c) for r in range(SIZE) for c in range(SIZE) if (r, c) not in FIXED_TILES]
    kinds = ["NES"] * ts + ["NS"] * 12 + ["ES"] * (len(movable) - ts - 12)
    for (r, c), kind in zip(movable, kinds, strict=True):
        shapes[r, c] = int(Tile.parse(kind))
    for (r, c), tile in FIXED_TILES.items():
        shapes[r, c] = int(tile)
    return shapes


def _evidence(shapes: np.ndarray, sure: float = 0.99) -> np.ndarray:
    """Side probabilities (7, 7, 4) that say each tile's shape with ``sure`` confidence."""
    sides = (shapes[..., None] >> np.arange(4)) & 1
    return np.where(sides == 1, sure, 1.0 - sure)


def _a_straight(shapes: np.ndarray) -> tuple[int, int]:
    return next((r, c) for r in range(SIZE) for c in range(SIZE) if (r, c) not in FIXED_TILES and shapes[r, c] == 5)


def _one_t_too_many(ts: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, tuple[int, int]]:
    """``ts`` Ts read clearly, plus a straight whose closed east side reads open (0.95), as under a pawn.

    Returns the shape prior, the evidence, the per-tile read, the truth and that straight's square.
    """
    prior = shape_prior(15.0)
    truth = _board(ts)
    prob = _evidence(truth)
    r, c = _a_straight(truth)
    prob[r, c, 1] = 0.95
    shapes, _ = decode(prob, prior)
    return prior, prob, shapes, truth, (r, c)


def test_a_board_within_the_inventory_is_left_as_decoded() -> None:
    prior = shape_prior(15.0)
    for ts in (5, 6):
        truth = _board(ts)
        shapes, _ = decode(_evidence(truth), prior)
        assert (in_inventory(_evidence(truth), prior, shapes) == truth).all()


def test_a_seventh_t_goes_back_to_the_tile_whose_evidence_is_weakest() -> None:
    # Six Ts read clearly; a straight whose closed east side a pawn hid reads open (0.95):
    # seven Ts no edition has, so that straight (the cheapest change) is a straight again.
    prior, prob, shapes, truth, (r, c) = _one_t_too_many(6)
    assert shapes[r, c] == int(Tile.parse("NES"))  # the per-tile read does show the problem
    fixed = in_inventory(prob, prior, shapes)
    assert (fixed == truth).all()
    assert set(np.unique(fixed)) <= set(SHAPES.tolist())


def test_a_sixth_t_that_the_inventory_allows_stays() -> None:
    # With five Ts elsewhere the board may hold a sixth: the evidence decides, not the count.
    prior, prob, shapes, _, (r, c) = _one_t_too_many(5)
    assert (in_inventory(prob, prior, shapes) == shapes).all()
    assert shapes[r, c] == int(Tile.parse("NES"))
