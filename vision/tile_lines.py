"""Line structure of each side: the corridor/wall boundary as drawn edges, whatever its colours.

Glare or a pale, outline-drawn edition can flatten the colour difference between
corridor and wall until the colour bands (:mod:`vision.tile_features`) barely
separate, while the boundary between them is still an edge (a drawn line or a
step in lightness). An open side's arm is a band bounded by two edges running
from the centre to the side (parallel to the arm); a closed side's wall between
the centre and the border has none. Per side, in the box the usual band reads
widened across the side to where an arm's edges run, the mean gradient across
the arm and along it, each divided by the tile's own mean gradient: a ratio that
glare, which scales a tile's contrast, leaves alone. The tile model learns per
frame (fixed tiles' known sides) what these ratios mean in this edition.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.board import SIZE
from vision.rectify import Rectified

__all__ = ["line_features"]

#: Across the side, the box reaches where the arm's bounding edges run: corridors are about
#: a third of a tile wide in every edition, so their edges lie near 1/3 and 2/3; 0.2-0.8 holds them.
_ACROSS = (0.2, 0.8)


def line_features(rect: Rectified, lightness: np.ndarray, depth: tuple[float, float]) -> np.ndarray:
    """Per tile and side (7, 7, 4, 2): mean gradient across and along the arm, over the tile's mean gradient.

    ``lightness``: the view's L channel (uint8); ``depth``: how far the box reaches from the
    side toward the centre (fractions of a tile, as the band it goes with). Only the tiles'
    area is differentiated; the boxes are summed over the (7, tile, 7, tile) lattice at once.
    """
    t, m = rect.tile_px, rect.margin_px
    area = np.ascontiguousarray(lightness[m : m + SIZE * t, m : m + SIZE * t])
    # |d/dx| and |d/dy| (Sobel), one lattice each: axes (row, y in tile, col, x in tile).
    gx = cv2.convertScaleAbs(cv2.Sobel(area, cv2.CV_16S, 1, 0, ksize=3)).reshape(SIZE, t, SIZE, t)
    gy = cv2.convertScaleAbs(cv2.Sobel(area, cv2.CV_16S, 0, 1, ksize=3)).reshape(SIZE, t, SIZE, t)

    def px(f: float) -> int:
        return round(f * t)

    a, b = px(_ACROSS[0]), px(_ACROSS[1])
    e0, e1 = px(depth[0]), max(px(depth[1]), px(depth[0]) + 1)
    boxes = (  # (y0, y1, x0, x1) per side: N, E, S, W
        (e0, e1, a, b),
        (a, b, t - e1, t - e0),
        (t - e1, t - e0, a, b),
        (a, b, e0, e1),
    )

    def mean(g: np.ndarray, y0: int, y1: int, x0: int, x1: int) -> np.ndarray:
        return g[:, y0:y1, :, x0:x1].mean(axis=(1, 3), dtype=np.float64)

    sx = np.stack([mean(gx, *box) for box in boxes], axis=-1)  # (7, 7, 4)
    sy = np.stack([mean(gy, *box) for box in boxes], axis=-1)
    lo, hi = px(0.05), t - px(0.05)
    whole = mean(gx, lo, hi, lo, hi) + mean(gy, lo, hi, lo, hi)  # the tile's own contrast
    vertical = np.array([True, False, True, False])  # N, S: the arm runs along y, its edges show in gx
    across = np.where(vertical, sx, sy)
    along = np.where(vertical, sy, sx)
    scale = 100.0 / np.maximum(whole, 1.0)[..., None]
    return np.stack([across * scale, along * scale], axis=-1)
