"""Light edges crossing tiles (vision.tiles.light_edge_sides): a shadow's edge through a tile of a pale edition."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from companion.board import SIZE
from vision.rectify import Rectified, rectify
from vision.render import random_scene
from vision.tile_features import DEFAULT_CONFIG, view_bands
from vision.tiles import TilesConfig, light_edge_sides, read_tiles

GAMMA = 2.2  # near enough to sRGB for building test views


def _linear(rect: Rectified) -> np.ndarray:
    return (rect.image / 255.0) ** GAMMA


def _view(rect: Rectified, linear: np.ndarray) -> Rectified:
    image = np.round(255.0 * np.clip(linear, 0.0, 1.0) ** (1.0 / GAMMA)).astype(np.uint8)
    return Rectified(image, rect.tile_px, rect.margin_px, rect.homography, rect.corners, rect.image_shape)


@cache
def _pale_board(seed: int, look: str) -> tuple[Rectified, dict]:
    """A rendered board printed pale: every colour pulled toward the board's mean in linear light,
    so corridor and wall differ by about a third of what they did (as on a washed-out edition)."""
    image, label = random_scene(seed, look=look, lighting="day", size=(1280, 960))
    rect = rectify(image, label["corners"], tile_px=48)
    linear = _linear(rect)
    mean = linear.mean(axis=(0, 1))
    return _view(rect, mean + 0.35 * (linear - mean)), label


def _shadow_over_column(rect: Rectified, col: int, start: float, end: float, light: float) -> Rectified:
    """``rect`` with the light times ``light`` from ``start`` to ``end`` tiles into column ``col``: a sharp
    shadow band running north to south, whose edges cross the column's tiles (and may run on into the next)."""
    gain = np.ones(rect.image.shape[:2])
    x0 = rect.margin_px + round((col + start) * rect.tile_px)
    x1 = rect.margin_px + round((col + end) * rect.tile_px)
    gain[:, x0:x1] = light
    return _view(rect, _linear(rect) * gain[..., None])


def _wrong_off_pawns(readings, label: dict) -> list[tuple[int, int]]:
    pawns = {tuple(sq) for sq in label["pawns"].values()}
    truth = [t for row in label["tiles"] for t in row]
    return [
        (i // SIZE, i % SIZE)
        for i, (reading, shape) in enumerate(zip(readings, truth, strict=True))
        if str(reading.openings) != shape and (i // SIZE, i % SIZE) not in pawns
    ]


def test_a_shadow_edge_through_a_column_marks_its_tiles_and_few_others() -> None:
    rect, _ = _pale_board(31, "classic")
    clean = light_edge_sides(view_bands(rect, DEFAULT_CONFIG).usual, DEFAULT_CONFIG.light_edge_share)
    assert clean[..., 0].sum() <= 2  # a tile's four corners are all wall: alike under even light
    shaded = _shadow_over_column(rect, 3, 0.3, 1.0, 0.3)
    crossed = light_edge_sides(view_bands(shaded, DEFAULT_CONFIG).usual, DEFAULT_CONFIG.light_edge_share)
    assert crossed[:, 3].all()  # its west corners lit, its east corners in the shadow
    assert crossed[..., 0].sum() - crossed[:, 3, 0].sum() <= 2
    assert (crossed == crossed[..., :1]).all()  # a tile's four sides together


@pytest.mark.parametrize(("seed", "look", "col"), [(31, "classic", 3), (31, "bright", 3), (31, "glow", 5)])
def test_sides_across_a_shadow_edge_are_read_on_their_colour(seed: int, look: str, col: int) -> None:
    # The shadow covers the east of the column's tiles: a side's box and the corners it is
    # measured against lie on opposite sides of the edge, and the lightness misreads it.
    # Without reading those tiles' sides on their chroma (light_edge_share 0), 2-4 tiles were wrong.
    rect, label = _pale_board(seed, look)
    shaded = _shadow_over_column(rect, col, 0.3, 1.0, 0.3)
    pawns = {tuple(sq) for sq in label["pawns"].values()}
    before = _wrong_off_pawns(read_tiles(shaded, TilesConfig(light_edge_share=0.0), exclude=pawns), label)
    assert before != []
    assert _wrong_off_pawns(read_tiles(shaded, TilesConfig(), exclude=pawns), label) == []


def test_a_clean_pale_board_reads_the_same_with_and_without_the_light_edge_rule() -> None:
    rect, label = _pale_board(32, "hedge")
    pawns = {tuple(sq) for sq in label["pawns"].values()}
    without = read_tiles(rect, TilesConfig(light_edge_share=0.0), exclude=pawns)
    with_rule = read_tiles(rect, TilesConfig(), exclude=pawns)
    assert [t.openings for t in with_rule] == [t.openings for t in without]
