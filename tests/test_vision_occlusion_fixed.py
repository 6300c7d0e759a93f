"""The fixed tiles judged on shade-free colour alone, when the grid quality fails (vision.occlusion_fixed)."""

from __future__ import annotations

import dataclasses
import random

import numpy as np

from companion.board import FIXED_TILES, random_setup
from vision.occlusion import OcclusionConfig, Signals, decide
from vision.occlusion_fixed import shade_free_mismatch
from vision.reader import BoardReader
from vision.rectify import Rectified
from vision.render import render_photo


def _rect(seed: int, look: str, shift: float = 0.0) -> Rectified:
    """A clean rendered board read at its label's corners (moved ``shift`` tiles right: a wrong grid)."""
    board, _ = random_setup(random.Random(seed))
    image, label = render_photo(board, seed=seed, look=look, size=(1280, 960), occlusion=False)
    corners = np.asarray(label["corners"], dtype=np.float64)
    corners += shift * (corners[1] - corners[0]) / 7.0
    rect = BoardReader().read_detailed(image, corners=corners.tolist()).rect
    assert rect is not None
    return rect


def _shadow_bands(rect: Rectified) -> Rectified:
    """Dark bands across the board (light down to a third, period 1.3 tiles), as a lamp's shadows fall."""
    h, w = rect.image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    phase = (xx + 0.6 * yy) / (1.3 * rect.tile_px)
    light = 0.35 + 0.65 * (np.sin(2 * np.pi * phase) > 0)
    dimmed = rect.image.astype(np.float32) * light[..., None]
    return dataclasses.replace(rect, image=np.clip(dimmed, 0, 255).astype(np.uint8))


def test_every_fixed_tile_keeps_its_side_under_shadow_bands_and_a_wrong_grid_does_not() -> None:
    for seed, look in ((41, "classic"), (42, "hedge")):
        rect = _rect(seed, look)
        assert shade_free_mismatch(rect) == 0
        assert shade_free_mismatch(_shadow_bands(rect)) <= OcclusionConfig().max_fixed_mismatch
        assert shade_free_mismatch(_rect(seed, look, shift=0.5)) > OcclusionConfig().max_fixed_mismatch


def test_fixed_tiles_hidden_by_a_hand_coloured_patch_are_counted_unless_a_pawn_stands_there() -> None:
    rect = _rect(41, "classic")
    t, m = rect.tile_px, rect.margin_px
    hand = dataclasses.replace(rect, image=rect.image.copy())
    hidden = [(2, 2), (2, 4), (4, 2), (4, 4)]
    assert all(sq in FIXED_TILES for sq in hidden)
    for r, c in hidden:
        hand.image[m + r * t + 4 : m + (r + 1) * t - 4, m + c * t + 4 : m + (c + 1) * t - 4] = (150, 175, 215)
    assert shade_free_mismatch(hand) > OcclusionConfig().max_fixed_mismatch
    assert shade_free_mismatch(hand, covered=hidden) <= OcclusionConfig().max_fixed_mismatch


def test_a_poor_grid_quality_decides_unless_the_fixed_tiles_keep_their_sides_by_shade_free_colour() -> None:
    cfg = OcclusionConfig()
    poor = Signals(0, 0, 0.81, 2, low_cluster=1)  # spent final6 ho_day 0017: a low-contrast board, a shadow band
    assert decide(poor, "day", cfg)  # not measured
    assert decide(dataclasses.replace(poor, shade_free_wrong=cfg.max_fixed_mismatch), "day", cfg) is None
    assert decide(dataclasses.replace(poor, shade_free_wrong=cfg.max_fixed_mismatch + 1), "day", cfg)
