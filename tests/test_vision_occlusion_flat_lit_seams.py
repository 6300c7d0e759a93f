"""A seamless tile corner marks a flat group only when it hides the seams, not when light added washes them out.

Spent final9 si_day 0004 (sixth renderer, a clean board): a lamp's glare over three tiles flattened their
log-grey structure (5 flat half tiles) and one tile corner under it fell under ``seamless_level``; the glare
ended on a cell of the board's own light, so it did not fade out, and the frame read "something lying on the
board". In linear light every corner under it kept its seams (0.94-1.5 of the board's median point).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from tests.support.clean_board import clean_rect
from vision.occlusion import OcclusionConfig
from vision.occlusion_flat import flat_groups
from vision.occlusion_lattice import light_seams
from vision.rectify import Rectified


def _light_added(rect: Rectified, box: slice, amount: float) -> Rectified:
    """A board in dim light (a quarter of it, in linear light) with ``amount`` added over a square: a lamp's
    glare, but one half tile beside its flat core gets a fifth of it, so the glare does not fade out there."""
    linear = (rect.image.astype(np.float64) / 255.0) ** 2.2 / 4
    linear[box, box] += amount
    cell, m = rect.tile_px // 2, rect.margin_px
    linear[m + 4 * cell : m + 5 * cell, m + 6 * cell : m + 7 * cell] -= 0.8 * amount
    image = np.clip(np.clip(linear, 0.0, 1.0) ** (1 / 2.2) * 255.0 + 0.5, 0, 255).astype(np.uint8)
    return dataclasses.replace(rect, image=image)


def test_a_seamless_corner_that_keeps_its_seams_in_linear_light_marks_nothing() -> None:
    rect = clean_rect()
    t, m = rect.tile_px, rect.margin_px
    cfg = OcclusionConfig()
    box = slice(m + 2 * t + 4, m + 5 * t - 4)
    nothing = np.zeros((8, 8), bool)
    marked = nothing.copy()
    marked[3:5, 3:5] = True  # the corners under the light: their log-grey seams are gone
    seamless = lambda: marked  # noqa: E731 - as seamless_corners would mark them
    glare = _light_added(rect, box, 0.5)
    assert (light_seams(glare)[3:5, 3:5] >= cfg.seam_keep).all()  # light added keeps the seams in linear light
    assert flat_groups(glare, set(), nothing, seamless=seamless)[0] < cfg.min_flat_cells
    # A pale card over the same tiles hides them: its flat cells still count on the same marks.
    card = dataclasses.replace(rect, image=rect.image.copy())
    card.image[box, box] = (235, 235, 240)
    assert flat_groups(card, set(), nothing, seamless=seamless)[0] >= cfg.min_flat_cells
