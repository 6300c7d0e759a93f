"""The simulated table: camera -> reader -> push recognised among legal successors -> LEDs."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion import cli
from companion.board import Gate, Tile, random_setup
from companion.observation import Observation, TileReading
from companion.sim_table import check_push, successors


def _observation_of(tiles: tuple[Tile, ...], sure: float = 0.95) -> Observation:
    readings = tuple(
        TileReading(t, sure, tuple(sure if t & bit else 1 - sure for bit in (1, 2, 4, 8)))  # type: ignore[arg-type]
        for t in tiles
    )
    return Observation(tiles=readings)


def test_successors_are_every_legal_gate_times_every_distinct_spare_rotation() -> None:
    board, _ = random_setup(random.Random(3))
    board = board.push(Gate.N3)
    found = successors(board)
    assert {g for g, _, _ in found} == set(board.legal_pushes()) and Gate.S3 not in {g for g, _, _ in found}
    assert len(found) == len(board.legal_pushes()) * len(board.spare.rotations())


@pytest.mark.parametrize("seed", range(8))
def test_the_push_that_was_made_wins_among_the_successors(seed: int) -> None:
    rng = random.Random(seed)
    before, _ = random_setup(rng)
    gate = rng.choice(before.legal_pushes())
    laid = rng.choice(before.spare.rotations())
    after = before.push(gate, laid)
    result = check_push(_observation_of(after.tiles), before)
    assert result.seen and result.gate is gate and result.spare == laid and result.margin > 0
    assert "confirmed" in result.describe(gate, laid)


def test_an_unreadable_photo_is_reported_not_guessed() -> None:
    before, _ = random_setup(random.Random(1))
    result = check_push(Observation.unreadable("hand over the board"), before)
    assert not result.seen and "hand over the board" in result.describe(Gate.N1, before.spare)


def test_run_sim_photographs_reads_and_lights_each_turn(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code = cli.main(["run", "--sim", "--seed", "3", "--turns", "3", "--state-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0
    assert out.count("# vision: push") == 3 and "MISREAD" not in out
    assert "vision confirmed 3/3 pushes" in out
    assert "\x1b[38;2;" in out  # the LED strip drawn in the terminal
    assert (tmp_path / "camera.jpg").stat().st_size > 10_000 and (tmp_path / "leds.png").exists()
