"""Glare spots of a lamp of any colour: light added over the tile corners, not a hand over them."""

from __future__ import annotations

import numpy as np

from vision.occlusion import OcclusionConfig, _lit_tiles, disturbed_inside, lattice_foreign, longest_run
from vision.occlusion_lattice import _by_kind, _kept_seams, light_seams
from vision.rectify import Rectified

T, M = 48, 36


def _seams(rect: Rectified) -> np.ndarray:
    """Linear-light seam strength at the scale the lit rule judges (:func:`vision.occlusion_lattice._lit_seams`)."""
    return light_seams(rect, OcclusionConfig().lattice_patch, 1.0, 2.0)


def _seamed_walls(colour: tuple[int, int, int] = (100, 100, 115), seams: bool = True) -> Rectified:
    """A rectified view of warm grey walls with a little texture and (``seams``) dark seams between the tiles."""
    side = 7 * T + 2 * M
    rng = np.random.default_rng(7)
    image = np.clip(np.array(colour, np.float32) + rng.normal(0, 3, (side, side, 3)), 0, 255).astype(np.uint8)
    if seams:
        image[:, M::T] //= 2
        image[M::T, :] //= 2
    return Rectified(image=image, tile_px=T, margin_px=M, homography=np.eye(3), corners=np.zeros((4, 2)))


def _lamp_glare(rect: Rectified, centre: tuple[float, float], colour: tuple[float, float, float]) -> Rectified:
    """``rect`` with a lamp's glare of ``colour`` (BGR, linear light) added around ``centre`` (lattice units)."""
    side = rect.image.shape[0]
    yy, xx = np.mgrid[0:side, 0:side].astype(np.float32)
    cy, cx = (M + c * T for c in centre)
    blob = np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * (0.9 * T) ** 2))[..., None]
    linear = (rect.image.astype(np.float32) / 255.0) ** 2.2 + blob * np.array(colour, np.float32)
    image = (np.clip(linear, 0.0, 1.0) ** (1 / 2.2) * 255.0).astype(np.uint8)
    return Rectified(image=image, tile_px=T, margin_px=M, homography=np.eye(3), corners=np.zeros((4, 2)))


def _paint(rect: Rectified, points: list[tuple[int, int]], colour: tuple[int, int, int]) -> Rectified:
    image = rect.image.copy()
    for i, j in points:
        image[M + i * T - 16 : M + i * T + 16, M + j * T - 16 : M + j * T + 16] = colour
    return Rectified(image=image, tile_px=T, margin_px=M, homography=np.eye(3), corners=np.zeros((4, 2)))


#: The veil rule (a haze fading out toward white) off: a cool glare over grey walls passes through white on
#: its way out and would be excused as a veil; these tests judge the lit-seams rule alone.
ON = OcclusionConfig(veil_fade=99.0)
OFF = OcclusionConfig(veil_fade=99.0, lit_lost=99.0)  # every cluster "lost its seams": the rule off


def test_a_cool_lamps_glare_keeps_the_seams_and_is_not_foreign() -> None:
    """A cool lamp pulls grey walls past white toward blue (no glare line explains it), but the light is
    added: the seams stay in linear light, so the corners under it are the board."""
    walls = _seamed_walls()
    glare = _lamp_glare(walls, (0.5, 5.5), (0.5, 0.3, 0.0))
    under = [(0, 5), (0, 6), (1, 5), (1, 6)]
    assert lattice_foreign(glare, OFF)[tuple(np.array(under).T)].all()  # foreign by colour alone
    assert _seams(glare)[tuple(np.array(under).T)].min() >= ON.seam_keep
    assert not lattice_foreign(glare, ON).any()


def test_a_warm_lamps_glare_over_the_edge_is_not_foreign() -> None:
    glare = _lamp_glare(_seamed_walls(), (2.0, 0.0), (0.15, 0.35, 0.7))
    assert lattice_foreign(glare, OFF).sum() == 4  # (1, 0), (2, 0), (2, 1), (3, 0): from the edge
    assert not lattice_foreign(glare).any()


