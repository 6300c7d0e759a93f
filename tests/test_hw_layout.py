"""LED layouts: presets, config tables and TOML files."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.board import Gate
from companion.errors import ConfigError
from hardware.layout import GATES_CLOCKWISE, layout_from_config, load_layout, preset


def test_default_preset_is_serpentine_then_gates_clockwise() -> None:
    layout = preset("grid49+gates12")
    assert layout.count == 61
    assert layout.square_leds((0, 0)) == (0,)
    assert layout.square_leds((0, 6)) == (6,)
    assert layout.square_leds((1, 0)) == (13,)  # odd row runs right to left
    assert layout.square_leds((1, 6)) == (7,)
    assert layout.square_leds((2, 3)) == (17,)
    assert layout.square_leds((6, 6)) == (48,)  # row 6 is even
    order = ["N1", "N3", "N5", "E1", "E3", "E5", "S5", "S3", "S1", "W5", "W3", "W1"]
    assert [layout.gate_leds(Gate(name))[0] for name in order] == list(range(49, 61))
    used = sorted(i for leds in [*layout.squares.values(), *layout.gates.values()] for i in leds)
    assert used == list(range(61))


def test_matrix8x8_mapping() -> None:
    layout = preset("matrix8x8")
    assert layout.count == 64
    assert layout.square_leds((3, 4)) == (28,)
    assert layout.gate_leds(Gate.W1) == layout.gate_leds(Gate.E1) == (15,)  # pixel (1, 7)
    assert layout.gate_leds(Gate.N5) == layout.gate_leds(Gate.S5) == (61,)  # pixel (7, 5)
    snake = preset("matrix8x8-serpentine")
    assert snake.square_leds((1, 0)) == (15,)


def test_positions_put_gates_outside_the_board() -> None:
    pos = preset("grid49+gates12").positions()
    assert pos[0] == (0.5, 0.5)
    assert pos[49] == (1.5, -0.5)  # N1
    assert pos[52] == (7.5, 1.5)  # E1
    assert all(p[0] < 0 or p[0] > 7 or p[1] < 0 or p[1] > 7 for i, p in pos.items() if i >= 49)


def test_config_round_trip_and_errors(tmp_path: Path) -> None:
    layout = preset("grid49+gates12")
    again = layout_from_config(layout.to_config())
    assert again.squares == layout.squares and again.gates == layout.gates and again.count == 61
    assert layout_from_config({"preset": "matrix8x8"}).count == 64
    assert layout_from_config(None).name == "grid49+gates12"
    custom = layout_from_config({"name": "frame", "count": 3, "squares": {"3,3": [0, 1]}, "gates": {"n3": 2}})
    assert custom.square_leds((3, 3)) == (0, 1) and custom.gate_leds(Gate.N3) == (2,)
    assert custom.square_leds((0, 0)) == ()
    for bad in (
        {"count": 2, "squares": {"0,0": 5}},
        {"squares": {}},
        {"count": 2, "squares": {"9,0": 1}},
        {"count": 2, "gates": {"X9": 1}},
        {"count": 2, "gates": {"N1": "a"}},
        {"preset": "nope"},
        {"preset": "matrix8x8", "count": 3},
        {"count": 2, "colour": 1},
    ):
        with pytest.raises(ConfigError):
            layout_from_config(bad)
    toml = tmp_path / "layout.toml"
    toml.write_text('[layout]\nname = "mine"\ncount = 2\n[layout.gates]\nS3 = 1\n')
    assert load_layout(toml).gate_leds(Gate.S3) == (1,)
    (tmp_path / "bad.toml").write_text("count = [")
    with pytest.raises(ConfigError, match="TOML"):
        load_layout(tmp_path / "bad.toml")
    with pytest.raises(ConfigError, match="cannot read"):
        load_layout(tmp_path / "missing.toml")
    with pytest.raises(ConfigError, match="presets"):
        load_layout("spiral")


def test_clockwise_gate_order_covers_every_gate() -> None:
    assert sorted(GATES_CLOCKWISE, key=lambda g: g.value) == sorted(Gate, key=lambda g: g.value)
