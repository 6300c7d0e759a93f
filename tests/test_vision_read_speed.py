"""The reader's exact shortcuts after locating (vision/notes/speed.md, f3): each gives numpy's or
OpenCV's own numbers, bit for bit, only sooner."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.occlusion_frame import _histogram_u8, percentiles_u8, small_grey


@pytest.mark.parametrize("shape", [(1,), (7,), (7, 3), (336, 336), (247, 328), (10, 10, 3), (3, 4, 5)])
def test_histogram_counts_every_level_as_bincount(shape: tuple[int, ...]) -> None:
    rng = np.random.default_rng(sum(shape))
    values = rng.integers(0, 256, shape, dtype=np.uint8)
    for sample in (values, values[..., ::2], values[::-1]):
        expected = np.bincount(sample.ravel(), minlength=256)
        got = _histogram_u8(sample)
        assert got.dtype == expected.dtype and np.array_equal(got, expected)


def test_histogram_of_nothing_and_of_one_level() -> None:
    assert np.array_equal(_histogram_u8(np.zeros(0, np.uint8)), np.zeros(256, np.int64))
    flat = np.full((480, 640), 255, np.uint8)
    assert _histogram_u8(flat)[255] == flat.size and _histogram_u8(flat)[:255].sum() == 0


@pytest.mark.parametrize("seed", range(5))
def test_percentiles_u8_are_numpys_own(seed: int) -> None:
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 256, (int(rng.integers(1, 400)), int(rng.integers(1, 400))), dtype=np.uint8)
    qs = (5.0, 50.0, 90.0, 95.0, 99.0)
    assert percentiles_u8(values, qs) == [float(v) for v in np.percentile(values, qs)]


@pytest.mark.parametrize("shape", [(1232, 1640), (1233, 1641), (480, 640), (239, 300)])
def test_small_grey_converts_the_kept_rows_only(shape: tuple[int, int]) -> None:
    rng = np.random.default_rng(shape[0])
    image = rng.integers(0, 256, (*shape, 3), dtype=np.uint8)
    step = max(1, min(shape) // 240)
    grey = small_grey(image)
    assert grey.flags["C_CONTIGUOUS"]
    assert np.array_equal(grey, cv2.cvtColor(np.ascontiguousarray(image[::step, ::step]), cv2.COLOR_BGR2GRAY))


def test_shape_prior_is_built_once_per_strength_and_read_only() -> None:
    from companion.board import FIXED_TILES
    from vision.tile_decode import SHAPES, _movable_prior, shape_prior

    first = shape_prior(6.0)
    assert shape_prior(6.0) is first  # cached: not rebuilt on every read
    assert not first.flags.writeable  # shared: nobody may change it
    for r in range(7):
        for c in range(7):
            tile = FIXED_TILES.get((r, c))
            expected = _movable_prior() if tile is None else np.where(int(tile) == SHAPES, 0.0, -6.0)
            assert np.array_equal(first[r, c], expected)
    assert not np.array_equal(shape_prior(15.0), first)



def test_board_mask_writes_ones_and_zeros_only_where_judged() -> None:
    """The judged pixels' flags go into the uint8 mask as 0/1 (their bytes, no cast): a magenta blob
    over a clean rendered view is 0 where judged, the unjudged pixels (the margin among them) stay 1."""
    from dataclasses import replace

    from vision.rectify import rectify
    from vision.render import random_scene
    from vision.tile_features import DEFAULT_CONFIG, _board_mask, _sampled_pixels, _tiles_lab

    image, label = random_scene(12, look="dark", size=(1280, 960))
    rect = rectify(image, label["corners"], tile_px=48)
    painted = rect.image.copy()
    cv2.circle(painted, (rect.margin_px + 3 * 48 + 24, rect.margin_px + 3 * 48 + 6), 10, (200, 40, 220), -1)
    view = replace(rect, image=painted)
    mask = _board_mask(_tiles_lab(view), view, DEFAULT_CONFIG)
    assert mask.dtype == np.uint8 and mask.shape == painted.shape[:2]
    assert set(np.unique(mask).tolist()) == {0, 1}
    judged = np.zeros(mask.size, dtype=bool)
    judged[_sampled_pixels(48, rect.margin_px, painted.shape[1], DEFAULT_CONFIG)[0]] = True
    assert mask.ravel()[~judged].min() == 1
    blob = np.all(painted == (200, 40, 220), axis=2).ravel() & judged
    assert blob.sum() > 50 and mask.ravel()[blob].max() == 0


def test_lattice_colours_are_each_patchs_own_median() -> None:
    """The patches gathered by size in one take give each lattice point its own patch's median, bit for bit."""
    from vision.occlusion_config import OcclusionConfig
    from vision.occlusion_lattice import _patch_bounds, lattice_colours, shade_invariant
    from vision.rectify import rectify
    from vision.render import random_scene

    image, label = random_scene(13, look="hedge", size=(1280, 960))
    rect = rectify(image, label["corners"], tile_px=48)
    cfg = OcclusionConfig()
    got = lattice_colours(rect, cfg)
    m, t = rect.margin_px, rect.tile_px
    area = rect.image[m : m + 7 * t, m : m + 7 * t]
    start, stop = _patch_bounds(t, cfg.lattice_patch)
    for i in range(8):
        for j in range(8):
            patch = area[start[i] : stop[i], start[j] : stop[j]].reshape(1, -1, 3)
            own = np.median(shade_invariant(patch, cfg.lightness_weight), axis=1)[0]
            assert np.array_equal(got[i, j].view(np.uint32), own.view(np.uint32)), (i, j)


