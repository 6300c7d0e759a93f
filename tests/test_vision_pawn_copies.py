"""A picture printed twice in one colour is artwork, and so are its copies in other colours (vision.pawn_copies)."""

from __future__ import annotations

import numpy as np

from companion.board import Color
from vision.pawn_candidates import Candidate
from vision.pawn_copies import copies, printed_copies, without_copies
from vision.pawn_model import FEATURES
from vision.pawns import find_pawns
from vision.rectify import Rectified

TILE, MARGIN = 48, 36
SIDE = 2 * MARGIN + 7 * TILE
SAND = (150, 200, 225)  # BGR
RED, GREEN, BLUE = (40, 40, 230), (40, 200, 40), (220, 90, 30)


def _centre(square: tuple[int, int]) -> tuple[int, int]:
    return MARGIN + square[1] * TILE + TILE // 2, MARGIN + square[0] * TILE + TILE // 2


def _dome(image: np.ndarray, square: tuple[int, int], colour: tuple[int, int, int], stretch: float = 1.0) -> np.ndarray:
    """A round body lit from the top left, with its shadow to the bottom right (``stretch`` > 1: longer along y).

    Drawn with the same pixels wherever it is put, it is a printed picture of a shaded gem; the mask is returned.
    """
    cx, cy = _centre(square)
    yy, xx = np.mgrid[0:SIDE, 0:SIDE].astype(np.float64)
    radius = 0.22 * TILE
    nx, ny = (xx - cx) / radius, (yy - cy) / (radius * stretch)
    inside = nx**2 + ny**2 <= 1.0
    shadow = ((xx - cx - 6) / (radius + 2)) ** 2 + ((yy - cy - 6) / ((radius + 2) * stretch)) ** 2 <= 1.0
    image[shadow & ~inside] = (image[shadow & ~inside] * 0.55).astype(np.uint8)
    light = np.clip(0.65 - 0.45 * (nx + ny) / np.sqrt(2), 0.25, 1.0)
    base = np.array(colour, np.float64)
    body = (0.25 + 0.75 * light)[..., None] * base[None, None, :]
    image[inside] = np.clip(body[inside], 0, 255).astype(np.uint8)
    return inside


def _board() -> np.ndarray:
    return np.full((SIDE, SIDE, 3), SAND, np.uint8)


def _rect(image: np.ndarray) -> Rectified:
    m, t = MARGIN, TILE
    corners = np.array([[m, m], [m + 7 * t, m], [m + 7 * t, m + 7 * t], [m, m + 7 * t]], np.float32)
    return Rectified(image, t, m, np.eye(3), corners)


def _candidate(mask: np.ndarray, color: Color, index: int, labels: np.ndarray) -> Candidate:
    labels[mask] = index
    ys, xs = np.nonzero(mask)
    box = (int(xs.min()), int(ys.min()), int(xs.max() - xs.min() + 1), int(ys.max() - ys.min() + 1))
    return Candidate(color, (0.0,) * len(FEATURES), (float(xs.mean()), float(ys.mean())), box, 0.2, labels, index)


def _mask_and_grey(image: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    ys, xs = np.nonzero(mask)
    window = (slice(ys.min(), ys.max() + 1), slice(xs.min(), xs.max() + 1))
    return mask[window], image[window].mean(axis=2)


def test_the_same_drawing_in_two_inks_is_a_copy_and_another_drawing_of_its_outline_is_not() -> None:
    image = _board()
    red = _dome(image, (1, 1), RED)
    green = _dome(image, (5, 5), GREEN)
    assert copies(*_mask_and_grey(image, red), *_mask_and_grey(image, green))
    # The same outline lit from the other side (a body under another light, or another picture): no copy.
    other = _board()
    flipped = _dome(other, (5, 5), GREEN)
    other[flipped] = other[flipped][::-1]
    assert not copies(*_mask_and_grey(image, red), *_mask_and_grey(other, flipped))
    # Nor a body of another silhouette.
    tall = _dome(other, (3, 3), BLUE, stretch=1.6)
    assert not copies(*_mask_and_grey(image, red), *_mask_and_grey(other, tall))


def test_a_copy_set_holding_a_colour_twice_is_printed_and_one_copy_per_colour_is_not() -> None:
    image = _board()
    labels = np.zeros(image.shape[:2], np.int32)
    blobs = [
        _candidate(_dome(image, (1, 1), RED), Color.RED, 1, labels),
        _candidate(_dome(image, (1, 5), RED), Color.RED, 2, labels),
        _candidate(_dome(image, (5, 1), GREEN), Color.GREEN, 3, labels),
        _candidate(_dome(image, (5, 5), BLUE, stretch=1.6), Color.BLUE, 4, labels),
    ]
    assert printed_copies(image, blobs) == {0, 1, 2}
    assert without_copies(image, blobs) == [blobs[3]]
    # The same picture once per colour: any of them may be the pawn (the set of pawns is one piece in four colours).
    assert printed_copies(image, [blobs[0], blobs[2]]) == set()


def test_a_picture_printed_twice_in_one_colour_is_not_reported_as_pawns() -> None:
    """Shaded gems drawn on three tiles (red twice, green once) score as pawns; as copies they are artwork."""
    image = _board()
    for square, colour in (((1, 1), RED), ((1, 5), RED), ((5, 1), GREEN)):
        _dome(image, square, colour)
    _dome(image, (4, 4), BLUE, stretch=1.6)  # a body unlike the pictures: a pawn
    found = {d.color: d.square for d in find_pawns(_rect(image), None)}
    assert found == {Color.BLUE: (4, 4)}
