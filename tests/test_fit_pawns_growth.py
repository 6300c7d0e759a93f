"""tests/support/fit_pawns_growth.py and fit_pawns' L-BFGS solver: the draws are disjoint, a held-out
renderer is never fitted on, and the faster solver reaches the projected-Adam optimum."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.test_vision_pawns import one_blob_folder
from vision.pawn_model import FEATURES, PawnConfig, PawnModel


def test_disjoint_draws_share_no_folder_and_stop_at_the_smallest_renderer() -> None:
    from tests.support.fit_pawns_growth import disjoint_draws

    renderers = ["ho", "ho", "ho", "ho", "tr", "tr", "tr", "tr", "tr", "fo", "fo"]
    assert disjoint_draws(renderers, 1) == [[0, 4, 9], [1, 5, 10]]
    assert disjoint_draws(renderers, 2) == [[0, 1, 4, 5, 9, 10]]
    assert disjoint_draws(renderers, 3) == []


def test_loro_draw_and_drop_one_fit_only_the_draw_of_the_other_renderers(monkeypatch: pytest.MonkeyPatch) -> None:
    """A held-out renderer is scored on ALL its folders, by fits on the draw's folders of the others (and in
    drop_one, of the others but one)."""
    from tests.support import fit_pawns_growth

    renderers = ["ho", "ho", "tr", "tr", "f5", "f5"]
    data = [one_blob_folder(f"{r}_{i}", right=r != "f5") for i, r in enumerate(renderers)]
    fitted_on: list[list[str]] = []

    def spy(train: list[dict], variant: object) -> PawnModel:
        fitted_on.append([json.loads(str(d["truths"][0]))["folder"] for d in train])
        return PawnModel.linear([1.0] + [0.0] * len(FEATURES))

    monkeypatch.setattr(fit_pawns_growth, "fit_model", spy)
    variant = fit_pawns_growth.Variant()
    row, models = fit_pawns_growth.loro_draw(data, renderers, [1, 3, 5], variant, PawnConfig())
    assert fitted_on == [["tr_3", "f5_5"], ["ho_1", "f5_5"], ["ho_1", "tr_3"]]
    assert row == {"ho": (2, 2), "tr": (2, 2), "f5": (0, 2)} and set(models) == {"ho", "tr", "f5"}
    fitted_on.clear()
    dropped = fit_pawns_growth.drop_one(data, renderers, [0, 2, 4], variant, PawnConfig())
    assert fitted_on == [["f5_4"], ["tr_2"], ["f5_4"], ["ho_0"], ["tr_2"], ["ho_0"]]
    assert dropped["f5"] == {"ho": (0, 2), "tr": (0, 2)}


def test_the_lbfgs_solver_reaches_the_projected_adam_optimum_within_the_sign_bounds() -> None:
    from tests.support.fit_pawns import SIGNS, fit, knots_of

    rng = np.random.default_rng(7)
    n = 600
    x = rng.normal(size=(n, len(FEATURES)))
    y = x[:, FEATURES.index("shadow")] - x[:, FEATURES.index("marks")] + 0.5 * rng.normal(size=n) > 0.8
    x[:, FEATURES.index("glint")] = -x[:, FEATURES.index("shadow")]  # would take a negative slope if free
    knots = knots_of(x, y)
    adam = fit(x, y, l2=0.002, knots=knots, solver="adam")
    lbfgs = fit(x, y, l2=0.002, knots=knots, solver="lbfgs")
    assert np.allclose(adam.weights, lbfgs.weights, atol=0.02 * max(abs(w) for w in adam.weights))
    for name, (_, slopes) in lbfgs.as_terms().items():
        if SIGNS.get(name) == 1:
            assert min(slopes) >= 0.0, name
        elif SIGNS.get(name) == -1:
            assert max(slopes) <= 0.0, name
        elif SIGNS.get(name) == 0:
            assert not any(slopes), name
    assert max(lbfgs.as_terms()["shadow"][1]) > 0.0 and min(lbfgs.as_terms()["marks"][1]) < 0.0
