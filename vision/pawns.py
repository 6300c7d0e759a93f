"""Pawns: red, yellow, green and blue pieces standing on the rectified board.

A pawn is a compact, saturated, *raised* object. The board itself may be
colourful (a green hedge look has green walls, the classic frame is blue,
treasure pictures are colourful, the companion's LEDs tint whole squares), so
a colour alone is not enough. What sets a pawn apart:

* compact: a blob a fraction of a tile across, not a wall strip or a frame;
* saturated and *distinct from the board's own colours*: a colour that covers
  a large share of the board (hedge walls, a blue frame) is learned from the
  frame itself and pixels near it do not count as pawn;
* concentrated: an LED tint spreads thinly over a square, a pawn is dense.

Seen slightly from the side, a pawn's body leans away from the camera's
nadir (in the rectified view: away from where the image centre maps), so it
is assigned to the square of its *base*: the blob's end nearest the camera
point, moved in by half the blob's width.

Uncalibrated hue ranges work for the four colours; a colour model from
calibration makes them tighter. ``calibration.json`` schema (all optional)::

    {"pawn_colors": {"red": {"lab": [L, a, b]}, "blue": {"lab": [...]}, ...}}

with OpenCV 8-bit Lab values (L 0..255, a and b offset by 128), the mean colour
of each pawn's body learned at setup. At night a pawn is reported only when
seen with high confidence (``night_min_confidence``); the referee tracks pawns
through the dark.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from companion.board import SIZE, Color, Square
from vision.rectify import Rectified

#: Uncalibrated OpenCV hue ranges (0..180) per colour; red wraps around 0.
HUE_RANGES: dict[Color, tuple[tuple[int, int], ...]] = {
    Color.RED: ((0, 9), (168, 180)),
    Color.YELLOW: ((18, 36),),
    Color.GREEN: ((40, 88),),
    Color.BLUE: ((96, 130),),
}


@dataclass(frozen=True)
class PawnConfig:
    """Pawn thresholds (fractions are of one tile's side or area).

    ``min_saturation``/``min_value``: a pawn pixel is clearly coloured and lit.
    ``min_area``/``max_area``: blob area range in tile areas.
    ``max_extent``: longest blob side in tiles (a pawn leans, so it may exceed its base).
    ``min_fill``: blob area / bounding-box area (compactness).
    ``board_share``: a colour covering more than this share of the tile area is
    part of the board's artwork; its pixels then need ``artwork_distance`` (Lab)
    from the artwork's colour to count.
    ``min_confidence`` / ``night_min_confidence``: report threshold by lighting.
    """

    min_saturation: int = 110
    min_value: int = 70
    min_area: float = 0.05
    max_area: float = 0.9
    max_extent: float = 1.5
    min_fill: float = 0.35
    board_share: float = 0.04
    artwork_distance: float = 28.0
    min_confidence: float = 0.5
    night_min_confidence: float = 0.8
    lab_distance: float = 30.0
    hue_ranges: Mapping[Color, tuple[tuple[int, int], ...]] = field(default_factory=lambda: dict(HUE_RANGES))


@dataclass(frozen=True)
class PawnDetection:
    """A pawn found: colour, square (of its base), confidence, and where (rectified pixels)."""

    color: Color
    square: Square
    confidence: float
    base: tuple[float, float]
    box: tuple[int, int, int, int]
    area: float


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
            if len(triple) == 3:
                lab[color] = triple  # type: ignore[assignment]
        return cls(lab) if lab else None

    def to_calibration(self) -> dict[str, Any]:
        return {"pawn_colors": {str(c): {"lab": [round(v, 1) for v in lab]} for c, lab in self.lab.items()}}


def learn_colour_model(rect: Rectified, pawns: Mapping[Color, Square], config: PawnConfig | None = None) -> ColourModel:
    """Learn the pawns' Lab means from a frame where their squares are known (e.g. the start position)."""
    cfg = config or PawnConfig()
    hsv = cv2.cvtColor(rect.image, cv2.COLOR_BGR2HSV)
    lab = cv2.cvtColor(rect.image, cv2.COLOR_BGR2Lab)
    learned: dict[Color, tuple[float, float, float]] = {}
    for color, (r, c) in pawns.items():
        x0, y0, x1, y1 = _square_region(rect, r, c, grow=0.5)
        mask = _hue_mask(hsv[y0:y1, x0:x1], cfg.hue_ranges[color], cfg)
        if int(mask.sum()) >= 10:
            values = lab[y0:y1, x0:x1][mask > 0].reshape(-1, 3).astype(np.float64)
            learned[color] = tuple(float(v) for v in np.median(values, axis=0))  # type: ignore[assignment]
    return ColourModel(learned)


# --------------------------------------------------------------------------- detection


def find_pawns(
    rect: Rectified,
    config: PawnConfig | None = None,
    model: ColourModel | None = None,
    *,
    lighting: str = "day",
    camera: Iterable[float] | None = None,
) -> list[PawnDetection]:
    """The pawns on the board, at most one per colour (several colours may share a square).

    ``camera`` is the image centre in rectified pixels (where the pawns lean away
    from); by default the board centre.
    """
    cfg = config or PawnConfig()
    t = rect.tile_px
    image = rect.image
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2Lab)
    cam = np.asarray(list(camera) if camera is not None else [rect.size / 2.0] * 2, dtype=np.float64)
    if not np.all(np.isfinite(cam)):
        cam = np.array([rect.size / 2.0] * 2)
    m = rect.margin_px
    board_area = (SIZE * t) ** 2
    lab_f = lab.astype(np.float32)
    detections: list[PawnDetection] = []
    for color, ranges in cfg.hue_ranges.items():
        mask = _hue_mask(hsv, ranges, cfg)
        if model is not None and color in model.lab:
            mask &= _lab_near(lab_f, model.lab[color], cfg.lab_distance)
        inner = mask[m : m + SIZE * t, m : m + SIZE * t]
        share = float(np.count_nonzero(inner)) / board_area
        if share > cfg.board_share and (model is None or color not in model.lab):
            # This colour is part of the artwork: keep only pixels unlike the artwork's typical colour.
            art = np.median(lab_f[mask > 0].reshape(-1, 3), axis=0)
            mask &= ~_lab_near(lab_f, tuple(art), cfg.artwork_distance)
        mask = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, _KERNEL)
        best = _best_blob(mask, hsv, color, cam, rect, cfg)
        if best is None:
            continue
        threshold = cfg.night_min_confidence if lighting == "night" else cfg.min_confidence
        if best.confidence >= threshold:
            detections.append(best)
    return detections


