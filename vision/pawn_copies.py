"""Printed copies: a picture drawn twice in one colour is artwork, and so is each of its copies in other colours.

The four pawns are one set, one piece in four colours: at most one blob of a colour
is a pawn, and the same piece in another colour is another pawn. A board's treasure
pictures come in sets too, but not one per colour: some editions print the same
picture (a gem, a potion) on several tiles, in several colours and twice or more in
one colour, drawn upright whatever the tile's turn (the sixth renderer's edition).
Two prints of one picture are *copies*: the same silhouette (their masks, centred on
each other, overlap almost wholly) and the same drawing inside it (the grey levels
over that overlap correlate, whatever the inks). Blobs linked by copies form a *copy
set*, and a copy set holding two blobs of one colour cannot be a set of pawns: every
blob in it is a print (:func:`printed_copies`). The reader never chooses it
(:func:`vision.pawns._best`), so a real pawn it outscored can win and a colour with
no pawn is no longer reported from its picture; nor is it a sure pawn for the
board's terms (the set's size and the light consensus,
:func:`vision.pawn_model.with_set_size`). It stays a candidate all the same, a twin
for :func:`vision.pawns._one_of_a_kind`: a print's copy is the evidence that makes
another print of that colour lose its contest (taking the copies out of the
candidates altogether cost a pawn on fresh frames that way; vision/notes/pawns.md, p50).

Why not the silhouette alone: two pawns of one piece standing near each other (or a
round pawn's top and a round print) are as alike in outline as two prints; but a
pawn's inside is its shading under the scene's light and a print's the drawing, so
only prints are alike in both (on the dev frames pawns' grey correlation with a
like-shaped blob stayed under 0.8, prints' copies 0.8 and over). Why not one copy:
a pawn's look-alike in another colour is another pawn (the twin rule,
:func:`vision.pawns._one_of_a_kind`, weighs look-alikes only within a colour's contest).

Known limits: a picture printed once per colour is never caught (nothing says which
of its copies is the pawn); copies are compared unturned, so pictures that turn with
their tile are not copies; the held-out renderer's creatures, each drawn differently,
are not copies either; and only the blobs that may reach the threshold are compared
(the others are left out early, :func:`vision.pawn_features.features`' floor), so a
picture's second copy that scores low never joins its set (comparing every blob of a
foot's size doubled the read's time and lost a pawn on the dev frames).

Measurements and tried alternatives: vision/notes/pawns.md (p50).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.pawn_candidates import Candidate

#: Two masks, centred on each other (best of a one-pixel shift), overlapping this much (intersection over union).
COPY_OVERLAP = 0.8
#: And their grey levels over the overlap correlating this much (zero-mean, normalised).
COPY_LIKENESS = 0.8
#: Blobs whose pixel counts differ more than this share of the larger cannot overlap COPY_OVERLAP.
_AREA_APART = 1.0 - COPY_OVERLAP
#: Fewest overlapping pixels for a correlation to mean anything.
_MIN_PIXELS = 12


def without_copies(image: np.ndarray, blobs: Sequence[Candidate]) -> list[Candidate]:
    """``blobs`` without the members of a copy set that holds two blobs of one colour (:func:`printed_copies`)."""
    printed = printed_copies(image, blobs)
    return [cand for k, cand in enumerate(blobs) if k not in printed]


def printed_copies(image: np.ndarray, blobs: Sequence[Candidate]) -> set[int]:
    """Indices of the blobs in a copy set (blobs linked by :func:`copies`) holding two blobs of one colour."""
    n = len(blobs)
    if n < 2:
        return set()
    masks = [_mask(cand) for cand in blobs]
    counts = np.array([float(np.count_nonzero(m)) for m in masks])
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    grey: np.ndarray | None = None
    for i in range(n):
        for j in range(i + 1, n):
            if counts[i] < _MIN_PIXELS or counts[j] < _MIN_PIXELS:
                continue
            if min(counts[i], counts[j]) < (1.0 - _AREA_APART) * max(counts[i], counts[j]):
                continue  # most pairs: sizes too far apart to overlap that much
            if not _boxes_alike(blobs[i].box, blobs[j].box):
                continue
            if root(i) == root(j):
                continue
            if grey is None:
                grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
            if copies(masks[i], _crop(grey, blobs[i]), masks[j], _crop(grey, blobs[j])):
                parent[root(i)] = root(j)
    sets: dict[int, list[int]] = {}
    for i in range(n):
        sets.setdefault(root(i), []).append(i)
    out: set[int] = set()
    for members in sets.values():
        colours = [blobs[k].color for k in members]
        if len(colours) != len(set(colours)):
            out.update(members)
    return out


def copies(mask_a: np.ndarray, grey_a: np.ndarray, mask_b: np.ndarray, grey_b: np.ndarray) -> bool:
    """Whether two blobs are copies of one picture: their masks, centred on each other (best of a one-pixel shift),
    overlap :data:`COPY_OVERLAP` or more, and their grey levels over the overlap correlate :data:`COPY_LIKENESS`."""
    ca, cb = _centre(mask_a), _centre(mask_b)
    ha, wa = mask_a.shape
    hb, wb = mask_b.shape
    # A canvas holding both, each placed so its centre lands on the canvas origin (+ a shift for b).
    top = max(ca[0], cb[0]) + 1
    left = max(ca[1], cb[1]) + 1
    height = top + max(ha - ca[0], hb - cb[0]) + 1
    width = left + max(wa - ca[1], wb - cb[1]) + 1
    ma = np.zeros((height, width), bool)
    ga = np.zeros((height, width), np.float64)
    ya, xa = top - ca[0], left - ca[1]
    ma[ya : ya + ha, xa : xa + wa] = mask_a
    ga[ya : ya + ha, xa : xa + wa] = grey_a
    best_overlap, best_both = 0.0, None
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            mb = np.zeros((height, width), bool)
            yb, xb = top - cb[0] + dy, left - cb[1] + dx
            mb[yb : yb + hb, xb : xb + wb] = mask_b
            both = ma & mb
            overlap = np.count_nonzero(both) / max(1, np.count_nonzero(ma | mb))
            if overlap > best_overlap:
                best_overlap, best_both = overlap, (both, yb, xb)
    if best_overlap < COPY_OVERLAP or best_both is None:
        return False
    both, yb, xb = best_both
    if np.count_nonzero(both) < _MIN_PIXELS:
        return False
    gb = np.zeros((height, width), np.float64)
    gb[yb : yb + hb, xb : xb + wb] = grey_b
    a, b = ga[both], gb[both]
    a, b = a - a.mean(), b - b.mean()
    norm = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return norm > 1e-9 and float((a * b).sum()) / norm >= COPY_LIKENESS


def _mask(cand: Candidate) -> np.ndarray:
    x, y, w, h = cand.box
    return cand.labels[y : y + h, x : x + w] == cand.index


def _crop(grey: np.ndarray, cand: Candidate) -> np.ndarray:
    x, y, w, h = cand.box
    return grey[y : y + h, x : x + w]


def _centre(mask: np.ndarray) -> tuple[int, int]:
    ys, xs = np.nonzero(mask)
    return round(float(ys.mean())), round(float(xs.mean()))


def _boxes_alike(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    """Boxes whose sides differ by more than a fifth (and two pixels) hold masks that cannot overlap that much."""
    return all(abs(p - q) <= 2 + _AREA_APART * max(p, q) for p, q in ((a[2], b[2]), (a[3], b[3])))
