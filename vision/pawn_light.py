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


#: A light whose colour varies less than this over the board (channel gain, relative) is
#: taken as evenly coloured: its colours are judged as they are.
MIN_CAST = 0.04


def colour_cast(image: np.ndarray, references: list[np.ndarray], sigma: float, step: int = 8) -> np.ndarray | None:
    """The light's local colour (float32 (H, W, 3): per pixel the channels' gains, mean 1), or None.

    The board is the light meter of :func:`light_map`, per channel: where a material's
    blue channel reads 20 % above its usual level and its red 20 % below, the light there
    is bluish. A pawn in a coloured light pool (a lamp, an LED's glow) takes that colour
    too - a blue pawn turns grey, a white corridor green - and a flat print or a glowing
    square under it looks like a pawn colour. Dividing the image by these gains shows
    every surface as under the board's usual light (:func:`neutral`). Only the light's
    *variation* over the board is measured (the materials' colours are not known, so a
    cast over the whole photo stays). None when the light is evenly coloured (every gain
    within :data:`MIN_CAST` of the others) or cannot be measured.
    """
    gains = _cast_grid(image, references, sigma, step)
    if gains is None:
        return None
    h, w = image.shape[:2]
    return cv2.resize(gains, (w, h), interpolation=cv2.INTER_LINEAR)


def neutral(image: np.ndarray, references: list[np.ndarray], sigma: float, step: int = 8) -> np.ndarray | None:
    """``image`` (BGR uint8) divided by its :func:`colour_cast`, or None where there is no cast to divide out.

    The gains are inverted on the coarse grid they are measured on (the light is
    smooth) and interpolated back, so the full image takes one multiplication.
    """
    gains = _cast_grid(image, references, sigma, step)
    if gains is None:
        return None
    h, w = image.shape[:2]
    inverse = cv2.resize(1.0 / gains, (w, h), interpolation=cv2.INTER_LINEAR)
    return cv2.multiply(image, inverse, dtype=cv2.CV_8U)


def _cast_grid(image: np.ndarray, references: list[np.ndarray], sigma: float, step: int) -> np.ndarray | None:
    """:func:`colour_cast` on every ``step``-th pixel (float32 (h, w, 3)), or None.

    The light is smooth and the blur averages the samples, so a coarse grid measures it
    as well as the full image. The arrays are that small that numpy's per-call cost is
    most of the time: every material is blurred in one call, and the channels are
    combined as planes, not reduced over a 3-long axis.
    """
    sampled = np.ascontiguousarray(image[::step, ::step])
    pixels = sampled.astype(np.float32)
    s = max(0.5, sigma / step)
    planes, medians = [], []
    for mask in references:
        sample = np.ascontiguousarray(mask[::step, ::step])
        if int(np.count_nonzero(sample)) < 16:
            continue
        levels = _channel_medians(sampled[sample])
        if float(levels.min()) < 20.0:  # a channel too dark in this material to read the light from
            continue
        m = sample.view(np.uint8).astype(np.float32)[..., None]
        planes += [pixels * m, m]
        medians.append(levels.astype(np.float32))
    if not medians:
        return None
    blurred = cv2.GaussianBlur(np.concatenate(planes, axis=-1), (0, 0), s)
    chroma, level, seen = [], [], []
    for k, levels in enumerate(medians):
        weight = blurred[..., 4 * k + 3]
        gain = [blurred[..., 4 * k + c] / np.maximum(weight * levels[c], 1e-6) for c in range(3)]
        mean = np.maximum((gain[0] + gain[1] + gain[2]) / 3.0, 1e-6)
        chroma.append([g / mean - 1.0 for g in gain])
        level.append(mean)
        seen.append(weight > 1e-3 * float(weight.max()))
    # A light scales every material alike: where the materials' brightness gains disagree
    # (a hand over the board is brighter than a dark wall and darker than a light
    # corridor) what they read is not the light, and its colour counts that much less.
    low = np.where(seen[0], level[0], np.inf)
    high = np.where(seen[0], level[0], 0.0)
    for lev, ok in zip(level[1:], seen[1:], strict=True):
        low = np.where(ok, np.minimum(low, lev), low)
        high = np.where(ok, np.maximum(high, lev), high)
    trust = np.where(high > 0.0, (np.minimum(low, high) / np.maximum(high, 1e-6)) ** 2, 1.0)
    # A light acts on every material alike; something over the board (a hand, a sleeve)
    # changes each material's colour differently. Where the materials disagree only
    # what they agree on is the light's: per channel the smaller shift, none where
    # they shift opposite ways.
    shift, have = chroma[0], seen[0]
    for theirs, ok in zip(chroma[1:], seen[1:], strict=True):
        both = have & ok
        merged = []
        for mine, other in zip(shift, theirs, strict=True):
            agreed = np.where(mine * other > 0, np.sign(mine) * np.minimum(np.abs(mine), np.abs(other)), 0.0)
            merged.append(np.where(both, agreed, np.where(have, mine, other)))
        shift, have = merged, have | ok
    gains = [np.clip(np.where(have, 1.0 + d * trust, 1.0), 0.15, 4.0) for d in shift]
    mean = (gains[0] + gains[1] + gains[2]) / 3.0
    out = cv2.merge([(g / mean).astype(np.float32) for g in gains])
    if float(np.abs(out - 1.0).max()) < MIN_CAST:
        return None
    return out


def _channel_medians(pixels: np.ndarray) -> np.ndarray:
    """Each channel's median of (n, 3) 8-bit ``pixels`` (float32 (3,)), as ``np.median(pixels, axis=0)``.

    One partition of the channel rows: ``np.median``'s own checks cost more than the
    work on a material's few hundred grid samples.
    """
    n = len(pixels)
    lo, hi = (n - 1) // 2, n // 2
    part = np.partition(np.ascontiguousarray(pixels.T), [lo, hi], axis=1)
    return (part[:, lo].astype(np.float32) + part[:, hi]) / 2.0
