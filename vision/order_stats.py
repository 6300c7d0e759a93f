"""``np.percentile`` and ``np.median`` of one 1-D float array, bit for bit, without their machinery.

On the few hundred to few thousand values the locator and the pawn features read
(arm residuals, a gradient's strong pixels, a blob's brightness), numpy's general
quantile code (axis handling, NaN checks, a copy, 0-d array wrapping) costs ~0.1-0.2 ms a call, several times the
partition it runs. These take one partition and do numpy's arithmetic on the two
order statistics: its virtual index ``(n - 1) * q``, its two-sided lerp (from the
upper value when the fraction is at least a half), in the array's own precision
as numpy does for a Python-scalar ``q`` (float32 values give a float32 result).
Arrays with NaNs go to numpy (its NaN rule is kept, not copied).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

__all__ = ["median", "percentile", "percentiles"]


def percentile(values: np.ndarray, q: float) -> np.floating:
    """``np.percentile(values, q)`` (linear method, ``q`` a Python number) of a 1-D float array, bit for bit."""
    n = values.size
    if n == 0 or values.dtype.kind != "f" or values.ndim != 1:
        return np.percentile(values, q)
    index = (n - 1) * (q / 100)
    if not 0.0 <= index < n - 1:
        lo = hi = 0 if index < 0 else n - 1
    else:
        lo = math.floor(index)
        hi = lo + 1
    ordered = np.partition(values, (lo, hi) if hi != lo else lo)
    a, b = ordered[lo], ordered[hi]  # numpy scalars of the array's type
    if np.isnan(a) or np.isnan(b) or (n > 2 and np.isnan(ordered[-1])):
        return np.percentile(values, q)
    gamma = float(index - lo) if hi != lo else 0.0
    diff = b - a
    return b - diff * (1 - gamma) if gamma >= 0.5 else a + diff * gamma


def median(values: np.ndarray) -> float:
    """``float(np.median(values))`` of a non-empty 1-D float64 array, bit for bit (the mean of the middle
    one or two)."""
    n = values.size
    if n == 0 or values.dtype != np.float64 or values.ndim != 1:
        return float(np.median(values))
    half = n // 2
    ordered = np.partition(values, (half - 1, half) if n % 2 == 0 else half)
    if np.isnan(ordered[half]) or np.isnan(ordered.max()):
        return float(np.median(values))
    if n % 2:
        return float(ordered[half])
    return (float(ordered[half - 1]) + float(ordered[half])) / 2.0


def percentiles(values: np.ndarray, percents: Sequence[float]) -> list[float]:
    """``np.percentile(values, percents)`` (linear method) bit for bit, for a small 1-D float64 array.

    One sort and plain float arithmetic: the pawn features take ~10 percentiles and
    medians per blob, and ``np.percentile``'s general machinery costs several times
    the work itself on arrays this small. The index and interpolation formulas are
    numpy's (``(n - 1) * q`` and its two-sided lerp), so the numbers are identical.
    No NaN guard: a blob's values are finite.
    """
    n = len(values)
    if n == 0:
        return [float(v) for v in np.percentile(values, list(percents))]
    positions = [(n - 1) * (p / 100) for p in percents]
    lows = [min(math.floor(x), n - 1) for x in positions]
    highs = [min(lo + 1, n - 1) for lo in lows]
    # A blob's few hundred values sort faster than a multi-pivot partition runs.
    ordered = np.sort(values) if n <= 1000 else np.partition(values, sorted(set(lows) | set(highs)))
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
