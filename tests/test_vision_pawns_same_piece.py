"""A doubtful blob shaped like another colour's sure pawn: the same piece (vision.pawns._same_piece)."""

from __future__ import annotations

import numpy as np

from companion.board import Color
from vision.pawn_candidates import Candidate
from vision.pawn_model import FEATURES, PawnModel
from vision.pawns import SAME_PIECE_LIFT, SAME_PIECE_LOG_AREA, TWIN_SCALES, _best, _same_piece

_GLINT = FEATURES.index("glint")
#: A small capped cylinder seen from above: its hue-free shape (the twin features).
_PIECE = {"log_area": -0.4, "fill": 0.75, "extent": 0.45, "solidity": 0.96, "saturation": 0.6,
          "thickness": 0.18, "width": 0.37, "inner_cv": 0.06, "value_cv": 0.08, "marks": 0.0}  # fmt: skip


def _model() -> PawnModel:
    """Logit = glint: a blob's score is set directly (no board-level term, so it is its own evidence)."""
    return PawnModel.from_terms({"glint": ((), (1.0,))}, 0.0)


def _cand(color: Color, index: int, z: float, shape: dict[str, float]) -> Candidate:
    row = [0.0] * len(FEATURES)
    for name, value in shape.items():
        row[FEATURES.index(name)] = value
    row[_GLINT] = z
    labels = np.zeros((100, 300), np.int32)
    box = (20 + 60 * index, 40, 20, 20)
    return Candidate(color, tuple(row), (box[0] + 10.0, 50.0), box, 0.1, labels, index)


def _print_shape() -> dict[str, float]:
    """A drawn picture of the blob's colour: larger, hollower, with marks (far from the piece in spreads)."""
    return _PIECE | {"log_area": 0.3, "fill": 0.5, "solidity": 0.8, "marks": 0.6}


def test_the_same_piece_in_a_missing_colour_is_reported() -> None:
    found = [_cand(Color.BLUE, 1, 3.0, _PIECE), _cand(Color.RED, 2, -1.5, _PIECE | {"width": 0.40})]
    model = _model()
    best = _best(found, model, 0.5)
    assert Color.RED not in best  # p 0.18: a flat round top scores like a print
    best = _same_piece(found, best, model, 0.5)
    p, cand = best[Color.RED]
    assert cand is found[1]
    assert abs(p - 1.0 / (1.0 + np.exp(1.5 - SAME_PIECE_LIFT))) < 1e-9
    assert best[Color.BLUE][1] is found[0]


def test_a_print_of_another_shape_is_not_lifted() -> None:
    found = [_cand(Color.BLUE, 1, 3.0, _PIECE), _cand(Color.RED, 2, -1.5, _print_shape())]
    model = _model()
    assert Color.RED not in _same_piece(found, _best(found, model, 0.5), model, 0.5)


def test_no_sure_pawn_to_compare_with_lifts_nothing() -> None:
    # The blue is reported (p 0.73) but not sure on its own evidence (SET_SURE 0.8): no shape to go by.
    found = [_cand(Color.BLUE, 1, 1.0, _PIECE), _cand(Color.RED, 2, -1.5, _PIECE)]
    model = _model()
    best = _best(found, model, 0.5)
    assert _same_piece(found, best, model, 0.5) == best


def test_a_blob_too_far_under_the_threshold_and_a_printed_copy_are_not_lifted() -> None:
    found = [_cand(Color.BLUE, 1, 3.0, _PIECE), _cand(Color.RED, 2, -2.5, _PIECE), _cand(Color.GREEN, 3, -1.0, _PIECE)]
    model = _model()
    best = _same_piece(found, _best(found, model, 0.5), model, 0.5, printed=frozenset({2}))
    assert set(best) == {Color.BLUE}


def test_fragments_are_no_piece_to_compare() -> None:
    # A piled pawn's fragment (sure, small) and a small print just like it: small compact blobs look alike.
    small = _PIECE | {"log_area": SAME_PIECE_LOG_AREA - 0.2}
    found = [_cand(Color.GREEN, 1, 3.0, small), _cand(Color.YELLOW, 2, -1.0, small)]
    model = _model()
    assert Color.YELLOW not in _same_piece(found, _best(found, model, 0.5), model, 0.5)
    # A whole body of the piece's shape beside that fragment is still not judged by it.
    found = [_cand(Color.GREEN, 1, 3.0, small), _cand(Color.YELLOW, 2, -1.0, _PIECE)]
    assert Color.YELLOW not in _same_piece(found, _best(found, model, 0.5), model, 0.5)


def test_the_twin_scales_are_the_shape_compared() -> None:
    assert set(_PIECE) == set(TWIN_SCALES)
