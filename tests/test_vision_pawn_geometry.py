"""The camera's nadir from the board's homography, and how uncertain it is (vision.pawn_geometry)."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.pawn_geometry import camera_position, nadir_spread
from vision.rectify import Rectified, rectified_size

TILE, MARGIN = 48, 24
SIDE = rectified_size(TILE, MARGIN)
WIDTH, HEIGHT, FOCAL = 1640, 1232, 1400.0


def _view(tilt_degrees: float, distance: float = 900.0) -> tuple[Rectified, np.ndarray]:
    """A pinhole camera looking at the board's centre, tilted off the vertical; its rectified view and its position.

    Board-plane units are rectified pixels (z up); the camera looks at the board's centre
    from ``distance`` away, leaning back along -y by ``tilt_degrees``.
    """
    centre = np.array([SIDE / 2.0, SIDE / 2.0, 0.0])
    tilt = math.radians(tilt_degrees)
    eye = centre + distance * np.array([0.0, -math.sin(tilt), math.cos(tilt)])
    forward = (centre - eye) / np.linalg.norm(centre - eye)
    right = np.array([1.0, 0.0, 0.0])
    down = np.cross(forward, right)
    rot = np.vstack([right, down, forward])  # world -> camera
    k = np.array([[FOCAL, 0, WIDTH / 2.0], [0, FOCAL, HEIGHT / 2.0], [0, 0, 1]])
    lo, hi = MARGIN - 0.5, MARGIN + 7 * TILE - 0.5
    board = np.array([[lo, lo], [hi, lo], [hi, hi], [lo, hi]], dtype=np.float64)
    seen = []
    for x, y in board:
        p = k @ (rot @ (np.array([x, y, 0.0]) - eye))
        seen.append(p[:2] / p[2])
    image_corners = np.array(seen, dtype=np.float32)
    homography = cv2.getPerspectiveTransform(image_corners, board.astype(np.float32)).astype(np.float64)
    image = np.zeros((SIDE, SIDE, 3), np.uint8)
    return Rectified(image, TILE, MARGIN, homography, image_corners, (HEIGHT, WIDTH)), eye


def test_camera_position_is_recovered_from_an_oblique_view() -> None:
    rect, eye = _view(35.0)
    pose = camera_position(rect)
    assert pose is not None
    assert np.allclose(pose, eye, atol=1.0)


def test_a_steeper_view_has_a_more_uncertain_nadir() -> None:
    oblique = nadir_spread(_view(35.0)[0])
    steep = nadir_spread(_view(4.0)[0])
    assert 0.0 < oblique < TILE  # a corner's 0.02-tile error moves a 35-degree view's nadir under a tile
    assert steep > 2.0 * oblique


def test_the_spread_is_capped_at_the_board_and_cached_per_view() -> None:
    rect = _view(0.5)[0]
    spread = nadir_spread(rect)
    assert TILE < spread <= SIDE  # straight down: the nadir is anywhere under the board
    assert nadir_spread(rect) == spread
