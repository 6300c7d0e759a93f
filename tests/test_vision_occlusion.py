"""Occlusion: hands over rendered boards, unreadable frames, and the decision over measured signals."""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest

from companion.board import FIXED_TILES, random_setup
from companion.observation import TileReading
from tests.support.lattice_views import paint_corners, wall_lattice
from vision.occlusion import (
    OcclusionConfig,
    Signals,
    _bridged_cluster,
    _gradient_residuals,
    _largest_cluster,
    _largest_group,
    _lit_tiles,
    _segment_positions,
    _without_small,
    decide,
    disturbed_inside,
    frame_band,
    frame_level,
    frame_levels,
    frame_problem,
    is_night,
    lattice_colours,
    lattice_foreign,
    lattice_structure,
    longest_run,
    percentiles_u8,
    shade_invariant,
    signals,
    small_grey,
    under_pawns,
)
from vision.occlusion_band import _mixed_light, without_gates
from vision.occlusion_lattice import _blown_walls, light_seams
from vision.reader import BoardReader
from vision.rectify import Rectified
from vision.render import render_photo

SIZE = (1280, 960)


@cache
def _photo(seed: int, look: str, occlusion: bool, lighting: str = "day") -> np.ndarray:
    board, _ = random_setup(random.Random(seed))
    image, label = render_photo(board, seed=seed, look=look, size=SIZE, occlusion=occlusion, lighting=lighting)
    assert label["occluded"] is occlusion
    return image


@pytest.mark.parametrize(("seed", "look"), [(41, "classic"), (42, "hedge"), (43, "dark"), (44, "bright")])
def test_hand_over_the_board_is_reported(seed: int, look: str) -> None:
    obs = BoardReader().read(_photo(seed, look, True))
    assert obs.occluded and obs.reason
    assert not obs.tiles and not obs.pawns


@pytest.mark.parametrize(("seed", "look"), [(41, "classic"), (42, "hedge"), (45, "wizard")])
def test_clean_board_is_not_flagged(seed: int, look: str) -> None:
    obs = BoardReader().read(_photo(seed, look, False))
    assert not obs.occluded, obs.reason
    assert obs.readable


@pytest.mark.parametrize("shape", [(480, 640), (1232, 1640), (241, 999), (100, 100), (2100, 1577)])
def test_small_grey_equals_subsampling_the_whole_grey_frame(shape: tuple[int, int]) -> None:
    import cv2

    rng = np.random.default_rng(shape[0] * 7 + shape[1])
    image = rng.integers(0, 256, (*shape, 3), dtype=np.uint8)
    step = max(1, min(shape) // 240)
    whole = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)[::step, ::step]
    assert np.array_equal(small_grey(image), whole)
    assert frame_levels(image, small_grey(image)) == frame_levels(image)


def test_frame_problems() -> None:
    assert frame_problem(np.zeros((480, 640, 3), np.uint8)) == "blank frame: nothing to see"
    dark = np.zeros((480, 640, 3), np.uint8)
    dark[:, 320:] = 10  # a faint board edge, still far too dark to read
    assert "too dark" in (frame_problem(dark) or "")
    assert frame_problem(_photo(41, "classic", False)) is None


def test_night_and_day_levels() -> None:
    day = frame_level(_photo(41, "classic", False))
    night = frame_level(_photo(46, "classic", False, "night"))
    assert night < BoardReader().config.night_level < day


def test_shade_invariant_ignores_shadows() -> None:
    patch = np.full((4, 4, 3), (60, 120, 200), np.uint8)
    shadow = (patch * 0.5).astype(np.uint8)
    a, b = shade_invariant(patch, 0.0), shade_invariant(shadow, 0.0)
    assert np.allclose(a, b, atol=1.0)
    skin = np.full((4, 4, 3), (150, 178, 228), np.uint8)
    assert np.abs(shade_invariant(skin, 0.0) - a).max() > 10


def test_longest_run_wraps_around_the_frame() -> None:
    flags = np.zeros(56, dtype=np.int8)
    flags[[0, 1, 42, 43]] = 1  # top-left corner: the top's first two, the left side's first two
    flags[[2]] = -1  # unknown segments neither break nor extend a run
    flags[[3]] = 1
    assert longest_run(flags) == 5
    corner = np.zeros(56, dtype=np.int8)
    corner[[27, 41]] = 1  # right side's last and bottom's last meet at the bottom-right corner
    assert longest_run(corner) == 2
    apart = np.zeros(56, dtype=np.int8)
    apart[[27, 28]] = 1  # right side's last and bottom's first are at opposite corners
    assert longest_run(apart) == 1
    assert longest_run(np.full(56, -1, dtype=np.int8)) == 0
    assert longest_run(np.zeros(56, dtype=np.int8)) == 0


def test_gradient_model_absorbs_uneven_light_not_a_hand() -> None:
    pos = _segment_positions(48, 36)
    values = np.stack([50 + 3 * pos[:, 0], 30 - 2 * pos[:, 1], np.full(len(pos), 20.0)], axis=1)
    values[10] += (15, -10, 0)
    known = np.ones(len(pos), dtype=bool)
    residual, _ = _gradient_residuals(values, pos, known, np.ones(3))
    assert residual[10] > 10 and np.delete(residual, 10).max() < 1e-6


