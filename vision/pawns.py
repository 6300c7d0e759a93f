"""Pawns: red, yellow, green and blue pieces standing on the rectified board.

A pawn is a compact, saturated, *raised* object. The board itself may be
colourful — a green hedge look has green walls, the classic frame is blue,
treasure pictures are colourful, start squares carry coloured rings, the
companion's LEDs tint whole squares — so colour alone is not enough:

1. **Candidates.** Pixels of a pawn hue (clearly saturated and lit) inside the
   tile area, minus *the board's own artwork*: pixels that look like this frame's
   corridor (a Gaussian learned on the corridor arms the read openings point to)
   are dropped anywhere, and pixels that look like its walls (learned where the
   openings say "wall") everywhere but the corridor's core. Colours are compared
   in shade-invariant chromaticity (:func:`vision.occlusion.shade_invariant`), so
   a shadow or a light pool on the artwork is still artwork. A green pawn on a
   green hedge then no longer merges with the hedge, yet keeps its highlights,
   its shaded side, and everything standing over the corridor.
2. **Evidence.** Each connected blob is described by edition-free facts of a
   raised, lit solid: its size and compactness (a pawn's foot is ~0.4 tile
   across), saturation, *shading* — a round body facing a light has a lit and a
   shaded side, a smooth light field measured away from the blob's rim and blind
   to small marks (the brightness range after a median filter wider than a
   printed eye or dot, and the range of a quadratic surface fitted with the marks
   and glints left out) — a specular glint, a one-sided shadow around it, and its
   elongation away from the camera. Against flat artwork: dark marks enclosed by
   the blob (a picture's eyes and spots; a pawn's top is one body, its only holes
   bright glints). Blobs thinner than ``min_width`` are lines of artwork.
3. **Decision.** A logistic score over those features (:data:`PAWN_WEIGHTS`)
   gives a confidence. It was fitted on ~2400 blobs of 210 boards from two
   independent renderers (the team's four looks and a held-out renderer with other
   artwork, pawn shapes and lighting), with each weight's sign fixed by the physics
   above (more shading, glint, shadow, lean, solidity count *for* a pawn; marks
   *against*), so a feature can only say what it means. (Fine brightness detail
   and a thin dark outline all round were tried as evidence of print and earned
   no weight.)
   Features that describe one renderer's artwork rather than a pawn (how large a
   blob may be, its offset from the tile centre, its surroundings' brightness) get
   no weight. Each colour is reported at most once (its best blob) and only above
   ``min_confidence``; at night above ``night_min_confidence`` ("report a pawn
   only when really seen": the referee tracks pawns in the dark).

A pawn leans away from the camera's nadir, so it is assigned to the square of
its *base*: the blob's end nearest the camera point, moved in by the foot's
radius.

Uncalibrated hue ranges work for the four colours; calibration narrows them.
``calibration.json`` schema (all optional)::

    {"pawn_colors": {"red": {"lab": [L, a, b]}, "blue": {"lab": [...]}, ...}}

OpenCV 8-bit Lab values (L 0..255, a and b offset by 128) of each pawn's body,
learned at setup with :func:`learn_colour_model`; a calibrated colour's hue range
becomes its learned hue ± ``calibrated_hue_tolerance``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

import cv2
import numpy as np

from companion.board import SIZE, Color, Square
from companion.observation import TileReading
from vision.occlusion import shade_invariant
from vision.rectify import Rectified

#: Uncalibrated OpenCV hue ranges (0..180) per colour; red wraps around 0. Yellow reaches
#: far toward green (a bluish colour cast turns a yellow pawn lime), not toward orange
#: (ochre and sand artwork); purple/magenta belong to no pawn.
HUE_RANGES: dict[Color, tuple[tuple[int, int], ...]] = {
    Color.RED: ((0, 10), (165, 180)),
    Color.YELLOW: ((17, 42),),
    Color.GREEN: ((43, 88),),
    Color.BLUE: ((92, 135),),
}

FEATURES: tuple[str, ...] = (
    "log_area", "log_area_small", "log_area_large", "fill", "extent", "saturation", "inner_cv", "inner_range",
    "value_cv", "dark_share", "glint", "centre_offset", "solidity", "elongation", "shadow", "ring_level",
    "marks", "smooth_range", "surface", "width",
)  # fmt: skip

_WIDTH = FEATURES.index("width")

#: Logistic weights over :data:`FEATURES` (then the bias), standardisation folded in.
PAWN_WEIGHTS: tuple[float, ...] = (
    -2.264, 5.412, 0, -14.43, 0, 0.7746, 0, 0, -14.43, 2.165, 1.355, 0, 22.6, 3.208, 1.279, 0, -6.646, 16.12, 2.896, 0,
    -14.79,
)  # fmt: skip


@dataclass(frozen=True)
class PawnConfig:
    """Pawn thresholds.

    ``min_saturation``/``min_value``: a candidate pixel is clearly coloured and lit.
    ``min_area``: blobs smaller than this (tile areas) are noise or print, not pawns
    (no pawn blob of the ~1000 rendered ones measured was under 0.06).
    ``max_area``/``max_extent``: blobs larger (tile areas) or longer (tiles) are artwork
    (a frame, a wall run), not a pawn, even a leaning one; ``min_fill``: blobs filling
    less of their bounding box are curves or rings; ``min_width``: blobs narrower (tiles,
    the short side of their smallest enclosing rectangle) are lines of artwork - a wall's edge, a
    stripe - (the narrowest of ~300 pawn blobs measured, partly hidden ones included,
    was 0.17).
    ``wall_zone``: distance from a tile's corridor centre lines (tiles) beyond which
    the tile is wall whatever the edition (corridors are at most ~0.5 tile wide);
    the wall colour is learned there.
    ``corridor_core``: distance within which the tile is corridor whatever the edition
    (corridors are at least ~0.28 tile wide); pawn-coloured pixels there are kept even
    when they look like the walls, everywhere else wall-like pixels are dropped.
    ``wall_distance2``: squared Mahalanobis distance to the wall (or corridor) colour
    under which a pixel is artwork; ``shade_invariant_artwork``/``artwork_lightness_weight``:
    compare in chromaticity plus a little lightness (else in Lab).
    ``min_confidence``/``night_min_confidence``: report thresholds by lighting. By day 0.5:
    on the fit's boards 0.45-0.6 made about as few per-colour mistakes (0.5 also keeps
    a flat green LED pool on a team-renderer fixture out; an artwork blob reported as a
    pawn costs the referee more than a pawn it tracks unseen). At night
    0.995: on 40 rendered nights of both renderers the colours of dark pawns hardly made
    a blob (the one that did scored 0.05) while glowing or lit artwork blobs scored up
    to 0.992 - in the dark a pawn is reported only when it is unmistakable.
    ``weights``: the logistic model (see module doc).
    """

    min_saturation: int = 90
    min_value: int = 40
    min_area: float = 0.05
    max_area: float = 1.2
    min_width: float = 0.15
    max_extent: float = 1.6
    min_fill: float = 0.3
    wall_zone: float = 0.27
    corridor_core: float = 0.12
    wall_distance2: float = 6.0
    min_confidence: float = 0.5
    shade_invariant_artwork: bool = True
    artwork_lightness_weight: float = 0.2
    night_min_confidence: float = 0.995
    calibrated_hue_tolerance: int = 12
    weights: tuple[float, ...] = PAWN_WEIGHTS
    hue_ranges: Mapping[Color, tuple[tuple[int, int], ...]] = field(default_factory=lambda: dict(HUE_RANGES))


@dataclass(frozen=True)
class PawnDetection:
    """A pawn found: colour, square (of its base), confidence, and where (rectified pixels).

    ``pixels`` are the blob's pixels inside ``box`` (x, y, w, h), so later stages can
    look past the pawn (see :func:`erase`).
    """

    color: Color
    square: Square
    confidence: float
    base: tuple[float, float]
    box: tuple[int, int, int, int]
    area: float
    pixels: np.ndarray | None = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class Candidate:
    """A blob of one pawn colour with its features (for the decision and for tuning)."""

    color: Color
    features: tuple[float, ...]
    base: tuple[float, float]
    box: tuple[int, int, int, int]
    area: float
    labels: np.ndarray = field(repr=False, compare=False)
    index: int = 0


@dataclass(frozen=True)
class ColourModel:
    """Per-colour mean Lab of the pawns, learned at calibration."""

    lab: Mapping[Color, tuple[float, float, float]]

    @classmethod
    def from_calibration(cls, calibration: Mapping[str, Any] | None) -> ColourModel | None:
        """The model in ``calibration["pawn_colors"]``, or None when absent or malformed."""
        raw = (calibration or {}).get("pawn_colors")
        if not isinstance(raw, Mapping):
            return None
        lab: dict[Color, tuple[float, float, float]] = {}
        for key, value in raw.items():
            try:
                color = Color(key)
                values = value["lab"] if isinstance(value, Mapping) else value
                triple = tuple(float(v) for v in values)
            except (ValueError, TypeError, KeyError):
                continue
            if len(triple) == 3 and all(math.isfinite(v) for v in triple):
                lab[color] = triple  # type: ignore[assignment]
        return cls(lab) if lab else None

    def to_calibration(self) -> dict[str, Any]:
        return {"pawn_colors": {str(c): {"lab": [round(v, 1) for v in lab]} for c, lab in self.lab.items()}}

    def hue_ranges(self, base: Mapping[Color, tuple[tuple[int, int], ...]], tolerance: int) -> dict:
        """``base`` with each calibrated colour's range replaced by its learned hue ± ``tolerance``."""
        out = dict(base)
        for color, lab in self.lab.items():
            pixel = np.clip(np.array([[lab]], dtype=np.float32), 0, 255).astype(np.uint8)
            hue = int(cv2.cvtColor(cv2.cvtColor(pixel, cv2.COLOR_Lab2BGR), cv2.COLOR_BGR2HSV)[0, 0, 0])
            lo, hi = hue - tolerance, hue + tolerance
            if lo < 0:
                out[color] = ((0, hi), (180 + lo, 180))
            elif hi > 180:
                out[color] = ((lo, 180), (0, hi - 180))
            else:
                out[color] = ((lo, hi),)
        return out


