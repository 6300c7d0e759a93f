"""The sixth renderer's light and table: light set-ups, glare, LED squares, table materials.

Day set-ups: a warm desk lamp (point light, hard shadows, a glare spot where it mirrors in the
glossy board), an overcast window (soft directional light, strong cool ambient), mixed colour
temperatures (warm lamp + cool window), or a neutral ceiling light. The companion's LEDs light a
few squares in colour. Night: a darkened room, a dim red LED spill from one side, a faint cool
ambient; the glow-in-the-dark print is added by the caller.
"""

from __future__ import annotations

import cv2
import numpy as np

from tests.support.sixth_render_art import noise
from tests.support.sixth_render_sdf import Light

WARM = np.array([0.55, 0.78, 1.0], np.float32)  # BGR
COOL = np.array([1.0, 0.93, 0.84], np.float32)
NEUTRAL = np.array([0.95, 0.97, 1.0], np.float32)


def lights_for(rng: np.random.Generator, centre: np.ndarray, night: bool) -> tuple[list[Light], np.ndarray, str]:
    """(lights, ambient BGR, set-up name) for one frame."""
    if night:
        ang = rng.uniform(0, 2 * np.pi)
        pos = np.array(
            [
                centre[0] + np.cos(ang) * rng.uniform(15, 30),
                centre[1] + np.sin(ang) * rng.uniform(15, 30),
                rng.uniform(3, 10),
            ],
            np.float32,
        )
        red = Light(np.array([0.0015, 0.0025, 0.02], np.float32) * rng.uniform(0.5, 1.5), pos=pos, softness=8.0)
        return [red], np.array([0.0006, 0.0005, 0.0004], np.float32) * rng.uniform(0.5, 1.5), "night"
    setup = str(rng.choice(["lamp", "window", "mixed", "ceiling"]))

    def lamp(colour: np.ndarray, power: float) -> Light:
        ang = rng.uniform(0, 2 * np.pi)
        horiz = rng.uniform(15, 55)
        pos = np.array(
            [centre[0] + np.cos(ang) * horiz, centre[1] + np.sin(ang) * horiz, rng.uniform(40, 90)], np.float32
        )
        return Light(colour * power, pos=pos, softness=float(rng.uniform(12, 40)))

    def window(colour: np.ndarray, power: float) -> Light:
        ang = rng.uniform(0, 2 * np.pi)
        elev = np.radians(rng.uniform(30, 65))
        d = np.array([np.cos(ang) * np.cos(elev), np.sin(ang) * np.cos(elev), np.sin(elev)], np.float32)
        return Light(colour * power, direction=d, softness=float(rng.uniform(1.5, 5)))

    if setup == "lamp":
        return [lamp(WARM, rng.uniform(0.9, 1.3))], WARM * rng.uniform(0.12, 0.3) + COOL * 0.05, setup
    if setup == "window":
        return [window(COOL, rng.uniform(0.5, 0.8))], COOL * rng.uniform(0.35, 0.6), setup
    if setup == "mixed":
        return (
            [lamp(WARM, rng.uniform(0.6, 1.0)), window(COOL, rng.uniform(0.3, 0.5))],
            COOL * rng.uniform(0.2, 0.35),
            setup,
        )
    return [lamp(NEUTRAL, rng.uniform(0.7, 1.0))], NEUTRAL * rng.uniform(0.3, 0.45), setup


