"""Pawn evidence: the edition-free features of one coloured blob (see :mod:`vision.pawns`).

Each feature says one physical thing about a raised, lit solid versus flat print:
size and compactness, saturation, shading (a smooth light field over the blob),
a specular glint (a light patch the body surrounds: :func:`_own_glint`), a one-sided
cast shadow, elongation away from the camera, and dark marks enclosed by the blob
(a picture's eyes and spots). Two are the blob's directions (its lit side and its
dark side, ``lit_x``/``lit_y``, ``dark_x``/``dark_y``): they carry no weight
themselves; the board-level terms compare them across blobs (``size_deviation``,
``lit_consensus``, ``dark_consensus``, filled in by
:func:`vision.pawn_model.with_set_size`). The small order
statistics are computed by hand (:func:`percentiles`, :func:`median`): numpy's
general machinery costs several times the work on arrays this small.
"""

from __future__ import annotations

import math
from functools import cache
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.order_stats import median, percentiles
from vision.pawn_geometry import nadir_spread, slender_axis
from vision.rectify import Rectified

if TYPE_CHECKING:
    from vision.pawn_model import PawnModel

FEATURES: tuple[str, ...] = (
    "log_area", "log_area_small", "log_area_large", "fill", "extent", "saturation", "inner_cv", "inner_range",
    "value_cv", "dark_share", "glint", "centre_offset", "solidity", "elongation", "shadow", "ring_level",
    "marks", "smooth_range", "surface", "width", "size_deviation", "thickness",
    "lit_consensus", "dark_consensus", "lit_x", "lit_y", "dark_x", "dark_y",
)  # fmt: skip

#: The board's materials for a cast shadow: certain wall, certain corridor (full-image
#: booleans) and each one's usual brightness (see :func:`_surroundings`).
Material = tuple[np.ndarray, np.ndarray, float, float]

WIDTH = FEATURES.index("width")
THICKNESS = FEATURES.index("thickness")
_SHADOW, _RING, _MARKS = (FEATURES.index(n) for n in ("shadow", "ring_level", "marks"))
#: Board-level terms (:mod:`vision.pawn_consensus`), filled in once every blob is described.
LIT_CONSENSUS, DARK_CONSENSUS = FEATURES.index("lit_consensus"), FEATURES.index("dark_consensus")
#: Each blob's lit side (its brightness slope) and dark side (the darker surroundings), for those terms.
LIT, DARK = FEATURES.index("lit_x"), FEATURES.index("dark_x")
_SURFACE = FEATURES.index("surface")
_SMOOTH_RANGE = FEATURES.index("smooth_range")
#: A blob's own lit side (dark side) has its full say in the light consensus from this much
#: shading (``surface``) and cast shadow (``shadow``) on, less below: about the least most
#: pawns have (the pawn blobs' 25th percentiles on the fit's boards). A flat blob's slope
#: direction is noise, and so is the darkest side of even surroundings: a pawn that shows
#: little shading is not held against the light (third renderer: a dull yellow pawn
#: dropped), nor is a flat print counted for it.
SURFACE_FULL = 0.33
SHADOW_FULL = 0.27

#: How far (tiles) beyond a blob's edge its cast shadow is looked for (:func:`_surroundings`).
#: A pawn 2.5-3.5 cm tall under a light off the vertical casts a shadow reaching well past
#: its foot, while a tall pawn's own blob (its shaded, desaturated rim cut off by the
#: colour test) and a print's drawn outline both hug the blob's edge: the ring reaches past
#: them to where the shadow lies (reaches measured: vision/notes/pawn_features.md).
#: The model was fitted at 0.14.
SHADOW_REACH = 0.18

#: A blob's shading is "stepped" when a smooth surface fits its brightness no better than one
#: flat level (:func:`_surface`'s ``steps`` above 1): drawn facets, a two-tone picture. A
#: faceted solid (a box-shaped pawn, fourth renderer) is stepped too, but it stands and casts a
#: shadow; a print casts none. So a stepped blob without a cast shadow (``shadow`` under
#: :data:`SHADOW_FULL`) has its ``surface`` divided by ``steps`` to this power: its range is the
#: facets', not a light field's. Without the shadow condition the fourth renderer's box pawns
#: dropped (measurements: vision/notes/pawn_features.md). Cost: two medians per shaded blob (~10 us).
STEPPED_POWER = 2

