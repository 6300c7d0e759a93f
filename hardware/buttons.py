"""Buttons and buzzer (gpiozero), and a simulated stand-in.

Four push buttons tell the companion what the camera cannot see:

=========  ====================  =========================================
command    default pin (BCM)     meaning
=========  ====================  =========================================
``found``  GPIO5 (header 29)     the current player found their treasure
``undo``   GPIO6 (header 31)     undo the last event; **held** ≥ 2 s and
                                 released: ``resync`` (re-read the board
                                 from scratch)
``phase``  GPIO16 (header 36)    start the night (glow variant)
``done``   GPIO26 (header 37)    the turn is over (the pawn stays put)
=========  ====================  =========================================

Each button connects its pin to ground (internal pull-up, so no resistor).
An optional active buzzer (default pin GPIO25, header 22, only when
configured) beeps on an illegal push. These pins avoid GPIO18/GPIO10/GPIO21
(LED data), I²C, SPI0 and the UART.

The pin factory is passed in (``pin_factory=MockFactory()`` in tests), never
set on gpiozero's class-global ``Device.pin_factory``. A long press is timed
with an injected clock from press to release, so tests need no real waiting.
"""

from __future__ import annotations

import collections
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from companion.errors import ConfigError

COMMANDS = ("found", "undo", "phase", "done")
EVENTS = (*COMMANDS, "resync")
DEFAULT_PINS: dict[str, int] = {"found": 5, "undo": 6, "phase": 16, "done": 26}
DEFAULT_BUZZER_PIN = 25


@dataclass(frozen=True)
class ButtonConfig:
    """Pins (BCM numbers, ``None`` for a button not fitted), timings and the optional buzzer."""

    pins: Mapping[str, int | None] = field(default_factory=lambda: dict(DEFAULT_PINS))
    buzzer: int | None = None
    long_press_s: float = 2.0
    bounce_s: float | None = 0.05
    pull_up: bool = True

    def __post_init__(self) -> None:
        pins: dict[str, int | None] = dict(DEFAULT_PINS)
        for name, pin in dict(self.pins).items():
            if name not in COMMANDS:
                raise ConfigError(f"unknown button {name!r}; buttons are {', '.join(COMMANDS)}")
            if pin is not None and (not isinstance(pin, int) or isinstance(pin, bool) or not 0 <= pin <= 27):
                raise ConfigError(f"button {name!r}: pin must be a BCM GPIO number 0..27, got {pin!r}")
            pins[name] = pin
        used = [p for p in [*pins.values(), self.buzzer] if p is not None]
        if len(used) != len(set(used)):
            raise ConfigError(f"button/buzzer pins must differ, got {pins} and buzzer {self.buzzer}")
        if self.long_press_s <= 0:
            raise ConfigError(f"long_press_s must be positive, got {self.long_press_s}")
        object.__setattr__(self, "pins", pins)

    @classmethod
    def from_config(cls, data: Mapping[str, Any] | None) -> ButtonConfig:
        """From a ``[buttons]`` table: ``found = 5``…, ``buzzer``, ``long_press_s``, ``bounce_s``, ``pull_up``."""
        data = dict(data or {})
        pins = {name: data.pop(name) for name in COMMANDS if name in data}
        known = {f.name for f in fields(cls)} - {"pins"}
        unknown = sorted(set(data) - known)
        if unknown:
            names = ", ".join(sorted(known | set(COMMANDS)))
            raise ConfigError(f"unknown button setting {unknown[0]!r}; known: {names}")
        return cls(pins={**DEFAULT_PINS, **pins}, **data)


class _Events:
    """Thread-safe queue of commands plus the optional callback (gpiozero calls from its own thread)."""

    def __init__(self, on_command: Callable[[str], Any] | None) -> None:
        self._queue: collections.deque[str] = collections.deque()
        self._lock = threading.Lock()
        self._on_command = on_command

    def emit(self, name: str) -> None:
        with self._lock:
            self._queue.append(name)
        if self._on_command is not None:
            self._on_command(name)

    def poll(self) -> list[str]:
        with self._lock:
            out = list(self._queue)
            self._queue.clear()
        return out

    def __len__(self) -> int:
        return len(self._queue)


