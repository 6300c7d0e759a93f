"""At night a coloured LED's light can bring walls and corridors to one grey while their colours still differ:
flat in grey, not in the channels, so not a surface (vision.occlusion_flat._keeps_colour_structure).

A blue LED over a clean fourth-renderer night (lead's validation frame, seed 4110019) turned green walls pale
and red corridors pink, of one grey: three half tiles read "something lying on the board".
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from tests.support.clean_board import clean_rect
from vision.occlusion import OcclusionConfig
from vision.occlusion_flat import flat_groups
from vision.rectify import Rectified

WALL, CORRIDOR = (60, 178, 60), (150, 80, 225)  # BGR: pale green and pink of about one grey


def _night_board() -> Rectified:
    """A clean board glowing dimmer than white (nothing clipped: no glare cells)."""
    rect = clean_rect()
    return dataclasses.replace(rect, image=(rect.image * 0.7).astype(np.uint8))


def _over_middle(rect: Rectified, paint: np.ndarray) -> Rectified:
    """``rect`` with its two middle tiles' square (tiles (2,2)-(3,3)) replaced by ``paint`` (same shape, BGR)."""
    t, m = rect.tile_px, rect.margin_px
    box = slice(m + 2 * t, m + 4 * t)
    image = rect.image.copy()
    image[box, box] = paint
    return dataclasses.replace(rect, image=image)


def _tinted(rect: Rectified) -> Rectified:
    """The middle tiles with walls and corridors recoloured to one grey, their boundary kept in colour."""
    t, m = rect.tile_px, rect.margin_px
    box = slice(m + 2 * t, m + 4 * t)
    grey = cv2.cvtColor(rect.image[box, box], cv2.COLOR_BGR2GRAY)
    walls = (grey > np.median(grey))[..., None]
    paint = np.where(walls, np.array(WALL, np.float64), np.array(CORRIDOR, np.float64))
    noise = np.random.default_rng(3).normal(0, 2, paint.shape)
    return _over_middle(rect, np.clip(paint + noise, 0, 255).astype(np.uint8))


def _card(rect: Rectified) -> Rectified:
    """The middle tiles under one smooth pale-pink card."""
    t = rect.tile_px
    noise = np.random.default_rng(3).normal(0, 2, (2 * t, 2 * t, 3))
    return _over_middle(rect, np.clip(np.array(CORRIDOR, np.float64) + noise, 0, 255).astype(np.uint8))


def test_at_night_walls_and_corridors_of_one_grey_but_two_colours_are_no_surface() -> None:
    cfg = OcclusionConfig()
    marked = np.zeros((8, 8), bool)
    marked[3, 3] = True  # the corner the light tinted (as lattice_foreign would mark it)
    tinted = _tinted(_night_board())
    assert flat_groups(tinted, set(), marked, smooth=cfg.night_flat_blur)[0] >= cfg.min_flat_cells
    assert flat_groups(tinted, set(), marked, smooth=cfg.night_flat_blur, tinted=True)[0] < cfg.min_flat_cells


def test_a_smooth_card_stays_a_surface_and_so_does_tint_over_tiles_that_stop_reading() -> None:
    cfg = OcclusionConfig()
    marked = np.zeros((8, 8), bool)
    marked[3, 3] = True
    card = _card(_night_board())
    assert flat_groups(card, set(), marked, smooth=cfg.night_flat_blur, tinted=True)[0] >= cfg.min_flat_cells
    tinted = _tinted(_night_board())
    unclear = {(2, 2)}
    assert flat_groups(tinted, unclear, marked, smooth=cfg.night_flat_blur, tinted=True)[0] >= cfg.min_flat_cells
