"""The fourth (outside-check) renderer: labels per FORMATS.md §5, determinism, corners where the board is.

No accuracy floors here on purpose: the fourth renderer measures the reader, it
is not a target to tune on.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.board import SIZE
from tests.support import fourth_render
from tests.support.fourth_render_camera import random_camera
from tests.support.fourth_render_figures import Layer
from tests.support.fourth_render_light import build_lighting
from tests.support.fourth_render_style import random_style
from tests.support.label_checks import check_board_label
from vision.dataset import load_folder

ROOT = Path(__file__).resolve().parent.parent
PHOTOS = Path(__file__).parent / "photos"


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    day = tmp_path_factory.mktemp("fourth_day")
    night = tmp_path_factory.mktemp("fourth_night")
    assert fourth_render.main([str(day), "--count", "2", "--seed", "7", "--size", "640x480"]) == 0
    args = [str(night), "--count", "1", "--seed", "8", "--size", "560x420", "--lighting", "night"]
    assert fourth_render.main([*args, "--occluded-fraction", "1"]) == 0
    return day, night


def test_labels_are_accepted_by_the_loader(folders: tuple[Path, Path]) -> None:
    day, night = folders
    for folder, names in ((day, ["0000.jpg", "0001.jpg"]), (night, ["0000.jpg"])):
        dataset = load_folder(folder)
        assert not dataset.skipped
        assert [s.name for s in dataset.samples] == names


def test_vision_test_reads_every_photo(folders: tuple[Path, Path]) -> None:
    """The project's own evaluation accepts every label (``readable`` counts the labelled photos)."""
    day, _ = folders
    cmd = [sys.executable, "-m", "companion", "vision-test", str(day), "--json"]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True)
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["images"] == 2 and summary["readable"] == 2


def test_labels_follow_the_format(folders: tuple[Path, Path]) -> None:
    day, night = folders
    cases = ((day, "day", False, (640, 480)), (night, "night", True, (560, 420)))
    for folder, lighting, occluded, (w, h) in cases:
        label = json.loads((folder / "0000.json").read_text())
        assert list(label) == ["tiles", "pawns", "corners", "lighting", "occluded", "treasures"]
        assert label["lighting"] == lighting and label["occluded"] is occluded
        check_board_label(label)
        corners = np.array(label["corners"])
        assert corners.shape == (4, 2)
        assert (corners >= 0).all() and (corners[:, 0] < w).all() and (corners[:, 1] < h).all()
        x, y = corners[:, 0], corners[:, 1]
        assert 0.5 * np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y) > 0  # clockwise on screen
        assert cv2.imread(str(folder / "0000.jpg")).shape == (h, w, 3)


def test_night_is_darker_than_day(folders: tuple[Path, Path]) -> None:
    day, night = folders
    assert cv2.imread(str(night / "0000.jpg")).mean() < cv2.imread(str(day / "0000.jpg")).mean()


def test_same_seed_same_photo() -> None:
    a, label_a, qa = fourth_render.render(11, size=(320, 240))
    b, label_b, qb = fourth_render.render(11, size=(320, 240))
    c, label_c, _ = fourth_render.render(12, size=(320, 240))
    assert np.array_equal(a, b) and label_a == label_b and qa == qb
    assert not np.array_equal(a, c) and label_a != label_c


def test_default_sizes_are_drawn_in_the_outsiders_range() -> None:
    """Without ``--size`` photos are 4:3, 1280x960 to 2026x1520."""
    sizes = {fourth_render.default_size(np.random.default_rng(seed)) for seed in range(200)}
    assert all(1280 <= w <= 2026 and 960 <= h <= 1520 and abs(w / h - 4 / 3) < 0.01 for w, h in sizes)
    assert len(sizes) > 100
    image, _, _ = fourth_render.render(3)
    assert image.shape[1::-1] == fourth_render.default_size(np.random.default_rng(3))