def learn_colour_model(rect: Rectified, pawns: Mapping[Color, Square], config: PawnConfig | None = None) -> ColourModel:
    """Learn the pawns' Lab medians from a frame where their squares are known (e.g. the start position)."""
    cfg = config or PawnConfig()
    hsv = cv2.cvtColor(rect.image, cv2.COLOR_BGR2HSV)
    lab = cv2.cvtColor(rect.image, cv2.COLOR_BGR2Lab)
    learned: dict[Color, tuple[float, float, float]] = {}
    for color, (r, c) in pawns.items():
        x0, y0, x1, y1 = rect.tile_box(r, c)
        g = rect.tile_px // 3
        region = (slice(max(0, y0 - g), y1 + g), slice(max(0, x0 - g), x1 + g))
        mask = _hue_mask(hsv[region], cfg.hue_ranges[color], cfg)
        if int(mask.sum()) >= 10:
            values = lab[region][mask].reshape(-1, 3).astype(np.float64)
            learned[color] = tuple(float(v) for v in np.median(values, axis=0))  # type: ignore[assignment]
    return ColourModel(learned)


# --------------------------------------------------------------------------- wall zones


@cache
def _zone_masks(tile_px: int, zone: float, core: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per opening mask (16, t, t): certain wall, certain corridor, and corridor *arms*.

    Certain wall: farther than ``zone`` (tiles) from the corridor centre lines.
    Certain corridor: within ``core`` of them. Arms: certain corridor farther than
    0.3 tile from the tile's centre, where no picture or pawn foot sits.
    """
    t = tile_px
    yy, xx = np.mgrid[0:t, 0:t].astype(np.float64)
    c = (t - 1) / 2.0
    px, py = xx - c, yy - c
    radius = np.hypot(px, py)
    wall = np.zeros((16, t, t), dtype=bool)
    corridor = np.zeros((16, t, t), dtype=bool)
    for mask in range(16):
        dist = radius.copy()
        for bit, (dx, dy) in ((1, (0, -1)), (2, (1, 0)), (4, (0, 1)), (8, (-1, 0))):
            if mask & bit:
                along = np.clip(px * dx + py * dy, 0, t / 2.0)
                dist = np.minimum(dist, np.hypot(px - along * dx, py - along * dy))
        wall[mask] = dist > zone * t
        corridor[mask] = dist <= core * t
    arms = corridor & (radius > 0.3 * t)[None]
    return wall, corridor, arms


def zones(rect: Rectified, tiles: Sequence[TileReading], zone: float = 0.27, core: float = 0.12) -> np.ndarray:
    """(3, H, W) booleans over the rectified image: certain wall, certain corridor, corridor arms.

    From the read openings; outside the tile area all three are False.
    """
    t, m = rect.tile_px, rect.margin_px
    shapes = np.array([int(r.openings) for r in tiles], dtype=np.int64).reshape(SIZE, SIZE)
    out = np.zeros((3, *rect.image.shape[:2]), dtype=bool)
    for k, per_shape in enumerate(_zone_masks(t, zone, core)):
        board = per_shape[shapes].transpose(0, 2, 1, 3).reshape(SIZE * t, SIZE * t)
        out[k, m : m + SIZE * t, m : m + SIZE * t] = board
    return out


def _gaussian(samples: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Robust mean and inverse covariance of ``samples`` ((n, 3) float64; None when too few)."""
    if len(samples) < 50:
        return None
    keep = samples
    for _ in range(3):
        mu = keep.mean(axis=0)
        cov = np.cov(keep.T) + np.eye(3) * 4.0
        inv = np.linalg.inv(cov)
        d = samples - mu
        keep = samples[np.einsum("ij,jk,ik->i", d, inv, d) < 9.0]
        if len(keep) < 30:
            return None
    return keep.mean(axis=0), np.linalg.inv(np.cov(keep.T) + np.eye(3) * 4.0)


# --------------------------------------------------------------------------- detection


def _hue_only(h: np.ndarray, ranges: Iterable[tuple[int, int]]) -> np.ndarray:
    """Pixels whose OpenCV hue ``h`` lies in one of ``ranges`` (inclusive)."""
    hue = np.zeros(h.shape, dtype=bool)
    for lo, hi in ranges:
        hue |= (h >= lo) & (h <= hi)
    return hue


def _hue_mask(hsv: np.ndarray, ranges: Iterable[tuple[int, int]], cfg: PawnConfig) -> np.ndarray:
    """Pixels of a pawn hue that are clearly saturated and lit."""
    return _hue_only(hsv[..., 0], ranges) & (hsv[..., 1] >= cfg.min_saturation) & (hsv[..., 2] >= cfg.min_value)


def candidates(
    rect: Rectified,
    tiles: Sequence[TileReading] | None,
    config: PawnConfig | None = None,
    model: ColourModel | None = None,
    camera: Iterable[float] | None = None,
) -> list[Candidate]:
    """Every blob of a pawn colour in the tile area, with its features (see module doc)."""
    cfg = config or PawnConfig()
    t, m = rect.tile_px, rect.margin_px
    hsv = cv2.cvtColor(rect.image, cv2.COLOR_BGR2HSV)
    inside = np.zeros(hsv.shape[:2], dtype=bool)
    inside[m : m + SIZE * t, m : m + SIZE * t] = True
    ranges = model.hue_ranges(cfg.hue_ranges, cfg.calibrated_hue_tolerance) if model else cfg.hue_ranges
    # Saturation, value and the tile area are the same test for every colour: computed once.
    lit = (hsv[..., 1] >= cfg.min_saturation) & (hsv[..., 2] >= cfg.min_value) & inside
    masks = {color: _hue_only(hsv[..., 0], rng) & lit for color, rng in ranges.items()}
    if tiles is not None and len(tiles) == SIZE * SIZE:
        masks = _drop_artwork(rect, tiles, masks, cfg)
    cam = np.asarray(list(camera) if camera is not None else [rect.size / 2.0] * 2, dtype=np.float64)
    if cam.shape != (2,) or not np.all(np.isfinite(cam)):
        cam = np.array([rect.size / 2.0] * 2)
    k = max(3, round(t / 16)) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    out: list[Candidate] = []
    for color, mask in masks.items():
        mask8 = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, kernel)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(mask8, connectivity=8)
        for i in range(1, count):
            x, y, w, h, area = (int(v) for v in stats[i])
            rel = area / float(t * t)
            if rel < cfg.min_area or rel > cfg.max_area or max(w, h) > cfg.max_extent * t:
                continue
            if area < cfg.min_fill * w * h:  # a thin curve or a ring, not a solid
                continue
            feats, base = _features(labels, i, hsv, (x, y, w, h), cam, rect)
            if feats[_WIDTH] < cfg.min_width:  # a line of artwork (a wall's edge, a stripe), not a body
                continue
            out.append(Candidate(color, feats, base, (x, y, w, h), rel, labels, i))
    return out


