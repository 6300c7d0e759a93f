"""Does the pawn model generalise better with more data, or with more renderers? (LORO by data size)

Usage (from the repo root)::

    python -m tests.support.fit_pawns_growth [RENDERER=]FOLDER ... --cache-dir DIR [--sizes 1,2,4] [--drop-one N]

The judge scores a renderer no model was fitted on, so the question is not how well a
fit does on its own renderers but how its held-out accuracy (leave one renderer out,
:func:`tests.support.fit_pawns.loro`) moves with the training data:

* ``--sizes``: per size n, the folders of each renderer (in the order given) are cut
  into disjoint draws of n folders (:func:`disjoint_draws`); per draw and held-out
  renderer a model is fitted on the draw's folders of the OTHER renderers and scored
  on ALL the held-out renderer's folders (the same test for every n and draw, so the
  spread between draws is the fit's draw noise, not the test's). Printed per n: each
  draw's row, the mean and the spread (max - min) per renderer, and the bag of the
  n-draws (:func:`vision.pawn_model.average_models` of their fits, no extra fit).
* ``--drop-one N``: the draws of N folders once more, and per held-out renderer a fit
  on each three of the four others (:func:`drop_one`): does a fourth renderer in the
  fit help the unseen one, renderer by renderer?

Measured with main's recipe (:mod:`tests.support.fit_pawns`):

Data: 4 folders of ~80 day boards
per renderer: ho_a/b + P/ho_d + p16/ho_p0, tr likewise, P2/th_a/b/th_day + p16/th_p0, p11/fo_a
+ p16/fo_p0/p2/p1 (occluded 0.3), p11/f5_a/b/c + p16/f5_p2; each held-out renderer scored on
all its folders, ~1000 pawns. Held out, mean over disjoint draws +- spread between them:
  n/renderer   ho          tr          th          fo          f5          worst/mean
  1 (4 draws)  .831+-.019  .979+-.004  .919+-.028  .929+-.017  .859+-.097
  2 (2 draws)  .839+-.002  .981+-.003  .920+-.008  .926+-.005  .864+-.072
  4 (1 fit)    .841        .981        .924        .928        .893        .841/.913
  bag of n=1   .837        .979        .925        .931        .879        .837/.910
  bag of n=2   .840        .980        .928        .928        .879        .840/.911
The held-out accuracy rises a little with data (ho +1, th +.5 points) and the draw noise
shrinks, except the fifth's: it is set by WHICH held-out-renderer folder is in the fit (ho_a
or ho_b: f5 .832-.837; ho_p0 or ho_d: .894-.913; another tr/th/fo folder: -1.9 to +.2), so one LORO row on the fifth
is not evidence. One fit on all the data is as good as or better than a bag of its draws.
Adding a renderer (n=2, both draws: fit on the 4 others minus the mean of the 4 fits on 3):
ho +1.4 points, tr +.1, th +1.0, fo +.1, f5 +.5; per renderer added, th helps all (+.4 to
+3.9), f5 helps none (ho 0, tr -.2, th -.9, fo -.5), ho hurts f5 (-1.7) and fo (-.7).
The sixth renderer (tests/support/sixth_render, 80 day frames seeds 2649000+, fitted on by
nothing, label corners): PAWN_MODEL .657; all five renderers, all 23 folders: single fit .656,
bag .658; four (without ho/tr/th/fo/f5) .625/.653/.673/.659/.664; all five, n=1 draws
.629-.681 (mean .656), n=2 .661/.652. Data and renderers move the sixth by draw noise only:
its losses are 27 pawns with no candidate, ~25 below threshold, ~24 false reports of 271.
Full pipeline (vision-test pawns on dev day ho/tr/th/fo, /tmp/lead/f5/day, the sixth's 80):
PAWN_MODEL .927/.991/.928/.893/.873/.613; the fit on all five .889/.991/.918/.892/.942/.594;
on four without f5 .904/.991/.928/.883/.900/.603; without th .882/.991/.908/.911/.942/.598.
A second sixth set (80 day, seeds 2649100+): pipeline PAWN_MODEL .635, all five .620, four
without f5 .623 (label corners .721/.709/.719). More data and more renderers do not beat
PAWN_MODEL on the unseen sixth: it was kept.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from tests.support.fit_pawns import Variant, blobs, fill_set_size, fit_model, loro_table, renderer_of
from tests.support.fit_pawns_score import score
from vision.pawn_model import PawnConfig, PawnModel, average_models

Result = dict[str, tuple[int, int]]


def disjoint_draws(renderers: Sequence[str], size: int) -> list[list[int]]:
    """Draws of ``size`` folders per renderer that share no folder: draw k takes each renderer's folders
    ``k*size .. (k+1)*size - 1`` (in the order given); as many draws as the renderer with the fewest
    folders allows (its folders beyond the last whole draw are left out)."""
    by_renderer: dict[str, list[int]] = {}
    for i, name in enumerate(renderers):
        by_renderer.setdefault(name, []).append(i)
    count = min((len(v) // size for v in by_renderer.values()), default=0)
    return [[i for v in by_renderer.values() for i in v[k * size : (k + 1) * size]] for k in range(count)]


def held_out_score(
    data: Sequence[dict[str, np.ndarray]], test: Sequence[int], model: PawnModel, config: PawnConfig
) -> tuple[int, int]:
    """Pawns right and counted on the folders ``test`` by ``model``."""
    fitted = replace(config, model=model)
    right = total = 0
    for i in test:
        for r, n in score(fill_set_size(data[i], model), model, fitted).values():
            right, total = right + r, total + n
    return right, total


def loro_draw(
    data: Sequence[dict[str, np.ndarray]],
    renderers: Sequence[str],
    draw: Sequence[int],
    variant: Variant,
    config: PawnConfig,
) -> tuple[Result, dict[str, PawnModel]]:
    """Per renderer: the model fitted on the ``draw``'s folders of the other renderers, scored on all of
    its own folders (not only the draw's); also the models (to bag them)."""
    out: Result = {}
    models: dict[str, PawnModel] = {}
    for held in dict.fromkeys(renderers):
        train = [i for i in draw if renderers[i] != held]
        test = [i for i, r in enumerate(renderers) if r == held]
        models[held] = fit_model([data[i] for i in train], variant)
        out[held] = held_out_score(data, test, models[held], config)
    return out, models


def drop_one(
    data: Sequence[dict[str, np.ndarray]],
    renderers: Sequence[str],
    draw: Sequence[int],
    variant: Variant,
    config: PawnConfig,
) -> dict[str, dict[str, tuple[int, int]]]:
    """Per held-out renderer and per other renderer dropped: the held-out score of a fit on the ``draw``'s
    folders of the remaining renderers (all but the held-out one and the dropped one)."""
    out: dict[str, dict[str, tuple[int, int]]] = {}
    names = list(dict.fromkeys(renderers))
    for held in names:
        test = [i for i, r in enumerate(renderers) if r == held]
        for dropped in names:
            if dropped == held:
                continue
            train = [i for i in draw if renderers[i] not in (held, dropped)]
            model = fit_model([data[i] for i in train], variant)
            out.setdefault(held, {})[dropped] = held_out_score(data, test, model, config)
    return out


def spread_table(rows: Sequence[Mapping[str, tuple[int, int]]]) -> str:
    """One line: per renderer the mean accuracy over ``rows`` and the spread (max - min) between them."""
    parts = []
    for name in rows[0]:
        acc = [r[name][0] / max(1, r[name][1]) for r in rows]
        parts.append(f"{name} {np.mean(acc):.3f}+-{max(acc) - min(acc):.3f}")
    return " | ".join(parts)


def rounded(model: PawnModel) -> PawnModel:
    """``model`` with its weights rounded as :func:`tests.support.fit_pawns.fit` rounds them."""
    return PawnModel(model.knots, tuple(float(f"{v:.4g}") for v in model.weights))


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="+", help="labelled folders ([RENDERER=]PATH), each renderer's in draw order")
    ap.add_argument("--cache-dir", help="where to keep each folder's collected blobs")
    ap.add_argument("--sizes", default="1,2", help="folders per renderer in a draw, e.g. 1,2,4")
    ap.add_argument("--drop-one", type=int, default=0, metavar="N", help="fits on three of four renderers, N folders")
    ap.add_argument("--l2", type=float, default=0.002)
    args = ap.parse_args(argv)
    config = PawnConfig()
    variant = Variant(l2=args.l2)
    named = [renderer_of(f) for f in args.folders]
    renderers = [r for r, _ in named]
    data = [blobs(path, config, args.cache_dir) for _, path in named]
    for size in (int(s) for s in args.sizes.split(",") if s):
        rows, bags = [], {}
        members: dict[str, list[PawnModel]] = {}
        for k, draw in enumerate(disjoint_draws(renderers, size)):
            row, models = loro_draw(data, renderers, draw, variant, config)
            rows.append(row)
            for held, model in models.items():
                members.setdefault(held, []).append(model)
            print(f"n={size} draw {k}: {loro_table(row)}", flush=True)
        if not rows:
            continue
        print(f"n={size} mean+-spread over {len(rows)} draws: {spread_table(rows)}", flush=True)
        if len(rows) > 1:
            for held, models in members.items():
                test = [i for i, r in enumerate(renderers) if r == held]
                bags[held] = held_out_score(data, test, rounded(average_models(models)), config)
            print(f"n={size} bag of the {len(rows)} draws: {loro_table(bags)}", flush=True)
    if args.drop_one:
        for k, draw in enumerate(disjoint_draws(renderers, args.drop_one)):
            for held, by_dropped in drop_one(data, renderers, draw, variant, config).items():
                parts = [f"-{d} {r / max(1, n):.3f}" for d, (r, n) in by_dropped.items()]
                print(f"drop-one n={args.drop_one} draw {k} held {held}: " + " ".join(parts), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
