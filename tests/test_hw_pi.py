"""Real-hardware checks, run on a Raspberry Pi with ``pytest -m pi``; skipped elsewhere.

They light real LEDs and open the real camera, so a person should watch:
the strip shows the self-test chase, then goes dark.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

from hardware.layout import preset
from hardware.painter import Painter

pytestmark = pytest.mark.pi

LEDS = Path(os.environ.get("LABYRINTH_LEDS_DEVICE", "/dev/leds0"))


@pytest.mark.skipif(not LEDS.exists(), reason=f"no Pi 5 LED device {LEDS}")
def test_real_pio_strip_self_test() -> None:
    from hardware.leds import PioStrip

    layout = preset("grid49+gates12")
    painter = Painter(layout, clock=lambda: 0.0)
    painter.start_self_test(now=0.0)
    with PioStrip(layout.count, path=LEDS) as strip:
        t = 0.0
        while t < painter.self_test_s:
            strip.show(painter.frame(t).colours)
            t += 0.1
    assert strip.closed


@pytest.mark.skipif(importlib.util.find_spec("picamera2") is None, reason="picamera2 is not installed")
def test_real_pi_camera_day_and_night() -> None:
    from hardware.picam import Picamera2Camera

    with Picamera2Camera(size=(1640, 1232)) as cam:
        day = cam.capture()
        assert day.shape == (1232, 1640, 3)
        assert cam.locked["ExposureTime"] > 0
        cam.set_mode("night")
        night = cam.capture()
        assert night.shape == day.shape
