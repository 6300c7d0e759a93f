"""Board model: notations, pushes (data-driven, all 12 gates), legality and reachability."""

from __future__ import annotations

import copy
import json
import pickle
import random
from pathlib import Path

import pytest

from companion.board import (
    COLORS,
    FIXED_TILES,
    GATES,
    Board,
    Color,
    Gate,
    InvalidStateError,
    Tile,
    format_square,
    parse_square,
    push_square,
    random_setup,
)

DATA = Path(__file__).parent / "data"


def _square(text: str) -> tuple[int, int]:
    r, c = text.split(",")
    return int(r), int(c)


# --------------------------------------------------------------------------- tiles


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("NS", Tile.NS), ("SN", Tile.NS), ("EW", Tile.EW), ("WE", Tile.EW),
        ("NE", Tile.NE), ("EN", Tile.NE), ("ES", Tile.ES), ("SE", Tile.ES),
        ("SW", Tile.SW), ("WS", Tile.SW), ("NW", Tile.NW), ("WN", Tile.NW),
        ("NES", Tile.NES), ("SEN", Tile.NES), ("ESW", Tile.ESW), ("WSE", Tile.ESW),
        ("NSW", Tile.NSW), ("WNS", Tile.NSW), ("NEW", Tile.NEW), ("WEN", Tile.NEW),
    ],
)  # fmt: skip
def test_tile_parse_accepts_any_letter_order_and_prints_nesw(text: str, expected: Tile) -> None:
    tile = Tile.parse(text)
    assert tile is expected
    assert str(tile) == "".join(ch for ch in "NESW" if ch in text)


@pytest.mark.parametrize("text", ["", "N", "E", "NESW", "X", "NN", "NSS", "N S", "NSX", "NESWN"])
def test_tile_parse_rejects_everything_but_the_ten_shapes(text: str) -> None:
    with pytest.raises(InvalidStateError, match="invalid tile openings"):
        Tile.parse(text)


@pytest.mark.parametrize("value", [None, 5, ["N", "S"]])
def test_tile_parse_rejects_non_strings(value: object) -> None:
    with pytest.raises(InvalidStateError):
        Tile.parse(value)


def test_there_are_exactly_ten_shapes_and_they_round_trip() -> None:
    assert len(Tile) == 10
    for tile in Tile:
        assert Tile.parse(str(tile)) is tile
        assert eval(repr(tile)) is tile  # repr rebuilds the tile


@pytest.mark.parametrize(
    ("tile", "turned"),
    [(Tile.NS, Tile.EW), (Tile.EW, Tile.NS), (Tile.NE, Tile.ES), (Tile.ES, Tile.SW), (Tile.SW, Tile.NW),
     (Tile.NW, Tile.NE), (Tile.NES, Tile.ESW), (Tile.ESW, Tile.NSW), (Tile.NSW, Tile.NEW), (Tile.NEW, Tile.NES)],
)
def test_rotation_is_clockwise(tile: Tile, turned: Tile) -> None:
    assert tile.rotated() is turned
    assert tile.rotated(4) is tile


def test_straights_have_two_rotations_others_four() -> None:
    assert Tile.NS.rotations() == (Tile.NS, Tile.EW)
    assert Tile.SW.rotations() == (Tile.SW, Tile.NW, Tile.NE, Tile.ES)
    assert len(Tile.NEW.rotations()) == 4


# --------------------------------------------------------------------------- gates, squares, colours


def test_gates_sorted_as_strings_and_reverse_pairs() -> None:
    assert [str(g) for g in GATES] == ["E1", "E3", "E5", "N1", "N3", "N5", "S1", "S3", "S5", "W1", "W3", "W5"]
    pairs = {"N1": "S1", "N3": "S3", "N5": "S5", "W1": "E1", "W3": "E3", "W5": "E5"}
    for a, b in pairs.items():
        assert Gate.parse(a).reverse is Gate.parse(b)
        assert Gate.parse(b).reverse is Gate.parse(a)


@pytest.mark.parametrize("gate", list(Gate))
def test_gate_round_trips(gate: Gate) -> None:
    assert Gate.parse(str(gate)) is gate
    assert eval(repr(gate)) is gate


