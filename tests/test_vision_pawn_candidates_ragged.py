"""Ragged bodies: a colour's mask closed before it is opened (vision.pawn_candidates.ragged_blobs)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.pawn_candidates import ragged_blobs
from vision.pawn_model import PawnConfig

TILE = 48


def _opening() -> tuple[np.ndarray, int]:
    k = max(3, round(TILE / 16)) | 1
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)), k


def _first(mask: np.ndarray) -> np.ndarray:
    """The usual pass: the mask opened, labelled."""
    kernel, _ = _opening()
    opened = cv2.morphologyEx(mask.view(np.uint8), cv2.MORPH_OPEN, kernel)
    return cv2.connectedComponents(opened, connectivity=8)[1]


def _disc(radius: float, side: int = 3 * TILE) -> np.ndarray:
    yy, xx = np.mgrid[0:side, 0:side]
    return (yy - side / 2) ** 2 + (xx - side / 2) ** 2 <= radius**2


def test_a_speckled_body_the_opening_breaks_up_is_a_ragged_blob() -> None:
    yy, xx = np.mgrid[0 : 3 * TILE, 0 : 3 * TILE]
    mask = _disc(0.2 * TILE) & ((yy + xx) % 2 == 0)  # a dull paint: every other pixel passes the gate
    first = _first(mask)
    assert first.max() == 0  # the usual opening leaves nothing
    labels, blobs = ragged_blobs(mask, first, _opening(), PawnConfig(), TILE)
    assert len(blobs) == 1
    index, (x, y, w, h), rel = blobs[0]
    assert 0.1 < rel < 0.14  # the disc's 0.126 tile
    assert abs(x + w / 2 - 1.5 * TILE) <= 1 and abs(y + h / 2 - 1.5 * TILE) <= 1
    assert np.count_nonzero(labels == index) == round(rel * TILE * TILE)


def test_a_blob_the_first_pass_judged_or_only_rounded_off_is_not_ragged() -> None:
    cfg = PawnConfig()
    solid = _disc(0.2 * TILE)
    # Pawn-sized after the usual opening: judged already.
    assert ragged_blobs(solid, _first(solid), _opening(), cfg, TILE)[1] == []
    # A few pinholes the closing fills (the mask covers over 7/8 of the blob): not ragged,
    # whatever the first pass made of it.
    holed = solid.copy()
    holed[::6, ::6] = False
    assert ragged_blobs(holed, np.zeros(solid.shape, np.int32), _opening(), cfg, TILE)[1] == []
    # A speck under min_area stays under it.
    speck = _disc(0.08 * TILE)
    assert ragged_blobs(speck, np.zeros(speck.shape, np.int32), _opening(), cfg, TILE)[1] == []
