"""Tile openings: which sides of each of the 49 tiles are open, learned per frame.

Nothing here knows what an edition looks like. Every frame teaches the reader
what corridor and wall look like *in that frame*, from facts true of every
Labyrinth board:

* the 16 fixed tiles have known openings: 44 known-open and 20 known-closed
  edges, sampled exactly where every other tile's edges are sampled;
* a tile's four corners are always wall.

Each sampled region is described by its mean Lab colour, its texture (the
standard deviation of L) and its shade-free chroma (a* and b* over L* + 16,
which a shadow leaves unchanged), *minus the same description of the tile's own
corners*, twice: against the middle two of all four corners (robust to one
corner hidden by a pawn or a picture's rim) and against the two corners at
that side's ends (nearer, so a shadow band, a glare spot or a lamp's fall-off
across the tile cancels better). That subtraction removes what a whole tile
shares: uneven light, colour casts, the companion's LED spill on that square,
the glow-in-the-dark tint at night. A linear discriminant fitted on the 64 known edges then scores
every tile's four edge regions; the class-conditional spread on the known
edges turns a score into an open probability, so at night (noisy, faint) the
probabilities come out softer on their own. Because the model is learned, the
"corridor is brighter" assumption never appears: on a glow board at night it
simply flips.

Edge regions sit between the tile's centre and its border, not at the centre,
so treasure pictures (at the centre) do not look like corridor or wall. Large
pictures and pawns still reach into them, so every side is read in two bands,
the usual one and a narrow one hugging the tile border, each with its own
model learned on the fixed tiles; the usual band's vote counts as far as it
looks typical of corridor or wall (its Mahalanobis distance to the nearer
class), the border band's for the rest: a band covered by a picture, a pawn
or paint-out looks like neither and gives way to the other. Pawn squares (``exclude``) do not teach the models, their
usual band counts little, and their probabilities are pulled toward 0.5.

Each tile is decoded to the most likely *valid* shape (2 or 3 openings: a
straight, a corner or a T), with the posterior of that shape as confidence.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cache
from statistics import NormalDist

import cv2
import numpy as np

from companion.board import EDITIONS, FIXED_TILES, SIZE, Square, Tile, distinct_rotations
from companion.observation import TileReading
from vision.rectify import Rectified

__all__ = [
    "GOOD_GRID_QUALITY",
    "TileModel",
    "TilesConfig",
    "ViewBands",
    "edge_features",
    "fit_model",
    "grid_quality",
    "lab_view",
    "read_tiles",
    "view_bands",
]

_BITS = np.array([1, 2, 4, 8])
_SHAPES = np.array([int(t) for t in Tile])
#: open/closed of each side (N E S W) for each of the ten shapes, shape (10, 4)
_SHAPE_SIDES = ((_SHAPES[:, None] & _BITS[None, :]) > 0).astype(np.float64)


@dataclass(frozen=True)
class TilesConfig:
    """Sampling geometry (fractions of a tile) and model settings, with the reasons for the defaults.

    * ``corner_lo..corner_hi``: corner boxes start just inside the seam (seams and
      the neighbour's shadow are neither corridor nor wall) and stay small enough
      to miss the corridor of any edition.
    * ``edge_half_width``: half the width of an edge box along the side; corridors
      are about a third of a tile wide in every edition, so 0.09 stays inside.
    * ``edge_lo..edge_hi``: how far the edge box reaches from the side toward the
      centre; it stops well before the centre picture (pictures up to ~55 % of
      a tile across stay out of it).
    * ``prob_floor``: no side is ever certain; keeps one misread from dominating a
      candidate board's score.
    * ``exclude_weight``: how much of an excluded (pawn-covered) tile's evidence is kept.
    * ``pawn_edge_lo..pawn_edge_hi``: the second band read on every side, hugging
      the tile border, where a pawn standing on the centre or a large picture
      rarely reaches.
    * ``typical_quantile``: a band's distance to the nearer class (squared
      Mahalanobis) is judged against this chi-square quantile of the feature
      dimension; a band that far out counts half (the weight falls as the
      square of the ratio).
    * ``hidden_weight``: the usual band's share on an excluded (pawn) square.
    * ``fixed_prior``: log-odds in favour of a fixed square's known shape when
      decoding (a pawn on a start corner must not turn it into a T; two sides
      clearly contradicting it still win, which grid_quality then flags): between
      one and two sides' largest evidence, log((1 - f) / f) for ``decode_floor`` f.
    * ``decode_floor``: the floor of the side probabilities the shape is chosen on
      (``prob_floor`` stays the published edges' floor).
    * ``spread_inflation``: widens the learned class spreads, because 64 samples
      underestimate the tails.
    """

    corner_lo: float = 0.07
    corner_hi: float = 0.22
    edge_half_width: float = 0.09
    edge_lo: float = 0.05
    edge_hi: float = 0.22
    prob_floor: float = 0.01
    exclude_weight: float = 0.9
    pawn_edge_lo: float = 0.03
    pawn_edge_hi: float = 0.11
    typical_quantile: float = 0.99
    hidden_weight: float = 0.1
    fixed_prior: float = 10.0
    decode_floor: float = 0.001
    spread_inflation: float = 1.3
    ridge: float = 1.0


DEFAULT_CONFIG = TilesConfig()

#: A :func:`grid_quality` below this means a wrong geometry or a board partly hidden.
#: Measured on rendered photos: right grids 0.96-0.99 by day, 0.975-0.99 at night;
#: a hand over the board 0.68-0.92; a grid off by a tile or half a tile 0.5-0.8.
GOOD_GRID_QUALITY = 0.94

# Known edges of the fixed tiles: (row, col, side) and open flags.
_FIXED_EDGES = np.array([(r, c, s) for (r, c) in sorted(FIXED_TILES) for s in range(4)], dtype=np.int64)
_FIXED_OPEN = np.array([bool(FIXED_TILES[(r, c)] & (1 << s)) for r, c, s in _FIXED_EDGES])


def _boxes(tile_px: int, cfg: TilesConfig) -> tuple[np.ndarray, np.ndarray]:
    """Pixel boxes inside one tile: 4 corner boxes and 4 edge boxes (N, E, S, W), as (x0, y0, x1, y1)."""
    t = float(tile_px)

    def px(f: float) -> int:
        return round(f * t)

    lo, hi = px(cfg.corner_lo), max(px(cfg.corner_hi), px(cfg.corner_lo) + 1)
    corners = np.array(
        [
            (lo, lo, hi, hi),
            (tile_px - hi, lo, tile_px - lo, hi),
            (tile_px - hi, tile_px - hi, tile_px - lo, tile_px - lo),
            (lo, tile_px - hi, hi, tile_px - lo),
        ]
    )
    a, b = px(0.5 - cfg.edge_half_width), max(px(0.5 + cfg.edge_half_width), px(0.5 - cfg.edge_half_width) + 1)
    e0, e1 = px(cfg.edge_lo), max(px(cfg.edge_hi), px(cfg.edge_lo) + 1)
    edges = np.array(
        [
            (a, e0, b, e1),  # N
            (tile_px - e1, a, tile_px - e0, b),  # E
            (a, tile_px - e1, b, tile_px - e0),  # S
            (e0, a, e1, b),  # W
        ]
    )
    return corners, edges


def _box_means(integral: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Means over boxes (..., 4) of x0 y0 x1 y1 from a (H+1, W+1, C) integral image."""
    x0, y0, x1, y1 = (boxes[..., i] for i in range(4))
    total = integral[y1, x1] - integral[y0, x1] - integral[y1, x0] + integral[y0, x0]
    area = ((x1 - x0) * (y1 - y0)).astype(np.float64)[..., None]
    return total / area


def lab_view(rect: Rectified) -> np.ndarray:
    """The rectified view in Lab (uint8 as OpenCV scales it), from colour or grey views."""
    image = rect.image
    if image.ndim == 2 or image.shape[2] == 1:
        image = cv2.cvtColor(image.reshape(image.shape[:2]), cv2.COLOR_GRAY2BGR)
    return cv2.cvtColor(image, cv2.COLOR_BGR2Lab)


def _view_integrals(rect: Rectified, lab: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Integral images of the view's Lab channels and of L², shared by both bands' features."""
    if lab is None:
        lab = lab_view(rect)
    sums = cv2.integral(lab, sdepth=cv2.CV_32S)  # exact: 8-bit values over a few hundred pixels squared
    _, lum_squares = cv2.integral2(np.ascontiguousarray(lab[:, :, 0]), sdepth=cv2.CV_32S, sqdepth=cv2.CV_64F)
    return sums, lum_squares[:, :, None]


def edge_features(
    rect: Rectified, config: TilesConfig | None = None, lab: np.ndarray | None = None, shade_free: bool = False
) -> np.ndarray:
    """Per tile and side, the edge region's description minus the tile's corners': shape (7, 7, 4, F).

    Features: L, a, b means and the standard deviation of L (texture), with
    ``shade_free`` also the shadow-invariant chroma (:func:`_shade_free_chroma`),
    first relative to the middle two of the tile's four corners, then relative
    to the two corners at that side's ends (F = 8, or 12 with ``shade_free``).
    The tile reader uses all 12; the locator's grid refinement the plain 8.
    ``lab``: the view already converted by :func:`lab_view`, when the caller has it.
    """
    return _band_features(rect, config or DEFAULT_CONFIG, _view_integrals(rect, lab), shade_free)


#: Scale of the shade-free chroma features: a*/(L*+16) is about 0.1-0.5 for coloured board
#: regions; times 100 it spans roughly what the Lab channels span, so the ridge treats them alike.
_CHROMA_GAIN = 100.0


def _shade_free_chroma(mean: np.ndarray) -> np.ndarray:
    """a*, b* over (L* + 16) of box means (OpenCV's 8-bit Lab): the colour a shadow does not change.

    Dimming a region's light by a factor s scales L* + 16, a* and b* alike (by the
    cube root of s), so their ratios stay put. A lamp's shadow band crossing a tile
    darkens part of a corridor to the wall's lightness; its colour relative to
    the tile's corners still tells corridor from wall.
    """
    lum = mean[..., 0] * (100.0 / 255.0) + 16.0
    return _CHROMA_GAIN * (mean[..., 1:3] - 128.0) / lum[..., None]


def _band_features(
    rect: Rectified, cfg: TilesConfig, integrals: tuple[np.ndarray, np.ndarray], shade_free: bool = True
) -> np.ndarray:
    """:func:`edge_features` from the view's integral images (edge regions as ``cfg`` places them)."""
    sums, lum_squares = integrals
    t, m = rect.tile_px, rect.margin_px
    corner_boxes, edge_boxes = _boxes(t, cfg)
    origin = m + t * np.arange(SIZE)
    offs = np.zeros((SIZE, SIZE, 1, 4), dtype=np.int64)
    offs[..., 0] = offs[..., 2] = origin[None, :, None]
    offs[..., 1] = offs[..., 3] = origin[:, None, None]

    def stats(boxes: np.ndarray) -> np.ndarray:  # means of L, a, b and of L² per box
        return np.concatenate([_box_means(sums, boxes), _box_means(lum_squares, boxes)], axis=-1)

    corner_stats = stats(offs + corner_boxes[None, None])  # (7, 7, 4, 4)
    edge_stats = stats(offs + edge_boxes[None, None])

    def describe(stats: np.ndarray) -> np.ndarray:
        mean = stats[..., :3]
        std = np.sqrt(np.maximum(stats[..., 3] - stats[..., 0] ** 2, 0.0))
        parts = [mean, std[..., None]] + ([_shade_free_chroma(mean)] if shade_free else [])
        return np.concatenate(parts, axis=-1)

    corners = describe(corner_stats)
    # The middle two of the four corners: one corner may be hidden by a pawn or a picture's rim.
    wall = np.sort(corners, axis=2)[:, :, 1:3].mean(axis=2)
    # The corners at each side's ends (N: TL+TR, E: TR+BR, S: BR+BL, W: BL+TL): light as it falls there.
    ends = 0.5 * (corners + np.roll(corners, -1, axis=2))
    edges = describe(edge_stats)
    return np.concatenate([edges - wall[:, :, None, :], edges - ends], axis=-1)


@dataclass(frozen=True)
class TileModel:
    """The frame's corridor/wall model: a direction in feature space and the two classes' scores on it."""

    weights: np.ndarray
    mean_open: float
    mean_closed: float
    spread: float

    @property
    def separation(self) -> float:
        """How many spreads apart the two classes are (d')."""
        return (self.mean_open - self.mean_closed) / self.spread

    def probabilities(self, features: np.ndarray, floor: float = 0.01) -> np.ndarray:
        """Open probability of each feature vector (last axis = features)."""
        score = features @ self.weights
        mid = 0.5 * (self.mean_open + self.mean_closed)
        logit = (self.mean_open - self.mean_closed) / self.spread**2 * (score - mid)
        prob = 1.0 / (1.0 + np.exp(-np.clip(logit, -50, 50)))
        return np.clip(prob, floor, 1.0 - floor)


def fit_model(features: np.ndarray, is_open: np.ndarray, config: TilesConfig | None = None) -> TileModel:
    """Fit a regularised linear discriminant on labelled edge features (N x F, N booleans)."""
    cfg = config or DEFAULT_CONFIG
    feats = np.asarray(features, dtype=np.float64)
    is_open = np.asarray(is_open, dtype=bool)
    if is_open.all() or not is_open.any():
        raise ValueError("fitting the corridor/wall model needs open and closed examples")
    pos, neg = feats[is_open], feats[~is_open]
    diff = pos.mean(axis=0) - neg.mean(axis=0)
    centred = np.concatenate([pos - pos.mean(axis=0), neg - neg.mean(axis=0)])
    cov = centred.T @ centred / max(len(feats) - 2, 1)
    # Ridge scaled to the features' own spread keeps a near-constant feature (a flat
    # texture, a colourless edition) from getting an absurd weight.
    cov += np.eye(len(diff)) * (cfg.ridge * np.trace(cov) / len(diff) * 0.05 + 1e-6)
    weights = np.linalg.solve(cov, diff)
    norm = np.linalg.norm(weights)
    weights = weights / norm if norm > 0 else weights
    s_pos, s_neg = pos @ weights, neg @ weights
    resid = np.concatenate([s_pos - s_pos.mean(), s_neg - s_neg.mean()])
    spread = float(np.sqrt(resid @ resid / max(len(resid) - 2, 1))) * cfg.spread_inflation
    return TileModel(weights, float(s_pos.mean()), float(s_neg.mean()), max(spread, 1e-6))


def _fixed_training(features: np.ndarray, excluded: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    keep = ~excluded[_FIXED_EDGES[:, 0], _FIXED_EDGES[:, 1]]
    if keep.sum() < 16 or _FIXED_OPEN[keep].all() or not _FIXED_OPEN[keep].any():
        keep = np.ones(len(_FIXED_EDGES), dtype=bool)
    feats = features[_FIXED_EDGES[:, 0], _FIXED_EDGES[:, 1], _FIXED_EDGES[:, 2]]
    return feats[keep], _FIXED_OPEN[keep]


def learn(features: np.ndarray, excluded: np.ndarray | None = None, config: TilesConfig | None = None) -> TileModel:
    """Learn the frame's model from the fixed tiles, then refit without the edges it disagrees with.

    The second pass drops known edges the first model calls strongly wrong: a
    pawn nobody excluded, a hand's fingertip, a glare spot.
    """
    cfg = config or DEFAULT_CONFIG
    excl = np.zeros((SIZE, SIZE), dtype=bool) if excluded is None else excluded
    feats, labels = _fixed_training(features, excl)
    model = fit_model(feats, labels, cfg)
    prob = model.probabilities(feats, 0.0)
    agree = np.where(labels, prob, 1.0 - prob)
    keep = agree > 0.1
    if keep.sum() >= max(16, int(0.75 * len(labels))) and labels[keep].any() and not labels[keep].all():
        model = fit_model(feats[keep], labels[keep], cfg)
    return model


def _excluded_grid(exclude: Iterable[Square] | None) -> np.ndarray:
    grid = np.zeros((SIZE, SIZE), dtype=bool)
    for r, c in exclude or ():
        if 0 <= r < SIZE and 0 <= c < SIZE:
            grid[r, c] = True
    return grid


def _chi2_quantile(p: float, dof: int) -> float:
    """Chi-square quantile (Wilson-Hilferty: within ~1 % for the few degrees of freedom used here)."""
    z = NormalDist().inv_cdf(p)
    c = 2.0 / (9.0 * dof)
    return dof * (1.0 - c + z * np.sqrt(c)) ** 3


@dataclass(frozen=True)
class _Band:
    """One band's model, the open/closed log-odds of every side and how typical each side looks (0..1)."""

    model: TileModel
    logit: np.ndarray
    weight: np.ndarray


def _typical_weight(distance: np.ndarray, dim: int, cfg: TilesConfig) -> np.ndarray:
    """Weight (0..1] of a band's vote from its squared Mahalanobis distance to the nearer class."""
    limit = _chi2_quantile(cfg.typical_quantile, dim)
    return 1.0 / (1.0 + (distance / limit) ** 2)


def _read_band(features: np.ndarray, excluded: np.ndarray, cfg: TilesConfig) -> _Band:
    """Learn a band's model on the fixed tiles and weigh each side by its distance to the nearer class."""
    model = learn(features, excluded, cfg)
    train, labels = _fixed_training(features, excluded)
    pos, neg = train[labels], train[~labels]
    centred = np.concatenate([pos - pos.mean(axis=0), neg - neg.mean(axis=0)])
    dim = features.shape[-1]
    cov = centred.T @ centred / max(len(train) - 2, 1)
    cov += np.eye(dim) * (cfg.ridge * np.trace(cov) / dim * 0.05 + 1e-6)
    icov = np.linalg.inv(cov)
    dist = np.full(features.shape[:-1], np.inf)
    for mean in (pos.mean(axis=0), neg.mean(axis=0)):
        d = features - mean
        dist = np.minimum(dist, np.einsum("...i,ij,...j->...", d, icov, d))
    mid = 0.5 * (model.mean_open + model.mean_closed)
    logit = (model.mean_open - model.mean_closed) / model.spread**2 * (features @ model.weights - mid)
    return _Band(model, logit, _typical_weight(dist, dim, cfg))


def _combine(usual: _Band, outer: _Band, excluded: np.ndarray, cfg: TilesConfig) -> np.ndarray:
    """Open probabilities from the two bands: the usual one as far as it is typical, the border one for the rest."""
    # A pawn stands on the centre and leans out over the inner part of the sides: there the border band decides.
    w_usual = np.where(excluded[:, :, None], usual.weight * cfg.hidden_weight, usual.weight)
    w_outer = outer.weight * (1.0 - w_usual)  # a fallback: the narrow band sees seams and shadows too
    logit = (w_usual * usual.logit + w_outer * outer.logit) / np.maximum(w_usual + w_outer, 1e-9)
    logit *= np.minimum(1.0, 2.0 * np.maximum(w_usual, w_outer))  # neither band typical: less sure
    return logit


def _floored(logit: np.ndarray, floor: float) -> np.ndarray:
    """Open probability from log-odds, kept within [floor, 1 - floor]."""
    prob = 1.0 / (1.0 + np.exp(-np.clip(logit, -50, 50)))
    return np.clip(prob, floor, 1.0 - floor)


def _outer_features(rect: Rectified, cfg: TilesConfig, integrals: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    return _band_features(rect, replace(cfg, edge_lo=cfg.pawn_edge_lo, edge_hi=cfg.pawn_edge_hi), integrals)


@dataclass(frozen=True)
class ViewBands:
    """Both bands' edge features of one view (:func:`view_bands`), each (7, 7, 4, 12).

    The reader reads a view's tiles and its grid quality from the same features;
    computing them once (one Lab conversion, one set of integral images) instead of
    per call changes nothing in the results, only the time.
    """

    usual: np.ndarray
    outer: np.ndarray


def view_bands(rect: Rectified, config: TilesConfig | None = None) -> ViewBands:
    """The usual and the border-hugging band's features of a view, for :func:`read_tiles` and :func:`grid_quality`."""
    cfg = config or DEFAULT_CONFIG
    integrals = _view_integrals(rect)
    return ViewBands(_band_features(rect, cfg, integrals), _outer_features(rect, cfg, integrals))


def edge_probabilities(
    rect: Rectified, config: TilesConfig | None = None, exclude: Iterable[Square] | None = None
) -> tuple[np.ndarray, TileModel]:
    """Open probability of every side of every tile, shape (7, 7, 4) (N, E, S, W), and the usual band's model.

    Each side's log-odds is a typicality-weighted mean of its two bands': the
    usual one as far as it looks like corridor or wall, the border-hugging one
    (noisier: seams, neighbours' shadows) for the rest; when neither does
    (a picture or a pawn over both) the answer is softened toward 0.5.
    """
    cfg = config or DEFAULT_CONFIG
    logit, excluded, model = _side_logits(rect, cfg, exclude)
    return _side_probabilities(logit, excluded, cfg.prob_floor, cfg), model


def _side_logits(
    rect: Rectified, cfg: TilesConfig, exclude: Iterable[Square] | None, bands: ViewBands | None = None
) -> tuple[np.ndarray, np.ndarray, TileModel]:
    """Combined open log-odds of every side (7, 7, 4), the excluded squares and the usual band's model."""
    excluded = _excluded_grid(exclude)
    if bands is None:
        bands = view_bands(rect, cfg)
    usual = _read_band(bands.usual, excluded, cfg)
    outer = _read_band(bands.outer, excluded, cfg)
    # No tile has four openings: four open-looking sides mean something over the centre
    # (a dark pawn at night looks like corridor), so the border band decides there too.
    covered = (usual.logit > 0).all(axis=2)
    return _combine(usual, outer, excluded | covered, cfg), excluded, usual.model


def _side_probabilities(logit: np.ndarray, excluded: np.ndarray, floor: float, cfg: TilesConfig) -> np.ndarray:
    """Floored open probabilities; an excluded square's pulled toward 0.5."""
    prob = _floored(logit, floor)
    if excluded.any():
        prob[excluded] = 0.5 + (prob[excluded] - 0.5) * cfg.exclude_weight
    return prob


def _shape_posterior(prob: np.ndarray, log_prior: np.ndarray | None) -> np.ndarray:
    """Posterior (..., 10) of the ten valid shapes, in the order of :class:`Tile`."""
    p = np.clip(prob, 1e-6, 1 - 1e-6)
    loglik = np.log(p)[..., None, :] * _SHAPE_SIDES + np.log1p(-p)[..., None, :] * (1.0 - _SHAPE_SIDES)
    total = loglik.sum(axis=-1)  # (..., 10)
    if log_prior is not None:
        total = total + log_prior
    post = np.exp(total - total.max(axis=-1, keepdims=True))
    return post / post.sum(axis=-1, keepdims=True)


def _posterior_of(prob: np.ndarray, shapes: np.ndarray, log_prior: np.ndarray) -> np.ndarray:
    """Posterior (...,) of the given shapes (Tile masks) under side probabilities and a prior."""
    index = np.argmax(shapes[..., None] == _SHAPES, axis=-1)
    return np.take_along_axis(_shape_posterior(prob, log_prior), index[..., None], axis=-1)[..., 0]


def decode(prob: np.ndarray, log_prior: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Most likely valid shape per tile and its posterior: ((...,) Tile masks, (...,) confidences).

    ``log_prior`` (..., 10), in the order of :class:`Tile`, adds what is known
    beforehand (the fixed tiles' shapes).
    """
    post = _shape_posterior(prob, log_prior)
    best = post.argmax(axis=-1)
    return _SHAPES[best], np.take_along_axis(post, best[..., None], axis=-1)[..., 0]


@cache
def _movable_prior() -> np.ndarray:
    """Log-prior (10,) of a movable square's shape from the editions' inventories.

    About 28 of the 34 movable tiles are straights or corners and 6 are Ts, so
    when the evidence cannot tell a corner from a T (a side hidden under a
    pawn) the corner is the better bet. Averaged over the editions.
    """
    counts = np.zeros(len(_SHAPES))
    for edition in EDITIONS.values():
        for tile, _ in edition.movable_tiles():
            orientations = distinct_rotations(int(tile))
            for mask in orientations:
                counts[int(np.flatnonzero(mask == _SHAPES)[0])] += 1.0 / len(orientations)
    freq = counts / counts.sum()
    return np.log(np.maximum(freq, 1e-3))


def _shape_prior(strength: float) -> np.ndarray:
    """Log-prior (7, 7, 10): inventory frequencies on movable squares; fixed squares favour their known shape."""
    prior = np.broadcast_to(_movable_prior(), (SIZE, SIZE, len(_SHAPES))).copy()
    for (r, c), tile in FIXED_TILES.items():
        prior[r, c] = np.where(int(tile) == _SHAPES, 0.0, -strength)
    return prior


def read_tiles(
    rect: Rectified,
    config: TilesConfig | None = None,
    exclude: set[Square] | None = None,
    bands: ViewBands | None = None,
) -> list[TileReading]:
    """Read the 49 tiles (row-major) of a rectified board.

    ``exclude``: squares where a pawn or a hand hides the tile; they neither
    teach the model nor give confident answers. ``bands``: this view's
    :func:`view_bands` (with the same ``config``), when the caller has them.
    """
    cfg = config or DEFAULT_CONFIG
    logit, excluded, model = _side_logits(rect, cfg, exclude, bands)
    prob = _side_probabilities(logit, excluded, cfg.prob_floor, cfg)
    # The edges stay the frame's evidence (the referee and grid_quality weigh them);
    # only the decoded shape of a fixed square leans on its known openings.
    # The shape is chosen on probabilities floored lower: a side far past the published
    # floor still counts for more than one just past it (two closed-looking sides of
    # a corner: the less closed one opens), while the confidence comes from the edges.
    prior = _shape_prior(cfg.fixed_prior)
    shapes, _ = decode(_side_probabilities(logit, excluded, cfg.decode_floor, cfg), prior)
    conf = _posterior_of(prob, shapes, prior)
    # A frame whose known edges barely separate cannot be trusted whatever a tile says.
    trust = float(np.clip(model.separation / 3.0, 0.0, 1.0))
    # tolist(): the same Python ints and floats as converting element by element, made at once.
    shape_list, conf_list, prob_list = shapes.tolist(), conf.tolist(), prob.tolist()
    out = []
    for r in range(SIZE):
        for c in range(SIZE):
            edges = tuple(prob_list[r][c])
            out.append(TileReading(Tile(shape_list[r][c]), conf_list[r][c] * trust, edges))  # type: ignore[arg-type]
    return out


def grid_quality(
    rect: Rectified,
    config: TilesConfig | None = None,
    features: np.ndarray | None = None,
    bands: ViewBands | None = None,
) -> float:
    """How well the geometry fits a Labyrinth board, 0..1 (about 0.5 for a wrong grid, near 1 for a right one).

    The share of the 16 fixed tiles' 64 known edges whose side (open/closed)
    models learned from the *other* fixed tiles get right (leave-one-tile-out,
    so a wrong grid cannot explain itself), softened by how sure they are.
    Both bands are read as :func:`edge_probabilities` reads them (12 fixed
    tiles carry a picture, which may reach into the usual band); the 16 folds
    are solved together in closed form. ``features``: the view's
    :func:`edge_features` with ``shade_free``, when the caller has them; ``bands``:
    both bands' (:func:`view_bands` with the same ``config``).
    """
    cfg = config or DEFAULT_CONFIG
    if bands is None:
        integrals = _view_integrals(rect)
        feats = _band_features(rect, cfg, integrals) if features is None else features
        bands = ViewBands(feats, _outer_features(rect, cfg, integrals))
    read = []
    for band_feats in (bands.usual, bands.outer):
        known = band_feats[_FIXED_EDGES[:, 0], _FIXED_EDGES[:, 1], _FIXED_EDGES[:, 2]]  # (64, F)
        logit, distance = _held_out(known, cfg)
        model = TileModel(np.zeros(1), 1.0, 0.0, 1.0)  # unused: only the logits and weights combine
        read.append(_Band(model, logit[None, :, None], _typical_weight(distance, known.shape[1], cfg)[None, :, None]))
    logit = _combine(read[0], read[1], np.zeros((1, len(_FIXED_EDGES)), dtype=bool), cfg)[0, :, 0]
    prob = _floored(logit, cfg.prob_floor)
    agree = np.where(_FIXED_OPEN, prob, 1.0 - prob)
    return float(agree.mean())


def _held_out(known: np.ndarray, cfg: TilesConfig) -> tuple[np.ndarray, np.ndarray]:
    """Leave-one-fixed-tile-out log-odds of the 64 known edges, and each one's distance to its fold's nearer class."""
    folds = np.arange(len(known)) // 4  # the 4 edges of each fixed tile, in order
    dim = known.shape[1]
    keep = folds[None, :] != np.arange(16)[:, None]  # (16, 64) training edges of each fold
    pos = keep & _FIXED_OPEN[None, :]
    neg = keep & ~_FIXED_OPEN[None, :]
    n_pos, n_neg = pos.sum(axis=1), neg.sum(axis=1)
    m_pos = (pos @ known) / n_pos[:, None]
    m_neg = (neg @ known) / n_neg[:, None]
    outer = known[:, :, None] * known[:, None, :]  # (64, F, F)
    scatter = np.einsum("kn,nij->kij", (pos | neg).astype(np.float64), outer)
    scatter -= n_pos[:, None, None] * m_pos[:, :, None] * m_pos[:, None, :]
    scatter -= n_neg[:, None, None] * m_neg[:, :, None] * m_neg[:, None, :]
    cov = scatter / np.maximum(n_pos + n_neg - 2, 1)[:, None, None]
    ridge = cfg.ridge * np.trace(cov, axis1=1, axis2=2) / dim * 0.05 + 1e-6
    reg = cov + ridge[:, None, None] * np.eye(dim)[None]
    diff = m_pos - m_neg
    weights = np.linalg.solve(reg, diff[..., None])[..., 0]
    weights /= np.maximum(np.linalg.norm(weights, axis=1, keepdims=True), 1e-12)
    mean_open, mean_closed = (m_pos * weights).sum(axis=1), (m_neg * weights).sum(axis=1)
    spread = np.sqrt(np.maximum(np.einsum("ki,kij,kj->k", weights, cov, weights), 1e-12)) * cfg.spread_inflation
    score = (known * weights[folds]).sum(axis=1)
    logit = (mean_open - mean_closed)[folds] / spread[folds] ** 2 * (score - 0.5 * (mean_open + mean_closed)[folds])
    icov = np.linalg.inv(reg)[folds]  # (64, F, F): each edge judged by its own fold
    distance = np.full(len(known), np.inf)
    for mean in (m_pos[folds], m_neg[folds]):
        d = known - mean
        distance = np.minimum(distance, np.einsum("ki,kij,kj->k", d, icov, d))
    return logit, distance
