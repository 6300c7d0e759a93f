"""Occlusion by things lying on the board: cups, cards, phones and surfaces of the board's own colour."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from tests.support.board_objects import lay_object
from tests.support.clean_board import clean_rect, labelled
from vision.occlusion import OcclusionConfig, Signals, _marked_group, decide, lattice_foreign, seamless_corners
from vision.occlusion_flat import CELLS, _blown_surface, _glare_cells, _keeps_seams, _relative_strength, flat_groups
from vision.occlusion_lattice import lattice_structure, least_clipped_seams, light_seams
from vision.reader import BoardReader
from vision.rectify import Rectified


@pytest.mark.parametrize(
    ("seed", "look", "kind", "lighting"),
    [
        (41, "classic", "cup", "day"),
        (42, "hedge", "card", "day"),
        (43, "dark", "phone", "day"),
        (45, "wizard", "card", "day"),
        (42, "hedge", "card", "night"),
    ],
)
def test_an_object_lying_on_the_tiles_is_reported(seed: int, look: str, kind: str, lighting: str) -> None:
    image, corners = labelled(seed, look, lighting)
    assert not BoardReader().read(image).occluded
    covered = lay_object(image, corners, kind, np.random.default_rng(seed), lighting == "night", centre=(3.5, 3.5))
    reading = BoardReader().read_detailed(covered)
    assert reading.observation.occluded
    # The flat half tiles see the object, whichever rule names the frame's reason first (at night the
    # tiles under a card also read as an unclear group).
    assert reading.signals is not None and reading.signals.flat_cells >= OcclusionConfig().min_flat_cells


@pytest.mark.parametrize(("seed", "look", "colour"), [(46, "hedge", (200, 200, 200)), (46, "dark", (140, 140, 140))])
def test_a_neutral_card_is_reported(seed: int, look: str, colour: tuple[int, int, int]) -> None:
    """A plain light-grey or grey card: its border, pips and edges leave three flat half tiles here."""
    image, corners = labelled(seed, look, "day")
    covered = lay_object(image, corners, "card", np.random.default_rng(seed), centre=(3.5, 3.5), card_colour=colour)
    assert BoardReader().read(covered).occluded


def test_flat_cells_count_only_on_an_unclear_tile_or_a_foreign_corner() -> None:
    rect = clean_rect(41, "classic", "day")
    nothing = np.zeros((8, 8), bool)
    assert flat_groups(rect, {(3, 3)}, nothing)[0] == 0  # a clean board: every half tile has structure
    t, m = rect.tile_px, rect.margin_px
    card = dataclasses.replace(rect, image=rect.image.copy())
    card.image[m + 2 * t : m + 5 * t, m + 2 * t : m + 5 * t] = (235, 235, 240)  # 3x3 tiles under a plain card
    cfg = OcclusionConfig()
    inner = (3 * CELLS - 2) ** 2  # the cells along the card's edge keep its outline
    assert flat_groups(card, set(), nothing)[0] == 0  # nothing says the tiles are hidden (glare flattens too)
    assert flat_groups(card, {(3, 3)}, nothing)[0] >= max(inner, cfg.min_flat_cells)
    corner = nothing.copy()
    corner[3, 3] = True
    assert flat_groups(card, set(), corner)[0] >= max(inner, cfg.min_flat_cells)
    under = [(r, c) for r in range(2, 5) for c in range(2, 5)]
    assert flat_groups(card, {(3, 3)}, nothing, covered=under)[0] == 0  # pawns stand there
    assert decide(Signals(0, 0, 0.99, 1, flat_cells=cfg.min_flat_cells), "day", cfg)
    assert decide(Signals(0, 0, 0.99, 1, flat_cells=cfg.min_flat_cells - 1), "night", cfg) is None


def test_a_dark_flat_surface_counts_wherever_it_lies_a_pale_one_only_on_a_mark() -> None:
    rect = clean_rect(42, "hedge", "day")
    nothing = np.zeros((8, 8), bool)
    t, m = rect.tile_px, rect.margin_px
    cfg = OcclusionConfig()
    measured = lambda: nothing  # noqa: E731 - a grid quality low enough to measure the cells, no corner marked
    assert flat_groups(rect, set(), nothing, seamless=measured) == (0, 0)  # a clean board: structure everywhere
    cup = dataclasses.replace(rect, image=rect.image.copy())
    cup.image[m + 3 * t - 30 : m + 3 * t + 30, m + 3 * t - 30 : m + 3 * t + 30] = (20, 35, 60)  # coffee, from above
    lying_on, dark = flat_groups(cup, set(), nothing, seamless=measured)
    assert lying_on == 0  # no unclear tile, no foreign or seamless corner: the rule for pale things stays out
    assert dark >= cfg.min_dark_flat_cells
    pale = dataclasses.replace(rect, image=rect.image.copy())
    pale.image[m + 3 * t - 30 : m + 3 * t + 30, m + 3 * t - 30 : m + 3 * t + 30] = (235, 235, 240)
    assert flat_groups(pale, set(), nothing, seamless=measured)[1] == 0  # as bright as glare: not on its own
    assert decide(Signals(0, 0, 0.99, 0, dark_flat=cfg.min_dark_flat_cells), "day", cfg)
    assert decide(Signals(0, 0, 0.99, 0, dark_flat=cfg.min_dark_flat_cells - 1), "day", cfg) is None


def test_at_night_a_dark_noisy_object_is_flat_once_the_noise_is_smoothed() -> None:
    """A high-gain night frame: a dark cup over the tiles is flat but for the sensor's noise."""
    rect = clean_rect(42, "hedge", "night")
    t, m = rect.tile_px, rect.margin_px
    cup = dataclasses.replace(rect, image=rect.image.copy())
    rng = np.random.default_rng(7)
    dark = np.clip(20 + rng.normal(0, 4, (3 * t, 3 * t, 1)), 0, 255).astype(np.uint8)
    cup.image[m + 2 * t : m + 5 * t, m + 2 * t : m + 5 * t] = dark  # 3x3 tiles under a dark, noisy disc
    nothing = np.zeros((8, 8), bool)
    cfg = OcclusionConfig()
    assert flat_groups(cup, {(3, 3)}, nothing)[0] < cfg.min_flat_cells  # the noise looks like structure
    assert flat_groups(cup, {(3, 3)}, nothing, smooth=cfg.night_flat_blur)[0] >= cfg.min_flat_cells
    assert flat_groups(rect, {(3, 3)}, nothing, smooth=cfg.night_flat_blur)[0] == 0  # the clean board keeps its tiles


