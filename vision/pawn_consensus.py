"""One light for all: does a blob's lit side (and its dark side) point the way the board's pawns' do?

A real pawn is a raised body under the scene's light: its brightness rises toward the
light and the board around it is darkest on the far side, where its cast shadow falls.
Every pawn on the board is under the same light, so their lit sides point one way and
their dark sides the other (a lamp over the table moves this a little across the
board, not round). A flat print's "shading" is whatever was drawn or blurred into it
(it turns with its tile), and the darkness around it is the artwork's or another
object's shadow: neither points with the pawns. On the dev boards of three renderers
(team, held-out, third) the cosine of a blob's lit side with the other colours' sure
pawns' had a median of 0.90-0.97 for pawns and -0.6-0.0 for the artwork blobs scoring
above 0.3 (separation, AUC, 0.81-0.94); the fourth renderer's round, glossy pawns
agree less (0.64 vs 0.25), their dark side more (AUC 0.70).

Each blob is compared with the blobs of the OTHER colours that are sure to be pawns
without these terms (leave-one-out: a blob never votes for itself, nor does another
blob of its colour, its rival): the cosine between its direction and the sum of
theirs. With fewer than ``MIN_OTHERS`` sure others there is no consensus (0: the term
says nothing either way).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from vision.pawn_features import DARK, DARK_CONSENSUS, FEATURES, LIT, LIT_CONSENSUS, dark_say, lit_say

#: Sure blobs of other colours needed before a consensus says anything.
MIN_OTHERS = 2
_SURFACE, _SHADOW = FEATURES.index("surface"), FEATURES.index("shadow")


def _unit(x: float, y: float) -> tuple[float, float]:
    norm = math.hypot(x, y)
    return (x / norm, y / norm) if norm > 1e-9 else (0.0, 0.0)


def consensus(
    rows: Sequence[Sequence[float]], colours: Sequence[object], sure: Sequence[bool]
) -> list[tuple[float, float]]:
    """Per blob (lit consensus, dark consensus): cosines with the sure other-colour blobs' summed directions,
    scaled down for a blob with little shading or shadow of its own
    (:data:`vision.pawn_features.SURFACE_FULL`).

    ``rows`` are blob features (:data:`vision.pawn_features.FEATURES`), ``colours`` each
    blob's colour, ``sure`` whether it counts as a pawn for the consensus.
    """
    lit = [_unit(float(r[LIT]), float(r[LIT + 1])) for r in rows]
    dark = [_unit(float(r[DARK]), float(r[DARK + 1])) for r in rows]
    voters = [i for i, s in enumerate(sure) if s]
    out = []
    for i, colour in enumerate(colours):
        others = [j for j in voters if colours[j] != colour]
        if len(others) < MIN_OTHERS:
            out.append((0.0, 0.0))
            continue
        pair = []
        for vec in (lit, dark):
            sx = sum(vec[j][0] for j in others)
            sy = sum(vec[j][1] for j in others)
            norm = math.hypot(sx, sy)
            pair.append((vec[i][0] * sx + vec[i][1] * sy) / norm if norm > 1e-9 else 0.0)
        row = rows[i]
        out.append((pair[0] * lit_say(float(row[_SURFACE])), pair[1] * dark_say(float(row[_SHADOW]))))
    return out


def with_consensus(
    rows: Sequence[Sequence[float]], colours: Sequence[object], sure: Sequence[bool]
) -> list[tuple[float, ...]]:
    """``rows`` with their lit and dark consensus filled in (see :func:`consensus`)."""
    out = []
    for row, (lit, dark) in zip(rows, consensus(rows, colours, sure), strict=True):
        filled = list(row)
        filled[LIT_CONSENSUS], filled[DARK_CONSENSUS] = lit, dark
        out.append(tuple(filled))
    return out
