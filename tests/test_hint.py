"""Hint search: the packed board against Board, and the search against a brute-force reference."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.board import (
    COLORS,
    GATES,
    SIZE,
    Board,
    Color,
    Gate,
    InvalidStateError,
    Tile,
    push_square,
    random_setup,
    square_index,
    squares_mask,
)
from companion.hint import SPARE, Hint, Packed, Target, hint, push_outcomes, push_square_set

SQUARES = st.tuples(st.integers(0, SIZE - 1), st.integers(0, SIZE - 1))


@st.composite
def boards(draw: st.DrawFn, pawn: bool = True) -> Board:
    """Any 7x7 board of the ten shapes (not a physical setup), with a red pawn and any last push."""
    tiles = tuple(draw(st.lists(st.sampled_from(list(Tile)), min_size=49, max_size=49)))
    pawns = {Color.RED: draw(SQUARES)} if pawn else {}
    return Board(tiles, draw(st.sampled_from(list(Tile))), pawns, draw(st.none() | st.sampled_from(GATES)))


@st.composite
def physical_boards(draw: st.DrawFn) -> Board:
    """A random physical setup, a few pushes in, with the red pawn moved somewhere."""
    board, _ = random_setup(random.Random(draw(st.integers(0, 10**6))), colors=[Color.RED])
    for gate in draw(st.lists(st.sampled_from(GATES), max_size=3)):
        board = board.push(gate)
    return board.with_pawns({Color.RED: draw(SQUARES)})


TARGETS = SQUARES | st.just(SPARE)


# --------------------------------------------------------------------------- packed board == Board


@settings(max_examples=150, deadline=None, derandomize=True)
@given(boards(), st.sampled_from(GATES), st.integers(0, 3), SQUARES, SQUARES)
def test_packed_push_and_reach_match_board(board: Board, gate: Gate, turn: int, a: tuple, b: tuple) -> None:
    packed = Packed.from_board(board)
    assert packed.tiles() == board.tiles
    laid = board.spare.rotated(turn)
    after = board.push(gate, laid)
    packed_after = packed.push(gate, int(laid))
    assert packed_after.tiles() == after.tiles
    assert packed_after.spare == after.spare
    assert packed_after.reachable_mask(squares_mask([a])) == after.reachable_mask(a)
    assert packed_after.reachable_mask(squares_mask([a, b])) == after.reachable_mask([a, b])
    moved = push_square_set(squares_mask([a, b]), gate)
    assert moved == squares_mask([push_square(a, gate), push_square(b, gate)])


@settings(max_examples=60, deadline=None, derandomize=True)
@given(boards())
def test_push_outcomes_cover_every_legal_push_and_rotation(board: Board) -> None:
    start = board.pawns[Color.RED]
    got = {(g, t): bits for g, t, bits in push_outcomes(board, start)}
    expected = {}
    for gate in board.legal_pushes():
        for laid in board.spare.rotations():
            after = board.push(gate, laid)
            expected[(gate, laid)] = after.reachable_mask(after.pawns[Color.RED])
    assert got == expected


# --------------------------------------------------------------------------- brute-force reference


def _follow(target: Target, gate: Gate) -> Target:
    """Where the target tile is after a push: the spare enters at the gate, the exit tile becomes the spare."""
    if target == SPARE:
        return gate.entry
    if target == gate.exit:
        return SPARE
    return push_square(target, gate)  # type: ignore[arg-type]


def _ref_within(board: Board, pawn: tuple[int, int], target: Target, turns: int) -> bool:
    """Slow and plain: try every legal push, rotation and move, one square at a time."""
    for gate in board.legal_pushes():
        for laid in board.spare.rotations():
            after = board.push(gate, laid)  # last_push becomes this gate: the chain's reverse ban
            moved, followed = push_square(pawn, gate), _follow(target, gate)
            reach = after.reachable(moved)
            if followed in reach:
                return True
            if turns > 1 and any(_ref_within(after, square, followed, turns - 1) for square in reach):
                return True
    return False


def _ref_turns(board: Board, target: Target, max_turns: int) -> int | None:
    pawn = board.pawns[Color.RED]
    return next((n for n in range(1, max_turns + 1) if _ref_within(board, pawn, target, n)), None)


def _check_first_turn(board: Board, target: Target, found: Hint) -> None:
    """The hint's first turn is legal and the rest of the chain still gets there in turns - 1."""
    assert board.is_legal_push(found.push)
    assert found.spare in board.spare.rotations()
    after = board.push(found.push, found.spare)
    assert found.move in after.reachable(push_square(board.pawns[Color.RED], found.push))
    followed = _follow(target, found.push)
    if found.turns == 1:
        assert found.move == followed
    else:
        assert _ref_within(after, found.move, followed, found.turns - 1)


