"""Table tops for the fourth renderer: wood, woven cloth, gingham, laminate, polka dots, felt.

Drawn in table-plane texture pixels (so the pattern is seen in perspective
like the board). Colours range from pale to dark and include greens, blues and
reds close to board or pawn colours, because real tables do.
"""

from __future__ import annotations

import cv2
import numpy as np

from tests.support.fourth_render_noise import fractal, strokes

KINDS = ("wood", "cloth", "gingham", "laminate", "dots", "felt")


def draw_table(rng: np.random.Generator, shape: tuple[int, int], ppt: float) -> np.ndarray:
    """A table top of ``shape`` texture pixels (``ppt`` pixels per tile), float RGB."""
    h, w = shape
    kind = str(rng.choice(KINDS))
    if kind == "wood":
        base = np.array(
            rng.choice([(0.55, 0.36, 0.2), (0.75, 0.58, 0.38), (0.35, 0.22, 0.13), (0.85, 0.72, 0.55)]), np.float32
        )
        angle = float(rng.uniform(0, 180))
        grain = strokes(rng, (h, w), 30, 25, angle)
        plank = ppt * rng.uniform(2.5, 5.0)
        a = np.radians(angle)
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        across = -xs * np.sin(a) + ys * np.cos(a)
        seam = (np.abs((across / plank) % 1.0 - 0.5) > 0.49).astype(np.float32)
        rings = np.sin(across / (ppt * 0.12) + 6 * fractal(rng, (h, w), 4, 2))
        tex = base * (1 + 0.18 * grain + 0.06 * rings)[..., None] * (1 - 0.4 * seam)[..., None]
    elif kind == "cloth":
        base = rng.uniform(0.15, 0.85, 3).astype(np.float32)
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        period = max(2.0, ppt * 0.05)
        weave = np.sin(xs * np.pi / period) * np.sin(ys * np.pi / period)
        tex = base * (1 + 0.07 * weave + 0.1 * fractal(rng, (h, w), 6, 3))[..., None]
    elif kind == "gingham":
        c1 = rng.uniform(0.3, 0.9, 3).astype(np.float32)
        c2 = np.array([0.95, 0.95, 0.93], np.float32)
        size = ppt * rng.uniform(0.5, 1.4)
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        a = ((xs // size) % 2).astype(np.float32)
        b = ((ys // size) % 2).astype(np.float32)
        mix = (a + b)[..., None] / 2
        tex = c2 * (1 - mix) + c1 * mix
        tex = tex * (1 + 0.05 * fractal(rng, (h, w), 8, 2))[..., None]
    elif kind == "laminate":
        base = rng.uniform(0.55, 0.95, 3).astype(np.float32)
        tex = base * (1 + 0.03 * fractal(rng, (h, w), 5, 3))[..., None]
    elif kind == "dots":
        base = rng.uniform(0.2, 0.9, 3).astype(np.float32)
        dot = rng.uniform(0.1, 1.0, 3).astype(np.float32)
        tex = np.empty((h, w, 3), np.float32)
        tex[:] = base
        step = ppt * rng.uniform(0.6, 1.5)
        r = max(1, int(step * rng.uniform(0.1, 0.25)))
        for yy in np.arange(0, h + step, step):
            for xx in np.arange((yy // step % 2) * step / 2, w + step, step):
                cv2.circle(tex, (int(xx), int(yy)), r, tuple(float(v) for v in dot), -1)
    else:  # felt
        base = np.array(
            rng.choice([(0.1, 0.35, 0.2), (0.12, 0.15, 0.35), (0.4, 0.08, 0.1), (0.18, 0.18, 0.18)]), np.float32
        )
        tex = base * (1 + 0.12 * fractal(rng, (h, w), 20, 3))[..., None]
    return np.clip(tex, 0, 1).astype(np.float32)
