"""The guidance value type the painter consumes."""

from __future__ import annotations

import json
import random

import pytest

from companion.board import Color, Gate, InvalidStateError, random_setup
from companion.guidance import IDLE, Guidance, TurnPhase


def test_after_push_takes_reachable_from_the_board() -> None:
    board, _ = random_setup(random.Random(4))
    g = Guidance.after_push(board, "green", illegal_gate="W3", night=True)
    assert g.player is Color.GREEN and g.phase is TurnPhase.AFTER_PUSH
    assert g.reachable == frozenset(board.reachable(board.pawn(Color.GREEN)))
    assert g.pawn in g.reachable and g.illegal_gate is Gate.W3 and g.night
    before = Guidance.before_push(board, Color.RED)
    assert before.pawn == (0, 0) and before.reachable == frozenset()


def test_normalises_so_equal_meanings_compare_equal() -> None:
    a = Guidance(player="red", phase="after_push", reachable=[[0, 0], (0, 1)], illegal_gate="n3", pawn=[0, 0])
    b = Guidance(
        player=Color.RED, phase=TurnPhase.AFTER_PUSH, reachable=frozenset({(0, 1), (0, 0)}), illegal_gate=Gate.N3,
        pawn=(0, 0),
    )
    assert a == b and hash(a) == hash(b)


def test_json_round_trip() -> None:
    g = Guidance(
        player=Color.BLUE, phase=TurnPhase.AFTER_PUSH, pawn=(6, 0), reachable={(6, 0), (5, 0)}, illegal_pawn=(2, 2),
        public_targets={(3, 3)}, pushed_gate=Gate.E5, push_serial=3, out_of_sync=False,
    )
    data = json.loads(json.dumps(g.to_json()))
    assert data["reachable"] == [[5, 0], [6, 0]]
    assert Guidance.from_json(data) == g
    assert Guidance.from_json(IDLE.to_json()) == IDLE


@pytest.mark.parametrize(
    "bad",
    [{"player": "pink"}, {"phase": "during"}, {"reachable": [[9, 9]]}, {"illegal_gate": "Q1"}, {"colour": "red"}, []],
)
def test_bad_input_is_invalid_state(bad) -> None:
    with pytest.raises(InvalidStateError):
        Guidance.from_json(bad)


def test_player_without_pawn() -> None:
    board, _ = random_setup(random.Random(4), colors=[Color.RED])
    with pytest.raises(InvalidStateError, match="blue"):
        Guidance.after_push(board, "blue")