def _drop_artwork(
    rect: Rectified, tiles: Sequence[TileReading], masks: dict[Color, np.ndarray], cfg: PawnConfig
) -> dict[Color, np.ndarray]:
    """Remove pixels that look like this frame's corridor (anywhere) or walls (outside the corridor core)."""
    wall, corridor, arms = zones(rect, tiles, cfg.wall_zone, cfg.corridor_core)
    coloured = np.logical_or.reduce(list(masks.values())) if masks else np.zeros(wall.shape, dtype=bool)
    ys, xs = np.nonzero(coloured)
    if len(ys) == 0:
        return masks
    width = wall.shape[1]
    # The colour transform is per pixel, so it is computed only where it is read: the
    # coloured pixels and every 11th pixel of each learning zone (as ``_gaussian`` samples).
    flat = (ys * width + xs, np.flatnonzero(wall)[::11], np.flatnonzero(arms)[::11])
    values, wall_samples, arm_samples = _artwork_colours(rect.image, flat, cfg)
    artwork = np.zeros(len(ys), dtype=bool)
    for samples, where in ((wall_samples, ~corridor[ys, xs]), (arm_samples, np.ones(len(ys), dtype=bool))):
        gauss = _gaussian(samples)
        if gauss is None:
            continue
        mu, inv = gauss
        d = values - mu
        artwork |= where & (np.einsum("ij,jk,ik->i", d, inv, d) < cfg.wall_distance2)
    drop = np.zeros(wall.shape, dtype=bool)
    drop[ys[artwork], xs[artwork]] = True
    return {color: mask & ~drop for color, mask in masks.items()}