#: A smoothly shaded body's brightness spread is shading, not printed detail. ``value_cv`` (the
#: blob's raw brightness spread) counts against a blob as detail the light field does not explain
#: (its sign in ``tests/support/fit_pawns.py``), but a large rounded body under a hard light has a deep shaded side: its
#: spread runs past what most pawns show (the pawn blobs' 75th percentile, ``SMOOTH_CV`` 0.30, where
#: the model's term steepens) although a smooth surface explains nearly all of it. Where the smooth
#: surface :func:`_surface` fits leaves at most ``SMOOTH_UNEXPLAINED`` of the brightness's standard
#: deviation (it explains 80 % of the variance or more), ``value_cv`` is the part it leaves,
#: counted no lower than ``SMOOTH_CV``: only the excess over the usual pawn is forgiven, so a
#: blob is never raised above a usual pawn's standing by it, and a print whose spread is its
#: drawn detail (eyes, outlines, two flat tones: poorly fitted) keeps it. Measurements and limits:
#: vision/notes/pawn_features.md (p49).
SMOOTH_CV = 0.30
SMOOTH_UNEXPLAINED = 0.447


def _within_cone(
    rx: np.ndarray, ry: np.ndarray, ray: tuple[float, float], rect: Rectified, reach: float
) -> tuple[float, float]:
    """The direction a slender blob's lean is measured along: the ray from the nadir turned toward the
    blob's long axis by at most the nadir's uncertainty seen from the blob (``reach`` pixels from it).

    A raised body is drawn out along the true ray, but the nadir comes from the corners' slight
    perspective and moves by tenths of a tile to tiles with their pixel of error
    (:func:`vision.pawn_geometry.nadir_spread`): a figure seen from its side, a stick along the
    true ray, measured across a wrong one loses its lean (final7 si_day 0032's blue: elongation 2.2
    with the label's corners, 1.2 with the located ones). Only slender blobs (axes' ratio at least
    :data:`vision.pawn_geometry.SLENDER_RATIO`) are turned: a round blob's axis is noise, and turning every blob toward
    its long axis raised elongated prints with the pawns (see the note below). The nadir's
    uncertainty is computed only when such a blob asks (once per frame).
    """
    axis = slender_axis(float(rx @ rx), float(ry @ ry), float(rx @ ry))
    if axis is None:
        return ray
    cone = math.atan2(nadir_spread(rect), reach)
    off = (axis - math.atan2(ray[1], ray[0]) + math.pi / 2.0) % math.pi - math.pi / 2.0
    turn = max(-cone, min(cone, off))
    c, s = math.cos(turn), math.sin(turn)
    return ray[0] * c - ray[1] * s, ray[0] * s + ray[1] * c


def lit_say(surface: float) -> float:
    """How much a blob's lit side counts in the light consensus (0..1), from its shading."""
    return min(1.0, max(0.0, surface) / SURFACE_FULL)


def dark_say(shadow: float) -> float:
    """How much a blob's dark side counts in the light consensus (0..1), from its cast shadow."""
    return min(1.0, max(0.0, shadow) / SHADOW_FULL)


#: The ranges of the features computed last (shadow and ring level are clipped to them;
#: marks only grow from 0), for the best case of a blob before they are computed.
_LATE_RANGES = (
    (_SHADOW, 0.0, 1.0), (_RING, 0.0, 3.0), (_MARKS, 0.0, 1e9), (LIT_CONSENSUS, -1.0, 1.0), (DARK_CONSENSUS, -1.0, 1.0),
)  # fmt: skip


