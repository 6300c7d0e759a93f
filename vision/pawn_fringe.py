"""The cast-shadow fringe round a blob, per sector against each sector's own background (p27/p29/p30's cue).

Round the blob, in 8 sectors, the share of pixels within ``reach`` (0.8 blob radius, at
least 4 px) of its outline darker than :data:`FRINGE_DARK` of the median a little further
out in the same sector, in blob radii. A cast shadow lies on one side of a raised body; a
printed outline rings the whole picture, and a light gradient moves the near and far ring
alike. ``fringe_asym`` (the widest sector minus the median one) kept its direction on all
six renderers (p27), so it is a feature for the pawn model's own fit (p34).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.order_stats import median

#: Padding (rectified px) round the blob's box in which its fringe is measured (p27's window).
FRINGE_PAD = 6
#: A fringe pixel is darker than this share of its sector's own background.
FRINGE_DARK = 0.85
#: Fringe widths (blob radii) are clipped to this (a tiny blob's reach is many radii).
FRINGE_MAX = 1.5


def fringe_asym(labels: np.ndarray, index: int, grey: np.ndarray, box: tuple[int, int, int, int]) -> float:
    """The widest sector's dark fringe minus the median sector's (blob radii, 0..:data:`FRINGE_MAX`)."""
    from vision.pawn_features import _medians_by_group  # the one-sort group medians

    h_img, w_img = labels.shape[:2]
    x, y, w, h = box
    x0, y0 = max(0, x - FRINGE_PAD), max(0, y - FRINGE_PAD)
    x1, y1 = min(w_img, x + w + FRINGE_PAD), min(h_img, y + h + FRINGE_PAD)
    mask = labels[y0:y1, x0:x1] == index
    area = int(np.count_nonzero(mask))
    if area < 12:
        return 0.0
    radius = math.sqrt(area / math.pi)
    ys, xs = np.nonzero(mask)
    cy, cx = float(ys.mean()), float(xs.mean())
    outside = cv2.distanceTransform((~mask).view(np.uint8), cv2.DIST_L2, 3)
    reach = max(4.0, 0.8 * radius)
    ry, rx = np.nonzero((outside > 0) & (outside <= reach + 4))
    dist = outside[ry, rx]
    g = grey[y0:y1, x0:x1][ry, rx]
    sector = (((np.arctan2(ry - cy, rx - cx) + math.pi) / (2 * math.pi) * 8).astype(np.int32)) % 8
    near = dist <= reach
    far_sectors, far_medians = _medians_by_group(g[~near], sector[~near], 8)
    level = np.full(8, np.nan)
    level[far_sectors] = far_medians
    near_count = np.bincount(sector[near], minlength=8)
    dark_count = np.bincount(sector[near][g[near] < FRINGE_DARK * level[sector[near]]], minlength=8)
    widths = np.where(np.isfinite(level), dark_count / np.maximum(1.0, near_count) * reach / radius, np.nan)
    ok = np.isfinite(widths)
    if not ok.any():
        return 0.0
    return min(float(widths[ok].max()) - median(widths[ok]), FRINGE_MAX)
