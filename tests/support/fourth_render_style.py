"""Edition looks for the fourth renderer, drawn fresh for every photo.

A look is a handful of choices (wall paint, corridor surface, outline, bevel,
frame colours, picture size, night glow colour) for one of four editions:
``classic`` (ochre stone, pale paving, blue frame), ``harry-potter`` (dark
castle bricks, parchment with footprints, drawn outlines), ``pokemon`` (hedges
or rock, sandy paths, bright frame) and ``painted`` (a made-up kids' edition:
brush-stroked walls in any hue, thick black outlines). Within an edition every
number is drawn from a range, so no two photos share the exact palette. The
ranges were chosen from what such boards look like, never from what the reader
finds easy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

RGB = tuple[float, float, float]

EDITIONS = ("classic", "harry-potter", "pokemon", "painted")


@dataclass(frozen=True)
class Style:
    """How one board is painted (colours are linear-ish RGB in ``[0, 1]``)."""

    edition: str
    wall: RGB
    wall_kind: str  # stone | brick | hedge | rock | painted
    corridor: RGB
    corridor_kind: str  # paving | parchment | sand | plain
    half_width: float  # corridor half-width, in tiles
    wobble: float  # how much the corridor edge wanders, in tiles
    outline: float  # drawn outline width in tiles (0: none)
    outline_rgb: RGB
    bevel: float  # raised-wall shading strength (0: flat print)
    wall_shadow: float  # painted shadow of the wall on the corridor (0: none)
    frame: RGB
    frame_band: RGB
    arrow: RGB
    gap: RGB  # the board showing between movable tiles
    picture_radius: float  # treasure picture radius, in tiles
    glow: RGB  # night glow colour of walls and pictures
    tile_gap: float  # seam between movable tiles, in tiles
    tile_jitter: float  # movable tile offset, in tiles
    tile_turn: float  # movable tile rotation, in degrees
    margin: float  # frame width around the 7x7 tiles, in tiles
    orientation: int  # quarter turns of the printed artwork (pictures, start colours)


def _jitter(rng: np.random.Generator, rgb: RGB, amount: float = 0.08) -> RGB:
    """A nearby colour: each channel scaled a little, with a common brightness change."""
    common = rng.uniform(1 - amount, 1 + amount)
    out = [min(1.0, max(0.0, c * common * rng.uniform(1 - amount / 2, 1 + amount / 2))) for c in rgb]
    return (out[0], out[1], out[2])


def _hsv(h: float, s: float, v: float) -> RGB:
    """HSV (hue in turns) to RGB, to pick colours by hue for the painted edition."""
    i = int(h * 6) % 6
    f = h * 6 - int(h * 6)
    p, q, t = v * (1 - s), v * (1 - f * s), v * (1 - (1 - f) * s)
    return [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)][i]


def random_style(rng: np.random.Generator, edition: str | None = None) -> Style:
    """A random look of ``edition`` (or of a random edition)."""
    ed = edition or str(rng.choice(EDITIONS, p=[0.32, 0.24, 0.24, 0.20]))
    u = rng.uniform
    if ed == "classic":
        wall = _jitter(rng, (0.72, 0.52, 0.26), 0.12)
        kind = str(rng.choice(["stone", "stone", "rock"]))
        corridor = _jitter(rng, (0.93, 0.90, 0.80), 0.05)
        ckind = str(rng.choice(["paving", "plain", "sand"]))
        frame = _jitter(rng, (0.12, 0.28, 0.62), 0.15)
        band = _jitter(rng, (0.85, 0.75, 0.35), 0.1)
        arrow = _jitter(rng, (0.95, 0.82, 0.25), 0.08)
        outline, bevel, glow = u(0, 0.012) * (u() < 0.4), u(0.3, 0.9), (0.55, 0.95, 0.45)
    elif ed == "harry-potter":
        wall = _jitter(rng, (0.27, 0.25, 0.24), 0.2)
        kind = str(rng.choice(["brick", "stone"]))
        corridor = _jitter(rng, (0.86, 0.76, 0.56), 0.06)
        ckind = str(rng.choice(["parchment", "parchment", "paving"]))
        frame = _jitter(rng, (0.35, 0.08, 0.08), 0.2) if u() < 0.5 else _jitter(rng, (0.2, 0.16, 0.12), 0.2)
        band = _jitter(rng, (0.78, 0.62, 0.25), 0.1)
        arrow = _jitter(rng, (0.85, 0.70, 0.30), 0.1)
        outline, bevel, glow = u(0.008, 0.02), u(0.0, 0.5), (0.45, 0.85, 0.75)
    elif ed == "pokemon":
        if u() < 0.6:
            wall, kind = _jitter(rng, (0.22, 0.52, 0.20), 0.15), "hedge"
        else:
            wall, kind = _jitter(rng, (0.45, 0.38, 0.50), 0.15), "rock"
        corridor = _jitter(rng, (0.92, 0.84, 0.62), 0.06)
        ckind = str(rng.choice(["sand", "plain", "paving"]))
        frame = _jitter(rng, (0.95, 0.78, 0.10), 0.1) if u() < 0.5 else _jitter(rng, (0.15, 0.35, 0.80), 0.1)
        band = _jitter(rng, (0.85, 0.15, 0.12), 0.1)
        arrow = _jitter(rng, (0.98, 0.98, 0.95), 0.04)
        outline, bevel = u(0.004, 0.015), u(0.2, 0.8)
        glow = (0.60, 1.0, 0.35) if u() < 0.6 else (0.40, 0.95, 0.95)
    else:
        hue = u()
        wall = _hsv(hue, u(0.45, 0.85), u(0.35, 0.7))
        kind = "painted"
        corridor = _hsv((hue + u(0.3, 0.7)) % 1.0, u(0.05, 0.3), u(0.86, 0.98))
        ckind = str(rng.choice(["plain", "sand", "parchment"]))
        frame = _hsv(u(), u(0.5, 0.9), u(0.4, 0.85))
        band = _hsv(u(), u(0.2, 0.6), u(0.8, 1.0))
        arrow = _hsv(u(), u(0.0, 0.5), u(0.85, 1.0))
        outline, bevel, glow = u(0.015, 0.03), u(0.0, 0.3), _hsv(u(0.2, 0.55), u(0.4, 0.7), 1.0)
    gap = tuple(0.35 * c for c in frame)
    return Style(
        edition=ed,
        wall=wall,
        wall_kind=kind,
        corridor=corridor,
        corridor_kind=ckind,
        half_width=u(0.15, 0.22),
        wobble=u(0.0, 0.02) if kind in ("painted", "hedge", "rock") else u(0.0, 0.006),
        outline=outline,
        outline_rgb=_jitter(rng, (0.12, 0.09, 0.07), 0.3),
        bevel=bevel,
        wall_shadow=u(0.1, 0.35) if u() < 0.5 else 0.0,
        frame=frame,
        frame_band=band,
        arrow=arrow,
        gap=(gap[0], gap[1], gap[2]),
        picture_radius=u(0.15, 0.28),
        glow=glow,
        tile_gap=u(0.006, 0.025),
        tile_jitter=u(0.0, 0.025),
        tile_turn=u(0.0, 2.0),
        margin=u(0.45, 0.9),
        orientation=int(rng.integers(4)),
    )
