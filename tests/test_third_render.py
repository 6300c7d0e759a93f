"""The third held-out renderer writes photos whose labels follow FORMATS.md §5."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from tests.support import third_render
from tests.support.label_checks import check_board_label
from vision.dataset import load_folder


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    day = tmp_path_factory.mktemp("third_day")
    night = tmp_path_factory.mktemp("third_night")
    assert third_render.main([str(day), "--count", "1", "--seed", "5", "--size", "480x360"]) == 0
    assert (
        third_render.main(
            [
                str(night),
                "--count",
                "1",
                "--seed",
                "6",
                "--size",
                "400x300",
                "--lighting",
                "night",
                "--occluded-fraction",
                "1",
            ]
        )
        == 0
    )
    return day, night


def test_labels_are_accepted_by_the_loader(folders):
    for folder in folders:
        dataset = load_folder(folder)
        assert not dataset.skipped
        assert [s.name for s in dataset.samples] == ["0000.jpg"]


def test_labels_follow_the_format(folders):
    day, night = folders
    for folder, lighting, occluded, size in ((day, "day", False, (480, 360)), (night, "night", True, (400, 300))):
        label = json.loads((folder / "0000.json").read_text())
        assert label["lighting"] == lighting and label["occluded"] is occluded
        check_board_label(label)
        corners = np.array(label["corners"])
        assert corners.shape == (4, 2)
        w, h = size
        assert (corners[:, 0] >= 0).all() and (corners[:, 0] < w).all()
        assert (corners[:, 1] >= 0).all() and (corners[:, 1] < h).all()
        # top-left, top-right, bottom-right, bottom-left: clockwise in image coordinates
        x, y = corners[:, 0], corners[:, 1]
        assert 0.5 * np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y) > 0
        image = cv2.imread(str(folder / "0000.jpg"))
        assert image.shape == (h, w, 3)


def test_night_is_darker_than_day(folders):
    day, night = folders
    assert cv2.imread(str(night / "0000.jpg")).mean() < cv2.imread(str(day / "0000.jpg")).mean()


def test_same_seed_same_photo():
    a, label_a, _ = third_render.render(11, size=(320, 240))
    b, label_b, _ = third_render.render(11, size=(320, 240))
    c, _, _ = third_render.render(12, size=(320, 240))
    assert np.array_equal(a, b) and label_a == label_b
    assert not np.array_equal(a, c)


@pytest.mark.parametrize(
    ("folder", "seed", "args"),
    [
        ("third_day", 5010, {"occluded_fraction": 0.2, "quality": 68}),
        ("third_night", 5100, {"lighting": "night", "quality": 70}),
    ],
)
def test_committed_photos_are_what_their_commands_make(folder: str, seed: int, args: dict) -> None:
    """The first committed photo's label is what the README's command makes (a renderer change shows here)."""
    from pathlib import Path

    root = Path(__file__).parent / "photos" / folder
    _, label, _ = third_render.render(seed, size=(1280, 960), **args)
    assert json.loads((root / "0000.json").read_text()) == json.loads(json.dumps(label))
    assert all(p.stat().st_size <= 150_000 for p in root.glob("*.jpg"))
