"""A white haze is a veil: it scales the tiles' seams by what it lets through, it does not hide them.

The lead's third-renderer day seed 4106006 (a clean board): a white haze over the left columns flattened 9 half
tiles, marked by a seamless tile corner whose linear-light seams fell to 0.63 of the board's median point, and the
group's corners to a median of 0.835: "something lying on the board". A veil toward white, I' = (1 - a) I + a W,
adds light and scales every linear-light difference by (1 - a); the lift of the patch's dark floor over the
board's measures a. Divided by it, the corners kept 1.3-2.7 of the seams.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from tests.support.clean_board import clean_rect
from vision.occlusion import OcclusionConfig
from vision.occlusion_flat import CELLS, _relative_strength, flat_groups, veil_transmission
from vision.occlusion_lattice import light_seams
from vision.rectify import Rectified


def _veiled(rect: Rectified, strength: float = 0.75) -> Rectified:
    """``rect`` dimmed, under a haze toward white fading out from its middle tile (``strength`` at its peak)."""
    t, m = rect.tile_px, rect.margin_px
    area = (rect.image[m : m + 7 * t, m : m + 7 * t].astype(np.float32) / 255.0) ** 2.2 * 0.25
    yy, xx = np.mgrid[0 : 7 * t, 0 : 7 * t].astype(np.float32)
    veil = strength * np.exp(-(((yy - 3.5 * t) ** 2 + (xx - 3.5 * t) ** 2) / (2 * (1.1 * t) ** 2)))[..., None]
    hazy = dataclasses.replace(rect, image=rect.image.copy())
    mixed = (1.0 - veil) * area + veil * 1.0
    hazy.image[m : m + 7 * t, m : m + 7 * t] = np.clip(mixed ** (1 / 2.2) * 255.0, 0, 255).astype(np.uint8)
    return hazy


def test_a_veil_of_haze_is_light_not_something_lying_on_the_board() -> None:
    rect = clean_rect(41, "classic", "day")
    cfg = OcclusionConfig()
    nothing = np.zeros((8, 8), bool)
    hazy = _veiled(rect)
    middle = slice(3 * CELLS, 4 * CELLS)
    assert (_relative_strength(hazy)[middle, middle] < cfg.flat_level).all()  # the log grey goes flat
    assert np.median(light_seams(hazy)[3:5, 3:5]) < cfg.seam_keep  # the veil takes part of the seams
    kept = light_seams(hazy)[3:5, 3:5] / veil_transmission(hazy)[3:5, 3:5]
    assert np.median(kept) >= cfg.seam_keep  # ... in proportion to what it lets through
    assert flat_groups(hazy, {(3, 3)}, nothing)[0] < cfg.min_flat_cells


def test_a_pale_surface_in_the_haze_still_hides_the_seams() -> None:
    """A defocused pale surface as bright as the haze: its floor lifts as much, but its seams are gone."""
    rect = clean_rect(41, "classic", "day")
    t, m = rect.tile_px, rect.margin_px
    cfg = OcclusionConfig()
    hazy = _veiled(rect)
    pale = dataclasses.replace(hazy, image=hazy.image.copy())
    blurred = cv2.GaussianBlur(hazy.image, (0, 0), 0.5 * t)
    inner = slice(m + 3 * t - t // 2, m + 4 * t + t // 2)
    pale.image[inner, inner] = blurred[inner, inner]
    assert flat_groups(pale, {(3, 3)}, np.zeros((8, 8), bool))[0] >= cfg.min_flat_cells


def test_a_board_without_haze_lets_all_its_seams_through() -> None:
    rect = clean_rect(41, "classic", "day")
    assert veil_transmission(rect).min() > 0.9
