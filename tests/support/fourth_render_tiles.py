"""One maze tile of the fourth renderer, top-down: albedo and night glow.

The corridor is a union of boxes (the centre square plus one arm per opening)
described by a signed distance, so the edge can wander (painted and hedge
looks), carry a drawn outline, a raised-wall bevel or a painted wall shadow,
all from the same field. Tile corners are always wall and the centre always
corridor, as on every real edition. Treasure pictures sit on the centre and
may be wider than the corridor; start squares carry a disc of their colour.
"""

from __future__ import annotations

import cv2
import numpy as np

from tests.support.fourth_render_noise import fractal, speckles, strokes
from tests.support.fourth_render_style import RGB, Style

N, E, S, W = 1, 2, 4, 8


def _box(u: np.ndarray, v: np.ndarray, cx: float, cy: float, hx: float, hy: float) -> np.ndarray:
    qx = np.abs(u - cx) - hx
    qy = np.abs(v - cy) - hy
    outside = np.hypot(np.maximum(qx, 0), np.maximum(qy, 0))
    return outside + np.minimum(np.maximum(qx, qy), 0)


def corridor_distance(mask: int, half: float, ppt: int) -> np.ndarray:
    """Signed distance (tiles) to the corridor of a tile with openings ``mask``: < 0 inside."""
    g = (np.arange(ppt, dtype=np.float32) + 0.5) / ppt
    u, v = np.meshgrid(g, g)
    d = _box(u, v, 0.5, 0.5, half, half)
    arms = {N: (0.5, 0.0, half, 0.5), S: (0.5, 1.0, half, 0.5), E: (1.0, 0.5, 0.5, half), W: (0.0, 0.5, 0.5, half)}
    for bit, (cx, cy, hx, hy) in arms.items():
        if mask & bit:
            d = np.minimum(d, _box(u, v, cx, cy, hx, hy))
    return d


def _wall_texture(rng: np.random.Generator, style: Style, ppt: int) -> np.ndarray:
    shape = (ppt, ppt)
    base = np.array(style.wall, np.float32)
    if style.wall_kind == "brick":
        g = (np.arange(ppt) + 0.5) / ppt
        u, v = np.meshgrid(g, g)
        rows = 5 + int(rng.integers(3))
        row = np.floor(v * rows)
        shift = (row % 2) * 0.5 / 3
        col = np.floor((u + shift) * 3)
        fu, fv = (u + shift) * 3 % 1.0, v * rows % 1.0
        mortar = (np.minimum(fu, 1 - fu) < 0.035) | (np.minimum(fv, 1 - fv) < 0.06)
        brick = 1 + 0.12 * np.sin(row * 12.9898 + col * 78.233) * np.cos(row * 4.1 + col * 1.7)
        tex = brick[..., None] * base * (1 + 0.1 * fractal(rng, shape, 6)[..., None])
        tex[mortar] = base * 0.55
    elif style.wall_kind == "hedge":
        leaf = (
            fractal(rng, shape, 14, 3)
            + 0.6 * speckles(rng, shape, 0.25, ppt / 40)
            - 0.5 * speckles(rng, shape, 0.2, ppt / 45)
        )
        tex = base * (1 + 0.3 * leaf[..., None])
    elif style.wall_kind == "painted":
        st = strokes(rng, shape, 5, 8, float(rng.uniform(0, 180)))
        tex = base * (1 + 0.14 * st[..., None] + 0.05 * fractal(rng, shape, 10, 2)[..., None])
    else:  # stone / rock
        blot = fractal(rng, shape, 5 if style.wall_kind == "stone" else 3, 4)
        grit = speckles(rng, shape, 0.3, ppt / 60) - speckles(rng, shape, 0.3, ppt / 60)
        tex = base * (1 + 0.16 * blot[..., None] + 0.1 * grit[..., None])
        for _ in range(int(rng.integers(0, 3))):  # cracks
            pts = np.cumsum(rng.normal(0, ppt / 12, (6, 2)), axis=0) + rng.uniform(0, ppt, 2)
            crack = np.zeros(shape, np.float32)
            cv2.polylines(crack, [pts.astype(np.int32)], False, 1.0, 1, cv2.LINE_AA)
            tex *= 1 - 0.35 * crack[..., None]
    return tex


