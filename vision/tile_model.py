"""The frame's corridor/wall models: learned on the fixed tiles' known edges, one per band.

The 16 fixed tiles have known openings: 44 known-open and 20 known-closed
edges, sampled exactly where every other tile's edges are sampled. A linear
discriminant fitted on them scores every tile's edge regions; the
class-conditional spread on the known edges turns a score into an open
probability, so at night (noisy, faint) the probabilities come out softer on
their own. Because the model is learned, the "corridor is brighter" assumption
never appears: on a glow board at night it simply flips.

A band's vote counts as far as it looks typical of corridor or wall (its
Mahalanobis distance to the nearer class): a band covered by a picture, a pawn
or paint-out looks like neither and gives way to the other band.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from statistics import NormalDist

import numpy as np

from companion.board import SIZE
from vision.tile_features import DEFAULT_CONFIG, FIXED_EDGES, FIXED_OPEN, TilesConfig

__all__ = ["Band", "TileModel", "fit_model", "held_out", "learn", "read_band", "typical_weight"]


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
        # np.minimum/np.maximum: np.clip's values (no NaN here) without its ~5 us of dispatch.
        prob = 1.0 / (1.0 + np.exp(-np.minimum(np.maximum(logit, -50.0), 50.0)))
        return np.minimum(np.maximum(prob, floor), 1.0 - floor)


def fit_model(features: np.ndarray, is_open: np.ndarray, config: TilesConfig | None = None) -> TileModel:
    """Fit a regularised linear discriminant on labelled edge features (N x F, N booleans)."""
    cfg = config or DEFAULT_CONFIG
    feats = np.asarray(features, dtype=np.float64)
    is_open = np.asarray(is_open, dtype=bool)
    if is_open.all() or not is_open.any():
        raise ValueError("fitting the corridor/wall model needs open and closed examples")
    return _fit(feats, is_open, _class_stats(feats, is_open, cfg), cfg)


def _class_stats(feats: np.ndarray, is_open: np.ndarray, cfg: TilesConfig) -> tuple[np.ndarray, ...]:
    """The open and closed classes' means and their pooled, ridge-regularised covariance."""
    pos, neg = feats[is_open], feats[~is_open]
    m_pos, m_neg = pos.mean(axis=0), neg.mean(axis=0)
    centred = np.concatenate([pos - m_pos, neg - m_neg])
    cov = centred.T @ centred / max(len(feats) - 2, 1)
    # Ridge scaled to the features' own spread keeps a near-constant feature (a flat
    # texture, a colourless edition) from getting an absurd weight.
    cov += np.eye(len(m_pos)) * (cfg.ridge * np.trace(cov) / len(m_pos) * 0.05 + 1e-6)
    return m_pos, m_neg, cov


def _fit(feats: np.ndarray, is_open: np.ndarray, stats: tuple[np.ndarray, ...], cfg: TilesConfig) -> TileModel:
    """The discriminant of :func:`fit_model` from the classes' statistics (:func:`_class_stats`)."""
    m_pos, m_neg, cov = stats
    weights = np.linalg.solve(cov, m_pos - m_neg)
    norm = np.linalg.norm(weights)
    weights = weights / norm if norm > 0 else weights
    score = feats @ weights
    mean_open, mean_closed = float(m_pos @ weights), float(m_neg @ weights)
    resid = score - np.where(is_open, mean_open, mean_closed)
    spread = float(np.sqrt(resid @ resid / max(len(resid) - 2, 1))) * cfg.spread_inflation
    return TileModel(weights, mean_open, mean_closed, max(spread, 1e-6))


#: The known edges' rows, columns and sides as contiguous index arrays (taken once, not per learn).
_EDGE_ROWS, _EDGE_COLS, _EDGE_SIDES = (np.ascontiguousarray(FIXED_EDGES[:, i]) for i in range(3))