def test_a_hand_over_the_corners_stays_foreign_under_the_same_light() -> None:
    """Skin hides the seams: smooth, it is foreign with or without the rule."""
    walls = _seamed_walls()
    fingers = [(0, 2), (1, 2), (2, 2), (2, 3)]
    hand = _paint(walls, fingers, (150, 175, 225))
    assert lattice_foreign(hand).sum() == len(fingers)


def test_a_bright_outlined_hand_is_foreign_as_a_whole() -> None:
    """Bright skin with finger outlines: at bright levels a faint outline is a strong edge in linear light
    (fourth-renderer o9 fo_occ 0004: 1.1-4x the board's seams), so three of the hand's corners look lit. But
    one corner of the same cluster hides the seams: the cluster is a surface, none of it is excused."""
    walls = _seamed_walls()
    fingers = [(0, 2), (1, 2), (2, 2), (2, 3)]
    hand = _paint(walls, fingers, (170, 195, 240))
    for i, j in fingers[1:]:  # outlines across three of the corners, where the wall seams were
        hand.image[M + i * T - 16 : M + i * T + 16, M + j * T - 1 : M + j * T + 1] = (155, 180, 225)
        hand.image[M + i * T - 1 : M + i * T + 1, M + j * T - 16 : M + j * T + 16] = (155, 180, 225)
    seams = _seams(hand)
    assert seams[0, 2] < ON.lit_lost  # smooth skin
    assert all(ON.seam_keep <= seams[i, j] <= ON.lit_edge for i, j in fingers[1:])  # the outlines
    assert lattice_foreign(hand).sum() == len(fingers)
    assert lattice_foreign(hand, OcclusionConfig(lit_lost=0.0)).sum() == 1  # without the cluster's veto


def test_an_edge_of_its_own_is_not_light_added() -> None:
    """Skin just the size of a tile corner on walls whose seams barely show: its own outline makes the point's
    linear-light structure several times the board's. Light added keeps the seams as they were; structure
    that strong is an edge of its own, a surface, and stays foreign even with no smooth point to veto."""
    corners = [(0, 2), (1, 2), (2, 2), (2, 3), (3, 3)]
    skin = _seamed_walls((40, 150, 60), seams=False)  # green hedge walls, texture only
    for i, j in corners:
        skin.image[M + i * T - 8 : M + i * T + 8, M + j * T - 8 : M + j * T + 8] = (120, 150, 210)
    assert _seams(skin)[tuple(np.array(corners).T)].min() > ON.lit_edge
    assert lattice_foreign(skin).sum() == len(corners)
    assert lattice_foreign(skin, OcclusionConfig(lit_edge=99.0)).sum() == 0  # without the bound


def _pale_hand(rect: Rectified, row: int) -> Rectified:
    """``rect`` with a pale hand in bright light over edge tile (``row``, 0) and the frame beside it: skin of
    the walls' hue, brighter than the board, with the dark outlines of its fingers across the tile."""
    image = rect.image.copy()
    y0, y1, x1 = M + row * T - 10, M + (row + 1) * T + 10, M + T + 12
    image[y0:y1, :x1] = (200, 215, 245)
    for k in range(4):
        y = y0 + 8 + 16 * k
        image[y : y + 2, :x1] = (120, 130, 160)
    return Rectified(image=image, tile_px=T, margin_px=M, homography=np.eye(3), corners=np.zeros((4, 2)))


