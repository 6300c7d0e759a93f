"""Fixed tiles washed out by a lamp's light are left out of a failing grid quality; hidden ones are not
(vision.occlusion._unwashed_quality)."""

from __future__ import annotations

import dataclasses
import random
from functools import partial

import numpy as np

from companion.board import random_setup
from vision.occlusion import (
    OcclusionConfig,
    Signals,
    _seams_and_clip,
    _unwashed_quality,
    decide,
    foreign_and_blown,
    lattice_colours,
)
from vision.occlusion_fixed import fixed_squares, fixed_tile_agreement
from vision.reader import BoardReader
from vision.rectify import Rectified
from vision.render import render_photo
from vision.tiles import grid_quality, tiles_for_lighting


def _rect(seed: int, look: str) -> Rectified:
    """A clean rendered board read at its label's corners."""
    board, _ = random_setup(random.Random(seed))
    image, label = render_photo(board, seed=seed, look=look, size=(1280, 960), occlusion=False)
    rect = BoardReader().read_detailed(image, corners=label["corners"]).rect
    assert rect is not None
    return rect


def _lamp(rect: Rectified, cap: float = 150.0, radius: float = 1.5) -> Rectified:
    """Light added over the lower middle (tiles (4,2)-(6,4)), flat-topped at ``cap`` grey levels: the tiles
    clip, the dark gaps between them stay under white (spent final11 th_day 0013's lamp pool)."""
    t, m = rect.tile_px, rect.margin_px
    h, w = rect.image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    pool = np.exp(-((yy - m - 5.0 * t) ** 2 + (xx - m - 3.5 * t) ** 2) / (2 * (radius * t) ** 2))
    light = np.minimum(3.0 * cap * pool, cap)
    return dataclasses.replace(rect, image=np.clip(rect.image + light[..., None], 0, 255).astype(np.uint8))


def _unwashed(rect: Rectified, hidden: frozenset[tuple[int, int]] = frozenset()) -> float:
    cfg = OcclusionConfig()
    _seen, _blown = foreign_and_blown(rect, cfg, lattice_colours(rect, cfg))
    return _unwashed_quality(rect, set(hidden), _seen, partial(_seams_and_clip, rect, cfg), cfg, "day")


def test_the_fixed_tiles_agreement_is_the_grid_quality_tile_by_tile() -> None:
    rect = _lamp(_rect(41, "classic"))
    agree = fixed_tile_agreement(rect)
    assert agree.shape == (16,)
    assert np.isclose(agree.mean(), grid_quality(rect, tiles_for_lighting(None, "day")))


def test_tiles_a_lamp_washes_out_are_left_out_but_tiles_under_a_patch_are_not() -> None:
    rect = _lamp(_rect(41, "classic"))
    quality = float(fixed_tile_agreement(rect).mean())
    assert quality < 0.9  # (4,4) reads wrong under the light
    assert _unwashed(rect) > quality + 0.02
    assert _unwashed(_rect(41, "classic")) == -1.0  # no light, nothing washed out
    # An opaque pale patch (a hand in bright light) over the lit fixed tiles hides their seams: they count.
    covered = dataclasses.replace(rect, image=rect.image.copy())
    t, m = rect.tile_px, rect.margin_px
    covered.image[m + 4 * t - 6 : m + 7 * t + 6, m + 2 * t - 6 : m + 5 * t + 6] = (200, 225, 250)
    assert _unwashed(covered) < OcclusionConfig().min_quality


def test_a_poor_grid_quality_decides_unless_light_explains_the_fixed_tiles_read_wrong() -> None:
    cfg = OcclusionConfig()
    poor = Signals(0, 0, 0.83, 4, low_cluster=4, shade_free_wrong=4)  # spent final11 th_day 0013
    assert decide(poor, "day", cfg)
    assert decide(dataclasses.replace(poor, unwashed_quality=0.92), "day", cfg) is None
    assert decide(dataclasses.replace(poor, unwashed_quality=0.84), "day", cfg)


def test_blown_out_corners_are_excused_only_on_a_tile_whose_other_corners_keep_the_seams() -> None:
    # A white-hot lamp pool over (5,3): the corners nearest it clip white and lose every seam (spent final12
    # th_day 0022's glare). (6,2) and (6,4) keep the seams at three corners: left out. (4,2) and (4,4) keep them
    # at one corner only, as a blown-out surface lying there would: they count.
    rect = _lamp(_rect(41, "classic"), cap=255.0, radius=1.0)
    agree = dict(zip(fixed_squares(), fixed_tile_agreement(rect), strict=True))
    bar = OcclusionConfig().min_quality
    assert max(agree[(4, 2)], agree[(4, 4)], agree[(6, 2)], agree[(6, 4)]) < bar
    expected = np.mean([a for sq, a in agree.items() if sq not in {(6, 2), (6, 4)}])
    assert np.isclose(_unwashed(rect), expected)
    # Every corner of the lit tiles blown out: nothing shows the light kept the seams, they all count.
    assert _unwashed(_lamp(_rect(41, "classic"), cap=255.0, radius=1.5)) < bar
