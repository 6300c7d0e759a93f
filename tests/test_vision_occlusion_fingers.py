"""Splayed fingers: clusters of foreign tile corners from the edge, each crossing the frame, add up."""

from __future__ import annotations

import numpy as np

from companion.board import SIZE
from vision.occlusion import decide
from vision.occlusion_band import finger_clusters
from vision.occlusion_config import Signals


def _fingers() -> np.ndarray:
    """Two fingers over the top rows (spent final9 th_occ 0012): clusters of 3 and 4 points, a clear gap between."""
    foreign = np.zeros((SIZE + 1, SIZE + 1), dtype=bool)
    foreign[0, 1:3] = foreign[1, 1] = True
    foreign[0, 4:6] = foreign[1, 3:5] = True
    return foreign


def _top(*segments: int) -> np.ndarray:
    flags = np.zeros((4, 2 * SIZE), dtype=np.int8)
    flags[0, list(segments)] = 1
    return flags.reshape(-1)


def _day(from_edge: int) -> Signals:
    return Signals(band_run=0, lattice=from_edge, quality=0.95, low_tiles=0, lattice_from_edge=from_edge)


def test_fingers_each_crossing_the_frame_add_up() -> None:
    assert finger_clusters(_fingers(), _top(1, 9)) == 7
    assert decide(_day(finger_clusters(_fingers(), _top(1, 9)))) is not None


def test_a_cluster_without_its_own_frame_crossing_does_not_count() -> None:
    assert finger_clusters(_fingers(), _top(9)) == 4  # only the right finger crosses a foreign segment
    assert finger_clusters(_fingers(), _top(13)) == 0  # a foreign segment away from both fingers
    assert finger_clusters(_fingers(), _top()) == 0
    assert decide(_day(finger_clusters(_fingers(), _top(9)))) is None


def test_clusters_staying_on_the_edge_do_not_count() -> None:
    rim = np.zeros((SIZE + 1, SIZE + 1), dtype=bool)
    rim[0, 1:6] = True  # along the edge only: the frame's rim, not fingers coming in
    assert finger_clusters(rim, _top(1, 3, 5, 7, 9)) == 0