def _artwork_colours(image: np.ndarray, flat: Sequence[np.ndarray], cfg: PawnConfig) -> list[np.ndarray]:
    """The artwork comparison colours (float64, (n, 3)) of the pixels at each array of flat indices.

    Shade-invariant chromaticity is a per-pixel formula, so it is applied to the few
    gathered pixels only (the same numbers as over the whole image, at a fraction of
    the cost); Lab goes through OpenCV on the whole image as before.
    """
    if cfg.shade_invariant_artwork:
        pixels = image.reshape(-1, image.shape[2])
        weight = cfg.artwork_lightness_weight
        return [shade_invariant(pixels[i][:, None, :], weight).reshape(-1, 3).astype(np.float64) for i in flat]
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2Lab).reshape(-1, 3)
    return [lab[i].astype(np.float64) for i in flat]


def _features(
    labels: np.ndarray,
    index: int,
    full_hsv: np.ndarray,
    box: tuple[int, int, int, int],
    cam: np.ndarray,
    rect: Rectified,
) -> tuple[tuple[float, ...], tuple[float, float]]:
    t, m = rect.tile_px, rect.margin_px
    x, y, w, h = box
    origin = (x, y)
    blob = labels[y : y + h, x : x + w] == index
    hsv = full_hsv[y : y + h, x : x + w]
    area = float(blob.sum())
    s = hsv[..., 1][blob].astype(np.float64)
    v_all = hsv[..., 2]
    v = v_all[blob].astype(np.float64)
    k = max(3, round(t / 10)) | 1
    # Outside the box counts as background (the blob's rim at the box edge erodes too).
    inner = cv2.erode(blob.view(np.uint8), np.ones((k, k), np.uint8), borderType=cv2.BORDER_CONSTANT, borderValue=0) > 0
    vin = v_all[inner].astype(np.float64) if inner.sum() >= 5 else v
    p10, p90 = _percentiles(vin, (10, 90))
    (p95,) = _percentiles(v, (95,))
    ys, xs = np.nonzero(blob)
    pts = np.stack([xs + origin[0], ys + origin[1]], axis=1).astype(np.float64)
    hull_pts = np.stack([xs, ys], axis=1).astype(np.int32)
    hull = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(hull, cv2.convexHull(hull_pts), 1)
    holes = (hull > 0) & ~blob
    shine = (v_all > 190) & (hsv[..., 1] < 90)
    glint = float((holes & shine).sum()) * (48.0 / t) ** 2
    body_level = _median(v) if len(v) else 0.0
    marks = _enclosed(blob) & (v_all < 0.6 * body_level)  # dark marks: eyes, spots (not glints, not seams)
    marks_px = float(marks.sum()) * (48.0 / t) ** 2
    smooth_range, surface = _shading(v_all, inner if inner.sum() >= 5 else blob, t)
    centroid = pts.mean(axis=0)
    offset = math.hypot(((centroid[0] - m) / t) % 1 - 0.5, ((centroid[1] - m) / t) % 1 - 0.5)
    direction = centroid - cam
    norm = math.hypot(*direction)
    d = direction / norm if norm > 1e-6 else np.array([1.0, 0.0])
    along = (pts - centroid) @ d
    across = (pts - centroid) @ np.array([-d[1], d[0]])
    a_lo, a_hi = _percentiles(along, (5, 95))
    c_lo, c_hi = _percentiles(across, (5, 95))
    elongation = (a_hi - a_lo + 1.0) / (c_hi - c_lo + 1.0)
    shadow, ring_level = _surroundings(labels, index, full_hsv, box, centroid, t)
    log_area = math.log(max(area / (t * t), 1e-3) / 0.16)
    feats = (
        log_area,
        min(log_area, 0.0),
        max(log_area, 0.0),
        area / float(w * h),
        min(max(w, h) / t, 2.0),
        float(s.mean()) / 255.0,
        float(vin.std() / max(1.0, vin.mean())),
        float((p90 - p10) / max(1.0, p90)),
        float(v.std() / max(1.0, v.mean())),
        float((v < 0.6 * p95).mean()),
        math.log1p(glint) / 3.0,
        min(offset, 0.7),
        area / max(1.0, float(hull.sum())),
        min(float(elongation), 2.2),
        shadow,
        ring_level,
        math.log1p(marks_px) / 3.0,
        smooth_range,
        surface,
        min((min(cv2.minAreaRect(hull_pts)[1]) + 1.0) / t, 0.6),
    )
    # The foot: the blob end nearest the camera point, moved in by the foot's radius.
    half_width = max(1.0, (c_hi - c_lo) / 2.0)
    shift = min(a_lo + half_width, (a_lo + a_hi) / 2.0)
    base = centroid + d * shift
    return feats, (float(base[0]), float(base[1]))


