"""``labyrinth-companion leds``: the JSON contract, errors, and the rules over random states."""

from __future__ import annotations

import io
import itertools
import json
import random
from pathlib import Path

import cv2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.board import GATES, Board, Color, Gate, Tile, random_setup
from companion.cli import main
from hardware.cli import paint_frames
from hardware.colour import ColourSettings, estimate_current_ma, night_ok
from hardware.layout import preset

LAYOUT = preset("grid49+gates12")


def state_file(tmp_path: Path, seed: int = 5) -> tuple[Path, Board]:
    board, _ = random_setup(random.Random(seed))
    path = tmp_path / "state.json"
    path.write_text(json.dumps(board.to_json()))
    return path, board


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_json_contract(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, board = state_file(tmp_path)
    code, out, err = run(["leds", str(path), "--player", "yellow", "--json"], capsys)
    assert code == 0 and err == ""
    data = json.loads(out)
    assert list(data) == ["layout", "fps", "frames"]
    assert data["layout"] == "grid49+gates12" and data["fps"] == 10
    assert len(data["frames"]) == 20
    assert all(len(frame) == 61 and all(len(rgb) == 3 for rgb in frame) for frame in data["frames"])
    reach = {LAYOUT.square_leds(sq)[0] for sq in board.reachable(board.pawn(Color.YELLOW))}
    lit = {i for i, rgb in enumerate(data["frames"][0]) if any(rgb)}
    assert lit == reach


def test_stdin_layout_png_and_text(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch) -> None:
    path, _ = state_file(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(path.read_text()))
    png = tmp_path / "out.png"
    code, out, _ = run(["leds", "-", "--player", "red", "--layout", "matrix8x8", "--png", str(png)], capsys)
    assert code == 0 and "\x1b[38;2;" in out and "red after the push" in out
    assert cv2.imread(str(png)) is not None
    code, out, _ = run(["leds", str(path), "--player", "red", "--layout", "matrix8x8", "--json"], capsys)
    data = json.loads(out)
    assert data["layout"] == "matrix8x8" and len(data["frames"][0]) == 64


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--player", "purple"], "unknown color"),
        (["--player", "red", "--illegal-gate", "N2"], "unknown gate"),
        (["--player", "red", "--layout", "spiral"], "unknown LED layout"),
    ],
)
def test_usage_errors_are_one_line_exit_2(tmp_path, capsys, args: list[str], message: str) -> None:
    path, _ = state_file(tmp_path)
    code, out, err = run(["leds", str(path), *args], capsys)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{", "not valid JSON"),
        ('{"tiles": [], "spare": "NS"}', "7 rows"),
        (None, "cannot read"),
    ],
)
def test_bad_state_files(tmp_path, capsys, content: str | None, message: str) -> None:
    path = tmp_path / "s.json"
    if content is not None:
        path.write_text(content)
    code, _, err = run(["leds", str(path), "--player", "red"], capsys)
    assert code == 2 and message in err and err.count("\n") == 1


def test_player_without_pawn(tmp_path, capsys) -> None:
    board, _ = random_setup(random.Random(1), colors=[Color.RED, Color.BLUE])
    path = tmp_path / "s.json"
    path.write_text(json.dumps(board.to_json()))
    code, _, err = run(["leds", str(path), "--player", "green"], capsys)
    assert code == 2 and "green" in err and err.count("\n") == 1


# --------------------------------------------------------------------------- the rules, over random states

tiles = st.sampled_from(list(Tile))
squares = st.tuples(st.integers(0, 6), st.integers(0, 6))


@st.composite
def states(draw: st.DrawFn) -> tuple[Board, Color]:
    cells = draw(st.lists(tiles, min_size=49, max_size=49))
    colors = draw(st.lists(st.sampled_from(list(Color)), min_size=1, max_size=4, unique=True))
    pawns = {c: draw(squares) for c in colors}
    last = draw(st.none() | st.sampled_from(GATES))
    board = Board(tuple(cells), draw(tiles), pawns, last)
    return board, draw(st.sampled_from(colors))


def blink_stats(values: list[bool]) -> tuple[int, int]:
    """(number of off->on and on->off transitions, frames on)."""
    return sum(1 for a, b in itertools.pairwise(values) if a != b), sum(values)


@settings(max_examples=40, deadline=None)
@given(states(), st.none() | st.sampled_from(list(Gate)), st.booleans())
def test_leds_obey_the_rules_for_any_state(state: tuple[Board, Color], gate: Gate | None, night: bool) -> None:
    board, player = state
    _, frames = paint_frames(board, player, night=night, illegal_gate=gate)
    assert len(frames) == 20
    reach = {LAYOUT.square_leds(sq)[0] for sq in board.reachable(board.pawn(player))}
    gate_led = None if gate is None else LAYOUT.gate_leds(gate)[0]
    settings_ = ColourSettings()
    colours = set()
    gate_on = []
    for frame in frames:
        assert len(frame) == 61
        for i, rgb in enumerate(frame):
            if i in reach:
                assert any(rgb)
                colours.add(tuple(rgb))
            elif i == gate_led:
                gate_on.append(any(rgb))
                if any(rgb):
                    assert rgb[0] > 0 and rgb[1] == 0 and rgb[2] == 0, "the illegal gate blinks red"
            else:
                assert rgb == [0, 0, 0]
        if night:
            assert night_ok(frame)
        else:
            assert estimate_current_ma(frame, settings_) <= settings_.supply_ma
    assert len(colours) == 1, "reachable squares are steady, in one colour"
    if gate is not None:
        transitions, on = blink_stats(gate_on)
        assert gate_on[0] and 0 < on < 20
        # 2 s of frames: >= 2 Hz by day is >= 7 changes, >= 1 Hz at night >= 3
        assert transitions >= (3 if night else 7)


def test_player_colours_differ_by_day_and_match_at_night() -> None:
    board, _ = random_setup(random.Random(2))
    day = {c: paint_frames(board, c)[1][0][LAYOUT.square_leds(board.pawn(c))[0]] for c in Color}
    assert len({tuple(v) for v in day.values()}) == 4
    night = {c: paint_frames(board, c, night=True)[1][0][LAYOUT.square_leds(board.pawn(c))[0]] for c in Color}
    assert len({tuple(v) for v in night.values()}) == 1
