"""Day or night: the frame's levels, then the board's own light (glow paint on the walls at night)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from companion.board import FIXED_TILES, SIZE, random_setup
from vision.lighting import colour_spread, decide, glow_contrast, is_night
from vision.rectify import Rectified, rectify
from vision.render import render_photo

TILE, MARGIN = 48, 36


def _board_view(wall: tuple[int, int, int], corridor: tuple[int, int, int], seed: int = 5) -> Rectified:
    """A top-down board: every tile wall-coloured with a corridor from its centre to each open side."""
    board, _ = random_setup(random.Random(seed))
    side = SIZE * TILE + 2 * MARGIN
    image = np.zeros((side, side, 3), np.uint8)
    a, b = TILE // 3, TILE - TILE // 3
    for r in range(SIZE):
        for c in range(SIZE):
            y0, x0 = MARGIN + r * TILE, MARGIN + c * TILE
            tile = image[y0 : y0 + TILE, x0 : x0 + TILE]
            tile[:] = wall
            tile[a:b, a:b] = corridor
            openings = int(board.tiles[r * SIZE + c])
            for bit, (ys, xs) in enumerate(
                (
                    (slice(0, b), slice(a, b)),
                    (slice(a, b), slice(a, TILE)),
                    (slice(a, TILE), slice(a, b)),
                    (slice(a, b), slice(0, b)),
                )
            ):
                if openings & (1 << bit):
                    tile[ys, xs] = corridor
    for (r, c), want in FIXED_TILES.items():
        assert int(board.tiles[r * SIZE + c]) == int(want)  # the fixed tiles are where the contrast is read
    corners = np.array(
        [[MARGIN, MARGIN], [side - MARGIN, MARGIN], [side - MARGIN, side - MARGIN], [MARGIN, side - MARGIN]]
    )
    return Rectified(image, TILE, MARGIN, np.eye(3), corners.astype(np.float64), (side, side))


def test_glowing_walls_make_a_negative_contrast_lit_corridors_a_positive_one() -> None:
    glow = _board_view(wall=(70, 150, 90), corridor=(8, 8, 8))
    lit = _board_view(wall=(30, 40, 30), corridor=(150, 170, 180))
    assert glow_contrast(glow) < -1.0
    assert glow_contrast(lit) > 1.0


def test_a_few_covered_fixed_tiles_do_not_flip_the_contrast() -> None:
    view = _board_view(wall=(70, 150, 90), corridor=(8, 8, 8))
    for r, c in list(FIXED_TILES)[:4]:  # pawns on the four start corners, fully covering them
        y0, x0 = MARGIN + r * TILE, MARGIN + c * TILE
        view.image[y0 : y0 + TILE, x0 : x0 + TILE] = (200, 30, 30)
    assert glow_contrast(view) < -1.0


def test_a_dark_frame_is_night_only_when_its_walls_shine() -> None:
    glow = _board_view(wall=(70, 150, 90), corridor=(8, 8, 8))
    assert is_night(glow.image)  # the black margin and dark corridors: a dark frame
    assert decide(glow.image, glow) == "night"
    # A dim day exposure of a lit board: the levels alone say night, the corridors say day.
    dim_day = _board_view(wall=(12, 16, 12), corridor=(60, 70, 75))
    assert is_night(dim_day.image)
    assert decide(dim_day.image, dim_day) == "day"


def test_a_dark_frame_is_day_when_its_pale_board_is_neither_green_nor_one_colour() -> None:
    """A pale-walled edition by day on a dark table under a dim exposure: walls brighter than corridors, but
    white walls and pictures of their own colours are daylight; a neutral glow in one colour stays night."""
    printed = [(40, 40, 220), (220, 60, 40), (30, 200, 240), (200, 40, 200)]
    pale = _with_pictures(_board_view(wall=(60, 64, 66), corridor=(12, 10, 8)), printed)
    assert is_night(pale.image) and glow_contrast(pale) < 0.0
    assert decide(pale.image, pale) == "day"
    neutral = _with_pictures(_board_view(wall=(60, 64, 66), corridor=(12, 10, 8)), [(58, 62, 64)])
    assert decide(neutral.image, neutral) == "night"


def test_a_bright_frame_is_day_whatever_its_board() -> None:
    pale_walls = _board_view(wall=(210, 230, 215), corridor=(40, 30, 20))
    frame = np.full((480, 640, 3), 170, np.uint8)  # a lit table around the board
    assert not is_night(frame)
    assert decide(frame, pale_walls) == "day"


@pytest.mark.parametrize(("seed", "lighting"), [(46, "night"), (47, "night"), (41, "day")])
def test_rendered_frames(seed: int, lighting: str) -> None:
    board, _ = random_setup(random.Random(seed))
    image, label = render_photo(board, seed=seed, look="classic", size=(1280, 960), lighting=lighting)
    rect = rectify(image, label["corners"], tile_px=TILE, margin=0.75)
    assert decide(image, rect) == lighting
    assert (glow_contrast(rect) < 0) == (lighting == "night")


def _dim_frame(table: int = 40, lit_share: float = 0.2) -> np.ndarray:
    """A frame too bright for the darkened-room levels (90th percentile 200) with most of it at ``table``."""
    frame = np.full((480, 640, 3), table, np.uint8)
    frame[: int(480 * lit_share)] = 200
    return frame


def _with_pictures(view: Rectified, colours: list[tuple[int, int, int]]) -> Rectified:
    """Paint a 14-pixel picture in each tile's centre, cycling through ``colours``."""
    lo, hi = TILE // 2 - 7, TILE // 2 + 7
    for i in range(SIZE * SIZE):
        y0, x0 = MARGIN + (i // SIZE) * TILE, MARGIN + (i % SIZE) * TILE
        view.image[y0 + lo : y0 + hi, x0 + lo : x0 + hi] = colours[i % len(colours)]
    return view


def test_a_dim_frame_is_night_when_its_board_glows_green_in_one_colour() -> None:
    frame = _dim_frame()
    assert not is_night(frame)  # auto exposure lifted the dark room to a dim day's levels
    glow = _with_pictures(_board_view(wall=(70, 150, 90), corridor=(8, 8, 8)), [(75, 160, 95)])
    assert decide(frame, glow) == "night"


def test_a_dim_frame_stays_day_for_pale_walls_coloured_pictures_or_a_lit_table() -> None:
    frame = _dim_frame()
    cream = _with_pictures(_board_view(wall=(185, 215, 220), corridor=(60, 30, 20)), [(190, 220, 225)])
    assert decide(frame, cream) == "day"  # walls not green: daylight on a pale print
    printed = [(40, 40, 220), (220, 60, 40), (30, 200, 240), (200, 40, 200)]
    aqua = _with_pictures(_board_view(wall=(200, 190, 120), corridor=(60, 20, 20)), printed)
    assert decide(frame, aqua) == "day"  # green-blue walls, but the pictures show their own colours
    glow = _with_pictures(_board_view(wall=(70, 150, 90), corridor=(8, 8, 8)), [(75, 160, 95)])
    assert decide(_dim_frame(table=62), glow) == "day"  # the table as bright as a lit room's


def test_a_room_light_that_tints_the_whole_frame_green_is_not_glow() -> None:
    """Pale green walls on a dark table: night when only the walls are green, day when the whole room is."""
    wall = (175, 200, 165)
    board = _with_pictures(_board_view(wall=wall, corridor=(20, 25, 20)), [wall])
    neutral_room, green_room = _dim_frame(), _dim_frame()
    green_room[int(480 * 0.2) :] = (25, 50, 25)  # the table under the same green cast
    assert decide(neutral_room, board) == "night"
    assert decide(green_room, board) == "day"


def _with_pool(view: Rectified, centre: tuple[int, int], radius_tiles: float, tint: tuple[int, int, int]) -> Rectified:
    """Add a smooth pool of coloured light (an LED's spill) around ``centre`` (tile row, column)."""
    h, w = view.image.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    cy, cx = (MARGIN + (np.asarray(centre, np.float32) + 0.5) * TILE).tolist()
    fall = np.exp(-((ys - cy) ** 2 + (xs - cx) ** 2) / (2.0 * (radius_tiles * TILE) ** 2))[..., None]
    lit = view.image.astype(np.float32) + fall * np.asarray(tint, np.float32)
    view.image[:] = np.clip(lit, 0, 255).astype(np.uint8)
    return view


def test_an_led_pool_over_a_glowing_board_keeps_it_one_colour() -> None:
    """A red pool over a few tiles tints walls and pictures alike: the board is still one colour there."""
    frame = _dim_frame()
    glow = _with_pictures(_board_view(wall=(70, 150, 90), corridor=(8, 8, 8)), [(75, 160, 95)])
    whole = colour_spread(glow)
    pooled = _with_pool(glow, (1, 5), 1.3, (60, 40, 150))
    assert colour_spread(pooled) < whole + 8.0  # against the whole board's median the pool alone read ~60
    assert decide(frame, pooled) == "night"
    printed = [(40, 40, 220), (220, 60, 40), (30, 200, 240), (200, 40, 200)]
    aqua = _with_pictures(_board_view(wall=(200, 190, 120), corridor=(60, 20, 20)), printed)
    assert colour_spread(_with_pool(aqua, (1, 5), 1.3, (60, 40, 150))) > 40.0  # pictures keep their own colours


def test_a_warm_lamp_pulls_the_glow_toward_neutral_but_the_board_stays_one_colour() -> None:
    """Walls barely green (a* -4) under a warm lamp that tints the table: night when the pictures glow in the
    walls' paint, day when they show their own colours; the same walls in a neutral room stay day."""
    wall, corridor = (140, 175, 180), (15, 20, 30)
    lamp_room = _dim_frame()
    lamp_room[int(480 * 0.2) :] = (30, 40, 60)  # the table under the lamp's warm light (a* +8)
    glowing = _with_pictures(_board_view(wall=wall, corridor=corridor), [wall])
    assert decide(lamp_room, glowing) == "night"
    printed = [(40, 40, 220), (220, 60, 40), (30, 200, 240), (200, 40, 200)]
    assert decide(lamp_room, _with_pictures(_board_view(wall=wall, corridor=corridor), printed)) == "day"
    assert decide(_dim_frame(), glowing) == "day"  # walls no greener than a neutral room: a pale print by day
