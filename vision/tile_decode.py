"""Decoding side probabilities into tile shapes: only valid shapes, weighed by the board's inventory.

Each tile is decoded to the most likely *valid* shape (2 or 3 openings: a
straight, a corner or a T), with the posterior of that shape as confidence;
movable squares lean on the editions' inventories (most movable tiles are
straights or corners), fixed squares on their known shape.

Why a treasure picture does not constrain the shape (measured, not kept). Every
edition prints pictures only on Ts and corners (FORMATS.md §2), so a pictured
movable tile "cannot" be a straight and a plain one "cannot" be a T. On the dev
sets of all five renderers (day, occluded, night; 317 read frames, 10 461 movable
tiles) the reader's picture test (:mod:`vision.treasures`) is not sure enough either way:
- of the 12 straight<->T misreads left, 7 sit under a tall pawn whose blob
  covers the centre disc (0-21 % of it seen), where no picture can be judged;
- "present" on a straight is mostly a pawn the detector missed (green on green,
  night) or glare: 20 of 2 933 clear pictures (share and seen >= 0.5) lay on a
  straight, so forbidding straights there fixed 1 tile and broke 19 (35 -> 53 wrong);
  a soft penalty (log 0.01) fixed 1 (third, occluded) and broke 1 (fifth, night);
- "absent" misses large pictures that fill the corridor (sampled as the corridor
  itself): 89 T tiles, fully seen, read share < 0.02, on four renderers.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from companion.board import EDITIONS, FIXED_TILES, SIZE, Tile, distinct_rotations

__all__ = ["SHAPES", "SHAPE_SIDES", "decode", "posterior_of", "shape_prior"]

SHAPES = np.array([int(t) for t in Tile])
#: open/closed of each side (N E S W) for each of the ten shapes, shape (10, 4)
SHAPE_SIDES = ((SHAPES[:, None] & np.array([1, 2, 4, 8])[None, :]) > 0).astype(np.float64)


def _shape_posterior(prob: np.ndarray, log_prior: np.ndarray | None) -> np.ndarray:
    """Posterior (..., 10) of the ten valid shapes, in the order of :class:`Tile`."""
    p = np.clip(prob, 1e-6, 1 - 1e-6)
    loglik = np.log(p)[..., None, :] * SHAPE_SIDES + np.log1p(-p)[..., None, :] * (1.0 - SHAPE_SIDES)
    total = loglik.sum(axis=-1)  # (..., 10)
    if log_prior is not None:
        total = total + log_prior
    post = np.exp(total - total.max(axis=-1, keepdims=True))
    return post / post.sum(axis=-1, keepdims=True)


def posterior_of(prob: np.ndarray, shapes: np.ndarray, log_prior: np.ndarray) -> np.ndarray:
    """Posterior (...,) of the given shapes (Tile masks) under side probabilities and a prior."""
    index = np.argmax(shapes[..., None] == SHAPES, axis=-1)
    return np.take_along_axis(_shape_posterior(prob, log_prior), index[..., None], axis=-1)[..., 0]


def decode(prob: np.ndarray, log_prior: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Most likely valid shape per tile and its posterior: ((...,) Tile masks, (...,) confidences).

    ``log_prior`` (..., 10), in the order of :class:`Tile`, adds what is known
    beforehand (the fixed tiles' shapes).
    """
    post = _shape_posterior(prob, log_prior)
    best = post.argmax(axis=-1)
    return SHAPES[best], np.take_along_axis(post, best[..., None], axis=-1)[..., 0]


@cache
def _movable_prior() -> np.ndarray:
    """Log-prior (10,) of a movable square's shape from the editions' inventories.

    About 28 of the 34 movable tiles are straights or corners and 6 are Ts, so
    when the evidence cannot tell a corner from a T (a side hidden under a
    pawn) the corner is the better bet. Averaged over the editions.
    """
    counts = np.zeros(len(SHAPES))
    for edition in EDITIONS.values():
        for tile, _ in edition.movable_tiles():
            orientations = distinct_rotations(int(tile))
            for mask in orientations:
                counts[int(np.flatnonzero(mask == SHAPES)[0])] += 1.0 / len(orientations)
    freq = counts / counts.sum()
    return np.log(np.maximum(freq, 1e-3))


def shape_prior(strength: float) -> np.ndarray:
    """Log-prior (7, 7, 10): inventory frequencies on movable squares; fixed squares favour their known shape."""
    prior = np.broadcast_to(_movable_prior(), (SIZE, SIZE, len(SHAPES))).copy()
    for (r, c), tile in FIXED_TILES.items():
        prior[r, c] = np.where(int(tile) == SHAPES, 0.0, -strength)
    return prior
