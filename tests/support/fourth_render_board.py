"""The whole board of the fourth renderer, top-down: frame, arrows, fixed and movable tiles.

The 16 fixed tiles are printed on the board (exactly on the lattice, no seam);
the 33 movable tiles are separate cardboard squares, a little smaller than a
cell, each shifted and turned by a small random amount, with a lit and a
shaded cardboard edge, so the board shows between them. The frame carries a
printed band and the 12 push arrows at rows/columns 1, 3 and 5. The artwork
may be printed in any of four orientations (the fixed-tile pattern is the same
under quarter turns; the start colours and pictures turn with it).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.board import FIXED_TILES, SIZE
from tests.support.fourth_render_noise import fractal
from tests.support.fourth_render_style import RGB, Style
from tests.support.fourth_render_tiles import draw_tile

START_RGB: dict[str, RGB] = {
    "red": (0.80, 0.12, 0.10),
    "yellow": (0.95, 0.80, 0.12),
    "green": (0.15, 0.60, 0.22),
    "blue": (0.12, 0.30, 0.80),
}
_CORNERS = ((0, 0), (0, 6), (6, 6), (6, 0))  # clockwise
_COLOURS = ("red", "yellow", "green", "blue")


@dataclass
class BoardArt:
    """The board's albedo and glow; the 7x7 tile area starts at ``origin`` px, ``ppt`` px per tile."""

    albedo: np.ndarray
    glow: np.ndarray
    origin: int
    ppt: int


def start_colours(orientation: int) -> dict[tuple[int, int], str]:
    """Which start colour is printed on which corner when the artwork is turned ``orientation`` quarters."""
    return {_CORNERS[(i + orientation) % 4]: colour for i, colour in enumerate(_COLOURS)}


def _arrow(img: np.ndarray, tip: tuple[float, float], direction: tuple[float, float], size: float, rgb: RGB) -> None:
    dx, dy = direction
    tx, ty = tip
    base = (tx - dx * size, ty - dy * size)
    pts = np.array(
        [
            tip,
            (base[0] - dy * size * 0.6, base[1] + dx * size * 0.6),
            (base[0] + dy * size * 0.6, base[1] - dx * size * 0.6),
        ]
    )
    cv2.fillPoly(img, [np.round(pts * 4).astype(np.int32)], rgb, cv2.LINE_AA, shift=2)


def _paste(dst: np.ndarray, src: np.ndarray, alpha: np.ndarray, x: int, y: int) -> None:
    h, w = alpha.shape
    region = dst[y : y + h, x : x + w]
    a = alpha if src.ndim == 2 else alpha[..., None]
    region[...] = region * (1 - a) + src * a


def _movable(
    rng: np.random.Generator, style: Style, tile: np.ndarray, glow: np.ndarray, ppt: int
) -> tuple[np.ndarray, ...]:
    """A cardboard tile turned and shifted a little, on a patch one cell plus padding wide."""
    pad = max(4, ppt // 8)
    side = ppt + 2 * pad
    scale = 1 - style.tile_gap
    edge = max(1, ppt // 60)
    tile = tile.copy()
    light = tile[:edge, :] * 0.6 + 0.4
    tile[:edge, :] = light
    tile[:, :edge] = tile[:, :edge] * 0.6 + 0.4
    tile[-edge:, :] *= 0.55
    tile[:, -edge:] *= 0.55
    tile = tile * rng.uniform(0.96, 1.04)
    angle = rng.uniform(-style.tile_turn, style.tile_turn)
    shift = rng.uniform(-style.tile_jitter, style.tile_jitter, 2) * ppt
    m = cv2.getRotationMatrix2D((ppt / 2, ppt / 2), angle, scale)
    m[:, 2] += pad + shift
    warp = lambda a: cv2.warpAffine(a, m, (side, side), flags=cv2.INTER_LINEAR)  # noqa: E731
    alpha = warp(np.ones((ppt, ppt), np.float32))
    return warp(tile), warp(glow), alpha, pad


def draw_board(
    rng: np.random.Generator,
    style: Style,
    tiles: list[int],
    pictures: set[tuple[int, int]],
    ppt: int,
) -> BoardArt:
    """Draw the board with ``tiles`` (49 masks, row-major) and pictures on ``pictures``."""
    origin = round(style.margin * ppt)
    side = 2 * origin + SIZE * ppt
    frame = np.array(style.frame, np.float32) * (1 + 0.06 * fractal(rng, (side, side), 8, 3))[..., None]
    albedo = np.ascontiguousarray(frame)
    glow = np.zeros((side, side), np.float32)
    inset = origin * 0.3
    cv2.rectangle(
        albedo,
        (int(inset), int(inset)),
        (int(side - inset), int(side - inset)),
        style.frame_band,
        max(2, ppt // 25),
        cv2.LINE_AA,
    )
    albedo[origin : origin + SIZE * ppt, origin : origin + SIZE * ppt] = style.gap
    for k in (1, 3, 5):
        mid = origin + (k + 0.5) * ppt
        size = min(origin * 0.7, ppt * 0.4)
        for tip, direc in (
            ((mid, origin - 0.12 * origin), (0, 1)),
            ((mid, side - origin + 0.12 * origin), (0, -1)),
            ((origin - 0.12 * origin, mid), (1, 0)),
            ((side - origin + 0.12 * origin, mid), (-1, 0)),
        ):
            _arrow(albedo, tip, direc, size, style.arrow)
            _arrow(glow, tip, direc, size, (0.4,))
    starts = start_colours(style.orientation)
    order = sorted(range(len(tiles)), key=lambda i: divmod(i, SIZE) not in FIXED_TILES)  # fixed print first
    for idx in order:
        mask = tiles[idx]
        r, c = divmod(idx, SIZE)
        start = START_RGB[starts[(r, c)]] if (r, c) in starts else None
        art, tile_glow = draw_tile(rng, style, mask, ppt, (r, c) in pictures, start)
        x, y = origin + c * ppt, origin + r * ppt
        if (r, c) in FIXED_TILES:
            albedo[y : y + ppt, x : x + ppt] = art
            glow[y : y + ppt, x : x + ppt] = tile_glow
            continue
        art, tile_glow, alpha, pad = _movable(rng, style, art, tile_glow, ppt)
        _paste(albedo, art, alpha, x - pad, y - pad)
        _paste(glow, tile_glow, alpha, x - pad, y - pad)
    return BoardArt(np.clip(albedo, 0, 1), glow, origin, ppt)
