"""Pawn colours: the uncalibrated hue ranges, hue masks, and the per-colour model learned at setup.

Uncalibrated hue ranges work for the four colours; calibration narrows them
(``calibration.json`` ``pawn_colors``, see :mod:`vision.pawns`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.board import Color

#: Uncalibrated OpenCV hue ranges (0..180) per colour; red wraps around 0. Yellow reaches
#: far toward green (a bluish colour cast turns a yellow pawn lime), not toward orange
#: (ochre and sand artwork); purple/magenta belong to no pawn.
HUE_RANGES: dict[Color, tuple[tuple[int, int], ...]] = {
    Color.RED: ((0, 10), (165, 180)),
    Color.YELLOW: ((17, 42),),
    Color.GREEN: ((43, 88),),
    Color.BLUE: ((92, 135),),
}


@dataclass(frozen=True)
class ColourModel:
    """Per-colour mean Lab of the pawns, learned at calibration."""

    lab: Mapping[Color, tuple[float, float, float]]

    @classmethod
    def from_calibration(cls, calibration: Mapping[str, Any] | None) -> ColourModel | None:
        """The model in ``calibration["pawn_colors"]``, or None when absent or malformed."""
        raw = (calibration or {}).get("pawn_colors")
        if not isinstance(raw, Mapping):
            return None
        lab: dict[Color, tuple[float, float, float]] = {}
        for key, value in raw.items():
            try:
                color = Color(key)
                values = value["lab"] if isinstance(value, Mapping) else value
                triple = tuple(float(v) for v in values)
            except (ValueError, TypeError, KeyError):
                continue
            if len(triple) == 3 and all(math.isfinite(v) for v in triple):
                lab[color] = triple  # type: ignore[assignment]
        return cls(lab) if lab else None

    def to_calibration(self) -> dict[str, Any]:
        return {"pawn_colors": {str(c): {"lab": [round(v, 1) for v in lab]} for c, lab in self.lab.items()}}

    def hue_ranges(self, base: Mapping[Color, tuple[tuple[int, int], ...]], tolerance: int) -> dict:
        """``base`` with each calibrated colour's range replaced by its learned hue ± ``tolerance``."""
        out = dict(base)
        for color, lab in self.lab.items():
            pixel = np.clip(np.array([[lab]], dtype=np.float32), 0, 255).astype(np.uint8)
            hue = int(cv2.cvtColor(cv2.cvtColor(pixel, cv2.COLOR_Lab2BGR), cv2.COLOR_BGR2HSV)[0, 0, 0])
            lo, hi = hue - tolerance, hue + tolerance
            if lo < 0:
                out[color] = ((0, hi), (180 + lo, 180))
            elif hi > 180:
                out[color] = ((lo, 180), (0, hi - 180))
            else:
                out[color] = ((lo, hi),)
        return out


def hue_only(h: np.ndarray, ranges: Iterable[tuple[int, int]]) -> np.ndarray:
    """Pixels whose OpenCV hue ``h`` lies in one of ``ranges`` (inclusive)."""
    hue = np.zeros(h.shape, dtype=bool)
    for lo, hi in ranges:
        hue |= (h >= lo) & (h <= hi)
    return hue


def hue_mask(hsv: np.ndarray, ranges: Iterable[tuple[int, int]], min_saturation: int, min_value: int) -> np.ndarray:
    """Pixels of a pawn hue that are clearly saturated and lit."""
    return hue_only(hsv[..., 0], ranges) & (hsv[..., 1] >= min_saturation) & (hsv[..., 2] >= min_value)
