"""The found pawn's body grown over its own colour (vision.pawn_body)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.pawn_body import grow_body

T = 48  # tile pixels


def _scene(background: tuple[int, int, int]) -> tuple[np.ndarray, tuple[int, int, int, int], np.ndarray]:
    """A green pawn seen from above on ``background``: a lit left half (the blob found) and a shaded right half."""
    image = np.zeros((160, 160, 3), np.uint8)
    image[:] = background
    yy, xx = np.mgrid[0:160, 0:160]
    disc = (xx - 80) ** 2 + (yy - 80) ** 2 <= 12**2
    lit = disc & (xx < 80)
    image[lit] = (60, 200, 70)  # BGR: bright green
    image[disc & ~lit] = (20, 80, 28)  # the same hue and saturation, darker
    ys, xs = np.nonzero(lit)
    x0, y0 = int(xs.min()), int(ys.min())
    box = (x0, y0, int(xs.max()) + 1 - x0, int(ys.max()) + 1 - y0)
    pixels = lit[y0 : y0 + box[3], x0 : x0 + box[2]]
    return image, box, pixels


def _full(box: tuple[int, int, int, int], pixels: np.ndarray) -> np.ndarray:
    out = np.zeros((160, 160), bool)
    x, y, w, h = box
    out[y : y + h, x : x + w] = pixels
    return out


def test_the_shaded_side_of_the_body_joins_the_lit_blob() -> None:
    image, box, pixels = _scene((150, 200, 220))  # sand
    grown_box, grown = grow_body(image, box, pixels, T)
    mask = _full(grown_box, grown)
    assert mask[80, 88] and mask[74, 86]  # the shaded half
    assert mask[80, 74]  # the lit half kept
    assert not mask[80, 100] and not mask[60, 80]  # not the sand around it
    assert grown.sum() > 1.7 * pixels.sum()


def test_a_board_of_the_pawns_own_colour_is_not_taken_for_its_body() -> None:
    image, box, pixels = _scene((30, 120, 40))  # a darker green hedge all round
    grown_box, grown = grow_body(image, box, pixels, T)
    assert grown_box == box and np.array_equal(grown, pixels)


def test_a_shadow_of_the_boards_colour_stays_out() -> None:
    image, box, pixels = _scene((150, 200, 220))
    shadow = np.zeros(image.shape[:2], np.uint8)
    cv2.ellipse(shadow, (100, 80), (16, 9), 0, 0, 360, 1, -1)
    image[(shadow > 0) & (image[..., 0] == 150)] = (75, 100, 110)  # the sand in the pawn's cast shadow
    grown_box, grown = grow_body(image, box, pixels, T)
    mask = _full(grown_box, grown)
    assert not mask[80, 106]