def test_a_pale_hand_over_an_edge_tile_is_not_light_washing_it_out() -> None:
    """A lamp's glare adds light and leaves the seams as they were; a pale hand as bright and of no colour of its
    own brings the edges of its fingers: its tile still backs the frame-band run beside it."""
    cfg = OcclusionConfig()
    colours = np.zeros((8, 8, 3), np.float32)
    colours[..., 2] = 10.0
    colours[3:5, 0:2, 2] = 38.0  # the corners of edge tile (3, 0), far brighter than the board's, none foreign
    nothing = np.zeros((8, 8), bool)
    board = _seamed_walls()
    glare = light_seams(_lamp_glare(board, (3.5, 0.3), (0.8, 0.8, 0.8)), cfg.seam_patch)
    hand = light_seams(_pale_hand(board, 3), cfg.seam_patch)
    assert glare[3:5, 0:2].max() <= cfg.lit_edge < hand[3:5, 0:2].min()
    unclear = {(3, 0)}
    bounds = (cfg.lit_lost, cfg.lit_edge)
    assert _lit_tiles(unclear, colours, nothing, cfg.night_lit, lambda: (glare, _NO_CLIP), bounds) == unclear
    assert _lit_tiles(unclear, colours, nothing, cfg.night_lit, lambda: (hand, _NO_CLIP), bounds) == set()
    flags = np.full(4 * 14, -1, np.int8)
    flags[3 * 14 + 6 : 3 * 14 + 8] = 1  # two foreign segments of the left side, beside row 3
    lit = _lit_tiles(unclear, colours, nothing, cfg.night_lit, lambda: (hand, _NO_CLIP), bounds)
    assert longest_run(flags, disturbed_inside(unclear - lit)) == 2


_NO_CLIP = np.zeros((8, 8), np.float32)


def test_a_lit_tile_keeps_its_seams_unless_blown_out() -> None:
    """Light adds and does not erase: an edge tile whose corner has lost the seams (a smooth pale palm over
    it) is not washed out by light, unless that corner is blown out (clipped: its structure is gone, not
    hidden, as in a lamp's glare core)."""
    cfg = OcclusionConfig()
    colours = np.zeros((8, 8, 3), np.float32)
    colours[..., 2] = 10.0
    colours[3:5, 0:2, 2] = 38.0
    nothing = np.zeros((8, 8), bool)
    seams = np.ones((8, 8), np.float32)
    seams[3, 0] = 0.4  # under lit_lost
    bounds = (cfg.lit_lost, cfg.lit_edge)
    assert _lit_tiles({(3, 0)}, colours, nothing, cfg.night_lit, lambda: (seams, _NO_CLIP), bounds) == set()
    blown = _NO_CLIP.copy()
    blown[3, 0] = 0.7
    assert _lit_tiles({(3, 0)}, colours, nothing, cfg.night_lit, lambda: (seams, blown), bounds) == {(3, 0)}


def test_the_seams_are_measured_only_beside_a_lit_tile() -> None:
    """Linear-light seams cost ~2 ms: only a tile bright enough to be lit asks for them."""
    colours = np.zeros((8, 8, 3), np.float32)
    colours[..., 2] = 10.0

    def never() -> np.ndarray:
        raise AssertionError("seams measured without a lit tile")

    assert _lit_tiles({(3, 0)}, colours, np.zeros((8, 8), bool), OcclusionConfig().night_lit, never) == set()


def test_a_partly_blown_out_corner_keeps_the_seams_its_unclipped_pixels_can_show() -> None:
    """A lamp's core clipping part of a corner's patch shows no seam there: the seams kept are judged on the
    unclipped share (r6 day 0029: 0.74 of the median point with 0.44 clipped); a surface hiding them is not."""
    cfg = OcclusionConfig()
    seams = np.array([[0.74, 0.74, 0.3, 1.0, 3.5]])
    clipped = np.array([[0.44, 0.0, 0.44, 0.0, 0.44]])
    assert _kept_seams(seams, clipped, cfg).tolist() == [[True, False, False, True, False]]


def test_edge_points_are_judged_against_the_edge() -> None:
    """An edge point's patch holds one seam, not two crossing: on a clean board the edge points sit under the
    inner points' median (0.94 on 219 clean frames), so each kind is relative to its own median point."""
    rng = np.random.default_rng(3)
    seams = 1.0 + rng.normal(0.0, 0.05, (8, 8))
    seams[0], seams[-1], seams[:, 0], seams[:, -1] = 0.8, 0.8, 0.8, 0.8
    seams[0, 0] = 0.75  # a lit corner
    seams[3, 0] = 0.2  # a palm over an edge point
    out = _by_kind(seams)
    assert out[0, 0] >= OcclusionConfig().seam_keep > seams[0, 0] / np.median(seams)
    assert out[3, 0] < OcclusionConfig().lit_lost
    assert abs(float(np.median(out[1:-1, 1:-1])) - 1.0) < 1e-6