def _check_against_reference(board: Board, target: Target, max_turns: int) -> Hint | None:
    found = hint(board, Color.RED, target, max_turns)
    expected = _ref_turns(board, target, max_turns)
    assert (found.turns if found else None) == expected
    if found is not None:
        _check_first_turn(board, target, found)
    return found


@settings(max_examples=120, deadline=None, derandomize=True)
@given(boards(), TARGETS)
def test_depth_one_matches_reference_on_arbitrary_boards(board: Board, target: Target) -> None:
    _check_against_reference(board, target, 1)


@settings(max_examples=12, deadline=None, derandomize=True)
@given(boards(), TARGETS)
def test_depth_two_matches_reference_on_arbitrary_boards(board: Board, target: Target) -> None:
    _check_against_reference(board, target, 2)


@settings(max_examples=8, deadline=None, derandomize=True)
@given(physical_boards(), TARGETS)
def test_depth_two_matches_reference_on_physical_boards(board: Board, target: Target) -> None:
    _check_against_reference(board, target, 2)


def _arbitrary_case(seed: int) -> tuple[Board, Target]:
    """A seeded non-physical board (uniform random tiles), red pawn, target square or spare, any last push."""
    rng = random.Random(seed)
    tiles = tuple(rng.choice(list(Tile)) for _ in range(SIZE * SIZE))
    pawn = (rng.randrange(SIZE), rng.randrange(SIZE))
    board = Board(tiles, rng.choice(list(Tile)), {Color.RED: pawn}, rng.choice([None, *GATES]))
    target: Target = SPARE if rng.random() < 0.15 else (rng.randrange(SIZE), rng.randrange(SIZE))
    return board, target


def _physical_case(seed: int) -> tuple[Board, Target]:
    rng = random.Random(seed)
    board, _ = random_setup(rng, colors=[Color.RED])
    return board, (rng.randrange(SIZE), rng.randrange(SIZE))


def test_depth_two_matches_reference_where_one_turn_is_not_enough() -> None:
    """Seeded boards where depth 1 fails, so both depth-2 answers (2 and none) are exercised."""
    answers = []
    for seed in range(160):
        board, target = _arbitrary_case(seed) if seed % 4 else _physical_case(seed)
        if hint(board, Color.RED, target, 1) is not None:
            continue
        found = _check_against_reference(board, target, 2)
        answers.append(found.turns if found else None)
    assert answers.count(2) >= 20 and answers.count(None) >= 10  # the sample really covers both outcomes


def _three_turn_cases(make, count: int) -> list[tuple[Board, Target]]:
    """Seeded positions whose answer is exactly 3 turns (found by the fast search, checked below)."""
    cases = []
    for seed in range(2000):
        board, target = make(seed)
        found = hint(board, Color.RED, target, 3)
        if found is not None and found.turns == 3:
            cases.append((board, target))
            if len(cases) == count:
                break
    return cases


@pytest.mark.parametrize(
    ("board", "target"), _three_turn_cases(_physical_case, 2) + _three_turn_cases(_arbitrary_case, 2)
)
def test_three_turn_answers_are_minimal_and_playable(board: Board, target: Target) -> None:
    found = hint(board, Color.RED, target, 3)
    assert found is not None and found.turns == 3
    assert _ref_turns(board, target, 2) is None  # not possible in two
    _check_first_turn(board, target, found)  # and the first turn leaves a two-turn finish


def _load_hint_cases() -> list[tuple[str, Board, Target, int, int | None]]:
    cases = []
    blocks = (Path(__file__).parent / "data" / "hint_cases.txt").read_text(encoding="utf-8").split("\n\n")
    for block in blocks:
        lines = [line for line in block.splitlines() if line.strip() and not line.startswith("#")]
        if not lines:
            continue
        name = next(line for line in block.splitlines() if line.startswith("# seed"))[2:]
        words = lines[-1].split()  # target R,C|spare max N -> TURNS
        target: Target = SPARE if words[1] == SPARE else tuple(int(v) for v in words[1].split(","))  # type: ignore[assignment]
        expected = None if words[5] == "none" else int(words[5])
        cases.append((name, Board.from_text("\n".join(lines[:-1])), target, int(words[3]), expected))
    return cases


HINT_CASES = _load_hint_cases()


@pytest.mark.parametrize(
    ("name", "board", "target", "max_turns", "expected"), HINT_CASES, ids=[c[0] for c in HINT_CASES]
)
def test_hint_cases(name: str, board: Board, target: Target, max_turns: int, expected: int | None) -> None:
    found = hint(board, Color.RED, target, max_turns)
    assert (found.turns if found else None) == expected
    if found is not None:
        _check_first_turn(board, target, found)


