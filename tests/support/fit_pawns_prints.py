"""Do a frame's doubtful blobs look like its certain prints? (p25's study; not in the reader.)

Usage (from the repo root)::

    python -m tests.support.fit_pawns_prints FOLDER ... [--cache-dir DIR] [--apart 0.9] [--penalty 5]

The idea: every board carries a couple of dozen printed pictures in one drawing style,
and most pawn-coloured ones score far under any pawn (:data:`CERTAIN_PRINT`): certain
prints *of this frame*, whatever the edition. A doubtful blob (between the report
threshold and :data:`DOUBT`) that exceeds no more than ``apart`` of them on each
hue-free cue of a raised body (:data:`CUES`: size, thickness, cast shadow, lean) would
be drawn like them and lose logit (:func:`print_penalties`, which only lowers a logit:
no new report, the early exit stays an upper bound).

Every day frame's candidates are described with the label's corners
(:func:`tests.support.fit_pawns.collect`, no early exit, so the certain prints are
there) and scored with the board-level terms in, as the reader does. Printed per group
(sixth renderer or the others; each colour's best blob >= 0.5, pawn or false report,
doubtful or sure): how many, how many stand apart from the frame's prints by less than
0.8 / 0.9 on their best cue, and the median; then, per folder, pawns right / false
reports with and without the penalty (decisions as the reader's: each colour's best blob
above 0.5).

Measured (p25, main 2bfe390; 18 day sets of six renderers: dev ho/tr/th/fo, lead f5,
r6, spent final6 and final7 day sets; the pile rule of ``vision.pawns`` left out): the
false reports are NOT drawn like their frame's certain prints. Of 96 doubtful false
reports 21 stood apart by < 0.9 on every cue (sixth renderer 16 of 56), against 23 of
564 doubtful pawns; the median best quantile is 1.0 for both: the prints that beat a
pawn are the frame's exceptional pictures (larger, shaded gems and balls, off-centre
creatures), not its typical flat icons. The 11 false reports scoring >= 0.97 (2 of them
the sixth renderer's) all stood apart (>= 0.9). The default penalty
(apart 0.9, 5 logit per unit): right/false 1831/107 -> 1830/100 (final6 ho -1 pawn,
si -5, r6 -1, dev fo -1 false). In the reader (vision-test, located corners; the
certain prints are the blobs its early exit drops, so candidates were described again
without it on frames with a doubtful blob, 456 of 700 day frames): final7 si boards
.30 -> .35, final6 si .425 -> .45, dev fo .80 -> .825, but the held-out renderer lost
4 pawns (final6 ho .850 -> .827, dev ho .944 -> .935): its small, upright pawns stand
apart from its prints by 0.84-0.89 on their best cue, and near-ties (0.618 vs 0.615)
flipped. Apart 0.8 / 8 logit: held-out -2 pawns (final6 ho), sixth +2 boards; with the
centre offset as a fifth cue (0.9 / 8): held-out -3, r6 -1 pawn. Not kept.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence

import numpy as np

from tests.support.fit_pawns import blobs
from vision.pawn_features import FEATURES
from vision.pawn_model import PawnConfig, confidence, with_set_size

#: The hue-free cues of a raised body compared with the frame's prints.
CUES: tuple[str, ...] = ("log_area", "thickness", "shadow", "elongation")
#: A blob scoring under this (board-level terms in) is a certain print of its frame.
CERTAIN_PRINT = 0.05
#: A blob scoring under this (and at least the report threshold) is doubtful.
DOUBT = 0.97
#: Certain prints needed before the frame's style says anything.
MIN_PRINTS = 3


def apart(value: float, reference: np.ndarray) -> float:
    """The share of ``reference`` under ``value`` (ties count half)."""
    below = float(np.count_nonzero(reference < value)) + 0.5 * float(np.count_nonzero(reference == value))
    return below / max(1, len(reference))


def best_apart(row: Sequence[float], prints: np.ndarray, cues: Sequence[str] = CUES) -> float:
    """How far ``row`` stands apart from the frame's prints (rows) on its best cue (0..1)."""
    return max(apart(float(row[FEATURES.index(c)]), prints[:, FEATURES.index(c)]) for c in cues)


