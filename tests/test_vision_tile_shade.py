"""A hard shadow band across the board: found as light (it runs over the frame band too) and divided out."""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from vision.rectify import Rectified, rectify
from vision.render import random_scene
from vision.tile_shade import find_band, unshaded
from vision.tiles import TilesConfig, read_tiles, tiles_for_lighting


@cache
def _board(seed: int, look: str) -> tuple[Rectified, dict]:
    image, label = random_scene(seed, look=look, lighting="day", size=(1280, 960))
    return rectify(image, label["corners"], tile_px=48), label


def _banded(rect: Rectified, angle: float, offset: float, width: float, factor: float) -> Rectified:
    """``rect`` under a straight shadow band (light times ``factor``, soft edges 0.15 tile) across the whole view:
    normal at ``angle``, centre line ``offset`` tiles from the board's centre, ``width`` tiles wide."""
    t, m = rect.tile_px, rect.margin_px
    yy, xx = np.mgrid[: rect.image.shape[0], : rect.image.shape[1]].astype(np.float64) / t
    centre = m / t + 3.5
    dist = np.abs((xx - centre) * math.cos(angle) + (yy - centre) * math.sin(angle) - offset)
    inside = np.clip((width / 2 - dist) / 0.15 + 0.5, 0.0, 1.0)
    gain = 1.0 - (1.0 - factor) * inside
    image = np.clip(rect.image * gain[..., None], 0, 255).astype(np.uint8)
    return Rectified(image, t, m, rect.homography, rect.corners, rect.image_shape)


def test_clean_boards_have_no_band() -> None:
    for seed in (31, 32):
        for look in ("classic", "hedge", "bright"):
            assert find_band(_board(seed, look)[0]) is None


def test_featureless_or_noisy_views_have_no_band_and_never_raise() -> None:
    rect, _ = _board(31, "classic")
    rng = np.random.default_rng(5)
    for image in (
        np.zeros_like(rect.image),
        np.full_like(rect.image, 255),
        rng.integers(0, 256, rect.image.shape, dtype=np.uint8),
    ):
        view = Rectified(image, rect.tile_px, rect.margin_px, rect.homography, rect.corners, rect.image_shape)
        assert find_band(view) is None


def test_a_band_is_found_and_divided_out() -> None:
    rect, _ = _board(32, "hedge")
    band = find_band(_banded(rect, 0.7, -0.5, 1.3, 0.45))
    assert band is not None
    assert abs(band.angle - 0.7) < 0.1
    assert math.log(0.45) - 0.2 < float(band.log_factor.min()) < math.log(0.45) + 0.2
    restored = unshaded(_banded(rect, 0.7, -0.5, 1.3, 0.45), band)
    assert float(np.median(np.abs(restored.image.astype(int) - rect.image.astype(int)))) <= 2.0


def _edges(rect: Rectified, label: dict, cfg: TilesConfig) -> np.ndarray:
    pawns = {tuple(sq) for sq in label["pawns"].values()}
    return np.array([r.edges for r in read_tiles(rect, cfg, exclude=pawns)])


def test_tiles_under_a_band_read_as_in_full_light() -> None:
    # A lit wall beside a shaded corridor reads open (bright edition, square 3,6 read EW): the band is
    # light, not artwork, and once divided out the sides' open probabilities are the clean render's again.
    # Probabilities, not shapes: square 3,6 lies near the decision line even in full light (OpenCV 4.14
    # and 5.0 render and read it on opposite sides of it), while the band moves its sides by half a unit.
    rect, label = _board(31, "bright")
    clean = _edges(rect, label, TilesConfig())
    banded = _banded(rect, 1.2, 1.5, 1.0, 0.35)
    assert float(np.abs(_edges(banded, label, TilesConfig(shadow_band=False)) - clean).sum()) > 0.3
    assert float(np.abs(_edges(banded, label, TilesConfig()) - clean).sum()) < 0.1


def test_night_reads_leave_bands_alone() -> None:
    assert not tiles_for_lighting(None, "night").shadow_band
    assert tiles_for_lighting(None, "day").shadow_band


def test_a_band_found_on_one_view_is_fitted_again_on_another() -> None:
    rect, _ = _board(32, "hedge")
    banded = _banded(rect, 0.7, -0.5, 1.3, 0.45)
    band = find_band(banded)
    assert band is not None
    again = find_band(banded, like=band)
    assert again is not None and again.angle == band.angle
    assert np.array_equal(again.log_factor, band.log_factor)
    # Another view of the frame (a spot painted over, as the reader paints pawns out): fitted on that view.
    painted = banded.image.copy()
    painted[150:190, 150:190] = 120
    view = Rectified(painted, rect.tile_px, rect.margin_px, rect.homography, rect.corners, rect.image_shape)
    other = find_band(view, like=band)
    assert other is not None and other.found == band.found
    assert abs(float(other.log_factor.min()) - float(band.log_factor.min())) < 0.1


def test_the_reader_searches_for_the_band_once_a_frame(monkeypatch) -> None:
    import vision.tile_shade as shade
    from vision.reader import BoardReader

    searches = []
    search = shade._candidate_angles

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        searches.append(1)
        return search(*args, **kwargs)

    monkeypatch.setattr(shade, "_candidate_angles", counted)
    image, label = random_scene(33, look="classic", lighting="day", size=(1280, 960))
    reading = BoardReader().read_detailed(image, corners=label["corners"])
    assert reading.pawns  # a painted-out view was read too
    assert len(searches) == 1