def features(
    labels: np.ndarray,
    index: int,
    full_hsv: np.ndarray,
    box: tuple[int, int, int, int],
    cam: np.ndarray,
    rect: Rectified,
    value: np.ndarray | None = None,
    floor: tuple[PawnModel, float] | None = None,
    light: np.ndarray | None = None,
    material: Material | None = None,
    body: tuple[float, float] = (0.0, 0.0),
) -> tuple[tuple[float, ...], tuple[float, float]] | None:
    """The blob's features (:data:`FEATURES`) and its base (rectified pixels).

    With ``floor`` (the pawn model and a decision threshold as a probability) a blob
    that cannot reach the threshold is given up (None) before its costliest features -
    its surroundings and enclosed marks - are computed: their terms' best case over
    their ranges is added instead. The same decisions.

    ``value`` is the brightness with the board's ``light`` divided out
    (:mod:`vision.pawn_light`, float, not clipped: a bright pawn in a dim corner keeps
    its shading; default the raw HSV value): shading is judged on it, a glint on the
    raw brightness.

    ``material`` is the board's wall and corridor and their brightness, against which a
    cast shadow is measured (see :func:`_surroundings`).

    ``body`` is the least width and thickness (tiles) of a body: a thinner blob (a line
    of artwork, a printed stroke) is None before its shading and late features are measured.
    """
    t, m = rect.tile_px, rect.margin_px
    x, y, w, h = box
    blob = labels[y : y + h, x : x + w] == index
    hsv = full_hsv[y : y + h, x : x + w]
    v_all = (full_hsv[..., 2] if value is None else value)[y : y + h, x : x + w]
    ys, xs = np.nonzero(blob)
    hull_pts = np.column_stack([xs, ys]).astype(np.int32)
    width = min((min(cv2.minAreaRect(hull_pts)[1]) + 1.0) / t, 0.6)
    thickness = _thickness(blob, t)
    if width < body[0] or thickness < body[1]:
        return None  # a line of artwork or a stroke, not a body (before its costly shading is measured)
    n = len(xs)
    area = float(n)
    s = hsv[..., 1][ys, xs].astype(np.float64)
    v = v_all[ys, xs].astype(np.float64)
    k = max(3, round(t / 10)) | 1
    # Outside the box counts as background (the blob's rim at the box edge erodes too).
    inner = cv2.erode(blob.view(np.uint8), np.ones((k, k), np.uint8), borderType=cv2.BORDER_CONSTANT, borderValue=0) > 0
    inner_ys, inner_xs = np.nonzero(inner)
    big_inner = len(inner_ys) >= 5
    vin = v_all[inner_ys, inner_xs].astype(np.float64) if big_inner else v
    p10, p90 = percentiles(vin, (10, 90))
    (p95,) = percentiles(v, (95,))
    hull = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(hull, cv2.convexHull(hull_pts), 1)
    holes = (hull > 0) & ~blob
    shine = (hsv[..., 2] > 190) & (hsv[..., 1] < 90)
    glint = float(_own_glint(full_hsv, box, hull, holes & shine)) * (48.0 / t) ** 2
    region = (inner_ys, inner_xs) if big_inner else (ys, xs)
    surface, lit_side, steps, unexplained = _surface(v_all, region, t)
    # Blob pixel coordinates (rectified image) about their centroid, along and across the
    # direction from the camera point: a raised body leans away from the camera.
    cx, cy = float(xs.sum()) / n + x, float(ys.sum()) / n + y
    centroid = np.array([cx, cy])
    offset = math.hypot(((cx - m) / t) % 1 - 0.5, ((cy - m) / t) % 1 - 0.5)
    dx, dy = cx - float(cam[0]), cy - float(cam[1])
    norm = math.hypot(dx, dy)
    dx, dy = (dx / norm, dy / norm) if norm > 1e-6 else (1.0, 0.0)
    rx, ry = xs + (x - cx), ys + (y - cy)
    # The ray from an uncertain nadir, turned toward a slender blob's long axis within that uncertainty.
    dx, dy = _within_cone(rx, ry, (dx, dy), rect, norm)
    a_lo, a_hi = percentiles(rx * dx + ry * dy, (5, 95))
    c_lo, c_hi = percentiles(ry * dx - rx * dy, (5, 95))
    elongation = (a_hi - a_lo + 1.0) / (c_hi - c_lo + 1.0)
    log_area = math.log(max(area / (t * t), 1e-3) / 0.16)
    feats = [
        log_area,
        min(log_area, 0.0),
        max(log_area, 0.0),
        area / float(w * h),
        min(max(w, h) / t, 2.0),
        float(s.sum()) / n / 255.0,
        _cv(vin),
        float((p90 - p10) / max(1.0, p90)),
        _smooth_cv(_cv(v), unexplained),
        float(np.count_nonzero(v < 0.6 * p95)) / n,
        math.log1p(glint) / 3.0,
        min(offset, 0.7),
        area / max(1.0, float(np.count_nonzero(hull))),
        min(float(elongation), 2.2),
        0.0,  # shadow, below
        0.0,  # ring_level, below
        0.0,  # marks, below
        0.0,  # smooth range, below
        surface,
        width,
        0.0,  # size deviation: a board-level feature, see vision.pawn_model.set_size_deviation
        thickness,
        0.0,  # lit consensus: board-level, see vision.pawn_consensus
        0.0,  # dark consensus: likewise
        lit_side[0],
        lit_side[1],
        0.0,  # dark side, below
        0.0,
    ]
    # Most shaded blobs of a board are artwork the surface fit already condemns: the smooth range
    # (a median filter) is measured only for those that pass with it at the best end of its range.
    if floor is not None:
        hopeful = list(feats)
        hopeful[_SMOOTH_RANGE] = _smooth_best(floor[0])
        if _best_case(hopeful, *floor) < 0.0:
            return None  # cannot reach the decision threshold whatever its smooth range, surroundings and marks
    feats[_SMOOTH_RANGE] = _smooth_range(hsv[..., 2], None if light is None else light[y : y + h, x : x + w], region, t)
    if floor is not None and _best_case(feats, *floor) < 0.0:
        return None  # cannot reach the decision threshold whatever its surroundings and marks
    body_level = median(v) if len(v) else 0.0
    marks = _enclosed(blob) & (v_all < 0.6 * body_level)  # dark marks: eyes, spots (not glints, not seams)
    feats[_MARKS] = math.log1p(float(marks.sum()) * (48.0 / t) ** 2) / 3.0
    # The marks cost a flood fill, the surroundings several times that: with the marks
    # known the best case is tighter (a picture's eyes and spots), so ask again.
    if floor is not None and _best_case(feats, *floor, known_marks=True) < 0.0:
        return None
    feats[_SHADOW], feats[_RING], shadow_side = _surroundings(
        labels, index, full_hsv[..., 2] if value is None else value, box, centroid, t, material, body_level
    )
    feats[DARK], feats[DARK + 1] = shadow_side
    if feats[_SHADOW] < SHADOW_FULL:
        # Stepped shading without a cast shadow: drawn facets (see STEPPED_POWER). Only lowers the
        # surface, whose term rises, so the early exits' best cases above stay upper bounds.
        feats[_SURFACE] /= max(1.0, steps) ** STEPPED_POWER
    # The foot: the blob end nearest the camera point, moved in by the foot's radius.
    half_width = max(1.0, (c_hi - c_lo) / 2.0)
    shift = min(a_lo + half_width, (a_lo + a_hi) / 2.0)
    return tuple(feats), (cx + dx * shift, cy + dy * shift)