def _corridor_texture(rng: np.random.Generator, style: Style, ppt: int, mask: int) -> np.ndarray:
    shape = (ppt, ppt)
    base = np.array(style.corridor, np.float32)
    tex = base * (1 + 0.04 * fractal(rng, shape, 6, 3)[..., None])
    kind = style.corridor_kind
    if kind == "paving":
        g = (np.arange(ppt) + 0.5) / ppt
        u, v = np.meshgrid(g, g)
        size = 0.11
        row = np.floor(v / size)
        fu = ((u + (row % 2) * size / 2) / size) % 1.0
        fv = (v / size) % 1.0
        line = (np.minimum(fu, 1 - fu) < 0.06) | (np.minimum(fv, 1 - fv) < 0.06)
        stone = 1 + 0.04 * np.sin(row * 31.1 + np.floor((u + (row % 2) * size / 2) / size) * 17.3)
        tex = tex * stone[..., None]
        tex[line] *= 0.86
    elif kind == "sand":
        tex *= 1 + (0.12 * speckles(rng, shape, 0.4, ppt / 70) - 0.14 * speckles(rng, shape, 0.3, ppt / 60))[..., None]
    elif kind == "parchment":
        tex *= 1 + 0.08 * fractal(rng, shape, 3, 3)[..., None]
        prints = np.zeros(shape, np.float32)
        arms = [(0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5)]
        for bit, (ex, ey) in zip((N, E, S, W), arms, strict=True):
            if not mask & bit or rng.uniform() < 0.4:
                continue
            for k, t in enumerate((0.22, 0.5, 0.78)):
                side = 0.05 if k % 2 else -0.05
                px = 0.5 + (ex - 0.5) * t + side * (ey - 0.5) * -2
                py = 0.5 + (ey - 0.5) * t + side * (ex - 0.5) * 2
                ang = float(np.degrees(np.arctan2(ey - 0.5, ex - 0.5)))
                cv2.ellipse(
                    prints,
                    (int(px * ppt), int(py * ppt)),
                    (max(1, ppt // 22), max(1, ppt // 40)),
                    ang,
                    0,
                    360,
                    1.0,
                    -1,
                    cv2.LINE_AA,
                )
        tex *= 1 - 0.35 * prints[..., None]
    return tex


def _shade(rgb: RGB, k: float) -> tuple[float, float, float]:
    return (rgb[0] * k, rgb[1] * k, rgb[2] * k)


def draw_picture(
    rng: np.random.Generator, ppt: int, radius: float, orientation: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A treasure picture: its colour, its coverage and its glowing motif (each ``ppt`` square)."""
    big = ppt * 4  # drawn at 4x and shrunk: smooth edges without per-call antialias flags
    rgb = np.zeros((big, big, 3), np.float32)
    alpha = np.zeros((big, big), np.float32)
    motif = np.zeros((big, big), np.float32)
    c = big // 2
    r = int(radius * big)
    bg = tuple(float(x) for x in rng.uniform(0.25, 0.95, 3))
    ring = tuple(float(x) for x in rng.uniform(0.1, 0.9, 3))
    shape = rng.choice(["disc", "square", "hex", "shield"])
    if shape == "disc":
        cv2.circle(alpha, (c, c), r, 1.0, -1)
        cv2.circle(rgb, (c, c), r, ring, -1)
        cv2.circle(rgb, (c, c), int(r * 0.86), bg, -1)
    else:
        n = {"square": 4, "hex": 6, "shield": 5}[str(shape)]
        ang = np.linspace(0, 2 * np.pi, n, endpoint=False) + np.pi / n
        pts = np.stack([c + r * np.cos(ang), c + r * np.sin(ang)], 1).astype(np.int32)
        cv2.fillPoly(alpha, [pts], 1.0)
        cv2.fillPoly(rgb, [pts], ring)
        inner = np.stack([c + 0.85 * r * np.cos(ang), c + 0.85 * r * np.sin(ang)], 1).astype(np.int32)
        cv2.fillPoly(rgb, [inner], bg)
    col = tuple(float(x) for x in rng.uniform(0.05, 1.0, 3))
    kind = rng.choice(["star", "gem", "creature", "crescent", "key"])
    m = np.zeros((big, big), np.float32)
    if kind == "star":
        k = int(rng.integers(4, 8))
        a = np.linspace(0, 2 * np.pi, 2 * k, endpoint=False)
        rr = np.where(np.arange(2 * k) % 2 == 0, 0.7, 0.3) * r
        cv2.fillPoly(m, [np.stack([c + rr * np.sin(a), c - rr * np.cos(a)], 1).astype(np.int32)], 1.0)
    elif kind == "gem":
        pts = np.array([[0, -0.6], [0.5, -0.2], [0.3, 0.55], [-0.3, 0.55], [-0.5, -0.2]]) * r + c
        cv2.fillPoly(m, [pts.astype(np.int32)], 1.0)
    elif kind == "creature":
        cv2.ellipse(m, (c, c + r // 8), (int(r * 0.55), int(r * 0.45)), 0, 0, 360, 1.0, -1)
        cv2.circle(m, (c - r // 3, c - r // 3), r // 5, 1.0, -1)
        cv2.circle(m, (c + r // 3, c - r // 3), r // 5, 1.0, -1)
    elif kind == "crescent":
        cv2.circle(m, (c, c), int(r * 0.6), 1.0, -1)
        cv2.circle(m, (c + r // 4, c - r // 5), int(r * 0.5), 0.0, -1)
    else:
        cv2.circle(m, (c, c - r // 3), int(r * 0.28), 1.0, max(2, r // 9))
        cv2.line(m, (c, c - r // 8), (c, c + r // 2), 1.0, max(2, r // 8))
        cv2.line(m, (c, c + r // 3), (c + r // 4, c + r // 3), 1.0, max(2, r // 9))
    m = np.rot90(m, orientation).copy()
    rgb = rgb * (1 - m[..., None]) + np.array(col, np.float32) * m[..., None]
    motif = m * alpha
    small = (ppt, ppt)
    return (
        cv2.resize(rgb, small, interpolation=cv2.INTER_AREA),
        cv2.resize(alpha, small, interpolation=cv2.INTER_AREA),
        cv2.resize(motif, small, interpolation=cv2.INTER_AREA),
    )


def draw_tile(
    rng: np.random.Generator,
    style: Style,
    mask: int,
    ppt: int,
    picture: bool = False,
    start: RGB | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The tile with openings ``mask`` as (albedo ``ppt x ppt x 3``, glow ``ppt x ppt``)."""
    d = corridor_distance(mask, style.half_width, ppt)
    if style.wobble > 0:
        d = d + style.wobble * fractal(rng, (ppt, ppt), 4, 2)
    px = 1.0 / ppt
    corridor = np.clip(0.5 - d / px, 0, 1)  # antialiased coverage
    wall = _wall_texture(rng, style, ppt)
    floor = _corridor_texture(rng, style, ppt, mask)
    if style.wall_shadow > 0:  # the raised wall's painted shadow falls toward the bottom-right
        off = max(1, int(0.04 * ppt))
        shadow = np.roll(np.roll(1 - corridor, off, 0), off, 1)
        shadow = cv2.GaussianBlur(shadow, (0, 0), max(0.6, off / 2))
        floor = floor * (1 - style.wall_shadow * shadow[..., None])
    if style.bevel > 0:  # walls lit from the top-left: the rim facing it is lighter
        band = np.clip(1 - d / 0.06, 0, 1) * (d > 0)
        gy, gx = np.gradient(d)
        norm = np.hypot(gx, gy) + 1e-6
        lit = (gx + gy) / norm / np.sqrt(2)  # + when the rim faces the top-left light
        wall = wall * (1 + 0.35 * style.bevel * (band * lit)[..., None])
    img = wall * (1 - corridor[..., None]) + floor * corridor[..., None]
    if style.outline > 0:
        line = np.clip(1 - np.abs(d) / (style.outline / 2), 0, 1)
        img = img * (1 - line[..., None]) + np.array(style.outline_rgb, np.float32) * line[..., None]
    glow = (1 - corridor) * (0.8 + 0.2 * fractal(rng, (ppt, ppt), 5, 2))
    if start is not None:
        disc = np.zeros((ppt * 4, ppt * 4), np.float32)
        cv2.circle(disc, (ppt * 2, ppt * 2), int(ppt * 4 * rng.uniform(0.13, 0.19)), 1.0, -1)
        disc = cv2.resize(disc, (ppt, ppt), interpolation=cv2.INTER_AREA)
        ring = cv2.erode(disc, np.ones((3, 3), np.uint8), iterations=max(1, ppt // 40))
        img = img * (1 - disc[..., None]) + np.array(_shade(start, 0.6), np.float32) * disc[..., None]
        img = img * (1 - ring[..., None]) + np.array(start, np.float32) * ring[..., None]
    if picture:
        prgb, alpha, motif = draw_picture(rng, ppt, style.picture_radius, style.orientation)
        img = img * (1 - alpha[..., None]) + prgb * alpha[..., None]
        glow = glow * (1 - alpha) + 0.25 * alpha + 0.75 * motif
    return np.clip(img, 0, 1).astype(np.float32), glow.astype(np.float32)
