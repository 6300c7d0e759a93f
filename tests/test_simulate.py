"""The simulated game and ``labyrinth-companion run --sim``: ends with a winner, prints FORMATS.md §6 events."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import pytest

from companion import cli
from companion.board import Gate, Tile
from companion.cli_game import render, run_sim
from companion.events import event_from_json
from companion.game import fold
from companion.journal import JOURNAL_NAME, Journal
from companion.rules import GameConfig
from companion.simulate import SimulatedGame, plan_turn


@pytest.fixture(autouse=True)
def _only_this_command(monkeypatch) -> None:
    """Build the real CLI with just the ``run`` command, so other areas' modules cannot break these tests."""
    monkeypatch.setattr(cli, "COMMAND_MODULES", {"companion.cli_game": ("run",)})


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(["run", *argv, "--no-camera"])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("variant", "players", "seed", "extra"),
    [("classic", 2, 1, []), ("classic", 4, 2, []), ("kids", 3, 1, []), ("kids", 2, 3, ["--leave-maze"]),
     ("glow", 2, 1, []), ("glow", 4, 2, [])],
)  # fmt: skip
def test_run_sim_json_ends_with_a_winner(capsys, tmp_path: Path, variant: str, players: int, seed: int,
                                         extra: list[str]) -> None:  # fmt: skip
    code, out, _ = _run(capsys, "--sim", "--json", "--variant", variant, "--players", str(players),
                        "--seed", str(seed), "--state-dir", str(tmp_path), *extra)  # fmt: skip
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert records[0]["event"] == "start" and records[0]["variant"] == variant
    assert records[-1]["event"] == "game_over" and records[-1]["winners"]
    for r in records:
        if r["event"] == "push":
            assert set(r) >= {"player", "gate", "legal"} and r["legal"] is True and Gate.parse(r["gate"])
        if r["event"] == "move":
            assert r["legal"] is True and len(r["from"]) == 2 and len(r["to"]) == 2
    # what was printed is what was journaled, and it folds to a finished game
    with Journal.open(tmp_path, readonly=True) as journal:
        assert journal.records == records
        assert fold(journal.events()).winners == tuple(event_from_json(records[-1]).winners)


def test_run_sim_human_output_shows_boards_and_the_winner(capsys, tmp_path: Path) -> None:
    code, out, _ = _run(capsys, "--sim", "--seed", "4", "--state-dir", str(tmp_path))
    assert code == 0
    assert "simulator (rules only)" in out
    assert "## turn 1: red" in out and "spare " in out
    assert "┌" in out and '{"event": "push"' in out
    assert out.rstrip().splitlines()[-1].startswith("# game over after")


def test_turn_limit_then_resume_from_the_state_dir(capsys, tmp_path: Path) -> None:
    code, out, _ = _run(capsys, "--sim", "--json", "--seed", "5", "--turns", "3", "--state-dir", str(tmp_path))
    assert code == 0
    assert sum(json.loads(line)["event"] == "move" for line in out.splitlines()) == 3
    code, out, _ = _run(capsys, "--sim", "--seed", "5", "--state-dir", str(tmp_path))
    assert code == 0 and "(resumed)" in out and "# game over" in out
    with Journal.open(tmp_path, readonly=True) as journal:
        assert fold(journal.events()).is_over
    # a finished game is archived and a new one starts
    code, out, _ = _run(capsys, "--sim", "--json", "--seed", "6", "--state-dir", str(tmp_path))
    assert code == 0 and (tmp_path / "game-1.jsonl").exists() and (tmp_path / JOURNAL_NAME).exists()


