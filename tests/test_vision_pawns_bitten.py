"""A pawn behind another in a pile: its bitten outline and size say nothing (vision.pawns._behind_another)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from companion.board import Color
from vision.pawn_candidates import Candidate
from vision.pawn_model import FEATURES, PawnModel
from vision.pawns import _behind_another, _best, _hidden_sizes, _whole_values

_SOLIDITY = FEATURES.index("solidity")
_SMALL = FEATURES.index("log_area_small")
_GLINT = FEATURES.index("glint")
#: The board point below the camera: left of the pile, so the green pawn stands in front.
_NADIR = np.array([0.0, 50.0])


def _model() -> PawnModel:
    """Logit = glint + a solidity term rising 8 per unit up to 0.92, flat beyond (as the fitted model's)."""
    terms = {"glint": ((), (1.0,)), "solidity": ((0.92,), (8.0, 0.0)), "log_area_small": ((0.0,), (1.5, 0.0))}
    return PawnModel.from_terms(terms, -8.0 * 0.92)


def _pile() -> tuple[list[Candidate], np.ndarray]:
    """A sure green pawn with a red fragment behind it (seen from :data:`_NADIR`), a red print far away."""
    labels = np.zeros((100, 200), np.int32)
    labels[40:60, 40:60] = 1
    labels[42:58, 61:70] = 2
    labels[40:60, 150:170] = 3

    def cand(color: Color, index: int, box: tuple[int, int, int, int], glint: float, solidity: float) -> Candidate:
        row = [0.0] * len(FEATURES)
        row[_GLINT], row[_SOLIDITY] = glint, solidity
        x, y, w, h = box
        return Candidate(color, tuple(row), (x + w / 2, y + h / 2), box, 0.1, labels, index)

    found = [
        cand(Color.GREEN, 1, (40, 40, 20, 20), 4.0, 0.97),
        cand(Color.RED, 2, (61, 42, 9, 16), 1.0, 0.75),  # a bite out of it: 0.75 costs 1.36 of logit
        cand(Color.RED, 3, (150, 40, 20, 20), -1.0, 0.97),
    ]
    return found, labels


def test_a_whole_pawns_value_is_where_the_term_stops_rising() -> None:
    model = _model()
    assert _whole_values(model, [_SOLIDITY, _SMALL, _GLINT]) == {_SOLIDITY: 0.92, _SMALL: 0.0}


def test_only_a_blob_piled_behind_a_sure_pawn_is_judged_unbitten() -> None:
    found, _ = _pile()
    rows = [cand.features for cand in found]
    out = _hidden_sizes(found, rows, _model(), behind_of=_NADIR)
    assert out[1][_SOLIDITY] == 0.92  # the fragment behind the green pawn
    assert out[2][_SOLIDITY] == 0.97  # far from any pawn: as it was
    assert _hidden_sizes(found, rows, _model())[1][_SOLIDITY] == 0.75


def test_a_blob_in_front_of_the_pawn_it_touches_keeps_its_outline() -> None:
    """Seen from the right the red blob stands nearer the camera: the green pawn hides none of it
    (a start ring or a print at a pawn's foot)."""
    found, _ = _pile()
    rows = [cand.features for cand in found]
    out = _hidden_sizes(found, rows, _model(), behind_of=np.array([200.0, 50.0]))
    assert out[1][_SOLIDITY] == 0.75


def test_the_pawn_behind_another_is_found_when_its_colour_has_none() -> None:
    found, _ = _pile()
    model = _model()
    best = _best(found, model, 0.5)
    assert Color.RED not in best  # the bite leaves it under the threshold
    best = _behind_another(found, best, model, 0.5, lambda: _NADIR)
    assert best[Color.RED][1] is found[1]
    assert best[Color.GREEN][1] is found[0]


def test_a_colour_already_found_keeps_its_pawn_and_score() -> None:
    """A red print sure enough on its own: the red fragment behind the pile is not judged again."""
    found, _ = _pile()
    model = _model()
    found[2] = replace(found[2], features=tuple(3.0 if k == _GLINT else v for k, v in enumerate(found[2].features)))
    best = _best(found, model, 0.5)
    assert _behind_another(found, best, model, 0.5, lambda: _NADIR) == best
