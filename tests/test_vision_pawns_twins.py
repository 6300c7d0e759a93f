"""A colour's pawn among several blobs over the threshold: one of a kind, not the board's repeated artwork."""

from __future__ import annotations

import numpy as np

from companion.board import Color
from vision.pawn_candidates import Candidate
from vision.pawn_model import FEATURES, PawnModel
from vision.pawns import TWIN_PRINT, TWIN_SCALES, _one_of_a_kind

_GLINT = FEATURES.index("glint")
#: A model whose logit is the glint feature alone: rows choose their own confidence.
_MODEL = PawnModel.linear([1.0 if k == _GLINT else 0.0 for k in range(len(FEATURES))] + [0.0])


def _blob(color: Color, logit: float, shape: dict[str, float]) -> tuple[Candidate, tuple[float, ...], float]:
    row = [0.0] * len(FEATURES)
    row[_GLINT] = logit
    for name, value in shape.items():
        row[FEATURES.index(name)] = value
    cand = Candidate(color, tuple(row), (0.0, 0.0), (0, 0, 10, 10), 0.2, np.zeros((1, 1), dtype=np.int32), 1)
    return cand, tuple(row), 1.0 / (1.0 + np.exp(-logit))


_KEY = {"log_area": -1.6, "fill": 0.55, "extent": 0.5, "solidity": 0.8, "saturation": 0.7, "thickness": 0.12}
_PAWN = {"log_area": -1.0, "fill": 0.75, "extent": 0.7, "solidity": 0.97, "saturation": 0.9, "thickness": 0.2}


def _choose(blobs: list[tuple[Candidate, tuple[float, ...], float]], color: Color = Color.RED) -> int:
    found, rows, probs = (list(part) for part in zip(*blobs, strict=True))
    return _one_of_a_kind(found, rows, probs, color, 0.5, _MODEL)


def test_without_twins_the_most_probable_blob_wins() -> None:
    blobs = [_blob(Color.RED, 3.0, _KEY), _blob(Color.RED, 2.0, _PAWN)]
    assert _choose(blobs) == 0


def test_a_blob_whose_picture_repeats_on_the_board_loses_to_one_of_a_kind() -> None:
    # The print's twin: the same key on another tile, scoring far under the threshold.
    twin = _blob(Color.RED, -4.0, {**_KEY, "log_area": _KEY["log_area"] + 0.1})
    assert _choose([_blob(Color.RED, 3.0, _KEY), _blob(Color.RED, 2.0, _PAWN), twin]) == 1
    # A twin in another colour counts only if it is a certain print ...
    other = _blob(Color.GREEN, -4.0, _KEY)
    assert other[2] < TWIN_PRINT
    assert _choose([_blob(Color.RED, 3.0, _KEY), _blob(Color.RED, 2.0, _PAWN), other]) == 1
    # ... not another colour's pawn (the same piece in another colour).
    green_pawn = _blob(Color.GREEN, 4.0, _KEY)
    assert _choose([_blob(Color.RED, 3.0, _KEY), _blob(Color.RED, 2.0, _PAWN), green_pawn]) == 0


def test_a_far_lead_is_kept_and_a_distant_look_alike_is_no_twin() -> None:
    twin = _blob(Color.RED, -4.0, _KEY)
    # The penalty is bounded: a blob far more probable still wins.
    assert _choose([_blob(Color.RED, 7.0, _KEY), _blob(Color.RED, 2.0, _PAWN), twin]) == 0
    # Half a spread off on each feature is still a twin; two spreads off (beyond the radius) is not.
    near = _blob(Color.RED, -4.0, {name: value + 0.5 * TWIN_SCALES[name] for name, value in _KEY.items()})
    far = _blob(Color.RED, -4.0, {name: value + 2.0 * TWIN_SCALES[name] for name, value in _KEY.items()})
    assert _choose([_blob(Color.RED, 3.0, _KEY), _blob(Color.RED, 2.9, _PAWN), near]) == 1
    assert _choose([_blob(Color.RED, 3.0, _KEY), _blob(Color.RED, 2.9, _PAWN), far]) == 0