def test_band_run_needs_an_unclear_edge_tile() -> None:
    # A run of 3 foreign segments on the top side over columns 2-3 (segments 4..6).
    flags = np.zeros((4, 14), dtype=np.int8)
    flags[0, 4:7] = 1
    assert longest_run(flags.reshape(-1), disturbed_inside(set())) == 0  # light or cloth on the band only
    assert longest_run(flags.reshape(-1), disturbed_inside({(6, 3)})) == 0  # unclear, but far from the run
    assert longest_run(flags.reshape(-1), disturbed_inside({(3, 3)})) == 0  # not an edge tile
    assert longest_run(flags.reshape(-1), disturbed_inside({(0, 3)})) == 3
    assert longest_run(flags.reshape(-1), disturbed_inside({(1, 4)})) == 3  # second row, a tile along
    # Both outer corners of edge tile (0, 3) foreign on the lattice: fingers over a tile that still reads.
    foreign = np.zeros((8, 8), dtype=bool)
    foreign[0, 3:5] = True
    assert longest_run(flags.reshape(-1), disturbed_inside(set(), foreign)) == 3
    foreign[0, 4] = False  # one corner only: glare or a picture's edge
    assert longest_run(flags.reshape(-1), disturbed_inside(set(), foreign)) == 0
    foreign[0, :] = True  # the whole top edge and nothing inside: the board's rim, not fingers
    assert longest_run(flags.reshape(-1), disturbed_inside(set(), foreign)) == 0
    foreign[1, 3] = True  # ... unless it reaches inside somewhere: then it came in across the edge
    assert longest_run(flags.reshape(-1), disturbed_inside(set(), foreign)) == 3
    # Left side, bottom to top in ring order: segments 10..12 are rows 5-6, column 0.
    left = np.zeros((4, 14), dtype=np.int8)
    left[3, 10:13] = 1
    assert longest_run(left.reshape(-1), disturbed_inside({(5, 0)})) == 3
    assert longest_run(left.reshape(-1), disturbed_inside({(5, 6)})) == 0


def test_largest_group_of_unclear_tiles() -> None:
    assert _largest_group(set()) == 0
    assert _largest_group({(0, 0), (3, 3), (6, 6)}) == 1
    assert _largest_group({(2, 2), (3, 3), (4, 4), (0, 6)}) == 3  # diagonal neighbours touch


def test_night_by_most_of_the_frame() -> None:
    rng = np.random.default_rng(3)
    dark_room = rng.integers(0, 20, size=(240, 320, 3)).astype(np.uint8)
    dark_room[:40] = 200  # a lamp pool or glowing pieces: the brightest tenth is lit
    assert frame_level(dark_room) > 75
    assert is_night(dark_room)
    dim_day = rng.integers(50, 90, size=(240, 320, 3)).astype(np.uint8)
    assert not is_night(dim_day)
    assert is_night(np.full((240, 320, 3), 40, np.uint8))  # dim all over


def test_decide_rules() -> None:
    cfg = OcclusionConfig()
    clean = Signals(band_run=1, lattice=1, quality=0.99, low_tiles=0)
    assert decide(clean, "day", cfg) is None
    # band_run counts only runs beside an unclear edge tile (see test_band_run_needs_an_unclear_edge_tile)
    assert decide(Signals(cfg.min_band_run, 0, 0.99, 1), "day", cfg)
    assert decide(Signals(cfg.min_band_run - 1, 0, 0.99, 1), "day", cfg) is None
    assert decide(Signals(0, 12, 0.99, 0), "day", cfg) is None  # glare or a light pool on the wall lattice
    assert decide(Signals(0, 0, cfg.min_quality - 0.01, 1), "day", cfg)
    assert decide(Signals(0, 0, cfg.min_quality - 0.01, 0), "day", cfg) is None  # every tile reads: light, not a hand
    assert decide(Signals(0, 0, cfg.night_min_quality - 0.01, 0), "night", cfg)
    crowd = cfg.max_low_tiles + 1
    assert decide(Signals(1, 0, 0.99, crowd, low_cluster=crowd), "day", cfg)  # an arm at the edge too
    assert decide(Signals(0, 2, 0.99, crowd, low_cluster=crowd, lattice_from_edge=2), "day", cfg)
    assert decide(Signals(0, 3, 0.99, crowd, low_cluster=crowd), "day", cfg) is None  # glare in the middle
    assert decide(Signals(0, 0, 0.99, crowd, low_cluster=1), "day", cfg) is None  # scattered: the artwork
    assert decide(Signals(0, 9, 0.9, 3, band_alone=9), "night", cfg) is None  # a lone band run: not in the dark
    assert decide(Signals(cfg.min_band_run, 0, 0.95, 1), "night", cfg)  # an arm over the edge, tile unclear
    assert decide(Signals(0, 0, cfg.night_min_quality - 0.01, 0), "night", cfg)
    assert decide(Signals(0, 0, 0.95, crowd, low_cluster=crowd), "night", cfg)  # a hand in the dark
    assert decide(Signals(0, 0, 0.95, crowd, low_cluster=1), "night", cfg) is None
    assert "fixed tiles" in (decide(Signals(0, 0, 0.99, 0, ((0, 0), (2, 2))), "day", cfg) or "")
    # Foreign tile corners reaching in from the edge: fingers over tiles that still decode.
    reach = cfg.max_lattice_cluster + 1
    assert "hand" in (decide(Signals(0, reach, 0.99, 0, lattice_from_edge=reach), "day", cfg) or "")
    assert decide(Signals(0, reach, 0.99, 0, lattice_from_edge=reach - 1), "day", cfg) is None
    assert decide(Signals(0, reach, 0.95, 0, lattice_from_edge=reach), "night", cfg) is None  # noise at night


