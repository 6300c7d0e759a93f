"""The day's lone frame-band run: the gates count only beside edge tiles whose outer corners are covered."""

from __future__ import annotations

import numpy as np

from companion.board import SIZE
from vision.occlusion import LONE_RUN_DOUBT, _lone_run


def _bottom(*segments: int, gates: bool = False) -> np.ndarray:
    """Frame-band flags (:func:`vision.occlusion_band.frame_band` order) with ``segments`` of the bottom side foreign;
    the gates unknown (-1), or judged (0 unless listed) with ``gates``."""
    flags = np.zeros((4, 2 * SIZE), dtype=np.int8)
    if not gates:
        flags[:, [k for k in range(2 * SIZE) if (k // 2) in (1, 3, 5)]] = -1
    flags[2, list(segments)] = 1
    return flags.reshape(-1)


def _corners(*points: tuple[int, int]) -> np.ndarray:
    out = np.zeros((SIZE + 1, SIZE + 1), dtype=bool)
    for point in points:
        out[point] = True
    return out


# Fresh third-renderer th_occ 0062 (o28): a pale hand over the bottom-left crossing the frame, gates included.
_PLAIN = _bottom(0, 1, 4, 5)
_GATED = _bottom(0, 1, 2, 3, 4, 5, gates=True)
_BLOWN = _corners((7, 0), (7, 1), (7, 2), (7, 3))


def _unexpected() -> np.ndarray:
    raise AssertionError("measured on a doubtful run only")


def test_gates_beside_covered_edge_corners_lengthen_the_run() -> None:
    assert _lone_run(_PLAIN, lambda: _GATED, lambda: _BLOWN) == 6


def test_gates_beside_clear_edge_corners_add_nothing() -> None:
    assert _lone_run(_PLAIN, lambda: _GATED, lambda: _corners()) == 4
    far = _corners((7, 5), (7, 6), (7, 7))  # covered corners away from the run
    assert _lone_run(_PLAIN, lambda: _GATED, lambda: far) == 4


def test_a_short_run_is_not_judged_again() -> None:
    short = _bottom(0, 1)
    assert LONE_RUN_DOUBT > 2
    assert _lone_run(short, _unexpected, _unexpected) == 2
