"""By day one surface over the frame (a hand, a sleeve, a card) covers a run of frame segments with one colour and
ends at its outline; a light's pool peaks and fades (vision.occlusion_band.one_colour_run), and a spill over the
frame is light only while the edge corner keeps a colour apart from the segment's (vision.occlusion_band._spilled)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.test_vision_occlusion import M, T, _framed_board, _lattice_view
from vision.occlusion import decide
from vision.occlusion_band import _spilled, _white_gain, frame_band, longest_run, one_colour_run
from vision.occlusion_config import OcclusionConfig, Signals
from vision.occlusion_lattice import shade_invariant

SHAPE = (2000, 2000)  # the whole band inside the photo


def _flat(pixels: np.ndarray, inside: bool = True) -> tuple[int, int]:
    """(longest foreign run, longest one-colour run) of the frame with the gates judged, the board inside quiet
    (``inside``: with the tile corners' evidence, which lets a spill off)."""
    rect, (colours, foreign, _) = _lattice_view(pixels, np.zeros(8 * 7, dtype=bool))
    detail: dict[str, np.ndarray] = {}
    flags = frame_band(
        rect,
        SHAPE,
        OcclusionConfig(),
        lattice=(colours, foreign, np.zeros(56, bool)) if inside else None,
        all_gates=True,
        detail=detail,
    )
    return longest_run(flags), one_colour_run(flags, detail["values"], detail["expected"], OcclusionConfig())


def test_fingers_over_the_frame_and_a_gate_make_one_colour_run() -> None:
    image = _framed_board((60, 170, 120), seams=True, arrows=True)  # a light green frame, yellow gate arrows
    hand = image.copy()
    hand[0 : M + 12, M + 5 * T // 2 : M + 11 * T // 2] = (120, 150, 210)  # skin over top segments 5-10
    run, flat = _flat(hand)
    assert run >= 5 and flat >= 5


def test_a_light_pool_over_the_frame_fades_and_is_not_one_colour() -> None:
    image = _framed_board((60, 170, 120), seams=True).astype(np.float32)  # a plain frame: the gates alike
    yy, xx = np.mgrid[: image.shape[0], : image.shape[1]]
    for colour in ((0.3, 0.6, 1.0), (1.0, 1.0, 1.0)):  # a warm LED's light, a white lamp's
        pool = np.exp(-(yy**2 + (xx - M - 4 * T) ** 2) / (2 * (1.6 * T) ** 2))  # peaking just outside the board
        lit = (image * (1.0 + 1.5 * pool[..., None] * np.array(colour))).clip(0, 255).astype(np.uint8)
        run, flat = _flat(lit, inside=False)  # judged on the frame alone (no spill let off)
        assert run >= 6  # long enough to count by length alone: its shape tells it from a hand
        assert flat < OcclusionConfig().min_band_flat
    hand = image.astype(np.uint8)
    hand[0 : M + 12, M + 5 * T // 2 : M + 11 * T // 2] = (120, 150, 210)
    assert _flat(hand, inside=False)[1] >= 5


@pytest.mark.parametrize(
    ("signal", "bar", "words"),
    [("band_flat", "min_band_flat", "one colour"), ("band_fingers", "min_band_fingers", "going on over the tiles")],
)
def test_the_frame_surface_signals_decide_by_day_only(signal: str, bar: str, words: str) -> None:
    # One surface over the frame (a flat run) and fingers spread over it (test_vision_occlusion_band_fingers).
    cfg = OcclusionConfig()
    reason = decide(Signals(0, 0, 0.99, 0, **{signal: getattr(cfg, bar)}), "day", cfg)
    assert reason is not None and words in reason
    assert decide(Signals(0, 0, 0.99, 0, **{signal: getattr(cfg, bar) - 1}), "day", cfg) is None
    assert decide(Signals(0, 0, 0.99, 0, **{signal: 9}), "night", cfg) is None


def test_a_spill_whose_edge_corner_took_the_segments_colour_is_no_light() -> None:
    cfg = OcclusionConfig()
    colours = np.zeros((8, 8, 3), np.float32)
    colours[:] = (20.0, 55.0, 6.0)  # green walls, greener than the frame
    foreign = np.zeros((8, 8), dtype=bool)
    flags = np.zeros(56, dtype=bool)
    flags[5] = True  # a top segment: its edge corner is lattice point (0, 3)
    expected = np.zeros((56, 3), np.float32)
    expected[:] = (30.0, 45.0, 7.0)  # the frame's model
    values = expected.copy()
    values[5] = (45.0, 34.0, 9.0)  # warmer and brighter
    colours[0, 3] = (35.0, 44.0, 8.0)  # light moved the corner as far, each keeping its own colour
    assert _spilled(values - expected, flags, colours, foreign, cfg, values)[5]  # light: each keeps its own
    colours[0, 3] = (44.5, 34.5, 9.0)  # the corner landed on the segment's colour: one surface over both
    assert not _spilled(values - expected, flags, colours, foreign, cfg, values)[5]
    assert _spilled(values - expected, flags, colours, foreign, cfg)[5]  # at night (no colours given) as before


def _invariant(rgb: tuple[float, ...]) -> np.ndarray:
    pixel = np.array([[rgb[::-1]]], dtype=np.float32)  # one BGR pixel
    return shade_invariant(pixel, OcclusionConfig().lightness_weight)[0, 0]


def _glared(rgb: tuple[float, ...], light: float) -> tuple[float, ...]:
    """The 8-bit colour after a warm white glare adds ``light`` (linear) over ``rgb``."""
    linear = (np.array(rgb) / 255.0) ** 2.2 + np.array([1.0, 0.9, 0.85]) * light
    return tuple(np.clip(linear, 0.0, 1.0) ** (1 / 2.2) * 255.0)


def _spill_at_top(frame: tuple, walls: tuple, segment: tuple, corner: tuple, by_day: bool = True) -> bool:
    colours = np.zeros((8, 8, 3), np.float32)
    colours[:] = _invariant(walls)
    colours[0, 3] = _invariant(corner)  # the edge corner of top segment 5
    expected = np.zeros((56, 3), np.float32)
    expected[:] = _invariant(frame)
    values = expected.copy()
    values[5] = _invariant(segment)
    flags = np.zeros(56, dtype=bool)
    flags[5] = True
    foreign = np.zeros((8, 8), dtype=bool)
    cfg = OcclusionConfig()
    return bool(_spilled(values - expected, flags, colours, foreign, cfg, values if by_day else None)[5])


def test_a_white_glare_that_brought_frame_and_corner_to_one_colour_is_still_light() -> None:
    red, red_walls = (170.0, 30.0, 40.0), (160.0, 60.0, 55.0)  # the final18 sixth 0051 case: a red board
    glare = 0.5
    segment, corner = _glared(red, glare), _glared(red_walls, glare)
    # both landed on the glare's pink (the one-colour test alone calls it one surface) ...
    assert np.linalg.norm(_invariant(segment)[:2] - _invariant(corner)[:2]) < 2.0
    # ... but the segment gained white light in every channel: a glare, excused
    assert _white_gain(_invariant(segment), _invariant(red), OcclusionConfig())
    assert _spill_at_top(red, red_walls, segment, corner)
    # skin over a green frame and its edge corner gains red and blue, hardly green: one surface, not excused
    green, green_walls, skin = (60.0, 140.0, 50.0), (80.0, 150.0, 60.0), (235.0, 165.0, 150.0)
    assert not _white_gain(_invariant(skin), _invariant(green), OcclusionConfig())
    assert not _spill_at_top(green, green_walls, skin, skin)
    assert _spill_at_top(green, green_walls, skin, skin, by_day=False)  # night: as before
    # the same glare over the green board stays light
    assert _spill_at_top(green, green_walls, _glared(green, glare), _glared(green_walls, glare))
