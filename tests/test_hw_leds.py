"""LED strip backends: the Pi 5 device format (golden bytes), rpi-ws281x through a fake module, the simulator."""

from __future__ import annotations

import errno
import json
import os
import types
import warnings
from pathlib import Path
from typing import ClassVar

import cv2
import pytest

from companion.errors import ConfigError
from hardware.colour import ColourSettings
from hardware.layout import preset
from hardware.leds import (
    DRIVER_GAMMA,
    LedDriverWarning,
    LedError,
    LedStrip,
    PioStrip,
    SimStrip,
    Ws281xStrip,
    kernel_version,
    open_strip,
)

PIO_GOLDEN = json.loads((Path(__file__).parent / "data" / "leds" / "pio.json").read_text())


def device(tmp_path: Path) -> Path:
    path = tmp_path / "leds0"
    path.write_bytes(b"")
    return path


# --------------------------------------------------------------------------- pio


@pytest.mark.parametrize("case", PIO_GOLDEN, ids=[c["name"] for c in PIO_GOLDEN])
@pytest.mark.parametrize("mode", ["passthrough", "old_kernel"])
def test_pio_golden_bytes(tmp_path: Path, case: dict, mode: str) -> None:
    path = device(tmp_path)
    settings = ColourSettings(**case["settings"])
    strip = PioStrip(len(case["colours"]), settings, path=path, passthrough=mode == "passthrough")
    strip.show(case["colours"], night=case["night"])
    assert path.read_bytes().hex() == case[mode]


def test_pio_layout_of_one_led(tmp_path: Path) -> None:
    # red at full: the pipeline gives (128, 0, 0); the u32 has R in bits 0-7, little-endian
    path = device(tmp_path)
    strip = PioStrip(2, path=path, passthrough=True)
    strip.show([(255, 0, 0), (0, 0, 255)])
    words = [int.from_bytes(path.read_bytes()[i : i + 4], "little") for i in (0, 4)]
    assert words == [128, 128 << 16]


def test_pio_sets_pass_through_brightness_at_start(tmp_path: Path) -> None:
    path = device(tmp_path)
    PioStrip(3, path=path, kernel_release="6.12.62+rpt-rpi-2712")
    assert path.read_bytes() == b"\x00"  # one byte at offset 0: the driver's brightness, 0 = pass-through


def test_pio_old_kernel_warns_and_lifts_dim_values(tmp_path: Path) -> None:
    path = device(tmp_path)
    with pytest.warns(LedDriverWarning, match="6.12.47"):
        strip = PioStrip(1, path=path, kernel_release="6.12.47+rpt-rpi-2712")
    assert path.read_bytes() == b"\xff"  # brightness 255: gamma on, but nothing scaled
    assert not strip.passthrough
    result = strip.show([(72, 0, 0)], night=True)  # a very dim night red
    assert result.as_lists() == [[1, 0, 0]]
    sent = path.read_bytes()
    assert sent[0] >= 22 and DRIVER_GAMMA[sent[0]] >= 1, "above the driver's cut-off"
    assert DRIVER_GAMMA[sent[0] - 1] < 1, "and no brighter than needed"