def _enclosed(blob: np.ndarray) -> np.ndarray:
    """Pixels the blob surrounds completely but that are not of its colour (eyes, spots, printed detail).

    A printed picture carries marks inside its outline; a pawn's top seen from above is
    one lit body (its only holes are specular glints; the caller keeps dark marks only).
    """
    padded = np.pad(blob.astype(np.uint8), 1)
    outside = padded.copy()
    mask = np.zeros((padded.shape[0] + 2, padded.shape[1] + 2), np.uint8)
    cv2.floodFill(outside, mask, (0, 0), 2)
    return (outside[1:-1, 1:-1] == 0)


def _shading(value: np.ndarray, inside: np.ndarray, t: int) -> tuple[float, float]:
    """How much a smooth light field varies over the blob: its lit and its shaded side.

    Two measures blind to small printed marks: the brightness range after a median
    filter (~0.14 tile, wider than an eye or a dot) and the range of a quadratic
    surface fitted robustly (outliers - marks, glints - dropped) to the brightness.
    A raised rounded body facing a light has both large; a flat print has both small,
    whatever its internal detail.
    """
    k = max(3, round(0.14 * t)) | 1
    v8 = np.ascontiguousarray(value)
    med = cv2.medianBlur(v8, k)[inside].astype(np.float64)
    if len(med) < 6:
        return 0.0, 0.0
    lo, hi = _percentiles(med, (10, 90))
    smooth_range = float((hi - lo) / max(1.0, hi))
    ys, xs = np.nonzero(inside)
    xs = (xs - xs.mean()) / t
    ys = (ys - ys.mean()) / t
    design = np.column_stack([np.ones(len(xs)), xs, ys, xs * xs, ys * ys, xs * ys])
    target = value[inside].astype(np.float64)
    keep = np.ones(len(target), dtype=bool)
    fitted = target
    for _ in range(2):
        coef, *_ = np.linalg.lstsq(design[keep], target[keep], rcond=None)
        fitted = design @ coef
        resid = np.abs(target - fitted)
        keep = resid <= max(4.0, 2.5 * _median(resid))
        if keep.sum() < 6:
            break
    f_lo, f_hi = _percentiles(fitted, (5, 95))
    surface = float((f_hi - f_lo) / max(1.0, abs(_median(fitted))))
    return smooth_range, min(surface, 2.0)