def test_only_clusters_reaching_in_from_the_edge_count() -> None:
    foreign = np.zeros((8, 8), bool)
    foreign[3:5, 3:6] = True  # a light pool in the middle
    assert _largest_cluster(foreign) == 6
    assert _largest_cluster(foreign, from_edge=True) == 0
    foreign[0, :] = True  # a dark seam all along the top edge
    assert _largest_cluster(foreign, from_edge=True) == 0
    foreign[1:3, 4] = True  # fingers from the top edge down to the pool
    assert _largest_cluster(foreign, from_edge=True) == 8 + 2 + 6


def test_a_pawn_found_on_a_hand_does_not_cut_its_corners_apart() -> None:
    foreign = np.zeros((8, 8), bool)
    foreign[2:4, 0:2] = True  # a hand over the left edge: 5 corners
    foreign[4, 0] = True
    hidden = np.zeros((8, 8), bool)
    hidden[3, 0] = True  # a "pawn" found on the hand hides one of them
    assert _largest_cluster(foreign & ~hidden, from_edge=True) == 3  # cut into 3 and 1: too small alone
    assert _bridged_cluster(foreign, hidden, 3) == 5
    assert _bridged_cluster(foreign, np.zeros((8, 8), bool), 3) == 0  # no pawn joins it: the usual rule's job
    pawn_alone = np.zeros((8, 8), bool)
    pawn_alone[0:2, 3] = True  # a pawn at the edge with its own colour and one point beside it
    hidden_pawn = np.zeros((8, 8), bool)
    hidden_pawn[0, 3] = True
    assert _bridged_cluster(pawn_alone, hidden_pawn, 3) == 0


def test_a_cluster_counts_around_an_unclear_tile_only_when_it_holds_one_of_its_corners() -> None:
    foreign = np.zeros((8, 8), bool)
    foreign[0:3, 2] = True  # fingers from the top edge: lattice rows 0-2 on line 2
    assert _largest_cluster(foreign, from_edge=True, touching=[(5, 5)]) == 0  # an unclear tile far away
    assert _largest_cluster(foreign, from_edge=True, touching=[(1, 2)]) == 3  # corners (1..2, 2..3)
    assert _largest_cluster(foreign, from_edge=True, touching=[(2, 1)]) == 3  # its top-right corner (2, 2)
    assert _largest_cluster(foreign, from_edge=True, touching=[]) == 0


def test_only_clusters_darker_than_the_board_count_when_asked() -> None:
    foreign = np.zeros((8, 8), bool)
    foreign[0:3, 2] = True  # from the top edge
    foreign[5, 5:8] = True  # from the right edge
    grey = np.full((8, 8), 100.0)
    grey[5, 5:8] = 30.0  # a hand hides the glow
    grey[0:3, 2] = 160.0  # a light pool adds light
    assert _largest_cluster(foreign, from_edge=True) == 3
    assert _largest_cluster(foreign, from_edge=True, touching=[(0, 2)], grey=grey) == 0
    assert _largest_cluster(foreign, from_edge=True, touching=[(4, 6)], grey=grey) == 3
    assert _largest_cluster(foreign, from_edge=True, touching=[(0, 2)]) == 3  # without grey: any cluster


def test_at_night_corners_from_the_edge_count_only_around_an_unclear_tile() -> None:
    cfg = OcclusionConfig()
    reach = cfg.max_lattice_cluster + 1
    noise = Signals(0, reach, 0.97, 0, lattice_from_edge=reach)  # every tile reads clearly
    assert decide(noise, "night", cfg) is None
    assert decide(noise, "day", cfg)  # by day the cluster decides alone
    hand = Signals(0, reach, 0.95, 1, lattice_from_edge=reach, lattice_unclear=reach)
    assert "hand" in (decide(hand, "night", cfg) or "")
    assert decide(Signals(0, reach, 0.95, 1, lattice_from_edge=reach, lattice_unclear=reach - 1), "night", cfg) is None


def test_by_day_a_smaller_darker_cluster_at_an_unclear_tile_decides() -> None:
    cfg = OcclusionConfig()
    few = cfg.min_day_lattice_unclear
    assert few <= cfg.max_lattice_cluster
    hand = Signals(0, few, 0.95, 1, lattice_from_edge=few, lattice_unclear=few)
    assert "unclear edge tile" in (decide(hand, "day", cfg) or "")
    assert decide(hand, "night", cfg) is None  # at night the cluster needs more than max_lattice_cluster
    pawn = Signals(0, few - 1, 0.95, 1, lattice_from_edge=few - 1, lattice_unclear=few - 1)
    assert decide(pawn, "day", cfg) is None
    assert decide(Signals(0, few, 0.95, 1, lattice_from_edge=few), "day", cfg) is None  # no unclear tile there


def _light_corners(rect: Rectified, squares: list[tuple[int, int]], colour: tuple[int, int, int]) -> None:
    """Light over the squares' corners, wider than their patches: the mean moved to ``colour``, the texture
    kept (light adds to what is there and hides nothing; a flat paint of that colour is a surface that hides
    the seams, see lattice_foreign)."""
    t, m = rect.tile_px, rect.margin_px
    for i, j in squares:
        box = (slice(m + i * t - 20, m + i * t + 20), slice(m + j * t - 20, m + j * t + 20))
        patch = rect.image[box].astype(np.float32)
        rect.image[box] = np.clip(patch - patch.mean(axis=(0, 1)) + np.array(colour, np.float32), 0, 255).astype(
            np.uint8
        )


