"""Journal: durable appends, resume after a crash at every point, torn last lines, damage, undo records."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from companion.errors import CompanionError
from companion.game import Game, fold
from companion.journal import JOURNAL_NAME, Journal, JournalError
from companion.rules import GameConfig
from companion.simulate import SimulatedGame


def _played(tmp_path: Path, variant: str = "glow", seed: int = 2) -> tuple[Path, Game]:
    """A whole bot game journaled to tmp_path; returns the journal path and the live game."""
    with Journal.open(tmp_path) as journal:
        sim = SimulatedGame.new(GameConfig.make(variant, 2), seed, journal.record, max_turns=300)
        for _ in sim.turns():
            pass
    assert sim.game.is_over
    return tmp_path / JOURNAL_NAME, sim.game


def _expected_after(game: Game, count: int):
    """The live game's state once the action holding event ``count - 1`` and its consequences were applied."""
    events = game.events
    j = count - 1
    while j + 1 < len(events) and not events[j + 1].action:
        j += 1
    return fold(events[: j + 1])


def test_the_journal_holds_every_event_one_per_line(tmp_path: Path) -> None:
    path, game = _played(tmp_path)
    lines = path.read_bytes().split(b"\n")
    assert lines[-1] == b""
    assert [json.loads(line) for line in lines[:-1]] == [e.to_json() for e in game.events]
    with Journal.open(path) as journal:
        assert journal.note is None
        assert journal.game().state == game.state


@pytest.mark.parametrize(("variant", "seed"), [("glow", 2), ("kids", 1), ("classic", 4)])
def test_resume_after_a_crash_at_every_point(tmp_path: Path, variant: str, seed: int) -> None:
    path, game = _played(tmp_path, variant, seed)
    lines = path.read_bytes().splitlines(keepends=True)
    for count in range(1, len(lines) + 1):
        cut = tmp_path / f"cut{count}"
        cut.mkdir()
        (cut / JOURNAL_NAME).write_bytes(b"".join(lines[:count]))
        with Journal.open(cut) as journal:
            resumed = journal.game()
        assert resumed.state == _expected_after(game, count), f"cut after line {count}"
        # the settled consequences were journaled: a second resume reads the same game without adding anything
        with Journal.open(cut, readonly=True) as again:
            assert again.events() == list(resumed.events)


@pytest.mark.parametrize("last_kind", ["push", "game_over"])
def test_a_torn_last_line_at_every_byte_is_dropped_and_truncated(tmp_path: Path, last_kind: str) -> None:
    """Tearing an action loses that action only; tearing a consequence re-derives it on resume."""
    path, game = _played(tmp_path, "classic", 3)
    lines = path.read_bytes().splitlines(keepends=True)
    end = max(i for i, line in enumerate(lines) if json.loads(line)["event"] == last_kind) + 1
    head = b"".join(lines[: end - 1])
    before = _expected_after(game, end - 1)
    last = lines[end - 1]
    for cut in range(1, len(last)):  # every proper prefix of the last record, newline excluded
        path.write_bytes(head + last[:cut])
        with Journal.open(path) as journal:
            assert journal.note is not None and "\n" not in journal.note
            assert f"line {end}" in journal.note
            assert journal.game().state == before
        assert path.read_bytes().startswith(head), "nothing before the torn line is lost"
        assert json.loads(path.read_bytes().splitlines()[-1]), "the torn tail is truncated before new appends"
    if last_kind == "push":
        assert before.pushed is False and path.read_bytes() == head
    # appends after the repair leave a valid file
    with Journal.open(path) as journal:
        assert journal.note is None
        resumed = journal.game()
        resumed.undo()
        resumed_state = resumed.state
    with Journal.open(path) as journal:
        assert journal.note is None and journal.game().state == resumed_state


def test_a_garbage_last_line_with_its_newline_is_torn_too(tmp_path: Path) -> None:
    path, game = _played(tmp_path, "classic", 5)
    with path.open("ab") as f:
        f.write(b"\x00\x00\x00\x00\n")
    with Journal.open(path) as journal:
        assert journal.note is not None
        assert journal.game().state == game.state


