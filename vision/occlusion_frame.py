"""Frame checks before and after locating: blank, too dark, blurred.

Cheap checks on a small grey copy of the frame (:func:`small_grey`, converted once by
the reader for these checks and the day/night decision in :mod:`vision.lighting`) and,
on the rectified view, the sharpness of the tile area.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from companion.board import SIZE
from vision.occlusion_config import OcclusionConfig
from vision.rectify import Rectified


def small_grey(image: np.ndarray) -> np.ndarray:
    """The frame's small grey copy (every ``min side // 240``-th pixel) the frame checks read.

    Only the kept rows are converted, then every ``step``-th grey column kept (grey is per
    pixel, so this equals converting the whole frame and subsampling it); the reader converts
    once for both checks. The kept rows go to OpenCV as they lie (a row stride, no copy): a
    copy of every ``step``-th colour pixel, strided both ways, cost ~0.5 ms of the bench
    photo's 0.6, converting whole rows ~0.1.
    """
    step = max(1, min(image.shape[:2]) // 240)
    return np.ascontiguousarray(cv2.cvtColor(image[::step], cv2.COLOR_BGR2GRAY)[:, ::step])


def frame_problem(
    image: np.ndarray, config: OcclusionConfig | None = None, grey: np.ndarray | None = None
) -> str | None:
    """Blank / too dark / blurred frame, checked on a small grey copy (cheap); ``grey``: :func:`small_grey`."""
    cfg = config or OcclusionConfig()
    small = small_grey(image) if grey is None else grey
    if float(small.std()) < cfg.blank_std:
        return "blank frame: nothing to see"
    if percentiles_u8(small, (99.0,))[0] < cfg.dark_level:
        return "frame too dark to read"
    return None


def sharpness(rect: Rectified) -> float:
    """Mean gradient magnitude over the tile area, relative to its grey-level spread.

    Scale-free (the rectified view has a fixed tile size) and exposure-free (divided
    by the spread), so one threshold holds for day and night.
    """
    m, side = rect.margin_px, SIZE * rect.tile_px
    grey8 = cv2.cvtColor(rect.image[m : m + side, m : m + side], cv2.COLOR_BGR2GRAY)
    low, high = percentiles_u8(grey8, (5.0, 95.0))
    spread = high - low
    grey = grey8.astype(np.float32)
    if spread < 1.0:
        return 0.0
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    return float(np.mean(np.abs(gx) + np.abs(gy))) / (8.0 * spread)


def percentiles_u8(values: np.ndarray, qs: Sequence[float]) -> list[float]:
    """``np.percentile`` (linear method) of 8-bit values, bit for bit, from their histogram (no sort).

    numpy's virtual index ``(n - 1) * q`` and its two-sided lerp (from the upper value when
    the fraction is at least a half), so the frame checks' thresholds see numpy's very
    numbers: on a frame's 80,000-pixel grey copy ~0.3 ms instead of ~1-2 ms.
    """
    if values.dtype != np.uint8:
        return [float(v) for v in np.percentile(values, list(qs))]
    counts = np.cumsum(_histogram_u8(values))
    n = int(counts[-1])
    out = []
    for q in qs:
        index = (n - 1) * (q / 100.0)
        lo = min(math.floor(index), n - 1)
        a, b = (float(v) for v in np.searchsorted(counts, [lo, min(lo + 1, n - 1)], side="right"))
        if index >= n - 1:
            out.append(b)
            continue
        gamma = index - lo
        out.append(b - (b - a) * (1 - gamma) if gamma >= 0.5 else a + (b - a) * gamma)
    return out


#: Below this many values OpenCV's float32 histogram counts every one exactly (2**24).
_EXACT_COUNTS = 1 << 24


def _histogram_u8(values: np.ndarray) -> np.ndarray:
    """The count of each 8-bit level (256 int64), as ``np.bincount(values.ravel(), minlength=256)``.

    ``cv2.calcHist`` counts the bytes as they are; ``np.bincount`` first widens every value to
    int64 (~0.1 ms of its ~0.13 on the 113,000-pixel tile area, three calls a read). Its float32
    counts are exact integers below 2**24; empty or larger arrays keep ``np.bincount``.
    """
    if 0 < values.size < _EXACT_COUNTS:
        flat = values.reshape(1, -1) if values.ndim != 2 else values
        return cv2.calcHist([flat], [0], None, [256], [0, 256]).ravel().astype(np.int64)
    return np.bincount(values.ravel(), minlength=256)
