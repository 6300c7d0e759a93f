"""A pawn in a pile split into pieces: joined into one body where another pawn's blob lies against it, not elsewhere."""

from __future__ import annotations

import numpy as np

from companion.board import Color, Tile
from companion.observation import TileReading
from vision.pawn_candidates import Candidate, Slender, candidates
from vision.rectify import Rectified

T, M = 48, 36
SAND = np.array([150.0, 200.0, 215.0])  # BGR: a pale sand corridor
WALL = np.array([120.0, 125.0, 130.0])
BLUE = np.array([220.0, 110.0, 30.0])
RED = np.array([40.0, 40.0, 210.0])
CENTRE = M + 3 * T + T // 2  # the middle of square (3, 3)
RADIUS = 0.22 * T


def _dome(image: np.ndarray, xx: np.ndarray, yy: np.ndarray, centre: tuple[float, float], colour: np.ndarray) -> None:
    """A glossy round body lit from the top left, with the shadow it casts to the bottom right."""
    cx, cy = centre
    inside = np.hypot(xx - cx, yy - cy) <= RADIUS
    shadow = (np.hypot(xx - cx - 6, yy - cy - 6) <= RADIUS + 2) & ~inside
    image[shadow] *= 0.55
    light = 0.9 - 0.45 * np.tanh(12.0 * ((xx - cx) + (yy - cy)) / RADIUS / np.sqrt(2))
    image[inside] = (colour * light[..., None])[inside]


def _board(with_partner: bool) -> Rectified:
    """Tiles open N, E and S; on square (3, 3) a blue body crossed by a band of the wall's grey (the part of
    it the artwork test eats), and, with ``with_partner``, a red body standing against it: a pile."""
    side = 2 * M + 7 * T
    yy, xx = np.mgrid[0:side, 0:side].astype(np.float64)
    u, v = (xx - M) % T - T / 2.0, (yy - M) % T - T / 2.0
    corridor = ((np.abs(u) <= 0.2 * T) & (v <= 0.2 * T)) | ((np.abs(v) <= 0.2 * T) & (u >= -0.2 * T))
    image = np.where(corridor[..., None], SAND, WALL)
    image += np.random.default_rng(3).normal(0.0, 3.0, image.shape)
    if with_partner:
        _dome(image, xx, yy, (CENTRE - 2.0 * RADIUS - 2, CENTRE), RED)
    _dome(image, xx, yy, (CENTRE, CENTRE), BLUE)
    band = (np.abs(xx - CENTRE - 0.1 * RADIUS) <= 1.5) & (np.hypot(xx - CENTRE, yy - CENTRE) <= RADIUS)
    image[band] = WALL * 0.8
    corners = np.array([[M, M], [M + 7 * T, M], [M + 7 * T, M + 7 * T], [M, M + 7 * T]], np.float32)
    return Rectified(np.clip(image, 0, 255).astype(np.uint8), T, M, np.eye(3), corners)


def _looks(rect: Rectified) -> tuple[list[Candidate], list[Candidate]]:
    """The first look's blue blobs and the blue bodies the second looks find."""
    second: list[Slender] = []
    first = candidates(rect, [TileReading(Tile.NES, 1.0)] * 49, slender=second)
    found = [cand for color, judge in second if color is Color.BLUE and (cand := judge()) is not None]
    return [c for c in first if c.color is Color.BLUE], found


def test_a_body_split_in_a_pile_is_joined() -> None:
    first, found = _looks(_board(with_partner=True))
    assert len(first) <= 2 and all(c.area < 0.1 for c in first)  # two halves at most, each under a body
    bodies = [c for c in found if c.area >= 0.1]
    assert len(bodies) == 1
    x, _, w, _ = bodies[0].box
    assert x <= CENTRE - 0.8 * RADIUS and x + w >= CENTRE + 0.8 * RADIUS  # both halves


def test_pieces_with_no_pawn_beside_them_stay_apart() -> None:
    _, found = _looks(_board(with_partner=False))
    assert not [c for c in found if c.area >= 0.1]