#: How far (pixels) around a blob's hull the light pixels of a would-be glint are followed (:func:`_own_glint`).
GLINT_REACH = 2


def _own_glint(full_hsv: np.ndarray, box: tuple[int, int, int, int], hull: np.ndarray, bright: np.ndarray) -> int:
    """How many of the light, unsaturated pixels in the blob's hull (``bright``) belong to a glint on the body.

    A specular glint is a highlight on the body's own surface: the body's colour
    surrounds it, so its light patch ends inside the blob's outline. Light paper beside
    a print is not one, though the hull covers it: the pale medallion between a
    crescent's horns or a star's points, a two-tone disc's white button shared with
    its other half. Their light patch runs on past the hull (more than
    :data:`GLINT_REACH` pixels), and only patches that stay within it count. A real
    highlight at the body's rim that touches light board is lost with the paper; telling
    them apart by brightness was tried. Measurements: vision/notes/pawn_features.md.
    """
    if not bright.any():
        return 0
    x, y, w, h = box
    g = GLINT_REACH + 2
    size_y, size_x = full_hsv.shape[:2]
    y0, y1, x0, x1 = max(0, y - g), min(size_y, y + h + g), max(0, x - g), min(size_x, x + w + g)
    win = full_hsv[y0:y1, x0:x1]
    light = ((win[..., 2] > 190) & (win[..., 1] < 90)).view(np.uint8)
    inside = np.zeros(light.shape, np.uint8)
    inside[y - y0 : y - y0 + h, x - x0 : x - x0 + w] = hull
    near = cv2.dilate(inside, _disc(2 * GLINT_REACH + 1)) > 0
    count, patches = cv2.connectedComponents(light, connectivity=8)
    beyond = np.bincount(patches[~near & (light > 0)], minlength=count) > 0
    seeds = np.zeros(light.shape, bool)
    seeds[y - y0 : y - y0 + h, x - x0 : x - x0 + w] = bright
    return int(np.count_nonzero(~beyond[patches[seeds]]))