def plane_light(lights: list[Light], ambient: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Irradiance (BGR) on the horizontal plane at points (N, 3), without shadows."""
    out = np.broadcast_to(ambient, (pts.shape[0], 3)).astype(np.float32).copy()
    for light in lights:
        to_l, _, fall = light.to_light(pts)
        out += (np.clip(to_l[:, 2], 0, 1) * fall)[:, None] * light.colour
    return out


def glare(
    light: Light, cam_pos: np.ndarray, z: float, X: np.ndarray, Y: np.ndarray, rng: np.random.Generator
) -> np.ndarray | None:
    """The lamp's mirror image in the glossy board: a soft bright blob (BGR radiance) or ``None``."""
    if light.pos is None:
        return None
    mirror = light.pos.copy()
    mirror[2] = 2 * z - mirror[2]
    t = (z - cam_pos[2]) / (mirror[2] - cam_pos[2])
    g = cam_pos + t * (mirror - cam_pos)
    sigma = rng.uniform(1.0, 3.5)
    d2 = (X - g[0]) ** 2 + (Y - g[1]) ** 2
    blob = np.exp(-d2 / (2 * sigma * sigma)).astype(np.float32)
    return blob[..., None] * light.colour * float(rng.uniform(0.3, 1.4))


def leds(rng: np.random.Generator, tile_cm: float, X: np.ndarray, Y: np.ndarray, night: bool) -> np.ndarray | None:
    """Coloured light on a few squares from the companion's LEDs (BGR radiance) or ``None``."""
    n = int(rng.integers(0, 4)) if not night else int(rng.integers(0, 3))
    if n == 0:
        return None
    out = np.zeros((*X.shape, 3), np.float32)
    palette = [(0.1, 1.0, 0.1), (1.0, 0.3, 0.05), (0.1, 0.1, 1.0), (1.0, 1.0, 1.0), (1.0, 0.1, 1.0), (1.0, 1.0, 0.1)]
    for _ in range(n):
        r, c = rng.integers(0, 7, 2)
        cx, cy = (c + 0.5) * tile_cm, (r + 0.5) * tile_cm
        sigma = tile_cm * rng.uniform(0.25, 0.45)
        blob = np.exp(-((X - cx) ** 2 + (Y - cy) ** 2) / (2 * sigma * sigma)).astype(np.float32)
        colour = np.array(palette[int(rng.integers(0, len(palette)))], np.float32)
        out += blob[..., None] * colour * float(rng.uniform(0.05, 0.25) if not night else rng.uniform(0.01, 0.04))
    return out


def table(rng: np.random.Generator, X: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """Table albedo (BGR 0..255 float32) at world points: wood, cloth, stone or a dark plain top."""
    kind = str(rng.choice(["wood", "wood", "cloth", "marble", "dark", "check"]))
    # non-repeating noise over the whole visible table (400 cm square, 2 px per cm)
    n = 800
    grid = noise(rng, n, n, 40.0, 3)
    fine = noise(rng, n, n, 200.0, 2)

    def sample(tex: np.ndarray, scale: float) -> np.ndarray:
        """``tex`` over the table, stretched ``scale`` times (bigger features)."""
        mx = ((X / scale + 200.0) * 2.0).astype(np.float32)
        my = ((Y / scale + 200.0) * 2.0).astype(np.float32)
        return cv2.remap(tex, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)

    ang = rng.uniform(0, np.pi)
    u = X * np.cos(ang) + Y * np.sin(ang)
    if kind == "wood":
        base = np.array([rng.uniform(30, 90), rng.uniform(70, 130), rng.uniform(110, 190)], np.float32)
        warp = sample(grid, 1.5) * 6
        rings = 0.5 + 0.5 * np.sin((u + warp) * rng.uniform(1.5, 4.0))
        plank = (np.floor((X * -np.sin(ang) + Y * np.cos(ang)) / rng.uniform(10, 20)) % 3) * 0.06
        f = 0.75 + 0.3 * rings + plank
        return base * f[..., None]
    if kind == "cloth":
        base = rng.uniform(40, 220, 3).astype(np.float32)
        weave = 0.92 + 0.08 * np.sin(X * 25) * np.sin(Y * 25)
        return base * (weave * (0.85 + 0.3 * sample(grid, 1.0)))[..., None]
    if kind == "marble":
        base = np.full(3, rng.uniform(170, 230), np.float32)
        vein = np.abs(np.sin((u + sample(grid, 1.0) * 20) * 0.4)) ** 0.2
        return base * (0.7 + 0.3 * vein)[..., None]
    if kind == "check":
        a, b = rng.uniform(30, 230, 3).astype(np.float32), np.full(3, 225, np.float32)
        size = rng.uniform(2.5, 6.0)
        chk = ((np.floor(X / size) + np.floor(Y / size)) % 2).astype(np.float32)
        return a * chk[..., None] + b * (1 - chk[..., None])
    base = rng.uniform(15, 60, 3).astype(np.float32)
    return base * (0.9 + 0.2 * sample(fine, 1.0))[..., None]