def test_delay_waits_between_turns_with_the_injected_sleep(tmp_path: Path) -> None:
    slept: list[float] = []
    args = argparse.Namespace(sim=True, seed=2, players=2, variant="classic", edition="classic", leave_maze=False,
                              turns=4, delay=0.25, state_dir=str(tmp_path), json=True, no_camera=True)  # fmt: skip
    assert run_sim(args, out=io.StringIO(), sleep=slept.append) == 0
    assert slept == [0.25] * 4


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "5", "--sim"], "--players"),
        (["--sim", "--turns", "0"], "--turns"),
        (["--sim", "--delay", "-1"], "--delay"),
        ([], "use 'labyrinth-companion run --sim'"),
    ],
)
def test_run_usage_errors_are_one_line(capsys, tmp_path: Path, argv: list[str], message: str) -> None:
    code, _, err = _run(capsys, *argv, "--state-dir", str(tmp_path))
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_bot_plans_only_legal_turns_and_seeds_repeat() -> None:
    import random

    sim = SimulatedGame.new(GameConfig.make("classic", 3), 9, max_turns=20)
    for record in sim.turns():
        assert record.state.turn == record.number
    again = SimulatedGame.new(GameConfig.make("classic", 3), 9, max_turns=20)
    for _ in again.turns():
        pass
    assert again.game.events == sim.game.events
    state = SimulatedGame.new(GameConfig.make("classic", 2), 1).game.state
    plan = plan_turn(state, random.Random(0))
    assert state.check_push(plan.gate, plan.spare) is None
    after = state.board.push(plan.gate, plan.spare)
    assert plan.to in after.reachable(after.pawn(state.current))


def test_render_marks_pawns_and_treasure_tiles() -> None:
    state = SimulatedGame.new(GameConfig.make("classic", 4), 1).game.state
    text = render(state)
    rows = text.splitlines()[1:8]
    assert rows[0][4:6] == state.board.tile((0, 0)).glyph + "R"
    assert rows[6][4 + 12 : 4 + 14] == state.board.tile((6, 6)).glyph + "G"
    assert text.count("•") == sum(1 for r in range(7) for c in range(7) if state.treasure_at((r, c)))


@pytest.mark.parametrize("variant", ["classic", "kids", "glow"])
def test_every_event_of_a_whole_game_round_trips_through_json_text(variant: str) -> None:
    from companion.events import Event, Push

    sim = SimulatedGame.new(GameConfig.make(variant, 3, leave_maze=variant == "kids"), 11, max_turns=400)
    for _ in sim.turns():
        pass
    kinds = set()
    for event in sim.game.events:
        text = json.dumps(event.to_json(), ensure_ascii=False)
        assert Event.from_json(json.loads(text)) == event
        assert type(event).from_json(json.loads(text)) == event
        kinds.add(event.to_json()["event"])
    assert {"start", "push", "move", "treasure", "game_over"} <= kinds
    with pytest.raises(ValueError, match="expected a 'push' event"):
        Push.from_json(sim.game.events[-1].to_json())


def test_a_game_cut_between_push_and_move_resumes_mid_turn(tmp_path: Path) -> None:
    with Journal.open(tmp_path) as journal:
        sim = SimulatedGame.new(GameConfig.make("kids", 2), 3, journal.record, max_turns=5)
        for _ in sim.turns():
            pass
    path = tmp_path / JOURNAL_NAME
    lines = path.read_bytes().splitlines(keepends=True)
    last_push = max(i for i, line in enumerate(lines) if json.loads(line)["event"] == "push")
    path.write_bytes(b"".join(lines[: last_push + 1]))
    with Journal.open(tmp_path) as journal:
        resumed = SimulatedGame(journal.game(), seed=3)
        assert resumed.game.state.pushed
        record = resumed.play_turn()
        assert type(record.events[0]).__name__ == "Move"
        assert not resumed.game.state.pushed


def test_an_empty_journal_in_the_state_dir_is_used_for_the_new_game(capsys, tmp_path: Path) -> None:
    (tmp_path / JOURNAL_NAME).write_bytes(b"")
    code, out, _ = _run(capsys, "--sim", "--json", "--seed", "2", "--state-dir", str(tmp_path))
    assert code == 0 and not (tmp_path / "game-1.jsonl").exists()
    assert json.loads(out.splitlines()[0])["event"] == "start"


def test_refusals_print_in_the_formats_shape() -> None:
    from companion.board import Color
    from companion.events import Move, Push
    from companion.game import refusal_json

    push = refusal_json(Push(Color.BLUE, Gate.S3, Tile.NS), "reverse")
    assert push == {"event": "push", "player": "blue", "gate": "S3", "spare": "NS", "legal": False,
                    "reason": "reverse"}  # fmt: skip
    move = refusal_json(Move(Color.RED, (0, 0), (5, 5)), "unreachable")
    assert move["from"] == [0, 0] and move["to"] == [5, 5] and move["legal"] is False
