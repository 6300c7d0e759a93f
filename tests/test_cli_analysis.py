"""``analyze`` and ``hint`` through the real command line: exact JSON out, one-line errors in."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.board import Board, Color
from companion.cli import main
from companion.hint import hint

ROOT = Path(__file__).resolve().parents[1]

# All straights; row 3 has two joined EW tiles at [3,3]-[3,4] (the "one-side-open" reach fixture).
ROWS = [["NS"] * 7 for _ in range(7)]
ROWS[3] = ["NS", "NS", "NS", "EW", "EW", "NS", "NS"]
STATE = {
    "tiles": ROWS,
    "spare": "NS",
    "pawns": {"blue": [0, 0], "red": [3, 3], "yellow": [2, 3]},
    "last_push": "N3",
}


def _write(tmp_path: Path, state: object, name: str = "state.json") -> str:
    path = tmp_path / name
    path.write_text(state if isinstance(state, str) else json.dumps(state), encoding="utf-8")
    return str(path)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_analyze_lists_legal_pushes_and_reachable_squares(tmp_path: Path, capsys) -> None:
    code, out, err = _run(capsys, "analyze", _write(tmp_path, STATE))
    assert (code, err) == (0, "")
    assert out.count("\n") == 1
    assert json.loads(out) == {
        "legal_pushes": ["E1", "E3", "E5", "N1", "N3", "N5", "S1", "S5", "W1", "W3", "W5"],
        "reachable": {
            "red": [[3, 3], [3, 4]],
            "yellow": [[0, 3], [1, 3], [2, 3]],
            "blue": [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0], [5, 0], [6, 0]],
        },
    }
    assert list(json.loads(out)) == ["legal_pushes", "reachable"]
    assert list(json.loads(out)["reachable"]) == ["red", "yellow", "blue"]  # canonical order, present pawns only


def test_analyze_reads_stdin(monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(STATE)))
    code, out, _ = _run(capsys, "analyze", "-")
    assert code == 0 and json.loads(out)["reachable"]["red"] == [[3, 3], [3, 4]]


def test_analyze_push_prints_the_state_after_and_its_reachability(tmp_path: Path, capsys) -> None:
    code, out, err = _run(capsys, "analyze", _write(tmp_path, STATE), "--push", "W3", "--spare", "WE")
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert list(result) == ["state", "reachable"]
    rows = [["NS"] * 7 for _ in range(7)]
    rows[3] = ["EW", "NS", "NS", "NS", "EW", "EW", "NS"]  # EW entered at [3,0], old [3,6] NS left
    assert result["state"] == {
        "tiles": rows,
        "spare": "NS",
        "pawns": {"red": [3, 4], "yellow": [2, 3], "blue": [0, 0]},
        "last_push": "W3",
    }
    assert list(result["state"]) == ["tiles", "spare", "pawns", "last_push"]
    assert result["reachable"] == {
        "red": [[3, 4], [3, 5]],
        "yellow": [[0, 3], [1, 3], [2, 3], [3, 3], [4, 3], [5, 3], [6, 3]],
        "blue": [[0, 0], [1, 0], [2, 0]],
    }


def test_analyze_push_without_spare_lays_it_as_given(tmp_path: Path, capsys) -> None:
    code, out, _ = _run(capsys, "analyze", _write(tmp_path, STATE), "--push", "n1")
    assert code == 0
    assert json.loads(out)["state"]["tiles"][0][1] == "NS"
    assert json.loads(out)["state"]["last_push"] == "N1"


def test_analyze_accepts_non_physical_boards_and_no_pawns(tmp_path: Path, capsys) -> None:
    state = {"tiles": [["NEW"] * 7] * 7, "spare": "ES"}
    code, out, _ = _run(capsys, "analyze", _write(tmp_path, state))
    assert code == 0
    assert json.loads(out) == {"legal_pushes": sorted(json.loads(out)["legal_pushes"]), "reachable": {}}
    assert len(json.loads(out)["legal_pushes"]) == 12


def test_hint_finds_a_one_turn_answer(tmp_path: Path, capsys) -> None:
    state = {"tiles": [["EW"] * 7] * 7, "spare": "EW", "pawns": {"red": [3, 0]}, "last_push": None}
    code, out, err = _run(capsys, "hint", _write(tmp_path, state), "--player", "red", "--target", "3,6")
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert list(result) == ["turns", "push", "spare", "move"]
    assert result["turns"] == 1
    assert result["push"] != "W3"  # that push carries the target tile off the board
    board = Board.from_json(state).push(result["push"], result["spare"])
    assert board.reachable(board.pawns[Color.RED]).count(tuple(result["move"])) == 1


def test_hint_matches_the_library_and_prints_null_when_out_of_reach(tmp_path: Path, capsys) -> None:
    path = _write(tmp_path, STATE)
    code, out, _ = _run(capsys, "hint", path, "--player", "yellow", "--target", "spare", "--max-turns", "2")
    expected = hint(Board.from_json(STATE), Color.YELLOW, "spare", 2)
    assert code == 0 and json.loads(out) == (expected.to_json() if expected else {"turns": None})
    straights = {"tiles": [["NS"] * 7] * 7, "spare": "NS", "pawns": {"red": [0, 0]}}
    code, out, _ = _run(capsys, "hint", _write(tmp_path, straights), "--player", "red", "--target", "0,6",
                        "--max-turns", "1")  # fmt: skip
    assert (code, out) == (0, '{"turns": null}\n')


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["analyze", "{missing}"], "cannot read state file"),
        (["analyze", "{bad_json}"], "is not valid JSON"),
        (["analyze", "{list}"], "must be a JSON object"),
        (["analyze", "{six_rows}"], "'tiles' must be 7 rows"),
        (["analyze", "{bad_tile}"], r"tile at [3,4]: invalid tile openings 'NESW'"),
        (["analyze", "{bad_color}"], "unknown color 'purple'"),
        (["analyze", "{bad_last}"], "unknown gate 'X9'"),
        (["analyze", "{state}", "--push", "N2"], "unknown gate 'N2'"),
        (["analyze", "{state}", "--push", "S3"], "reverse of the last push N3"),
        (["analyze", "{state}", "--push", "W3", "--spare", "NE"], "not a rotation of the state's spare 'NS'"),
        (["analyze", "{state}", "--push", "W3", "--spare", "X"], "invalid tile openings 'X'"),
        (["analyze", "{state}", "--spare", "NS"], "--spare needs --push"),
        (["hint", "{state}", "--player", "purple", "--target", "1,1"], "unknown color 'purple'"),
        (["hint", "{state}", "--player", "green", "--target", "1,1"], "green has no pawn"),
        (["hint", "{state}", "--player", "red", "--target", "3"], "--target '3'"),
        (["hint", "{state}", "--player", "red", "--target", "9,9"], "off the board"),
        (["hint", "{state}", "--player", "red", "--target", "1,1", "--max-turns", "-1"], "--max-turns"),
        (["hint", "{state}", "--player", "red", "--target", "1,1", "--max-turns", "x"], "--max-turns"),
        (["hint", "{state}", "--player", "red"], "--target"),
        (["hint", "{bad_json}", "--player", "red", "--target", "1,1"], "is not valid JSON"),
    ],
)
def test_errors_are_one_line_with_exit_code_2(tmp_path: Path, capsys, argv: list[str], message: str) -> None:
    bad_tile = json.loads(json.dumps(STATE))
    bad_tile["tiles"][3][4] = "NESW"
    files = {
        "missing": str(tmp_path / "nope.json"),
        "bad_json": _write(tmp_path, '{"tiles": [', "bad.json"),
        "list": _write(tmp_path, [1, 2], "list.json"),
        "six_rows": _write(tmp_path, {**STATE, "tiles": ROWS[:6]}, "six.json"),
        "bad_tile": _write(tmp_path, bad_tile, "tile.json"),
        "bad_color": _write(tmp_path, {**STATE, "pawns": {"purple": [0, 0]}}, "color.json"),
        "bad_last": _write(tmp_path, {**STATE, "last_push": "X9"}, "last.json"),
        "state": _write(tmp_path, STATE),
    }
    code = _exit_code([a.format(**files) for a in argv])
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and message in err, err
    assert "Traceback" not in err


def _exit_code(argv: list[str]) -> int:
    """main()'s return value, or the code of the SystemExit argparse raises for a malformed option."""
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


def test_python_dash_m_companion(tmp_path: Path) -> None:
    path = _write(tmp_path, STATE)
    ok = subprocess.run(
        [sys.executable, "-m", "companion", "analyze", path], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["reachable"]["red"] == [[3, 3], [3, 4]]
    bad = subprocess.run(
        [sys.executable, "-m", "companion", "hint", path, "--player", "green", "--target", "1,1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip().splitlines() == ["labyrinth-companion hint: error: player green has no pawn on the board"]
