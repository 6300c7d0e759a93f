"""Third held-out renderer: procedural textures (noise, bricks, wood, grass, halftone).

All functions return float32 RGB images in 0..1 (sRGB) of shape (n, n, 3) unless
noted. They are cheap: multi-octave value noise made by resizing small random grids.
"""

from __future__ import annotations

import cv2
import numpy as np


def noise(rng: np.random.Generator, h: int, w: int, cell: float, octaves: int = 3) -> np.ndarray:
    """Value noise in about -1..1 with features of ``cell`` pixels."""
    out = np.zeros((h, w), np.float32)
    amp, total = 1.0, 0.0
    for _ in range(octaves):
        gh, gw = max(2, int(h / max(cell, 1)) + 2), max(2, int(w / max(cell, 1)) + 2)
        g = rng.standard_normal((gh, gw)).astype(np.float32)
        out += amp * cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC)
        total += amp
        amp *= 0.5
        cell /= 2.2
    return out / total


def _mix(a, b, t):
    t = np.clip(t, 0, 1)[..., None]
    return np.asarray(a, np.float32) * (1 - t) + np.asarray(b, np.float32) * t


def bricks(rng, n, bw, bh, c_stone, c_mortar, vary=0.15, mortar=0.08):
    y, x = np.mgrid[:n, :n].astype(np.float32)
    row = np.floor(y / bh)
    xs = x + (row % 2) * bw * 0.5 + row * 7.3
    col = np.floor(xs / bw)
    fy, fx = y / bh - row, xs / bw - col
    ids = ((row * 73856093 + col * 19349663) % 1024).astype(np.int32)
    tint = rng.uniform(1 - vary, 1 + vary, (1024, 3)).astype(np.float32)
    stone = np.asarray(c_stone, np.float32) * tint[ids]
    edge = np.minimum(np.minimum(fx, 1 - fx) * bw / bh, np.minimum(fy, 1 - fy))
    m = np.clip((edge - mortar * 0.5) / (mortar * 0.6), 0, 1)
    img = _mix(c_mortar, stone, m)
    return img * (1 + 0.12 * noise(rng, n, n, bh * 0.6, 2))[..., None]


