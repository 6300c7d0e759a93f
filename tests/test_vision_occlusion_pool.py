"""A lamp's pool of light multiplies the tiles' light: their seams grow with it, no hand over them."""

from __future__ import annotations

import numpy as np

from vision.occlusion_config import OcclusionConfig
from vision.occlusion_lattice import _light_multiplied, _pooled_points, lattice_foreign, light_seams
from vision.rectify import Rectified

T, M = 48, 36
#: The veil rule (a haze fading out toward white) off: these tests judge the pool rule alone.
CFG = OcclusionConfig(veil_fade=99.0)
POOL = [(3, 0), (3, 1), (4, 0), (4, 1)]


def _walls() -> Rectified:
    """A rectified view of magenta walls with a little texture and dark seams between the tiles."""
    side = 7 * T + 2 * M
    rng = np.random.default_rng(7)
    image = np.clip(np.array((120, 40, 110), np.float32) + rng.normal(0, 3, (side, side, 3)), 0, 255)
    image = image.astype(np.uint8)
    image[:, M::T] //= 2
    image[M::T, :] //= 2
    return Rectified(image=image, tile_px=T, margin_px=M, homography=np.eye(3), corners=np.zeros((4, 2)))


def _pool(rect: Rectified, gain: float, haze: float) -> Rectified:
    """``rect`` under a pool of light centred on the left edge between rows 3 and 4: linear light
    multiplied up to ``gain`` and ``haze`` of white added, both fading out as a Gaussian."""
    side = rect.image.shape[0]
    yy, xx = np.mgrid[0:side, 0:side].astype(np.float32)
    blob = np.exp(-((yy - (M + 3.5 * T)) ** 2 + (xx - (M + 0.5 * T)) ** 2) / (2 * (0.9 * T) ** 2))[..., None]
    linear = (rect.image.astype(np.float32) / 255.0) ** 2.2
    linear = linear * (1.0 + (gain - 1.0) * blob) + haze * blob
    image = (np.clip(linear, 0.0, 1.0) ** (1 / 2.2) * 255.0).astype(np.uint8)
    return Rectified(image=image, tile_px=T, margin_px=M, homography=np.eye(3), corners=np.zeros((4, 2)))


def test_a_pool_of_light_over_the_edge_covers_no_tile_corner() -> None:
    """Fresh held-out ho_day 0011 (seed 3290011): a white pool over the left edge was '5 tile corners
    covered from its edge'. Its corners' seams in linear light pass ``lit_edge`` (an edge of its own, for
    a point lit as much as the board), but only in proportion to the light the pool brought."""
    lit = _pool(_walls(), 6.0, 0.1)
    under = tuple(np.array(POOL).T)
    assert (light_seams(lit, CFG.lattice_patch, 1.0, 2.0)[under] > CFG.lit_edge).all()
    assert not lattice_foreign(lit, CFG).any()


def test_a_surface_hiding_the_seams_beside_the_pool_keeps_its_cluster_foreign() -> None:
    """A pale hand's cluster is judged as one thing: where it hides the seams, none of it is excused."""
    lit = _pool(_walls(), 6.0, 0.1)
    image = lit.image.copy()
    image[M + 5 * T - 16 : M + 5 * T + 16, M - 16 : M + 16] = (150, 170, 215)  # flat skin at (5, 0)
    hand = Rectified(image=image, tile_px=T, margin_px=M, homography=np.eye(3), corners=np.zeros((4, 2)))
    foreign = lattice_foreign(hand, CFG)
    assert foreign[5, 0]
    assert foreign[4, 0]  # the pooled point next to it stays foreign with its cluster


def test_seams_that_do_not_grow_with_the_light_are_not_a_pool() -> None:
    """Between ``seam_keep`` and ``lit_edge`` of the median point times the point's own lightness gain."""
    samples = np.ones((8, 8, 3), np.float32)
    samples[0, :4, 2] = 5.0  # four points five times the board's lightness
    linear = np.ones((8, 8), np.float32)
    linear[0, :4] = [4.0, 5.0, 14.0, 16.0]  # a pale hand's outline at 0.8x; a pool at 1x, 2.8x; an edge at 3.2x
    pooled = _light_multiplied(samples, np.ones(3, np.float32), linear, CFG)
    assert pooled[0, :4].tolist() == [False, True, True, False]
    assert pooled[1:].all()  # points as lit as the board keep the usual bounds (1 lies in them)


def test_only_clusters_keeping_their_seams_everywhere_are_excused() -> None:
    foreign = np.zeros((8, 8), bool)
    foreign[0, 0:3] = True  # a cluster keeping its seams
    foreign[5, 0:3] = True  # a cluster with one point hiding them
    pooled = foreign.copy()
    pooled[0, 2] = pooled[5, 2] = False
    linear = np.full((8, 8), 4.0, np.float32)
    linear[5, 2] = 0.3
    out = _pooled_points(foreign, pooled, linear, 0.5)
    assert sorted(map(tuple, np.argwhere(out).tolist())) == [(0, 0), (0, 1)]