def test_a_surface_of_the_boards_own_colour_counts_where_it_hides_the_tiles_seams() -> None:
    """A cup or a pale hand of the walls' colour: no unclear tile, no foreign corner, but the seams are gone."""
    rect = clean_rect(41, "classic", "day")
    nothing = np.zeros((8, 8), bool)
    assert not seamless_corners(rect).any()  # four separate tiles meet at every point of a clean board
    t, m = rect.tile_px, rect.margin_px
    area = rect.image[m : m + 7 * t, m : m + 7 * t].reshape(-1, 3)
    cup = dataclasses.replace(rect, image=rect.image.copy())
    shade = 0.85 * np.median(area, axis=0)  # the walls' colour a little in shade (the board's own clips)
    cup.image[m + 2 * t : m + 4 * t, m + 2 * t : m + 4 * t] = shade.astype(np.uint8)
    assert not lattice_foreign(cup).any()  # its colour passes for the board's
    assert seamless_corners(cup)[3, 3]
    cfg = OcclusionConfig()
    assert flat_groups(cup, set(), nothing)[0] == 0
    assert flat_groups(cup, set(), nothing, seamless=lambda: seamless_corners(cup))[0] >= cfg.min_flat_cells
    # Where a pawn stands its point is hidden, not bare.
    box = (m + 3 * t - 10, m + 3 * t - 10, 20, 20)
    assert not seamless_corners(cup, boxes=[box])[3, 3]


