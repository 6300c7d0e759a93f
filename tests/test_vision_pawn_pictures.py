"""A printed picture inside a pawn-coloured blob (eyes, a face of another ink) is no moulded pawn."""

from __future__ import annotations

import cv2
import numpy as np

from companion.board import Color
from vision.pawn_candidates import Candidate
from vision.pawn_model import FEATURES
from vision.pawn_pictures import carries_picture, without_pictures

TILE = 48
BOARD = (240, 220, 200)  # a pale corridor (BGR)
BLUE = (200, 60, 30)


def _canvas() -> np.ndarray:
    return np.full((120, 120, 3), BOARD, np.uint8)


def _disc(
    image: np.ndarray, centre: tuple[int, int], radius: int, colour: tuple[int, int, int], shade: bool = True
) -> None:
    """A disc of ``colour``, lit from the upper left (a round body's shading: darker toward its lower right)."""
    yy, xx = np.mgrid[: image.shape[0], : image.shape[1]]
    inside = (xx - centre[0]) ** 2 + (yy - centre[1]) ** 2 <= radius**2
    falloff = 1.0 - 0.35 * np.clip(((xx - centre[0]) + (yy - centre[1])) / (2.0 * radius) + 0.5, 0.0, 1.0)
    lit = np.array(colour, np.float64)[None, None, :] * (falloff if shade else np.ones_like(falloff))[..., None]
    image[inside] = np.clip(lit[inside], 0, 255).astype(np.uint8)


def _candidate(
    mask: np.ndarray, color: Color = Color.BLUE, index: int = 1, labels: np.ndarray | None = None
) -> Candidate:
    labels = np.zeros(mask.shape, np.int32) if labels is None else labels
    labels[mask] = index
    ys, xs = np.nonzero(mask)
    box = (int(xs.min()), int(ys.min()), int(xs.max() - xs.min() + 1), int(ys.max() - ys.min() + 1))
    return Candidate(color, (0.0,) * len(FEATURES), (float(xs.mean()), float(ys.mean())), box, 0.2, labels, index)


def _blue_mask(image: np.ndarray) -> np.ndarray:
    """The blue pawn gate's pixels (hue 92-135, S >= 90, V >= 40), as the candidate stage keeps them."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    return (h >= 92) & (h <= 135) & (s >= 90) & (v >= 40)


def test_a_shaded_round_body_carries_no_picture() -> None:
    image = _canvas()
    _disc(image, (60, 60), 11, BLUE)
    assert not carries_picture(image, TILE, _candidate(_blue_mask(image)))


def test_dark_marks_of_the_blobs_own_hue_are_no_picture() -> None:
    # A raised body's head shades its own base: a dark crescent of its paint inside the outline, as dark and
    # small as a printed creature's eyes. Only another ink tells a picture.
    image = _canvas()
    _disc(image, (60, 60), 11, BLUE, shade=False)
    image[56:59, 54:57] = (70, 15, 5)
    image[56:59, 63:66] = (70, 15, 5)
    assert not carries_picture(image, TILE, _candidate(_blue_mask(image)))


def test_a_face_of_another_ink_inside_the_outline_makes_a_picture() -> None:
    image = _canvas()
    _disc(image, (60, 60), 11, BLUE, shade=False)
    _disc(image, (60, 63), 4, (30, 140, 240), shade=False)  # an orange mouth
    assert carries_picture(image, TILE, _candidate(_blue_mask(image)))


def test_a_pawn_piled_in_front_is_not_ink_drawn_inside_the_one_behind() -> None:
    image = _canvas()
    _disc(image, (60, 60), 11, BLUE, shade=False)
    _disc(image, (60, 63), 4, (30, 140, 240), shade=False)  # another colour's candidate, not a mark
    labels = np.zeros(image.shape[:2], np.int32)
    blue = _candidate(_blue_mask(image), labels=labels)
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    front = _candidate((hsv[..., 0] >= 10) & (hsv[..., 0] <= 25) & (hsv[..., 1] >= 90), Color.YELLOW, 2, labels)
    assert not carries_picture(image, TILE, blue, [blue, front])
    assert without_pictures(image, TILE, [blue], [front]) == [blue]


def test_the_board_seen_between_a_figures_arms_is_not_enclosed() -> None:
    # A C-shaped body open to the board on one side: the green board in its bay is not surrounded.
    image = np.full((120, 120, 3), (40, 160, 40), np.uint8)
    _disc(image, (60, 60), 14, BLUE, shade=False)
    image[52:68, 60:80] = (40, 160, 40)
    assert not carries_picture(image, TILE, _candidate(_blue_mask(image)))


def test_a_picture_seen_in_a_pawns_shade_through_its_silhouette_is_not_its_ink() -> None:
    # A pawn standing on a printed picture: the picture's purple shows through a gap in the body, in its shade.
    image = _canvas()
    _disc(image, (60, 60), 11, BLUE, shade=False)
    _disc(image, (60, 63), 4, (150, 40, 120), shade=False)  # purple, darker than the body (value 150 < 200)
    assert not carries_picture(image, TILE, _candidate(_blue_mask(image)))
