"""The pawns' paint-out (:func:`vision.pawns.erase`) is made on a half-size copy and restores the board."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.board import Color
from vision import pawns as pawn_mod
from vision.pawns import PawnDetection, erase
from vision.rectify import Rectified

T, M = 48, 36
SIDE = 2 * M + 7 * T
WALL = (60, 110, 70)  # BGR: a green hedge
CORRIDOR = (200, 210, 215)  # pale path
PAWN = (30, 30, 200)  # red


def _board_with_a_pawn() -> tuple[Rectified, PawnDetection]:
    """A tile with a vertical corridor through wall, a red disc standing on the corridor's edge."""
    image = np.full((SIDE, SIDE, 3), WALL, np.uint8)
    x0 = M + 3 * T
    image[:, x0 + 17 : x0 + 31] = CORRIDOR  # the corridor's arm runs N-S through column 3
    cx, cy, radius = x0 + 24, M + 3 * T + 24, 10
    cv2.circle(image, (cx, cy), radius, PAWN, -1)
    box = (cx - radius, cy - radius, 2 * radius + 1, 2 * radius + 1)
    x, y, w, h = box
    pixels = np.all(image[y : y + h, x : x + w] == PAWN, axis=-1)
    rect = Rectified(image, T, M, np.eye(3), np.zeros((4, 2), np.float32))
    detection = PawnDetection(Color.RED, (3, 3), 0.99, (float(cx), float(cy)), box, 0.14, pixels)
    return rect, detection


def test_the_paint_is_made_on_a_half_size_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Telea's work grows with the pixels it paints: it is asked to paint a quarter of them."""
    rect, detection = _board_with_a_pawn()
    seen: list[tuple[tuple[int, ...], int]] = []
    inpaint = cv2.inpaint

    def recording(src: np.ndarray, mask: np.ndarray, radius: float, flags: int) -> np.ndarray:
        seen.append((src.shape, int(np.count_nonzero(mask))))
        return inpaint(src, mask, radius, flags)

    monkeypatch.setattr(pawn_mod.cv2, "inpaint", recording)
    erase(rect, [detection])
    _, _, w, h = detection.box
    pad = 3 + 4  # erase's crop margin around the box
    assert seen and seen[0][0][:2] == ((h + 2 * pad + 1) // 2, (w + 2 * pad + 1) // 2)
    assert seen[0][1] < 0.4 * np.count_nonzero(detection.pixels)


def test_the_paint_restores_the_board_and_keeps_every_other_pixel() -> None:
    rect, detection = _board_with_a_pawn()
    clean = erase(rect, [detection])
    x, y, w, h = detection.box
    dilated = cv2.dilate(
        np.pad(detection.pixels.astype(np.uint8), 1), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    )
    painted = np.zeros(rect.image.shape[:2], bool)
    painted[y - 1 : y + h + 1, x - 1 : x + w + 1] = dilated > 0
    # Outside the (dilated) pawn nothing moved, bit for bit.
    assert np.array_equal(clean.image[~painted], rect.image[~painted])
    # Inside, no pawn red is left: every painted pixel is near the wall's or the corridor's colour.
    inside = clean.image[painted].astype(np.int32)
    to_board = np.minimum(np.abs(inside - np.array(WALL)).max(axis=1), np.abs(inside - np.array(CORRIDOR)).max(axis=1))
    red_left = (inside[:, 2] > inside[:, 1] + 60) & (inside[:, 2] > inside[:, 0] + 60)
    assert not red_left.any()
    assert np.median(to_board) < 40
