"""A clipped yellow print whose shape reads as a crescent is no dome: a printed ring (its pale centre off the
blob's centre is a hole in the blob) and a printed moon (a yellow disc beside a white crescent)
(vision.pawns._printed_disc, vision/notes/pawns.md p56)."""

from __future__ import annotations

import numpy as np
import pytest

import vision.pawns as pawns_mod
from companion.board import Color
from tests.test_vision_pawns_clipped import _CORNERS, _M, _SIDE, _T, _board, _cand, _model
from vision.pawns import CRESCENT, _clipped_shading, _clipped_share, _printed_disc, crescent
from vision.rectify import Rectified

_CENTRE = _M + 3 * _T + _T // 2
_RADIUS = 0.3 * _T


def _canvas() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    image = np.full((_SIDE, _SIDE, 3), (150, 200, 225), np.uint8)
    labels = np.zeros((_SIDE, _SIDE), np.int32)
    yy, xx = np.mgrid[0:_SIDE, 0:_SIDE].astype(np.float64)
    return image, labels, yy, xx


def _ring() -> tuple[Rectified, np.ndarray]:
    """A clipped yellow annulus in a black outline round a pale centre set off to the top left; the ink's blur
    darkens the annulus' edges."""
    image, labels, yy, xx = _canvas()
    outer = np.hypot(xx - _CENTRE, yy - _CENTRE)
    hole = np.hypot(xx - _CENTRE + 3, yy - _CENTRE + 3)
    ring = (outer <= _RADIUS) & (hole > 0.14 * _T)
    image[outer <= _RADIUS + 1.5] = (20, 20, 20)
    image[ring] = (70, 255, 255)
    image[ring & ((hole <= 0.14 * _T + 1.5) | (outer > _RADIUS - 1.5))] = (60, 190, 190)
    image[(hole <= 0.14 * _T) & (outer <= _RADIUS)] = (235, 245, 245)
    labels[ring] = 1
    return Rectified(image, _T, _M, np.eye(3), _CORNERS), labels


def _moon() -> tuple[Rectified, np.ndarray]:
    """A clipped yellow disc inside a black-outlined white one, off to the right: a white crescent on its left,
    the outline's blur darkening its right edge only."""
    image, labels, yy, xx = _canvas()
    big = np.hypot(xx - _CENTRE, yy - _CENTRE)
    yellow = np.hypot(xx - _CENTRE - 4, yy - _CENTRE) <= _RADIUS - 4
    image[big <= _RADIUS + 1.5] = (20, 20, 20)
    image[big <= _RADIUS] = (250, 252, 252)
    image[yellow] = (70, 255, 255)
    image[yellow & (big > _RADIUS - 1.5)] = (60, 190, 190)
    labels[yellow] = 1
    return Rectified(image, _T, _M, np.eye(3), _CORNERS), labels


@pytest.mark.parametrize("make, gate", [(_ring, "WHITE_BORDER"), (_moon, "RING_HOLES")])
def test_a_printed_ring_or_moon_is_not_lifted(monkeypatch: pytest.MonkeyPatch, make: object, gate: str) -> None:
    """Both clip and show a crescent, so without the shape test they are read; each is caught by its own gate
    (the other one switched off)."""
    rect, labels = make()  # type: ignore[operator]
    found = [_cand(labels, 1, 0.03)]
    assert _clipped_share(found[0], rect) > pawns_mod.CLIPPED_SHARE
    assert crescent(found[0], rect) >= CRESCENT
    monkeypatch.setattr(pawns_mod, gate, 1.0)
    assert _printed_disc(found[0], rect)
    assert Color.YELLOW not in _clipped_shading(found, {}, _model(), 0.5, rect)
    monkeypatch.setattr(pawns_mod, "RING_HOLES", 1.0)
    monkeypatch.setattr(pawns_mod, "WHITE_BORDER", 1.0)
    assert Color.YELLOW in _clipped_shading(found, {}, _model(), 0.5, rect)


def test_a_clipped_dome_is_no_printed_disc() -> None:
    rect, labels = _board({1: 2.2})
    assert not _printed_disc(_cand(labels, 1, 0.03), rect)