def _fixed_training(
    features: np.ndarray, excluded: np.ndarray, extra: tuple[np.ndarray, np.ndarray] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The known edges' features and open flags (pawn squares left out), plus ``extra`` labelled examples."""
    keep = ~excluded[_EDGE_ROWS, _EDGE_COLS]
    if keep.sum() < 16 or FIXED_OPEN[keep].all() or not FIXED_OPEN[keep].any():
        keep = np.ones(len(FIXED_EDGES), dtype=bool)
    feats = features[_EDGE_ROWS, _EDGE_COLS, _EDGE_SIDES][keep]
    labels = FIXED_OPEN[keep]
    if extra is not None and len(extra[0]):
        return np.concatenate([feats, extra[0]]), np.concatenate([labels, extra[1]])
    return feats, labels


def learn(
    features: np.ndarray,
    excluded: np.ndarray | None = None,
    config: TilesConfig | None = None,
    extra: tuple[np.ndarray, np.ndarray] | None = None,
) -> TileModel:
    """Learn the frame's model from the fixed tiles, then refit without the edges it disagrees with.

    The second pass drops known edges the first model calls strongly wrong: a
    pawn nobody excluded, a hand's fingertip, a glare spot. ``extra``: more
    labelled (features, open flags) examples to learn from (see :func:`read_band`).
    """
    cfg = config or DEFAULT_CONFIG
    excl = np.zeros(features.shape[:2], dtype=bool) if excluded is None else excluded
    return _learn(features, excl, cfg, extra)[0]


def _learn(
    features: np.ndarray, excluded: np.ndarray, cfg: TilesConfig, extra: tuple[np.ndarray, np.ndarray] | None
) -> tuple[TileModel, tuple[np.ndarray, ...]]:
    """:func:`learn`, and the class statistics of all its training edges (before the refit)."""
    feats, labels = _fixed_training(features, excluded, extra)
    feats = np.asarray(feats, dtype=np.float64)
    if labels.all() or not labels.any():
        raise ValueError("fitting the corridor/wall model needs open and closed examples")
    stats = _class_stats(feats, labels, cfg)
    model = _fit(feats, labels, stats, cfg)
    prob = model.probabilities(feats, 0.0)
    agree = np.where(labels, prob, 1.0 - prob)
    keep = agree > 0.1
    if keep.all():
        return model, stats  # the refit would see the very same edges: the same model
    if keep.sum() >= max(16, int(0.75 * len(labels))) and labels[keep].any() and not labels[keep].all():
        model = fit_model(feats[keep], labels[keep], cfg)
    return model, stats


def _chi2_quantile(p: float, dof: int) -> float:
    """Chi-square quantile (Wilson-Hilferty: within ~1 % for the few degrees of freedom used here)."""
    z = NormalDist().inv_cdf(p)
    c = 2.0 / (9.0 * dof)
    return dof * (1.0 - c + z * np.sqrt(c)) ** 3


@dataclass(frozen=True)
class Band:
    """One band's model, the open/closed log-odds of every side and how typical each side looks (0..1)."""

    model: TileModel
    logit: np.ndarray
    weight: np.ndarray


def typical_weight(distance: np.ndarray, dim: int, cfg: TilesConfig) -> np.ndarray:
    """Weight (0..1] of a band's vote from its squared Mahalanobis distance to the nearer class."""
    limit = _chi2_quantile(cfg.typical_quantile, dim)
    return 1.0 / (1.0 + (distance / limit) ** 2)


def read_band(
    features: np.ndarray, excluded: np.ndarray, cfg: TilesConfig, extra_sides: np.ndarray | None = None
) -> Band:
    """Learn a band's model on the fixed tiles and weigh each side by its distance to the nearer class.

    ``extra_sides`` (7, 7, 4): 1/0 for sides known open/closed from a first read
    (see :func:`vision.tiles.read_tiles`), -1 elsewhere; those sides teach the model too.
    """
    extra = None
    if extra_sides is not None:
        sel = extra_sides >= 0
        extra = (features[sel], extra_sides[sel] > 0)
    model, (m_pos, m_neg, cov) = _learn(features, excluded, cfg, extra)
    dim = features.shape[-1]
    icov = np.linalg.inv(cov)
    dist = np.full(features.shape[:-1], np.inf)
    for mean in (m_pos, m_neg):
        d = features - mean
        dist = np.minimum(dist, ((d @ icov) * d).sum(axis=-1))  # squared Mahalanobis, through BLAS
    score = features @ model.weights
    if cfg.local_sigma > 0:
        mean_open, mean_closed = _local_means(score, model, excluded, extra_sides, cfg)
    else:
        mean_open, mean_closed = model.mean_open, model.mean_closed
    mid = 0.5 * (mean_open + mean_closed)
    logit = (mean_open - mean_closed) / model.spread**2 * (score - mid)
    limit = cfg.band_logit_limit
    # Saturating rather than clipped: the cap still bounds a band's vote, but two sides far
    # past it keep their order for the decoder (four closed-looking sides: the less closed opens).
    return Band(model, limit * np.tanh(logit / limit), typical_weight(dist, dim, cfg))


def _local_means(
    score: np.ndarray, model: TileModel, excluded: np.ndarray, extra_sides: np.ndarray | None, cfg: TilesConfig
) -> tuple[np.ndarray, np.ndarray]:
    """Each tile's open and closed class means on the model's score (7, 7, 1), from the labelled sides near it.

    Light that is not uniform over the board (a glare spot flattening a region's
    contrast, a lamp's fall-off, a shadow band) moves the classes' scores by region; the
    labelled sides nearby (fixed tiles, then the sure ones) show where they lie there.
    Gaussian weights over the tile distance, shrunk toward the board's means by
    ``local_prior`` sides' worth; the classes stay at least a quarter of the board's gap apart.
    """
    is_open, is_closed = _FIXED_SIDES
    if excluded.any():
        is_open, is_closed = is_open & ~excluded[..., None], is_closed & ~excluded[..., None]
    if extra_sides is not None:
        is_open, is_closed = is_open | (extra_sides == 1), is_closed | (extra_sides == 0)
    near = _near(cfg.local_sigma)
    prior = cfg.local_prior
    means = []
    for member, board in ((is_open, model.mean_open), (is_closed, model.mean_closed)):
        total = near @ np.einsum("ijk,ijk->ij", score, member) @ near  # Gaussian-weighted over rows and columns
        count = near @ member.sum(axis=2) @ near
        means.append((total + prior * board) / (count + prior))
    mean_open, mean_closed = means
    centre = 0.5 * (mean_open + mean_closed)
    half = 0.5 * np.maximum(mean_open - mean_closed, 0.25 * (model.mean_open - model.mean_closed))
    return (centre + half)[..., None], (centre - half)[..., None]


@cache
def _near(sigma: float) -> np.ndarray:
    """Gaussian weights (7, 7) between rows (or columns) ``sigma`` tiles apart (symmetric)."""
    grid = np.arange(SIZE, dtype=np.float64)
    return np.exp(-((grid[:, None] - grid[None, :]) ** 2) / (2.0 * sigma**2))


def _fixed_sides() -> tuple[np.ndarray, np.ndarray]:
    """The fixed tiles' known-open and known-closed sides as (7, 7, 4) masks."""
    is_open = np.zeros((SIZE, SIZE, 4), dtype=bool)
    is_closed = np.zeros((SIZE, SIZE, 4), dtype=bool)
    r, c, side = FIXED_EDGES.T
    is_open[r[FIXED_OPEN], c[FIXED_OPEN], side[FIXED_OPEN]] = True
    is_closed[r[~FIXED_OPEN], c[~FIXED_OPEN], side[~FIXED_OPEN]] = True
    return is_open, is_closed


_FIXED_SIDES = _fixed_sides()


def held_out(known: np.ndarray, cfg: TilesConfig) -> tuple[np.ndarray, np.ndarray]:
    """Leave-one-fixed-tile-out log-odds of the 64 known edges, and each one's distance to its fold's nearer class."""
    folds = np.arange(len(known)) // 4  # the 4 edges of each fixed tile, in order
    dim = known.shape[1]
    keep = folds[None, :] != np.arange(16)[:, None]  # (16, 64) training edges of each fold
    pos = keep & FIXED_OPEN[None, :]
    neg = keep & ~FIXED_OPEN[None, :]
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
    logit = np.clip(logit, -cfg.band_logit_limit, cfg.band_logit_limit)
    icov = np.linalg.inv(reg)[folds]  # (64, F, F): each edge judged by its own fold
    distance = np.full(len(known), np.inf)
    for mean in (m_pos[folds], m_neg[folds]):
        d = known - mean
        distance = np.minimum(distance, np.einsum("ki,kij,kj->k", d, icov, d))
    return logit, distance
