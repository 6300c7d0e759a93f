"""Each side against its own tile in linear light: what a glare veil leaves of the corridor/wall contrast.

A lamp's reflection lays a veil of light over part of the board: in linear light it
*adds* the same amount to every pixel under it, corridor and wall alike. In Lab (the
colour bands of :mod:`vision.tile_features`) that compresses every difference toward
nothing, so a veiled arm looks like the tile's corners, i.e. closed, and a straight with
one arm under the veil reads as a corner (sixth renderer's lamp glare; third's spot).

Here each side's box is compared, in linear RGB, with the wall at its own two ends at
the same depth (:func:`vision.tile_features.end_boxes`): the veil there is the veil on
the side, so it cancels in the difference. What remains is the side's contrast times
the light falling there; dividing by the tile's largest side contrast (every tile has an
open side: a corridor against the wall beside it) removes the light too. The frame's
model (:func:`vision.tile_model.read_band`, fixed tiles then the sure ones) learns what
the resulting ratios mean in this edition, as for every other band.

:func:`vision.tiles.read_tiles` uses it on veiled tiles that read as no shape (fewer than two or
four open-looking sides) to choose their shape only, and by day, once the pawns are painted out,
as a fallback third band on sides neither colour band reads typically (``veil_fallback``); the
published edges and confidences stay the colour bands' (the occlusion check weighs them: a hand
is lit beyond the board's walls too). Only reads with such a tile or side pay for it (one float
integral image of the tile area); the bench photo's has none.
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

from companion.board import SIZE
from vision.rectify import Rectified
from vision.tile_features import TilesConfig, end_boxes, side_boxes

__all__ = ["veil_features"]


def _srgb_to_linear() -> np.ndarray:
    """Linear light (0..1) of each 8-bit sRGB level."""
    level = np.arange(256) / 255.0
    return np.where(level <= 0.04045, level / 12.92, ((level + 0.055) / 1.055) ** 2.4).astype(np.float32)


_LINEAR = _srgb_to_linear()

#: Robust spreads above the board's median wall that only a veil of glare reaches (a plain outlier rule).
OUTLIER = 3.0


def veil_features(rect: Rectified, cfg: TilesConfig) -> tuple[np.ndarray, np.ndarray]:
    """Per tile and side (7, 7, 4, 3): the side's mean linear RGB less its ends', over the tile's largest such
    norm; and which tiles (7, 7) lie under a veil: the wall at some side's ends lit beyond the board's walls."""
    t, m = rect.tile_px, rect.margin_px
    area = rect.image[m : m + SIZE * t, m : m + SIZE * t]
    if area.ndim == 2 or area.shape[2] == 1:
        area = cv2.cvtColor(area.reshape(area.shape[:2]), cv2.COLOR_GRAY2BGR)
    # cv2.LUT: the same float32 levels as indexing the table, a fraction of the time (every day read pays it).
    linear = cv2.LUT(np.ascontiguousarray(area), _LINEAR)
    integral = cv2.integral(linear, sdepth=cv2.CV_64F).reshape(-1, 3)
    corners, area = _box_corners(t, cfg)
    # Every side and end box of every tile in one lookup per corner: the same sums as box by box.
    total = integral[corners[0]] - integral[corners[1]] - integral[corners[2]] + integral[corners[3]]
    means = total / area  # (7, 7, 12, 3): the 4 side boxes, then 2 end boxes per side
    sides = means[:, :, :4]
    ends = means[:, :, 4:].reshape(SIZE, SIZE, 4, 2, 3).mean(axis=3)
    contrast = sides - ends
    scale = np.linalg.norm(contrast, axis=-1).max(axis=2)[..., None, None]
    return contrast / np.maximum(scale, 1e-4), _veiled(ends.mean(axis=-1))


@cache
def _box_corners(tile_px: int, cfg: TilesConfig) -> tuple[np.ndarray, np.ndarray]:
    """Flat positions (4, 7, 7, 12) in the tile area's integral image of the corners (x1y1, x1y0, x0y1,
    x0y0) of every tile's 4 side boxes and 8 end boxes (:func:`box_means`' order), and their areas (12, 1)."""
    origin = tile_px * np.arange(SIZE)
    offs = np.zeros((SIZE, SIZE, 1, 4), dtype=np.int64)
    offs[..., 0] = offs[..., 2] = origin[None, :, None]
    offs[..., 1] = offs[..., 3] = origin[:, None, None]
    boxes = offs + np.concatenate([side_boxes(tile_px, cfg), end_boxes(tile_px, cfg).reshape(8, 4)])[None, None]
    x0, y0, x1, y1 = (boxes[..., i] for i in range(4))
    width = SIZE * tile_px + 1
    corners = np.stack([y1 * width + x1, y0 * width + x1, y1 * width + x0, y0 * width + x0])
    return corners, ((x1 - x0) * (y1 - y0)).astype(np.float64)[0, 0][:, None]


def _veiled(wall: np.ndarray) -> np.ndarray:
    """Tiles (7, 7) with a side whose wall (``wall``: (7, 7, 4) linear light at its ends) is an outlier above
    the board's walls: more than ``OUTLIER`` robust spreads (median absolute deviation) above their median.

    A veil only adds light; a lamp's fall-off or the board's own shading vary smoothly and
    stay within the walls' spread, a glare spot stands out of it.
    """
    centre = float(np.median(wall))
    spread = 1.4826 * float(np.median(np.abs(wall - centre)))
    return (wall > centre + OUTLIER * max(spread, 1e-4)).any(axis=2)
