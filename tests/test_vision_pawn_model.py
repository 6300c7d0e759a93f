"""The pawn model's centred-print term (a print sits at its tile's exact centre; a raised body does not)."""

from __future__ import annotations

import math

from vision.pawn_model import CENTRED_PENALTY, CENTRED_WITHIN, FEATURES, PAWN_MODEL, PawnModel

_OFFSET = FEATURES.index("centre_offset")


def _without_centred_term() -> PawnModel:
    terms = PAWN_MODEL.as_terms()
    del terms["centre_offset"]
    return PawnModel.from_terms(terms, PAWN_MODEL.weights[-1] + CENTRED_PENALTY * CENTRED_WITHIN)


def _row(offset: float) -> list[float]:
    row = [0.3] * len(FEATURES)
    row[_OFFSET] = offset
    return row


def test_a_blob_at_the_tile_centre_loses_what_the_term_says() -> None:
    base = _without_centred_term()
    drop = base.logit(_row(0.0)) - PAWN_MODEL.logit(_row(0.0))
    assert math.isclose(drop, CENTRED_PENALTY * CENTRED_WITHIN, abs_tol=1e-9)
    assert drop > 1.0  # enough to move a print scoring 0.75 under the day threshold


def test_the_term_only_ever_lowers_a_logit_and_spares_displaced_blobs() -> None:
    base = _without_centred_term()
    for offset in (0.0, 0.02, 0.05, CENTRED_WITHIN, 0.1, 0.3, 0.7):
        diff = PAWN_MODEL.logit(_row(offset)) - base.logit(_row(offset))
        assert diff <= 1e-9  # adds no report, by day or at night
        if offset >= CENTRED_WITHIN:
            assert abs(diff) < 1e-9
    assert PAWN_MODEL.slope_sign(_OFFSET) == 1
