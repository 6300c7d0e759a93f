"""The LED colour pipeline, in one function: :func:`apply_pipeline`.

Every byte sent to a strip goes through here, whatever the backend, so the
rules that protect eyes, power supplies and glow-in-the-dark pieces hold in
one place and are tested byte for byte (``tests/data/leds/``).

Steps, in order (each one documented where it happens):

1. **user brightness** (0..1) scales the requested colours linearly, in the
   perceptual domain, before gamma, so "half brightness" looks half as bright;
2. **gamma** (default 2.2): WS2812 PWM is linear in light, eyes are not;
3. **global brightness cap**: the largest byte any channel may reach
   (scaling, not clipping, so hues survive);
4. **night cap** (glow phase): the scale is shrunk so that ``max_level``
   becomes ``night_max`` (16 at most, about 6 %), then blue is 0 and green
   at most half of red (red/amber only);
5. **current budget**: estimate ``Σ(r+g+b)/765 × 55 mA + 1 mA idle per LED``
   and scale all LEDs down together until it fits the supply limit;
6. **colour order**: the bytes in the strip's wire order (``GRB`` for
   WS2812B).

Steps 1–5 produce the RGB bytes the LEDs will really show
(:attr:`PipelineResult.rgb`); step 6 only reorders them
(:attr:`PipelineResult.data`).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from companion.config import settings_from_table
from companion.errors import ConfigError

RGB = tuple[int, int, int]

#: The hard ceiling of the night cap: glow pieces must stay visible.
NIGHT_MAX_LIMIT = 16
COLOUR_ORDERS = frozenset("".join(p) for p in itertools.permutations("RGB"))


@dataclass(frozen=True)
class ColourSettings:
    """Settings of the pipeline, with documented defaults.

    ``max_level`` 128 keeps a 61-LED board comfortable beside a game and, even
    all white, inside a 2 A supply (61 × 55 mA × 128/255 + 61 mA ≈ 1.75 A).
    """

    order: str = "GRB"
    gamma: float = 2.2
    max_level: int = 128
    brightness: float = 1.0
    supply_ma: float = 2000.0
    ma_per_led: float = 55.0
    idle_ma_per_led: float = 1.0
    night_max: int = NIGHT_MAX_LIMIT

    def __post_init__(self) -> None:
        order = str(self.order).upper()
        if order not in COLOUR_ORDERS:
            raise ConfigError(f"LED colour order {self.order!r} must be a permutation of RGB, e.g. 'GRB'")
        object.__setattr__(self, "order", order)
        checks = (
            ("gamma", 0.5 <= self.gamma <= 4.0, "between 0.5 and 4"),
            ("max_level", 0 <= self.max_level <= 255, "0..255"),
            ("brightness", 0.0 <= self.brightness <= 1.0, "between 0 and 1"),
            ("supply_ma", self.supply_ma > 0, "positive"),
            ("ma_per_led", self.ma_per_led > 0, "positive"),
            ("idle_ma_per_led", self.idle_ma_per_led >= 0, "0 or more"),
            ("night_max", 0 <= self.night_max <= NIGHT_MAX_LIMIT, f"0..{NIGHT_MAX_LIMIT}"),
        )
        for name, ok, expected in checks:
            if not ok:
                raise ConfigError(f"LED setting {name} = {getattr(self, name)!r} must be {expected}")

    @classmethod
    def from_config(cls, data: Mapping[str, Any] | None) -> ColourSettings:
        """Build from a config table (``[leds]`` in TOML); unknown keys are an error."""
        return settings_from_table(cls, data, "LED")


@dataclass(frozen=True)
class PipelineResult:
    """One frame after the pipeline.

    ``rgb``: ``(n, 3)`` uint8 array of what each LED shows, in RGB order.
    ``data``: the same bytes in the strip's wire order, 3 per LED.
    ``current_ma``: the estimated supply current of this frame.
    ``scaled``: True when the current budget had to dim the frame.
    """

    rgb: np.ndarray
    data: bytes
    current_ma: float
    scaled: bool

    def as_lists(self) -> list[list[int]]:
        return self.rgb.astype(int).tolist()


@lru_cache(maxsize=16)
def gamma_table(gamma: float) -> np.ndarray:
    """``round(255 * (i/255) ** gamma)`` for i in 0..255, as float64 (256 entries)."""
    i = np.arange(256, dtype=np.float64)
    table = np.round(255.0 * (i / 255.0) ** gamma)
    table.flags.writeable = False
    return table


def estimate_current_ma(rgb: np.ndarray | Sequence[Sequence[int]], settings: ColourSettings) -> float:
    """Supply current of a frame: ``Σ(r+g+b)/765 × ma_per_led + idle_ma_per_led × n``."""
    arr = np.asarray(rgb, dtype=np.float64).reshape(-1, 3)
    return float(arr.sum() / 765.0 * settings.ma_per_led + settings.idle_ma_per_led * len(arr))


def _as_array(colours: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
    arr = np.asarray(colours, dtype=np.float64)
    if arr.size == 0:
        return arr.reshape(0, 3)
    if arr.ndim != 2 or arr.shape[1] != 3:
        raise ValueError(f"LED colours must be a list of (r, g, b), got an array of shape {arr.shape}")
    if not np.isfinite(arr).all():
        raise ValueError("LED colours must be finite numbers")
    return np.clip(arr, 0.0, 255.0)


def apply_pipeline(
    colours: Sequence[Sequence[float]] | np.ndarray,
    settings: ColourSettings,
    *,
    night: bool = False,
) -> PipelineResult:
    """Turn requested colours (RGB, 0..255, one per LED) into the bytes to send.

    The one place where colour order, gamma, brightness, the night cap and the
    current budget are applied (see the module docstring for the order).
    """
    arr = _as_array(colours)
    # 1. user brightness, linear in the perceptual (pre-gamma) domain
    arr = arr * settings.brightness
    # 2. gamma through a 256-entry table on the rounded input (exact, cacheable bytes)
    table = gamma_table(settings.gamma)
    out = table[np.rint(arr).astype(np.int64)]
    # 3. global cap: scale so 255 maps to max_level (keeps hue)
    out = np.floor(out * settings.max_level / 255.0 + 0.5)
    # 4. night: red/amber only and very dim
    if night:
        # full scale (max_level) maps to night_max, so user brightness and pulses still dim;
        # floor and the clip keep every byte at or under the cap
        factor = settings.night_max / settings.max_level if settings.max_level else 0.0
        out = np.minimum(np.floor(out * factor + 1e-9), settings.night_max)
        out[:, 2] = 0.0
        out[:, 1] = np.minimum(out[:, 1], np.floor(out[:, 0] / 2.0))
    # 5. current budget: scale everything down together (floor keeps the estimate under the limit)
    scaled = False
    idle = settings.idle_ma_per_led * len(out)
    dynamic = out.sum() / 765.0 * settings.ma_per_led
    if idle + dynamic > settings.supply_ma:
        scaled = True
        room = max(settings.supply_ma - idle, 0.0)
        out = np.floor(out * (room / dynamic))
    rgb = out.astype(np.uint8)
    # 6. wire order
    index = ["RGB".index(ch) for ch in settings.order]
    data = rgb[:, index].tobytes()
    return PipelineResult(rgb=rgb, data=data, current_ma=estimate_current_ma(rgb, settings), scaled=scaled)


def night_ok(rgb: np.ndarray | Sequence[Sequence[int]], night_max: int = NIGHT_MAX_LIMIT) -> bool:
    """True when a frame obeys the night limits (blue 0, green ≤ red/2, every byte ≤ night_max)."""
    arr = np.asarray(rgb, dtype=np.int64).reshape(-1, 3)
    return bool(
        (arr[:, 2] == 0).all() and (2 * arr[:, 1] <= arr[:, 0]).all() and (arr <= night_max).all()
    )


__all__ = [
    "NIGHT_MAX_LIMIT",
    "RGB",
    "ColourSettings",
    "PipelineResult",
    "apply_pipeline",
    "estimate_current_ma",
    "gamma_table",
    "night_ok",
]
