"""The last resort for a board on a patterned cloth: ``LocateConfig.cloth_last`` (:mod:`vision.locate_oriented`)."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from companion.board import SIZE
from vision.locate import DEFAULT_CONFIG, BoardNotFoundError, find_board
from vision.locate_grid import _half_gradients
from vision.locate_oriented import _aligned_weight


def test_aligned_weight_keeps_the_gradients_along_the_axes_only() -> None:
    """Gradients along either axis' normal (either sign) weigh 1; a cloth's 20-45 degrees off, nothing."""
    normals = (math.radians(-25.0), math.radians(65.0))
    angles = np.radians(np.array([-25.0, 155.0, 65.0, -115.0, -21.0, 0.0, 25.0, 110.0]))
    weight = _aligned_weight(angles, normals)
    assert np.allclose(weight[:4], 1.0)
    assert 0.5 < weight[4] < 0.7  # one sigma off
    assert np.all(weight[5:] < 1e-4)


@pytest.mark.parametrize("seed", [4240257])
def test_board_on_a_gingham_cloth_at_another_rotation_is_found(seed: int) -> None:
    """Held-out 4240257 (2028 px, l20's dev frame ho_s2 0057): a low-contrast board turned 25 degrees one
    way on a green gingham turned 25 degrees the other. The cloth takes the photo's lattices, and along
    the board's axes the whole photo's autocorrelation has no peak at the tile pitch: every stage was
    refuted ("fixed tiles do not match", separation 1.30). The gradients aligned with the board's rotation
    show its pitch, and the refinement proves the grid (``LocateConfig.cloth_last``)."""
    from tests.support.holdout_render import random_holdout_scene

    image, label = random_holdout_scene(seed, size=(2028, 1520))
    _assert_found_only_by_the_cloth_stage(image, label)


def test_half_gradients_are_those_the_lattice_stages_read() -> None:
    """:func:`vision.locate_grid._half_gradients` halves the work image (both sides, even-cropped)."""
    work = np.zeros((101, 140, 3), np.uint8)
    work[:, 70:] = 200
    half, gx, gy = _half_gradients(work)
    assert half.shape[:2] == gx.shape == gy.shape == (50, 70)
    assert float(np.abs(gx[:, 34:36]).max()) > 0 and float(np.abs(gy).max()) == 0.0


def test_small_board_on_a_purple_gingham_under_a_shadow_band_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """Held-out 4250008 with its table drawn as a patterned cloth (l20's check frame hp_a 0008): a board of
    40 % of the short side on a purple gingham, a shadow band across it. Stage 2's table-masked lattices
    have the board's axes and pitch, but their grid lies half a tile off on both axes and scores under
    the cloth's refuted grid, so it was never answered; every grid was refuted (separation 1.91). Shifted
    half a tile it refines onto the board (separation 1.88 under the band), and the shadow-invariant
    features prove it (``LocateConfig.cloth_last``)."""
    import tests.support.holdout_table as table
    from tests.support.holdout_render import random_holdout_scene

    surface = table._surface

    def patterned(kind, rng, nrng, shape, s):  # type: ignore[no-untyped-def]
        if kind not in ("gingham", "stripes"):
            kind = "gingham" if rng.random() < 0.6 else "stripes"
        return surface(kind, rng, nrng, shape, s)

    monkeypatch.setattr(table, "_surface", patterned)
    image, label = random_holdout_scene(4250008)
    _assert_found_only_by_the_cloth_stage(image, label)


def _assert_found_only_by_the_cloth_stage(image: np.ndarray, label: dict) -> None:
    """Refused without ``cloth_last``; with it, every corner within 0.1 tile of the label's."""
    with pytest.raises(BoardNotFoundError):
        find_board(image, replace(DEFAULT_CONFIG, cloth_last=False))
    corners = find_board(image)
    truth = np.asarray(label["corners"], dtype=np.float64)
    err = min(np.abs(np.roll(corners, k, 0) - truth).max() for k in range(4))
    assert err < 0.1 * np.linalg.norm(truth[1] - truth[0]) / SIZE
