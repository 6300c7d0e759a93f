"""A printed picture inside a pawn-coloured blob: a pawn is moulded in one colour, a picture is drawn in several inks.

A pawn is one plastic body of one paint: under any light its pixels change in
brightness and saturation (shading, a glint, its own head's shadow on its base) but
not in hue. A treasure picture of a pawn's hue (a creature with a face of another
colour, a gem with a coloured core) is printed: inside its outline it may carry a
patch of *another* saturated ink that a moulded body cannot have. Such a patch is
looked for in the blob's convex hull (:func:`enclosed_ink`): saturated pixels of another
hue, in a patch the blob surrounds (most of its rim on the blob, none on the hull's
own rim: the board seen in a bay of a figure's outline is open to the outside) and
that no other candidate blob overlaps (a pawn piled in front of another is itself a
candidate of its colour), and that is *brighter* than the blob's body. A pawn
standing on a picture shows the picture's ink through gaps in its own silhouette
(under a figure's overhang, between the parts of a lying figure): that ink lies in
the body's shade, no brighter than the body. A picture's other ink is printed in the
same light as the blob around it, and its faces and highlights are paler inks than a
pawn's saturated paint. A candidate carrying such a patch is not a pawn, whatever its
shading, and leaves the contest of its colour (:func:`without_pictures`), so a real
pawn it outscored can win.

A second cue, the picture's symmetry (:func:`mirror_on_the_lattice`): a picture is drawn upright on its tile,
mirror-symmetric about the tile's row or column axis, which a pawn seen from above is only by chance. A third,
its silhouette's symmetry (:func:`drawn_across_its_lean`): a pawn's outline mirrors itself about the ray from
the nadir (its lean), a picture's about the lattice axis it is drawn on, wherever the camera is.

Dark marks are no such cue: a raised body shades itself (a ball's head casts a dark
crescent on its own base, a cylinder's top shows its dark inner rim), and those
shadows lie inside the outline, in the body's hue, as dark and as small as a printed
creature's eyes.

Measurements and tried alternatives: vision/notes/pawn_pictures.md.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from vision.pawn_candidates import Candidate

#: Another ink: saturation and value as the pawn colour gate, a hue this far from the blob's.
INK_SATURATION = 90
INK_VALUE = 40
INK_HUE = 20
#: The patch's median value over the blob's: brighter than the body, so no ink seen in a pawn's shade.
INK_BRIGHTER = 1.1
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
    """Whether the candidate's blob surrounds a patch of another ink (see the module); ``found``: the frame's
    candidates (``cand`` among them or not)."""
    x, y, w, h = cand.box
    blob = cand.labels[y : y + h, x : x + w] == cand.index
    if not blob.any():
        return False
    hsv = cv2.cvtColor(image[y : y + h, x : x + w], cv2.COLOR_BGR2HSV)
    least = MIN_INK * (tile_px / 48.0) ** 2
    ink, hull = other_ink(hsv, blob)
    if np.count_nonzero(ink) < least:
        return False  # most blobs: too little other ink in their hull to be a picture's (no patch needed)
    others = np.zeros_like(blob)
    for other in found:
        if other is not cand:
            others |= other.labels[y : y + h, x : x + w] == other.index
    return enclosed_ink(hsv, blob, ink, hull, others) >= least


def other_ink(hsv: np.ndarray, blob: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Saturated, lit pixels of another hue than the blob's in its convex hull, and that hull (uint8)."""
    ys, xs = np.nonzero(blob)
    hull = np.zeros(blob.shape, np.uint8)
    cv2.fillConvexPoly(hull, cv2.convexHull(np.column_stack([xs, ys]).astype(np.int32)), 1)
    hue = hsv[..., 0].astype(np.int16)
    apart = np.abs(hue - _mean_hue(hue[blob]))
    apart = np.minimum(apart, 180 - apart)
    ink = (hull > 0) & ~blob & (hsv[..., 1] >= INK_SATURATION) & (hsv[..., 2] >= INK_VALUE) & (apart >= INK_HUE)
    return ink, hull


