"""Buttons through gpiozero's MockFactory (injected, never set class-wide), and the simulated stand-in."""

from __future__ import annotations

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion.errors import ConfigError
from hardware.buttons import DEFAULT_PINS, ButtonConfig, Buttons, SimButtons


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def tap(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_low()
    factory.pin(pin).drive_high()


@pytest.fixture
def rig():
    factory = MockFactory()
    clock = Clock()
    got: list[str] = []
    buttons = Buttons(
        ButtonConfig(bounce_s=None, buzzer=25), pin_factory=factory, on_command=got.append, clock=clock,
        sleep=lambda s: None, beep_in_thread=False,
    )
    yield factory, clock, got, buttons
    buttons.close()


def test_each_button_sends_its_command(rig) -> None:
    factory, _clock, got, buttons = rig
    for name in ("found", "phase", "done"):
        tap(factory, DEFAULT_PINS[name])
    assert got == ["found", "phase", "done"]
    assert buttons.poll() == ["found", "phase", "done"] and buttons.poll() == []


def test_undo_short_and_long_press(rig) -> None:
    factory, clock, got, buttons = rig
    pin = factory.pin(DEFAULT_PINS["undo"])
    pin.drive_low()
    clock.now += 0.3
    pin.drive_high()
    pin.drive_low()
    assert got == ["undo"], "a long press only counts on release"
    clock.now += 2.5
    pin.drive_high()
    assert got == ["undo", "resync"]
    assert buttons.poll() == ["undo", "resync"]


def test_pressed_means_pin_pulled_low(rig) -> None:
    factory, _clock, got, _buttons = rig
    factory.pin(DEFAULT_PINS["found"]).drive_high()
    assert got == []


def test_buzzer_beeps_for_an_illegal_push(rig) -> None:
    factory, _clock, _got, buttons = rig
    buzzer = factory.pin(25)
    buzzer.clear_states()
    buttons.beep_illegal(times=2)
    assert [s.state for s in buzzer.states] == [False, True, False, True, False]
    assert buttons.beeps == 1


def test_close_is_idempotent_and_releases_pins() -> None:
    factory = MockFactory()
    with Buttons(pin_factory=factory) as buttons:
        assert "found=GPIO5" in repr(buttons) and "0 pending" in repr(buttons)
    buttons.close()
    assert "closed" in repr(buttons)
    again = Buttons(pin_factory=factory)  # the pins are free again
    again.close()
    assert Device.pin_factory is not factory, "the factory is injected, never set class-wide"


def test_pins_from_config_and_bad_configs() -> None:
    factory = MockFactory()
    config = ButtonConfig.from_config({"found": 17, "phase": None, "long_press_s": 1.0, "bounce_s": None})
    assert config.pins == {"found": 17, "undo": 6, "phase": None, "done": 26}
    got: list[str] = []
    with Buttons(config, pin_factory=factory, on_command=got.append):
        tap(factory, 17)
        tap(factory, 16)  # not fitted: nothing listens
    assert got == ["found"]
    for bad in ({"found": 40}, {"found": 6}, {"jump": 3}, {"long_press_s": 0}, {"buzzer": 5}):
        with pytest.raises(ConfigError):
            ButtonConfig.from_config(bad)


def test_pin_already_in_use_is_a_config_error() -> None:
    factory = MockFactory()
    first = Buttons(pin_factory=factory)
    with pytest.raises(ConfigError, match="cannot set up the buttons"):
        Buttons(pin_factory=factory)
    first.close()


def test_sim_buttons() -> None:
    got: list[str] = []
    sim = SimButtons(on_command=got.append)
    sim.press("found")
    sim.press("undo")
    sim.press("undo", long=True)
    sim.beep_illegal()
    assert got == ["found", "undo", "resync"] and sim.poll() == got and sim.beeps == 1
    with pytest.raises(ConfigError):
        sim.press("jump")
    with pytest.raises(ConfigError):
        sim.press("found", long=True)
    sim.close()
    with pytest.raises(ConfigError, match="closed"):
        sim.press("found")
