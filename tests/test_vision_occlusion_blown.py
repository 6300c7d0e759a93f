"""Blown-out tile corners are unknown, not clean: a pale hand whose fingertips clip white is still a hand."""

from __future__ import annotations

import numpy as np

from vision.occlusion import _bridged_cluster
from vision.occlusion_lattice import foreign_and_blown, lattice_foreign
from vision.rectify import Rectified


def _wall_lattice(colour: tuple[int, int, int]) -> Rectified:
    """A rectified view of plain wall colour with dark seams through every tile corner, and some texture."""
    t, m = 48, 36
    side = 7 * t + 2 * m
    rng = np.random.default_rng(7)
    image = np.clip(np.array(colour, np.float32) + rng.normal(0, 3, (side, side, 3)), 0, 255).astype(np.uint8)
    image[:, m::t] //= 2
    image[m::t, :] //= 2
    return Rectified(image=image, tile_px=t, margin_px=m, homography=np.eye(3), corners=np.zeros((4, 2)))


def _paint(rect: Rectified, points: list[tuple[int, int]], colour: tuple[int, int, int]) -> None:
    t, m = rect.tile_px, rect.margin_px
    for i, j in points:
        rect.image[m + i * t - 8 : m + i * t + 8, m + j * t - 8 : m + j * t + 8] = colour


def test_blown_corners_are_told_apart_from_foreign_ones() -> None:
    view = _wall_lattice((40, 150, 60))  # green hedge walls
    skin = [(1, 5), (1, 7), (2, 6)]
    white = [(0, 6), (0, 7), (1, 6)]
    _paint(view, skin, (120, 150, 210))  # skin: a colour of its own, the seams gone
    _paint(view, white, (215, 245, 255))  # lit fingertips clipped warm white: no colour left to judge
    foreign, blown = foreign_and_blown(view)
    assert (foreign == lattice_foreign(view)).all()
    assert sorted(map(tuple, np.argwhere(foreign).tolist())) == skin
    assert sorted(map(tuple, np.argwhere(blown).tolist())) == white
    clean = _wall_lattice((40, 150, 60))
    assert not foreign_and_blown(clean)[1].any()


def test_a_hand_is_counted_through_its_blown_out_fingertips() -> None:
    # Fresh third-renderer th_occ 0020 (seed 3072020): a pale hand with a cup over the top-right edge; the
    # fingertips at the edge clipped white, the skin around them foreign, cut apart into clusters of 1.
    foreign = np.zeros((8, 8), bool)
    foreign[1, 5] = foreign[1, 7] = foreign[2, 6] = True
    blown = np.zeros((8, 8), bool)
    blown[0, 6] = blown[0, 7] = blown[1, 6] = True
    nothing = np.zeros((8, 8), bool)
    assert _bridged_cluster(foreign, nothing, 3) == 0
    assert _bridged_cluster(foreign | blown, blown, 3) == 6
    # A lamp's blown-out core with two foreign points beside it (its rim) stays out, as a pawn does.
    rim = np.zeros((8, 8), bool)
    rim[1, 5] = rim[2, 6] = True
    assert _bridged_cluster(rim | blown, blown, 3) == 0
    # A blown-out core in the middle with foreign points round it does not reach in from the edge.
    core = np.zeros((8, 8), bool)
    core[3:5, 3:5] = True
    ring = np.zeros((8, 8), bool)
    ring[2, 3:5] = ring[5, 3:5] = ring[3:5, 2] = True
    assert _bridged_cluster(ring | core, core, 3) == 0


def _add_light(rect: Rectified, points: list[tuple[int, int]], amount: float) -> None:
    """A lamp's glare over the points: ``amount`` of white added in linear light (the seams stay there)."""
    t, m = rect.tile_px, rect.margin_px
    for i, j in points:
        box = (slice(m + i * t - 8, m + i * t + 8), slice(m + j * t - 8, m + j * t + 8))
        linear = (rect.image[box].astype(np.float32) / 255.0) ** 2.2 + amount
        rect.image[box] = (np.clip(linear, 0.0, 1.0) ** (1 / 2.2) * 255.0).round().astype(np.uint8)


def test_a_pale_surface_on_the_glare_line_is_foreign_where_it_hides_the_seams() -> None:
    # Fresh sixth-renderer occ_all 0003 (seed 3078003): pale fingers over a board's top rows lay on the line
    # from the walls' colour toward white, as a lamp's glare does, and were let off as glare.
    points = [(i, j) for i in range(3) for j in range(2, 5)]
    glared = _wall_lattice((110, 120, 130))  # greyish walls: anything pale lies on their glare line
    _add_light(glared, points, 0.35)
    assert not lattice_foreign(glared).any()  # light added: the seams stay in linear light
    t, m = glared.tile_px, glared.margin_px
    over = (slice(m - 12, m + 2 * t + 12), slice(m + 2 * t - 12, m + 4 * t + 12))
    hand = _wall_lattice((110, 120, 130))
    hand.image[over] = (206, 214, 224)  # a pale, smooth surface of nearly the same tint: no seams left
    assert sorted(map(tuple, np.argwhere(lattice_foreign(hand)).tolist())) == points
    blown = _wall_lattice((110, 120, 130))
    blown.image[over] = (250, 253, 255)  # clipped: no structure to judge, left to the blown-out rules
    assert not lattice_foreign(blown).any()
