"""Decoding side probabilities into tile shapes: only valid shapes, weighed by the board's inventory.

Each tile is decoded to the most likely *valid* shape (2 or 3 openings: a
straight, a corner or a T), with the posterior of that shape as confidence;
movable squares lean on the editions' inventories (most movable tiles are
straights or corners), fixed squares on their known shape.

The board as a whole holds an edition's inventory less the spare tile: 5 or 6 Ts
and 11-13 straights on the 33 movable squares, in every edition (:func:`in_inventory`).
Per-tile decoding ignores it; a tile whose deciding side no camera saw (under two or
three tall pawns, the paint's guess) can make a seventh T or a fourteenth straight.
Those boards (only those: the check is a count) get the most likely class assignment
within the allowed counts, which changes the tiles whose evidence costs least, and only
on sides the camera did not clearly see: any board of the ten shapes is a legal position,
so a board drawn outside the inventory, clearly seen, is read as drawn.

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

__all__ = ["SHAPES", "SHAPE_SIDES", "decode", "in_inventory", "posterior_of", "shape_prior", "within_inventory"]

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


@cache
def shape_prior(strength: float) -> np.ndarray:
    """Log-prior (7, 7, 10): inventory frequencies on movable squares; fixed squares favour their known shape.

    Cached and read-only: a pure function of ``strength``, asked four times a read with the
    config's one value (~90 us each to build: a loop over the 16 fixed tiles); every reader
    only adds it to log-likelihoods.
    """
    prior = np.broadcast_to(_movable_prior(), (SIZE, SIZE, len(SHAPES))).copy()
    for (r, c), tile in FIXED_TILES.items():
        prior[r, c] = np.where(int(tile) == SHAPES, 0.0, -strength)
    prior.flags.writeable = False
    return prior


#: Class of each of the ten shapes (order of :class:`Tile`): 0 corner, 1 straight, 2 T.
_CLASS = np.array([2 if bin(int(s)).count("1") == 3 else (1 if int(s) in (5, 10) else 0) for s in SHAPES])
_MOVABLE = np.array([(r, c) not in FIXED_TILES for r in range(SIZE) for c in range(SIZE)]).reshape(SIZE, SIZE)


@cache
def _board_counts() -> frozenset[tuple[int, int]]:
    """(Ts, straights) the 33 movable squares can hold: an edition's inventory less the spare tile."""
    allowed = set()
    for edition in EDITIONS.values():
        classes = [_CLASS[int(np.flatnonzero(int(t) == SHAPES)[0])] for t, _ in edition.movable_tiles()]
        counts = np.bincount(classes, minlength=3)
        for spare in range(3):
            if counts[spare]:
                left = counts.copy()
                left[spare] -= 1
                allowed.add((int(left[2]), int(left[1])))
    return frozenset(allowed)


def within_inventory(shapes: np.ndarray) -> bool:
    """Whether the movable squares of ``shapes`` (7, 7) hold counts of Ts and straights an edition has."""
    cls = _CLASS[np.argmax(shapes[_MOVABLE][:, None] == SHAPES, axis=1)]
    return (int((cls == 2).sum()), int((cls == 1).sum())) in _board_counts()


def in_inventory(
    prob: np.ndarray,
    log_prior: np.ndarray,
    shapes: np.ndarray,
    weak: np.ndarray | None = None,
    cost: np.ndarray | None = None,
) -> np.ndarray:
    """``shapes`` (7, 7) with the movable squares' counts of Ts and straights made an edition's.

    Every edition has 34 movable tiles, 6 of them Ts (FORMATS.md §2); the board holds
    all but the spare. A tile read as a T on a board already showing six, or as a
    straight past the inventory, is one whose evidence is weakest (a side no camera
    saw under a pawn): the most likely assignment of classes within the allowed counts
    (a small dynamic programme over the squares) changes the tiles that cost least.
    Boards whose counts are possible (nearly all) are returned as they are.

    ``weak`` (7, 7, 4): the sides the camera did not clearly see. The inventory may only
    decide what the camera did not see: a tile may take another shape only where every
    side the two shapes differ on is weak, and a board that could only be brought within
    the counts by changing a clearly seen side is returned as it is. Any board of the ten
    shapes is a legal position (FORMATS.md), so a renderer or a home-made set that breaks
    the inventory must still read as drawn. None: every side may change.

    ``cost`` (7, 7, 4): side probabilities the choice of *which* tiles change is weighed on
    (None: ``prob``); each tile's shape within a class is still the best on ``prob``.
    """
    movable = shapes[_MOVABLE]
    cls = _CLASS[np.argmax(movable[:, None] == SHAPES, axis=1)]
    allowed = _board_counts()
    if (int((cls == 2).sum()), int((cls == 1).sum())) in allowed:
        return shapes
    post = np.log(np.maximum(_shape_posterior(prob, log_prior)[_MOVABLE], 1e-300))  # (33, 10)
    if weak is not None:
        read = SHAPE_SIDES[np.argmax(movable[:, None] == SHAPES, axis=1)]  # (33, 4)
        differs = SHAPE_SIDES[None, :, :] != read[:, None, :]  # (33, 10, 4)
        post = np.where((differs & ~weak[_MOVABLE][:, None, :]).any(axis=2), -np.inf, post)
    per_class = [np.where(_CLASS[None, :] == k, post, -np.inf) for k in range(3)]
    best = np.stack([p.max(axis=1) for p in per_class], axis=1)
    arg = np.stack([p.argmax(axis=1) for p in per_class], axis=1)
    if cost is not None:
        weighed = np.log(np.maximum(_shape_posterior(cost, log_prior)[_MOVABLE], 1e-300))
        best = np.where(np.isfinite(best), np.take_along_axis(weighed, arg, axis=1), -np.inf)
    n_t, n_i = max(t for t, _ in allowed) + 1, max(i for _, i in allowed) + 1
    score = np.full((n_t, n_i), -np.inf)
    score[0, 0] = 0.0
    choice = np.zeros((len(best), n_t, n_i), dtype=np.int8)
    for k, (s_l, s_i, s_t) in enumerate(best):
        options = np.full((3, n_t, n_i), -np.inf)
        options[0] = score + s_l
        options[1, :, 1:] = score[:, :-1] + s_i
        options[2, 1:, :] = score[:-1, :] + s_t
        choice[k] = options.argmax(axis=0)
        score = options.max(axis=0)
    t, i = max(allowed, key=lambda ti: score[ti])
    if not np.isfinite(score[t, i]):
        return shapes
    picked = np.empty(len(best), dtype=np.int64)
    for k in range(len(best) - 1, -1, -1):
        picked[k] = choice[k, t, i]
        t, i = t - (picked[k] == 2), i - (picked[k] == 1)
    out = shapes.copy()
    out[_MOVABLE] = SHAPES[arg[np.arange(len(best)), picked]]
    return out
