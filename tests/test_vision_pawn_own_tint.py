"""A pawn unlike its own tile's materials is not artwork because another tile's walls share its colour."""

from __future__ import annotations

import numpy as np

from companion.board import Color, Tile
from companion.observation import TileReading
from vision.pawn_candidates import Candidate, Slender, _own_tint, candidates
from vision.rectify import Rectified

T, M = 48, 36
CORRIDOR = np.array([150.0, 190.0, 215.0])  # BGR: a beige corridor on every tile
#: Walls of several materials, as the fifth renderer's boards mix them: grey stone, blue water, green hedge, brick.
WALLS = (
    np.array([120.0, 125.0, 130.0]),
    np.array([190.0, 110.0, 40.0]),
    np.array([50.0, 150.0, 60.0]),
    np.array([70.0, 90.0, 180.0]),
)
BLUE = np.array([175.0, 115.0, 60.0])
CENTRE = M + 3 * T + T // 2  # the middle of square (3, 3), a grey-walled tile


def _board(pawn: bool) -> Rectified:
    """Tiles open N, E and S, their walls by turns of each material (square (3, 3): grey); with ``pawn``
    a blue dome there, lit from the top left (its shadow cast to the bottom right), wider than the corridor's
    core so that it reaches the walls."""
    side = 2 * M + 7 * T
    yy, xx = np.mgrid[0:side, 0:side].astype(np.float64)
    u, v = (xx - M) % T - T / 2.0, (yy - M) % T - T / 2.0
    corridor = ((np.abs(u) <= 0.2 * T) & (v <= 0.2 * T)) | ((np.abs(v) <= 0.2 * T) & (u >= -0.2 * T))
    kind = ((yy - M) // T + (xx - M) // T).astype(int) % len(WALLS)
    image = np.choose(kind[..., None], WALLS).astype(np.float64)
    image[corridor] = CORRIDOR
    image += np.random.default_rng(7).normal(0.0, 3.0, image.shape)  # print grain
    if pawn:
        radius = 0.28 * T
        inside = np.hypot(xx - CENTRE, yy - CENTRE) <= radius
        shadow = (np.hypot(xx - CENTRE - 6, yy - CENTRE - 6) <= radius + 2) & ~inside
        image[shadow] *= 0.55
        nx, ny = (xx - CENTRE) / radius, (yy - CENTRE) / radius
        light = 0.6 - 0.3 * np.tanh(12.0 * (nx + ny) / np.sqrt(2))  # a dark glossy body's sharp terminator
        image[inside] = (BLUE * light[..., None])[inside]
    corners = np.array([[M, M], [M + 7 * T, M], [M + 7 * T, M + 7 * T], [M, M + 7 * T]], np.float32)
    return Rectified(np.clip(image, 0, 255).astype(np.uint8), T, M, np.eye(3), corners)


def _looks(rect: Rectified) -> tuple[list[Candidate], list[Candidate]]:
    """The first look's blue blobs, and what the own-tint look finds in blue."""
    second: list[Slender] = []
    tiles = [TileReading(Tile.NES, 1.0)] * 49
    first = [c for c in candidates(rect, tiles, slender=second) if c.color is Color.BLUE]
    looks = [judge for color, judge in second if color is Color.BLUE and judge.func is _own_tint]
    return first, [cand for judge in looks if (cand := judge()) is not None]


def _on_square(cand: Candidate) -> bool:
    return abs(cand.base[0] - CENTRE) < 0.5 * T and abs(cand.base[1] - CENTRE) < 0.5 * T


def test_a_pawn_of_another_tiles_wall_colour_is_given_back() -> None:
    first, tinted = _looks(_board(pawn=True))
    # The walls' one Gaussian spans grey to blue, so the first look keeps only the dome's part over the
    # corridor's core (where walls are not tested), not the disc (0.25 tile).
    assert not [c for c in first if _on_square(c) and c.area >= 0.2]
    assert len(tinted) == 1 and _on_square(tinted[0])
    assert tinted[0].area >= 0.22


def test_a_blue_wall_is_its_own_tiles_material() -> None:
    _, tinted = _looks(_board(pawn=False))
    assert tinted == []
