"""Tile artwork for the held-out renderer: four styles of its own, each with random variation.

A style is a recipe for corridor and wall surfaces, the corridor shape (width,
wobble of hand-drawn edges, ink outline) and how strongly walls and pictures
glow in the dark. :func:`paint_tiles` paints a block of tiles (the 7x7 board,
or one spare) into a colour image plus a glow image (0..255: how much
glow-in-the-dark paint each pixel carries), so the night look can be lit by its
own light.

Styles (deliberately unlike the classic white-on-ochre look):

- ``dungeon``: textured stone walls in irregular blocks, earthy corridors with
  wobbly, inked edges;
- ``cardboard``: printed cardboard, thin corridor lines (25–45 % of the tile)
  and wide patterned walls;
- ``parchment``: wood-grain walls and parchment corridors of low contrast;
- ``nightsky``: dark starry corridors between light cloudy walls.
"""

from __future__ import annotations

import colorsys
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

STYLES = ("dungeon", "cardboard", "parchment", "nightsky")

Colour = tuple[float, float, float]  # BGR, 0..255


@dataclass(frozen=True)
class Artwork:
    """One scene's artwork: a style plus its random palette and shape parameters."""

    style: str
    wall: Colour
    corridor: Colour
    ink: Colour
    corridor_width: float  # fraction of the tile
    wobble: float  # hand-drawn edge displacement, fraction of the tile
    ink_width: float  # outline width, fraction of the tile (0: none)
    texture: float  # strength of surface texture
    pattern: str  # wall print pattern for cardboard: hatch, dots, check, plain
    picture_scale: tuple[float, float]  # treasure picture radius range, fraction of the tile
    wall_glow: float  # 0..1 glow paint on walls
    picture_glow: float  # 0..1 glow paint on pictures
    start_marks: bool  # coloured start circles on the four corner tiles


def hsv_colour(h: float, s: float, v: float) -> Colour:
    """A BGR colour (0..255, OpenCV's order) from hue, saturation and value (0..1; hue wraps)."""
    r, g, b = colorsys.hsv_to_rgb(h % 1.0, min(max(s, 0.0), 1.0), min(max(v, 0.0), 1.0))
    return (b * 255.0, g * 255.0, r * 255.0)


def random_artwork(rng: random.Random, style: str | None = None) -> Artwork:
    """A random artwork of ``style`` (or of a random style)."""
    style = style or rng.choice(STYLES)
    glow = (rng.uniform(0.5, 1.0), rng.uniform(0.4, 1.0))
    marks = rng.random() < 0.5
    if style == "dungeon":
        return Artwork(
            style, wall=hsv_colour(rng.uniform(0.0, 0.12), rng.uniform(0.05, 0.3), rng.uniform(0.35, 0.6)),
            corridor=hsv_colour(rng.uniform(0.07, 0.14), rng.uniform(0.25, 0.55), rng.uniform(0.7, 0.92)),
            ink=hsv_colour(0.08, 0.5, rng.uniform(0.1, 0.25)), corridor_width=rng.uniform(0.34, 0.5),
            wobble=rng.uniform(0.015, 0.04), ink_width=rng.uniform(0.015, 0.035), texture=rng.uniform(0.6, 1.0),
            pattern="blocks", picture_scale=(0.12, 0.3), wall_glow=glow[0], picture_glow=glow[1], start_marks=marks,
        )
    if style == "cardboard":
        hue = rng.random()
        return Artwork(
            style, wall=hsv_colour(hue, rng.uniform(0.35, 0.8), rng.uniform(0.35, 0.75)),
            corridor=hsv_colour(rng.uniform(0.1, 0.18), rng.uniform(0.0, 0.25), rng.uniform(0.85, 0.98)),
            ink=hsv_colour(hue, 0.6, rng.uniform(0.1, 0.3)) if rng.random() < 0.5 else (250.0, 250.0, 250.0),
            corridor_width=rng.uniform(0.25, 0.45), wobble=0.0, ink_width=rng.choice([0.0, 0.012, 0.02]),
            texture=rng.uniform(0.15, 0.35), pattern=rng.choice(["hatch", "dots", "check", "plain"]),
            picture_scale=(0.1, 0.24), wall_glow=glow[0], picture_glow=glow[1], start_marks=marks,
        )
    if style == "parchment":
        base_v = rng.uniform(0.55, 0.8)
        return Artwork(
            style, wall=hsv_colour(rng.uniform(0.06, 0.11), rng.uniform(0.35, 0.6), base_v),
            corridor=hsv_colour(
                rng.uniform(0.1, 0.14), rng.uniform(0.2, 0.45), min(base_v + rng.uniform(0.1, 0.2), 0.97)
            ),
            ink=hsv_colour(0.07, 0.6, rng.uniform(0.25, 0.45)), corridor_width=rng.uniform(0.36, 0.55),
            wobble=rng.uniform(0.0, 0.025), ink_width=rng.choice([0.0, 0.0, 0.01, 0.018]),
            texture=rng.uniform(0.5, 0.9), pattern="grain", picture_scale=(0.12, 0.32), wall_glow=glow[0],
            picture_glow=glow[1], start_marks=marks,
        )
    if style == "nightsky":
        return Artwork(
            style, wall=hsv_colour(rng.uniform(0.5, 0.75), rng.uniform(0.05, 0.3), rng.uniform(0.78, 0.95)),
            corridor=hsv_colour(rng.uniform(0.6, 0.72), rng.uniform(0.4, 0.8), rng.uniform(0.1, 0.28)),
            ink=hsv_colour(0.13, 0.6, 0.85), corridor_width=rng.uniform(0.3, 0.5), wobble=rng.uniform(0.0, 0.02),
            ink_width=rng.choice([0.0, 0.01]), texture=rng.uniform(0.3, 0.7), pattern="clouds",
            picture_scale=(0.1, 0.28), wall_glow=glow[0], picture_glow=glow[1], start_marks=marks,
        )
    raise ValueError(f"unknown artwork style {style!r}; choose from {', '.join(STYLES)}")


