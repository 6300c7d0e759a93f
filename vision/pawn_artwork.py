"""Where a pawn-coloured blob lies in its tiles' artwork: in the corridor, as a picture is printed, or over a wall.

A treasure picture is printed *in* the corridor: at the junction of a corner or T tile,
where the corridor is widest, on a disc or ground of its own, so the board around a
picture is corridor on every side and its outline stays clear of the tile's walls. A pawn
is a raised body a foot wide: it stands wherever on its square a player put it, and its
top, seen from the camera, leans away from the nadir, so the ring of board around its
blob often reaches over a wall of its tile (:mod:`vision.pawn_geometry`). The tile
reader's openings say where the walls are, so the share of the blob's surrounding ring
that falls in the *certain wall* zone (:func:`vision.pawn_candidates.zones`, farther than
``wall_zone`` from every corridor centre line) measures that, without any colour.

It is one-sided evidence: a pawn standing in the corridor's middle, seen straight down,
has a ring in the corridor too, like a picture; a print on a wall (the held-out
renderer's painted blobs) reaches the wall as a pawn does. So it only *chooses* between
blobs of one colour that both already look like a pawn (:func:`vision.pawns._one_of_a_kind`),
where "at most one is a pawn" holds, and the one whose ring reaches a wall is the
likelier. Measurements: vision/notes/pawn_artwork.md.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from companion.board import SIZE
from companion.observation import TileReading
from vision.pawn_candidates import Candidate, zones
from vision.rectify import Rectified

#: The ring of board round a blob looked at, as wide as this many tiles (a cast shadow's and a picture's
#: disc's width at 48 px a tile), starting one pixel out of the blob's outline.
RING = 0.12


def wall_zone(rect: Rectified, tiles: Sequence[TileReading] | None, wall: float, core: float) -> np.ndarray | None:
    """The certain-wall pixels of the rectified board from the read openings (None without a whole board)."""
    if tiles is None or len(tiles) != SIZE * SIZE:
        return None
    return zones(rect, tiles, wall, core)[0]


def wall_reach(cand: Candidate, wall: np.ndarray, tile_px: int) -> float:
    """The share of the ring round ``cand``'s blob (:data:`RING` tile wide) that lies in the certain-wall zone."""
    width = max(1, round(RING * tile_px))
    pad = width + 2
    x, y, w, h = cand.box
    size_y, size_x = wall.shape
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(size_x, x + w + pad), min(size_y, y + h + pad)
    blob = (cand.labels[y0:y1, x0:x1] == cand.index).astype(np.uint8)
    outline = cv2.dilate(blob, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    grown = cv2.dilate(blob, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * width + 1, 2 * width + 1)))
    ring = (grown > 0) & (outline == 0)
    if not ring.any():
        return 0.0
    return float(np.count_nonzero(wall[y0:y1, x0:x1] & ring)) / float(np.count_nonzero(ring))
