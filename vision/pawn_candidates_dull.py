"""Dull pawns: a second, lower saturation gate for a colour that has no pawn (p31).

A dull paint (grey-blue, sage, a muted red) is cut apart by :mod:`vision.pawn_candidates`'
gate (HSV saturation >= 90): S = chroma / max rises as a paint darkens, and the lit side
whitens toward its highlight, so only the shaded side passes, as pieces under ``min_area``
(split further by a glossy rim). Lowering the gate for every colour brings in the prints'
pastel parts (p13, p17, p20: more false reports than pawns found). What tells a dull body
from a print at the lower gate is what the paint does across it: one dull paint, shaded,
straddles the normal gate all over its body and is nowhere far above it, while a print
that the lower gate joins is an ink (well above the gate: a saturated picture or outline,
whose pieces the first gate did see) plus its pastel ground or antialiased edge.

So, only for a colour with no pawn after the first pass (the caller's trigger, as for a
slender body: the common board pays nothing), the colour's pixels at ``DULL_SATURATION``
(artwork dropped as in the first pass) are joined into blobs, and a blob is a candidate if

* it is sized like a foot (the first pass's area, extent and fill limits),
* it holds no blob the first pass judged (that one has had its say),
* at least ``DULL_CORE`` of it passes the normal gate (the shaded side the first gate saw
  in pieces: a pastel print alone has none), and
* no more than ``DULL_INK`` of it lies above ``DULL_CEILING`` (a dull paint's darkest,
  most saturated side stays near the gate; a print's ink lies far above it).

The model then scores it as any blob (:func:`vision.pawn_features.features`), and it is
kept only if sure to be a pawn on its own evidence (:data:`vision.pawn_model.SET_SURE`,
the board-level terms left out): a blob only the lower gate sees is weaker evidence, and
a dull *print* (a muted gem, a cyan creature) is the same colour question again.

Measured (vision-test pawns %, located corners, main ef4309f -> this pass). Day: r6 73.8 ->
77.9 (boards 37.5 -> 47.5), final9 si 65.4 -> 66.2, final8 si 67.6 -> 68.3, dev ho 94.4 ->
95.2; 40 fresh sixth frames (seeds 3197000+) 72.0 -> 74.4 (4 found, 1 false green), 40 more
(3195000+) and 20 fresh fifth (3196000+) unchanged; every other day set unchanged (dev tr
100, th 93.7, fo 90.2, f5 89.9, final8 tr/ho/th/fo/fi 99.2/83.2/92.5/97.3/92.5, final9
tr/ho/th/fo/fi 100/82.0/91.1/96.3/89.8). Night: dev fo 1.6 -> 3.2 (one yellow at the night
threshold), r6 0 =. Occluded (hands hide pawns, so more colours ask for the pass): final8 ho
84.6 -> 77.8 (a cyan printed creature taken for blue at 0.875, and the set-size term it
joins then drops the yellow pawn), final9 si 91.9 -> 89.5 (a purple printed gem, 0.97),
dev fo/ho/th/tr, final8 si, final9 fi, r6 unchanged. Over the 32 sets: 12 fewer pawns
missed, 3 more false reports. Without the own-evidence rule (board terms allowed to carry)
dev ho_occ gained one and lost one more, final9 si_occ lost two. Without the ink test
(only "no judged blob inside", p13's and p20's idea with this trigger) dev fo, th and
final8 tr each gained false reports (prints' pastel grounds and edges). The ceiling (the
first gate + 25) was read off the blobs of r6, final8/final9 si, final9 fi and dev th/ho:
true dull bodies have 90 % of their pixels under it, prints' inks mostly not (at 105: r6
76.2, fresh sixth 72.9 with a lost frame; at 125: a false report each on dev th and final8
tr; the occluded sets' dull prints pass at all three). CIE a*b* chroma does not separate
them either (blob medians: dull pawns 12-59, the prints the lower gate joins 10-87). A dull print
passes: its colour is the pawn's question again, the model's features have to answer it.
The pass costs a few ms per colour asked (the artwork Gaussians of the first pass reused),
only on a frame with a colour that has no pawn; the bench photo (four pawns) never asks.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

#: The lower saturation gate of the second pass (HSV S, 0..255).
DULL_SATURATION = 50

#: A dull paint's saturation stays near the first gate (90): at most ``DULL_INK`` of a blob above ``DULL_CEILING``
#: (the gate + 25); a print's ink lies far above it.
DULL_CEILING = 115
DULL_INK = 0.1

#: The share of a dull blob that passes the first gate (its shaded side, seen there in pieces).
DULL_CORE = 0.15

#: How many dull blobs per colour are offered to the model (the largest first).
DULL_KEEP = 3


def dull_blobs(
    labels: np.ndarray,
    stats: np.ndarray,
    saturation: np.ndarray,
    core: np.ndarray,
    taken: np.ndarray,
    tile_px: int,
    limits: tuple[float, float, float, float],
) -> list[tuple[int, tuple[int, int, int, int], float]]:
    """The components of ``labels`` that may be a dull pawn: (index, box, area in tiles), largest first.

    ``stats`` are the components' OpenCV stats (row 0: background); ``saturation`` the
    HSV saturation; ``core`` the colour's pixels at the first gate (artwork dropped);
    ``taken`` the pixels of the blobs the first pass judged; ``limits`` the first pass's
    ``min_area``, ``max_area`` (tile areas), ``max_extent`` (tiles) and ``min_fill``.
    """
    min_area, max_area, max_extent, min_fill = limits
    t2 = float(tile_px * tile_px)
    out = []
    for i, (x, y, w, h, area) in enumerate(stats.tolist()[1:], start=1):
        rel = area / t2
        if rel < min_area or rel > max_area or max(w, h) > max_extent * tile_px or area < min_fill * w * h:
            continue
        box = (slice(y, y + h), slice(x, x + w))
        blob = labels[box] == i
        if is_dull_body(blob, saturation[box], core[box], taken[box]):
            out.append((i, (x, y, w, h), rel))
    out.sort(key=lambda found: -found[2])
    return out


def is_dull_body(blob: np.ndarray, saturation: np.ndarray, core: np.ndarray, taken: np.ndarray) -> bool:
    """Whether a blob (bool, over its box) is one dull paint: seen in pieces by the first gate, no ink above it."""
    area = int(np.count_nonzero(blob))
    if area == 0 or (blob & taken).any():
        return False
    if np.count_nonzero(blob & core) < DULL_CORE * area:
        return False
    return int(np.count_nonzero(saturation[blob] > DULL_CEILING)) <= DULL_INK * area


Judged = Sequence[tuple[np.ndarray, int, tuple[int, int, int, int]]]


def taken_mask(shape: tuple[int, int], judged: Judged) -> np.ndarray:
    """The pixels of the blobs the first pass judged ((labels, index, box) each), over the whole image."""
    taken = np.zeros(shape, dtype=bool)
    for labels, index, (x, y, w, h) in judged:
        taken[y : y + h, x : x + w] |= labels[y : y + h, x : x + w] == index
    return taken
