"""No hardware module may import a Pi driver at import time (they crash or are absent off-Pi)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = r"""
import importlib, pkgutil, sys

class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("picamera2", "rpi_ws281x", "libcamera"):
            raise ImportError(f"blocked: {name}")
        return None

sys.meta_path.insert(0, Block())
import hardware
names = sorted(m.name for m in pkgutil.walk_packages(hardware.__path__, "hardware."))
for name in names:
    importlib.import_module(name)
assert not any(n.split(".")[0] in ("picamera2", "rpi_ws281x") for n in sys.modules), "a Pi driver got imported"
print(" ".join(names))
"""


def test_hardware_modules_import_without_pi_drivers() -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    imported = done.stdout.split()
    for module in ("hardware.camera", "hardware.leds", "hardware.buttons", "hardware.painter", "hardware.cli"):
        assert module in imported