def _with_glare(rect: Rectified, amount: float = 0.7) -> Rectified:
    """``rect`` dimmed and with a broad glare (light added in linear light) over its middle tile, unclipped."""
    t, m = rect.tile_px, rect.margin_px
    area = rect.image[m : m + 7 * t, m : m + 7 * t].astype(np.float32) / 255.0
    yy, xx = np.mgrid[0 : 7 * t, 0 : 7 * t].astype(np.float32)
    blob = np.exp(-(((yy - 3.5 * t) ** 2 + (xx - 3.5 * t) ** 2) / (2 * (1.2 * t) ** 2)))[..., None]
    glare = dataclasses.replace(rect, image=rect.image.copy())
    added = 0.25 * area**2.2 + amount * blob  # never over the sensor's limit: no clipped core
    glare.image[m : m + 7 * t, m : m + 7 * t] = np.clip(added ** (1 / 2.2) * 255.0, 0, 255).astype(np.uint8)
    return glare


def test_a_glare_fading_out_is_not_something_lying_on_the_board() -> None:
    """A lamp's glare washes out the tiles under it (their log grey flat, the tile unclear), but it brings no
    colour of its own, it fades out and in linear light the tiles' seams are all there."""
    rect = clean_rect(41, "classic", "day")
    t, m = rect.tile_px, rect.margin_px
    nothing = np.zeros((8, 8), bool)
    cfg = OcclusionConfig()
    glare = _with_glare(rect)
    middle = slice(3 * CELLS, 4 * CELLS)
    assert (_relative_strength(glare)[middle, middle] < cfg.flat_level).all()  # the log grey goes flat
    assert light_seams(glare)[3:5, 3:5].min() >= cfg.seam_keep  # the seams are there in linear light
    assert flat_groups(glare, {(3, 3)}, nothing)[0] < cfg.min_flat_cells
    corner = nothing.copy()
    corner[3, 3] = True  # a colour of its own at a corner under it: a surface, not light
    assert flat_groups(glare, {(3, 3)}, corner)[0] >= cfg.min_flat_cells
    # A defocused pale surface in that light (the glare's own light, the tiles under it smoothed away): it
    # fades out as softly, but hides the seams.
    pale = dataclasses.replace(glare, image=glare.image.copy())
    blurred = cv2.GaussianBlur(glare.image, (0, 0), 0.5 * t)
    inner = slice(m + 3 * t - t // 2, m + 4 * t + t // 2)
    pale.image[inner, inner] = blurred[inner, inner]
    assert light_seams(pale)[3:5, 3:5].max() < cfg.seam_keep
    assert flat_groups(pale, {(3, 3)}, nothing)[0] >= cfg.min_flat_cells


def test_a_blown_out_card_with_an_outline_counts_a_lamps_glare_fading_out_does_not() -> None:
    """A white card in bright light clips like glare; its sharp edge, not its colour, tells it from light added."""
    rect = clean_rect(42, "hedge", "day")
    nothing = np.zeros((8, 8), bool)
    measured = lambda: nothing  # noqa: E731 - a grid quality low enough to measure the cells, no corner marked
    t, m = rect.tile_px, rect.margin_px
    cfg = OcclusionConfig()
    card = dataclasses.replace(rect, image=rect.image.copy())
    card.image[m + 2 * t : m + 4 * t, m + 2 * t : m + 4 * t] = 255  # 2x2 tiles under a blown-out card
    assert flat_groups(card, set(), nothing, seamless=measured)[0] >= cfg.min_flat_cells
    yy, xx = np.mgrid[0 : rect.image.shape[0], 0 : rect.image.shape[1]].astype(np.float32)
    centre = m + 3 * t
    light = 400.0 * np.exp(-((yy - centre) ** 2 + (xx - centre) ** 2) / (2 * float(t) ** 2))  # 4 tiles blown out
    lit = np.clip(rect.image.astype(np.float32) + light[..., None], 0, 255).astype(np.uint8)
    glare = dataclasses.replace(rect, image=lit)
    assert flat_groups(glare, set(), nothing, seamless=measured)[0] < cfg.min_flat_cells


def _lamp(rect: Rectified, peak: float, sigma_tiles: float, tint: tuple[float, float, float]) -> np.ndarray:
    """The light a lamp adds (float BGR): a Gaussian of ``peak`` at tile (3, 3)'s top-left corner, tinted."""
    t, m = rect.tile_px, rect.margin_px
    yy, xx = np.mgrid[0 : rect.image.shape[0], 0 : rect.image.shape[1]].astype(np.float32)
    centre = m + 3 * t
    light = peak * np.exp(-((yy - centre) ** 2 + (xx - centre) ** 2) / (2 * (sigma_tiles * t) ** 2))
    return light[..., None] * np.array(tint, np.float32)


def _lit(image: np.ndarray, light: np.ndarray) -> np.ndarray:
    """``image`` with ``light`` added, clipped as a camera clips."""
    return np.clip(image.astype(np.float32) + light, 0, 255).astype(np.uint8)


def test_a_small_coloured_glare_with_an_outline_keeps_the_seams_a_white_card_does_not() -> None:
    """A cyan lamp's glare clips blue and green over a tile and a half and falls off within a cell (an outline of
    full structure around it, as on final7 ho_day 0037), but the red channel, and so the seams in linear
    light, stay: light added, not a surface. The blown-out white card beside it stays a surface."""
    rect = clean_rect(42, "hedge", "day")
    nothing = np.zeros((8, 8), bool)
    measured = lambda: nothing  # noqa: E731 - a grid quality low enough to measure the cells, no corner marked
    t, m = rect.tile_px, rect.margin_px
    cfg = OcclusionConfig()
    glare = dataclasses.replace(rect, image=_lit(rect.image, _lamp(rect, 600.0, 0.6, (1.0, 1.0, 0.2))))
    flat = _relative_strength(glare) < cfg.flat_level
    no_pawns = np.zeros_like(flat)  # the outline rule alone calls it a surface:
    assert _blown_surface(flat, _glare_cells(glare, cfg.clip_level), _relative_strength(glare), no_pawns) >= 3
    assert flat_groups(glare, {(3, 3)}, nothing)[0] < cfg.min_flat_cells
    assert flat_groups(glare, set(), nothing, seamless=measured)[0] < cfg.min_flat_cells
    corner = nothing.copy()
    corner[3, 3] = True  # a colour of its own at a corner under it: a surface
    assert flat_groups(glare, {(3, 3)}, corner)[0] >= cfg.min_flat_cells
    card = dataclasses.replace(rect, image=rect.image.copy())
    card.image[m + 2 * t : m + 4 * t, m + 2 * t : m + 4 * t] = 255
    assert flat_groups(card, {(3, 3)}, nothing)[0] >= cfg.min_flat_cells


def test_a_yellow_glare_keeps_the_seams_in_its_unclipped_channel_a_pale_surface_in_it_does_not() -> None:
    """A yellow lamp's glare clips red and green over four tiles (as on final8 fi_day 0015); blue, a tenth of the
    grey, still shows the tiles' seams at the blown-out corners: light added. A pale surface in the same light
    (defocused or skin-coloured) is as smooth in blue: still a surface."""
    rect = clean_rect(41, "classic", "day")
    nothing = np.zeros((8, 8), bool)
    measured = lambda: nothing  # noqa: E731 - a grid quality low enough to measure the cells, no corner marked
    t, m = rect.tile_px, rect.margin_px
    cfg = OcclusionConfig()
    yellow = _lamp(rect, 400.0, 1.0, (0.1, 1.0, 1.0))
    glare = dataclasses.replace(rect, image=_lit(rect.image, yellow))
    blown = lattice_structure(glare)[1] > 0.5
    assert blown[3, 3] and light_seams(glare)[3, 3] < cfg.lit_lost  # the grey lost them under the core
    assert least_clipped_seams(glare)[3, 3] >= cfg.seam_keep  # blue kept them
    assert least_clipped_seams(glare)[blown].min() >= cfg.lit_lost
    assert flat_groups(glare, set(), nothing, seamless=measured)[0] < cfg.min_flat_cells
    inner = slice(m + 3 * t // 2, m + 9 * t // 2)
    pale = dataclasses.replace(glare, image=glare.image.copy())
    pale.image[inner, inner] = cv2.GaussianBlur(glare.image, (0, 0), 0.5 * t)[inner, inner]
    skin = rect.image.astype(np.float32)
    skin[inner, inner] = np.array([150, 180, 230], np.float32)
    lit_skin = dataclasses.replace(rect, image=_lit(skin, yellow))
    for surface in (pale, lit_skin):
        assert flat_groups(surface, set(), nothing, seamless=measured)[0] >= cfg.min_flat_cells


def test_the_upper_seam_bound_is_read_where_it_is_given() -> None:
    """A dim channel's seams relative to its own median can pass ``edge`` under a glare: the rim is read on grey."""
    cells = np.array([[5, 5], [5, 6], [6, 5], [6, 6]])
    seams, grey = np.ones((8, 8)), np.ones((8, 8))
    seams[3, 3] = 5.0
    assert not _keeps_seams(cells, seams, edge=3.0)
    assert _keeps_seams(cells, seams, edge=3.0, edges=grey)
    grey[3, 3] = 4.0  # a card's rim in grey
    assert not _keeps_seams(cells, seams, edge=3.0, edges=grey)


def test_a_blown_out_corner_is_not_held_to_the_lower_seam_bound() -> None:
    """final7 ho_day 0037's glare: corners at 1.0, 0.46, 0.87, 1.52 of the median seams, all over half clipped."""
    cells = np.array([[1, 3], [2, 1], [2, 2], [2, 3], [2, 4], [3, 1], [3, 2], [3, 3], [3, 4], [4, 1]])
    seams = np.ones((8, 8))
    seams[1, 1], seams[1, 2], seams[2, 1], seams[2, 2] = 1.0, 0.46, 0.87, 1.52
    assert not _keeps_seams(cells, seams)
    blown = np.zeros((8, 8), bool)
    blown[1:3, 1:3] = True
    assert _keeps_seams(cells, seams, blown=blown)
    assert not _keeps_seams(cells, seams * 0.55, blown=blown)  # a surface: the median falls too
    rim = seams.copy()
    rim[2, 2] = 4.0  # a card's outline crossing a corner's patch: an edge light added does not make
    assert _keeps_seams(cells, rim, blown=blown) and not _keeps_seams(cells, rim, blown=blown, edge=3.0)
    seams[1, 2] = 0.0  # blown-out corners showing almost nothing in any channel, as a white card's
    seams[1, 1] = seams[2, 1] = 0.3
    assert not _keeps_seams(cells, seams, blown=blown)


def test_unclear_tiles_together_with_a_foreign_corner_on_them_are_something_over_the_middle() -> None:
    """A phone or a cup over the middle: two tiles unclear together and a corner of theirs with a colour of its own."""
    cfg = OcclusionConfig()
    foreign = np.zeros((8, 8), bool)
    foreign[3, 4] = True  # the corner shared by tiles (2,3), (2,4), (3,3), (3,4)
    assert _marked_group(foreign, {(3, 3), (3, 4)}, cfg.min_marked_low) == 1
    assert _marked_group(foreign, {(3, 3)}, cfg.min_marked_low) == 0  # one unclear tile: a picture, a shadow
    assert _marked_group(foreign, {(0, 0), (0, 1)}, cfg.min_marked_low) == 0  # the corner is not theirs
    assert _marked_group(np.zeros((8, 8), bool), {(3, 3), (3, 4)}, cfg.min_marked_low) == 0  # glare: no colour
    marked = Signals(0, 1, 0.99, 2, low_cluster=2, marked_low=1)
    assert decide(marked, "day", cfg)
    assert decide(marked, "night", cfg) is None  # at night the sensor's noise colours corners: rules of its own


def test_a_glare_keeps_the_seams_as_a_group_a_surface_loses_them() -> None:
    """The board's own points spread around its median: one glared corner at 0.87 among corners at 1.0-2.6
    is the print (o10 si_day 0055), not a surface; a group whose corners sit at half the seams, or with one
    corner that lost them (a card's rim keeping the rest), is a surface."""
    cells = np.array([[4, 0], [4, 1], [5, 0], [5, 1], [5, 2], [5, 3], [6, 0], [6, 1], [6, 2], [6, 3]])
    seams = np.ones((8, 8))
    seams[2, 0], seams[2, 1], seams[3, 0], seams[3, 1], seams[3, 2] = 1.0, 1.14, 2.59, 1.0, 0.87
    assert _keeps_seams(cells, seams)
    assert not _keeps_seams(cells, seams * 0.55)  # a hand: the seams halved everywhere under it
    seams[3, 1] = 0.27
    assert not _keeps_seams(cells, seams)  # a corner lost them
