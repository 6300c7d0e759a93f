"""The fifth (3D) renderer: labels load with the project's loader, frames are deterministic,
and the label's corners sit where the tile area is drawn."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.board import FIXED_TILES
from tests.support.fifth_render import main, render
from vision.dataset import load_folder

SIZE = (640, 480)
SIDES = ((1, 0, -1), (2, 1, 0), (4, 0, 1), (8, -1, 0))  # N E S W: bit, dx, dy in the top-down view


def test_cli_writes_labels_the_loader_accepts(tmp_path: Path) -> None:
    assert main([str(tmp_path), "--count", "3", "--seed", "11", "--occluded-fraction", "1.0",
                 "--lighting", "night", "--size", "480x360"]) == 0
    data = load_folder(tmp_path)
    assert not data.skipped
    assert len(data.samples) == 3
    for sample in data.samples:
        label = sample.label
        assert label.occluded and label.lighting == "night"
        assert label.tiles is not None and label.corners is not None
        for (r, c), tile in FIXED_TILES.items():
            assert label.tiles[r * 7 + c] == tile
        assert 2 <= len(label.pawns) <= 4
        image = cv2.imread(str(sample.path))
        assert image.shape == (360, 480, 3)


def test_same_seed_same_frame_other_seed_other_frame() -> None:
    a_img, a_label = render(5, size=SIZE)
    b_img, b_label = render(5, size=SIZE)
    c_img, c_label = render(6, size=SIZE)
    assert np.array_equal(a_img, b_img) and a_label == b_label
    assert not np.array_equal(a_img, c_img)
    assert a_label["corners"] != c_label["corners"]


def test_default_size_is_between_the_outsiders_bounds() -> None:
    image, label = render(7)
    h, w = image.shape[:2]
    assert 1280 <= w <= 2028 and 960 <= h <= 1520
    corners = np.array(label["corners"])
    assert np.all(corners[:, 0] > 0) and np.all(corners[:, 0] < w)
    assert np.all(corners[:, 1] > 0) and np.all(corners[:, 1] < h)


def _fixed_tiles_agreeing(image: np.ndarray, corners: np.ndarray, shift: float = 0.0) -> int:
    """Fixed tiles whose open sides look lighter than their closed sides, in the view the corners rectify."""
    t = 40
    dst = np.float32([[0, 0], [7 * t, 0], [7 * t, 7 * t], [0, 7 * t]]) + np.float32(shift * t)
    top = cv2.warpPerspective(image, cv2.getPerspectiveTransform(np.float32(corners), dst), (7 * t, 7 * t))
    grey = cv2.cvtColor(top, cv2.COLOR_BGR2GRAY).astype(np.float64)
    agree = 0
    for (r, c), tile in FIXED_TILES.items():
        opened, closed = [], []
        for bit, dx, dy in SIDES:
            x = int((c + 0.5 + 0.4 * dx) * t)
            y = int((r + 0.5 + 0.4 * dy) * t)
            (opened if int(tile) & bit else closed).append(grey[y - 2:y + 3, x - 2:x + 3].mean())
        agree += np.mean(opened) > np.mean(closed)
    return agree


@pytest.mark.parametrize("seed", [21, 22])
def test_label_corners_are_where_the_tile_area_is_drawn(seed: int) -> None:
    image, label = render(seed, size=SIZE)
    corners = np.array(label["corners"], np.float64)
    # day corridors are lighter than walls in every look: the fixed tiles' known openings must show
    assert _fixed_tiles_agreeing(image, corners) >= 13
    assert _fixed_tiles_agreeing(image, corners, shift=0.5) < 13


def test_label_json_round_trips(tmp_path: Path) -> None:
    main([str(tmp_path), "--count", "1", "--seed", "3", "--size", "480x360"])
    raw = json.loads((tmp_path / "0000.json").read_text())
    assert set(raw) >= {"tiles", "pawns", "corners", "lighting", "occluded"}
    assert raw["lighting"] == "day" and raw["occluded"] is False


def test_lens_model_round_trips_the_label_points() -> None:
    """Labels use distort_pixels, the image warp uses undistort_pixels: they must be inverses."""
    from tests.support.fifth_render_camera import Camera

    k = np.array([[1500.0, 0, 900], [0, 1500.0, 700], [0, 0, 1]])
    cam = Camera(k, np.eye(3), np.zeros(3), 0.12, 0.04, 1800, 1400)
    pts = np.array([[0.0, 0.0], [1800, 1400], [900, 700], [1750, 60], [30, 1300]])
    back = cam.undistort_pixels(cam.distort_pixels(pts))
    assert np.allclose(back, pts, atol=1e-3)
    assert not np.allclose(cam.distort_pixels(pts), pts, atol=1.0)  # the lens does bend the corners


def test_meta_describes_the_frame_without_changing_it(tmp_path: Path) -> None:
    plain, _ = render(9, size=SIZE)
    meta: dict = {}
    described, label = render(9, size=SIZE, meta=meta)
    assert np.array_equal(plain, described)
    assert meta["pawns"] == len(label["pawns"])
    assert meta["family"] in {"classic", "castle", "creature", "other"}
    assert 45.0 <= meta["camera_cm"] <= 80.0 and 0.0 <= meta["tilt_deg"] <= 15.0


def test_breakdown_counts_each_kind_of_mistake() -> None:
    from tests.support.fifth_render_breakdown import breakdown, parse_results

    text = (
        "0000.jpg   ok    day   10.0 ms  tiles 49/49  pawns 4/4\n"
        "0001.jpg   WRONG day   10.0 ms  tiles 48/49  pawns 2/3  [tile 1,1 NE read NS; red at 1,1 not found;"
        " blue reported at 2,2, not in the label]\n"
        "images 2  readable 2  boards 50.0%\n"
    )
    results = parse_results(text)
    assert results["0000.jpg"] == {"wrong": 0, "tile_errors": 0, "pawn_errors": 0}
    assert results["0001.jpg"] == {"wrong": 1, "tile_errors": 1, "pawn_errors": 2}
    lines = breakdown([{"image": "0000.jpg", "pawn_shape": "cone"}, {"image": "0001.jpg", "pawn_shape": "meeple"}],
                      results)
    meeple = next(line for line in lines if line.startswith("pawn_shape=meeple"))
    assert meeple.split()[1:] == ["1", "0.0%", "2.00", "1.00"]