def _surroundings(
    labels: np.ndarray, index: int, hsv: np.ndarray, box: tuple[int, int, int, int], centroid: np.ndarray, t: int
) -> tuple[float, float]:
    """How one-sided the darkness around a blob is (a cast shadow), and the surroundings' level vs the blob's.

    A ring just outside the blob is split in 8 sectors around its centroid; a pawn's
    shadow darkens some sectors, a printed picture's surroundings are even.
    """
    x, y, w, h = box
    g = max(3, round(0.14 * t))
    y0, y1 = max(0, y - g), min(labels.shape[0], y + h + g)
    x0, x1 = max(0, x - g), min(labels.shape[1], x + w + g)
    sub = (labels[y0:y1, x0:x1] == index).astype(np.uint8)
    outer = cv2.dilate(sub, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * g + 1, 2 * g + 1)))
    inner = cv2.dilate(sub, np.ones((3, 3), np.uint8))
    ring = (outer > 0) & (inner == 0)
    v = hsv[y0:y1, x0:x1, 2].astype(np.float64)
    ys, xs = np.nonzero(ring)
    if len(ys) < 16:
        return 0.0, 1.0
    angle = np.arctan2(ys + y0 - centroid[1], xs + x0 - centroid[0])
    sector = ((angle + math.pi) / (2 * math.pi) * 8).astype(np.int64) % 8
    raw = hsv[y0:y1, x0:x1, 2][ys, xs]
    values = raw.astype(np.float64)
    medians = _group_medians(raw, sector, 8)
    level = _median(values)
    blob_level = _median(v[sub > 0]) if sub.any() else 1.0
    shadow = 1.0 - min(medians) / max(1.0, max(medians))
    return shadow, min(level / max(1.0, blob_level), 3.0)