def _thickness(blob: np.ndarray, t: int) -> float:
    """The radius of the largest disc inside the blob (tiles, at most 0.3): a body is thick, a stroke is not.

    A pawn's foot or head is a solid ~0.2 tile in radius even with a glint cut out of
    it; a printed ring, an outline or a wall's edge is a stroke a few pixels wide
    however large its box (on 40 boards of each of three renderers no pawn blob was
    under 0.06, the rings of start squares 0.04-0.05).
    """
    padded = cv2.copyMakeBorder(blob.view(np.uint8), 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    _, radius, _, _ = cv2.minMaxLoc(cv2.distanceTransform(padded, cv2.DIST_L2, 5))
    return min(float(radius) / t, 0.3)


def _smooth_cv(cv: float, unexplained: float) -> float:
    """``value_cv``: the brightness's spread ``cv``, past :data:`SMOOTH_CV` only what a smooth surface leaves."""
    if cv <= SMOOTH_CV or unexplained > SMOOTH_UNEXPLAINED:
        return cv
    return max(SMOOTH_CV, cv * unexplained)


def _cv(values: np.ndarray) -> float:
    """Coefficient of variation (std over mean, the mean floored at 1) of a non-empty float64 array."""
    mean = float(values.sum()) / len(values)
    d = values - mean
    return math.sqrt(float(d @ d) / len(values)) / max(1.0, mean)


def _std(values: np.ndarray) -> float:
    """``float(np.std(values))`` of a non-empty 1-D float64 array, bit for bit: numpy's own steps (the
    same pairwise sums of the values and of the squared deviations) without its generic reduction's
    set-up, which costs several times the work on a blob's few hundred values (two a shaded blob)."""
    d = values - values.sum() / len(values)
    return math.sqrt(float((d * d).sum()) / len(values))


def _best_case(partial: list[float], model: PawnModel, threshold: float, known_marks: bool = False) -> float:
    """The highest logit the blob can reach over the late features' ranges, minus the threshold's logit.

    Each term is monotone, so its best is at the end of the range its slopes point to.
    With ``known_marks`` the marks are already in ``partial`` (computed first, they are cheap).
    """
    row = list(partial)
    late, lit_rises = _late_best(model)
    for i, best in late:
        if not (known_marks and i == _MARKS):
            row[i] = best
    if lit_rises:  # a blob's lit side has no more say than its shading (known by now)
        row[LIT_CONSENSUS] = lit_say(partial[_SURFACE])
    p = min(max(threshold, 1e-12), 1 - 1e-12)
    return model.logit(row) - math.log(p / (1 - p))


@cache
def _late_best(model: PawnModel) -> tuple[tuple[tuple[int, float], ...], bool]:
    """Each late feature and the end of its range its term is best at, and whether the lit consensus's
    term rises (once per model: the best case is asked ~30 times a frame)."""
    late = tuple((i, hi if model.slope_sign(i) > 0 else lo) for i, lo, hi in _LATE_RANGES)
    return late, model.slope_sign(LIT_CONSENSUS) > 0


def _enclosed(blob: np.ndarray) -> np.ndarray:
    """Pixels the blob surrounds completely but that are not of its colour (eyes, spots, printed detail).

    A printed picture carries marks inside its outline; a pawn's top seen from above is
    one lit body (its only holes are specular glints; the caller keeps dark marks only).
    """
    outside = cv2.copyMakeBorder(blob.view(np.uint8), 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    mask = np.zeros((outside.shape[0] + 2, outside.shape[1] + 2), np.uint8)
    cv2.floodFill(outside, mask, (0, 0), 2)
    return outside[1:-1, 1:-1] == 0


def _least_squares(design: np.ndarray, target: np.ndarray) -> np.ndarray:
    """The least-squares coefficients via the 6x6 normal equations (a fraction of ``lstsq``'s SVD cost).

    The quadratic's columns are centred and in tile units, so the equations are well
    conditioned; a degenerate blob (a line of pixels) falls back to ``lstsq``.
    """
    try:
        return np.linalg.solve(design.T @ design, design.T @ target)
    except np.linalg.LinAlgError:
        return np.linalg.lstsq(design, target, rcond=None)[0]


# Tried and not kept for the shading and cast-shadow measures (a print's facets, the shadow ring's start
# and reference, the lean along the nadir's uncertainty cone): vision/notes/pawn_features.md.
def _smooth_range(raw: np.ndarray, light: np.ndarray | None, inside: tuple[np.ndarray, np.ndarray], t: int) -> float:
    """How much a smooth light field varies over the blob, blind to small printed marks: the brightness's
    10-90 % range (over its 90th percentile) after a median filter (~0.14 tile, wider than an eye or a dot).

    A raised rounded body facing a light has it large (as :func:`_surface`); a flat print small, whatever
    its internal detail. It lies in 0..1 (:data:`_SMOOTH_RANGE_SPAN`). 0 when too few pixels to say.
    """
    ys, xs = inside
    if len(xs) < 6:
        return 0.0
    k = max(3, round(0.14 * t)) | 1
    # The median filter runs on the 8-bit brightness; the light is smooth over its
    # window, so dividing afterwards is dividing before.
    med = cv2.medianBlur(np.ascontiguousarray(raw), k)[ys, xs].astype(np.float64)
    if light is not None:
        med = med / light[ys, xs]
    lo, hi = percentiles(med, (10, 90))
    return float((hi - lo) / max(1.0, hi))


#: The range :func:`_smooth_range` lies in: the brightness is not negative (8-bit over a positive light),
#: so its 10-90 % range is at most its 90th percentile.
_SMOOTH_RANGE_SPAN = (0.0, 1.0)


@cache
def _smooth_best(model: PawnModel) -> float:
    """The end of :data:`_SMOOTH_RANGE_SPAN` the model's smooth-range term is best at (once per model)."""
    lo, hi = _SMOOTH_RANGE_SPAN
    return hi if model.slope_sign(_SMOOTH_RANGE) > 0 else lo


def _surface(
    value: np.ndarray, inside: tuple[np.ndarray, np.ndarray], t: int
) -> tuple[float, tuple[float, float], float, float]:
    """How much a smooth light field varies over the blob: the range of a quadratic surface fitted robustly
    (outliers - marks, glints - dropped) to the brightness, blind to small printed marks.

    A raised rounded body facing a light has it large; a flat print small, whatever
    its internal detail. Also the surface's slope at the centroid (relit
    brightness per tile, x and y): it points to the lit side (see :mod:`vision.pawn_consensus`).
    And how stepped the brightness is (see :data:`STEPPED_POWER`): the first fit's median residual
    over the brightness's median deviation from its median; above 1 the smooth surface explains
    no more than one flat level would (facets, a two-tone picture: the surface's range is then
    the steps', not a light field's). Last, the share of the brightness's standard deviation the
    final (robust) surface leaves unexplained over the same pixels (1.0 when too few to fit;
    see :data:`SMOOTH_UNEXPLAINED`).
    """
    ys, xs = inside
    n = len(xs)
    if n < 6:
        return 0.0, (0.0, 0.0), 0.0, 1.0
    design = np.empty((n, 6))
    design[:, 0] = 1.0
    design[:, 1] = (xs - float(xs.sum()) / n) / t
    design[:, 2] = (ys - float(ys.sum()) / n) / t
    design[:, 3] = design[:, 1] * design[:, 1]
    design[:, 4] = design[:, 2] * design[:, 2]
    design[:, 5] = design[:, 1] * design[:, 2]
    target = value[ys, xs].astype(np.float64)
    coef = _least_squares(design, target)
    fitted = design @ coef
    # Refit once without the outliers (marks, glints), unless too few pixels would be left.
    resid = np.abs(target - fitted)
    typical = median(resid)
    steps = typical / max(1e-6, median(np.abs(target - median(target))))
    keep = resid <= max(4.0, 2.5 * typical)
    # With every pixel kept the refit would solve the very same system (about a quarter of the blobs).
    if 6 <= np.count_nonzero(keep) < n:
        coef = _least_squares(design[keep], target[keep])
        fitted = design @ coef
    f_lo, f_hi = percentiles(fitted, (5, 95))
    surface = float((f_hi - f_lo) / max(1.0, abs(median(fitted))))
    spread = _std(target)
    unexplained = _std(target - fitted) / spread if spread > 1e-6 else 1.0
    # The surface's slope at the centroid points to the lit side.
    return min(surface, 2.0), (float(coef[1]), float(coef[2])), steps, unexplained


@cache
def _disc(size: int) -> np.ndarray:
    """An elliptical structuring element (built once per size)."""
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))