@pytest.mark.parametrize(
    ("gate", "entry", "exit_"),
    [("N1", (0, 1), (6, 1)), ("S3", (6, 3), (0, 3)), ("W5", (5, 0), (5, 6)), ("E1", (1, 6), (1, 0))],
)
def test_gate_entry_and_exit(gate: str, entry: tuple[int, int], exit_: tuple[int, int]) -> None:
    assert Gate.parse(gate).entry == entry
    assert Gate.parse(gate).exit == exit_


@pytest.mark.parametrize("text", ["N2", "N0", "Q1", "", "N33", "N", None])
def test_unknown_gates_are_rejected(text: object) -> None:
    with pytest.raises(InvalidStateError, match="unknown gate"):
        Gate.parse(text)


def test_squares_round_trip() -> None:
    for r in range(7):
        for c in range(7):
            assert parse_square(format_square((r, c))) == (r, c)
            assert parse_square([r, c]) == (r, c)
    assert parse_square(" 3, 4") == (3, 4)


@pytest.mark.parametrize("value", ["3", "a,b", "3,4,5", [7, 0], [0, -1], [True, 1], [1.0, 2], "7,7", 34, None])
def test_bad_squares_are_rejected(value: object) -> None:
    with pytest.raises(InvalidStateError):
        parse_square(value)


def test_colors_parse_and_order() -> None:
    assert [str(c) for c in COLORS] == ["red", "yellow", "green", "blue"]
    assert Color.parse("Blue") is Color.BLUE
    with pytest.raises(InvalidStateError, match="unknown color 'purple'"):
        Color.parse("purple")


# --------------------------------------------------------------------------- pushes (fixture)


def _load_push_cases() -> tuple[list[list[str]], list[tuple[str, str, list[str], str, list[str]]]]:
    lines = (DATA / "push_cases.txt").read_text(encoding="utf-8").splitlines()
    start = lines.index("base:")
    base = [line.split() for line in lines[start + 1 : start + 8]]
    cases = []
    for line in lines[start + 8 :]:
        if not line.strip() or line.startswith("#"):
            continue
        head, after, spare, moves = (part.strip() for part in line.split("|"))
        gate, laid = head.split()
        cases.append((gate, laid, after.split(), spare, moves.split()))
    return base, cases


BASE_ROWS, PUSH_CASES = _load_push_cases()


def test_push_fixture_covers_all_twelve_gates() -> None:
    assert sorted(case[0] for case in PUSH_CASES) == [str(g) for g in GATES]


@pytest.mark.parametrize(("gate", "laid", "after", "spare", "moves"), PUSH_CASES, ids=[c[0] for c in PUSH_CASES])
def test_push_cases(gate: str, laid: str, after: list[str], spare: str, moves: list[str]) -> None:
    pawns = {}
    for color, move in zip(COLORS, moves, strict=False):
        pawns[color] = _square(move.split(">")[0])
    board = Board.from_rows(BASE_ROWS, laid, pawns)
    pushed = board.push(Gate.parse(gate), Tile.parse(laid))
    line = Gate.parse(gate).line
    assert [str(pushed.tiles[i]) for i in line] == after
    assert str(pushed.spare) == spare
    for i in set(range(49)) - set(line):  # everything off the line stays put
        assert pushed.tiles[i] is board.tiles[i]
    for color, move in zip(COLORS, moves, strict=False):
        assert pushed.pawns[color] == _square(move.split(">")[1])
    assert pushed.last_push is Gate.parse(gate)


def test_pawn_on_pushed_out_tile_lands_on_the_entered_tile() -> None:
    board = Board.from_rows(BASE_ROWS, "NS", {Color.RED: (6, 3), Color.BLUE: (0, 3)})
    pushed = board.push(Gate.N3, Tile.EW)
    assert pushed.pawns[Color.RED] == (0, 3)  # rode the leaving tile around to the new one
    assert pushed.tile((0, 3)) is Tile.EW
    assert pushed.pawns[Color.BLUE] == (1, 3)
    assert push_square((6, 3), Gate.N3) == (0, 3)
    assert push_square((3, 0), Gate.E3) == (3, 6)
    assert push_square((3, 3), Gate.N1) == (3, 3)


def test_push_keeps_the_laid_orientation_and_rejects_other_shapes() -> None:
    board = Board.from_rows(BASE_ROWS, "NS")
    assert board.push(Gate.W3, Tile.EW).tile((3, 0)) is Tile.EW
    assert board.push(Gate.W3).tile((3, 0)) is Tile.NS
    assert board.push(Gate.W3, "WE").tile((3, 0)) is Tile.EW
    with pytest.raises(InvalidStateError, match="not a rotation"):
        board.push(Gate.W3, Tile.NE)


