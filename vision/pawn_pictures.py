"""A printed picture inside a pawn-coloured blob: a pawn is moulded in one colour, a picture is drawn in several inks.

A pawn is one plastic body of one paint: under any light its pixels change in
brightness and saturation (shading, a glint, its shaded side) but it carries no
marks of its own. A treasure picture of a pawn's hue (a creature, a gem, a face) is
printed: inside its outline it carries details drawn in *other* inks - dark eyes or
spots, a face or a mouth of another colour - that a moulded body cannot have. Two
such marks are looked for, each away from the blob's rim, where a body's own shaded
side, its cast shadow and the board around it lie:

* *dark spots* (:func:`dark_spots`): pixels much darker than the blob's body, inside
  its filled outline and not touching its rim (eyes, pupils). The model's ``marks``
  counts only dark pixels the blob's mask leaves out; a dark eye of the blob's own hue
  (navy on blue, ochre on yellow) passes the colour gate and lies *in* the mask.
* *another ink enclosed* (:func:`enclosed_ink`): saturated pixels of another hue in the
  blob's convex hull, in a patch the blob surrounds (most of its rim on the blob) and
  that no other candidate blob overlaps (a pawn piled in front of another is itself a
  candidate of its colour; the board seen between a figure's arms is not enclosed).

A candidate carrying either is not a pawn, whatever its shading, and leaves the
contest of its colour (:func:`without_pictures`), so a real pawn it outscored can win.

Measurements and tried alternatives: vision/notes/pawn_pictures.md.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.pawn_candidates import Candidate

#: A spot is darker than this share of the blob's median brightness (as the model's ``marks``).
SPOT_DARK = 0.6
#: Dark spots of at least this many pixels at 48 px a tile (two printed eyes) make a picture.
MIN_SPOTS = 3.0
#: The rim a spot must stay clear of (pixels at 48 px a tile): the body's own dark edge lies there.
SPOT_RIM = 2
#: Another ink: saturation and value as the pawn colour gate, a hue this far from the blob's.
INK_SATURATION = 90
INK_VALUE = 40
INK_HUE = 20
#: A patch is enclosed when at least this share of its rim lies on the blob.
INK_ENCLOSED = 0.6
#: Enclosed ink of at least this many pixels at 48 px a tile (0.005 tile) makes a picture.
MIN_INK = 12.0

_RING = np.ones((3, 3), np.uint8)


def without_pictures(
    image: np.ndarray, tile_px: int, blobs: Sequence[Candidate], among: Sequence[Candidate] = ()
) -> list[Candidate]:
    """``blobs`` without those that carry a printed picture's marks (:func:`carries_picture`); ``among`` are the
    frame's other candidates (a pawn piled in front of a blob is one of them)."""
    context = [*among, *blobs]
    return [cand for cand in blobs if not carries_picture(image, tile_px, cand, context)]


def carries_picture(image: np.ndarray, tile_px: int, cand: Candidate, found: Sequence[Candidate] = ()) -> bool:
    """Whether the candidate's blob has dark spots or another ink inside its outline (see the module)."""
    x, y, w, h = cand.box
    blob = cand.labels[y : y + h, x : x + w] == cand.index
    if not blob.any():
        return False
    hsv = cv2.cvtColor(image[y : y + h, x : x + w], cv2.COLOR_BGR2HSV)
    scale = (48.0 / tile_px) ** 2
    if dark_spots(hsv[..., 2], blob, max(1, round(SPOT_RIM * tile_px / 48.0))) * scale >= MIN_SPOTS:
        return True
    others = np.zeros_like(blob)
    for other in found:
        if other is not cand:
            others |= other.labels[y : y + h, x : x + w] == other.index
    return enclosed_ink(hsv, blob, others) * scale >= MIN_INK


def dark_spots(value: np.ndarray, blob: np.ndarray, rim: int) -> int:
    """Pixels much darker than the blob's body inside its filled outline, in spots clear of its rim by ``rim``."""
    filled = blob.astype(np.uint8)
    outline, _ = cv2.findContours(filled, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    cv2.drawContours(filled, outline, -1, 1, -1)
    inner = cv2.erode(filled, _RING, iterations=rim, borderType=cv2.BORDER_CONSTANT, borderValue=0) > 0
    dark = (value < SPOT_DARK * float(np.median(value[blob]))) & (filled > 0)
    count, labels = cv2.connectedComponents(dark.view(np.uint8), connectivity=8)
    if count <= 1:
        return 0
    # A spot touching the rim zone is the body's shaded edge or the board, not a mark.
    touching = np.unique(labels[dark & ~inner])
    sizes = np.bincount(labels[dark], minlength=count)
    sizes[touching] = 0
    return int(sizes[1:].sum())


def enclosed_ink(hsv: np.ndarray, blob: np.ndarray, others: np.ndarray) -> int:
    """Saturated pixels of another hue in the blob's hull, in patches the blob surrounds and no other blob touches."""
    ys, xs = np.nonzero(blob)
    hull = np.zeros(blob.shape, np.uint8)
    cv2.fillConvexPoly(hull, cv2.convexHull(np.column_stack([xs, ys]).astype(np.int32)), 1)
    hue = hsv[..., 0].astype(np.int16)
    own = _mean_hue(hue[blob])
    apart = np.abs(hue - own)
    apart = np.minimum(apart, 180 - apart)
    ink = (hull > 0) & ~blob & (hsv[..., 1] >= INK_SATURATION) & (hsv[..., 2] >= INK_VALUE) & (apart >= INK_HUE)
    # Ink reaching the hull's own rim is open to the outside: the board in a bay of the outline.
    open_rim = (hull > 0) & ~(cv2.erode(hull, _RING, borderType=cv2.BORDER_CONSTANT, borderValue=0) > 0)
    count, labels = cv2.connectedComponents(ink.view(np.uint8), connectivity=8)
    total = 0
    for k in range(1, count):
        patch = labels == k
        if (patch & (others | open_rim)).any():
            continue  # another candidate (a pawn piled in front), or the board in a bay: not drawn inside
        padded = np.pad(patch, 1)
        ring = (cv2.dilate(padded.view(np.uint8), _RING) > 0) & ~padded
        on_blob = np.count_nonzero(ring & np.pad(blob, 1))
        if on_blob >= INK_ENCLOSED * np.count_nonzero(ring):
            total += int(patch.sum())
    return total


def _mean_hue(hue: np.ndarray) -> float:
    """The circular mean of OpenCV hues (0..180)."""
    angle = hue.astype(np.float64) * (np.pi / 90.0)
    return float(np.degrees(np.arctan2(np.sin(angle).mean(), np.cos(angle).mean())) / 2.0) % 180.0
