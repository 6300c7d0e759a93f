"""The veil-invariant side reading (vision.tile_veil) and its use on tiles that do not read as a shape."""

from __future__ import annotations

from functools import cache

import numpy as np

from companion.board import SIZE
from vision.rectify import Rectified, rectify
from vision.render import random_scene
from vision.tile_features import DEFAULT_CONFIG
from vision.tile_veil import veil_features
from vision.tiles import TilesConfig, read_tiles


@cache
def _board(seed: int, look: str) -> tuple[Rectified, dict]:
    image, label = random_scene(seed, look=look, lighting="day", size=(1280, 960))
    return rectify(image, label["corners"], tile_px=48), label


def _veiled(rect: Rectified, centre: tuple[int, int], radius: float, strength: float) -> Rectified:
    """``rect`` under a glare spot: linear light added (the same to every pixel at a place), then sRGB again."""
    level = rect.image.astype(np.float64) / 255.0
    linear = np.where(level <= 0.04045, level / 12.92, ((level + 0.055) / 1.055) ** 2.4)
    t, m = rect.tile_px, rect.margin_px
    yy, xx = np.mgrid[: rect.image.shape[0], : rect.image.shape[1]]
    cy, cx = m + (centre[0] + 0.5) * t, m + (centre[1] + 0.5) * t
    veil = strength * np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2.0 * (radius * t) ** 2))
    linear = np.minimum(linear + veil[..., None], 1.0)
    srgb = np.where(linear <= 0.0031308, linear * 12.92, 1.055 * linear ** (1 / 2.4) - 0.055)
    image = np.round(srgb * 255.0).astype(np.uint8)
    return Rectified(image, t, m, rect.homography, rect.corners, rect.image_shape)


def test_a_veil_leaves_the_sides_against_their_own_tile_nearly_unchanged() -> None:
    rect, _ = _board(31, "classic")
    plain, plain_veiled = veil_features(rect, DEFAULT_CONFIG)
    glared, glared_veiled = veil_features(_veiled(rect, (3, 3), 1.0, 0.35), DEFAULT_CONFIG)
    # The spot's walls stand out of the board's: its tile is veiled, and more tiles are than without it.
    assert glared_veiled[3, 3] and not plain_veiled[3, 3]
    assert glared_veiled.sum() > plain_veiled.sum()
    # Under the spot, the sides' contrast against their own tile stays what it was (the veil cancels).
    under = np.zeros((SIZE, SIZE), dtype=bool)
    under[2:5, 2:5] = True
    change = np.linalg.norm(glared - plain, axis=-1)[under]
    assert float(np.median(change)) < 0.1


def test_the_veil_reading_only_chooses_shapes_of_tiles_that_are_no_shape() -> None:
    # Extra work on doubtful tiles only: the published edges stay the colour bands' evidence
    # (the occlusion check weighs them), and a tile whose sides read as a valid shape (two or
    # three open-looking) keeps its shape; a glare spot leaves some tile that is no shape.
    rect, label = _board(31, "classic")
    view = _veiled(rect, (3, 3), 1.2, 0.8)
    pawns = {tuple(sq) for sq in label["pawns"].values()}
    without = read_tiles(view, TilesConfig(veil_weight=0.0), exclude=pawns)
    with_veil = read_tiles(view, TilesConfig(), exclude=pawns)
    assert [t.edges for t in with_veil] == [t.edges for t in without]
    no_shape = [i for i, t in enumerate(without) if sum(p > 0.5 for p in t.edges) not in (2, 3)]
    assert no_shape
    for i, (a, b) in enumerate(zip(without, with_veil, strict=True)):
        if a.openings != b.openings:
            assert i in no_shape
