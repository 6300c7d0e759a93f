"""By day a dim coloured pool over a dark frame beside an unclear inner tile is light, not an arm: it tints the
frame and the edge corner the same way while lighting the corner only a little over the board's median
(vision.occlusion_band._lit_past_readable_edge, ``edge_spill_lit``; final19 held-out day 0031)."""

from __future__ import annotations

import numpy as np

from tests.test_vision_occlusion import M, _framed_board, _lattice_view
from vision.occlusion_band import frame_band, longest_run
from vision.occlusion_config import OcclusionConfig
from vision.occlusion_lattice import light_seams

SHAPE = (2000, 2000)  # the whole band inside the photo
OVER_EDGE = (slice(0, M + 20), slice(M + 48, M + 200))  # the top frame and the tiles just inside it


def test_a_dim_red_pool_beside_an_unclear_inner_tile_is_light_by_day() -> None:
    image = _framed_board((110, 40, 30), seams=True)  # a dark blue printed frame
    spill = image.copy()
    spill[OVER_EDGE] = (spill[OVER_EDGE] * (1.0, 1.0, 1.5)).clip(0, 255)  # a dim red pool: corners lit ~1.1x
    rect, lattice = _lattice_view(spill, np.ones(8 * 7, dtype=bool))  # an unclear tile near every segment
    light = lattice[0][..., 2]
    lit = light[0, 2:5] / np.median(light)
    assert (lit > 1.0).all() and (lit < OcclusionConfig().night_lit).all()  # lit, but under the night level
    assert not lattice[1].any()  # tinted, not covered
    seams = light_seams(rect, OcclusionConfig().seam_patch)
    inner_only = (np.zeros(8 * 7, dtype=bool), lambda: seams)  # the edge tiles beside it read clearly
    old = OcclusionConfig(edge_spill_lit=OcclusionConfig().night_lit)
    assert longest_run(frame_band(rect, SHAPE, old, lattice=lattice, edge_light=inner_only)) >= 2  # before
    assert longest_run(frame_band(rect, SHAPE, lattice=lattice, edge_light=inner_only)) <= 1
    edge_unclear = (np.ones(8 * 7, dtype=bool), lambda: seams)  # an arm would have crossed an edge tile
    assert longest_run(frame_band(rect, SHAPE, lattice=lattice, edge_light=edge_unclear)) >= 2
    lost = (np.zeros(8 * 7, dtype=bool), lambda: np.zeros_like(seams))  # the corners' seams hidden: not light
    assert longest_run(frame_band(rect, SHAPE, lattice=lattice, edge_light=lost)) >= 2


def test_a_dark_sleeve_over_the_frame_stopping_short_of_the_tiles_still_counts() -> None:
    image = _framed_board((110, 40, 30), seams=True)
    sleeve = image.copy()
    sleeve[0 : M - 2, M + 48 : M + 200] = (40, 60, 90)  # a dark brown sleeve over the frame only
    rect, lattice = _lattice_view(sleeve, np.ones(8 * 7, dtype=bool))
    seams = light_seams(rect, OcclusionConfig().seam_patch)
    inner_only = (np.zeros(8 * 7, dtype=bool), lambda: seams)
    assert longest_run(frame_band(rect, SHAPE, lattice=lattice, edge_light=inner_only)) >= 2
