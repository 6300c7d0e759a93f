"""The night search's second opinion: the glowing tile area's outline as a coarse grid."""

from __future__ import annotations

import cv2
import numpy as np

from vision.locate import DEFAULT_CONFIG, block_average, order_corners
from vision.locate_night import glow_outline, glow_quads, inset
from vision.locate_refine import refine_corners
from vision.render import random_scene

QUAD = np.array([[300.0, 120.0], [620.0, 160.0], [600.0, 470.0], [270.0, 430.0]])


def _glowing_board(arrows: bool = False, spare: bool = False) -> np.ndarray:
    """A dark room with one glowing 7x7 'board' (dark corridor stripes inside), optionally glowing
    triangles on its edges (a frame's gate arrows) and a glowing square beside it (a spare tile)."""
    image = np.full((600, 800, 3), 12, np.uint8)
    cv2.fillConvexPoly(image, QUAD.astype(np.int32), (60, 200, 90))
    h = cv2.getPerspectiveTransform(np.float32([[0, 0], [7, 0], [7, 7], [0, 7]]), QUAD.astype(np.float32))
    for k in range(7):  # a dark corridor through every row of tiles
        a, b = cv2.perspectiveTransform(np.float32([[[0.3, k + 0.5], [6.7, k + 0.5]]]), h)[0]
        cv2.line(image, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), (20, 30, 25), 12)
    if arrows:  # triangles pointing away from every edge, a tile wide, at the frame's gates
        for u in (1.5, 3.5, 5.5):
            for tri in (
                [[u - 0.5, -0.1], [u + 0.5, -0.1], [u, -1.1]],
                [[u - 0.5, 7.1], [u + 0.5, 7.1], [u, 8.1]],
                [[-0.1, u - 0.5], [-0.1, u + 0.5], [-1.1, u]],
                [[7.1, u - 0.5], [7.1, u + 0.5], [8.1, u]],
            ):
                corners = cv2.perspectiveTransform(np.float32([tri]), h)[0]
                cv2.fillConvexPoly(image, corners.astype(np.int32), (60, 200, 90))
    if spare:
        cv2.rectangle(image, (608, 478), (658, 528), (60, 200, 90), -1)  # within the closing
    return image


def _error(quad: np.ndarray) -> float:
    """Largest corner distance (tiles of ~45 px) from QUAD, in whichever vertex order matches best."""
    found = order_corners(np.asarray(quad, np.float32))
    return float(np.linalg.norm(found - order_corners(QUAD.astype(np.float32)), axis=1).max()) / 45.0


def test_the_glowing_region_outlines_the_board() -> None:
    assert _error(glow_outline(_glowing_board())) < 0.15


def test_opening_cuts_glowing_arrows_and_a_spare_tile_off() -> None:
    image = _glowing_board(arrows=True, spare=True)
    assert _error(glow_outline(image)) > 0.5  # the hull takes the arrows and the spare tile in
    assert _error(glow_outline(image, open_tiles=0.8)) < 0.3


def test_inset_cuts_the_same_share_of_frame_off_every_side() -> None:
    board = np.array([[0.0, 0.0], [9.0, 0.0], [9.0, 9.0], [0.0, 9.0]])
    np.testing.assert_allclose(inset(board, 1.0), [[1, 1], [8, 1], [8, 8], [1, 8]], atol=1e-4)


def test_a_dark_frame_has_no_outline_to_offer() -> None:
    assert glow_quads(np.full((60, 80, 3), 9, np.uint8)) == []


def test_a_rendered_night_board_is_refined_from_its_glow() -> None:
    image, label = random_scene(41, look="classic", lighting="night")
    factor = max(1, int(max(image.shape[:2]) / DEFAULT_CONFIG.work_px + 0.5))
    work = block_average(image, factor)
    refined = refine_corners(image, order_corners(glow_quads(work)[0] * factor), DEFAULT_CONFIG, (factor, work))
    assert np.linalg.norm(refined.corners - np.array(label["corners"]), axis=1).max() < 6.0
