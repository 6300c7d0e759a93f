"""The board as a flat texture: a printed frame, a base, and 49 separate cardboard tile pieces.

The texture covers the table-plane square [-F, 7 + F]^2 (F = frame width in
tiles) at ``s`` pixels per tile, with the tile area's outer corners at exactly
(F*s, F*s) ... ((7+F)*s, (7+F)*s). Every tile is a separate piece: slightly
smaller than its pitch (a gap shows the dark base between pieces), nudged and
turned by a small random amount, with a darker edge on the side away from the
light (the piece's thickness and its short shadow).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from tests.support.holdout_art import Artwork, Colour, paint_tiles, value_noise

FRAME_COLOURS: Mapping[str, Colour] = {
    "black": (30.0, 30.0, 32.0), "brown": (35.0, 65.0, 105.0), "green": (50.0, 110.0, 40.0),
    "red": (40.0, 40.0, 150.0), "none": (45.0, 50.0, 55.0),
}  # fmt: skip


@dataclass(frozen=True)
class Frame:
    """The board's printed frame: colour name, width in tiles and its decoration colour."""

    colour: str
    width: float
    accent: Colour
    arrows: bool


def random_frame(rng: random.Random) -> Frame:
    colour = rng.choice(list(FRAME_COLOURS))
    width = 0.05 if colour == "none" else rng.uniform(0.25, 0.9)
    accent = rng.choice([(210.0, 215.0, 220.0), (60.0, 190.0, 230.0), (200.0, 200.0, 120.0)])
    return Frame(colour, width, accent, arrows=colour != "none" and rng.random() < 0.7)


def _paint_frame(frame: Frame, n: int, s: int, nrng: np.random.Generator) -> np.ndarray:
    base = np.empty((n, n, 3), np.float32)
    base[:] = FRAME_COLOURS[frame.colour]
    base *= (1.0 + 0.12 * value_noise(nrng, (n, n), max(s * 0.5, 2.0), 3))[..., None]
    if frame.arrows:
        f = frame.width * s
        size = min(f * 0.35, s * 0.3)
        for i in (1, 3, 5):
            mid = f + (i + 0.5) * s
            for side in range(4):
                # a triangle in the frame pointing into the board
                tip, back = f - size * 0.25, f - size * 1.25
                tri = np.array([[mid, tip], [mid - size * 0.6, back], [mid + size * 0.6, back]])
                if side == 1:
                    tri = np.stack([n - tri[:, 1], tri[:, 0]], axis=1)
                elif side == 2:
                    tri = np.stack([tri[:, 0], n - tri[:, 1]], axis=1)
                elif side == 3:
                    tri = np.stack([tri[:, 1], tri[:, 0]], axis=1)
                cv2.fillPoly(base, [np.round(tri * 16).astype(np.int32)], frame.accent, cv2.LINE_AA, 4)
    return base


def board_texture(
    art: Artwork,
    frame: Frame,
    tiles: Sequence[Sequence[int]],
    pictures: Sequence[Sequence[str | None]],
    s: int,
    rng: random.Random,
    shadow_dir: tuple[float, float],
    starts: Mapping[tuple[int, int], str] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """(BGR uint8, glow uint8) of the whole board, ``(7 + 2F) * s`` pixels square.

    ``shadow_dir`` is the unit direction on the table in which shadows fall; each
    piece's dark edge is drawn on that side.
    """
    nrng = np.random.default_rng(rng.randrange(1 << 30))
    off = round(frame.width * s)
    n = 7 * s + 2 * off
    rgb = _paint_frame(frame, n, s, nrng)
    glow = np.zeros((n, n), np.float32)
    groove = np.array(FRAME_COLOURS[frame.colour], np.float32) * 0.45
    rgb[off : off + 7 * s, off : off + 7 * s] = groove
    art_rgb, art_glow = paint_tiles(art, tiles, pictures, s, rng, starts)
    art_rgb = art_rgb.astype(np.float32)
    art_glow = art_glow.astype(np.float32)
    gap = rng.uniform(0.012, 0.04)
    turn = rng.uniform(0.3, 1.8)
    nudge = rng.uniform(0.005, 0.025)
    thick = rng.uniform(0.02, 0.05) * s
    edge_shift = (shadow_dir[0] * thick, shadow_dir[1] * thick)
    pad = int(np.ceil(0.12 * s + thick)) + 2
    for r in range(7):
        for c in range(7):
            patch = art_rgb[r * s : (r + 1) * s, c * s : (c + 1) * s]
            gpatch = art_glow[r * s : (r + 1) * s, c * s : (c + 1) * s]
            scale = 1.0 - rng.uniform(0.6, 1.4) * gap
            angle = rng.uniform(-turn, turn)
            dx, dy = rng.uniform(-nudge, nudge) * s, rng.uniform(-nudge, nudge) * s
            x0, y0 = off + c * s - pad, off + r * s - pad
            size = s + 2 * pad
            m = cv2.getRotationMatrix2D((s / 2.0, s / 2.0), angle, scale)
            m[0, 2] += pad + dx
            m[1, 2] += pad + dy
            piece = cv2.warpAffine(patch, m, (size, size), flags=cv2.INTER_LINEAR)
            gpiece = cv2.warpAffine(gpatch, m, (size, size), flags=cv2.INTER_LINEAR)
            alpha = cv2.warpAffine(np.ones((s, s), np.float32), m, (size, size), flags=cv2.INTER_LINEAR)
            m_edge = m.copy()
            m_edge[0, 2] += edge_shift[0]
            m_edge[1, 2] += edge_shift[1]
            edge = cv2.warpAffine(np.ones((s, s), np.float32), m_edge, (size, size), flags=cv2.INTER_LINEAR)
            ys0, xs0 = max(y0, 0), max(x0, 0)
            ys1, xs1 = min(y0 + size, n), min(x0 + size, n)
            win = (slice(ys0, ys1), slice(xs0, xs1))
            loc = (slice(ys0 - y0, ys1 - y0), slice(xs0 - x0, xs1 - x0))
            e = edge[loc][..., None]
            # the piece's side: its own edge colour, darkened, under the top face
            side_col = patch[s // 2, 2].astype(np.float32) * 0.35 + 10.0
            rgb[win] = rgb[win] * (1.0 - e) + side_col * e
            a = alpha[loc][..., None]
            rgb[win] = rgb[win] * (1.0 - a) + piece[loc] * a
            glow[win] = glow[win] * (1.0 - a[..., 0]) + gpiece[loc] * a[..., 0]
    return np.clip(rgb, 0, 255).astype(np.uint8), np.clip(glow, 0, 255).astype(np.uint8)