def test_push_then_reverse_with_the_pushed_out_tile_restores() -> None:
    board = Board.from_rows(BASE_ROWS, "NES", {Color.RED: (1, 0), Color.GREEN: (1, 3)})
    there = board.push(Gate.E1)
    back = there.push(Gate.W1, there.spare)
    assert back.tiles == board.tiles and back.spare == board.spare and back.pawns == board.pawns


# --------------------------------------------------------------------------- legality


def test_legal_pushes_ban_only_the_reverse_of_the_last_push() -> None:
    board = Board.from_rows(BASE_ROWS, "NS")
    assert board.legal_pushes() == list(GATES)
    after = board.push(Gate.N3)
    assert after.legal_pushes() == [g for g in GATES if g is not Gate.S3]
    assert not after.is_legal_push(Gate.S3)
    assert after.is_legal_push(Gate.N3)  # pushing the same gate again is fine
    assert Gate.N1 in after.push(Gate.W5).push(Gate.N1).legal_pushes()
    assert Gate.E5 not in after.push(Gate.W5).legal_pushes()


def test_push_itself_is_mechanical_even_for_the_banned_gate() -> None:
    board = Board.from_rows(BASE_ROWS, "NS").push(Gate.N3)
    assert board.push(Gate.S3).last_push is Gate.S3


# --------------------------------------------------------------------------- reachability (fixture)


def _load_reach_cases() -> list[tuple[str, list[list[str]], tuple[int, int], set[tuple[int, int]]]]:
    cases = []
    lines = [line for line in (DATA / "reach_cases.txt").read_text(encoding="utf-8").splitlines()]
    k = 0
    while k < len(lines):
        line = lines[k]
        if line.startswith("board "):
            name, rows = line.split()[1], [lines[k + 1 + i].split() for i in range(7)]
            k += 8
            while k < len(lines) and lines[k].startswith("from "):
                start, expected = lines[k][len("from ") :].split(":")
                cases.append((name, rows, _square(start), {_square(s) for s in expected.split()}))
                k += 1
        else:
            k += 1
    return cases


REACH_CASES = _load_reach_cases()


@pytest.mark.parametrize(
    ("name", "rows", "start", "expected"), REACH_CASES, ids=[f"{c[0]}-{c[2][0]},{c[2][1]}" for c in REACH_CASES]
)
def test_reach_cases(name: str, rows: list[list[str]], start: tuple[int, int], expected: set) -> None:
    board = Board.from_rows(rows, "NS")
    got = board.reachable(start)
    assert set(got) == expected
    assert got == sorted(got)
    assert all(board.is_connected(start, sq) for sq in expected)


def test_reach_fixture_has_cases() -> None:
    assert len(REACH_CASES) >= 15
    assert {c[0] for c in REACH_CASES} >= {"one-side-open", "ring", "corner-staircase"}


# --------------------------------------------------------------------------- board state JSON and text


STATE = {
    "tiles": [
        ["ES", "NS", "ESW", "EW", "ESW", "NE", "SW"],
        ["NW", "NES", "EW", "SW", "NS", "ES", "NSW"],
        ["NES", "EW", "NES", "NEW", "ESW", "NS", "NSW"],
        ["SW", "NE", "NS", "ES", "NW", "EW", "NES"],
        ["NES", "NSW", "NEW", "SW", "NSW", "NE", "NSW"],
        ["EW", "ES", "NW", "NS", "NEW", "SW", "NS"],
        ["NE", "NW", "NEW", "ESW", "NEW", "EW", "NW"],
    ],
    "spare": "NES",
    "pawns": {"red": [0, 0], "yellow": [0, 6], "green": [6, 6], "blue": [6, 0]},
    "last_push": "N3",
}


def test_board_json_round_trip() -> None:
    board = Board.from_json(STATE)
    assert board.to_json() == STATE
    assert Board.from_json(json.loads(json.dumps(board.to_json()))) == board
    assert list(board.to_json()) == ["tiles", "spare", "pawns", "last_push"]


