"""The tiled pitch sweep for a board on a dotted cloth: ``LocateConfig.tiled_last``."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from companion.board import SIZE
from vision.locate import DEFAULT_CONFIG, BoardNotFoundError, find_board


def test_small_board_on_a_dotted_cloth_is_found_by_the_tiled_sweep() -> None:
    """Held-out 5400339 (l24 dev): a board of 40 % of the short side on a green polka-dot cloth under a
    shadow band. The photo's lattices have the board's axes but the dots' pitch (1.2-1.45 tiles) and
    their periodic centres lie on the cloth 6-9 tiles away, so the pitch sweep about those centres and
    every other stage miss it ("fixed tiles do not match", separation 1.70). The same sweep about
    centres tiling the photo places a grid 0.57 tile off that refines onto the board; without the
    stage the frame stays refused."""
    from tests.support.holdout_render import random_holdout_scene

    image, label = random_holdout_scene(5400339)
    truth = np.asarray(label["corners"], dtype=np.float64)
    with pytest.raises(BoardNotFoundError):
        find_board(image, dataclasses.replace(DEFAULT_CONFIG, tiled_last=False))
    corners = find_board(image)
    err = min(np.abs(np.roll(corners, k, 0) - truth).max() for k in range(4))
    assert err < 0.1 * np.linalg.norm(truth[1] - truth[0]) / SIZE
