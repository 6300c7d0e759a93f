"""LED strips: one interface, three backends.

:class:`LedStrip` takes a list of RGB colours per frame, runs it through the
colour pipeline (:func:`hardware.colour.apply_pipeline`) and hands the
resulting bytes to a backend:

- :class:`Ws281xStrip` — ``rpi_ws281x`` (PWM/PCM/SPI DMA) on a Pi 1–4. The
  module is imported when the strip is opened, never at import time, and a
  real ``PixelStrip`` must never be built off a Pi (it crashes);
- :class:`PioStrip` — the Pi 5 kernel driver (``dtoverlay=ws2812-pio``),
  ``/dev/leds0``: 4 bytes per LED, a little-endian u32 with R in bits 0–7,
  G 8–15, B 16–23, W 24–31;
- :class:`SimStrip` — records every frame, draws the board with its LEDs to
  a PNG and to the terminal (ANSI truecolour).

Choose one with :func:`open_strip` from config; there is no silent fallback
to the simulator.
"""

from __future__ import annotations

import errno
import importlib
import logging
import math
import os
import re
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from companion.errors import CompanionError, ConfigError
from hardware import sim_render
from hardware.colour import ColourSettings, PipelineResult, apply_pipeline
from hardware.layout import Layout

log = logging.getLogger(__name__)


class LedError(CompanionError, RuntimeError):
    """The LED strip cannot be used (driver missing, device absent, no permission)."""


class LedDriverWarning(UserWarning):
    """The LED driver works, but not as well as it could (an old kernel, for instance)."""


class LedStrip:
    """A strip of ``count`` LEDs; subclasses implement :meth:`_write`.

    Context manager; :meth:`close` is idempotent and blanks the strip first.
    """

    backend = "abstract"

    def __init__(self, count: int, settings: ColourSettings | None = None) -> None:
        if count <= 0:
            raise ConfigError(f"LED count must be positive, got {count}")
        self.count = count
        self.settings = settings or ColourSettings()
        self.closed = False
        self.frames_shown = 0
        self.last: PipelineResult | None = None

    def show(self, colours: Sequence[Sequence[float]], *, night: bool = False) -> PipelineResult:
        """Send one frame (RGB colours, one per LED) through the pipeline to the strip."""
        if self.closed:
            raise LedError(f"{self.backend} LED strip is closed")
        if len(colours) != self.count:
            raise ValueError(f"{self.backend} strip has {self.count} LEDs, got {len(colours)} colours")
        result = apply_pipeline(colours, self.settings, night=night)
        self._write(result)
        self.frames_shown += 1
        self.last = result
        return result

    def clear(self) -> None:
        self.show([(0, 0, 0)] * self.count)

    def close(self) -> None:
        if self.closed:
            return
        try:
            self.clear()
        finally:
            self.closed = True
            self._release()

    def _write(self, result: PipelineResult) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _release(self) -> None:
        """Free the driver (after the final blank frame)."""

    def __enter__(self) -> LedStrip:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"{self.frames_shown} frames shown"
        current = "" if self.last is None else f", last {self.last.current_ma:.0f} mA"
        return f"<{type(self).__name__} {self.count} LEDs {self.settings.order}: {state}{current}>"


# --------------------------------------------------------------------------- rpi-ws281x (Pi 1-4)


class Ws281xStrip(LedStrip):
    """rpi-ws281x on a Pi 1–4 (data on GPIO18 PWM, GPIO21 PCM or GPIO10 SPI).

    The pipeline already put the bytes in wire order, so the library is told
    the strip is plain RGB with brightness 255 and no gamma: it then sends
    our bytes unchanged (24-bit value ``b0<<16 | b1<<8 | b2`` goes out as
    ``b0, b1, b2``). ``module`` lets tests pass a fake ``rpi_ws281x``.
    """

    backend = "ws281x"

    def __init__(
        self,
        count: int,
        settings: ColourSettings | None = None,
        *,
        pin: int = 18,
        dma: int = 10,
        channel: int | None = None,
        freq_hz: int = 800_000,
        module: ModuleType | None = None,
    ) -> None:
        super().__init__(count, settings)
        if module is None:
            try:
                module = importlib.import_module("rpi_ws281x")  # lazily: only on a Pi 1-4
            except ImportError:
                raise LedError(
                    "the ws281x LED backend needs rpi-ws281x (pip install rpi-ws281x, on a Pi 1-4 only; "
                    "on a Pi 5 use the 'pio' backend)"
                ) from None
        if channel is None:
            channel = 1 if pin in (13, 19, 41, 45, 53) else 0
        self._module = module
        try:
            self._strip = module.PixelStrip(
                count, pin, freq_hz, dma, False, 255, channel, strip_type=module.ws.WS2811_STRIP_RGB
            )
            self._strip.begin()
        except RuntimeError as exc:
            raise LedError(
                f"cannot start rpi-ws281x on GPIO{pin}: {exc} (run as root or with /dev/mem access; Pi 1-4 only)"
            ) from None

    def _write(self, result: PipelineResult) -> None:
        data = result.data
        for i in range(self.count):
            self._strip.setPixelColor(i, (data[3 * i] << 16) | (data[3 * i + 1] << 8) | data[3 * i + 2])
        self._strip.show()

    def _release(self) -> None:
        fini = getattr(self._strip, "_cleanup", None)
        if callable(fini):
            fini()


