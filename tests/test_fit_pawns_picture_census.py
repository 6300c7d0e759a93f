"""The p47 picture census's rim cue and AUC on synthetic blobs (no renders)."""

from __future__ import annotations

import numpy as np

from tests.support.fit_pawns_picture_census import _rim, auc


def _disc_blob(size: int = 41, radius: int = 14) -> tuple[np.ndarray, float, float]:
    yy, xx = np.mgrid[:size, :size]
    centre = size // 2
    return (yy - centre) ** 2 + (xx - centre) ** 2 <= radius**2, float(centre), float(centre)


def test_an_evenly_lit_print_has_an_even_rim_and_a_ball_lit_from_one_side_does_not() -> None:
    blob, cy, cx = _disc_blob()
    hsv = np.zeros((*blob.shape, 3), dtype=np.uint8)
    hsv[..., 1] = 200
    flat = np.full(blob.shape, 300.0, dtype=np.float32)
    xx = np.mgrid[: blob.shape[0], : blob.shape[1]][1].astype(np.float32)
    lit = 300.0 + 8.0 * (xx - cx)  # brighter towards the light on the right, shaded on the left
    assert _rim(blob, hsv, flat, cy, cx, 48)["rim_uneven"] < 0.05
    assert _rim(blob, hsv, lit, cy, cx, 48)["rim_uneven"] > 0.5


def test_a_rim_too_thin_to_measure_says_nothing() -> None:
    blob = np.zeros((9, 9), dtype=bool)
    blob[4, 4] = True
    hsv = np.zeros((9, 9, 3), dtype=np.uint8)
    assert _rim(blob, hsv, np.ones((9, 9), dtype=np.float32), 4.0, 4.0, 48) == {}


def test_auc_counts_ties_as_half() -> None:
    assert auc([2.0, 3.0], [1.0]) == 1.0
    assert auc([1.0], [1.0]) == 0.5
    assert np.isnan(auc([], [1.0]))
