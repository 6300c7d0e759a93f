"""A found pawn's whole body: its blob grown over its own colour down to its base.

A pawn's blob (:mod:`vision.pawn_candidates`) is the pawn's *lit* colour: pixels
of a pawn hue, saturated and lit, that differ from the board's material. On a
tall 3D pawn that is its top and lit side; the body's far side is in its own
shade, darker than the blob's brightness floor and than the material around it
(read there as "the material in a shadow"), so it stays out of the blob. The
tile reader, reading again with the pawns painted out (:func:`vision.pawns.erase`),
then meets that shaded body on the square's sides and reads it as a closed side
(log-odds -6 to -10: fifth-renderer day frames, lead f5 0019).

Once a pawn is *found*, its colour is known, and shade does not change colour:
the body's far side keeps the blob's hue and saturation (HSV saturation is a
ratio, blind to how much light falls on the surface), only its value drops. So
the mask grows from the blob over pixels of the blob's own hue and saturation,
whatever their brightness (bar near-black noise), connected to the blob and
within ``reach`` of it (a body is compact: its base is within half a tile of
its lit top).

The growth must stop at the body's silhouette. On artwork of the pawn's own
hue (a yellow pawn on a sand corridor, a red one beside a dark brick wall, a
green one on a hedge) it would run on into the board. Three guards, each a
property of a solid body and not of any edition's artwork: the own-colour
pixels are *opened* first (a body's side is solid; sand grains and brick
texture of a near hue are speckle), the grown mask must stay *compact*
(``MIN_SOLIDITY`` of its convex hull: third-renderer final6 th_day 0030's yellow
pawn ran up its sand corridor and th_night 0012's red pawn along a brick wall,
both an L or a fringe, each one tile lost before this guard), and it must not
reach the window's rim (a body ends inside ``reach``, artwork runs on through
it) nor exceed ``MAX_GROWTH`` times the blob. Otherwise the blob stays as found.

Only the painted mask grows (the detection's ``pixels`` and ``box``, used by
:func:`vision.pawns.erase`, :func:`vision.tile_hidden.visible_shares`, the
covered squares and the occlusion boxes); the pawn's square and confidence are
decided before, on the blob. Cost: ~0.15 ms a pawn (a window of the box plus
``reach``), about 0.5 ms a frame with four pawns.

Measured (vision-test, located corners, against main 7c3f635): tiles gained on
final6 fi_day 0017 (a tall pawn's shaded side read as a wall) and dev ho_occ 0007,
lost on dev th_occ 0017 (a marginal tile, conf 0.70 -> 0.56, no pawn near it: the
board-level coupling) and final6 fi_occ 0000 (the yellow pawn's whole body painted,
its tile's W side becomes unseen and the shape prior picks NS for NW; the left-over
lit yellow had passed for the pale corridor); every other set identical in tiles,
pawns and boards (dev ho/tr/th/fo day, ho/th/fo night, tr/fo occ, lead f5 day,
final5 five day sets and fi_occ, final6 all day and night sets and si_occ, r6 day,
night and occ; 30 fresh fifth-renderer day frames, seeds 2900000+, 30 fresh sixth,
2901000+). Lead f5 0019, whose green pawn's shaded side this was written for, stays
wrong: with the body painted its tile's N arm is still read closed (the red pawn's
cast shadow lies across it) and its W side becomes unseen. Net zero, with a loss on
the third and the fifth renderers: not kept in the reader (see :func:`vision.pawns.erase`).
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

#: How far (tiles) the body may extend beyond the lit blob.
REACH = 0.45
#: Hue distance (OpenCV degrees, 0..180) of the body from the blob's median hue.
HUE_TOLERANCE = 10
#: The body's saturation, as a share of the blob's median saturation.
MIN_SATURATION_SHARE = 0.5
#: Value floor (0..255): darker pixels' hue is noise.
MIN_VALUE = 24
#: Share of the reach's outer rim the growth may touch (more: it runs on into artwork).
MAX_RIM_SHARE = 0.12
#: The grown mask's area at most this many times the blob's.
MAX_GROWTH = 2.5
#: The grown mask's share of its convex hull at least this: a body is compact, a run into artwork is not.
MIN_SOLIDITY = 0.85

_DISC = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))


def grow_body(
    image: np.ndarray,
    box: tuple[int, int, int, int],
    pixels: np.ndarray,
    tile_px: int,
    reach: float = REACH,
) -> tuple[tuple[int, int, int, int], np.ndarray]:
    """The pawn's ``box`` and ``pixels`` grown over its own colour (see the module docstring).

    ``image`` is the rectified BGR picture, ``box`` (x, y, w, h) and ``pixels`` (bool, h x w)
    the found blob. Returns the blob unchanged when there is nothing to grow or the growth
    looks like artwork.
    """
    x, y, w, h = box
    if pixels.size == 0 or not pixels.any():
        return box, pixels
    r = max(2, round(reach * tile_px))
    size_y, size_x = image.shape[:2]
    # Within reach of the blob's box (chessboard distance): the window itself.
    x0, y0 = max(0, x - r), max(0, y - r)
    x1, y1 = min(size_x, x + w + r), min(size_y, y + h + r)
    blob = np.zeros((y1 - y0, x1 - x0), dtype=np.uint8)
    blob[y - y0 : y - y0 + h, x - x0 : x - x0 + w] = pixels
    inside = blob.view(bool)
    hue, sat, val = cv2.split(cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2HSV))
    # The blob's hue (circular, OpenCV's 0..180) and saturation.
    angle = hue[inside].astype(np.float64) * (np.pi / 90.0)
    centre = float(np.arctan2(np.sin(angle).mean(), np.cos(angle).mean())) * (90.0 / np.pi) % 180.0
    ref_sat = float(np.median(sat[inside]))
    own = cv2.LUT(hue, _hue_table(round(centre)))
    own &= cv2.compare(sat, MIN_SATURATION_SHARE * ref_sat, cv2.CMP_GE)
    own &= cv2.compare(val, MIN_VALUE, cv2.CMP_GE)
    # Opened: a body's side is solid, a textured material of a near hue (sand grains, brick) is speckle.
    grown = cv2.morphologyEx(own, cv2.MORPH_OPEN, _DISC) | (blob * 255)
    count, labels = cv2.connectedComponents(grown, connectivity=8)
    keep = np.zeros(count, dtype=bool)
    keep[np.unique(labels[inside])] = True
    keep[0] = False
    body = keep[labels]
    area = int(np.count_nonzero(body))
    if area <= int(np.count_nonzero(blob)):
        return box, pixels
    # The window's rim: a body stops short of it, artwork runs on through it.
    rim = np.count_nonzero(body[0]) + np.count_nonzero(body[-1]) + np.count_nonzero(body[1:-1, 0])
    rim += np.count_nonzero(body[1:-1, -1])
    rim_share = rim / max(1.0, 2.0 * (body.shape[0] + body.shape[1]) - 4.0)
    if rim_share > MAX_RIM_SHARE or area > MAX_GROWTH * np.count_nonzero(blob) or _solidity(body) < MIN_SOLIDITY:
        return box, pixels
    bx, by, bw, bh = cv2.boundingRect(body.view(np.uint8))
    return (x0 + bx, y0 + by, bw, bh), body[by : by + bh, bx : bx + bw]


@cache
def _hue_table(centre: int) -> np.ndarray:
    """255 for the OpenCV hues (0..180) within ``HUE_TOLERANCE`` of ``centre`` on the hue circle, else 0."""
    hue = np.arange(256)
    dist = np.abs(hue - centre)
    return np.where(np.minimum(dist, 180 - dist) <= HUE_TOLERANCE, 255, 0).astype(np.uint8)


def _solidity(mask: np.ndarray) -> float:
    """The mask's area over its convex hull's (1 for a convex shape)."""
    points = cv2.findNonZero(mask.view(np.uint8))
    hull = cv2.convexHull(points)
    return float(mask.sum()) / max(1.0, cv2.contourArea(hull) + 0.5 * cv2.arcLength(hull, True) + 1.0)
