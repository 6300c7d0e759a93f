"""Day or night: a darkened room (the glow phase) or daylight.

The decision changes what the later stages trust: at night the pawn finder reports
only unmistakable pawns (a day frame called night loses its pawns) and the occlusion
rules drop the frame band and the lattice. :func:`decide` makes it in two steps:

1. the whole frame's levels (:func:`is_night`): a darkened room is dark nearly
   everywhere. Cheap, and it says "day" for almost every daylight frame;
2. only when those say night, the board itself (:func:`glow_contrast`): night is the
   glow phase, when the light on the board comes from the glow paint on its walls, so
   the walls shine brighter than the corridors. A frame whose fixed tiles show
   corridors brighter than their walls is lit from outside: a small bright board on a
   dark table or a dim day exposure, not a night; nor is one whose walls are neither
   green nor one colour with the pictures (:func:`_dark_frame_glows`);
3. a dim frame the levels call day (auto exposure lifts many glow nights that far)
   is night only when its board glows (:func:`glow_night`): walls outshining
   corridors and table, green light, one colour over the whole lit board. Brighter
   frames, nearly every day frame, never pay for this (~2.5 ms on the dim ones).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from companion.board import FIXED_TILES, SIZE
from vision.occlusion_frame import percentiles_u8, small_grey
from vision.rectify import Rectified


def frame_level(image: np.ndarray) -> float:
    """90th-percentile grey level of the whole frame: tells a darkened room (night) from daylight.

    The whole frame, not the board, because a dark-walled edition in daylight has a
    dark board but a lit table; at night the table is dark too.
    """
    return frame_levels(image)[1]


def frame_levels(image: np.ndarray, grey: np.ndarray | None = None) -> tuple[float, float]:
    """Median and 90th-percentile grey level of the whole frame (a small copy).

    The median is the level of *most* of the scene (table, room, board): in a
    darkened room it stays low even when a lamp pool, the LEDs or glowing pieces
    lift the brightest tenth; the 90th percentile alone confuses such a night with a
    dim day. ``grey``: the frame's :func:`small_grey`, when the caller has it.
    """
    if grey is None:
        grey = small_grey(image)
    median, high = percentiles_u8(grey, (50.0, 90.0))  # np.percentile's numbers, from a histogram
    return median, high


def is_night(
    image: np.ndarray, night_level: float = 75.0, night_median: float = 30.0, grey: np.ndarray | None = None
) -> bool:
    """A darkened-room frame: its brightest tenth under ``night_level`` or most of it under ``night_median``."""
    median, high = frame_levels(image, grey)
    return high < night_level or median < night_median


@dataclass
class BoardLight:
    """The light of the board's fixed tiles: their wall pixels and their known-corridor pixels.

    Walls: the four corners of every fixed tile (a tile's corners are always wall);
    corridors: the middle of each side the fixed tile is known to be open on, between
    the border and the centre picture. Medians over 64 corner boxes and 40-odd corridor
    boxes shrug off a pawn or a hand on a few of them. Each figure is computed when
    first asked for: most frames need only the grey levels.
    """

    walls: np.ndarray  # (n, channels) uint8
    corridors: np.ndarray

    @cached_property
    def wall_grey(self) -> float:
        """Median grey (mean of the channels) of the wall pixels."""
        return _median_grey(self.walls)

    @cached_property
    def corridor_grey(self) -> float:
        """Median grey (mean of the channels) of the corridor pixels."""
        return _median_grey(self.corridors)

    @property
    def contrast(self) -> float:
        """log((corridor + 8) / (wall + 8)) of the grey levels: see :func:`glow_contrast`."""
        return float(np.log((self.corridor_grey + 8.0) / (self.wall_grey + 8.0)))

    @cached_property
    def wall_green(self) -> float:
        """How green the walls' light is: CIE a* (8-bit Lab, negative: green) of their median colour.

        Glow paint shines green to aqua (the camera's green channel sees it; the LED
        spill is red): its a* is well below zero. White, cream, lilac or blue walls lit by
        daylight sit near zero or above.
        """
        if self.walls.shape[1] != 3:
            return 0.0
        pixel = np.median(self.walls, axis=0).round().astype(np.uint8).reshape(1, 1, 3)
        return float(cv2.cvtColor(pixel, cv2.COLOR_BGR2LAB)[0, 0, 1]) - 128.0


def _median_grey(pixels: np.ndarray) -> float:
    """np.median of the pixels' channel sums / channels, from a histogram of the integer sums (exact, faster)."""
    sums = pixels[:, 0].astype(np.int32)
    for channel in range(1, pixels.shape[1]):
        sums += pixels[:, channel]  # faster than sum(axis=1) over so short an axis
    cumulative = np.cumsum(np.bincount(sums, minlength=256 * pixels.shape[1]))
    n = len(sums)
    lower, upper = np.searchsorted(cumulative, [(n - 1) // 2 + 1, n // 2 + 1])
    return (float(lower) + float(upper)) / 2.0 / pixels.shape[1]


def board_light(rect: Rectified) -> BoardLight:
    """Gather the :class:`BoardLight` pixels of the 16 fixed tiles of a rectified view (~0.1 ms)."""
    t, m = rect.tile_px, rect.margin_px
    image = rect.image
    lo, hi = max(1, round(0.07 * t)), max(2, round(0.22 * t))
    a, b = round(0.41 * t), round(0.59 * t)
    walls: list[np.ndarray] = []
    corridors: list[np.ndarray] = []
    for (r, c), openings in FIXED_TILES.items():
        tile = image[m + r * t : m + (r + 1) * t, m + c * t : m + (c + 1) * t]
        walls += [tile[lo:hi, lo:hi], tile[lo:hi, t - hi : t - lo], tile[t - hi : t - lo, lo:hi]]
        walls.append(tile[t - hi : t - lo, t - hi : t - lo])
        sides = (tile[lo:hi, a:b], tile[a:b, t - hi : t - lo], tile[t - hi : t - lo, a:b], tile[a:b, lo:hi])  # N E S W
        corridors += [side for bit, side in enumerate(sides) if openings & (1 << bit)]

    def pixels(boxes: list[np.ndarray]) -> np.ndarray:
        return np.concatenate([box.reshape(-1, box.shape[-1] if box.ndim == 3 else 1) for box in boxes])

    return BoardLight(pixels(walls), pixels(corridors))


def glow_contrast(rect: Rectified) -> float:
    """log((corridor + 8) / (wall + 8)) of the median grey of the 16 fixed tiles' known corridors and walls.

    Positive: corridors brighter (lit from outside); negative: walls brighter (a
    glow-paint night, or an edition with pale walls by day). Nights and the day frames
    the frame levels call night lie far apart (vision/notes/lighting.md).
    """
    return board_light(rect).contrast


def colour_spread(rect: Rectified, pool_tiles: float = 1.5) -> float:
    """97th percentile of the chroma distance (8-bit Lab a*, b*) of the tile area's lit pixels from their
    neighbourhood's mean lit colour (a box ``pool_tiles`` tiles wide).

    At night the walls and the pictures glow with one paint: every lit pixel of the
    board shares the glow's colour. By day the printed pictures and the pawns show
    their own colours beside the walls. Lit: lightness over 0.6 of the area's 75th
    percentile (the walls). ~3 ms, only on dim frames.

    Measured against the neighbourhood, not the whole board's median: an LED's
    coloured pool or a lamp's tinted glare is light added smoothly over several
    tiles, so inside it walls and pictures share the pool's tint, and only its
    rim differs from the board's median (against it, LED pools lifted many glow nights
    to day levels: vision/notes/lighting.md); a picture is smaller than a tile and keeps
    its own colour against the walls around it.
    """
    t, m = rect.tile_px, rect.margin_px
    area = rect.image[m : m + SIZE * t, m : m + SIZE * t]
    lab = cv2.cvtColor(area, cv2.COLOR_BGR2LAB)
    light = lab[..., 0]
    lit = (light > 0.6 * float(np.percentile(light, 75))).astype(np.float32)
    if not lit.any():
        return 0.0
    box = (round(pool_tiles * t) | 1,) * 2
    weight = np.maximum(cv2.blur(lit, box), 1e-3)
    residual = [
        (chroma := lab[..., channel].astype(np.float32)) - cv2.blur(chroma * lit, box) / weight for channel in (1, 2)
    ]
    return float(np.percentile(np.hypot(*residual)[lit > 0], 97))


def decide(
    image: np.ndarray,
    rect: Rectified,
    night_level: float = 75.0,
    night_median: float = 30.0,
    grey: np.ndarray | None = None,
    dim_median: float = 64.0,
) -> str:
    """``"night"`` or ``"day"``: the frame's levels (:func:`is_night`), then the board's own light.

    A dark frame is night when its walls outshine its corridors (:func:`glow_contrast`):
    corridors brighter than walls is daylight (a dim exposure, a small lit board on a
    dark table). And the light must be the glow's: green walls or one colour over the
    board (:func:`_dark_frame_glows`).

    A camera's auto exposure lifts many glow nights to dim-day levels (frame median
    30-55; a third of the third and fourth renderers' nights). Such a dim frame
    (median under ``dim_median``) is night only when the board says so on every count
    (:func:`glow_night`). Brighter frames are day.
    """
    median, high = frame_levels(image, grey)
    if high < night_level or median < night_median:  # is_night(), the levels measured once
        return "night" if _dark_frame_glows(rect) else "day"
    if median >= dim_median:
        return "day"
    return "night" if glow_night(rect, median, image) else "day"


def _dark_frame_glows(rect: Rectified, max_wall_green: float = -8.0, max_spread: float = 40.0) -> bool:
    """A dark frame's board lit by its glow: walls brighter than corridors (:attr:`BoardLight.contrast` under 0)
    and the light the glow's: green walls (:attr:`BoardLight.wall_green` under ``max_wall_green``) or one colour
    over the whole lit board (:func:`colour_spread` under ``max_spread``, only asked when the walls are not green).

    A dark frame with walls brighter than corridors is not always a glow: a pale-walled edition by day
    on a dark table under a dim exposure passes the contrast alone. Its walls show the room's light
    (white, cream, warm) and its pictures and pawns their own colours.
    The same two counts :func:`glow_night` asks of a dim frame, but either one suffices: the frame
    levels already say the room is dark.

    Known limit: a dark day frame of a white-walled edition whose pictures are mostly white or gold
    still reads as night; no cue tried separates it from glow nights (vision/notes/lighting.md).
    """
    light = board_light(rect)
    if light.contrast >= 0.0:
        return False
    return light.wall_green < max_wall_green or colour_spread(rect) < max_spread


def glow_night(
    rect: Rectified,
    table_level: float,
    image: np.ndarray | None = None,
    max_contrast: float = -0.3,
    max_table: float = -0.6,
    max_wall_green: float = -8.0,
    max_spread: float = 40.0,
    max_cast: float = 0.6,
) -> bool:
    """A dim frame's board lit by its own glow paint: all of

    * walls clearly brighter than corridors (:attr:`BoardLight.contrast` under ``max_contrast``);
    * the table (``table_level``, the frame's median grey) far darker than the walls:
      log((table + 8) / (wall + 8)) under ``max_table``: at night only the board glows,
      by day table and board share the room's light;
    * the walls' light green (:attr:`BoardLight.wall_green` under ``max_wall_green``):
      the camera's green channel sees the glow, the LED spill is red (walls a warm lamp
      has pulled toward neutral get a stricter test: :func:`_lamp_lit_glow`); and the whole
      frame (``image``, :func:`frame_green`) under ``max_cast`` of the walls' green: the
      glow is the walls' own light and the table sees only its spill, while a room's
      colour cast tints everything alike (a fixed margin of 8 lost glow nights whose
      spill greened the table: walls -12, frame -6; the nights it newly lets pass
      measure 0.3-0.5, the teal-lit day frames 0.9 and more);
    * one colour over the whole lit board (:func:`colour_spread` under ``max_spread``):
      the pictures glow in the walls' paint, while by day they show their own colours.

    Why all of them: a pale-walled edition by day on a dark table passes the first
    two; cream, lilac or blue walls fail the third, white walls under a teal room
    light its second half, an aqua-walled edition by day the last. Measurements:
    vision/notes/lighting.md.
    """
    light = board_light(rect)
    if light.contrast >= max_contrast:
        return False
    if np.log((table_level + 8.0) / (light.wall_grey + 8.0)) >= max_table:
        return False
    if light.wall_green >= max_wall_green:
        return _lamp_lit_glow(rect, light, image, max_wall_green, max_spread)
    if image is not None and frame_green(image) <= max_cast * light.wall_green:
        return False
    return colour_spread(rect) < max_spread


def _lamp_lit_glow(
    rect: Rectified, light: BoardLight, image: np.ndarray | None, max_wall_green: float, max_spread: float
) -> bool:
    """A glowing board whose green a warm lamp has pulled toward neutral: walls still greener than the room
    (by half of ``max_wall_green``) and the lit board strictly one colour (under 0.6 of ``max_spread``).

    A warm lamp adds its light to the walls and to the table alike, so the glow's green
    shows only against the room (third renderer's lamp-lit nights: walls a* -7..+1, the
    frame 0..7, walls 6-12 greener) and no longer in absolute terms. What still tells
    them from a pale-walled day board on a dark table is the colour: at night the
    pictures glow in the walls' paint (spread 13-20), by day they, the start circles
    and the pawns show their own colours (the dim day frames that pass the other
    counts measure 27 and more). Only dim frames whose walls outshine corridors and
    table pay for it (~3 ms).
    """
    if image is None or light.wall_green - frame_green(image) >= 0.5 * max_wall_green:
        return False
    return colour_spread(rect) < 0.6 * max_spread


def frame_green(image: np.ndarray, step: int = 8) -> float:
    """Median CIE a* (8-bit Lab, negative: green) of every ``step``-th pixel of the frame (~0.3 ms)."""
    lab = cv2.cvtColor(np.ascontiguousarray(image[::step, ::step]), cv2.COLOR_BGR2LAB)
    return float(np.median(lab[..., 1])) - 128.0
