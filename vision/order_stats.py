"""``np.percentile`` and ``np.median`` of one 1-D float array, bit for bit, without their machinery.

On the few hundred to few thousand values the locator reads (arm residuals, a
gradient's strong pixels), numpy's general quantile code (axis handling, NaN
checks, a copy, 0-d array wrapping) costs ~0.1-0.2 ms a call, several times the
partition it runs. These take one partition and do numpy's arithmetic on the two
order statistics: its virtual index ``(n - 1) * q``, its two-sided lerp (from the
upper value when the fraction is at least a half), in the array's own precision
as numpy does for a Python-scalar ``q`` (float32 values give a float32 result).
Arrays with NaNs go to numpy (its NaN rule is kept, not copied).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["median", "percentile"]


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
