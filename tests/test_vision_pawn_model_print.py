"""p25's study of this frame's prints as a reference for doubtful blobs (``tests/support/fit_pawns_prints.py``)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.support.fit_pawns_prints import CUES, DOUBT, MIN_PRINTS, best_apart, decide, penalised, print_penalties
from vision.pawn_features import FEATURES


def _row(**values: float) -> tuple[float, ...]:
    row = [0.0] * len(FEATURES)
    for name, v in values.items():
        row[FEATURES.index(name)] = v
    return tuple(row)


def _print(k: int) -> tuple[float, ...]:
    """One of the frame's prints: small, thin, no shadow, no lean (slightly different each)."""
    return _row(log_area=-0.8 + 0.05 * k, thickness=0.12 + 0.005 * k, shadow=0.1 + 0.02 * k, elongation=1.0 + 0.01 * k)


PRINTS = [_print(k) for k in range(6)]
LIKE = {"log_area": -0.7, "thickness": 0.13, "shadow": 0.12, "elongation": 1.02}


def test_a_blob_drawn_like_the_frames_prints_loses_logit() -> None:
    out = print_penalties([*PRINTS, _row(**LIKE)], [0.01] * len(PRINTS) + [0.8], threshold=0.5)
    assert out[:-1] == [0.0] * len(PRINTS)
    assert out[-1] < -1.0


@pytest.mark.parametrize("cue", CUES)
def test_a_blob_beyond_every_print_on_one_cue_stands_apart(cue: str) -> None:
    row = _row(**{**LIKE, cue: 5.0})
    assert best_apart(row, np.array(PRINTS)) == 1.0
    assert print_penalties([*PRINTS, row], [0.01] * len(PRINTS) + [0.8], threshold=0.5)[-1] == 0.0


def test_only_doubtful_blobs_are_judged_and_only_with_enough_prints() -> None:
    like = _row(**LIKE)
    out = print_penalties([*PRINTS, like, like], [0.01] * len(PRINTS) + [DOUBT, 0.4], threshold=0.5)
    assert out[-2:] == [0.0, 0.0]  # sure, and under the report threshold
    few = [*PRINTS[: MIN_PRINTS - 1], like]
    assert print_penalties(few, [0.01] * (MIN_PRINTS - 1) + [0.8], threshold=0.5)[-1] == 0.0


def test_a_penalty_only_lowers_a_probability_and_decisions_take_each_colours_best() -> None:
    assert penalised(0.8, 0.0) == pytest.approx(0.8)
    assert penalised(0.8, -2.0) == pytest.approx(1.0 / (1.0 + math.exp(2.0) / 4.0), rel=1e-9)  # logit ln 4 - 2
    assert decide([0.9, 0.7, 0.6, 0.4], [False, True, True, True], ["red", "red", "blue", "green"]) == (1, 1)
