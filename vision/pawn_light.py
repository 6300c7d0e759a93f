"""The light falling on the board, so that shading is judged against it.

A flat picture under a shadow's edge or a light pool is darker on one side than on
the other, exactly like the lit and shaded sides of a pawn. What tells them apart is
that the picture's brightness follows the light on the board around it, while a raised
body is shaded *more* than its surroundings. The board itself is the light meter:
wherever the read openings say a pixel is certainly wall, or certainly corridor away
from the tile's centre (where no picture or pawn foot sits), its brightness over its
material's typical brightness is the light there. Those ratios, smoothed over about
half a tile, give a light map; dividing the brightness by it leaves what the object
itself does to the light. Whatever the edition: only the two materials' existence is
assumed, not their colours.
"""

from __future__ import annotations

import cv2
import numpy as np


def light_map(value: np.ndarray, references: list[np.ndarray], sigma: float, step: int = 4) -> np.ndarray | None:
    """The relative light (float32, ~1 on average) over ``value``'s image, or None without references.

    ``references`` are boolean masks of pixels of one material each (the wall, the
    corridor arms; pawn-coloured pixels already left out). A material's ratios are
    weighted by its typical brightness: a black wall says little about the light.
    The map is built on a ``step``-times smaller grid (the light is smooth) and
    interpolated back.
    """
    h, w = value.shape
    small = (max(1, w // step), max(1, h // step))
    brightness = value.astype(np.float32)
    # Per material: sum of brightness over sum of its typical level, i.e. the mean ratio
    # weighted by the level (a black wall says little about the light).
    acc = np.zeros((small[1], small[0]), np.float32)
    weight = np.zeros_like(acc)
    for mask in references:
        if int(np.count_nonzero(mask)) < 50:
            continue
        level = _median8(value, mask)
        if level < 20.0:  # too dark a material to read the light from
            continue
        m = mask.view(np.uint8).astype(np.float32)
        acc += cv2.resize(cv2.multiply(brightness, m), small, interpolation=cv2.INTER_AREA)
        weight += level * cv2.resize(m, small, interpolation=cv2.INTER_AREA)
    if not weight.any():
        return None
    s = max(0.5, sigma / step)
    num = cv2.GaussianBlur(acc, (0, 0), s)
    den = cv2.GaussianBlur(weight, (0, 0), s)
    light = num / np.maximum(den, 1e-6)
    fallback = float(acc.sum() / max(weight.sum(), 1e-6))
    light = np.where(den > 1e-3 * float(den.max()), light, fallback)
    light = np.clip(light, 0.15, 4.0)
    return cv2.resize(light, (w, h), interpolation=cv2.INTER_LINEAR)


def _median8(value: np.ndarray, mask: np.ndarray) -> float:
    """``np.median(value[mask])`` of 8-bit values from their histogram (no gather, no sort of a board's pixels)."""
    hist = cv2.calcHist([value], [0], mask.view(np.uint8), [256], [0, 256]).ravel()
    counts = np.cumsum(hist.astype(np.int64))
    n = int(counts[-1])
    lo = int(np.searchsorted(counts, (n - 1) // 2, side="right"))
    hi = int(np.searchsorted(counts, n // 2, side="right"))
    return (lo + hi) / 2.0


def relit(value: np.ndarray, light: np.ndarray | None) -> np.ndarray:
    """``value`` (uint8) as if the light were even: divided by the light map (float32, not clipped).

    Not back to 8 bits: a bright pawn where the light map is below 1 would clip flat
    at 255 and lose the very shading it is judged by.
    """
    if light is None:
        return value
    return value.astype(np.float32) / light
