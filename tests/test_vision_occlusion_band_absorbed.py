"""A hand over the frame's corner that the band's lighting model bends to: fitted without the run, the run stands
out, and its surface goes on over the edge tiles; a coloured light's pool does not go on over them in the frame's
colour (vision.occlusion_band_fit.absorbed_run)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np

from companion.board import SIZE
from vision.occlusion import decide
from vision.occlusion_band import _RING, _foreign_not_white, _foreign_segments, _segment_positions, longest_run
from vision.occlusion_band_fit import absorbed_run
from vision.occlusion_config import OcclusionConfig, Signals
from vision.occlusion_lattice import shade_invariant

DATA = Path(__file__).parent / "data" / "band_segments.txt"


def _cases() -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Each case of tests/data/band_segments.txt: (known, colours, inner strip colours), in frame_band order."""
    cases: dict[str, list[list[float]]] = {}
    name = ""
    for line in DATA.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        if line.startswith("case "):
            name = line[5:].split(":")[0]
            cases[name] = []
            continue
        cases[name].append([float(v) for v in line.split()])
    out = {}
    for key, rows in cases.items():
        table = np.array(rows)
        assert table.shape == (4 * 2 * SIZE, 7)
        out[key] = (table[:, 0] > 0, table[:, 1:4], table[:, 4:7])
    return out


def _absorbed(known: np.ndarray, values: np.ndarray, inner: np.ndarray, cfg: OcclusionConfig) -> int:
    positions = _segment_positions(100, 50)
    judge = partial(_foreign_not_white, values, positions, known, cfg, None, None)
    return absorbed_run(values, positions, known, _RING, cfg, judge, lambda: inner)


def test_a_hand_the_lighting_model_bent_to_stands_out_without_it() -> None:
    cfg = OcclusionConfig()
    known, values, inner = _cases()["hand"]
    whole = _foreign_segments(values, _segment_positions(100, 50), known, cfg, None)
    assert longest_run(np.where(known, whole.astype(np.int8), -1)) == 0  # fitted with the hand: nothing foreign
    assert _absorbed(known, values, inner, cfg) >= cfg.min_band_absorbed


def test_the_run_must_go_on_over_the_edge_tiles() -> None:
    cfg = OcclusionConfig()
    known, values, inner = _cases()["hand"]
    apart = inner.copy()
    apart[:, 1] += 8.0  # the edge tiles keep a colour of their own beside the run: light over a printed frame
    assert _absorbed(known, values, apart, cfg) == 0


def test_a_coloured_pool_over_the_frame_does_not_count() -> None:
    cfg = OcclusionConfig()
    known, values, inner = _cases()["light"]
    assert _absorbed(known, values, inner, cfg) < cfg.min_band_absorbed


def _blue_frame(cover: Callable[[np.ndarray], np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """A blue printed frame under a gentle light gradient, nine plain segments round its top-right corner covered
    by ``cover`` (linear RGB in, linear RGB out): the known (plain) segments and every segment's colour."""
    cfg = OcclusionConfig()
    positions = _segment_positions(100, 50)
    known = np.array([(k % (2 * SIZE)) // 2 not in (1, 3, 5) for k in range(4 * 2 * SIZE)])
    linear = np.tile((np.array([60.0, 80.0, 160.0]) / 255.0) ** 2.2, (len(known), 1)) * (1 + 0.05 * positions[:, :1])
    linear *= 1 + 0.03 * np.sin(np.arange(len(known)) * 2.3)[:, None]
    corner = [int(i) for i in _RING if known[i]][4:13]
    linear[corner] = cover(linear[corner])
    bgr = (np.clip(linear, 0.0, 1.0) ** (1 / 2.2) * 255.0)[:, ::-1].astype(np.float32)
    return known, shade_invariant(bgr.reshape(1, -1, 3), cfg.lightness_weight)[0].astype(np.float64)


def test_a_skin_coloured_surface_over_the_corner_bends_the_model_and_is_found() -> None:
    cfg = OcclusionConfig()
    known, values = _blue_frame(lambda x: np.tile((np.array([200.0, 150.0, 120.0]) / 255.0) ** 2.2, (len(x), 1)))
    assert not _foreign_segments(values, _segment_positions(100, 50), known, cfg, None).any()
    assert _absorbed(known, values, values.copy(), cfg) >= cfg.min_band_absorbed  # the tiles under it alike


def test_a_warm_glare_washing_frame_and_tile_alike_does_not_count() -> None:
    cfg = OcclusionConfig()
    known, values = _blue_frame(lambda x: x + np.array([0.5, 0.35, 0.2]))  # near-white light added
    assert _absorbed(known, values, values.copy(), cfg) == 0
    positions = _segment_positions(100, 50)
    judge = partial(_foreign_segments, values, positions, known, cfg, None, False, None)  # no white test
    assert absorbed_run(values, positions, known, _RING, cfg, judge, values.copy) >= cfg.min_band_absorbed


def test_a_smooth_band_has_no_absorbed_run() -> None:
    cfg = OcclusionConfig()
    positions = _segment_positions(100, 50)
    values = np.column_stack([40 + positions[:, 0], 30 + 0.5 * positions[:, 1], np.full(len(positions), 20.0)])
    known = np.ones(len(values), dtype=bool)
    assert _absorbed(known, values, values.copy(), cfg) == 0  # the threshold stays at its floor


def test_the_absorbed_run_decides_by_day_only() -> None:
    cfg = OcclusionConfig()
    sig = Signals(band_run=0, lattice=0, quality=0.99, low_tiles=0, band_absorbed=cfg.min_band_absorbed)
    assert "unlike the rest's light" in (decide(sig, "day", cfg) or "")
    assert decide(sig, "night", cfg) is None
    assert decide(Signals(band_run=0, lattice=0, quality=0.99, low_tiles=0, band_absorbed=1), "day", cfg) is None
