"""A pawn of its material's own colour: its lit and shaded sides together are a body, a shadow alone is not."""

from __future__ import annotations

import numpy as np

from companion.board import Color, Tile
from companion.observation import TileReading
from vision.pawn_candidates import Candidate, Slender, candidates
from vision.rectify import Rectified

T, M = 48, 36
SAND = np.array([60.0, 190.0, 225.0])  # BGR: a saturated sand yellow, the pawn's own colour
WALL = np.array([120.0, 125.0, 130.0])
CENTRE = M + 3 * T + T // 2  # the middle of square (3, 3), where no corridor arm is measured


def _board(draw: str) -> Rectified:
    """Tiles open N, E and S (sand corridors, grey walls); on square (3, 3) a sand-yellow ``dome`` or ``shadow``.

    The dome is lit from the top left: its lit side brighter than the sand, its shaded
    side and the shadow it casts to the bottom right darker, all of the sand's own
    chromaticity. The shadow is the same darkened patch with no body in it.
    """
    side = 2 * M + 7 * T
    yy, xx = np.mgrid[0:side, 0:side].astype(np.float64)
    u, v = (xx - M) % T - T / 2.0, (yy - M) % T - T / 2.0  # position within each tile from its centre
    corridor = ((np.abs(u) <= 0.2 * T) & (v <= 0.2 * T)) | ((np.abs(v) <= 0.2 * T) & (u >= -0.2 * T))
    image = np.where(corridor[..., None], SAND, WALL)
    image += np.random.default_rng(3).normal(0.0, 3.0, image.shape)  # print grain
    radius = 0.2 * T
    inside = np.hypot(xx - CENTRE, yy - CENTRE) <= radius
    shadow = (np.hypot(xx - CENTRE - 6, yy - CENTRE - 6) <= radius + 2) & ~inside
    image[shadow] *= 0.55
    nx, ny = (xx - CENTRE) / radius, (yy - CENTRE) / radius
    if draw == "dome":
        light = 0.9 - 0.45 * np.tanh(12.0 * (nx + ny) / np.sqrt(2))  # a glossy body's sharp terminator
        image[inside] = (SAND * light[..., None])[inside]
    else:
        image[inside] *= 0.55
    corners = np.array([[M, M], [M + 7 * T, M], [M + 7 * T, M + 7 * T], [M, M + 7 * T]], np.float32)
    return Rectified(np.clip(image, 0, 255).astype(np.uint8), T, M, np.eye(3), corners)


def _looks(rect: Rectified) -> tuple[list[Candidate], list[Slender]]:
    second: list[Slender] = []
    tiles = [TileReading(Tile.NES, 1.0)] * 49
    return candidates(rect, tiles, slender=second), second


def _on_square(cand: Candidate) -> bool:
    return abs(cand.base[0] - CENTRE) < 0.5 * T and abs(cand.base[1] - CENTRE) < 0.5 * T


def test_a_body_of_its_corridors_colour_is_found_by_a_second_look() -> None:
    first, second = _looks(_board("dome"))
    # The first look keeps only its lit side: no yellow blob a foot's size on the square.
    assert not [c for c in first if c.color is Color.YELLOW and _on_square(c) and c.area >= 0.08]
    found = [cand for color, judge in second if color is Color.YELLOW and (cand := judge()) is not None]
    assert len(found) == 1 and _on_square(found[0])
    assert found[0].area >= 0.1  # lit and shaded side together


def test_the_material_in_a_shadow_is_no_body() -> None:
    _, second = _looks(_board("shadow"))
    found = [cand for color, judge in second if color is Color.YELLOW and (cand := judge()) is not None]
    assert not [c for c in found if _on_square(c)]