_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))


def _hue_mask(hsv: np.ndarray, ranges: Iterable[tuple[int, int]], cfg: PawnConfig) -> np.ndarray:
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    hue = np.zeros(h.shape, dtype=bool)
    for lo, hi in ranges:
        hue |= (h >= lo) & (h <= hi)
    return hue & (s >= cfg.min_saturation) & (v >= cfg.min_value)


def _lab_near(lab: np.ndarray, ref: Iterable[float], distance: float) -> np.ndarray:
    d = lab - np.asarray(tuple(ref), dtype=np.float32)
    return np.einsum("...i,...i->...", d, d) <= distance * distance


def _best_blob(
    mask: np.ndarray, hsv: np.ndarray, color: Color, cam: np.ndarray, rect: Rectified, cfg: PawnConfig
) -> PawnDetection | None:
    t = rect.tile_px
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    best: PawnDetection | None = None
    for i in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[i])
        rel_area = area / float(t * t)
        if rel_area < cfg.min_area * 0.5 or rel_area > cfg.max_area * 1.5:
            continue
        if max(w, h) > cfg.max_extent * t:
            continue
        fill = area / float(w * h)
        if fill < cfg.min_fill:
            continue
        ys, xs = np.nonzero(labels[y : y + h, x : x + w] == i)
        pts = np.stack([xs + x, ys + y], axis=1).astype(np.float64)
        base = _base_point(pts, cam)
        r = int(np.floor((base[1] - rect.margin_px) / t))
        c = int(np.floor((base[0] - rect.margin_px) / t))
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            continue
        sat = float(hsv[..., 1][y : y + h, x : x + w][labels[y : y + h, x : x + w] == i].mean())
        confidence = _confidence(rel_area, fill, sat, cfg)
        if best is None or confidence > best.confidence:
            best = PawnDetection(color, (r, c), confidence, (float(base[0]), float(base[1])), (x, y, w, h), rel_area)
    return best


def _base_point(pts: np.ndarray, cam: np.ndarray) -> np.ndarray:
    """The pawn's foot: the blob end nearest the camera point, moved in by half the blob's width."""
    centroid = pts.mean(axis=0)
    direction = centroid - cam
    norm = float(np.hypot(*direction))
    if norm < 1e-6:
        return centroid
    d = direction / norm
    along = (pts - centroid) @ d
    across = (pts - centroid) @ np.array([-d[1], d[0]])
    half_width = max(1.0, float(np.percentile(across, 95) - np.percentile(across, 5)) / 2.0)
    near = float(np.percentile(along, 3))
    far = float(np.percentile(along, 97))
    offset = min(near + half_width, (near + far) / 2.0)
    return centroid + d * offset


def _confidence(rel_area: float, fill: float, saturation: float, cfg: PawnConfig) -> float:
    """A 0..1 score from size, compactness and saturation (each a soft ramp)."""
    size = min(1.0, rel_area / cfg.min_area) if rel_area < cfg.max_area else max(0.0, 1.5 - rel_area / cfg.max_area)
    compact = min(1.0, max(0.0, (fill - cfg.min_fill * 0.5) / (0.7 - cfg.min_fill * 0.5)))
    sat = min(1.0, max(0.0, (saturation - cfg.min_saturation * 0.7) / 90.0))
    return float(size * (0.4 + 0.6 * compact) * (0.3 + 0.7 * sat))


def _square_region(rect: Rectified, r: int, c: int, grow: float = 0.0) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = rect.tile_box(r, c)
    g = round(grow * rect.tile_px)
    size = rect.image.shape[0]
    return max(0, x0 - g), max(0, y0 - g), min(size, x1 + g), min(size, y1 + g)


def covered_squares(detections: Iterable[PawnDetection], rect: Rectified) -> set[Square]:
    """Squares whose tile a pawn hides (its base square and the squares its body leans over)."""
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