def _surroundings(
    labels: np.ndarray,
    index: int,
    value: np.ndarray,
    box: tuple[int, int, int, int],
    centroid: np.ndarray,
    t: int,
    material: Material | None = None,
    blob_level: float | None = None,
) -> tuple[float, float, tuple[float, float]]:
    """How one-sided the darkness around a blob is (a cast shadow), and the surroundings' level vs the blob's.

    A ring just outside the blob (:data:`SHADOW_REACH` wide) is split in 8 sectors around its centroid; a pawn's
    shadow darkens some sectors, a printed picture's surroundings are even. With the
    board's ``material`` each ring pixel of certain wall or corridor is compared with
    its own material's usual brightness (the others left out): a cast shadow is the
    board darker than itself, while dark wall beside light corridor is only artwork
    (a flat print in a corridor next to walls otherwise had a pawn's "shadow").
    Also the dark side: each sector's shortfall from the brightest, summed as vectors
    (:func:`_dark_side`; for :mod:`vision.pawn_consensus`).

    ``blob_level`` is the blob's median brightness if the caller knows it already.
    """
    x, y, w, h = box
    g = max(3, round(SHADOW_REACH * t))
    y0, y1 = max(0, y - g), min(labels.shape[0], y + h + g)
    x0, x1 = max(0, x - g), min(labels.shape[1], x + w + g)
    sub = (labels[y0:y1, x0:x1] == index).astype(np.uint8)
    outer = cv2.dilate(sub, _disc(2 * g + 1))
    inner = cv2.dilate(sub, np.ones((3, 3), np.uint8))
    ring = (outer > 0) & (inner == 0)
    ys, xs = np.nonzero(ring)
    if len(ys) < 16:
        return 0.0, 1.0, (0.0, 0.0)
    angle = np.arctan2(ys + y0 - centroid[1], xs + x0 - centroid[0])
    sector = ((angle + math.pi) / (2 * math.pi) * 8).astype(np.int64) % 8
    raw = value[y0:y1, x0:x1][ys, xs]
    level = median(raw.astype(np.float64))
    if blob_level is None:
        blob_level = median(value[y0:y1, x0:x1][sub > 0].astype(np.float64)) if sub.any() else 1.0
    ring_level = min(level / max(1.0, blob_level), 3.0)
    if material is not None:
        wall, corridor, wall_level, corridor_level = material
        is_wall, is_corridor = wall[y0:y1, x0:x1][ys, xs], corridor[y0:y1, x0:x1][ys, xs]
        known = is_wall | is_corridor
        if np.count_nonzero(known) >= 16:
            scaled = raw[known] / np.where(is_wall[known], wall_level, corridor_level)
            present, medians = _medians_by_group(np.minimum(scaled, 9.0).astype(np.float32), sector[known], 8)
            return 1.0 - min(medians) / max(1e-3, max(medians)), ring_level, _dark_side(medians, present)
    present, medians = _medians_by_group(raw, sector, 8)
    return 1.0 - min(medians) / max(1.0, max(medians)), ring_level, _dark_side(medians, present)