def _openings_from_corners(image: np.ndarray, corners: np.ndarray) -> list[list[set[str]]]:
    """Per tile, the sides whose arm is brighter than the rest: read with the label's corners only."""
    ppt = 40
    dst = np.float32([[0, 0], [7 * ppt, 0], [7 * ppt, 7 * ppt], [0, 7 * ppt]])
    hom = cv2.getPerspectiveTransform(np.float32(corners), dst)
    top = cv2.cvtColor(cv2.warpPerspective(image, hom, (7 * ppt, 7 * ppt)), cv2.COLOR_BGR2GRAY).astype(float)
    sides = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
    out = []
    for r in range(SIZE):
        row = []
        for c in range(SIZE):
            levels = {}
            for name, (dx, dy) in sides.items():
                x = int((c + 0.5 + 0.4 * dx) * ppt)
                y = int((r + 0.5 + 0.4 * dy) * ppt)
                levels[name] = float(np.median(top[y - 2 : y + 3, x - 2 : x + 3]))
            row.append(levels)
        out.append(row)
    return out


@pytest.mark.parametrize("seed", [21, 22, 24])
def test_label_corners_are_where_the_board_is_drawn(seed: int) -> None:
    """Rectified with the label's corners alone, each tile's open arms are its brightest sides.

    Corridors are lighter than walls in every day look, so this fails when the
    corners are off by a fraction of a tile, turned or mirrored.
    """
    image, label, _ = fourth_render.render(seed, size=(800, 600))
    levels = _openings_from_corners(image, np.array(label["corners"]))
    right = 0
    for r in range(SIZE):
        for c in range(SIZE):
            tile = label["tiles"][r][c]
            brightest = sorted(levels[r][c], key=levels[r][c].get, reverse=True)[: len(tile)]
            right += set(brightest) == set(tile)
    assert right >= 44, f"only {right}/49 tiles show their openings where the label's corners put them"
    # the same check on a grid shifted by half a tile must fail: the test can tell
    shifted = np.array(label["corners"]) + (np.array(label["corners"][1]) - np.array(label["corners"][0])) / 14
    levels = _openings_from_corners(image, shifted)
    wrong = sum(
        set(sorted(levels[r][c], key=levels[r][c].get, reverse=True)[: len(label["tiles"][r][c])])
        == set(label["tiles"][r][c])
        for r in range(SIZE)
        for c in range(SIZE)
    )
    assert wrong < 30


@pytest.mark.parametrize(
    ("folder", "seed", "args"),
    [
        ("fourth_day", 1100000, {"occluded_fraction": 0.2, "quality": 80}),
        ("fourth_night", 1100100, {"lighting": "night", "occluded_fraction": 0.2, "quality": 80}),
    ],
)
def test_committed_photos_are_what_their_commands_make(folder: str, seed: int, args: dict) -> None:
    """The first committed photo is what its folder's README command makes (a renderer change shows here)."""
    root = PHOTOS / folder
    image, label, quality = fourth_render.render(seed, size=(1280, 960), **args)
    assert json.loads((root / "0000.json").read_text()) == json.loads(json.dumps(label))
    data = (root / "0000.jpg").read_bytes()
    ok, again = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    stored = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR).astype(float)
    fresh = cv2.imdecode(again, cv2.IMREAD_COLOR).astype(float)
    assert np.abs(stored - fresh).mean() < 3.0  # same picture, allowing a --max-kb re-encode
    assert all(p.stat().st_size <= 150_000 for p in root.glob("*.jpg"))
    assert len(list(root.glob("*.jpg"))) == len(list(root.glob("*.json"))) >= 6


@pytest.mark.parametrize("seed", [31, 32, 33, 34])
def test_occluders_hide_tiles_and_clutter_stays_off_the_board(seed: int) -> None:
    """An occluded photo hides at least a tile's worth of tiles; clutter of an unoccluded one touches none."""
    rng = np.random.default_rng(seed)
    cam = random_camera(rng, (640, 480), 0.8)
    light = build_lighting(rng, False, *np.meshgrid(np.linspace(-5, 12, 40), np.linspace(-5, 12, 40)), 10.0)
    tiles = fourth_render._board_mask(cam, 0.0)
    hidden = Layer(cam.size)
    fourth_render._occlude(rng, hidden, cam, light)
    assert hidden.alpha[tiles].sum() >= cam.pixels_per_tile() ** 2
    clutter = Layer(cam.size)
    style = random_style(rng)
    for _ in range(5):
        fourth_render._clutter(rng, clutter, cam, light, style, fourth_render._board_mask(cam, style.margin, 0.15))
    board = fourth_render._board_mask(cam, style.margin)
    assert clutter.alpha.max() > 0.5  # something was put on the table
    assert clutter.alpha[board].max(initial=0.0) <= 0.01
