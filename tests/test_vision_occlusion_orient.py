"""Fingers crossing the seams at an angle, reaching in from the edge (o45, :mod:`vision.occlusion_orient`).

o45's dev team-renderer day 0002 (seed 7400002): an open pale hand over the bottom row, its fingers at about 45
degrees; only three corners foreign ((6,4), (7,4), (7,5): from-edge cluster 3, the limit is more than 4), the
frame band quiet. The seams and corners under the fingers run off the grid's axes: a cluster of 4 from the edge
holding the foreign corner (7,5).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.occlusion import decide
from vision.occlusion_config import OcclusionConfig, Signals
from vision.occlusion_orient import off_axis_from_edge, off_axis_scores
from vision.rectify import Rectified

T, M = 48, 36
CFG = OcclusionConfig()
ARGS = (CFG.off_axis_cut, CFG.lattice_patch, CFG.off_axis_board)


def _board(fingers: bool, hatched: bool = False) -> Rectified:
    """Tiles of wall grey with dark seams along both axes; ``fingers``: three pale bars at 45 degrees reaching
    in over the bottom edge round column 4; ``hatched``: walls striped at 45 degrees (o45's fresh held-out day
    7511020, clean, flagged without the board's own median)."""
    side = 7 * T + 2 * M
    rng = np.random.default_rng(3)
    image = np.clip(150 + rng.normal(0, 3, (side, side, 3)), 0, 255).astype(np.uint8)
    if hatched:
        yy, xx = np.mgrid[0:side, 0:side]
        image[(xx + yy) % 8 < 3] = 110
    for k in range(8):
        image[:, M + k * T - 1 : M + k * T + 2] = 60
        image[M + k * T - 1 : M + k * T + 2, :] = 60
    if fingers:
        for dx in (-30, 0, 30):
            ends = (M + 4 * T + dx, M + 7 * T + 30), (M + 4 * T + dx + 90, M + 7 * T - 60)
            cv2.line(image, *ends, (70, 80, 110), 19)  # the finger's shaded rim
            cv2.line(image, *ends, (200, 210, 235), 13)
    return Rectified(image=image, tile_px=T, margin_px=M, homography=np.eye(3), corners=np.zeros((4, 2)))


def _foreign(*points: tuple[int, int]) -> np.ndarray:
    out = np.zeros((8, 8), dtype=bool)
    for p in points:
        out[p] = True
    return out


def test_seams_run_along_the_axes_and_fingers_across_them() -> None:
    clean = off_axis_scores(_board(False))
    assert clean.shape == (15, 15)
    assert clean[::2].min() > 0.5  # every corner and side middle along the axes
    touched = off_axis_scores(_board(True))
    assert touched[13:, 8:12].min() < -0.1


def test_a_cluster_of_fingers_from_the_edge_holding_a_foreign_corner_counts() -> None:
    size = off_axis_from_edge(_board(True), _foreign((7, 4)), [], *ARGS)
    assert size >= CFG.min_off_axis
    assert off_axis_from_edge(_board(False), _foreign((7, 4)), [], *ARGS) == 0


def test_without_a_foreign_corner_in_the_cluster_the_angles_do_not_count() -> None:
    fingers = _board(True)
    assert off_axis_from_edge(fingers, _foreign(), [], *ARGS) == 0
    assert off_axis_from_edge(fingers, _foreign((2, 2)), [], *ARGS) == 0


def test_a_board_hatched_at_an_angle_has_no_axes_to_cross() -> None:
    hatched = _board(True, hatched=True)
    assert np.median(off_axis_scores(hatched)[::2]) < CFG.off_axis_board
    assert off_axis_from_edge(hatched, _foreign((7, 4)), [], *ARGS) == 0


def test_points_under_a_pawn_are_left_out() -> None:
    box = (M + 3 * T, M + 5 * T, 3 * T, 2 * T)  # x, y, w, h over the fingers
    assert off_axis_from_edge(_board(True), _foreign((7, 4)), [box], *ARGS) == 0


def test_decided_by_day_only() -> None:
    sig = Signals(band_run=0, lattice=3, quality=0.96, low_tiles=0, lattice_from_edge=3, lattice_off_axis=4)
    assert "hand" in (decide(sig, "day") or "")
    assert decide(sig, "night") is None
    assert decide(Signals(band_run=0, lattice=3, quality=0.96, low_tiles=0, lattice_off_axis=3), "day") is None
