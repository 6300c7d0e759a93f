"""The refinement's choice of its answer, and the pose sweep's steering of a labelled photo."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from tests.support.pose_sweep import pose_of, steer
from vision.dataset import decode_image
from vision.locate import DEFAULT_CONFIG
from vision.locate_centre import periodic_centre
from vision.locate_refine import Refined, kept_fit, shade_free_separation

CORNERS_LAST = np.array([[0.0, 0.0], [7.0, 0.0], [7.0, 7.0], [0.0, 7.0]])
CORNERS_BEST = CORNERS_LAST + 0.2


def fit(corners: np.ndarray, separation: float) -> Refined:
    return Refined(corners, separation, 1.0)


def test_a_converging_grid_whose_separation_fell_but_still_separates_is_kept() -> None:
    # A 30-degree board in a 1280 px photo: 12.3 on the first refined pass, 7.3 once converged
    # (below 0.6 of it); the converged grid was the right one (0.01 tile off, the first 0.18).
    last, best = fit(CORNERS_LAST, 7.3), fit(CORNERS_BEST, 12.3)
    assert kept_fit(last, best, DEFAULT_CONFIG) is last


def test_a_grid_whose_fixed_tiles_collapsed_falls_back_to_the_best_pass() -> None:
    last, best = fit(CORNERS_LAST, 1.5), fit(CORNERS_BEST, 12.0)
    assert last.separation < DEFAULT_CONFIG.min_separation
    assert kept_fit(last, best, DEFAULT_CONFIG) is best


def test_a_chance_grid_that_fades_is_not_revived() -> None:
    # A dotted table: 2.8 on an early pass, 1.7 at the end; the faded grid stands (and is refused).
    last, best = fit(CORNERS_LAST, 1.7), fit(CORNERS_BEST, 2.8)
    assert kept_fit(last, best, DEFAULT_CONFIG) is last


def test_pose_of_a_square_turned_board() -> None:
    angle = np.radians(20.0)
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    quad = (np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]]) * 350.0) @ rot.T + [820.0, 616.0]
    pose = pose_of(quad, (1232, 1640))
    assert abs(pose["roll"] - 20.0) < 1e-6
    assert pose["tilt"] < 0.5  # a square stays square only under a camera looking straight down
    assert abs(pose["pitch"] - 100.0) < 1e-6
    assert abs(pose["edge"] - (616.0 - 350.0 * (np.cos(angle) + np.sin(angle))) / 100.0) < 1e-6


def test_steering_turns_the_board_about_the_lens_centre_and_keeps_it_in_view() -> None:
    image = np.zeros((960, 1280, 3), np.uint8)
    quad = np.array([[700.0, 300.0], [1200.0, 320.0], [1190.0, 820.0], [690.0, 800.0]])
    image[310:810, 700:1190] = 200
    out, moved = steer(image, quad, roll=-30.0)
    assert out.shape == image.shape
    pose = pose_of(moved, out.shape[:2])
    assert abs(pose["roll"] + 30.0) < 1e-6
    assert pose["edge"] > 0.5  # the board (and some of its frame) stays inside the photo
    # The turn and shrink are about the frame's centre, where the lens is centred.
    centre = np.array([(1280 - 1) / 2.0, (960 - 1) / 2.0])
    before = quad - centre
    after = moved - centre
    ratio = np.linalg.norm(after, axis=1) / np.linalg.norm(before, axis=1)
    assert np.allclose(ratio, ratio[0])  # one scale for every corner: no shift of the centre
    small, corners = steer(image, quad, roll=-30.0, size=(640, 480))
    assert small.shape == (480, 640, 3)
    np.testing.assert_allclose(corners, moved / 2.0, atol=1e-9)


def test_periodic_centre_is_the_boards_not_a_few_glowing_marks() -> None:
    # A 7x7 lattice of ordinary seams (pitch 10) on the left, and on the right one row of
    # glowing marks at the same spacing, each forty times stronger: the window where the
    # gradient repeats is still the board's (at night pictures and pawns glow like that).
    pitch = 10
    gu = np.zeros((120, 200), np.float32)
    gv = np.zeros_like(gu)
    seams = np.arange(20, 20 + 8 * pitch, pitch)
    gu[20:90, seams] = 1.0
    gv[np.ix_(seams, np.arange(20, 90))] = 1.0
    marks = np.arange(120, 190, pitch)
    gu[58:62, marks] = 40.0
    centre = periodic_centre(gu, gv, float(pitch))
    assert centre is not None
    assert np.linalg.norm(centre - [55.0, 55.0]) < 2 * pitch


def _photo(name: str) -> tuple[np.ndarray, np.ndarray]:
    path = Path(__file__).parent / "photos" / f"{name}.jpg"
    corners = np.asarray(json.loads(path.with_suffix(".json").read_text())["corners"], dtype=np.float64)
    return decode_image(path)[0], corners


def _striped(image: np.ndarray, corners: np.ndarray, period: float) -> np.ndarray:
    """Shadow stripes across the board (``period`` tiles), the light falling to 0.35 in each."""
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    centre = corners.mean(axis=0)
    pitch = float(np.linalg.norm(corners[1] - corners[0])) / 7.0
    phase = ((xx - centre[0]) + 0.6 * (yy - centre[1])) / (period * pitch)
    shade = 0.35 + 0.65 * (0.5 + 0.5 * np.cos(2 * np.pi * phase))
    return np.clip(image.astype(np.float32) * shade[..., None], 0, 255).astype(np.uint8)


def test_shade_free_separation_keeps_a_board_in_shadow_stripes_and_refuses_a_shifted_grid() -> None:
    image, corners = _photo("holdout_day/0000")
    striped = _striped(image, corners, 1.5)
    plain_bar = DEFAULT_CONFIG.min_separation
    seps = {
        name: shade_free_separation(img, Refined(corners, 0.0, 1.0), DEFAULT_CONFIG)
        for name, img in (("clear", image), ("striped", striped))
    }
    assert seps["striped"] > 1.5 * plain_bar  # the stripes leave the board's colours against its corners
    shift = (corners[1] - corners[0]) / 7.0  # one tile along the rows: fixed tiles on movable squares
    wrong = shade_free_separation(striped, Refined(corners + shift, 0.0, 1.0), DEFAULT_CONFIG)
    assert wrong < plain_bar < seps["striped"] <= seps["clear"] * 1.1
