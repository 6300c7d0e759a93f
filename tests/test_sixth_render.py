"""The sixth renderer: valid, deterministic labels whose corners sit on the board, night darker than day."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from tests.support.label_checks import check_board_label
from tests.support.sixth_render import main, render_frame
from tests.support.sixth_render_board import STYLES

SIZE = (320, 240)


def _inside_outside(img: np.ndarray, corners: list[list[float]]) -> tuple[np.ndarray, np.ndarray]:
    """Pixels well inside the tile area, and pixels of a ring well outside the board."""
    quad = np.array(corners, np.float32)
    centre = quad.mean(axis=0)
    inner = np.zeros(img.shape[:2], np.uint8)
    cv2.fillConvexPoly(inner, np.round(centre + (quad - centre) * 0.9).astype(np.int32), 1)
    outer = np.zeros(img.shape[:2], np.uint8)
    cv2.fillConvexPoly(outer, np.round(centre + (quad - centre) * 1.9).astype(np.int32), 1)
    cv2.fillConvexPoly(outer, np.round(centre + (quad - centre) * 1.45).astype(np.int32), 0)
    return img[inner > 0], img[outer > 0]


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_labels_valid_and_deterministic(seed: int) -> None:
    img, label = render_frame(seed, size=SIZE)
    check_board_label(label)
    assert 2 <= len(label["pawns"]) <= 4
    assert label["lighting"] == "day" and label["occluded"] is False
    assert img.shape == (SIZE[1], SIZE[0], 3) and img.dtype == np.uint8
    again, label2 = render_frame(seed, size=SIZE)
    assert label2 == label
    assert np.array_equal(again, img)
    other, label3 = render_frame(seed + 1, size=SIZE)
    assert label3["tiles"] != label["tiles"] or not np.array_equal(other, img)


def test_corners_are_the_board() -> None:
    """Inside the labelled corners the picture is the board (its tile texture), outside it is not.

    The tile area is busy (walls, corridors, gaps, pictures) while the table beyond the frame is
    smooth, so the inside's local contrast must beat the far ring's on every sampled frame; and the
    corners must come in the order top-left, top-right, bottom-right, bottom-left (clockwise in the
    image, the first one nearest the top-left)."""
    for seed in (21, 22, 23, 24):
        img, label = render_frame(seed, size=(480, 360))
        corners = label["corners"]
        quad = np.array(corners)
        a, b = quad[1] - quad[0], quad[2] - quad[1]
        cross = a[0] * b[1] - a[1] * b[0]
        assert cross > 0  # clockwise in image coordinates (y down)
        assert np.argmin(quad.sum(axis=1)) == 0 and np.argmax(quad.sum(axis=1)) == 2
        grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
        detail = np.abs(grey - cv2.GaussianBlur(grey, (0, 0), 3))[..., None]
        inside, outside = _inside_outside(detail, corners)
        assert inside.mean() > outside.mean() * 1.3, seed


def test_night_darker_than_day() -> None:
    day, _ = render_frame(31, size=SIZE)
    night, label = render_frame(31, night=True, size=SIZE)
    assert label["lighting"] == "night"
    assert night.mean() < day.mean() * 0.6


def test_occluded_frames_show_something_over_the_board() -> None:
    for seed in (41, 42):
        plain, _ = render_frame(seed, size=SIZE)
        img, label = render_frame(seed, occluded=True, size=SIZE)
        assert label["occluded"] is True
        inside_a, _ = _inside_outside(plain.astype(np.float32), label["corners"])
        inside_b, _ = _inside_outside(img.astype(np.float32), label["corners"])
        assert np.abs(inside_a - inside_b).mean() > 4


def test_cli_writes_images_and_labels(tmp_path) -> None:
    main([str(tmp_path), "--count", "2", "--seed", "5", "--size", "320x240", "--occluded-fraction", "1", "--meta"])
    metas = [json.loads(line) for line in (tmp_path / "meta.jsonl").read_text().splitlines()]
    assert [m["image"] for m in metas] == ["0000.jpg", "0001.jpg"]
    for stem, meta in zip(("0000", "0001"), metas, strict=True):
        label = json.loads((tmp_path / f"{stem}.json").read_text())
        assert label["occluded"] is True and meta["occluder"]
        assert sorted(p["color"] for p in meta["pawns"]) == sorted(label["pawns"])
        img = cv2.imread(str(tmp_path / f"{stem}.jpg"))
        assert img is not None and img.shape == (240, 320, 3)


def test_styles_include_dark_corridors() -> None:
    """At least one style has corridors darker than walls, so no reader may assume light corridors."""
    assert any(sum(s.corridor[1]) < sum(s.wall[1]) for s in STYLES)
    assert any(sum(s.corridor[1]) > sum(s.wall[1]) for s in STYLES)
