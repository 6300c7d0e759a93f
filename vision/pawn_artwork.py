"""The board's own artwork among the pawn-coloured pixels: what looks like this frame's walls or corridor.

Pixels that look like the corridor (a Gaussian learned on the corridor arms the read
openings point to) are artwork anywhere, pixels that look like the walls (learned
where the openings say "wall") everywhere but the corridor's core; see
:mod:`vision.pawns`, step 1, and the notes in :mod:`vision.pawn_candidates`.

A wall of several materials (p35). The fifth renderer's "other" and "creature" boards mix
grass, water, stone and brick walls on one board; one Gaussian over them spans the colours
*between* the materials (chromaticity sd 7-13 against one material's ~2), so a saturated
green pawn on a grass hedge (final9 fi_day 0007: 92 % of its hue pixels dropped, 0013: 98 %),
a blue one on water (0018: 84 %) or a dark green one in a pile (final11 fi_day 0024: 66 %) was
"wall". Where the wall's chromaticity spreads more than the test radius times the
corridor's (one material's spread in this photo), the wall's samples are clustered by
chromaticity (:data:`MATERIALS`), clusters whose test balls meet are merged back into one
material, and a pixel is wall only if it is like one material as well as like their
average (so the test never drops more than before). Lightness is left out of the
clustering: a lit and a shaded side of one material are one material (the sixth, held-out
and third renderers' walls spread 15-28 in relit lightness and split there if clustered in
3D: 3 more false reports on the sixth, not kept).

Measured against main 8a5a8ae with the label-free reader (vision-test, pawns %, boards %):
fifth final9 fi_day 89.8 -> 91.2 (72.5 -> 75.0; +4 pawns: 0011 blue, 0013 green, 0018 blue,
0035 green; -2: 0003 and 0004 greens at 0.90 / 0.53 whose fuller blobs score 0.42 / 0.48),
final10 fi_day 94.8 -> 95.5 (77.5 -> 80.0), final11 fi_day 91.0 -> 92.4 (60.0 -> 62.5), dev
f5 89.9 -> 92.6 (45 -> 50; one false blue fewer), own fifth (seeds 3275000+) 82.7 -> 84.2
(52.5 -> 57.5); fifth occluded final11 97.9 -> 100, final10 = (one pawn found, one lost).
Fresh fifth frames rendered after the change was written: seeds 3275400+ 84.8 -> 87.6 (55.0
-> 57.5; +4 pawns, none lost), seeds 3275100+ 94.3 -> 95.0 but boards 72.5 -> 67.5 (+2 greens,
-1 yellow in a pile whose fuller blob, 0.996 -> 0.972, a yellow print at 0.996 outscores with the located
corners; a tile under a pile of three and a tile under a newly found pawn misread after the
pawns are painted out); own fifth night and half-occluded frames (20 each) unchanged.
Every other day set unchanged, report for report (dev ho/tr/th/fo, r6, final9-11 tr/ho/th/fo/si
day), and every night set (dev ho/th/fo, r6, final11 six renderers, final9-10 fifth), r6 and
final11 si occluded, dev ho occluded. Cost: nothing on a board whose wall is one material
(the bench photo: no clustering); ~+3 ms on a multi-material board (k-means and the
materials' tests).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from companion.board import Color
from vision.occlusion import shade_invariant
from vision.pawn_model import PawnConfig
from vision.rectify import Rectified

#: A wall of several materials (grass, water and stone walls on one board): up to this many
#: chromaticity clusters of the wall's samples (:func:`_materials`). Looked for only when the
#: wall's chromaticity spreads more than the test radius times the corridor's (one material's
#: spread in this photo); clusters whose test balls meet are merged back into one material.
#: Four clusters instead of three lost what three gave on the fifth renderer's day sets
#: (final9-11 fi, dev f5, three own sets: 5 pawns fewer, one false report more).
MATERIALS = 3


def _mahalanobis2(d: np.ndarray, inv: np.ndarray) -> np.ndarray:
    """Squared Mahalanobis lengths of the columns of ``d`` ((3, n): channel rows keep numpy's loops long)."""
    return ((inv @ d) * d).sum(axis=0)


def _gaussian(samples: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Robust mean ((3, 1)) and inverse covariance of ``samples`` ((3, n) float64; None when too few)."""
    if samples.shape[1] < 50:
        return None
    keep = samples
    for _ in range(3):
        mu, inv = _moments(keep)
        keep = samples[:, _mahalanobis2(samples - mu, inv) < 9.0]
        if keep.shape[1] < 30:
            return None
    return _moments(keep)


def _moments(samples: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean and inverse of the (unbiased, +4 on the diagonal) covariance, as ``np.cov`` gives it, by one product."""
    mu = samples.mean(axis=1, keepdims=True)
    d = samples - mu
    cov = (d @ d.T) / max(1, samples.shape[1] - 1) + np.eye(samples.shape[0]) * 4.0
    return mu, np.linalg.inv(cov)


def drop_artwork(
    rect: Rectified,
    zone_masks: tuple[np.ndarray, np.ndarray, np.ndarray],
    coloured: np.ndarray,
    masks: dict[Color, np.ndarray],
    cfg: PawnConfig,
    light: np.ndarray | None = None,
) -> dict[Color, np.ndarray]:
    """Remove pixels that look like this frame's corridor (anywhere) or walls (outside the corridor core).

    ``zone_masks`` are :func:`zones` (certain wall, certain corridor, corridor arms);
    ``coloured`` is the union of ``masks``. With the board's ``light`` map
    (:mod:`vision.pawn_light`) the lightness is compared with the light divided out,
    and weighs ``relit_lightness_weight``: under even light a pawn the artwork's
    colour still stands out by its own shading and highlights.
    """
    wall, corridor, arms = zone_masks
    width = wall.shape[1]
    # Flat indices first, rows and columns from them: np.nonzero over the whole board
    # costs ~5x np.flatnonzero, the same pixels in the same order.
    where_coloured = np.flatnonzero(coloured)
    if len(where_coloured) == 0:
        return masks
    ys, xs = np.divmod(where_coloured, width)
    # The colour transform is per pixel, so it is computed only where it is read: the
    # coloured pixels and every 11th pixel of each learning zone (as ``_gaussian`` samples).
    flat = (where_coloured, np.flatnonzero(wall)[::11], np.flatnonzero(arms)[::11])
    values, wall_samples, arm_samples = (
        np.ascontiguousarray(a.T) for a in _artwork_colours(rect.image, flat, cfg, light)
    )
    artwork = np.zeros(len(ys), dtype=bool)
    corridor_gauss = _gaussian(arm_samples)
    wall_gauss = _gaussian(wall_samples)
    if corridor_gauss is not None:
        artwork |= _within(values, corridor_gauss, cfg, light)
    if wall_gauss is not None:
        near = ~corridor[ys, xs] & _within(values, wall_gauss, cfg, light)
        if near.any():
            # A wall of several materials: like one of them, not merely like their average.
            materials = _materials(wall_samples, wall_gauss, corridor_gauss, cfg.wall_distance2)
            if len(materials) > 1:
                wall_like = np.ascontiguousarray(values[:, near])
                near[near] = np.logical_or.reduce([_within(wall_like, g, cfg, light) for g in materials])
        artwork |= near
    drop = np.zeros(wall.shape, dtype=bool)
    drop[ys[artwork], xs[artwork]] = True
    return {color: mask & ~drop for color, mask in masks.items()}


def _within(
    values: np.ndarray, gauss: tuple[np.ndarray, np.ndarray], cfg: PawnConfig, light: np.ndarray | None
) -> np.ndarray:
    """Which columns of ``values`` ((3, n)) lie within ``cfg.wall_distance2`` of the material ``gauss``."""
    mu, inv = gauss
    d = values - mu
    if cfg.shade_is_artwork and light is not None:
        d[2] = np.maximum(d[2], 0.0)  # the material in a shadow (a pawn's cast shadow) is still the material
    return _mahalanobis2(d, inv) < cfg.wall_distance2


def _materials(
    samples: np.ndarray,
    single: tuple[np.ndarray, np.ndarray],
    one: tuple[np.ndarray, np.ndarray] | None,
    distance2: float,
) -> list[tuple[np.ndarray, np.ndarray]]:
    """The wall's materials, each its own Gaussian, when its colours are several; else ``[single]``.

    See :data:`MATERIALS`. ``samples`` (3, n) are the wall's comparison colours,
    ``single`` their one Gaussian, ``one`` the corridor's (one material: how far one
    material's chromaticity spreads in this photo).
    """
    if one is None:
        return [single]
    radius = math.sqrt(distance2)
    spread = math.sqrt(float(np.linalg.inv(single[1])[:2, :2].diagonal().max()))
    within = math.sqrt(float(np.linalg.inv(one[1])[:2, :2].diagonal().max()))
    if spread <= radius * within:
        return [single]
    chroma = np.ascontiguousarray(samples[:2].T, dtype=np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 10, 0.5)
    cv2.setRNGSeed(1)
    _, label, _ = cv2.kmeans(chroma, MATERIALS, None, criteria, 1, cv2.KMEANS_PP_CENTERS)
    label = label.ravel()
    parts = [np.flatnonzero(label == k) for k in range(MATERIALS)]
    fits = [_gaussian(samples[:, i]) for i in parts]
    # Clusters closer than two test radii (their artwork balls meet) are one material.
    group = list(range(MATERIALS))
    for i in range(MATERIALS):
        for j in range(i + 1, MATERIALS):
            fi, fj = fits[i], fits[j]
            if fi is None or fj is None:
                continue
            d = (fi[0] - fj[0])[:2]
            pooled = np.linalg.inv(0.5 * (np.linalg.inv(fi[1]) + np.linalg.inv(fj[1]))[:2, :2])
            if float((d.T @ pooled @ d).item()) < 4.0 * distance2:
                gi, gj = group[i], group[j]
                group = [gi if g == gj else g for g in group]
    # A cluster too small to fit (a few seams or outliers) joins the nearest one that fits: every wall
    # sample stays in some material, so no wall colour stops being artwork.
    fitted = [k for k in range(MATERIALS) if fits[k] is not None]
    if not fitted:
        return [single]
    centre = [samples[:2, i].mean(axis=1) if len(i) else np.zeros(2) for i in parts]
    for k in range(MATERIALS):
        if fits[k] is None:
            group[k] = group[min(fitted, key=lambda f: float(np.sum((centre[f] - centre[k]) ** 2)))]
    members = [[k for k in range(MATERIALS) if group[k] == g] for g in sorted(set(group))]
    if len(members) < 2:
        return [single]
    out = [fits[m[0]] if len(m) == 1 else _gaussian(samples[:, np.concatenate([parts[k] for k in m])]) for m in members]
    return out if len(out) > 1 and all(g is not None for g in out) else [single]  # type: ignore[return-value]


def _artwork_colours(
    image: np.ndarray, flat: Sequence[np.ndarray], cfg: PawnConfig, light: np.ndarray | None = None
) -> list[np.ndarray]:
    """The artwork comparison colours (float64, (n, 3)) of the pixels at each array of flat indices.

    Shade-invariant chromaticity is a per-pixel formula, so it is applied to the few
    gathered pixels only (the same numbers as over the whole image, at a fraction of
    the cost); Lab goes through OpenCV on the whole image as before.
    """
    if cfg.shade_invariant_artwork:
        pixels = image.reshape(-1, image.shape[2])
        if light is None:
            weight = cfg.artwork_lightness_weight
            return [shade_invariant(pixels[i][:, None, :], weight).reshape(-1, 3).astype(np.float64) for i in flat]
        out = []
        for i in flat:
            colours = shade_invariant(pixels[i][:, None, :], cfg.relit_lightness_weight).reshape(-1, 3)
            colours[:, 2] /= light.reshape(-1)[i]
            out.append(colours.astype(np.float64))
        return out
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2Lab).reshape(-1, 3)
    return [lab[i].astype(np.float64) for i in flat]