def test_pio_no_warning_on_new_kernel(tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        PioStrip(1, path=device(tmp_path), kernel_release="6.18.1")


@pytest.mark.parametrize(
    ("code", "hint"), [(errno.EACCES, "gpio' group"), (errno.EFBIG, "num_leds is smaller"), (errno.EIO, "")]
)
def test_pio_write_errors_are_explained(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int, hint: str) -> None:
    strip = PioStrip(2, path=device(tmp_path), passthrough=True)

    def refuse(*args: object, **kwargs: object) -> int:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr("hardware.leds.os.write", refuse)
    with pytest.raises(LedError, match="cannot write to") as info:
        strip.show([(1, 2, 3)] * 2)
    assert hint in str(info.value)


def test_pio_missing_device_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(LedError, match="dtoverlay=ws2812-pio"):
        PioStrip(61, path=tmp_path / "nope")


def test_kernel_version() -> None:
    assert kernel_version("6.12.47+rpt-rpi-2712") == (6, 12, 47)
    assert kernel_version("6.18") == (6, 18, 0)
    assert kernel_version("weird") == (0, 0, 0)


# --------------------------------------------------------------------------- ws281x (fake module)


class FakePixelStrip:
    instances: ClassVar[list[FakePixelStrip]] = []

    def __init__(self, num, pin, freq_hz, dma, invert, brightness, channel, strip_type=None) -> None:
        self.args = (num, pin, freq_hz, dma, invert, brightness, channel, strip_type)
        self.pixels = [0] * num
        self.shown: list[list[int]] = []
        self.began = False
        FakePixelStrip.instances.append(self)

    def begin(self) -> None:
        self.began = True

    def setPixelColor(self, i: int, value: int) -> None:  # the library's name
        self.pixels[i] = value

    def show(self) -> None:
        self.shown.append(list(self.pixels))


def fake_ws281x() -> types.ModuleType:
    module = types.ModuleType("rpi_ws281x")
    module.PixelStrip = FakePixelStrip  # type: ignore[attr-defined]
    module.ws = types.SimpleNamespace(WS2811_STRIP_RGB=0x00100800)  # type: ignore[attr-defined]
    return module


def test_ws281x_sends_wire_order_bytes_unchanged() -> None:
    strip = Ws281xStrip(2, pin=18, module=fake_ws281x())
    fake = FakePixelStrip.instances[-1]
    assert fake.began
    num, pin, _freq, dma, invert, brightness, channel, strip_type = fake.args
    assert (num, pin, dma, invert, brightness, channel, strip_type) == (2, 18, 10, False, 255, 0, 0x00100800)
    strip.show([(255, 0, 0), (0, 0, 255)])
    # GRB wire order: red is 00 80 00 -> 0x008000; blue is 00 00 80
    assert fake.shown[-1] == [0x008000, 0x000080]
    with strip:
        pass
    assert fake.shown[-1] == [0, 0] and strip.closed
    strip.close()  # idempotent
    assert "closed" in repr(strip)


def test_ws281x_pwm1_pin_uses_channel_1() -> None:
    Ws281xStrip(1, pin=13, module=fake_ws281x())
    assert FakePixelStrip.instances[-1].args[6] == 1


def test_ws281x_without_the_library_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(__import__("sys").modules, "rpi_ws281x", None)
    with pytest.raises(LedError, match="rpi-ws281x"):
        Ws281xStrip(1)


# --------------------------------------------------------------------------- simulator and contract


def test_sim_records_and_draws(tmp_path: Path) -> None:
    layout = preset("grid49+gates12")
    strip = SimStrip(layout=layout)
    colours = [(0, 0, 0)] * 61
    colours[0] = (255, 40, 0)
    colours[49] = (255, 0, 0)
    strip.show(colours)
    strip.show(colours, night=True)
    assert len(strip.frames) == 2 and strip.frames[1].rgb.max() <= 16
    out = strip.render_png(tmp_path / "sub" / "board.png", index=0)
    img = cv2.imread(str(out))
    assert img.shape == (9 * 48, 9 * 48, 3)
    b, _g, r = img[int(1.5 * 48), int(1.5 * 48)]  # square (0,0) centre
    assert r > 150 and b < 40
    text = strip.render_ansi(index=1)
    assert text.count("\n") == 8 and "\x1b[38;2;" in text and "██" in text
    assert text.count("██") == 2


def test_sim_limit_and_errors() -> None:
    strip = SimStrip(3, limit=2)
    for k in range(5):
        strip.show([(k, 0, 0)] * 3)
    assert len(strip.frames) == 2
    with pytest.raises(LedError, match="layout"):
        strip.render_ansi()
    with pytest.raises(LedError, match="not shown"):
        SimStrip(1).render_ansi()


def make(backend: str, tmp_path: Path, count: int) -> LedStrip:
    if backend == "sim":
        return SimStrip(count)
    if backend == "pio":
        return PioStrip(count, path=device(tmp_path), passthrough=True)
    return Ws281xStrip(count, module=fake_ws281x())


@pytest.mark.parametrize("backend", ["sim", "pio", "ws281x"])
def test_every_backend_behaves_alike(backend: str, tmp_path: Path) -> None:
    strip = make(backend, tmp_path, 4)
    result = strip.show([(255, 255, 255), (0, 0, 0), (10, 200, 30), (255, 0, 0)])
    assert result.rgb.shape == (4, 3) and strip.last is result
    with pytest.raises(ValueError, match="4 LEDs"):
        strip.show([(0, 0, 0)] * 3)
    assert "4 LEDs" in repr(strip) and "1 frames shown" in repr(strip)
    strip.close()
    strip.close()
    assert strip.last is not None and not strip.last.rgb.any(), "closing blanks the strip"
    with pytest.raises(LedError, match="closed"):
        strip.show([(0, 0, 0)] * 4)


def test_open_strip_from_config(tmp_path: Path) -> None:
    layout = preset("matrix8x8")
    assert isinstance(open_strip(None, layout), SimStrip)
    pio = open_strip({"backend": "pio", "path": str(device(tmp_path)), "passthrough": True, "order": "RGB"}, layout)
    assert isinstance(pio, PioStrip) and pio.count == 64 and pio.settings.order == "RGB"
    with pytest.raises(ConfigError, match="unknown LED backend"):
        open_strip({"backend": "neopixel"}, layout)
    with pytest.raises(ConfigError, match="bad options"):
        open_strip({"backend": "sim", "colour": 1}, layout)
