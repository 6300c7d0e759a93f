"""The cast-shadow fringe per sector (vision.pawn_features.fringe) and its board-level projection (p29)."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.pawn_features import DARK, FEATURES, FRINGE_C, FRINGE_C_MAX, FRINGE_X, fringe
from vision.pawn_model import board_shadow, with_fringe_c


def _scene(shadow: str) -> tuple[np.ndarray, np.ndarray, tuple[int, int, int, int]]:
    """A 7 px disc on a light floor (value 200) with a dark crescent to its right, or a dark ring all round."""
    grey = np.full((40, 40), 200, np.uint8)
    labels = np.zeros((40, 40), np.int32)
    if shadow == "right":
        cv2.circle(grey, (23, 20), 8, 90, -1)
    elif shadow == "ring":
        cv2.circle(grey, (20, 20), 10, 90, -1)
    cv2.circle(labels, (20, 20), 7, 1, -1)
    return labels, grey, (13, 13, 15, 15)


def test_a_cast_shadow_on_one_side_is_asymmetric_and_points_there() -> None:
    labels, grey, box = _scene("right")
    asym, fx, fy = fringe(labels, 1, grey, box)
    assert asym > 0.3
    assert fx > 0.1 and abs(fy) < 0.5 * fx


def test_a_printed_outline_all_round_is_not_asymmetric() -> None:
    labels, grey, box = _scene("ring")
    asym, fx, fy = fringe(labels, 1, grey, box)
    assert asym < 0.1
    assert math.hypot(fx, fy) < 0.1
    assert fringe(labels, 1, np.full_like(grey, 200), box)[0] == 0.0  # no fringe on an even floor


def _row(dark: tuple[float, float], fringe_xy: tuple[float, float]) -> tuple[float, ...]:
    row = [0.0] * len(FEATURES)
    row[DARK], row[DARK + 1] = dark
    row[FRINGE_X], row[FRINGE_X + 1] = fringe_xy
    return tuple(row)


def test_the_fringe_toward_the_boards_shadow_side_speaks_only_with_a_shadow_side() -> None:
    rows = [_row((1.0, 0.1), (0.3, 0.0)), _row((0.9, -0.1), (0.2, 0.0)), _row((0.0, 0.0), (-0.2, 0.05))]
    sure = [True, True, False]
    side = board_shadow(rows, sure)
    assert side is not None and side[0] > 0.99
    c = [row[FRINGE_C] for row in with_fringe_c(rows, sure)]
    assert c[0] > 0.25 and c[2] < -0.15
    assert all(abs(v) <= FRINGE_C_MAX for v in c)
    # Sure blobs casting to opposite sides: no shadow side, no say.
    rows[1] = _row((-1.0, 0.0), (0.2, 0.0))
    assert board_shadow(rows, sure) is None
    assert all(row[FRINGE_C] == 0.0 for row in with_fringe_c(rows, sure))
