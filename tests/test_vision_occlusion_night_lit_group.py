"""At night a group of tiles an LED's pool made unclear (light added, fading, seams kept) is no hand."""

from __future__ import annotations

import numpy as np

from companion.board import FIXED_TILES
from companion.observation import TileReading
from vision.occlusion import _lit_tiles, _untinted, decide, signals
from vision.occlusion_config import OcclusionConfig
from vision.rectify import Rectified

T, M = 48, 36
SHAPE = (2000, 2000)  # the whole band inside the photo
#: Three tiles side by side in the middle row, the pool (or the hand) centred on the middle one.
GROUP = {(3, 4), (3, 5), (3, 6)}
CENTRE = (M + 3.5 * T, M + 5.5 * T)  # (y, x) of tile (3, 5)'s centre


def _glowing_board() -> np.ndarray:
    """A rectified night board: glowing green walls with dark seams between the tiles, inside a dark blue
    printed frame, with sensor noise."""
    side = 7 * T + 2 * M
    image = np.empty((side, side, 3), np.float32)
    image[:] = (60, 30, 20)
    image[M : M + 7 * T, M : M + 7 * T] = (60, 150, 90)
    image = np.clip(image + np.random.default_rng(11).normal(0, 3, image.shape), 0, 255)
    for k in range(8):  # the gaps between separate tiles
        image[M : M + 7 * T, M + k * T - 1 : M + k * T + 1] *= 0.5
        image[M + k * T - 1 : M + k * T + 1, M : M + 7 * T] *= 0.5
    return image.astype(np.uint8)


def _light_times(image: np.ndarray, gain: float) -> np.ndarray:
    """``image`` with its linear light multiplied by up to ``gain`` in a Gaussian pool around ``CENTRE``."""
    side = image.shape[0]
    yy, xx = np.mgrid[0:side, 0:side].astype(np.float32)
    blob = np.exp(-((yy - CENTRE[0]) ** 2 + (xx - CENTRE[1]) ** 2) / (2 * (0.9 * T) ** 2))[..., None]
    linear = (image.astype(np.float32) / 255.0) ** 2.2 * (1.0 + (gain - 1.0) * blob)
    return (np.clip(linear, 0.0, 1.0) ** (1 / 2.2) * 255.0).astype(np.uint8)


def _view(pixels: np.ndarray) -> Rectified:
    square = np.array([[M, M], [M + 7 * T, M], [M + 7 * T, M + 7 * T], [M, M + 7 * T]], np.float64)
    return Rectified(image=pixels, tile_px=T, margin_px=M, homography=np.eye(3), corners=square)


def _readings() -> list[TileReading]:
    """49 readings, the fixed tiles right, the ``GROUP`` unclear."""
    return [
        TileReading(openings=FIXED_TILES.get(divmod(i, 7), 0b0101), confidence=0.2 if divmod(i, 7) in GROUP else 0.9)
        for i in range(49)
    ]


def test_at_night_tiles_an_led_pool_made_unclear_are_no_group_of_unclear_tiles() -> None:
    """o30's fresh cn2_fourth 0008 (seed 4293108): a yellow LED spot over (2,5)-(3,6) of a clean glowing
    board, its corners 1.1-1.3x the board's, seams kept: '3 tiles together unclear'."""
    rect = _view(_light_times(_glowing_board(), 2.0))
    sig = signals(rect, SHAPE, _readings(), 0.99, lighting="night")
    assert sig.low_tiles == 3  # still unclear, and counted as such
    assert sig.low_cluster < 3
    assert decide(sig, "night") is None


def test_at_night_tiles_a_hand_darkens_stay_a_group_of_unclear_tiles() -> None:
    """A hand at night hides the walls' glow: the same tiles darker, not lighter, still count together."""
    rect = _view(_light_times(_glowing_board(), 0.3))
    sig = signals(rect, SHAPE, _readings(), 0.99, lighting="night")
    assert sig.low_cluster == 3
    assert decide(sig, "night") is not None


def test_by_day_the_lit_group_still_needs_something_at_the_edge() -> None:
    """By day the group of unclear tiles counts only with a frame run or foreign corners from the edge, as before."""
    rect = _view(_light_times(_glowing_board(), 2.0))
    sig = signals(rect, SHAPE, _readings(), 0.99)
    assert sig.low_cluster == 3


def test_at_night_corners_a_coloured_led_tinted_still_let_its_tile_count_as_lit() -> None:
    """A red LED spill over green glowing walls (the held-out renderer's night) turns the edge tile's corners
    foreign by colour alone: brighter than the board's and keeping their seams in proportion to the light.
    A hand's corner is darker (it hides the glow) or brings edges of its own: it still vetoes."""
    cfg = OcclusionConfig()
    colours = np.zeros((8, 8, 3), np.float32)
    colours[..., 2] = 10.0
    colours[3:5, 6:8, 2] = 16.0  # edge tile (3, 6), all four corners 1.6x the board's
    tinted = np.zeros((8, 8), bool)
    tinted[3:5, 7] = True  # its outer corners red, off the walls' colour
    strength = np.ones((8, 8), np.float32)
    strength[3:5, 6:8] = 1.5  # seams grown with the light

    def seams() -> tuple[np.ndarray, np.ndarray]:
        return strength, np.zeros((8, 8), np.float32)

    unclear = {(3, 6)}
    args = (cfg.night_lit, seams, (cfg.lit_lost, cfg.lit_edge), cfg.lit_falloff)
    assert _lit_tiles(unclear, colours, tinted, *args, inside=True) == set()  # taken for something lying there
    assert _lit_tiles(unclear, colours, _untinted(tinted, colours, seams, cfg), *args, inside=True) == unclear
    strength[4, 7] = 0.3  # one corner hides the seams: a surface, not light
    assert _lit_tiles(unclear, colours, _untinted(tinted, colours, seams, cfg), *args, inside=True) == set()
    strength[4, 7] = 1.5
    colours[3:5, 7, 2] = 6.0  # the outer corners darker than the board's: a hand hiding the glow
    assert _untinted(tinted, colours, seams, cfg)[3:5, 7].all()


def test_at_night_a_pool_multiplying_the_glow_may_grow_the_seams_past_the_flat_bound() -> None:
    """An LED pool over the right edge multiplies the glowing walls' light 1.5-1.75x and the seams with it
    (one corner at 3.26x the board's median point, 1.9x its own light): light, not a hand's outline. By day the
    flat bound stays (a pale hand lit 3.6-4.2x brought its outline at 1.9-4.3x)."""
    cfg = OcclusionConfig()
    colours = np.zeros((8, 8, 3), np.float32)
    colours[..., 2] = 10.0
    colours[3:5, 6:8, 2] = [[17.3, 17.5], [15.2, 15.3]]  # edge tile (3, 6) in the pool
    strength = np.ones((8, 8), np.float32)
    strength[3:5, 6:8] = [[1.92, 3.26], [2.02, 2.44]]

    def seams() -> tuple[np.ndarray, np.ndarray]:
        return strength, np.zeros((8, 8), np.float32)

    nothing = np.zeros((8, 8), bool)
    unclear = {(3, 6)}
    args = (cfg.night_lit, seams, (cfg.lit_lost, cfg.lit_edge), cfg.lit_falloff)
    assert _lit_tiles(unclear, colours, nothing, *args, inside=True) == unclear
    assert _lit_tiles(unclear, colours, nothing, *args) == set()  # by day: over the flat bound
    strength[3, 7] = 6.0  # 3.4x its own light: an edge of its own even at night
    assert _lit_tiles(unclear, colours, nothing, *args, inside=True) == set()
