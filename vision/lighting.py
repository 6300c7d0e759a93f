"""Day or night: a darkened room (the glow phase) or daylight.

The decision changes what the later stages trust: at night the pawn finder reports
only unmistakable pawns and the occlusion rules drop the frame band and the lattice.
"""

from __future__ import annotations

import numpy as np

from vision.occlusion_frame import small_grey


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