def enclosed_ink(hsv: np.ndarray, blob: np.ndarray, ink: np.ndarray, hull: np.ndarray, others: np.ndarray) -> int:
    """How many ``ink`` pixels lie in patches the blob surrounds, that no other blob touches and that are
    brighter than the blob's body."""
    # Ink reaching the hull's own rim is open to the outside: the board in a bay of the outline.
    open_rim = (hull > 0) & ~(cv2.erode(hull, _RING, borderType=cv2.BORDER_CONSTANT, borderValue=0) > 0)
    count, labels = cv2.connectedComponents(ink.view(np.uint8), connectivity=8)
    total = 0
    body = INK_BRIGHTER * float(np.median(hsv[..., 2][blob]))
    for k in range(1, count):
        patch = labels == k
        if (patch & (others | open_rim)).any() or float(np.median(hsv[..., 2][patch])) < body:
            continue  # another candidate (a pawn piled in front), the board in a bay, ink in a body's shade
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


#: A printed picture's mirror axis: its colours mirrored about a lattice axis through its centroid correlate at
#: least this much with themselves (:func:`mirror_on_the_lattice`).
MIRROR_CORR = 0.9
#: ... and its mean mirror difference (in units of its colours' spread) is lower there by at least this than
#: about any other axis (every :data:`MIRROR_STEP` degrees).
MIRROR_GAP = 0.055
MIRROR_STEP = 5