def test_damage_before_the_last_line_is_an_error_naming_the_line(tmp_path: Path) -> None:
    path, _ = _played(tmp_path, "classic", 6)
    lines = path.read_bytes().splitlines(keepends=True)
    lines[3] = b'{"event": "push", "play\n'
    path.write_bytes(b"".join(lines))
    with pytest.raises(JournalError, match=r"line 4 .*move the file aside"):
        Journal.open(path)
    lines[3] = b'{"event": "push", "player": "red", "gate": "N9", "spare": "NS"}\n'
    path.write_bytes(b"".join(lines))
    with Journal.open(path, readonly=True) as journal, pytest.raises(JournalError, match="line 4"):
        journal.game()


def test_an_event_that_breaks_the_rules_names_its_line(tmp_path: Path) -> None:
    path, _ = _played(tmp_path, "classic", 7)
    lines = path.read_bytes().splitlines(keepends=True)
    second = json.loads(lines[1])
    assert second["event"] == "push"
    second["player"] = "blue" if second["player"] != "blue" else "red"
    lines[1] = (json.dumps(second) + "\n").encode()
    path.write_bytes(b"".join(lines))
    with Journal.open(path, readonly=True) as journal, pytest.raises(JournalError, match="line 2 does not follow"):
        journal.game()


def test_undo_is_a_record_and_replays_like_game_undo(tmp_path: Path) -> None:
    with Journal.open(tmp_path) as journal:
        game = Game.new(GameConfig.make("classic", 2), random.Random(1), listener=journal.record)
        rng = random.Random(1)
        for _ in range(4):
            game.push(rng.choice(game.state.legal_pushes()))
            game.move(rng.choice(game.state.reachable()))
        game.undo()
        game.undo()
        game.push(rng.choice(game.state.legal_pushes()))
        expected = game.state
    records = [json.loads(line) for line in (tmp_path / JOURNAL_NAME).read_text().splitlines()]
    assert [r["event"] for r in records].count("undo") == 2
    with Journal.open(tmp_path) as journal:
        assert journal.game().state == expected
        assert list(journal.events()) == list(game.events)


def test_nothing_to_undo_writes_nothing(tmp_path: Path) -> None:
    with Journal.open(tmp_path) as journal:
        game = Game.new(GameConfig.make("classic", 2), random.Random(1), listener=journal.record)
        with pytest.raises(CompanionError, match="nothing to undo"):
            game.undo()
    assert len((tmp_path / JOURNAL_NAME).read_text().splitlines()) == 1


def test_a_second_game_in_one_journal_is_refused(tmp_path: Path) -> None:
    with Journal.open(tmp_path) as journal:
        Game.new(GameConfig.make("classic", 2), random.Random(1), listener=journal.record)
        with pytest.raises(JournalError, match="already holds a game"):
            Game.new(GameConfig.make("classic", 2), random.Random(2), listener=journal.record)


def test_every_append_is_fsynced_and_a_new_file_fsyncs_its_directory(tmp_path: Path, monkeypatch) -> None:
    synced: list[str] = []
    real = os.fsync

    def spy(fd: int) -> None:
        synced.append("dir" if os.path.isdir(f"/proc/self/fd/{fd}") else "file")
        real(fd)

    monkeypatch.setattr(os, "fsync", spy)
    with Journal.open(tmp_path / "state") as journal:
        assert journal.path == tmp_path / "state" / JOURNAL_NAME
        assert synced == ["dir", "file", "dir"]  # the new state directory, the file, its directory entry
        synced.clear()
        game = Game.new(GameConfig.make("classic", 2), random.Random(1), listener=journal.record)
        game.push(game.state.legal_pushes()[0])
        assert synced == ["file", "file"]


def test_readonly_open_changes_nothing(tmp_path: Path) -> None:
    path, _ = _played(tmp_path, "classic", 8)
    torn = path.read_bytes() + b'{"event": "pu'
    path.write_bytes(torn)
    with Journal.open(path, readonly=True) as journal:
        assert journal.note is not None
        with pytest.raises(JournalError, match="not open for writing"):
            journal.append({"event": "undo"})
    assert path.read_bytes() == torn
    with pytest.raises(JournalError, match="no journal"):
        Journal.open(tmp_path / "missing.jsonl", readonly=True)
