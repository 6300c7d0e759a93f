"""Grid scores for the board searches of :mod:`vision.locate_grid`: how well a placed 7x7 grid fits a board.

Two scores, each batched over thousands of candidate grids (quads in work
pixels, sampled nearest-pixel on a blurred Lab copy of the photo):

* :func:`separation`: the Fisher separation d' of the 16 fixed tiles' 44
  known-open and 20 known-closed edges, relative to each tile's corners; a
  grid whose discriminant reads the corners themselves as corridor scores 0
  (``_CORNER_SIDE``). Narrow basin, and it settles the phase and the window.
* :func:`centre_crossing_score`: the 49 tile centres (corridor) against the 36
  inner grid crossings (wall) on a heavily blurred copy: a wide basin that pulls
  a roughly placed grid into reach of the first.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from companion.board import FIXED_TILES, SIZE
from vision import tiles as tile_mod

__all__ = ["BOARD_CORNERS", "batch_homographies", "centre_crossing_score", "fisher", "gather", "separation"]

_FIXED = sorted(FIXED_TILES)


# Sample points (board units inside a tile) standing for the tile regions of vision.tiles:
# on a box-blurred image one sample approximates the region's mean.
def _region_points() -> np.ndarray:
    """The 8 regions (4 corners, then the N E S W edges) of each fixed tile, region-major: (8 * 16, 2).

    Region-major so that each region of all 16 tiles is one contiguous run in
    :func:`separation` (the corner median and the edge features are then
    plain slices, not strided ones).
    """
    cfg = tile_mod.DEFAULT_CONFIG
    k = 0.5 * (cfg.corner_lo + cfg.corner_hi)
    e = 0.5 * (cfg.edge_lo + cfg.edge_hi)
    corners = [(k, k), (1 - k, k), (1 - k, 1 - k), (k, 1 - k)]
    edges = [(0.5, e), (1 - e, 0.5), (0.5, 1 - e), (e, 0.5)]
    local = np.array(corners + edges)  # (8, 2)
    origin = np.array(_FIXED, dtype=np.float64)[:, ::-1]  # (16, 2) x=col, y=row
    return (local[:, None, :] + origin[None]).reshape(-1, 2)  # (128, 2)


_POINTS = _region_points()
_POINTS_H = np.column_stack([_POINTS, np.ones(len(_POINTS))])
#: Which of the 64 edge features (side-major: N of the 16 tiles, then E, S, W) are known open.
_FIXED_OPEN = np.array([bool(FIXED_TILES[rc] & (1 << s)) for s in range(4) for rc in _FIXED])
_OPEN_MEAN = _FIXED_OPEN / _FIXED_OPEN.sum()
_CLOSED_MEAN = ~_FIXED_OPEN / (~_FIXED_OPEN).sum()
_N_OPEN, _N_CLOSED = int(_FIXED_OPEN.sum()), int((~_FIXED_OPEN).sum())
BOARD_CORNERS = np.array([[0.0, 0.0], [7.0, 0.0], [7.0, 7.0], [0.0, 7.0]])


#: A grid is scored only when its fixed tiles' discriminant reads the tiles' own corners as wall:
#: their level (0, the features being relative to them) nearer the closed edges' mean than the
#: open ones' (0 = at the closed mean, 1 = at the open mean; the midpoint is the discriminant's
#: own boundary). A board's closed sides and corners are the same wall (refined grids: -0.1..0.1);
#: a chance grid on a patterned table separates edges by a pattern that ignores the corners and
#: mostly has its "open" class there (~1). Pruned here, such grids no longer win the searches:
#: /tmp/fin/ho_occ 0012 (a striped table) found, and the searches stop sooner on boards beside
#: dotted and checked cloths. :func:`vision.locate_refine.corner_side` is the same test on the
#: refined grid.
_CORNER_SIDE = 0.5

#: The most grids scored in one pass (see :func:`_in_chunks`): 512 x 128 float64 samples is 0.5 MB.
_CHUNK = 512


def batch_homographies(quads: np.ndarray) -> np.ndarray:
    """Board (0..7 tile units) -> image homographies for N quads (N x 4 x 2): (N, 3, 3).

    The square-to-quad map in closed form (Heckbert's): the same homography
    as solving the 8x8 system per quad, several times cheaper for the
    thousands of grids the searches place.
    """
    x0, x1, x2, x3 = quads[:, 0, 0], quads[:, 1, 0], quads[:, 2, 0], quads[:, 3, 0]
    y0, y1, y2, y3 = quads[:, 0, 1], quads[:, 1, 1], quads[:, 2, 1], quads[:, 3, 1]
    sx, sy = x0 - x1 + x2 - x3, y0 - y1 + y2 - y3
    dx1, dx2, dy1, dy2 = x1 - x2, x3 - x2, y1 - y2, y3 - y2
    det = dx1 * dy2 - dx2 * dy1
    det = np.where(np.abs(det) > 1e-12, det, 1e-12)  # a degenerate quad: huge terms, its grid scores 0
    g = (sx * dy2 - dx2 * sy) / det
    h = (dx1 * sy - sx * dy1) / det
    s = 1.0 / float(BOARD_CORNERS[2, 0])  # board units -> unit square
    hom = np.empty((len(quads), 3, 3))
    hom[:, 0, 0], hom[:, 0, 1], hom[:, 0, 2] = (x1 - x0 + g * x1) * s, (x3 - x0 + h * x3) * s, x0
    hom[:, 1, 0], hom[:, 1, 1], hom[:, 1, 2] = (y1 - y0 + g * y1) * s, (y3 - y0 + h * y3) * s, y0
    hom[:, 2, 0], hom[:, 2, 1], hom[:, 2, 2] = g * s, h * s, 1.0
    return hom


def gather(image: np.ndarray, quads: np.ndarray, points_h: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Nearest-pixel samples of board points (homogeneous, P x 3) under each quad: (C, N, P) and the quads
    whose points all project in front of the camera (N,).

    One gather per colour plane (a plain index into the flat image): these
    searches score ~10^4 grids on a hard photo, so this runs hot.
    """
    n = len(quads)
    proj = batch_homographies(quads) @ points_h.T  # (N, 3, P)
    den = proj[:, 2]
    ok = np.abs(den) > 1e-9
    inv = 1.0 / np.where(ok, den, 1.0)
    h, w = image.shape[:2]
    # Nearest pixel: +0.5 then truncation (the clip to 0 makes truncation toward zero harmless).
    xs = np.clip(proj[:, 0] * inv + 0.5, 0, w - 1).astype(np.intp)
    ys = np.clip(proj[:, 1] * inv + 0.5, 0, h - 1).astype(np.intp)
    chans = image.shape[2] if image.ndim == 3 else 1
    idx = (ys * w + xs) * chans
    flat = image.reshape(-1)
    vals = np.stack([flat.take(idx + c) for c in range(chans)]).reshape(chans, n, len(points_h))
    return vals, ok.all(axis=1)


def fisher(
    feats: np.ndarray, pos_mean: np.ndarray, neg_mean: np.ndarray, n_pos: int, n_neg: int, corner_wall: bool = False
) -> np.ndarray:
    """Fisher separation d' of two classes of samples, per grid: ``feats`` (C, N, K) float64, the classes
    given by averaging weights over K (1/n on a class's samples, 0 elsewhere).

    ``corner_wall``: the samples are relative to the tiles' corners and the second
    class is wall; a grid whose discriminant puts the corners' level (0) nearer the
    first class than the second scores 0 (see :data:`_CORNER_SIDE`).

    The pooled within-class covariance is the scatter of all K samples less
    each class's mean term (one product instead of one per class), ridged by
    5 % of its trace.
    """
    mp, mn = (feats @ pos_mean).T, (feats @ neg_mean).T  # (N, C)
    per = feats.transpose(1, 0, 2)  # (N, C, K)
    scatter = per @ per.transpose(0, 2, 1)
    cov = scatter - n_pos * mp[:, :, None] * mp[:, None, :] - n_neg * mn[:, :, None] * mn[:, None, :]
    cov /= float(n_pos + n_neg - 2)
    dim = cov.shape[-1]
    cov += np.eye(dim)[None] * (np.trace(cov, axis1=1, axis2=2)[:, None, None] * 0.05 / dim + 1e-6)
    diff = mp - mn
    wvec = np.linalg.solve(cov, diff[..., None])[..., 0]
    gap = (wvec * diff).sum(axis=1)
    score = np.sqrt(np.maximum(gap, 0.0))
    if corner_wall:
        # The features are relative to the tiles' corners, so the corners' own level is 0.
        side = -(wvec * mn).sum(axis=1) / np.maximum(gap, 1e-12)
        score = np.where(side < _CORNER_SIDE, score, 0.0)
    return score


def _in_chunks(
    score: Callable[[np.ndarray, np.ndarray], np.ndarray], blur: np.ndarray, quads: np.ndarray
) -> np.ndarray:
    """``score(blur, quads)`` in chunks of :data:`_CHUNK` grids (the last takes the rest), concatenated.

    A whole batch's temporaries (a dozen arrays of N x 128 float64 each) for
    the tilt search's 4900 grids or the pitch sweep's ~3000 are megabytes each,
    freshly mapped and faulted in for every operation: the scores took twice as
    long as in cache-sized chunks (4900 grids: ~30 ms -> ~15 ms). The scores
    are those of one pass: each grid's depends on its own samples, but BLAS
    sums a row's products in an order that depends on where the row falls in
    the kernel's blocks of rows (and a one-row matrix takes another path), so
    every chunk starts at a multiple of 512 and none is short (a short rest
    joins the last chunk). With numpy 2's OpenBLAS that makes them equal to
    the bit; a BLAS that blocks rows by 256 (numpy 1.26's) leaves a few rows
    apart in the last bit (1e-15), far under any decision's margin. Batches
    under two chunks take one pass (the polish, a window's 100 grids, every
    centre/crossing batch).
    """
    cuts = list(range(_CHUNK, len(quads) - _CHUNK + 1, _CHUNK))
    if not cuts:
        return score(blur, quads)
    return np.concatenate([score(blur, part) for part in np.split(quads, cuts)])


def separation(blur: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """Fixed-edge separation d' of each candidate tile-area quad (N x 4 x 2, work pixels) on a blurred Lab image.

    d' is the Fisher separation of the fixed tiles' 44 known-open and 20
    known-closed edges (Lab relative to each tile's corners): large only when
    the grid sits on the board's tiles (a tile's shift puts the fixed tiles on
    movable squares, half a tile puts corners where edges should be).
    """
    return _in_chunks(_separation, blur, quads)


def _separation(blur: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """:func:`separation` of one chunk."""
    vals, ok = gather(blur, quads, _POINTS_H)
    vals = vals.reshape(vals.shape[0], len(quads), 8, 16)  # (C, N, region, tile)
    # Mean of the middle two of the four corners (one may be under a pawn or a picture's rim).
    c0, c1, c2, c3 = vals[:, :, 0], vals[:, :, 1], vals[:, :, 2], vals[:, :, 3]
    high = np.maximum(np.maximum(c0, c1), np.maximum(c2, c3))
    low = np.minimum(np.minimum(c0, c1), np.minimum(c2, c3))
    wall = 0.5 * (c0 + c1 + c2 + c3 - high - low)
    feats = (vals[:, :, 4:] - wall[:, :, None]).reshape(vals.shape[0], len(quads), 64).astype(np.float64)
    score = fisher(feats, _OPEN_MEAN, _CLOSED_MEAN, _N_OPEN, _N_CLOSED, corner_wall=True)
    return np.where(ok, score, 0.0)


def _cx_points() -> np.ndarray:
    centres = [(c + 0.5, r + 0.5) for r in range(SIZE) for c in range(SIZE)]
    crossings = [(float(i), float(j)) for j in range(1, SIZE) for i in range(1, SIZE)]
    return np.column_stack([np.array(centres + crossings), np.ones(len(centres) + len(crossings))])


_CX_POINTS = _cx_points()
_CENTRE_MEAN = np.r_[np.full(49, 1.0 / 49), np.zeros(36)]
_CROSSING_MEAN = np.r_[np.zeros(49), np.full(36, 1.0 / 36)]


def centre_crossing_score(blur: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """Fisher separation of the 49 tile centres (corridor) from the 36 inner grid crossings (wall).

    On a heavily blurred image this falls off slowly as the grid drifts (up to
    ~0.3 tile), so it pulls a grid that is only roughly right (a strong tilt
    the coarse lattice could not follow) into the narrow basin of the
    fixed-tile separation.
    """
    vals, _ = gather(blur, quads, _CX_POINTS)
    return fisher(vals.astype(np.float64), _CENTRE_MEAN, _CROSSING_MEAN, 49, 36)