def mirror_on_the_lattice(image: np.ndarray, box: tuple[int, int, int, int], blob: np.ndarray) -> bool:
    """Whether the blob is mirror-symmetric about a lattice axis through its centroid and about no other axis.

    A treasure picture is drawn upright on its tile (a gem, a crown, a potion, a two-tone ball): mirror-symmetric
    about the tile's vertical axis, and a tile turns in quarter turns, so on the rectified board the axis is a
    lattice axis (row or column), through the picture's own centre. A pawn seen from above is symmetric about
    the line to the camera's nadir (its lean) and about its light's direction (its lit and shaded sides): about
    a lattice axis only by chance, and then a round top is nearly as symmetric about every axis. So the blob's
    colours (and silhouette, grown by a pixel) are mirrored about the two lattice axes through its centroid
    and about every other axis :data:`MIRROR_STEP` degrees apart; a print is one whose best lattice mirror
    correlates >= :data:`MIRROR_CORR` with the blob and beats every other axis's mean difference by
    :data:`MIRROR_GAP`. The gap is mostly the picture's sharp outline and facets: a smooth round body lit along
    a row mirrors itself nearly as well about the axes beside the row (a pixel-sharp one would not: its
    staircase edges; photos are never that sharp). Known limits: a pawn lying on its side along a row or
    column mirrors itself about it with sharp ends (so :func:`vision.pawns._drawn_upright` judges only blobs
    at a tile's centre, no longer than a picture); pictures that are not symmetric (the held-out creatures, a
    key, a two-tone ball's half cut by the outline) are not caught. Measurements:
    vision/notes/pawn_pictures.md (p57). ``blob``: the blob's pixels in its ``box`` (x, y, w, h; bool).
    """
    x, y, w, h = box
    pad = max(w, h) // 2 + 2  # the blob mirrored about any axis through its centroid stays in the window
    height, width = image.shape[:2]
    x0, y0, x1, y1 = max(0, x - pad), max(0, y - pad), min(width, x + w + pad), min(height, y + h + pad)
    if np.count_nonzero(blob) < 9:
        return False
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    inside[y - y0 : y - y0 + h, x - x0 : x - x0 + w] = blob
    colours = image[y0:y1, x0:x1].astype(np.float32)
    grown = cv2.dilate(inside, _RING).astype(np.float32)
    ys, xs = np.nonzero(inside)
    cx, cy = float(xs.mean()), float(ys.mean())
    size = (colours.shape[1], colours.shape[0])

    def difference(degrees: float) -> tuple[float, float]:
        """Correlation and mean difference (over the colours' spread) of the blob and its mirror image."""
        th = np.radians(2.0 * degrees)
        c, s = float(np.cos(th)), float(np.sin(th))
        mirror = np.array([[c, s, cx - c * cx - s * cy], [s, -c, cy - s * cx + c * cy]], np.float32)
        flipped = cv2.warpAffine(colours, mirror, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        region = (grown > 0) | (cv2.warpAffine(grown, mirror, size, flags=cv2.INTER_LINEAR) > 0.5)
        a, b = colours[region].ravel(), flipped[region].ravel()
        a0, b0 = a - a.mean(), b - b.mean()
        spread = float(np.sqrt((a0 * a0).mean()))
        norm = spread * float(np.sqrt((b0 * b0).mean()))
        if norm <= 0.0:
            return 0.0, math.inf
        return float((a0 * b0).mean()) / norm, float(np.abs(a - b).mean()) / max(1.0, spread)

    lattice = [difference(0.0), difference(90.0)]
    if max(corr for corr, _ in lattice) < MIRROR_CORR:
        return False  # most blobs (pawns, and prints not drawn upright)
    best = min(diff for _, diff in lattice)
    for degrees in range(MIRROR_STEP, 180, MIRROR_STEP):
        if degrees % 90 and difference(degrees)[1] < best + MIRROR_GAP:
            return False  # as symmetric about another axis: a round top, a body along its light
    return True


#: A picture's silhouette mirrored about one lattice axis through its centroid overlaps itself (intersection over
#: union) at least this much (:func:`drawn_across_its_lean`) ...
SILHOUETTE_MIRROR = 0.75
#: ... at least this much less about the other lattice axis (a half disc, a key: not a round top) ...
SILHOUETTE_OTHER = 0.2
#: ... and at least this much less about every ray from the nadir within its uncertainty (every
#: :data:`RAY_STEP` degrees, and its ends).
SILHOUETTE_RAY = 0.25
RAY_STEP = 5.0


def silhouette_mirror(blob: np.ndarray, degrees: float) -> float:
    """The blob's overlap (intersection over union) with its mirror image about the axis through its centroid at
    ``degrees`` (image axes: 0 is a row, 90 a column). ``blob``: bool, at least one pixel."""
    h, w = blob.shape
    pad = max(h, w)  # the mirror image about any axis through the centroid stays on the canvas
    canvas = np.zeros((h + 2 * pad, w + 2 * pad), np.float32)
    canvas[pad : pad + h, pad : pad + w] = blob
    ys, xs = np.nonzero(blob)
    cx, cy = float(xs.mean()) + pad, float(ys.mean()) + pad
    th = math.radians(2.0 * degrees)
    c, s = math.cos(th), math.sin(th)
    mirror = np.array([[c, s, cx - c * cx - s * cy], [s, -c, cy - s * cx + c * cy]], np.float32)
    flipped = cv2.warpAffine(canvas, mirror, (canvas.shape[1], canvas.shape[0]), flags=cv2.INTER_LINEAR) > 0.5
    own = canvas > 0.5
    return float(np.count_nonzero(own & flipped)) / max(1.0, float(np.count_nonzero(own | flipped)))


def drawn_across_its_lean(blob: np.ndarray, ray: float, cone: float) -> bool:
    """Whether the blob's outline mirrors itself about one lattice axis, not the other, and about no ray the
    camera could see it lean along: a picture drawn upright, not a raised body.

    A pawn is a solid of revolution (or a figure facing the camera's side at random): the camera, the nadir
    and the pawn's axis lie in one plane, so its outline in the top-down view mirrors itself about the ray
    from the nadir through it, whatever its lean and size. A picture's outline mirrors itself about the axis
    it is drawn on, a lattice axis on a tile turned in quarter turns, wherever the camera is. So a blob whose
    silhouette mirrors itself about a lattice axis (:data:`SILHOUETTE_MIRROR`), clearly less about the other
    (:data:`SILHOUETTE_OTHER`: not a round top, nor a body lying along a row, alike both ways) and clearly
    less about every ray within the nadir's uncertainty (:data:`SILHOUETTE_RAY`; ``ray`` the direction from
    the nadir to the blob, ``cone`` its uncertainty, degrees, image axes) is a picture: a ball's half drawn
    over its bar, a key, a potion. The silhouette only, not the colours: a picture's drawn shading and a
    pawn's light both break the colours' symmetry. Where the nadir is too uncertain (a lattice axis within
    the cone) the rule cannot fire. Known limit: a figure lying across its ray at a tile's centre (not seen;
    :func:`vision.pawns._drawn_upright` judges only blobs where a picture is printed). Measurements:
    vision/notes/pawns.md (p63).
    """
    if np.count_nonzero(blob) < 9 or not (math.isfinite(ray) and math.isfinite(cone)) or cone >= 90.0:
        return False  # too small to judge, no nadir (a degenerate view), or every axis a possible lean
    across, along = silhouette_mirror(blob, 0.0), silhouette_mirror(blob, 90.0)
    best = max(across, along)
    if best < SILHOUETTE_MIRROR or min(across, along) > best - SILHOUETTE_OTHER:
        return False  # most blobs: no lattice mirror, or round (a pawn's top seen from above)
    turns = np.arange(-cone, cone + RAY_STEP, RAY_STEP).clip(-cone, cone) if cone > 0 else np.zeros(1)
    return all(silhouette_mirror(blob, ray + float(turn)) <= best - SILHOUETTE_RAY for turn in turns)
