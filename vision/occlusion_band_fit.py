"""The band's planar lighting model, and the runs of frame segments it bent to (fitted without them, they stand out).

:func:`vision.occlusion_band.frame_band` judges each segment of the printed frame against a smooth (planar)
lighting model fitted robustly to the whole band (:func:`_gradient_residuals`). A large hand over the frame's
corner covers a quarter of the plain frame in one compact run: the plane tilts toward the hand's colour, the
residuals of the far sides grow with it, and the foreign threshold (a multiple of the median residual) grows
past the hand's own segments. :func:`absorbed_run` fits the plane again without each compact run of plain
segments (all windows at once) and judges the run against the rest's lighting with the band's own tests.
A coloured light's pool over the frame can bend the plane as much (an LED over a dark frame's corner), but
light multiplies each print from its own colour: the edge tiles beside it keep a colour apart from the
frame's, while a hand goes on over them in the colour it has over the frame (the sign of
:func:`vision.occlusion_band.finger_run`).
Measurements: vision/notes/occlusion_band.md (o48).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision.occlusion_config import OcclusionConfig

#: The band's judge of its segments (:func:`vision.occlusion_band._foreign_not_white`), called with ``rest``:
#: the segments its lighting model is fitted to (a window left out): foreign flags.
Judge = Callable[..., np.ndarray]


def absorbed_run(
    values: np.ndarray,
    positions: np.ndarray,
    known: np.ndarray,
    ring: np.ndarray,
    cfg: OcclusionConfig,
    judge: Judge,
    inner: Callable[[], np.ndarray],
) -> int:
    """Longest run of plain frame segments (``known``; ``ring``: the segments in order round the board) that a
    surface over the frame and the edge tiles covers, foreign against the band's lighting model fitted without
    them; 0 when no window stands out.

    Only where the whole band's threshold lies above its floor (the model's spread was inflated). Every window
    of ``absorbed_lengths`` consecutive known segments (round the board, corners included) is left out of a
    least-squares plane in turn (:func:`_fits_without`): a candidate when each of its segments lies past the
    foreign threshold of that fit (``foreign_distance`` times the median residual of the segments it was
    fitted to, at least ``band_floor``, as :func:`vision.occlusion_band._foreign_segments` sets it). The
    longest candidates (``absorbed_tries``) are fitted again robustly without the window; a window counts when
    that shrinks the rest's median residual to ``absorbed_shrink`` of the whole band's or less (the run bent
    the model), and in it the segments that ``judge`` still finds foreign (glare, shade, a pool, a spill over
    the edge excused, and no near-white gain: a haze washes frame and edge tile alike), that stand
    ``absorbed_margin`` times the threshold out, and whose colour goes on over the edge tile just inside
    (``inner()``, :func:`vision.occlusion_band.inner_colours`, within ``finger_cont`` of the segment's shift
    from the model) make the run.
    """
    order = np.array([int(i) for i in ring if known[i]])
    n = len(order)
    lengths = np.array([k for k in range(cfg.absorbed_lengths[0], cfg.absorbed_lengths[1] + 1) if k <= n // 2])
    residual, _ = _gradient_residuals(values, positions, known, np.ones(3))
    whole = float(np.median(residual[known]))
    if len(lengths) == 0 or cfg.foreign_distance * whole <= cfg.band_floor:
        return 0  # the threshold sits at its floor: nothing inflated it
    starts, sizes, screened = _fits_without(values[order], positions[order], lengths)
    inside = (np.arange(n)[None, :] - starts[:, None]) % n < sizes[:, None]
    spread = _medians_outside(screened, inside, n - sizes)
    threshold = np.maximum(cfg.band_floor, cfg.foreign_distance * spread)
    stands = np.all(~inside | (screened > threshold[:, None]), axis=1)
    if not stands.any():
        return 0
    lowest = np.min(np.where(inside, screened / threshold[:, None], np.inf), axis=1)
    ranked = [int(k) for k in np.lexsort((-lowest, -sizes)) if stands[k]]
    best = 0
    strip = None
    for k in ranked[: cfg.absorbed_tries]:
        window = _along(order, int(starts[k]), int(sizes[k]))
        rest = known.copy()
        rest[window] = False
        residual, expected = _gradient_residuals(values, positions, rest, np.ones(3))
        left = float(np.median(residual[rest]))
        if left > cfg.absorbed_shrink * whole:
            continue
        far = residual >= cfg.absorbed_margin * max(cfg.band_floor, cfg.foreign_distance * left)
        if not far[window].any():
            continue
        strip = inner() if strip is None else strip
        over = np.linalg.norm(values - strip, axis=1) < cfg.finger_cont * np.linalg.norm(values - expected, axis=1)
        flags = judge(rest=rest) & far & over
        run = 0
        for segment in window:
            run = run + 1 if flags[segment] else 0
            best = max(best, run)
    return best


def _medians_outside(residual: np.ndarray, inside: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Per row, the median of the residuals outside its window (``counts`` of them), all rows in one sort."""
    ordered = np.sort(np.where(inside, np.inf, residual), axis=1)
    rows = np.arange(len(residual))
    return 0.5 * (ordered[rows, (counts - 1) // 2] + ordered[rows, counts // 2])


def _along(order: np.ndarray, start: int, size: int) -> np.ndarray:
    """The segments of a window in order round the board (``order``: the known segments, closed)."""
    return order[(start + np.arange(size)) % len(order)]


def _fits_without(
    values: np.ndarray, positions: np.ndarray, lengths: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The planar lighting model (least squares) of the segments outside each window of ``lengths`` consecutive
    segments (``values``, ``positions``: the known segments in order round the board, closed), all windows at
    once: each window's fit is the whole band's sums minus the window's (running sums round the ring).
    Returns each window's start, its length and every segment's distance from its model (windows x segments).
    A screen only: the window found is fitted again robustly (:func:`_gradient_residuals`).
    """
    n = len(values)
    design = np.column_stack([np.ones(n), positions])
    outer = design[:, :, None] * design[:, None, :]
    cross = design[:, :, None] * values[:, None, :]
    run_outer = np.concatenate([np.zeros((1, 3, 3)), np.cumsum(np.concatenate([outer, outer]), axis=0)])
    run_cross = np.concatenate([np.zeros((1, 3, 3)), np.cumsum(np.concatenate([cross, cross]), axis=0)])
    starts = np.tile(np.arange(n), len(lengths))
    sizes = np.repeat(lengths, n)
    normal = run_outer[n] - (run_outer[starts + sizes] - run_outer[starts])
    moments = run_cross[n] - (run_cross[starts + sizes] - run_cross[starts])
    coef = np.linalg.solve(normal + 1e-9 * np.eye(3), moments)
    residual = np.linalg.norm(values[None] - np.matmul(design[None], coef), axis=2)
    return starts, sizes, residual


def _gradient_residuals(
    values: np.ndarray, positions: np.ndarray, known: np.ndarray, scale: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Distance of each segment's colour from a smooth (planar) lighting model of the frame, fitted robustly,
    and the model's value there.

    ``scale`` weighs the L, a, b differences: shadows and uneven light change L far
    more than colour.
    """
    design = np.column_stack([np.ones(len(positions)), positions])
    weights = known.astype(np.float64)
    residual = np.zeros(len(values))
    for _ in range(3):
        w = np.sqrt(weights)[:, None]
        coef, *_ = np.linalg.lstsq(design * w, values * w, rcond=None)
        residual = np.linalg.norm((values - design @ coef) * scale, axis=1)
        cut = max(4.0, 2.5 * float(np.median(residual[known])))
        weights = (known & (residual <= cut)).astype(np.float64)
        if weights.sum() < 8:
            break
    return residual, design @ coef
