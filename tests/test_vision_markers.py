"""Optional corner markers: found when printed, ignored when absent, and the reader's use of them."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import pytest

from vision import reader as reader_mod
from vision.locate import BoardNotFoundError, Located
from vision.markers import detect_markers, find_board_by_markers, tile_area_from_markers
from vision.reader import BoardReader, ReaderConfig
from vision.render import random_scene

SIZE = (1280, 960)


@cache
def scene(seed: int, markers: bool = True):
    image, label = random_scene(seed, markers=markers, size=SIZE)
    image.setflags(write=False)
    return image, label


def corner_error(found: np.ndarray, label: dict) -> float:
    return float(np.linalg.norm(np.asarray(found) - np.array(label["corners"]), axis=1).max())


def tile_width(label: dict) -> float:
    c = np.array(label["corners"])
    return float(np.linalg.norm(c - np.roll(c, 1, axis=0), axis=1).mean()) / 7.0


@pytest.mark.parametrize("seed", [101, 104, 105, 109])
def test_markers_give_the_tile_area_corners_in_order(seed: int) -> None:
    image, label = scene(seed)
    # A marker on a thin frame may hide under a card or lie too small to decode: three do.
    assert len(detect_markers(image)) >= 3
    found = find_board_by_markers(image)
    assert found is not None
    # Ordered TL TR BR BL like the label, to a few pixels once fitted to the tiles.
    assert corner_error(found, label) < 0.005 * SIZE[0]


def test_the_markers_alone_put_the_start_within_a_fraction_of_a_tile() -> None:
    image, label = scene(102)
    start = tile_area_from_markers(detect_markers(image))
    assert start is not None
    # Unordered start: compare with the nearest label corner.
    nearest = [min(np.linalg.norm(np.array(label["corners"]) - p, axis=1)) for p in start]
    assert max(nearest) < 0.3 * tile_width(label)


def test_three_markers_are_enough() -> None:
    image, label = scene(101)
    markers = detect_markers(image)
    del markers[2]
    start = tile_area_from_markers(markers)
    assert start is not None
    nearest = [min(np.linalg.norm(np.array(label["corners"]) - p, axis=1)) for p in start]
    assert max(nearest) < 0.6 * tile_width(label)
    assert tile_area_from_markers({k: v for k, v in markers.items() if k != 0}) is None


def test_no_markers_means_none_not_an_error() -> None:
    image, _ = scene(101, markers=False)
    assert detect_markers(image) == {}
    assert find_board_by_markers(image) is None


def test_markers_without_a_board_are_refused() -> None:
    image, _ = scene(101)
    markers = detect_markers(image)
    # The same four markers pasted on a plain sheet: they frame no tiles.
    sheet = np.full_like(image, 200)
    for quad in markers.values():
        x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 6
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 6
        sheet[y0:y1, x0:x1] = image[y0:y1, x0:x1]
    assert sorted(detect_markers(sheet)) == [0, 1, 2, 3]
    with pytest.raises(BoardNotFoundError, match="markers"):
        find_board_by_markers(sheet)


def _no_markerless_board(*_args: object) -> Located:
    raise BoardNotFoundError("no periodic tile grid found")


def test_reader_falls_back_to_markers_when_the_markerless_search_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    image, label = scene(104)
    monkeypatch.setattr(reader_mod, "locate_board", _no_markerless_board)
    observation = BoardReader().read(image)
    assert not observation.occluded, observation.reason
    assert corner_error(observation.corners, label) < 0.005 * SIZE[0]
    # Without markers the markerless failure is reported as it was.
    bare = BoardReader().read(scene(104, markers=False)[0])
    assert bare.occluded and "no periodic tile grid" in bare.reason


@pytest.mark.parametrize(
    "reader", [BoardReader(calibration={"markers": True}), BoardReader(ReaderConfig(markers_first=True))]
)
def test_markers_first_skips_the_markerless_search(monkeypatch: pytest.MonkeyPatch, reader: BoardReader) -> None:
    image, label = scene(105)
    calls: list[int] = []
    real = reader_mod.locate_board
    monkeypatch.setattr(reader_mod, "locate_board", lambda *a: calls.append(1) or real(*a))
    observation = reader.read(image)
    assert not observation.occluded, observation.reason
    assert corner_error(observation.corners, label) < 0.005 * SIZE[0]
    assert calls == []
    # A frame without markers still gets the markerless search.
    assert not reader.read(scene(105, markers=False)[0]).occluded
    assert calls == [1]


def test_marker_search_takes_greyscale_and_small_frames() -> None:
    image, _ = scene(101)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    assert sorted(detect_markers(grey)) == [0, 1, 2, 3]
    assert detect_markers(np.zeros((40, 30, 3), np.uint8)) == {}