def _disturbed_by_definition(unclear: set[tuple[int, int]]) -> np.ndarray:
    """Per frame segment, an unclear tile in the side's two outer rows within a tile of the segment's own."""
    near = np.zeros((4, 14), dtype=bool)
    for k in range(14):
        span = range(max(0, k // 2 - 1), min(7, k // 2 + 2))
        near[0, k] = any((r, c) in unclear for r in (0, 1) for c in span)
        near[1, k] = any((r, c) in unclear for r in span for c in (6, 5))
        near[2, k] = any((r, c) in unclear for r in (6, 5) for c in span)
        near[3, k] = any((r, c) in unclear for r in span for c in (0, 1))
    return near.reshape(-1)


@pytest.mark.parametrize("seed", range(4))
def test_disturbed_inside_is_its_definition(seed: int) -> None:
    from vision.occlusion_band import disturbed_inside

    rng = np.random.default_rng(seed)
    for _ in range(300):
        unclear = {(int(r), int(c)) for r, c in rng.integers(-1, 8, (int(rng.integers(0, 10)), 2))}
        assert np.array_equal(disturbed_inside(unclear), _disturbed_by_definition(unclear)), unclear
    assert disturbed_inside({(3, 3)}).sum() == 0  # the middle tile is no edge's
    assert disturbed_inside({(0, 0)}).reshape(4, 14)[0].tolist() == [True] * 4 + [False] * 10


def test_shadow_lines_carry_their_pixel_counts() -> None:
    """The profile bins' pixel counts are geometry: counted once with the lines, read-only, the same as
    counting the bins of every frame; the means from them are :func:`_profile`'s."""
    from vision.tile_shade import _ANGLES, _binned_means, _lines, _profile

    lines = _lines(49, 0.25)
    k, n = _ANGLES.size, lines.bins
    assert np.array_equal(lines.tile_counts, np.bincount(lines.tile_bins.ravel(), minlength=n * k))
    stacked = lines.frame_bins + ((np.arange(k)[:, None] * 2 + lines.frame_end) * n)
    assert np.array_equal(lines.frame_stacked, stacked.ravel())
    assert np.array_equal(lines.frame_counts, np.bincount(stacked.ravel(), minlength=n * k * 2))
    assert not lines.tile_counts.flags.writeable and not lines.frame_counts.flags.writeable
    values = np.random.default_rng(0).normal(size=lines.tile_bins.size).astype(np.float32)
    means, counts = _profile(values, lines.tile_bins.ravel(), n * k)
    assert np.array_equal(_binned_means(values, lines.tile_bins.ravel(), lines.tile_counts), means)
    assert np.array_equal(counts, lines.tile_counts)