def _group_medians(values: np.ndarray, groups: np.ndarray, count: int) -> list[float]:
    """Median of ``values`` per group 0..count-1 (empty groups skipped), with one sort instead of one per group.

    8-bit values sort as one integer key (group x 256 + value), several times faster
    than a lexsort and the same order statistics.
    """
    if values.dtype == np.uint8:
        ordered = (np.sort(groups.astype(np.int64) * 256 + values) & 255).astype(np.float64)
    else:
        ordered = values[np.lexsort((values, groups))]
    sizes = np.bincount(groups, minlength=count)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    out = []
    for start, size in zip(starts, sizes, strict=True):
        if size:
            lo, hi = start + (size - 1) // 2, start + size // 2
            out.append(float(ordered[lo] + ordered[hi]) / 2.0)
    return out


def _percentiles(values: np.ndarray, percents: Sequence[float]) -> list[float]:
    """``np.percentile(values, percents)`` (linear method) bit for bit, for a small 1-D float64 array.

    One partition and plain float arithmetic: the features take ~10 percentiles and
    medians per blob, and ``np.percentile``'s general machinery costs several times
    the work itself on arrays this small. The index and interpolation formulas are
    numpy's (``(n - 1) * q`` and its two-sided lerp), so the numbers are identical.
    """
    n = len(values)
    if n == 0:
        return [float(v) for v in np.percentile(values, list(percents))]
    positions = [(n - 1) * (p / 100) for p in percents]
    lows = [min(math.floor(x), n - 1) for x in positions]
    highs = [min(lo + 1, n - 1) for lo in lows]
    ordered = np.partition(values, sorted(set(lows) | set(highs)))
    out = []
    for x, lo, hi in zip(positions, lows, highs, strict=True):
        a, b = float(ordered[lo]), float(ordered[hi])
        if x >= n - 1:
            out.append(b)
            continue
        gamma = x - lo
        diff = b - a
        out.append(b - diff * (1 - gamma) if gamma >= 0.5 else a + diff * gamma)
    return out


