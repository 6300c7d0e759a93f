"""The pawn features' shortcuts change no number (vision.pawn_features: ``_std``, the smooth range measured last,
the best cases added up from their terms, the model's terms without min/max calls)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from companion.board import Color
from vision import pawn_features
from vision.pawn_candidates import candidates
from vision.pawn_features import _SMOOTH_RANGE_SPAN, FEATURES, _smooth_range, _std
from vision.pawn_model import PawnConfig, _segments
from vision.rectify import Rectified

T, M = 48, 36
SMOOTH_RANGE = FEATURES.index("smooth_range")


def _board(kind: str) -> Rectified:
    """A sand board with one red disc on square (3, 3): a dome lit from the top left, or a large flat print."""
    side = 2 * M + 7 * T
    image = np.full((side, side, 3), (150, 200, 225), np.uint8)
    cx = cy = M + 3 * T + T // 2
    yy, xx = np.mgrid[0:side, 0:side].astype(np.float64)
    radius = (0.3 if kind == "dome" else 0.45) * T
    inside = np.hypot(xx - cx, yy - cy) <= radius
    if kind == "dome":
        light = np.clip(0.55 - 0.45 * ((xx - cx) + (yy - cy)) / (radius * np.sqrt(2)), 0.1, 1.0)
    else:
        light = np.full(xx.shape, 0.8)
    body = np.stack([10 + 20 * light, 10 + 20 * light, 30 + 225 * light], axis=-1)
    image[inside] = body[inside].astype(np.uint8)
    corners = np.array([[M, M], [M + 7 * T, M], [M + 7 * T, M + 7 * T], [M, M + 7 * T]], np.float32)
    return Rectified(image, T, M, np.eye(3), corners)


def test_std_is_numpys_bit_for_bit() -> None:
    rng = np.random.default_rng(3)
    for n in (1, 2, 7, 8, 9, 100, 129, 1000, 5000):
        values = rng.normal(120.0, 35.0, n) * rng.random()
        assert _std(values) == float(np.std(values))
        rounded = np.round(values)
        assert _std(rounded) == float(np.std(rounded))


@pytest.mark.parametrize("level", [0, 1, 128, 255])
def test_the_smooth_range_lies_in_its_span(level: int) -> None:
    # Its best end is taken for a blob whose range is not measured yet: it must bound every measure.
    rng = np.random.default_rng(level)
    raw = np.clip(level + rng.normal(0.0, 90.0, (30, 30)), 0, 255).astype(np.uint8)
    raw[::3] = 0
    ys, xs = np.nonzero(np.ones((30, 30), bool))
    lo, hi = _SMOOTH_RANGE_SPAN
    for light in (None, np.full((30, 30), 0.15, np.float32), rng.uniform(0.15, 4.0, (30, 30)).astype(np.float32)):
        assert lo <= _smooth_range(raw, light, (ys, xs), T) <= hi


def test_a_flat_print_is_given_up_before_its_median_filter(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    measure = pawn_features._smooth_range

    def counted(*args: object) -> float:
        calls.append(args)
        return measure(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(pawn_features, "_smooth_range", counted)
    floor = PawnConfig().min_confidence
    assert [c for c in candidates(_board("flat"), None, min_confidence=floor) if c.color is Color.RED] == []
    assert calls == []  # its flat surface alone condemns it
    assert [c.color for c in candidates(_board("dome"), None, min_confidence=floor)] == [Color.RED]
    assert len(calls) == 1  # a body that can pass is measured in full


@pytest.mark.parametrize("kind", ["flat", "dome"])
def test_the_early_exits_change_no_answer(kind: str) -> None:
    cfg = PawnConfig()
    rect = _board(kind)
    full = {c.box: c.features for c in candidates(rect, None, cfg)}
    kept = {c.box: c.features for c in candidates(rect, None, cfg, min_confidence=cfg.min_confidence)}
    p = cfg.min_confidence
    for box, feats in full.items():
        if box in kept:
            assert kept[box] == feats
        else:
            assert cfg.model.logit(feats) < math.log(p / (1 - p))
    assert set(kept) <= set(full)


def _segments_with_builtins(x: float, knots: tuple[float, ...], slopes: tuple[float, ...]) -> float:
    """The piecewise term as first written, with ``min`` and ``max``."""
    if not knots:
        return slopes[0] * x
    z = slopes[0] * min(x, knots[0]) + slopes[-1] * max(x, knots[-1])
    for j in range(1, len(knots)):
        z += slopes[j] * min(max(x, knots[j - 1]), knots[j])
    return z


def test_the_written_out_clips_are_min_and_max_bit_for_bit() -> None:
    model = PawnConfig().model
    rng = np.random.default_rng(8)
    values = [*rng.normal(0.3, 0.7, 500), 0.0, -0.0, math.inf, -math.inf, math.nan]
    for _, knots, slopes in model._terms:
        edges = [*knots, *(np.nextafter(k, math.inf) for k in knots), *(np.nextafter(k, -math.inf) for k in knots)]
        for x in [*values, *(float(k) for k in edges)]:
            mine, theirs = _segments(float(x), knots, slopes), _segments_with_builtins(float(x), knots, slopes)
            if math.isnan(theirs):
                assert math.isnan(mine)
            else:
                assert mine == theirs and math.copysign(1.0, mine) == math.copysign(1.0, theirs)


def test_the_surface_is_refitted_only_when_an_outlier_was_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    """With every pixel kept the refit would solve the very same system: it is solved once; a glint
    (outliers) still gets its refit without them."""
    from vision import pawn_features as pf

    yy, xx = np.mgrid[0:30, 0:30]
    plane = 100.0 + 2.0 * xx + 0.5 * yy  # a smooth light field: every residual is ~0, every pixel kept
    inside = np.nonzero(np.ones((30, 30), bool))
    solved: list[int] = []
    least_squares = pf._least_squares

    def counting(design: np.ndarray, target: np.ndarray) -> np.ndarray:
        solved.append(len(target))
        return least_squares(design, target)

    monkeypatch.setattr(pf, "_least_squares", counting)
    smooth = pf._surface(plane, inside, 48)
    assert solved == [900]
    glint = plane.copy()
    glint[10:13, 10:13] = 250.0
    solved.clear()
    pf._surface(glint, inside, 48)
    assert len(solved) == 2 and 900 - 9 >= solved[1] > 800
    # The one fit's answer is the refit's: solving the same system again gives the same bits.
    monkeypatch.setattr(pf, "_least_squares", least_squares)
    design = np.empty((900, 6))
    ys, xs = inside
    design[:, 0] = 1.0
    design[:, 1] = (xs - float(xs.sum()) / 900) / 48
    design[:, 2] = (ys - float(ys.sum()) / 900) / 48
    design[:, 3], design[:, 4], design[:, 5] = design[:, 1] ** 2, design[:, 2] ** 2, design[:, 1] * design[:, 2]
    target = plane[ys, xs]
    keep = np.ones(900, bool)
    assert np.array_equal(least_squares(design, target), least_squares(design[keep], target[keep]))
    assert smooth[1] == pytest.approx((2.0 * 48, 0.5 * 48))