def value_noise(nrng: np.random.Generator, shape: tuple[int, int], cell: float, octaves: int = 3) -> np.ndarray:
    """Smooth fractal noise in about [-1, 1]: random grids of growing detail, each resized up."""
    h, w = shape
    out = np.zeros((h, w), np.float32)
    amp, total = 1.0, 0.0
    for _ in range(octaves):
        gh, gw = max(int(h / cell) + 2, 2), max(int(w / cell) + 2, 2)
        grid = nrng.uniform(-1.0, 1.0, (gh, gw)).astype(np.float32)
        out += amp * cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)
        total += amp
        amp *= 0.5
        cell = max(cell / 2.0, 1.0)
    return out / total


def corridor_mask(tiles: Sequence[Sequence[int]], s: int, width: float) -> np.ndarray:
    """Crisp corridor mask (float 0/1) for rows of tile opening masks (N=1 E=2 S=4 W=8)."""
    rows, cols = len(tiles), len(tiles[0])
    mask = np.zeros((rows * s, cols * s), np.float32)
    half = width * s / 2.0
    for r, row in enumerate(tiles):
        for c, openings in enumerate(row):
            x0, y0 = c * s, r * s
            mid = s / 2.0
            a, b = round(mid - half), round(mid + half)
            mask[y0 + a : y0 + b, x0 + a : x0 + b] = 1.0
            if openings & 1:
                mask[y0 : y0 + b, x0 + a : x0 + b] = 1.0
            if openings & 4:
                mask[y0 + a : y0 + s, x0 + a : x0 + b] = 1.0
            if openings & 8:
                mask[y0 + a : y0 + b, x0 : x0 + b] = 1.0
            if openings & 2:
                mask[y0 + a : y0 + b, x0 + a : x0 + s] = 1.0
    return mask