# --------------------------------------------------------------------------- Pi 5 kernel driver

#: The ws2812-pio-rp1 driver's gamma table, applied by kernels before the
#: pass-through fix (raspberrypi/linux#7108, PR #7110, in kernels after 6.12.55).
#: The driver documents it as ``255 * (i/255) ** (1/0.45)``; rounded down it
#: matches the driver's table entry for entry: any byte below 22 comes out as 0.
DRIVER_GAMMA: tuple[int, ...] = tuple(math.floor(255 * (i / 255) ** (1 / 0.45)) for i in range(256))


def _inverse_driver_gamma() -> bytes:
    """For each wanted output byte, the smallest input the old driver turns into at least that."""
    out = bytearray(256)
    for want in range(256):
        out[want] = next(i for i, v in enumerate(DRIVER_GAMMA) if v >= want)
    return bytes(out)


INVERSE_DRIVER_GAMMA = _inverse_driver_gamma()
#: First kernel with the pass-through fix (an assumption from the fix's release notes: "kernel > 6.12.55").
PASSTHROUGH_KERNEL = (6, 12, 56)


def kernel_version(release: str) -> tuple[int, int, int]:
    """``"6.12.47+rpt-rpi-2712"`` -> ``(6, 12, 47)``; unknown parts are 0."""
    m = re.match(r"(\d+)\.(\d+)(?:\.(\d+))?", release)
    if not m:
        return (0, 0, 0)
    return (int(m.group(1)), int(m.group(2)), int(m.group(3) or 0))


class PioStrip(LedStrip):
    """The Pi 5 ``ws2812-pio`` kernel driver through its character device.

    Each frame is one write of ``4 × count`` bytes at offset 0 (the driver
    sends the frame at once when the write fills its buffer). The driver
    assumes a GRB strip: the byte in the G field goes out first, then R, then
    B, so the pipeline's wire-order bytes ``b0 b1 b2`` are put in the G, R
    and B fields, and the configured colour order stays the only place that
    decides the order.

    Brightness: a 1-byte write at offset 0 sets the driver's brightness.
    Kernels after 6.12.55 treat brightness 0 as pass-through (no driver
    gamma; the pipeline already did it), and that is written at start. Older
    kernels always apply the driver's gamma table, which zeroes every byte
    below 22; there the strip is set to brightness 255, a
    :class:`LedDriverWarning` is issued, and each byte is mapped through the
    inverse of the driver's table, so dim values stay above its cut-off and
    the LEDs show what the pipeline asked for. ``passthrough`` forces either
    mode (``None``: decide from the running kernel's version).
    """

    backend = "pio"

    def __init__(
        self,
        count: int,
        settings: ColourSettings | None = None,
        *,
        path: str | os.PathLike[str] = "/dev/leds0",
        passthrough: bool | None = None,
        kernel_release: str | None = None,
    ) -> None:
        super().__init__(count, settings)
        self.path = Path(path)
        if not self.path.exists():
            raise LedError(
                f"{self.path} not found: add 'dtoverlay=ws2812-pio,gpio=18,num_leds={count},brightness=0' "
                "to /boot/firmware/config.txt and reboot (Pi 5 only)"
            )
        if passthrough is None:
            release = kernel_release if kernel_release is not None else os.uname().release
            passthrough = kernel_version(release) >= PASSTHROUGH_KERNEL
            if not passthrough:
                warnings.warn(
                    f"kernel {release} predates the ws2812-pio pass-through fix (needs > 6.12.55): "
                    "dim LED values are lifted above the driver's gamma cut-off; update the kernel for exact colours",
                    LedDriverWarning,
                    stacklevel=2,
                )
        self.passthrough = passthrough
        self._put(bytes([0 if passthrough else 255]))

    def encode(self, result: PipelineResult) -> bytes:
        """The device bytes of one frame (what :meth:`_write` sends)."""
        wire = np.frombuffer(result.data, dtype=np.uint8).reshape(-1, 3)
        if not self.passthrough:
            wire = np.frombuffer(INVERSE_DRIVER_GAMMA, dtype=np.uint8)[wire]
        out = np.zeros((len(wire), 4), dtype=np.uint8)
        out[:, 0] = wire[:, 1]  # R field (bits 0-7): second on the wire
        out[:, 1] = wire[:, 0]  # G field (bits 8-15): first on the wire
        out[:, 2] = wire[:, 2]  # B field (bits 16-23): third on the wire
        return out.tobytes()

    def _write(self, result: PipelineResult) -> None:
        self._put(self.encode(result))

    def _put(self, data: bytes) -> None:
        # A fresh descriptor per frame: the device has no seek, and every write must start at offset 0.
        try:
            fd = os.open(self.path, os.O_WRONLY)
            try:
                written = os.write(fd, data)
            finally:
                os.close(fd)
        except OSError as exc:
            hints = {
                errno.EACCES: " (is the user in the 'gpio' group and the udev rule installed?)",
                errno.EFBIG: f" (the overlay's num_leds is smaller than the layout's {self.count} LEDs)",
                errno.ENOSPC: f" (the overlay's num_leds is smaller than the layout's {self.count} LEDs)",
            }
            hint = hints.get(exc.errno or 0, "")
            raise LedError(f"cannot write to {self.path}: {exc.strerror}{hint}") from None
        if written != len(data):
            raise LedError(f"short write to {self.path}: {written} of {len(data)} bytes")


