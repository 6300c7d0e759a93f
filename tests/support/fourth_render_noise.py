"""Noise fields for the fourth renderer: smooth fractal noise and stretched brush strokes.

Everything here is a pure function of a NumPy ``Generator``, so a photo is a
function of its seed. Fields are float32 in roughly ``[-1, 1]`` and are made by
upsampling small random grids (cheap at 2000 px, and free of the regular
lattice look that plain per-pixel noise has after JPEG).
"""

from __future__ import annotations

import cv2
import numpy as np


def smooth(rng: np.random.Generator, shape: tuple[int, int], cells: float) -> np.ndarray:
    """One octave: a random grid of about ``cells`` cells across, cubic-upsampled to ``shape``."""
    h, w = shape
    gh = max(2, round(cells * h / max(h, w)) + 2)
    gw = max(2, round(cells * w / max(h, w)) + 2)
    grid = rng.uniform(-1.0, 1.0, (gh, gw)).astype(np.float32)
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)


def fractal(rng: np.random.Generator, shape: tuple[int, int], cells: float, octaves: int = 4) -> np.ndarray:
    """Sum of octaves (each twice finer, half as strong), normalised to about ``[-1, 1]``."""
    out = np.zeros(shape, np.float32)
    amp, total = 1.0, 0.0
    for i in range(octaves):
        out += amp * smooth(rng, shape, cells * 2**i)
        total += amp
        amp *= 0.5
    return out / total


def strokes(rng: np.random.Generator, shape: tuple[int, int], cells: float, stretch: float, angle: float) -> np.ndarray:
    """Anisotropic noise like brush strokes or wood grain: long along ``angle`` (degrees)."""
    h, w = shape
    side = int(np.hypot(h, w)) + 4
    base = smooth(rng, (max(4, int(side / stretch)), side), cells)
    base = cv2.resize(base, (side, side), interpolation=cv2.INTER_LINEAR)
    rot = cv2.getRotationMatrix2D((side / 2, side / 2), angle, 1.0)
    rot[:, 2] -= [(side - w) / 2, (side - h) / 2]
    return cv2.warpAffine(base, rot, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def speckles(rng: np.random.Generator, shape: tuple[int, int], density: float, size: float) -> np.ndarray:
    """Sparse soft dots (pebbles, grit, paint flecks) in ``[0, 1]``."""
    h, w = shape
    out = np.zeros(shape, np.float32)
    n = int(density * h * w / max(size, 1.0) ** 2)
    if n == 0:
        return out
    xs = rng.uniform(0, w, n)
    ys = rng.uniform(0, h, n)
    rs = rng.uniform(0.4, 1.0, n) * size
    vs = rng.uniform(0.4, 1.0, n)
    for x, y, r, v in zip(xs, ys, rs, vs, strict=True):
        cv2.circle(out, (int(x * 4), int(y * 4)), max(1, int(r * 4)), float(v), -1, cv2.LINE_AA, shift=2)
    return out
