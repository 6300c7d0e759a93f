"""How a pawn model's decisions score on collected blobs (:func:`tests.support.fit_pawns.collect`).

Deciding like :func:`vision.pawns.find_pawns` (per colour the most probable blob over the
day or night threshold), :func:`score` counts pawns right per folder (scored like
``vision.evaluate``) and :func:`miss_causes` says why each pawn was missed or falsely
reported: the cause to work on first. Used by the fitting tools
(:mod:`tests.support.fit_pawns`, :mod:`tests.support.fit_pawns_growth`).
"""

from __future__ import annotations

import json

import numpy as np

from vision.pawn_model import PawnConfig, PawnModel

__all__ = ["CAUSES", "miss_causes", "score"]


def score(data: dict[str, np.ndarray], model: PawnModel, config: PawnConfig) -> dict[str, tuple[int, int]]:
    """Per folder: pawns right and pawns counted, deciding like :func:`vision.pawns.find_pawns`."""
    p = _probabilities(data, model)
    night_of = {int(i): bool(n) for i, n in zip(data["image"], data["night"], strict=True)}
    out: dict[str, list[int]] = {}
    for image_id, raw in enumerate(data["truths"]):
        truth = json.loads(str(raw))
        sel = data["image"] == image_id
        threshold = config.night_min_confidence if night_of.get(image_id) else config.min_confidence
        best: dict[str, tuple[float, tuple[int, int]]] = {}
        for pi, colour, sq in zip(p[sel], data["colour"][sel], data["square"][sel], strict=True):
            if pi >= threshold and (colour not in best or pi > best[colour][0]):
                best[str(colour)] = (float(pi), (int(sq[0]), int(sq[1])))
        right = sum(1 for c, sq in truth["pawns"].items() if c in best and best[c][1] == tuple(sq))
        total = len(truth["pawns"]) + sum(1 for c in best if c not in truth["pawns"])
        acc = out.setdefault(truth["folder"], [0, 0])
        acc[0] += right
        acc[1] += total
    return {k: (v[0], v[1]) for k, v in out.items()}


def _probabilities(data: dict[str, np.ndarray], model: PawnModel) -> np.ndarray:
    """Each blob's pawn probability under ``model`` (as :func:`vision.pawn_model.confidence`)."""
    z = model.columns(data["features"]) @ np.asarray(model.weights[:-1]) + model.weights[-1]
    return 1.0 / (1.0 + np.exp(-np.clip(z, -50, 50)))


#: Why a labelled pawn was not read right, or why a colour was reported that is not there.
CAUSES = ("no candidate", "scored below threshold", "beaten by another blob", "base on a wrong square", "false report")


def miss_causes(data: dict[str, np.ndarray], model: PawnModel, config: PawnConfig) -> dict[str, int]:
    """Per cause (:data:`CAUSES`) how many pawns of ``data`` were missed or falsely reported, deciding like
    :func:`score`.

    No candidate: no blob of the pawn's colour touches its square (hue, artwork removal
    or the size and shape gates lost it); below threshold: one does, none scores high
    enough; beaten: one would be reported, but another blob of its colour scores higher;
    wrong square: the reported blob is the pawn but its base falls on a neighbour.
    """
    p = _probabilities(data, model)
    out = dict.fromkeys(CAUSES, 0)
    for image_id, raw in enumerate(data["truths"]):
        truth = json.loads(str(raw))
        sel = np.flatnonzero(data["image"] == image_id)
        night = bool(data["night"][sel[0]]) if len(sel) else False
        threshold = config.night_min_confidence if night else config.min_confidence
        best: dict[str, int] = {}
        for i in sel:
            colour = str(data["colour"][i])
            if p[i] >= threshold and (colour not in best or p[i] > p[best[colour]]):
                best[colour] = int(i)
        for colour, square in truth["pawns"].items():
            if colour in best and tuple(data["square"][best[colour]]) == tuple(square):
                continue
            hits = [int(i) for i in sel if str(data["colour"][i]) == colour and data["pawn"][i]]
            if not hits:
                out["no candidate"] += 1
            elif max(p[i] for i in hits) < threshold:
                out["scored below threshold"] += 1
            elif best.get(colour) in hits:
                out["base on a wrong square"] += 1
            else:
                out["beaten by another blob"] += 1
        out["false report"] += sum(1 for colour in best if colour not in truth["pawns"])
    return out