#: Each of the 8 sectors' middle direction (cosine, sine) around a blob (see :func:`_surroundings`).
_SECTOR_DIRECTIONS = tuple(
    (math.cos(-math.pi + (k + 0.5) * math.pi / 4), math.sin(-math.pi + (k + 0.5) * math.pi / 4)) for k in range(8)
)


def _dark_side(medians: list[float], present: list[int]) -> tuple[float, float]:
    """The direction (from the centroid) the surroundings are darker to: each sector's shortfall from the
    brightest, as a vector along the sector's middle angle, summed (the ``present`` sectors of
    :func:`_surroundings`, with their ``medians``)."""
    top = max(medians)
    sx = sy = 0.0
    for k, level in zip(present, medians, strict=True):
        cos, sin = _SECTOR_DIRECTIONS[k]
        sx += (top - level) * cos
        sy += (top - level) * sin
    return sx, sy


def group_medians(values: np.ndarray, groups: np.ndarray, count: int) -> list[float]:
    """Median of ``values`` per group 0..count-1 (empty groups skipped), with one sort instead of one per group.

    8-bit values sort as one integer key (group x 256 + value), several times faster
    than a lexsort and the same order statistics; so do relit brightnesses (floats in
    0..1e4, at most float32's 24-bit mantissa: group x 1e4 + value is exact in float64).
    """
    return _medians_by_group(values, groups, count)[1]


