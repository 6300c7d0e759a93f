"""Scene lighting for the renderer: room light, colour casts, shadows, LED spill, night glow.

Light is a smooth per-pixel multiplier (``photo = albedo * light + glow``) that
is evaluated on the coarse camera grid (in table coordinates for things lying
on the table, in image coordinates for the lens) and upsampled, so uneven light
costs almost nothing at full resolution. The companion's LEDs light squares in
coloured pools; in the night look the room is dark, glow-in-the-dark paint
emits faint green and the LEDs give a dim red/amber spill.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from companion.board import SIZE

LED_COLORS: dict[str, tuple[float, float, float]] = {
    "red": (0.12, 0.18, 1.0),
    "yellow": (0.15, 0.85, 1.0),
    "green": (0.25, 1.0, 0.2),
    "blue": (1.0, 0.45, 0.1),
    "white": (0.9, 0.95, 1.0),
    "amber": (0.05, 0.45, 1.0),
    "purple": (1.0, 0.2, 0.8),
}


@dataclass(frozen=True)
class LedSpot:
    """A pool of LED light on the table, centred at ``(x, y)`` tile units."""

    x: float
    y: float
    color: tuple[float, float, float]
    strength: float
    radius: float


@dataclass
class Lighting:
    """Everything that decides the light of one scene."""

    night: bool
    exposure: float
    cast: tuple[float, float, float]
    gradient: tuple[float, float, float]  # amplitude, direction (rad), offset
    spot: tuple[float, float, float, float]  # x, y (image fraction), radius (fraction), amplitude
    vignette: float
    shade: tuple[float, float, float, float, float] | None  # x, y, rx, ry (tile units), depth
    leds: list[LedSpot] = field(default_factory=list)
    glow: tuple[float, float, float] = (0.0, 0.0, 0.0)  # emission per unit of glow paint, BGR 0..255
    glare: tuple[float, float, float, float] | None = None  # x, y (tile units), radius, strength: lamp on gloss
    light_dir: tuple[float, float] = (0.4, 0.3)  # shadow offset per unit height, on the table


def led_spots(rng: np.random.Generator, night: bool, count: int | None = None) -> list[LedSpot]:
    """The companion lighting some squares (a player's reachable squares, a blinking gate...)."""
    if count is None:
        count = int(rng.integers(1, 12)) if rng.random() < (0.8 if night else 0.55) else 0
    if count == 0:
        return []
    if night:
        names = ["red", "red", "red", "amber"]
    else:
        names = ["red", "yellow", "green", "blue"] if rng.random() < 0.8 else list(LED_COLORS)
    color = LED_COLORS[str(rng.choice(names))]
    # the LEDs sit beside the squares or under them: the pool centre is on or near the square centre
    offset = rng.choice([0.0, 0.35, 0.45])
    spots = []
    squares = rng.choice(SIZE * SIZE, size=count, replace=False)
    for i in squares:
        r, c = divmod(int(i), SIZE)
        a = rng.uniform(0, 2 * math.pi)
        strength = rng.uniform(0.05, 0.25) if night else rng.uniform(0.15, 0.7)
        spots.append(LedSpot(c + 0.5 + offset * math.cos(a), r + 0.5 + offset * math.sin(a), color, strength,
                             rng.uniform(0.22, 0.45)))  # fmt: skip
    return spots


def random_lighting(rng: np.random.Generator, night: bool, leds: int | None = None) -> Lighting:
    """Room light for a day scene or a darkened-room night scene."""
    az = rng.uniform(0, 2 * math.pi)
    length = rng.uniform(0.15, 0.8)
    light_dir = (length * math.cos(az), length * math.sin(az))
    if night:
        amb = rng.uniform(0.03, 0.09)
        cast = (rng.uniform(1.0, 1.4), rng.uniform(0.85, 1.1), rng.uniform(0.6, 0.9))
        glow_level = rng.uniform(28.0, 75.0)
        hue = rng.uniform(-0.1, 0.1)
        glow = (glow_level * (0.5 + hue), glow_level, glow_level * (0.45 - hue))
        return Lighting(
            night=True, exposure=amb, cast=cast, gradient=(rng.uniform(0, 0.5), rng.uniform(0, 2 * math.pi), 0.0),
            spot=(rng.uniform(0, 1), rng.uniform(0, 1), rng.uniform(0.3, 0.8), rng.uniform(0, 1.0)),
            vignette=rng.uniform(0.2, 0.5), shade=None, leds=led_spots(rng, True, leds), glow=glow,
            light_dir=light_dir,
        )  # fmt: skip
    warm = rng.uniform(-1, 1)
    cast = (1.0 - 0.14 * warm + rng.normal(0, 0.03), 1.0 + rng.normal(0, 0.03), 1.0 + 0.14 * warm + rng.normal(0, 0.03))
    shade = None
    if rng.random() < 0.4:
        x, y = rng.uniform(-1, 8, 2)
        shade = (x, y, rng.uniform(1.5, 5), rng.uniform(1.5, 5), rng.uniform(0.15, 0.45))
    glare = None
    if rng.random() < 0.3:
        glare = (rng.uniform(0, 7), rng.uniform(0, 7), rng.uniform(0.4, 1.5), rng.uniform(15, 70))
    return Lighting(
        night=False, exposure=rng.uniform(0.78, 1.12), cast=cast, glare=glare,
        gradient=(rng.uniform(0, 0.35), rng.uniform(0, 2 * math.pi), 0.0),
        spot=(rng.uniform(0, 1), rng.uniform(0, 1), rng.uniform(0.3, 0.9), rng.uniform(0, 0.3)),
        vignette=rng.uniform(0.05, 0.35), shade=shade, leds=led_spots(rng, False, leds), light_dir=light_dir,
    )  # fmt: skip


def light_field(lt: Lighting, world: np.ndarray, u: np.ndarray, v: np.ndarray, width: int, height: int) -> np.ndarray:
    """The room's (ny, nx, 3) light multiplier on the coarse grid (``world`` = table coordinates there)."""
    fx = u / max(width - 1, 1)
    fy = v / max(height - 1, 1)
    amp, ang, _ = lt.gradient
    ramp = 1.0 + amp * ((fx - 0.5) * math.cos(ang) + (fy - 0.5) * math.sin(ang))
    sx, sy, sr, sa = lt.spot
    ramp = ramp + sa * np.exp(-((fx - sx) ** 2 + (fy - sy) ** 2) / (2 * sr * sr))
    rr = ((fx - 0.5) ** 2 + (fy - 0.5) ** 2 * (height / max(width, 1)) ** 2) / 0.5
    ramp = ramp * (1.0 - lt.vignette * rr)
    if lt.shade is not None:
        x, y, rx, ry, depth = lt.shade
        d = ((world[:, :, 0] - x) / rx) ** 2 + ((world[:, :, 1] - y) / ry) ** 2
        ramp = ramp * (1.0 - depth / (1.0 + np.exp((d - 1.0) * 4.0)))
    base = np.maximum(ramp, 0.02) * lt.exposure
    return (base[:, :, None] * np.array(lt.cast, np.float32)).astype(np.float32)


def glare_field(lt: Lighting, world: np.ndarray) -> np.ndarray | None:
    """A lamp's reflection on the glossy board (added light, 0..255 units), or None."""
    if lt.glare is None:
        return None
    x, y, r, k = lt.glare
    inside = (world[:, :, 0] > -0.3) & (world[:, :, 0] < 7.3) & (world[:, :, 1] > -0.3) & (world[:, :, 1] < 7.3)
    d2 = (world[:, :, 0] - x) ** 2 + (world[:, :, 1] - y) ** 2
    return (k * np.exp(-d2 / (2 * r * r)) * inside).astype(np.float32)


def led_field(lt: Lighting, world: np.ndarray) -> np.ndarray | None:
    """The LEDs' added light on the table (``(ny, nx, 3)`` on the coarse grid), or None when they are off."""
    if not lt.leds:
        return None
    out = np.zeros((*world.shape[:2], 3), np.float32)
    for spot in lt.leds:
        d2 = (world[:, :, 0] - spot.x) ** 2 + (world[:, :, 1] - spot.y) ** 2
        pool = spot.strength * np.exp(-d2 / (2 * spot.radius**2))
        out += pool[:, :, None].astype(np.float32) * np.array(spot.color, np.float32)
    return out
