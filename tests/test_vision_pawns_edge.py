"""A doubtful blob across a wall's edge: a raised body, not a print in its corridor (vision.pawns._across_the_edge)."""

from __future__ import annotations

import numpy as np

from companion.board import Color
from vision.pawn_candidates import Candidate
from vision.pawn_model import FEATURES, PawnModel
from vision.pawns import EDGE_LIFT, _across_the_edge, _best

_GLINT = FEATURES.index("glint")


def _model() -> PawnModel:
    """Logit = glint: a blob's score is set directly."""
    return PawnModel.from_terms({"glint": ((), (1.0,))}, 0.0)


def _zones() -> np.ndarray:
    """Certain wall on the left (x < 45), certain corridor on the right (x >= 55), the edge band between."""
    zone = np.zeros((3, 100, 200), dtype=bool)
    zone[0, :, :45] = True
    zone[1, :, 55:] = True
    return zone


def _board(logit: float) -> list[Candidate]:
    """A dull red body across the edge (x 35-65) and a red print inside the corridor (x 150-170), both at ``logit``."""
    labels = np.zeros((100, 200), np.int32)
    labels[40:60, 35:65] = 1
    labels[40:60, 150:170] = 2

    def cand(index: int, box: tuple[int, int, int, int], z: float) -> Candidate:
        row = [0.0] * len(FEATURES)
        row[_GLINT] = z
        x, y, w, h = box
        return Candidate(Color.RED, tuple(row), (x + w / 2, y + h / 2), box, 0.1, labels, index)

    return [cand(1, (35, 40, 30, 20), logit), cand(2, (150, 40, 20, 20), logit - 0.1)]


def test_a_doubtful_body_across_the_edge_is_reported() -> None:
    found, model = _board(-0.6), _model()
    best = _best(found, model, 0.5)
    assert Color.RED not in best  # p 0.35: under the threshold
    best = _across_the_edge(found, best, model, 0.5, _zones)
    p, cand = best[Color.RED]
    assert cand is found[0]
    assert abs(p - 1.0 / (1.0 + np.exp(0.6 - EDGE_LIFT))) < 1e-9


def test_a_doubtful_blob_inside_its_corridor_is_not() -> None:
    found, model = _board(-0.6), _model()
    found = found[1:]  # only the print in the corridor
    assert _across_the_edge(found, _best(found, model, 0.5), model, 0.5, _zones) == {}


def test_a_blob_too_far_under_the_threshold_is_not_lifted() -> None:
    found, model = _board(-1.1), _model()  # p 0.25: the lift leaves it under the threshold
    assert _across_the_edge(found, {}, model, 0.5, _zones) == {}


def test_a_colour_already_found_keeps_its_pawn() -> None:
    found, model = _board(-0.6), _model()
    found[1] = Candidate(Color.RED, tuple(2.0 if k == _GLINT else 0.0 for k in range(len(FEATURES))),
                         found[1].base, found[1].box, 0.1, found[1].labels, 2)  # fmt: skip
    best = _best(found, model, 0.5)
    calls = []
    assert _across_the_edge(found, best, model, 0.5, lambda: calls.append(1) or _zones()) == best
    assert not calls  # no zones built when no colour is missing
