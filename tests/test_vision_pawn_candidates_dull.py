"""The dull pawns' second gate: one dull paint straddling the first gate, not a print's ink and pastel."""

from __future__ import annotations

import cv2
import numpy as np

from vision.pawn_candidates_dull import DULL_CEILING, dull_blobs, is_dull_body, taken_mask

TILE = 48


def _disc(side: int = 40, radius: float = 12.0) -> np.ndarray:
    yy, xx = np.mgrid[0:side, 0:side]
    return np.hypot(xx - side / 2, yy - side / 2) <= radius


def _shaded_body(blob: np.ndarray) -> np.ndarray:
    """A dull paint lit from the left: saturation 60 on the lit side rising to 110 on the shaded side."""
    _, xx = np.mgrid[0 : blob.shape[0], 0 : blob.shape[1]]
    return np.where(blob, 60 + 50 * xx / (blob.shape[1] - 1), 0).astype(np.uint8)


def test_a_dull_body_seen_in_pieces_by_the_first_gate_is_a_candidate() -> None:
    blob = _disc()
    saturation = _shaded_body(blob)
    core = blob & (saturation >= 90)
    assert is_dull_body(blob, saturation, core, np.zeros_like(blob))


def test_a_print_s_ink_on_its_pastel_ground_is_not() -> None:
    """The lower gate joins a saturated picture and its pastel disc: the ink lies far above the first gate."""
    blob = _disc()
    ink = _disc(radius=7.0)
    saturation = np.where(ink, 200, np.where(blob, 70, 0)).astype(np.uint8)
    core = blob & (saturation >= 90)
    assert float(np.mean(saturation[core] > DULL_CEILING)) == 1.0
    assert not is_dull_body(blob, saturation, core, np.zeros_like(blob))


def test_a_pastel_alone_and_a_blob_already_judged_are_not() -> None:
    blob = _disc()
    pastel = np.where(blob, 70, 0).astype(np.uint8)
    assert not is_dull_body(blob, pastel, blob & (pastel >= 90), np.zeros_like(blob))
    saturation = _shaded_body(blob)
    core = blob & (saturation >= 90)
    assert not is_dull_body(blob, saturation, core, core)  # the first pass judged its shaded side


def test_dull_blobs_keeps_foot_sized_dull_bodies_largest_first() -> None:
    side = 4 * TILE
    mask = np.zeros((side, side), np.uint8)
    cv2.circle(mask, (40, 40), 14, 1, -1)  # a dull body, ~0.27 tile
    cv2.circle(mask, (140, 40), 9, 1, -1)  # a smaller one, ~0.11 tile
    cv2.circle(mask, (40, 140), 2, 1, -1)  # a speck, under min_area
    cv2.rectangle(mask, (100, 120), (180, 160), 1, -1)  # a print: ink far above the gate
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    blob = mask > 0
    saturation = np.zeros(blob.shape, np.uint8)
    for i, (x, y, w, h, _) in enumerate(stats.tolist()[1:], start=1):
        box = (slice(y, y + h), slice(x, x + w))
        saturation[box] = np.maximum(saturation[box], _shaded_body(labels[box] == i))
    saturation[125:155, 110:170] = 210
    core = blob & (saturation >= 90)
    limits = (0.035, 1.2, 1.6, 0.3)
    found = dull_blobs(labels, stats, saturation, core, np.zeros_like(blob), TILE, limits)
    assert [box[:2] for _, box, _ in found] == [(26, 26), (131, 31)]
    assert found[0][2] > found[1][2] > 0.035
    judged = [(labels, found[0][0], found[0][1])]
    again = dull_blobs(labels, stats, saturation, core, taken_mask(blob.shape, judged), TILE, limits)
    assert [box[:2] for _, box, _ in again] == [(131, 31)]