def _median(values: np.ndarray) -> float:
    """``np.median`` of a non-empty 1-D float64 array, bit for bit (the mean of the middle one or two)."""
    n = len(values)
    half = n // 2
    if n % 2:
        return float(np.partition(values, half)[half])
    ordered = np.partition(values, (half - 1, half))
    return (float(ordered[half - 1]) + float(ordered[half])) / 2.0


def confidence(features: Sequence[float], weights: Sequence[float] = PAWN_WEIGHTS) -> float:
    """The logistic model's probability that a blob is a pawn."""
    z = float(np.dot(np.asarray(features, dtype=np.float64), np.asarray(weights[:-1], dtype=np.float64)))
    z += float(weights[-1])
    return 1.0 / (1.0 + math.exp(-min(max(z, -50.0), 50.0)))


def find_pawns(
    rect: Rectified,
    tiles: Sequence[TileReading] | None = None,
    config: PawnConfig | None = None,
    model: ColourModel | None = None,
    *,
    lighting: str = "day",
    camera: Iterable[float] | None = None,
) -> list[PawnDetection]:
    """The pawns on the board, at most one per colour (several colours may share a square).

    ``tiles`` (the board's read openings) locate the walls; ``camera`` is the image
    centre in rectified pixels (pawns lean away from it; default: the board centre).
    """
    cfg = config or PawnConfig()
    threshold = cfg.night_min_confidence if lighting == "night" else cfg.min_confidence
    best: dict[Color, tuple[float, Candidate]] = {}
    for cand in candidates(rect, tiles, cfg, model, camera):
        p = confidence(cand.features, cfg.weights)
        if p >= threshold and (cand.color not in best or p > best[cand.color][0]):
            best[cand.color] = (p, cand)
    t, m = rect.tile_px, rect.margin_px
    out = []
    for color in (c for c in Color if c in best):
        p, cand = best[color]
        r = min(SIZE - 1, max(0, int((cand.base[1] - m) // t)))
        c = min(SIZE - 1, max(0, int((cand.base[0] - m) // t)))
        x, y, w, h = cand.box
        pixels = cand.labels[y : y + h, x : x + w] == cand.index
        out.append(PawnDetection(color, (r, c), p, cand.base, cand.box, cand.area, pixels))
    return out


def covered_squares(detections: Iterable[PawnDetection], rect: Rectified) -> set[Square]:
    """Squares whose tile a pawn hides: its base square and the squares its body leans over."""
    t, m = rect.tile_px, rect.margin_px
    covered: set[Square] = set()
    for d in detections:
        covered.add(d.square)
        x, y, w, h = d.box
        for px, py in ((x, y), (x + w - 1, y), (x, y + h - 1), (x + w - 1, y + h - 1)):
            r, c = int((py - m) // t), int((px - m) // t)
            if 0 <= r < SIZE and 0 <= c < SIZE:
                covered.add((r, c))
    return covered


def erase(rect: Rectified, detections: Sequence[PawnDetection], grow: float = 0.0) -> Rectified:
    """A copy of ``rect`` with the pawns painted out (inpainted from the board around them).

    A pawn standing on a tile hides part of its openings; the tile reader then sees
    the board around the pawn continued inward instead of the pawn's own colours.
    ``grow`` widens each blob (tiles) beyond a 1-pixel rim; wider inpainting smears
    walls over corridors (on 200 rendered boards: 16 misread tiles unpainted, 5 with
    no growth, 10 at 0.06, 20 at 0.12).
    """
    if not detections:
        return rect
    image = rect.image.copy()
    k = max(3, 2 * round(grow * rect.tile_px) + 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    pad = k + 4
    size_y, size_x = image.shape[:2]
    for d in detections:
        if d.pixels is None:
            continue
        x, y, w, h = d.box
        x0, y0 = max(0, x - pad), max(0, y - pad)
        x1, y1 = min(size_x, x + w + pad), min(size_y, y + h + pad)
        mask = np.zeros((y1 - y0, x1 - x0), dtype=np.uint8)
        mask[y - y0 : y - y0 + h, x - x0 : x - x0 + w] = d.pixels.astype(np.uint8)
        mask = cv2.dilate(mask, kernel)
        image[y0:y1, x0:x1] = cv2.inpaint(image[y0:y1, x0:x1], mask, 3, cv2.INPAINT_TELEA)
    return replace(rect, image=image)
