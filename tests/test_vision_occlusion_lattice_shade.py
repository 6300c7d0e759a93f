"""By day a tile corner in shade keeps its share of the seams: it does not veto the light on its cluster.

Spent final16 held-out day 0027 (a clean board): a green light pool over the bottom-right corner tinted five
tile corners foreign, two of them (on the bottom edge) inside a shadow band. The lit ones kept the seams (1.43,
1.49 of the median point), but the cluster is judged as one thing and the shaded ones measured 0.19-0.21, under
``lit_lost``: "hand or object over the board (5 tile corners covered from its edge)". Shade scales the light and
with it every linear-light difference: at 0.19-0.25 of the board's linear light they kept 0.89-0.99 of it.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from tests.support.clean_board import clean_rect
from vision.occlusion import OcclusionConfig
from vision.occlusion_lattice import _lit_seams, lattice_colours, linear_gain
from vision.rectify import Rectified


def _relit(rect: Rectified, boxes: list[tuple[int, int, float]]) -> Rectified:
    """``rect`` with the light multiplied by ``gain`` (in linear light) over a box around each lattice point."""
    t, m = rect.tile_px, rect.margin_px
    linear = (rect.image.astype(np.float64) / 255.0) ** 2.2 * 0.4
    for i, j, gain in boxes:
        y, x, h = m + i * t, m + j * t, int(0.4 * t)
        linear[y - h : y + h, x - h : x + h] *= gain
    image = np.clip(np.clip(linear, 0.0, 1.0) ** (1 / 2.2) * 255.0 + 0.5, 0, 255).astype(np.uint8)
    return dataclasses.replace(rect, image=image)


def test_a_shaded_corner_does_not_veto_the_lit_corners_of_its_cluster_by_day() -> None:
    cfg = OcclusionConfig()
    rect = _relit(clean_rect(41, "classic", "day"), [(3, 3, 2.0), (3, 4, 2.0), (4, 3, 0.15)])
    samples = lattice_colours(rect, cfg)
    ref = np.median(samples.reshape(-1, 3), axis=0)
    cluster = np.zeros((8, 8), bool)
    cluster[3, 3] = cluster[3, 4] = cluster[4, 3] = True  # as if a tinted light made them foreign
    assert linear_gain(rect, cfg.lattice_patch)[4, 3] < 0.2
    lit = (3, 3), (3, 4)
    assert not any(_lit_seams(rect, samples, ref, cluster, cfg)[p] for p in lit)  # the shade vetoed them
    assert all(_lit_seams(rect, samples, ref, cluster, cfg, shade=True)[p] for p in lit)


def test_a_surface_that_hides_the_seams_still_vetoes_its_cluster() -> None:
    """A dark sleeve beside pale lit fingers: its seams are gone, not scaled with its light."""
    cfg = OcclusionConfig()
    rect = _relit(clean_rect(41, "classic", "day"), [(3, 3, 2.0), (3, 4, 2.0), (4, 3, 0.15)])
    t, m = rect.tile_px, rect.margin_px
    h = int(0.4 * t)
    sleeve = dataclasses.replace(rect, image=rect.image.copy())
    sleeve.image[m + 4 * t - h : m + 4 * t + h, m + 3 * t - h : m + 3 * t + h] = (40, 45, 50)
    samples = lattice_colours(sleeve, cfg)
    ref = np.median(samples.reshape(-1, 3), axis=0)
    cluster = np.zeros((8, 8), bool)
    cluster[3, 3] = cluster[3, 4] = cluster[4, 3] = True
    assert not _lit_seams(sleeve, samples, ref, cluster, cfg, shade=True)[3:5, 3:5].any()


def test_the_tile_areas_corner_vetoes_nothing_but_a_smooth_edge_point_does() -> None:
    """The tile area's corner point holds one tile's corner and no seam between tiles: its seams run low by
    geometry (o36: a coloured LED over the board's corner, spent sixth-renderer day 4901520, corner at 0.39)."""
    cfg = OcclusionConfig()
    rect = _relit(clean_rect(41, "classic", "day"), [(0, 6, 2.0), (1, 7, 2.0)])
    t, m = rect.tile_px, rect.margin_px
    h = int(0.3 * t)
    corner = dataclasses.replace(rect, image=rect.image.copy())
    patch = corner.image[m : m + h, m + 7 * t - h : m + 7 * t]
    patch[:] = patch.reshape(-1, 3).mean(axis=0).astype(np.uint8)  # nothing left of the print there
    samples = lattice_colours(corner, cfg)
    ref = np.median(samples.reshape(-1, 3), axis=0)
    cluster = np.zeros((8, 8), bool)
    cluster[0, 6] = cluster[0, 7] = cluster[1, 7] = True  # as if a tinted light made them foreign
    lit = _lit_seams(corner, samples, ref, cluster, cfg, shade=True)
    assert lit[0, 6] and lit[1, 7]
    edge = _relit(clean_rect(41, "classic", "day"), [(0, 4, 2.0), (1, 5, 2.0)])
    edge = dataclasses.replace(edge, image=edge.image.copy())
    patch = edge.image[m : m + h, m + 5 * t - h : m + 5 * t + h]
    patch[:] = patch.reshape(-1, 3).mean(axis=0).astype(np.uint8)  # a smooth surface over an edge point
    samples = lattice_colours(edge, cfg)
    ref = np.median(samples.reshape(-1, 3), axis=0)
    cluster = np.zeros((8, 8), bool)
    cluster[0, 4] = cluster[0, 5] = cluster[1, 5] = True
    assert not _lit_seams(edge, samples, ref, cluster, cfg, shade=True)[0:2, 4:6].any()
