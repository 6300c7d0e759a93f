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


def test_a_blind_painted_arm_gives_way_to_a_seen_t_in_doubt() -> None:
    # Six true Ts; the straight at A has its closed east side under a pile (no band pixel seen),
    # painted open at log-odds +6: seven Ts. The true T at B shows its third side in doubt (0.85).
    # At face value B is the cheaper change and loses its T; the paint's log-odds on a blind side
    # say little (tile_hidden.md), weighed as such A goes back to a straight and B stays a T.
    from vision.tile_features import TilesConfig
    from vision.tiles import _inventory_evidence

    prior = shape_prior(15.0)
    truth = _board(6)
    prob = _evidence(truth)
    a = _a_straight(truth)
    b = next((r, c) for r in range(SIZE) for c in range(SIZE) if (r, c) not in FIXED_TILES and truth[r, c] == 7)
    logit = np.log(prob / (1.0 - prob))
    logit[a][1] = 6.0
    logit[b][1] = np.log(0.85 / 0.15)
    prob = 1.0 / (1.0 + np.exp(-logit))
    shapes, _ = decode(prob, prior)
    assert shapes[a] == int(Tile.parse("NES")) and shapes[b] == int(Tile.parse("NES"))
    weak = np.zeros((SIZE, SIZE, 4), dtype=bool)
    weak[a][1] = weak[b][1] = True
    seen = np.ones((SIZE, SIZE, 4))
    seen[a][1] = 0.0
    as_read = in_inventory(prob, prior, shapes, weak)
    assert as_read[b] == int(Tile.parse("NS")) and as_read[a] == int(Tile.parse("NES"))  # without the rule
    cost = _inventory_evidence(logit, prob, (seen, seen), TilesConfig())
    assert (in_inventory(prob, prior, shapes, weak, cost) == truth).all()
    # The side seen at all (a tenth of a box) keeps its log-odds: nothing changes.
    seen[a][1] = 0.2
    assert (_inventory_evidence(logit, prob, (seen, seen), TilesConfig()) == prob).all()
    assert _inventory_evidence(logit, prob, None, TilesConfig()) is prob
