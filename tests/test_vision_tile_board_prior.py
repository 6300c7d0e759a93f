"""The board's exact prior on its counts of Ts and straights (vision.tile_decode.count_log_prior,
in_inventory's ``board_prior``)."""

from __future__ import annotations

import numpy as np

from companion.board import FIXED_TILES, SIZE, Tile
from tests.test_vision_tile_decode import _board, _evidence
from vision.tile_decode import count_log_prior, decode, in_inventory, shape_prior
from vision.tile_features import DEFAULT_CONFIG
from vision.tiles import _seen_in_doubt

Case = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, tuple[int, int]]


def _a_t_with_its_west_side_unseen(west: float) -> Case:
    """Six movable Ts, one of them (ESW) with its west side under a pawn, read open with ``west``.

    Returns the shape prior, the evidence, the sides the camera did not see, the truth and that T's square.
    """
    prior = shape_prior(15.0)
    truth = _board(6)
    r, c = next((r, c) for r in range(SIZE) for c in range(SIZE) if (r, c) not in FIXED_TILES and truth[r, c] == 7)
    truth[r, c] = int(Tile.parse("ESW"))
    prob = _evidence(truth)
    prob[r, c, 3] = west
    weak = np.zeros((SIZE, SIZE, 4), dtype=bool)
    weak[r, c, 3] = True
    return prior, prob, weak, truth, (r, c)


def test_a_t_whose_deciding_side_no_one_saw_is_a_t_when_the_board_lacks_one() -> None:
    # Per square a corner is the better bet (28 of 34 movable tiles are not Ts), so the hidden T
    # reads as a corner: five Ts, which the inventory allows (the spare may be the sixth).
    prior, prob, weak, truth, (r, c) = _a_t_with_its_west_side_unseen(0.4)
    shapes, _ = decode(prob, prior)
    assert shapes[r, c] == int(Tile.parse("ES"))
    assert (in_inventory(prob, prior, shapes, weak) == shapes).all()
    # The board is one inventory less a spare: the sixth T is on the board or the spare.
    assert (in_inventory(prob, prior, shapes, weak, board_prior=True) == truth).all()


def test_a_side_that_says_closed_still_decides_under_the_board_prior() -> None:
    prior, prob, weak, _, (r, c) = _a_t_with_its_west_side_unseen(0.15)
    shapes, _ = decode(prob, prior)
    assert (in_inventory(prob, prior, shapes, weak, board_prior=True) == shapes).all()
    assert shapes[r, c] == int(Tile.parse("ES"))


def test_the_board_prior_leaves_a_clearly_read_board_as_it_is() -> None:
    prior = shape_prior(15.0)
    for ts in (5, 6):
        truth = _board(ts)
        shapes, _ = decode(_evidence(truth), prior)
        weak = np.ones((SIZE, SIZE, 4), dtype=bool)
        assert (in_inventory(_evidence(truth), prior, shapes, weak, board_prior=True) == truth).all()


def test_the_counts_prior_favours_the_counts_every_edition_allows() -> None:
    prior = count_log_prior()
    assert set(prior) == {(5, 12), (5, 13), (6, 11), (6, 12), (6, 13)}
    assert max(prior, key=lambda k: prior[k]) == (6, 12)  # the spare a corner, in every edition
    assert prior[(6, 12)] > prior[(5, 12)]


def _seen_shares(hidden: tuple[int, int, int] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Visible shares of every side's usual and border box: all seen, but ``hidden`` (r, c, side) covered."""
    usual, outer = np.ones((SIZE, SIZE, 4)), np.ones((SIZE, SIZE, 4))
    if hidden is not None:
        usual[hidden], outer[hidden] = 0.1, 0.1
    return usual, outer


def test_the_board_prior_turns_a_seen_side_in_doubt_but_not_one_under_a_pawn() -> None:
    prior, prob, _, truth, (r, c) = _a_t_with_its_west_side_unseen(0.4)
    shapes, _ = decode(prob, prior)
    excluded = np.zeros((SIZE, SIZE), dtype=bool)
    seen = _seen_in_doubt(prob, excluded, _seen_shares(), DEFAULT_CONFIG)
    assert seen[r, c, 3] and seen.sum() == 1
    assert (in_inventory(prob, prior, shapes, seen, board_prior=True) == truth).all()
    # The same doubt under a pawn is the paint's guess: the count prior leaves it alone.
    covered = _seen_in_doubt(prob, excluded, _seen_shares((r, c, 3)), DEFAULT_CONFIG)
    assert not covered.any()
    assert (in_inventory(prob, prior, shapes, covered, board_prior=True) == shapes).all()
    excluded[r, c] = True
    assert not _seen_in_doubt(prob, excluded, _seen_shares(), DEFAULT_CONFIG).any()
