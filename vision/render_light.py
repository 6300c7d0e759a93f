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
from vision.render_camera import Camera

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
    emitter: bool = False  # the LED itself is in view (a small bright dot)


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
    band: tuple[float, float, float, float, float, float] | None = None  # x, y, angle, half width, edge, depth
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
    # Where the maker put the LEDs: under a translucent overlay (a pool on the square), at a
    # corner of each square or beside it (a visible emitter and a pool around it).
    mode = str(rng.choice(["under", "corner", "side"], p=[0.5, 0.25, 0.25]))
    corner = (int(rng.integers(0, 2)), int(rng.integers(0, 2)))
    side = int(rng.integers(0, 4))
    visible = mode != "under" and rng.random() < 0.7
    spots = []
    squares = rng.choice(SIZE * SIZE, size=count, replace=False)
    for i in squares:
        r, c = divmod(int(i), SIZE)
        if mode == "under":
            x, y = c + 0.5 + rng.normal(0, 0.05), r + 0.5 + rng.normal(0, 0.05)
        elif mode == "corner":
            x, y = c + corner[0], r + corner[1]
        else:
            dx, dy = ((0, -0.5), (0.5, 0), (0, 0.5), (-0.5, 0))[side]
            x, y = c + 0.5 + dx, r + 0.5 + dy
        strength = rng.uniform(0.05, 0.25) if night else rng.uniform(0.15, 0.7)
        spots.append(LedSpot(x, y, color, strength, rng.uniform(0.22, 0.45), visible))
    return spots


def random_lighting(rng: np.random.Generator, night: bool, leds: int | None = None) -> Lighting:
    """Room light for a day scene or a darkened-room night scene."""
    az = rng.uniform(0, 2 * math.pi)
    length = rng.uniform(0.15, 0.8)
    light_dir = (length * math.cos(az), length * math.sin(az))
    if night:
        amb = rng.uniform(0.02, 0.07)
        cast = (rng.uniform(1.0, 1.4), rng.uniform(0.85, 1.1), rng.uniform(0.6, 0.9))
        glow_level = rng.uniform(45.0, 110.0)
        hue = rng.uniform(-0.1, 0.1)
        glow = (glow_level * (0.5 + hue), glow_level, glow_level * (0.45 - hue))
        return Lighting(
            night=True, exposure=amb, cast=cast, gradient=(rng.uniform(0, 0.5), rng.uniform(0, 2 * math.pi), 0.0),
            spot=(rng.uniform(0, 1), rng.uniform(0, 1), rng.uniform(0.3, 0.8), rng.uniform(0, 1.0)),
            vignette=rng.uniform(0.2, 0.5), shade=None, leds=led_spots(rng, True, leds), glow=glow,
            light_dir=light_dir,
        )  # fmt: skip
    warm = rng.uniform(-1, 1) * (1.7 if rng.random() < 0.3 else 1.0)  # sometimes a strong tungsten/shade cast
    cast = (1.0 - 0.14 * warm + rng.normal(0, 0.03), 1.0 + rng.normal(0, 0.03), 1.0 + 0.14 * warm + rng.normal(0, 0.03))
    shade = None
    if rng.random() < 0.4:
        x, y = rng.uniform(-1, 8, 2)
        shade = (x, y, rng.uniform(1.5, 5), rng.uniform(1.5, 5), rng.uniform(0.15, 0.45))
    # auto-exposure mostly right, now and then clearly under- or over-exposed (highlights clip)
    exposure = rng.uniform(0.78, 1.12)
    if rng.random() < 0.15:
        exposure = float(rng.choice([0.58, 1.3])) * rng.uniform(0.95, 1.05)
    band = None
    if rng.random() < 0.2:  # the shadow of the camera arm or a lamp post across the board
        band = (rng.uniform(0, 7), rng.uniform(0, 7), rng.uniform(0, math.pi), rng.uniform(0.2, 0.8),
                rng.uniform(0.05, 0.4), rng.uniform(0.15, 0.45))  # fmt: skip
    glare = None
    if rng.random() < 0.3:
        glare = (rng.uniform(0, 7), rng.uniform(0, 7), rng.uniform(0.4, 1.5), rng.uniform(15, 70))
    return Lighting(
        night=False, exposure=exposure, cast=cast, glare=glare, band=band,
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
        ramp = ramp * (1.0 - depth / (1.0 + np.exp(np.minimum((d - 1.0) * 4.0, 60.0))))
    if lt.band is not None:
        x, y, ang, half, edge, depth = lt.band
        across = np.abs((world[:, :, 0] - x) * -math.sin(ang) + (world[:, :, 1] - y) * math.cos(ang))
        ramp = ramp * (1.0 - depth * np.clip((half + edge / 2 - across) / edge, 0, 1))
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


def draw_emitters(photo: np.ndarray, cam: Camera, lt: Lighting, hand_mask: np.ndarray | None) -> None:
    """Add the visible LEDs themselves: a small over-exposed dot with a coloured halo (in place, float32 BGR)."""
    spots = [s for s in lt.leds if s.emitter]
    if not spots:
        return
    h, w = photo.shape[:2]
    sigma = max(0.8, cam.pixels_per_unit() * 0.03)
    reach = math.ceil(sigma * 4)
    ys, xs = np.mgrid[-reach : reach + 1, -reach : reach + 1].astype(np.float32)
    for spot in spots:
        px, py = cam.project_plane(np.array([[spot.x, spot.y]]))[0]
        ix, iy = round(px), round(py)
        x0, y0, x1, y1 = max(0, ix - reach), max(0, iy - reach), min(w, ix + reach + 1), min(h, iy + reach + 1)
        if x1 <= x0 or y1 <= y0:
            continue
        d2 = (xs - (px - ix)) ** 2 + (ys - (py - iy)) ** 2
        blob = np.exp(-d2 / (2 * sigma * sigma))[y0 - iy + reach : y1 - iy + reach, x0 - ix + reach : x1 - ix + reach]
        if hand_mask is not None:
            blob = blob * (1.0 - hand_mask[y0:y1, x0:x1].astype(np.float32) / 255.0)
        add = blob[:, :, None] * (np.array(spot.color, np.float32) * 420.0 * spot.strength)
        add += (blob**4)[:, :, None] * (180.0 * spot.strength)
        photo[y0:y1, x0:x1] += add