def _wobble(mask: np.ndarray, nrng: np.random.Generator, s: int, amount: float) -> np.ndarray:
    """Displace the mask by smooth noise (hand-drawn edges), then round its corners a little."""
    h, w = mask.shape
    if amount > 0:
        dx = value_noise(nrng, (h, w), s * 0.35, 2) * amount * s * 1.6
        dy = value_noise(nrng, (h, w), s * 0.35, 2) * amount * s * 1.6
        gx, gy = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
        mask = cv2.remap(mask, gx + dx, gy + dy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    sigma = max(0.04 * s, 0.8)
    mask = cv2.GaussianBlur(mask, (0, 0), sigma)
    mask = np.clip((mask - 0.5) * 3.0 + 0.5, 0.0, 1.0)
    return cv2.GaussianBlur(mask, (0, 0), 0.6)


def _wall_surface(art: Artwork, nrng: np.random.Generator, shape: tuple[int, int], s: int) -> np.ndarray:
    """The wall texture as BGR float32."""
    h, w = shape
    base = np.empty((h, w, 3), np.float32)
    base[:] = art.wall
    tex = art.texture
    if art.pattern == "blocks":
        shade = 1.0 + 0.22 * tex * value_noise(nrng, shape, s * 0.25, 4)
        joints = np.zeros(shape, np.float32)
        step = max(s // 3, 4)
        for i, y in enumerate(range(0, h, step)):
            cv2.line(joints, (0, y), (w, y), 1.0, max(1, s // 60))
            off = (step // 2) * (i % 2)
            for x in range(off, w, int(step * 1.4)):
                cv2.line(joints, (x, y), (x, y + step), 1.0, max(1, s // 60))
        joints = _wobble(joints, nrng, s, 0.02) if s > 20 else joints
        shade = shade * (1.0 - 0.25 * tex * joints)
        base *= shade[..., None]
    elif art.pattern == "grain":
        warp = value_noise(nrng, shape, s * 0.8, 3) * s * 0.6
        ys = np.arange(h, dtype=np.float32)[:, None]
        grain = np.sin((ys + warp) * (2 * np.pi / max(s * 0.09, 2.0)))
        shade = 1.0 + 0.07 * tex * grain + 0.06 * tex * value_noise(nrng, shape, s * 0.3, 2)
        base *= shade[..., None]
    elif art.pattern == "clouds":
        shade = 1.0 + 0.1 * tex * value_noise(nrng, shape, s * 0.7, 4)
        base *= shade[..., None]
    else:  # printed cardboard patterns
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        period = max(s * 0.16, 3.0)
        if art.pattern == "hatch":
            pat = (np.sin((xx + yy) * (2 * np.pi / period)) > 0.55).astype(np.float32)
        elif art.pattern == "dots":
            pat = ((np.sin(xx * 2 * np.pi / period) * np.sin(yy * 2 * np.pi / period)) > 0.6).astype(np.float32)
        elif art.pattern == "check":
            pat = ((np.floor(xx / (period * 1.5)) + np.floor(yy / (period * 1.5))) % 2).astype(np.float32)
        else:
            pat = np.zeros(shape, np.float32)
        shade = 1.0 - 0.16 * pat + 0.05 * tex * value_noise(nrng, shape, 3.0, 1)
        base *= shade[..., None]
    return base


def _corridor_surface(art: Artwork, nrng: np.random.Generator, shape: tuple[int, int], s: int) -> np.ndarray:
    h, w = shape
    base = np.empty((h, w, 3), np.float32)
    base[:] = art.corridor
    if art.style == "nightsky":
        stars = (nrng.random(shape) > 0.9985).astype(np.float32)
        stars = cv2.dilate(stars, np.ones((2, 2), np.uint8)) if s > 60 else stars
        base += stars[..., None] * 180.0
        base *= (1.0 + 0.25 * value_noise(nrng, shape, s * 0.5, 2))[..., None]
    else:
        k = {"dungeon": 0.12, "parchment": 0.08, "cardboard": 0.03}.get(art.style, 0.05)
        base *= (1.0 + k * art.texture * value_noise(nrng, shape, s * 0.2, 3))[..., None]
    return base


def _blob(rng: random.Random, centre: tuple[float, float], radius: float, points: int = 40) -> np.ndarray:
    """An irregular closed outline: a circle whose radius wanders by a few random harmonics."""
    harmonics = [(k, rng.uniform(0.0, 0.28 / k), rng.uniform(0, 6.283)) for k in range(2, 6)]
    t = np.linspace(0.0, 2 * np.pi, points, endpoint=False)
    r = np.ones_like(t)
    for k, a, ph in harmonics:
        r += a * np.sin(k * t + ph)
    xs = centre[0] + radius * r * np.cos(t)
    ys = centre[1] + radius * r * np.sin(t) * rng.uniform(0.75, 1.25)
    return np.stack([xs, ys], axis=1)


def _draw_picture(
    rgb: np.ndarray, pic: np.ndarray, rng: random.Random, centre: tuple[float, float], radius: float
) -> None:
    """A colourful irregular icon: a body blob, a patch of a second colour, eyes or dots, sometimes an outline."""
    shift = 4  # sub-pixel drawing precision
    body = _blob(rng, centre, radius)
    hue = rng.random()
    col = hsv_colour(hue, rng.uniform(0.6, 1.0), rng.uniform(0.55, 0.95))
    pts = [np.round(body * (1 << shift)).astype(np.int32)]
    cv2.fillPoly(rgb, pts, col, cv2.LINE_AA, shift)
    cv2.fillPoly(pic, pts, 1.0, cv2.LINE_AA, shift)
    if rng.random() < 0.7:
        sub = _blob(rng, (centre[0] + rng.uniform(-0.4, 0.4) * radius, centre[1] + rng.uniform(-0.4, 0.4) * radius),
                    radius * rng.uniform(0.3, 0.55))
        col2 = hsv_colour(hue + rng.uniform(0.25, 0.75), rng.uniform(0.5, 1.0), rng.uniform(0.5, 1.0))
        cv2.fillPoly(rgb, [np.round(sub * (1 << shift)).astype(np.int32)], col2, cv2.LINE_AA, shift)
    if rng.random() < 0.6:
        eye = max(radius * 0.12, 1.0)
        for sx in (-1, 1):
            p = (round((centre[0] + sx * radius * 0.3) * 16), round((centre[1] - radius * 0.2) * 16))
            cv2.circle(rgb, p, int(eye * 16), (20.0, 20.0, 20.0), -1, cv2.LINE_AA, shift)
    if rng.random() < 0.5:
        cv2.polylines(rgb, pts, True, (30.0, 30.0, 30.0), max(1, int(radius * 0.08)), cv2.LINE_AA, shift)


_START_COLOURS: Mapping[str, Colour] = {
    "red": (40.0, 40.0, 200.0), "yellow": (40.0, 200.0, 230.0), "green": (60.0, 160.0, 50.0),
    "blue": (190.0, 110.0, 40.0),
}  # fmt: skip


def paint_tiles(
    art: Artwork,
    tiles: Sequence[Sequence[int]],
    pictures: Sequence[Sequence[str | None]],
    s: int,
    rng: random.Random,
    starts: Mapping[tuple[int, int], str] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Paint rows of tiles at ``s`` pixels a tile: (BGR uint8, glow uint8).

    ``pictures`` names the treasure on each tile (``None`` for plain tiles); a name
    always gets the same picture within one artwork (seeded by the name), so the
    spare and a tile that moved look like themselves. ``starts`` puts a start
    circle of that colour on the given tiles (when the style prints them).
    """
    nrng = np.random.default_rng(rng.randrange(1 << 30))
    shape = (len(tiles) * s, len(tiles[0]) * s)
    crisp = corridor_mask(tiles, s, art.corridor_width)
    mask = _wobble(crisp, nrng, s, art.wobble)
    wall = _wall_surface(art, nrng, shape, s)
    corr = _corridor_surface(art, nrng, shape, s)
    m3 = mask[..., None]
    rgb = wall * (1.0 - m3) + corr * m3
    if art.ink_width > 0:
        k = max(round(art.ink_width * s), 1)
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))
        edge = cv2.morphologyEx(mask, cv2.MORPH_GRADIENT, kernel)
        edge = np.clip(edge * 1.3, 0.0, 1.0)[..., None]
        rgb = rgb * (1.0 - edge) + np.array(art.ink, np.float32) * edge
    pic = np.zeros(shape, np.float32)
    for r, row in enumerate(pictures):
        for c, name in enumerate(row):
            if name is None:
                continue
            prng = random.Random(f"{name}/{art.wall}")
            radius = prng.uniform(*art.picture_scale) * s
            jitter = 0.22 * s - radius * 0.5
            cx = (c + 0.5) * s + prng.uniform(-jitter, jitter)
            cy = (r + 0.5) * s + prng.uniform(-jitter, jitter)
            _draw_picture(rgb, pic, prng, (cx, cy), radius)
    for (r, c), colour in (starts or {}).items():
        if art.start_marks:
            centre = (round((c + 0.5) * s * 16), round((r + 0.5) * s * 16))
            rad = int(art.corridor_width * s * 0.42 * 16)
            cv2.circle(rgb, centre, rad, _START_COLOURS[colour], -1, cv2.LINE_AA, 4)
            cv2.circle(rgb, centre, rad, (235.0, 235.0, 235.0), max(1, s // 40), cv2.LINE_AA, 4)
    glow = (1.0 - mask) * art.wall_glow * 255.0 * (0.85 + 0.15 * value_noise(nrng, shape, s * 0.4, 1))
    glow = np.maximum(glow, pic * art.picture_glow * 255.0)
    return np.clip(rgb, 0, 255).astype(np.uint8), np.clip(glow, 0, 255).astype(np.uint8)