def test_hint_fixture_covers_every_outcome() -> None:
    outcomes = {c[4] for c in HINT_CASES}
    assert outcomes == {1, 2, 3, None}
    assert any(c[2] == SPARE for c in HINT_CASES)


# --------------------------------------------------------------------------- hand-made cases


def _uniform(tile: str, spare: str, pawn: tuple[int, int], last: str | None = None) -> Board:
    return Board.from_rows([[tile] * SIZE] * SIZE, spare, {"red": pawn}, last)


def test_target_already_connected_still_takes_one_turn() -> None:
    board = _uniform("EW", "EW", (3, 0))
    found = hint(board, Color.RED, (3, 6))
    assert found is not None and found.turns == 1
    assert found.push is not Gate.W3  # W3 pushes the target out: it becomes the spare
    assert found.move == push_square((3, 6), found.push)


def test_straights_only_cannot_turn_a_corner_in_one() -> None:
    # (0,0) and (0,6) never move, and straight tiles never join a column to a row
    assert hint(_uniform("NS", "NS", (0, 0)), Color.RED, (0, 6), 1) is None


def test_the_spare_is_reached_by_inserting_it() -> None:
    board = _uniform("EW", "NS", (1, 0))
    found = hint(board, Color.RED, SPARE, 1)
    assert found is not None and found.turns == 1
    assert found.move == found.push.entry
    assert found.move in board.push(found.push, found.spare).reachable(push_square((1, 0), found.push))


def test_reverse_ban_applies_to_the_state_last_push() -> None:
    # Row 3 is EW EW EW NS EW EW EW, every other tile NS. Only E3 with EW laid joins the pawn
    # (wrapped from [3,0] to [3,6]) to the target tile (from [3,5] to [3,4]); W3 before bans it.
    rows = [["NS"] * SIZE for _ in range(SIZE)]
    rows[3] = ["EW", "EW", "EW", "NS", "EW", "EW", "EW"]
    free = Board.from_rows(rows, "NS", {"red": (3, 0)})
    banned = Board.from_rows(rows, "NS", {"red": (3, 0)}, "W3")
    found = hint(free, Color.RED, (3, 5), 1)
    assert found is not None and (found.push, found.spare, found.move) == (Gate.E3, Tile.EW, (3, 4))
    assert _ref_turns(banned, (3, 5), 1) is None
    assert hint(banned, Color.RED, (3, 5), 1) is None
    two = hint(banned, Color.RED, (3, 5), 2)
    assert two is not None and two.turns == 2 and two.push is not Gate.E3


def test_zero_turns_finds_nothing_and_a_missing_pawn_is_an_error() -> None:
    board = _uniform("EW", "EW", (3, 0))
    assert hint(board, Color.RED, (3, 6), 0) is None
    with pytest.raises(InvalidStateError, match="no pawn"):
        hint(board, Color.BLUE, (3, 6))


def test_other_pawns_do_not_block() -> None:
    board = _uniform("EW", "EW", (3, 0)).with_pawns({c: (3, 3) for c in COLORS} | {Color.RED: (3, 0)})
    found = hint(board, Color.RED, (3, 6), 1)
    assert found is not None and found.turns == 1


def test_hint_json_shape() -> None:
    found = Hint(2, Gate.N3, Tile.NES, (1, 2))
    assert found.to_json() == {"turns": 2, "push": "N3", "spare": "NES", "move": [1, 2]}
    assert list(found.to_json()) == ["turns", "push", "spare", "move"]


def test_square_index_helpers_agree() -> None:
    assert squares_mask([(1, 2)]) == 1 << square_index((1, 2))


# --------------------------------------------------------------------------- benchmark positions


def test_benchmark_positions_are_what_they_claim() -> None:
    from companion import bench_rules

    assert set(bench_rules.benchmarks()) == {"analyze_all_pushes_ms", "hint_ms_d1", "hint_ms_d2", "hint_ms_d3"}
    for board, target in bench_rules.hard_positions(2, 3):
        assert _ref_turns(board, target, 2) is None  # depth 2 really runs in full
    assert bench_rules.hard_positions(1, 4) == bench_rules.hard_positions(1, 4)  # seeded: same positions each run
    board, _ = random_setup(random.Random(3))
    expected = sum(bin(bits).count("1") for _, _, bits in push_outcomes(board, board.pawns[Color.RED]))
    assert bench_rules.all_pushes(board, Color.RED) == expected