def print_penalties(
    rows: Sequence[Sequence[float]],
    probabilities: Sequence[float],
    threshold: float,
    at: float = 0.9,
    penalty: float = 5.0,
    cues: Sequence[str] = CUES,
) -> list[float]:
    """Per blob: the logit (<= 0) a doubtful blob loses for standing apart from the prints by less than ``at``."""
    out = [0.0] * len(rows)
    prints = np.array([row for row, p in zip(rows, probabilities, strict=True) if p < CERTAIN_PRINT])
    if len(prints) < MIN_PRINTS:
        return out
    for k, (row, p) in enumerate(zip(rows, probabilities, strict=True)):
        if threshold <= p < DOUBT:
            out[k] = penalty * min(0.0, best_apart(row, prints, cues) - at)
    return out


def frames(data: dict[str, np.ndarray]) -> list[tuple[list[tuple[float, ...]], list[float], list[bool], list[str]]]:
    """Per day frame: its blobs' rows (board-level terms in), confidences, pawn labels and colours."""
    out = []
    for image in np.unique(data["image"]):
        pick = np.flatnonzero((data["image"] == image) & ~data["night"])
        if not len(pick):
            continue
        colours = [str(c) for c in data["colour"][pick]]
        rows = with_set_size([tuple(r) for r in data["features"][pick]], colours=colours)
        probs = [confidence(r) for r in rows]
        out.append((rows, probs, [bool(x) for x in data["pawn"][pick]], colours))
    return out


def decide(probs: Sequence[float], pawn: Sequence[bool], colours: Sequence[str]) -> tuple[int, int]:
    """Pawns right and false reports of one frame: each colour's best blob at or above 0.5."""
    best: dict[str, int] = {}
    for k, (p, c) in enumerate(zip(probs, colours, strict=True)):
        if p >= 0.5 and (c not in best or p > probs[best[c]]):
            best[c] = k
    right = sum(1 for k in best.values() if pawn[k])
    return right, len(best) - right


def penalised(p: float, d: float) -> float:
    """``p`` with ``d`` logit added."""
    p = min(max(p, 1e-12), 1 - 1e-12)
    return 1.0 / (1.0 + math.exp(-(math.log(p / (1 - p)) + d)))


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="+")
    ap.add_argument("--cache-dir")
    ap.add_argument("--apart", type=float, default=0.9)
    ap.add_argument("--penalty", type=float, default=5.0)
    args = ap.parse_args(argv)
    groups: dict[str, list[float]] = {}
    for folder in args.folders:
        sixth = "si_" in folder or "r6" in folder
        before, after = [0, 0], [0, 0]
        for rows, probs, pawn, colours in frames(blobs(folder, PawnConfig(), args.cache_dir)):
            prints = np.array([r for r, p in zip(rows, probs, strict=True) if p < CERTAIN_PRINT])
            if len(prints) >= MIN_PRINTS:
                best: dict[str, int] = {}
                for k, (p, c) in enumerate(zip(probs, colours, strict=True)):
                    if p >= 0.5 and (c not in best or p > probs[best[c]]):
                        best[c] = k
                for k in best.values():
                    key = json.dumps(
                        [
                            "sixth" if sixth else "others",
                            "pawn" if pawn[k] else "false",
                            "sure" if probs[k] >= DOUBT else "doubt",
                        ]
                    )
                    groups.setdefault(key, []).append(best_apart(rows[k], prints))
            pen = print_penalties(rows, probs, 0.5, args.apart, args.penalty)
            for total, ps in ((before, probs), (after, [penalised(p, d) for p, d in zip(probs, pen, strict=True)])):
                r, f = decide(ps, pawn, colours)
                total[0] += r
                total[1] += f
        print(f"{folder}: right/false {before[0]}/{before[1]} -> {after[0]}/{after[1]}")
    for key, values in sorted(groups.items()):
        v = np.array(values)
        print(
            key,
            len(v),
            "apart < 0.8:",
            int((v < 0.8).sum()),
            "< 0.9:",
            int((v < 0.9).sum()),
            "median",
            f"{np.median(v):.2f}",
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
