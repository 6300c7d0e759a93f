"""A foreign tile corner lit by a lamp makes a flat group a surface only where the tiles stop reading.

Fresh validation frames of the fourth and sixth renderers (lead11 val fo 0026: a tinted pool of light over
the top right of a blue board; si 0016: white glare spots on a dark stone board) were clean, yet read
"something lying on the board": the light tinted one tile corner of each flat group off the glare line
toward white (foreign), although it kept the tiles' seams in linear light as light does. Where every tile
of the group still reads, such a lit corner (:func:`vision.occlusion._lit_points`) no longer makes the group
a surface; the group is still judged by its outline and its seams, and a pale card hides the seams.
Where a tile stopped reading, the lit corner counts unless the group's flat cells keep the tiles' structure in
linear light (o46, :data:`vision.occlusion_flat.LINEAR_KEEP`).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import vision.occlusion_flat as flat
from tests.support.clean_board import clean_rect
from vision.occlusion import OcclusionConfig, _lit_points
from vision.occlusion_flat import flat_groups
from vision.occlusion_lattice import lattice_colours, light_seams
from vision.rectify import Rectified


def _glare(rect: Rectified, amount: float = 0.6, spread: float = 0.7) -> Rectified:
    """A board in dim light (a quarter of it, in linear light) with a lamp's glare added, fading out from
    lattice point (3, 3) (Gaussian, ``spread`` tiles)."""
    t, m = rect.tile_px, rect.margin_px
    linear = (rect.image.astype(np.float64) / 255.0) ** 2.2 / 4
    y, x = np.mgrid[0 : linear.shape[0], 0 : linear.shape[1]]
    centre = m + 3 * t
    linear += (amount * np.exp(-((y - centre) ** 2 + (x - centre) ** 2) / (2 * (spread * t) ** 2)))[..., None]
    image = np.clip(np.clip(linear, 0.0, 1.0) ** (1 / 2.2) * 255.0 + 0.5, 0, 255).astype(np.uint8)
    return dataclasses.replace(rect, image=image)


def _lit(rect: Rectified, cfg: OcclusionConfig) -> np.ndarray:
    seams = light_seams(rect, cfg.seam_patch)
    return _lit_points(lattice_colours(rect, cfg), cfg.night_lit, seams, (cfg.lit_lost, cfg.lit_edge))


def test_a_lit_foreign_corner_under_glare_does_not_make_a_surface_where_the_tiles_read() -> None:
    cfg = OcclusionConfig()
    glare = _glare(clean_rect())
    marked = np.zeros((8, 8), bool)
    marked[3, 3] = True  # the corner under the glare, tinted off the glare line (as lattice_foreign would mark it)
    lit = _lit(glare, cfg)
    assert lit[3, 3]  # brighter than the board's corners, its seams kept in linear light
    assert flat_groups(glare, set(), marked)[0] >= cfg.min_flat_cells  # before: "something lying on the board"
    assert flat_groups(glare, set(), marked, lit_points=lambda: lit)[0] < cfg.min_flat_cells
    # On a tile that no longer reads the tinted corner counts, unless the flat cells keep the tiles' structure in
    # linear light as light added does (o46: :data:`vision.occlusion_flat.LINEAR_KEEP`); this glare keeps it.
    assert flat_groups(glare, {(2, 2)}, marked, lit_points=lambda: lit)[0] < cfg.min_flat_cells
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(flat, "LINEAR_KEEP", np.inf)
        assert flat_groups(glare, {(2, 2)}, marked, lit_points=lambda: lit)[0] >= cfg.min_flat_cells


def test_a_pale_card_with_a_corner_of_its_own_colour_stays_a_surface() -> None:
    cfg = OcclusionConfig()
    rect = clean_rect()
    t, m = rect.tile_px, rect.margin_px
    card = dataclasses.replace(rect, image=rect.image.copy())
    box = slice(m + 2 * t + 6, m + 4 * t - 6)
    card.image[box, box] = (235, 235, 240)
    marked = np.zeros((8, 8), bool)
    marked[3, 3] = True
    lit = _lit(card, cfg)
    assert not lit[3, 3]  # bright, but its seams are gone: not light
    assert flat_groups(card, set(), marked, lit_points=lambda: lit)[0] >= cfg.min_flat_cells