def wood(rng, n, c_light, c_dark, freq):
    y, x = np.mgrid[:n, :n].astype(np.float32)
    # grain stretched along x: noise varies slowly along the planks, quickly across them
    small = rng.standard_normal((max(2, n // 40), 6)).astype(np.float32)
    warp = cv2.resize(small, (n, n), interpolation=cv2.INTER_CUBIC) * 1.5 + noise(rng, n, n, n / 10, 2) * 0.3
    grain = 0.5 + 0.5 * np.sin((y / n * freq + warp) * np.pi)
    planks = (np.floor(x / (n / 3.0)) % 2) * 0.08
    fine = noise(rng, n, n, 3, 1) * 0.08
    img = _mix(c_light, c_dark, grain**2.5 * 0.8 + planks + fine)
    return img


def grass(rng, n, c_base, c_tip):
    blades = cv2.GaussianBlur(rng.standard_normal((n, n)).astype(np.float32), (0, 0), sigmaX=0.6, sigmaY=2.2)
    patch = noise(rng, n, n, n / 6, 3)
    return _mix(c_base, c_tip, 0.5 + 0.9 * blades + 0.5 * patch)


def speckle(rng, n, c_a, c_b, cell, grain=0.15):
    t = 0.5 + 0.6 * noise(rng, n, n, cell, 4)
    img = _mix(c_a, c_b, t)
    return img * (1 + grain * rng.standard_normal((n, n, 1)).astype(np.float32))


def halftone(n, period, amount):
    y, x = np.mgrid[:n, :n].astype(np.float32)
    dots = np.sin(x * 2 * np.pi / period + y * 0.7) * np.sin(y * 2 * np.pi / period - x * 0.7)
    return (1 - amount * (0.5 + 0.5 * dots))[..., None]


def polka(rng, n, c_bg, c_dot, radius, count):
    img = np.ones((n, n, 3), np.float32) * np.asarray(c_bg, np.float32)
    u8 = (img * 255).astype(np.uint8)
    col = tuple(int(v * 255) for v in c_dot)
    for _ in range(count):
        cx, cy = (int(v) for v in rng.integers(0, n, 2))
        r = int(radius * rng.uniform(0.6, 1.3))
        cv2.circle(u8, (cx, cy), r, col, -1, cv2.LINE_AA)
    return u8.astype(np.float32) / 255


def leaves(rng, n, c_dark, c_light, cell):
    t = noise(rng, n, n, cell, 3)
    blobs = (np.sin(t * 9) * 0.5 + 0.5) ** 2
    return _mix(c_dark, c_light, blobs * 0.9 + 0.15 * noise(rng, n, n, 2.5, 1))


def hue_shift(img: np.ndarray, degrees: float, sat: float = 1.0) -> np.ndarray:
    hsv = cv2.cvtColor(np.clip(img, 0, 1).astype(np.float32), cv2.COLOR_RGB2HSV)
    hsv[..., 0] = (hsv[..., 0] + degrees) % 360
    hsv[..., 1] = np.clip(hsv[..., 1] * sat, 0, 1)
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB)


def style_atlases(rng: np.random.Generator, style: dict, n: int, night: bool) -> tuple[np.ndarray, np.ndarray, tuple]:
    """(wall texture, corridor texture, outline colour) of an artwork style, RGB 0..1, n x n."""
    name = style["name"]
    tp = n / 2.5  # about one tile
    if name == "stone_grass":
        wall = grass(rng, n, (0.16, 0.36, 0.10), (0.45, 0.62, 0.22))
        corr = bricks(rng, n, tp * 0.22, tp * 0.14, (0.66, 0.62, 0.55), (0.35, 0.33, 0.30))
        line = (0.2, 0.2, 0.18)
    elif name == "photo_noise":
        wall = speckle(rng, n, (0.30, 0.26, 0.16), (0.42, 0.48, 0.28), tp * 0.4, 0.22)
        corr = speckle(rng, n, (0.80, 0.72, 0.55), (0.62, 0.55, 0.42), tp * 0.25, 0.18)
        line = (0.15, 0.12, 0.08)
    elif name == "wood_slate":
        wall = speckle(rng, n, (0.14, 0.16, 0.19), (0.26, 0.28, 0.31), tp * 0.15, 0.10)
        corr = wood(rng, n, (0.78, 0.55, 0.32), (0.42, 0.24, 0.12), rng.uniform(8, 20))
        line = (0.08, 0.06, 0.05)
    elif name == "pale_print":
        wall = speckle(rng, n, (0.66, 0.72, 0.58), (0.74, 0.78, 0.64), tp * 0.5, 0.03) * halftone(n, 5.0, 0.06)
        corr = speckle(rng, n, (0.92, 0.89, 0.80), (0.88, 0.86, 0.78), tp * 0.5, 0.02) * halftone(n, 5.0, 0.04)
        line = (0.62, 0.62, 0.55)
    elif name == "cartoon":
        hue = rng.choice([(0.15, 0.70, 0.25), (0.10, 0.62, 0.62), (0.52, 0.30, 0.72), (0.85, 0.35, 0.25)])
        dot = np.clip(np.array(hue) * 1.35 + 0.1, 0, 1)
        wall = polka(rng, n, hue, dot, tp * 0.06, int(rng.integers(20, 90)))
        corr = np.ones((n, n, 3), np.float32) * np.asarray(
            rng.choice([(0.98, 0.93, 0.62), (0.97, 0.97, 0.92), (0.99, 0.82, 0.55)]), np.float32
        )
        line = (0.06, 0.05, 0.10)
    elif name == "night_castle":
        wall = bricks(rng, n, tp * 0.3, tp * 0.15, (0.24, 0.20, 0.30), (0.10, 0.08, 0.12), 0.2, 0.12)
        corr = bricks(rng, n, tp * 0.35, tp * 0.35, (0.36, 0.40, 0.48), (0.20, 0.22, 0.28), 0.12, 0.06)
        line = (0.55, 0.50, 0.35)
    else:  # hedge
        wall = leaves(rng, n, (0.06, 0.22, 0.07), (0.22, 0.48, 0.14), tp * 0.2)
        corr = speckle(rng, n, (0.72, 0.56, 0.30), (0.60, 0.44, 0.22), tp * 0.2, 0.12)
        line = (0.30, 0.20, 0.10)
    if night:  # glow editions print the walls in a pale phosphor paint
        wall = _mix(wall, (0.78, 0.85, 0.62), 0.55)
        corr = corr * 0.55
    shift = style["hue_shift"]
    return hue_shift(wall, shift), hue_shift(corr, shift * 0.5), line