def _medians_by_group(values: np.ndarray, groups: np.ndarray, count: int) -> tuple[list[int], list[float]]:
    """The non-empty groups and their medians (:func:`group_medians`).

    Only the middle one or two keys of each group are decoded (the same element-wise
    arithmetic as decoding them all, and the same dtype for the pair's sum): a ring's
    few hundred values were decoded in full for 16 of them.
    """
    sizes = np.bincount(groups, minlength=count)
    present = np.flatnonzero(sizes)
    starts = (np.cumsum(sizes) - sizes)[present]
    lo, hi = starts + (sizes[present] - 1) // 2, starts + sizes[present] // 2
    if values.dtype == np.uint8:
        keys = np.sort(groups.astype(np.int64) * 256 + values)
        a, b = ((keys[i] & 255).astype(np.float64) for i in (lo, hi))
    elif values.dtype == np.float32 and values.size and float(values.min()) >= 0.0 and float(values.max()) < 1e4:
        keys = np.sort(groups.astype(np.float64) * 1e4 + values)
        a, b = ((keys[i] - np.floor(keys[i] / 1e4) * 1e4).astype(np.float32) for i in (lo, hi))
    else:
        ordered = values[np.lexsort((values, groups))]
        a, b = ordered[lo], ordered[hi]
    return present.tolist(), [float(pair) / 2.0 for pair in (a + b).tolist()]
