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
   dark table or a dim day exposure, not a night.
"""

from __future__ import annotations

import numpy as np

from companion.board import FIXED_TILES
from vision.occlusion_frame import small_grey
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
    median, high = np.percentile(grey, [50, 90])
    return float(median), float(high)


def is_night(
    image: np.ndarray, night_level: float = 75.0, night_median: float = 30.0, grey: np.ndarray | None = None
) -> bool:
    """A darkened-room frame: its brightest tenth under ``night_level`` or most of it under ``night_median``."""
    median, high = frame_levels(image, grey)
    return high < night_level or median < night_median


def glow_contrast(rect: Rectified) -> float:
    """log((corridor + 8) / (wall + 8)) of the median grey of the 16 fixed tiles' known corridors and walls.

    Walls: the four corners of every fixed tile (a tile's corners are always wall);
    corridors: the middle of each side the fixed tile is known to be open on, between
    the border and the centre picture. Positive: corridors brighter (lit from outside);
    negative: walls brighter (a glow-paint night, or an edition with pale walls by day).
    The medians over 64 corner boxes and 40-odd corridor boxes shrug off a pawn or a
    hand on a few of them. On 1,200 frames of the three renderers (day, night, with
    hands) every night measured -0.34 or less; the frames the frame levels wrongly
    called night measured +0.89 and more.
    """
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

    def level(boxes: list[np.ndarray]) -> float:
        pixels = np.concatenate([box.reshape(-1, box.shape[-1] if box.ndim == 3 else 1) for box in boxes])
        return float(np.median(pixels.sum(axis=1, dtype=np.float32))) / pixels.shape[1]

    wall, corridor = level(walls), level(corridors)
    return float(np.log((corridor + 8.0) / (wall + 8.0)))


def decide(
    image: np.ndarray,
    rect: Rectified,
    night_level: float = 75.0,
    night_median: float = 30.0,
    grey: np.ndarray | None = None,
) -> str:
    """``"night"`` or ``"day"``: the frame's levels (:func:`is_night`), then, only for a dark frame,
    the board's own light (:func:`glow_contrast`): corridors brighter than walls is daylight.

    On the dev and tuning sets (three renderers, 1,200 frames) this turned the 4 day
    frames the levels alone called night (a dim exposure, a small lit board on a dark
    table) back to day and changed no night. Glow nights that a camera's auto exposure
    lifts to daylight levels stay "day": their walls look like a pale-walled edition
    on a dark table by day (same colours, same contrast), and calling a day frame
    night costs its pawns.
    """
    if not is_night(image, night_level, night_median, grey):
        return "day"
    return "night" if glow_contrast(rect) < 0.0 else "day"
