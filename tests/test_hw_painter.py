"""The painter: guidance to frames, over an injected clock."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from companion.board import Board, Color, Gate, random_setup
from companion.errors import ConfigError
from companion.guidance import Guidance, TurnPhase
from hardware.colour import ColourSettings, apply_pipeline, night_ok
from hardware.layout import preset
from hardware.painter import DEFAULT_PALETTE, OFF, Painter, PainterConfig, square_wave

LAYOUT = preset("grid49+gates12")
SQ = {sq: leds[0] for sq, leds in LAYOUT.squares.items()}
GATE = {g: leds[0] for g, leds in LAYOUT.gates.items()}


def board() -> Board:
    b, _ = random_setup(random.Random(7))
    return b


def painter(guidance: Guidance, config: PainterConfig | None = None) -> Painter:
    p = Painter(LAYOUT, config, clock=lambda: 0.0)
    p.update(guidance, now=0.0)
    return p


def on_off_transitions(values: list[bool]) -> int:
    return sum(1 for a, b in itertools.pairwise(values) if a and not b)


def test_before_push_shows_only_the_pawn_square() -> None:
    b = board()
    frame = painter(Guidance.before_push(b, "blue")).frame(0.0)
    lit = [i for i, c in enumerate(frame.colours) if c != OFF]
    assert lit == [SQ[b.pawn(Color.BLUE)]]
    assert frame.colours[lit[0]] == DEFAULT_PALETTE[Color.BLUE]


def test_after_push_lights_exactly_the_reachable_squares() -> None:
    b = board()
    g = Guidance.after_push(b, Color.RED)
    assert b.pawn(Color.RED) in g.reachable
    for frame in painter(g).frames(20):
        lit = {i for i, c in enumerate(frame.colours) if c != OFF}
        assert lit == {SQ[sq] for sq in g.reachable}
        assert {frame.colours[i] for i in lit} == {DEFAULT_PALETTE[Color.RED]}


@pytest.mark.parametrize(("night", "min_hz"), [(False, 2.0), (True, 1.0)])
def test_illegal_gate_blinks_fast_enough_while_reachable_stay_lit(night: bool, min_hz: float) -> None:
    b = board()
    g = Guidance.after_push(b, Color.GREEN, illegal_gate="S5", night=night)
    frames = painter(g).frames(40)  # 4 s at 10 fps
    gate_on = [f.colours[GATE[Gate.S5]] != OFF for f in frames]
    assert gate_on[0], "the blink starts on, so the first frame shows it"
    assert on_off_transitions(gate_on) >= min_hz * 4 - 1
    assert 0.3 <= sum(gate_on) / len(gate_on) <= 0.7
    for f in frames:
        assert all(f.colours[SQ[sq]] != OFF for sq in g.reachable)
        for gate, i in GATE.items():
            if gate is not Gate.S5:
                assert f.colours[i] == OFF
    # the pattern is a hard on/off, not a fade: only two levels
    assert len({f.colours[GATE[Gate.S5]] for f in frames}) == 2


def test_night_guidance_passes_the_night_limits_after_the_pipeline() -> None:
    b = board()
    g = Guidance.after_push(b, Color.BLUE, illegal_gate="E3", night=True).with_(
        public_targets=frozenset({(3, 3)}), illegal_pawn=(6, 6), pushed_gate=Gate.N1, push_serial=1
    )
    s = ColourSettings()
    for f in painter(g).frames(30):
        assert f.night
        assert night_ok(apply_pipeline(f.colours, s, night=True).rgb)
        assert all(c[2] == 0 for c in f.colours), "requested colours are red/amber only"


def test_public_target_pulses_smoothly() -> None:
    g = Guidance(player=Color.RED, phase=TurnPhase.AFTER_PUSH, reachable={(0, 0)}, public_targets={(3, 4)})
    levels = [f.colours[SQ[(3, 4)]][0] for f in painter(g).frames(20)]
    assert max(levels) == 255 and min(levels) < 80
    assert len(set(levels)) >= 6, "a pulse has in-between levels, unlike the hard blinks"


def test_illegal_pawn_square_blinks() -> None:
    g = Guidance(player=Color.RED, phase=TurnPhase.AFTER_PUSH, reachable={(0, 0), (0, 1)}, illegal_pawn=(5, 5))
    seen = [f.colours[SQ[(5, 5)]] for f in painter(g).frames(20)]
    assert seen[0] == (255, 0, 0) and OFF in seen
    assert on_off_transitions([c != OFF for c in seen]) >= 4


def test_push_flash_once_per_accepted_push() -> None:
    p = Painter(LAYOUT, clock=lambda: 0.0)
    g = Guidance(player=Color.RED, phase=TurnPhase.AFTER_PUSH, reachable={(0, 0)}, pushed_gate=Gate.W3, push_serial=1)
    p.update(g, now=10.0)
    assert p.frame(10.0).colours[GATE[Gate.W3]] == (255, 255, 255)
    assert p.frame(10.5).colours[GATE[Gate.W3]] == (255, 255, 255)
    assert p.frame(10.7).colours[GATE[Gate.W3]] == OFF
    p.update(g, now=11.0)  # same serial: no new flash
    assert p.frame(11.0).colours[GATE[Gate.W3]] == OFF
    p.update(g.with_(push_serial=2), now=12.0)  # same gate, new push
    assert p.frame(12.1).colours[GATE[Gate.W3]] == (255, 255, 255)


def test_illegal_gate_wins_over_the_flash() -> None:
    g = Guidance(player=Color.RED, phase=TurnPhase.AFTER_PUSH, pushed_gate=Gate.N1, push_serial=1, illegal_gate=Gate.N1)
    assert painter(g).frame(0.0).colours[GATE[Gate.N1]] == (255, 0, 0)


def test_out_of_sync_pattern_replaces_guidance() -> None:
    g = Guidance.after_push(board(), Color.RED).with_(out_of_sync=True)
    frames = painter(g).frames(12)
    squares = set(SQ.values())
    corners = {SQ[sq] for sq in ((0, 0), (0, 6), (6, 6), (6, 0))}
    spinner = []
    for f in frames:
        lit = {i for i, c in enumerate(f.colours) if c != OFF}
        assert lit & squares <= corners
        spinner.append(frozenset(lit - squares))
        assert len(lit - squares) == 2
    assert len(set(spinner)) >= 6, "the two gate LEDs go round"


def test_self_test_chases_every_led_then_returns_to_guidance() -> None:
    b = board()
    p = painter(Guidance.before_push(b, "red"))
    p.start_self_test(now=0.0)
    first_lit = {}
    t = 0.0
    while t < p.self_test_s:
        frame = p.frame(t)
        for i, c in enumerate(frame.colours):
            if c != OFF:
                first_lit.setdefault(i, t)
        t += 0.1
    assert sorted(first_lit) == list(range(LAYOUT.count))
    assert [first_lit[i] for i in range(LAYOUT.count)] == sorted(first_lit.values()), "in index order"
    solids = {p.frame(p.self_test_s - k * 0.3 - 0.05).colours[0] for k in range(3)}
    assert solids == {(255, 0, 0), (0, 255, 0), (0, 0, 255)}
    after = p.frame(p.self_test_s + 0.01)
    assert [i for i, c in enumerate(after.colours) if c != OFF] == [SQ[b.pawn(Color.RED)]]


def test_config_palette_and_limits() -> None:
    cfg = PainterConfig.from_config({"palette": {"red": [255, 0, 255]}})
    assert cfg.palette[Color.RED] == (255, 0, 255) and cfg.palette[Color.BLUE] == DEFAULT_PALETTE[Color.BLUE]
    for bad in ({"blink_hz": 1.5}, {"night_blink_hz": 0.5}, {"palette": {"red": [300, 0, 0]}}, {"speed": 1}):
        with pytest.raises(ConfigError):
            PainterConfig.from_config(bad)
    with pytest.raises(ConfigError):
        PainterConfig.from_config({"palette": {"pink": [1, 2, 3]}})


def test_default_palette_stays_distinct_for_colour_blind_eyes() -> None:
    # Machado et al. (2009) full-severity simulation matrices, on linear RGB
    protan = np.array(
        [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]
    )
    deutan = np.array(
        [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]
    )
    linear = {c: (np.array(rgb) / 255.0) ** 2.2 for c, rgb in DEFAULT_PALETTE.items()}
    for matrix in (np.eye(3), protan, deutan):
        seen = {c: 255 * np.clip(matrix @ v, 0, 1) ** (1 / 2.2) for c, v in linear.items()}
        colours = list(seen)
        for i, a in enumerate(colours):
            for b in colours[i + 1 :]:
                assert np.linalg.norm(seen[a] - seen[b]) > 60, (a, b)


def test_square_wave() -> None:
    assert [square_wave(k / 10, 2.5) for k in range(8)] == [True, True, False, False] * 2
    assert not square_wave(-0.1, 2.5)