# --------------------------------------------------------------------------- simulator


class SimStrip(LedStrip):
    """Records every frame; draws the board and its LEDs to PNG or the terminal.

    ``frames`` holds every :class:`PipelineResult` shown (the blank frame of
    :meth:`close` included); ``limit`` caps the memory used (oldest dropped).
    """

    backend = "sim"

    def __init__(
        self,
        count: int | None = None,
        settings: ColourSettings | None = None,
        *,
        layout: Layout | None = None,
        limit: int | None = 10_000,
        on_frame: Callable[[PipelineResult], Any] | None = None,
    ) -> None:
        if count is None:
            if layout is None:
                raise ConfigError("a simulated strip needs a LED count or a layout")
            count = layout.count
        super().__init__(count, settings)
        self.layout = layout
        self.frames: list[PipelineResult] = []
        self._limit = limit
        self._on_frame = on_frame

    def _write(self, result: PipelineResult) -> None:
        self.frames.append(result)
        if self._limit is not None and len(self.frames) > self._limit:
            del self.frames[: len(self.frames) - self._limit]
        if self._on_frame is not None:
            self._on_frame(result)

    def _frame(self, index: int) -> PipelineResult:
        if not self.frames:
            raise LedError("the simulated strip has not shown any frame yet")
        return self.frames[index]

    def render_image(self, index: int = -1, *, scale: int = 48) -> np.ndarray:
        """The board with its LEDs as a BGR image (frame ``index``)."""
        return sim_render.board_image(self._frame(index).rgb, self._need_layout(), scale=scale)

    def render_png(self, path: str | os.PathLike[str], index: int = -1, *, scale: int = 48) -> Path:
        return sim_render.write_png(path, self.render_image(index, scale=scale))

    def render_ansi(self, index: int = -1) -> str:
        """The board with its LEDs as text with ANSI truecolour escapes."""
        return sim_render.board_ansi(self._frame(index).rgb, self._need_layout())

    def _need_layout(self) -> Layout:
        if self.layout is None:
            raise LedError("drawing the simulated strip needs its layout")
        return self.layout


# --------------------------------------------------------------------------- factory

BACKENDS = ("sim", "ws281x", "pio")


def open_strip(config: Mapping[str, Any] | None, layout: Layout, settings: ColourSettings | None = None) -> LedStrip:
    """The strip named by ``config["backend"]`` (``sim`` when absent), sized from the layout.

    ``config`` is the ``[leds]`` table: colour-pipeline keys (``order``,
    ``gamma``, ``max_level``, ``brightness``, ``supply_ma``, ...) build the
    :class:`ColourSettings` unless ``settings`` is given; the other keys go to
    the backend (``pin``, ``dma``, ``channel`` for ws281x; ``path``,
    ``passthrough`` for pio). An unavailable backend is an error, never a
    silent switch to the simulator.
    """
    config = dict(config or {})
    pipeline_keys = {f.name for f in fields(ColourSettings)}
    pipeline = {k: config.pop(k) for k in list(config) if k in pipeline_keys}
    if settings is None:
        settings = ColourSettings.from_config(pipeline)
    backend = str(config.pop("backend", "sim"))
    try:
        if backend == "sim":
            return SimStrip(layout.count, settings, layout=layout, **config)
        if backend == "ws281x":
            return Ws281xStrip(layout.count, settings, **config)
        if backend == "pio":
            return PioStrip(layout.count, settings, **config)
    except TypeError as exc:
        raise ConfigError(f"bad options for the {backend} LED backend: {exc}") from None
    raise ConfigError(f"unknown LED backend {backend!r}; use one of {', '.join(BACKENDS)}")


__all__ = [
    "BACKENDS",
    "DRIVER_GAMMA",
    "LedDriverWarning",
    "LedError",
    "LedStrip",
    "PioStrip",
    "SimStrip",
    "Ws281xStrip",
    "kernel_version",
    "open_strip",
]