class Buttons:
    """The physical buttons and buzzer through gpiozero.

    Commands arrive through ``on_command(name)`` (called from gpiozero's
    thread) and are also queued for :meth:`poll`. ``beep_illegal`` sounds the
    buzzer (in a background thread unless ``beep_in_thread`` is False) with
    the injected ``sleep``.
    """

    def __init__(
        self,
        config: ButtonConfig | None = None,
        *,
        pin_factory: Any = None,
        on_command: Callable[[str], Any] | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        beep_in_thread: bool = True,
    ) -> None:
        from gpiozero import Button, Buzzer, GPIOZeroError  # a Pi library, but importable (and mockable) anywhere

        self.config = config or ButtonConfig()
        self._events = _Events(on_command)
        self._clock = clock
        self._sleep = sleep
        self._beep_in_thread = beep_in_thread
        self._pressed_at: float | None = None
        self.closed = False
        self.beeps = 0
        self.buttons: dict[str, Any] = {}
        self.buzzer: Any = None
        try:
            for name, pin in self.config.pins.items():
                if pin is None:
                    continue
                button = Button(
                    pin, pull_up=self.config.pull_up, bounce_time=self.config.bounce_s, pin_factory=pin_factory
                )
                if name == "undo":
                    button.when_pressed = self._undo_pressed
                    button.when_released = self._undo_released
                else:
                    button.when_pressed = self._emitter(name)
                self.buttons[name] = button
            if self.config.buzzer is not None:
                self.buzzer = Buzzer(self.config.buzzer, pin_factory=pin_factory)
        except (GPIOZeroError, OSError) as exc:  # BadPinFactory, PinInvalidPin, GPIOPinInUse, no /dev/gpiochip...
            self.close()
            raise ConfigError(f"cannot set up the buttons: {type(exc).__name__}: {exc}") from exc

    def _emitter(self, name: str) -> Callable[[], None]:
        def pressed() -> None:
            self._events.emit(name)

        return pressed

    def _undo_pressed(self) -> None:
        self._pressed_at = self._clock()

    def _undo_released(self) -> None:
        if self._pressed_at is None:
            return
        held = self._clock() - self._pressed_at
        self._pressed_at = None
        self._events.emit("resync" if held >= self.config.long_press_s else "undo")

    def poll(self) -> list[str]:
        """Commands since the last poll, oldest first."""
        return self._events.poll()

    def beep_illegal(self, times: int = 3, on_s: float = 0.08, off_s: float = 0.08) -> None:
        """Short beeps for an illegal push (nothing without a buzzer)."""
        if self.buzzer is None or self.closed:
            return
        self.beeps += 1

        def run() -> None:
            for k in range(times):
                self.buzzer.on()
                self._sleep(on_s)
                self.buzzer.off()
                if k < times - 1:
                    self._sleep(off_s)

        if self._beep_in_thread:
            threading.Thread(target=run, name="buzzer", daemon=True).start()
        else:
            run()

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        for device in [*self.buttons.values(), self.buzzer]:
            if device is not None:
                device.close()

    def __enter__(self) -> Buttons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        pins = ", ".join(f"{name}=GPIO{pin}" for name, pin in self.config.pins.items() if pin is not None)
        state = "closed" if self.closed else f"{len(self._events)} pending"
        buzzer = f", buzzer=GPIO{self.config.buzzer}" if self.config.buzzer is not None else ""
        return f"<Buttons {pins}{buzzer}: {state}>"


class SimButtons:
    """Buttons for the simulator and tests: ``press("found")``, ``press("undo", long=True)``."""

    def __init__(self, on_command: Callable[[str], Any] | None = None) -> None:
        self._events = _Events(on_command)
        self.closed = False
        self.beeps = 0

    def press(self, name: str, *, long: bool = False) -> None:
        if self.closed:
            raise ConfigError("the simulated buttons are closed")
        if name not in EVENTS:
            raise ConfigError(f"unknown button {name!r}; buttons are {', '.join(COMMANDS)} (and resync)")
        if long and name != "undo":
            raise ConfigError(f"only undo has a long press (resync), not {name!r}")
        self._events.emit("resync" if long or name == "resync" else name)

    def poll(self) -> list[str]:
        return self._events.poll()

    def beep_illegal(self, times: int = 3, on_s: float = 0.08, off_s: float = 0.08) -> None:
        if not self.closed:
            self.beeps += 1

    def close(self) -> None:
        self.closed = True

    def __enter__(self) -> SimButtons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"{len(self._events)} pending"
        return f"<SimButtons: {state}, {self.beeps} beeps>"


__all__ = ["COMMANDS", "DEFAULT_BUZZER_PIN", "DEFAULT_PINS", "EVENTS", "ButtonConfig", "Buttons", "SimButtons"]
