"""Guidance to LED frames over time.

:class:`Painter` turns the referee's :class:`~companion.guidance.Guidance`
into one list of requested RGB colours per frame (before the colour
pipeline, which :mod:`hardware.leds` applies). Time comes from an injected
clock, or is passed explicitly, so every animation is reproducible in tests
and in the ``leds`` command (frame ``k`` is at ``k / fps`` seconds).

What it shows (later layers win on a shared LED):

1. before the push: the current player's pawn square, in their colour;
   after the push: every square they can reach (their own included);
2. public targets: a smooth pulse (white by day, red at night);
3. an illegal pawn's square: a hard on/off blink;
4. a just-accepted push: a short flash on the gate;
5. an illegal push's gate: a hard on/off blink in red, at least 2 Hz by day
   and 1 Hz at night, while the reachable squares stay lit. The blink is a
   square wave, never a fade, so it is told apart by its rhythm and not only
   by its colour (colour-blind players);
6. out of sync: a spinner of two opposite gate LEDs going round plus the
   four start corners blinking, and nothing else (guidance from a lost
   state could mislead);
7. power-on self-test: a chase through every LED in index order, then the
   whole strip red, green and blue (a wiring or colour-order mistake shows).

Night (glow phase): the same information in dim amber and red only; the
pipeline's night cap then guarantees blue 0, green ≤ red/2, bytes ≤ 16.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from companion.board import Color, Gate, InvalidStateError, Square
from companion.config import settings_from_table
from companion.errors import ConfigError
from companion.guidance import IDLE, Guidance, TurnPhase
from hardware.colour import RGB
from hardware.layout import GATES_CLOCKWISE, Layout

OFF: RGB = (0, 0, 0)

#: Player colours near the pawn colours but kept apart for colour-blind eyes, after
#: the Okabe–Ito palette: a vermilion red, a warm yellow, a bluish green and a
#: clear blue differ in hue *and* in lightness and in blue content, so
#: protanopes and deuteranopes can still tell red from green.
DEFAULT_PALETTE: dict[Color, RGB] = {
    Color.RED: (255, 40, 0),
    Color.YELLOW: (255, 190, 0),
    Color.GREEN: (0, 255, 110),
    Color.BLUE: (0, 70, 255),
}

START_CORNERS: tuple[Square, ...] = ((0, 0), (0, 6), (6, 6), (6, 0))


def _rgb(value: Any, name: str) -> RGB:
    if (
        not isinstance(value, (list, tuple))
        or len(value) != 3
        or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 255 for v in value)
    ):
        raise ConfigError(f"painter colour {name} must be [r, g, b] with 0..255, got {value!r}")
    return (value[0], value[1], value[2])


@dataclass(frozen=True)
class PainterConfig:
    """Colours and rhythms, with documented defaults (all configurable)."""

    fps: int = 10
    palette: Mapping[Color, RGB] = field(default_factory=lambda: dict(DEFAULT_PALETTE))
    neutral: RGB = (255, 255, 255)  # a turn with no known player
    target: RGB = (255, 255, 255)
    illegal: RGB = (255, 0, 0)
    flash: RGB = (255, 255, 255)
    out_of_sync: RGB = (255, 120, 0)
    night_main: RGB = (255, 160, 0)  # amber: reachable squares, pawn square, flash
    night_alert: RGB = (255, 0, 0)  # red: illegal gate/pawn, targets, out of sync
    blink_hz: float = 2.5  # illegal gate/pawn by day (≥ 2 Hz required)
    night_blink_hz: float = 1.25  # at night (≥ 1 Hz required)
    pulse_hz: float = 0.5  # public targets
    pulse_floor: float = 0.15  # darkest point of the pulse, as a fraction
    flash_s: float = 0.6  # "push accepted"
    chase_width: int = 3  # self-test

    def __post_init__(self) -> None:
        if self.fps <= 0:
            raise ConfigError(f"painter fps must be positive, got {self.fps}")
        if self.blink_hz < 2.0:
            raise ConfigError(f"painter blink_hz must be at least 2 (illegal push by day), got {self.blink_hz}")
        if self.night_blink_hz < 1.0:
            raise ConfigError(f"painter night_blink_hz must be at least 1, got {self.night_blink_hz}")
        palette = {}
        for key, value in dict(self.palette).items():
            try:
                color = key if isinstance(key, Color) else Color.parse(key)
            except InvalidStateError as exc:
                raise ConfigError(f"painter palette: {exc}") from None
            palette[color] = _rgb(value, f"palette.{key}")
        for color in Color:
            palette.setdefault(color, DEFAULT_PALETTE[color])
        object.__setattr__(self, "palette", palette)
        for f in fields(self):
            if f.type == "RGB":
                object.__setattr__(self, f.name, _rgb(getattr(self, f.name), f.name))

    @classmethod
    def from_config(cls, data: Mapping[str, Any] | None) -> PainterConfig:
        return settings_from_table(cls, data, "painter")


@dataclass(frozen=True)
class Frame:
    """Requested colours for every LED (RGB, before the pipeline) and whether night limits apply."""

    colours: tuple[RGB, ...]
    night: bool = False


def square_wave(elapsed: float, hz: float) -> bool:
    """On for the first half of every period, starting on (``elapsed`` = 0 is on)."""
    if elapsed < 0:
        return False
    return (elapsed * hz + 1e-9) % 1.0 < 0.5


def _scale(colour: RGB, factor: float) -> RGB:
    return (round(colour[0] * factor), round(colour[1] * factor), round(colour[2] * factor))


class Painter:
    """Paints guidance onto a layout, frame by frame.

    ``update(guidance)`` when the referee says something new; ``frame()`` at
    ``fps``. Animations are timed from when the painter first saw their event
    (a new illegal gate starts its blink "on", a new ``push_serial`` starts a
    flash), so the first frame after an event always shows it.
    """

    def __init__(
        self,
        layout: Layout,
        config: PainterConfig | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.layout = layout
        self.config = config or PainterConfig()
        self._clock = clock
        self.guidance: Guidance = IDLE
        self._since: dict[str, float] = {}
        self._flash: tuple[Gate, float] | None = None
        self._self_test_start: float | None = None

    # ---- events

    def update(self, guidance: Guidance, now: float | None = None) -> None:
        t = self._clock() if now is None else now
        old = self.guidance
        for key, new_value, old_value in (
            ("illegal_gate", guidance.illegal_gate, old.illegal_gate),
            ("illegal_pawn", guidance.illegal_pawn, old.illegal_pawn),
            ("out_of_sync", guidance.out_of_sync, old.out_of_sync),
            ("targets", guidance.public_targets, old.public_targets),
        ):
            if new_value and (new_value != old_value or key not in self._since):
                self._since[key] = t
        if guidance.pushed_gate is not None and guidance.push_serial != old.push_serial:
            self._flash = (guidance.pushed_gate, t)
        self.guidance = guidance

    def start_self_test(self, now: float | None = None) -> None:
        """Begin the power-on chase; :meth:`frame` shows it until :attr:`self_test_s` has passed."""
        self._self_test_start = self._clock() if now is None else now

    @property
    def self_test_s(self) -> float:
        frames = self.layout.count + self.config.chase_width + 3 * 3
        return frames / self.config.fps

    # ---- frames

    def frame(self, now: float | None = None) -> Frame:
        t = self._clock() if now is None else now
        g = self.guidance
        if self._self_test_start is not None:
            elapsed = t - self._self_test_start
            if 0 <= elapsed < self.self_test_s:
                return Frame(tuple(self._self_test(elapsed, g.night)), g.night)
            self._self_test_start = None
        leds: list[RGB] = [OFF] * self.layout.count
        if g.out_of_sync:
            self._paint_out_of_sync(leds, t - self._since.get("out_of_sync", t), g.night)
            return Frame(tuple(leds), g.night)
        cfg = self.config
        main = cfg.night_main if g.night else (cfg.palette[g.player] if g.player else cfg.neutral)
        alert = cfg.night_alert if g.night else cfg.illegal
        blink_hz = cfg.night_blink_hz if g.night else cfg.blink_hz
        # 1. whose turn / where they can go
        before = g.phase is TurnPhase.BEFORE_PUSH
        lit = ({g.pawn} if g.pawn is not None else set()) if before else set(g.reachable)
        for square in lit:
            self._set_square(leds, square, main)
        # 2. public targets pulse (smooth: a different rhythm from the hard blinks)
        if g.public_targets:
            elapsed = t - self._since.get("targets", t)
            wave = 0.5 + 0.5 * math.cos(2 * math.pi * cfg.pulse_hz * elapsed)
            level = cfg.pulse_floor + (1 - cfg.pulse_floor) * wave
            colour = _scale(cfg.night_alert if g.night else cfg.target, level)
            for square in g.public_targets:
                self._set_square(leds, square, colour)
        # 3. an illegal pawn's square blinks
        if g.illegal_pawn is not None:
            on = square_wave(t - self._since.get("illegal_pawn", t), blink_hz)
            self._set_square(leds, g.illegal_pawn, alert if on else OFF)
        # 4. push accepted: a short flash on the gate
        if self._flash is not None:
            gate, start = self._flash
            if 0 <= t - start < cfg.flash_s:
                self._set_gate(leds, gate, cfg.night_main if g.night else cfg.flash)
        # 5. an illegal push's gate blinks (last: it must win over any flash)
        if g.illegal_gate is not None:
            on = square_wave(t - self._since.get("illegal_gate", t), blink_hz)
            self._set_gate(leds, g.illegal_gate, alert if on else OFF)
        return Frame(tuple(leds), g.night)

    def frames(self, count: int, start: float = 0.0) -> list[Frame]:
        """``count`` frames at ``start + k / fps`` (the steady animation of the current guidance)."""
        return [self.frame(start + k / self.config.fps) for k in range(count)]

    # ---- helpers

    def _set_square(self, leds: list[RGB], square: Square, colour: RGB) -> None:
        for i in self.layout.square_leds(square):
            leds[i] = colour

    def _set_gate(self, leds: list[RGB], gate: Gate, colour: RGB) -> None:
        for i in self.layout.gate_leds(gate):
            leds[i] = colour

    def _paint_out_of_sync(self, leds: list[RGB], elapsed: float, night: bool) -> None:
        colour = self.config.night_alert if night else self.config.out_of_sync
        step = max(int(elapsed * self.config.fps + 1e-9), 0)
        gates = [gate for gate in GATES_CLOCKWISE if self.layout.gate_leds(gate)]
        if gates:
            n = len(gates)
            for k in (step % n, (step + n // 2) % n):
                self._set_gate(leds, gates[k], colour)
        if square_wave(elapsed, 1.0):
            for square in START_CORNERS:
                self._set_square(leds, square, colour)

    def _self_test(self, elapsed: float, night: bool) -> list[RGB]:
        count, width = self.layout.count, self.config.chase_width
        step = int(elapsed * self.config.fps + 1e-9)
        white = self.config.night_main if night else (255, 255, 255)
        if step < count + width:
            return [white if step - width < i <= step else OFF for i in range(count)]
        k = (step - count - width) // 3
        solid = ((255, 0, 0), (0, 255, 0), (0, 0, 255))[min(k, 2)]
        return [self.config.night_alert if night else solid] * count


__all__ = ["DEFAULT_PALETTE", "OFF", "Frame", "Painter", "PainterConfig", "square_wave"]
