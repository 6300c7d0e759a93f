"""A bright pawn whose top the sensor clipped: its shading is unknown, not small, where its rim shows a darker
crescent on one side (vision.pawns._clipped_shading, vision.pawns.crescent)."""

from __future__ import annotations

import numpy as np
import pytest

import vision.pawns as pawns_mod
from companion.board import Color
from vision.pawn_candidates import Candidate
from vision.pawn_model import FEATURES, PawnModel
from vision.pawns import CRESCENT, _best, _clipped_shading, _clipped_share, crescent, find_pawns
from vision.rectify import Rectified

_SURFACE = FEATURES.index("surface")
_SMOOTH = FEATURES.index("smooth_range")
_T, _M = 48, 36
_SIDE = 2 * _M + 7 * _T
_CORNERS = np.array([[_M, _M], [_M + 7 * _T, _M], [_M + 7 * _T, _M + 7 * _T], [_M, _M + 7 * _T]], np.float32)


def _model() -> PawnModel:
    """Logit = shading terms rising up to the pawns' lower quartile (as the fitted model's first knots), - 3."""
    terms = {"surface": ((0.33,), (10.0, 0.0)), "smooth_range": ((0.2,), (5.0, 0.0))}
    return PawnModel.from_terms(terms, -3.0)


def _disc(image: np.ndarray, labels: np.ndarray, index: int, cx: float, cy: float, gain: float) -> None:
    """A yellow disc (label ``index``) lit from the top left, ``gain`` times the sensor's range on its lit side;
    gain 0 is a flat print of one clipped level."""
    yy, xx = np.mgrid[0:_SIDE, 0:_SIDE].astype(np.float64)
    radius = 0.22 * _T
    inside = np.hypot(xx - cx, yy - cy) <= radius
    nx, ny = (xx - cx) / radius, (yy - cy) / radius
    light = np.clip(0.65 - 0.45 * (nx + ny) / np.sqrt(2), 0.25, 1.0) * gain if gain else np.full_like(xx, 2.0)
    body = np.stack([10 + 30 * light, 40 + 215 * light, 40 + 215 * light], axis=-1)
    image[inside] = np.clip(body[inside], 0, 255).astype(np.uint8)
    labels[inside] = index


def _board(gains: dict[int, float]) -> tuple[Rectified, np.ndarray]:
    """A sand board with a disc per label (1, 2, ...) in a row, each with its ``gain`` (:func:`_disc`)."""
    image = np.full((_SIDE, _SIDE, 3), (150, 200, 225), np.uint8)
    labels = np.zeros((_SIDE, _SIDE), np.int32)
    for index, gain in gains.items():
        _disc(image, labels, index, _M + 60 * index, 110.0, gain)
    return Rectified(image, _T, _M, np.eye(3), _CORNERS), labels


def _cand(labels: np.ndarray, index: int, surface: float) -> Candidate:
    row = [0.0] * len(FEATURES)
    row[_SURFACE], row[_SMOOTH] = surface, 0.01
    ys, xs = np.nonzero(labels == index)
    box = (int(xs.min()), int(ys.min()), int(xs.max() - xs.min() + 1), int(ys.max() - ys.min() + 1))
    return Candidate(Color.YELLOW, tuple(row), (float(xs.mean()), float(ys.max())), box, 0.17, labels, index)


def test_a_clipped_dome_shows_a_crescent_and_a_flat_print_none() -> None:
    rect, labels = _board({1: 2.2, 2: 0.0, 3: 1.0})
    dome, flat, lit = (_cand(labels, k, 0.03) for k in (1, 2, 3))
    assert _clipped_share(dome, rect) > pawns_mod.CLIPPED_SHARE
    assert crescent(dome, rect) >= CRESCENT
    assert _clipped_share(flat, rect) == 1.0
    assert crescent(flat, rect) == 0.0
    assert _clipped_share(lit, rect) == 0.0  # within the sensor's range: nothing to judge


def test_only_the_clipped_blob_with_a_crescent_is_lifted() -> None:
    model = _model()
    for gain, read in ((2.2, True), (0.0, False), (1.0, False)):
        rect, labels = _board({1: gain})
        found = [_cand(labels, 1, 0.03)]
        assert Color.YELLOW not in _best(found, model, 0.5)  # flat shading: under the threshold
        best = _clipped_shading(found, {}, model, 0.5, rect)
        assert (Color.YELLOW in best) is read, gain
        if read:
            assert best[Color.YELLOW][1] is found[0]  # the blob as measured is reported


def test_a_colour_with_a_pawn_keeps_it() -> None:
    """A clipped blob of a colour already read gains nothing over its pawn."""
    rect, labels = _board({1: 2.2, 2: 1.0})
    found = [_cand(labels, 1, 0.03), _cand(labels, 2, 0.33)]
    model = _model()
    best = _best(found, model, 0.5)
    assert best[Color.YELLOW][1] is found[1]
    assert _clipped_shading(found, best, model, 0.5, rect) == best


def _dome_board(gain: float) -> Rectified:
    """A sand board with a yellow disc on square (3, 3) (:func:`_disc`) casting a soft shadow to the bottom right."""
    image = np.full((_SIDE, _SIDE, 3), (150, 200, 225), np.uint8)
    labels = np.zeros((_SIDE, _SIDE), np.int32)
    centre = _M + 3 * _T + _T // 2
    yy, xx = np.mgrid[0:_SIDE, 0:_SIDE].astype(np.float64)
    radius = 0.22 * _T
    dark = (np.hypot(xx - centre - 6, yy - centre - 6) <= radius + 2) & (np.hypot(xx - centre, yy - centre) > radius)
    image[dark] = (image[dark] * 0.55).astype(np.uint8)
    _disc(image, labels, 1, centre, centre, gain)
    return Rectified(image, _T, _M, np.eye(3), _CORNERS)


def test_a_clipped_dome_is_read_by_its_crescent(monkeypatch: pytest.MonkeyPatch) -> None:
    """Within the sensor's range the dome is a pawn; 2.2 times brighter its top is one flat 255, and only the
    crescent on its shaded side still reads it."""
    assert [d.color for d in find_pawns(_dome_board(1.0), None)] == [Color.YELLOW]
    clipped = _dome_board(2.2)
    assert [d.color for d in find_pawns(clipped, None)] == [Color.YELLOW]
    monkeypatch.setattr(pawns_mod, "CRESCENT", 2.0)
    assert find_pawns(clipped, None) == []


def test_a_clipped_flat_disc_is_no_pawn() -> None:
    """The same cast shadow round a flat clipped disc (its other terms keep it out even lifted; the gate itself
    is :func:`test_only_the_clipped_blob_with_a_crescent_is_lifted`)."""
    assert find_pawns(_dome_board(0.0), None) == []