def test_glare_on_the_walls_is_not_foreign_but_a_hand_is() -> None:
    wall = (40, 150, 60)  # BGR: a green hedge
    corners = [(0, 2), (1, 2), (2, 2), (2, 3), (3, 3)]
    glared = wall_lattice(wall)
    # A lamp's glare: the wall brightened and pulled partway toward white.
    _light_corners(glared, corners, (130, 215, 140))
    assert not lattice_foreign(glared).any()
    hand = wall_lattice(wall)
    paint_corners(hand, corners, (120, 150, 210))  # skin
    assert lattice_foreign(hand).sum() == len(corners)
    pale = wall_lattice(wall)
    paint_corners(pale, corners, (205, 220, 240))  # a pale hand: nearly white, but warm, off the line
    assert lattice_foreign(pale).sum() == len(corners)
    haze = wall_lattice(wall)
    # A strong lamp's haze: 85 % white light added, right on the line toward white.
    _light_corners(haze, corners, tuple(round(0.15 * w + 0.85 * 250) for w in wall))
    assert not lattice_foreign(haze).any()


def test_only_the_lattice_points_a_pawn_stands_over_are_hidden() -> None:
    rect = wall_lattice((40, 150, 60))
    t, m = rect.tile_px, rect.margin_px
    box = (m + 2 * t + 10, m + 3 * t + 4, 28, 40)  # a pawn on square (3, 2), inside its tile
    assert not under_pawns(rect, [box]).any()
    leaning = (m + 2 * t + 10, m + 3 * t - 20, 28, 40)  # leaning over the top edge of (3, 2)
    hidden = under_pawns(rect, [leaning])
    assert not hidden.any()  # still clear of the corners at columns 2 and 3
    wide = (m + 2 * t + 2, m + 3 * t - 20, 44, 40)  # within a patch of both top corners of (3, 2)
    assert {tuple(p) for p in np.argwhere(under_pawns(rect, [wide]))} == {(3, 2), (3, 3)}
    assert under_pawns(rect, [wide], grow=0.0).sum() == 0  # the patch's reach makes the difference
    assert under_pawns(rect, []).shape == (8, 8)


def _readings() -> list[TileReading]:
    """49 confident readings, the fixed tiles right (what a clean board gives)."""
    return [TileReading(openings=FIXED_TILES.get(divmod(i, 7), 0b0101), confidence=0.9) for i in range(49)]


def test_fingers_beside_a_pawn_still_count() -> None:
    rect = wall_lattice((40, 150, 60))
    t, m = rect.tile_px, rect.margin_px
    fingers = [(0, 4), (1, 4), (2, 4), (0, 5), (1, 5), (2, 5)]  # from the top edge down over two tiles
    paint_corners(rect, fingers, (120, 150, 210))
    pawn = (m + 3 * t + 12, m + t + 8, 24, 30)  # a pawn standing on (1, 3), next to the fingers
    shape = (2000, 2000)
    sig = signals(rect, shape, _readings(), 0.99, covered={(1, 3), (1, 4)}, boxes=[pawn])
    assert sig.lattice_from_edge == len(fingers)
    assert "hand" in (decide(sig) or "")
    # The pawn itself over a corner hides that corner only, and the fingers' cluster is counted through it
    # (a pawn found on a hand must not cut its corners apart).
    over = (m + 4 * t - 14, m + t - 14, 28, 28)
    sig = signals(rect, shape, _readings(), 0.99, covered={(0, 3), (0, 4), (1, 3), (1, 4)}, boxes=[over])
    assert under_pawns(rect, [over]).sum() == 1
    assert sig.lattice_from_edge == len(fingers)


def test_long_run_round_the_frame_is_an_arm_without_unclear_tiles() -> None:
    flags = np.zeros((4, 14), dtype=np.int8)
    flags[:, [2, 3, 6, 7, 10, 11]] = -1  # the gate arrows
    flags[1, [8, 9, 12, 13]] = 1  # down the right side ...
    flags[2, [12, 13]] = 1  # ... round the bottom-right corner
    assert longest_run(flags.reshape(-1)) == 6
    cfg = OcclusionConfig()
    reason = decide(Signals(0, 0, 0.99, 0, band_alone=longest_run(flags.reshape(-1))), "day", cfg)
    assert "frame" in (reason or "")
    corner = np.zeros((4, 14), dtype=np.int8)
    corner[1, 12:] = corner[2, 12:] = 1  # a frame's corner artwork or a shadow there: 4 at most
    assert decide(Signals(0, 0, 0.99, 0, band_alone=longest_run(corner.reshape(-1))), "day", cfg) is None
    assert decide(Signals(0, 0, 0.95, 0, band_alone=9), "night", cfg) is None  # noise at night


