"""How a side's two bands combine (:func:`vision.tiles.combine_bands`)."""

from __future__ import annotations

import numpy as np

from vision.tile_model import Band, TileModel
from vision.tiles import DEFAULT_CONFIG, combine_bands

_MODEL = TileModel(np.zeros(1), 1.0, 0.0, 1.0)


def _band(logit: list[float], weight: list[float]) -> Band:
    return Band(_MODEL, np.array(logit)[None, :, None], np.array(weight)[None, :, None])


def test_a_typical_but_unclear_usual_band_leaves_the_vote_to_a_clear_border_band() -> None:
    # Side 0: the usual band typical but flat (+0.3: a broad shadow or a warm light over it), the
    # border band typical and clear (-6). Side 1: the usual band typical and clear (+5): it keeps
    # the side. Side 2: the usual band atypical: the border band's as before.
    usual = _band([0.3, 5.0, 4.0], [1.0, 1.0, 0.0])
    outer = _band([-6.0, -6.0, -6.0], [1.0, 1.0, 1.0])
    none = np.zeros((1, 3), dtype=bool)
    plain = combine_bands(usual, outer, none, DEFAULT_CONFIG)[0, :, 0]
    clear = combine_bands(usual, outer, none, DEFAULT_CONFIG, by_clarity=True)[0, :, 0]
    assert plain[0] > 0.0 and plain[1] > 0.0  # the typical usual band alone decides
    assert clear[0] < -2.0  # the border band's vote counts where the usual band says little
    assert clear[1] > 3.0
    assert clear[2] == plain[2] == -6.0