def test_board_json_normalises_openings_and_pawn_order() -> None:
    state = json.loads(json.dumps(STATE))
    state["tiles"][0][0] = "SE"
    state["spare"] = "ESN"
    state["pawns"] = {"blue": [6, 0], "red": [0, 0]}
    state.pop("last_push")
    out = Board.from_json(state).to_json()
    assert out["tiles"][0][0] == "ES" and out["spare"] == "NES"
    assert list(out["pawns"]) == ["red", "blue"]
    assert out["last_push"] is None


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda s: s.pop("tiles"), "no 'tiles'"),
        (lambda s: s.pop("spare"), "no 'spare'"),
        (lambda s: s["tiles"].pop(), "must be 7 rows"),
        (lambda s: s["tiles"][2].append("NS"), "row 2 must hold 7 tiles"),
        (lambda s: s["tiles"][3].__setitem__(4, "NESW"), r"tile at \[3,4\]"),
        (lambda s: s.__setitem__("spare", "X"), "spare"),
        (lambda s: s["pawns"].__setitem__("purple", [1, 1]), "unknown color"),
        (lambda s: s["pawns"].__setitem__("red", [7, 1]), "off the board"),
        (lambda s: s.__setitem__("pawns", [[0, 0]]), "'pawns' must map"),
        (lambda s: s.__setitem__("last_push", "N2"), "unknown gate"),
        (lambda s: s.__setitem__("tiles", "NS" * 49), "must be 7 rows"),
    ],
)
def test_board_json_errors_name_the_problem(mutate, message: str) -> None:
    state = json.loads(json.dumps(STATE))
    mutate(state)
    with pytest.raises(InvalidStateError, match=message):
        Board.from_json(state)


def test_board_json_must_be_an_object() -> None:
    with pytest.raises(InvalidStateError, match="JSON object"):
        Board.from_json([1, 2])


def test_text_form_round_trip_and_repr() -> None:
    board = Board.from_json(STATE)
    text = str(board)
    assert text.splitlines()[0] == "┌│┬─┬└┐  R@0 Y@6"
    assert text.splitlines()[-1] == "spare ├ (NES) last=N3"
    assert Board.from_text(text) == board
    assert eval(repr(board)) == board
    rng = random.Random(7)
    for _ in range(20):
        b, _ = random_setup(rng, colors=rng.sample(COLORS, rng.randrange(5)))
        b = b.push(rng.choice(GATES))
        assert Board.from_text(str(b)) == b


@pytest.mark.parametrize(
    "text",
    ["", "┌│┬─┬└┐\n" * 7, ("┌│┬─┬└┐\n" * 7) + "spare X (NS)", ("┌│┬─┬└\n" * 7) + "spare │ (NS)",
     ("┌│┬─┬└┐  Q@1\n" * 7) + "spare │ (NS)", ("┌│┬─┬└┐\n" * 7) + "spare │ (NS) last=N2"],
    ids=["empty", "no-spare-line", "spare-glyph", "short-row", "bad-pawn", "bad-gate"],
)
def test_text_form_errors(text: str) -> None:
    with pytest.raises(InvalidStateError):
        Board.from_text(text)


def test_boards_are_immutable_hashable_and_copyable() -> None:
    board = Board.from_json(STATE)
    assert hash(board) == hash(Board.from_json(STATE))
    with pytest.raises(TypeError):
        board.pawns[Color.RED] = (1, 1)  # type: ignore[index]
    assert pickle.loads(pickle.dumps(board)) == board
    assert copy.deepcopy(board) == board
    board.reachable((0, 0))  # fills the connectivity cache; equality must not depend on it
    assert board == Board.from_json(STATE)


# --------------------------------------------------------------------------- physical setup


def test_random_setup_is_a_physical_board() -> None:
    for seed in range(5):
        board, treasures = random_setup(random.Random(seed))
        assert board.inventory_problems() == []
        assert all(board.tile(sq) is tile for sq, tile in FIXED_TILES.items())
        assert len(treasures) == 50 and sum(t is not None for t in treasures) == 24
        assert dict(board.pawns) == {Color.RED: (0, 0), Color.YELLOW: (0, 6), Color.GREEN: (6, 6), Color.BLUE: (6, 0)}


def test_inventory_problems_are_described() -> None:
    rows = [["NS"] * 7 for _ in range(7)]
    problems = Board.from_rows(rows, "NS").inventory_problems()
    assert "fixed square [0, 0] holds NS, expected ES" in problems
    assert any("T-junctions" in p for p in problems)