def test_a_warm_haze_fading_out_is_not_a_hand_but_a_pale_hand_with_an_outline_is() -> None:
    wall = (40, 150, 60)
    warm = (168, 222, 210)  # BGR: a warm lamp's near-white veil, off the line toward pure white
    core = [(6, 0), (6, 1), (7, 0), (7, 1)]
    ring = [(5, 0), (5, 1), (6, 2), (7, 2)]  # every lattice point beside the core
    outlined = wall_lattice(wall)
    paint_corners(outlined, core, warm)  # the same colour with wall right beside it: a pale hand
    assert lattice_foreign(outlined).sum() == len(core)
    faded = wall_lattice(wall)
    paint_corners(faded, core, warm)
    _light_corners(faded, ring, tuple(round(0.5 * w + 0.5 * 235) for w in wall))  # the veil thinning out
    assert lattice_foreign(faded, OcclusionConfig(veil_fade=99.0)).sum() == len(core)  # without the fade rule
    assert not lattice_foreign(faded).any()
    faded.image[:] = outlined.image  # one point beside the core back to plain wall: an outline again
    _light_corners(faded, ring[:3], tuple(round(0.5 * w + 0.5 * 235) for w in wall))
    assert lattice_foreign(faded).sum() == len(core)


def test_foreign_corners_that_keep_their_seams_or_are_clipped_are_the_board() -> None:
    wall = (40, 150, 60)
    corners = [(0, 2), (1, 2), (2, 2), (2, 3), (3, 3)]
    tinted = wall_lattice(wall)
    t, m = tinted.tile_px, tinted.margin_px
    tinted.image[:, m::t] //= 2  # seams between the tiles: dark lines through every lattice point
    tinted.image[m::t, :] //= 2
    seams, _ = lattice_structure(tinted)
    assert np.median(seams) == pytest.approx(1.0)
    smooth = wall_lattice(wall)
    smooth.image[:, m::t] //= 2
    smooth.image[m::t, :] //= 2
    paint_corners(smooth, corners, (120, 150, 210))  # skin: flat, the seams gone
    assert lattice_foreign(smooth).sum() == len(corners)
    # A red light pool over the same corners: the colour changes, the seams stay.
    for i, j in corners:
        patch = tinted.image[m + i * t - 8 : m + i * t + 8, m + j * t - 8 : m + j * t + 8].astype(np.float32)
        tinted.image[m + i * t - 8 : m + i * t + 8, m + j * t - 8 : m + j * t + 8] = (patch * (0.6, 0.8, 3.0)).clip(
            0, 255
        )
    assert (lattice_structure(tinted)[0][tuple(np.array(corners).T)] >= OcclusionConfig().seam_keep).all()
    assert not lattice_foreign(tinted).any()
    clipped = wall_lattice(wall)
    paint_corners(clipped, corners, (255, 255, 255))  # blown out: no colour left to judge
    assert lattice_structure(clipped)[1][tuple(np.array(corners).T)].min() == 1.0  # all of each patch
    assert not lattice_foreign(clipped).any()


def test_skin_clipping_in_a_channel_the_walls_do_not_clip_in_is_still_foreign() -> None:
    corners = [(0, 2), (1, 2), (2, 2), (2, 3), (3, 3)]
    hand = wall_lattice((40, 150, 60))  # green hedge walls
    paint_corners(hand, corners, (150, 188, 255))  # skin in bright light: red blown out, green and blue not
    assert lattice_structure(hand)[1][tuple(np.array(corners).T)].min() == 1.0
    assert lattice_foreign(hand).sum() == len(corners)
    orange = shade_invariant(np.array([[[90, 140, 230]]], np.uint8))[0, 0]  # orange walls
    blown = shade_invariant(np.array([[[100, 150, 255], [150, 188, 255], [250, 252, 255]]], np.uint8))[0]
    # Brighter orange clipping in red, or white: the walls blown out. Skin-pink clipping in red: red is the
    # orange walls' brightest channel too, so it may be them.
    assert _blown_walls(blown, orange, 6.0).tolist() == [True, True, True]
    green = shade_invariant(np.array([[[40, 150, 60]]], np.uint8))[0, 0]
    assert _blown_walls(blown, green, 6.0).tolist() == [False, False, True]


def test_blurred_frame_is_unreadable() -> None:
    import cv2

    photo = _photo(41, "classic", False)
    blurred = cv2.GaussianBlur(photo, (0, 0), 16)  # a badly defocused camera
    obs = BoardReader().read(blurred)
    assert obs.occluded and obs.reason
    assert not BoardReader().read(cv2.GaussianBlur(photo, (0, 0), 1.5)).occluded  # a soft lens is fine


T, M = 48, 36  # a synthetic rectified board: tile and margin pixels
SQUARE = np.array([[M, M], [M + 7 * T, M], [M + 7 * T, M + 7 * T], [M, M + 7 * T]], np.float64)


def _framed_board(
    frame: tuple[int, int, int], *, seams: bool = False, arrows: bool = False, seed: int = 5
) -> np.ndarray:
    """A rectified board of green walls inside a printed frame of colour ``frame`` (BGR), with sensor noise.

    ``seams``: darker lines between the tiles through every corner; ``arrows``: a yellow arrow
    printed at every gate of all four sides.
    """
    side = 7 * T + 2 * M
    image = np.empty((side, side, 3), np.float32)
    image[:] = frame
    image[M : M + 7 * T, M : M + 7 * T] = (40, 150, 60)
    if seams:
        image[M : M + 7 * T + 1, M : M + 7 * T + 1 : T] *= 0.5
        image[M : M + 7 * T + 1 : T, M : M + 7 * T + 1] *= 0.5
    if arrows:
        for g in (1, 3, 5):
            a, b = M + g * T + 8, M + (g + 1) * T - 8
            image[4:M, a:b] = image[M + 7 * T : side - 4, a:b] = (40, 220, 240)
            image[a:b, 4:M] = image[a:b, M + 7 * T : side - 4] = (40, 220, 240)
    return np.clip(image + np.random.default_rng(seed).normal(0, 3, image.shape), 0, 255).astype(np.uint8)


def _view(pixels: np.ndarray) -> Rectified:
    """The synthetic board as the reader's rectified view (identity homography)."""
    return Rectified(image=pixels, tile_px=T, margin_px=M, homography=np.eye(3), corners=SQUARE)


def _lattice_view(
    pixels: np.ndarray, unclear: np.ndarray
) -> tuple[Rectified, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The view and the lattice evidence ``frame_band`` weighs (colours, foreign points, unclear edge tiles)."""
    rect = _view(pixels)
    colours = lattice_colours(rect)
    return rect, (colours, lattice_foreign(rect, colours=colours), unclear)


def test_glare_on_the_frame_band_is_not_an_arm() -> None:
    m = M
    image = _framed_board((140, 60, 190))  # a pink printed frame
    shape = (2000, 2000)  # the whole band inside the photo
    top_band = (slice(10, m), slice(90, 230))  # three tiles along the top frame
    glared = _view(image.copy())
    glared.image[top_band] = (215, 170, 240)  # brighter and partway toward white
    assert (frame_band(glared, shape) == 1).sum() == 0
    arm = _view(image.copy())
    arm.image[top_band] = (120, 150, 210)  # skin
    assert (frame_band(arm, shape) == 1).sum() >= 2  # the segments beside the gate arrows are not judged


def test_gate_arrows_are_judged_among_themselves_and_left_out_of_the_lone_run() -> None:
    t, m = T, M
    image = _framed_board((140, 60, 190), arrows=True)  # a pink printed frame, a yellow arrow at every gate
    shape = (2000, 2000)
    gates = np.array([(k // 2) in (1, 3, 5) for k in range(14)] * 4)

    clean = frame_band(_view(image), shape)
    assert (clean == 0).all()  # the arrows are like each other: every segment known and like its own kind
    arm = image.copy()
    arm[0:m, m + 3 * t : m + 4 * t] = (120, 150, 210)  # skin over the middle gate of the top side only
    flags = frame_band(_view(arm), shape)
    assert flags[6] == 1 and flags[7] == 1 and flags[~gates].max() == 0
    assert (without_gates(flags)[gates] == -1).all()
    assert longest_run(without_gates(flags)) == 0  # the lone run stays on the plain frame
    assert longest_run(flags) == 2
    assert (frame_band(_view(arm), shape, OcclusionConfig(judge_gates=False))[gates] == -1).all()


def test_a_light_spilling_over_the_edge_is_not_an_arm_but_a_hand_over_frame_and_tiles_is() -> None:
    m = M
    image = _framed_board((110, 40, 30), seams=True)  # a dark blue printed frame
    shape = (2000, 2000)
    over_edge = (slice(0, m + 20), slice(m + 48, m + 200))  # the top frame and the tiles just inside it
    quiet = np.zeros(8 * 7, dtype=bool)  # the tiles beside every segment read clearly

    spill = image.copy()
    spill[over_edge] = (spill[over_edge] * (0.8, 0.9, 2.2)).clip(0, 255)  # a red LED's light added
    rect, lattice = _lattice_view(spill, quiet)
    assert (frame_band(rect, shape) == 1).sum() >= 2  # judged alone, the tinted frame looks foreign
    assert not lattice[1].any()  # the corners inside keep their seams: tinted, not covered
    assert (frame_band(rect, shape, lattice=lattice) == 1).sum() == 0
    beside_unclear = (rect, (lattice[0], lattice[1], np.ones(8 * 7, dtype=bool)))
    assert (frame_band(beside_unclear[0], shape, lattice=beside_unclear[1]) == 1).sum() >= 2  # kept there
    arm = image.copy()
    arm[over_edge] = (120, 150, 210)  # skin over the frame and on over the tiles' corners
    rect, lattice = _lattice_view(arm, quiet)
    assert lattice[1].any()
    assert (frame_band(rect, shape, lattice=lattice) == 1).sum() >= 2


def test_a_bright_spill_beside_an_unclear_inner_tile_is_light_by_day_but_not_beside_an_unclear_edge_tile() -> None:
    m = M
    image = _framed_board((110, 40, 30), seams=True)  # a dark blue printed frame
    shape = (2000, 2000)
    over_edge = (slice(0, m + 20), slice(m + 48, m + 200))  # the top frame and the tiles just inside it
    spill = image.copy()
    spill[over_edge] = (spill[over_edge] * (1.1, 1.2, 2.6)).clip(0, 255)  # a bright red pool: corners lit ~1.5x
    rect, lattice = _lattice_view(spill, np.ones(8 * 7, dtype=bool))  # an unclear tile near every segment
    seams = light_seams(rect, OcclusionConfig().seam_patch)
    assert (frame_band(rect, shape, lattice=lattice) == 1).sum() >= 2  # withheld beside the unclear tile
    inner_only = (np.zeros(8 * 7, dtype=bool), lambda: seams)  # the edge tiles beside it read clearly
    assert longest_run(frame_band(rect, shape, lattice=lattice, edge_light=inner_only)) <= 1
    edge_unclear = (np.ones(8 * 7, dtype=bool), lambda: seams)  # an arm would have crossed an edge tile
    assert longest_run(frame_band(rect, shape, lattice=lattice, edge_light=edge_unclear)) >= 2
    lost = (np.zeros(8 * 7, dtype=bool), lambda: np.zeros_like(seams))  # the corners' seams hidden: not light
    assert longest_run(frame_band(rect, shape, lattice=lattice, edge_light=lost)) >= 2


def test_a_light_pool_at_night_beside_an_unclear_tile_is_not_an_arm_but_a_hand_there_is() -> None:
    m = M
    image = _framed_board((30, 25, 20), seams=True, seed=7)  # a dark frame at night around the glowing walls
    shape = (2000, 2000)
    over_edge = (slice(0, m + 20), slice(m + 40, m + 200))  # the top frame and the tiles just inside it
    unclear = np.ones(8 * 7, dtype=bool)  # the pool's colour makes the edge tiles unclear

    pool = image.astype(np.float32)
    pool[over_edge] += (10, 50, 140)  # an orange LED's light added to the frame and to the glow
    rect, lattice = _lattice_view(pool.clip(0, 255).astype(np.uint8), unclear)
    assert not lattice[1].any()  # the corners inside keep their seams: lit, not covered
    assert (frame_band(rect, shape, lattice=lattice) == 1).sum() >= 2  # by day rules: kept beside unclear tiles
    assert (frame_band(rect, shape, lattice=lattice, night=True) == 1).sum() == 0
    hand = image.copy()
    hand[over_edge] = (70, 90, 120)  # a dim hand over the frame, hiding the glow of the corners it covers
    rect, lattice = _lattice_view(hand, unclear)
    assert lattice[1].any()
    assert (frame_band(rect, shape, lattice=lattice, night=True) == 1).sum() >= 2
    short = image.copy()
    short[: m - 2, m + 40 : m + 200] = (70, 90, 120)  # the hand stops short of the tiles: their glow stays
    rect, lattice = _lattice_view(short, unclear)
    assert (frame_band(rect, shape, lattice=lattice, night=True) == 1).sum() >= 2


@pytest.mark.parametrize("seed", range(5))
def test_percentiles_from_the_histogram_equal_numpys(seed: int) -> None:
    rng = np.random.default_rng(seed)
    values = rng.integers(0, int(rng.integers(2, 256)), size=int(rng.integers(1, 4000))).astype(np.uint8)
    qs = (0.0, 5.0, 37.3, 50.0, 95.0, 100.0)
    np.testing.assert_allclose(percentiles_u8(values, qs), np.percentile(values, qs), atol=1e-9)


def test_an_edge_tile_washed_out_by_light_does_not_back_a_frame_band_run() -> None:
    """A lamp's glare over the frame washes out the edge tile beside it: its corners keep the walls' colour
    and shine brighter than the board's. A hand over the tile brings its own colour or hides the light."""
    colours = np.zeros((8, 8, 3), np.float32)
    colours[..., 2] = 10.0  # the board's corners' lightness
    colours[3:5, 0:2, 2] = 20.0  # the corners of edge tile (3, 0), twice as bright
    nothing = np.zeros((8, 8), bool)
    lit = OcclusionConfig().night_lit
    assert _lit_tiles({(3, 0)}, colours, nothing, lit) == {(3, 0)}
    assert _lit_tiles({(5, 0)}, colours, nothing, lit) == set()  # unclear, but in the board's own light
    hand = nothing.copy()
    hand[4, 1] = True  # a corner of a colour of its own
    assert _lit_tiles({(3, 0)}, colours, hand, lit) == set()
    flags = np.full(4 * 14, -1, np.int8)
    flags[3 * 14 + 6 : 3 * 14 + 8] = 1  # two foreign segments of the left side, beside row 3
    unclear = {(3, 0)}
    assert longest_run(flags, disturbed_inside(unclear)) == 2
    assert longest_run(flags, disturbed_inside(unclear - _lit_tiles(unclear, colours, nothing, lit))) == 0
    assert longest_run(flags, disturbed_inside(unclear - _lit_tiles(unclear, colours, hand, lit))) == 2
    colours[4, 0, 2] = 10.0  # one corner in the board's light: not the whole tile lit
    assert _lit_tiles(unclear, colours, nothing, lit) == set()


def test_an_edge_tile_lit_from_outside_and_fading_inward_counts_as_lit() -> None:
    """A lamp's pool over the board's edge lights the edge tile's outer corners most and fades over the tile:
    its inner corners keep at least ``lit_falloff`` of the outer ones' lightness. A hand lit over the outer
    corners ends at its outline: the inner corners stay at the board's level."""
    cfg = OcclusionConfig()
    colours = np.zeros((8, 8, 3), np.float32)
    colours[..., 2] = 10.0
    colours[3:5, 0, 2] = 20.0  # outer corners of left edge tile (3, 0), twice the board's
    colours[3:5, 1, 2] = 12.0  # inner corners 0.6 of them, under night_lit of the board's
    nothing = np.zeros((8, 8), bool)
    lit, fall = cfg.night_lit, cfg.lit_falloff
    assert _lit_tiles({(3, 0)}, colours, nothing, lit) == set()  # without the falloff: not all four lit
    assert _lit_tiles({(3, 0)}, colours, nothing, lit, falloff=fall) == {(3, 0)}
    colours[3:5, 1, 2] = 8.0  # inner corners at 0.4 of the outer: a lit hand's edge, not a fading pool
    assert _lit_tiles({(3, 0)}, colours, nothing, lit, falloff=fall) == set()
    colours[3:5, 1, 2] = 12.0
    hand = nothing.copy()
    hand[3, 0] = True
    assert _lit_tiles({(3, 0)}, colours, hand, lit, falloff=fall) == set()  # a corner of its own colour
    colours[3:5, 6:8, 2] = colours[3:5, 1::-1, 2]  # the same light from the right side
    assert _lit_tiles({(3, 6)}, colours, nothing, lit, falloff=fall) == {(3, 6)}
    colours[3:5, 3:5, 2] = colours[3:5, 0:2, 2]  # the same pattern inside the board: no outside to light it from
    assert _lit_tiles({(3, 3)}, colours, nothing, lit, falloff=fall) == set()


def test_at_night_a_tile_lit_from_inside_the_board_by_a_fading_pool_counts_as_lit() -> None:
    """An LED's spot on the tiles beside the frame fades over a tile of the second row from its lit side;
    it lights the frame band too, and that tile must not back the band's run as a hand's would. A hand
    ends at its outline (the far corners back at the board's level). By day only an edge tile lit from
    outside counts (the wider test was not measured against pale hands in the room's light)."""
    cfg = OcclusionConfig()
    lit, fall = cfg.night_lit, cfg.lit_falloff
    colours = np.zeros((8, 8, 3), np.float32)
    colours[..., 2] = 10.0
    colours[2, 5:7, 2] = 14.0  # tile (1, 5): its lower corners in the pool, 1.4x the board's
    colours[1, 5:7, 2] = 11.0  # its upper corners keep 0.79 of them, under night_lit of the board's
    nothing = np.zeros((8, 8), bool)
    unclear = {(1, 5)}
    assert _lit_tiles(unclear, colours, nothing, lit, falloff=fall) == set()  # by day: no outside to light it from
    assert _lit_tiles(unclear, colours, nothing, lit, falloff=fall, inside=True) == unclear
    flags = np.full(4 * 14, -1, np.int8)
    flags[14 + 2 : 14 + 4] = 1  # two foreign segments of the right side, beside row 1
    night = disturbed_inside(unclear - _lit_tiles(unclear, colours, nothing, lit, falloff=fall, inside=True))
    assert longest_run(flags, disturbed_inside(unclear)) == 2
    assert longest_run(flags, night) == 0
    colours[1, 5:7, 2] = 5.0  # the far corners at 0.36 of the lit ones: a lit hand's outline, not a pool
    assert _lit_tiles(unclear, colours, nothing, lit, falloff=fall, inside=True) == set()
    colours[1, 5:7, 2] = 11.0
    hand = nothing.copy()
    hand[1, 6] = True  # a corner of a colour of its own
    assert _lit_tiles(unclear, colours, hand, lit, falloff=fall, inside=True) == set()


def test_at_night_a_coloured_light_over_the_edge_tints_the_glowing_corner_only_part_of_the_way() -> None:
    """An LED's pool adds one light to the dark frame and to the glowing tile corner beside it: the corner's
    colour moves only part of the way toward the frame segment's. A hand brings one colour to both."""
    cfg = OcclusionConfig()
    colours = np.zeros((8, 8, 3), np.float32)
    colours[..., :2] = (25.0, 50.0)  # glowing green walls (r, g shares)
    colours[..., 2] = 10.0
    values = np.zeros((4 * 14, 3), np.float32)
    values[:, :2] = (30.0, 35.0)
    index = 2 * 14 + 8  # a bottom segment: its edge tile corner is lattice point (7, 4)
    values[index, :2] = (70.0, 20.0)  # a red light over the dark frame
    flags = np.zeros(4 * 14, bool)
    flags[index] = True
    foreign = np.zeros((8, 8), bool)
    foreign[7, 4] = True
    shift = values[index, :2] - colours[7, 4, :2]
    colours[7, 4, :2] += 0.2 * shift  # the pool's light over the bright glow: a fifth of the way
    assert _mixed_light(values, flags, colours, foreign, cfg)[index]
    colours[7, 4, :2] += 0.8 * shift  # a hand over frame and corner: all the way
    assert not _mixed_light(values, flags, colours, foreign, cfg)[index]
    colours[7, 4, :2] = (25.0 + 0.2 * shift[1], 50.0 - 0.2 * shift[0])  # a shift of another direction
    assert not _mixed_light(values, flags, colours, foreign, cfg)[index]
    colours[7, 4, :2] = (25.0, 50.0) + 0.2 * shift
    foreign[7, 4] = False  # a corner of the walls' colour: the spill rule's case, not this one
    assert not _mixed_light(values, flags, colours, foreign, cfg)[index]


def test_a_pawn_sized_foreign_cluster_backs_no_band_run_at_night() -> None:
    foreign = np.zeros((8, 8), dtype=bool)
    foreign[0, 7] = foreign[1, 7] = True  # the corner tile's two outer corners on the right edge (a pawn)
    assert disturbed_inside(set(), foreign).any()
    assert not _without_small(foreign, 2).any()
    assert not disturbed_inside(set(), _without_small(foreign, 2)).any()
    foreign[2, 7] = True  # three points down the edge: an arm's size, kept
    assert _without_small(foreign, 2).sum() == 3
    assert disturbed_inside(set(), _without_small(foreign, 2)).any()
