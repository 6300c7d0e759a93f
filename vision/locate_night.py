"""Night: the glowing tile area as the board search's last second opinion.

The lattice search (:mod:`vision.locate_grid`) places the 7x7 grid where the gradient
repeats and lets the 16 fixed tiles pick the window; its answer must land within
~0.3 tile for the refinement (:func:`vision.locate_refine.refine_corners`) to
converge. At night a strongly tilted board under an LED's coloured pool can defeat
that search everywhere: every lattice placed more than a tile off, while the true grid
separates its fixed tiles well above the bar.

At night the room is dark and the board glows: the tile area is the frame's one large
bright region, whatever the edition. Its outline, a quadrilateral in the photo, is a
coarse grid in its own right, well within the refinement's reach. Where
the board's printed frame catches some light too (the fifth renderer's brown frame
lit by the LEDs), the region is the whole board; so the outline is also tried shrunk
by half a tile of frame, and opened (the fifth renderer's gate arrows glow on its
frame and make the outline an octagon).

Only asked when every other search was refuted and the frame's levels say night
(:func:`vision.lighting.is_night`): a day frame has no single bright region to trust,
and the common path never gets here. Each candidate is judged by the refinement and
the same bar as the other second opinions. Measurements: vision/notes/locate_night.md.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.rectify import quad_homography

#: The width (tiles) of a frame the glowing region may include around the 7x7 tile area.
FRAME_TILES = 0.5
#: The opening (tiles, a disc) that cuts glowing marks and a spare tile off the glowing tile area.
OPEN_TILES = 0.8

_UNIT = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])


def glow_outline(
    work: np.ndarray, close_frac: float = 0.04, open_tiles: float = 0.0, max_share: float = 0.8
) -> np.ndarray | None:
    """The largest bright region's outline as a quadrilateral (4x2 float32, work pixels), or None.

    Bright: over the grey level Otsu's threshold puts between the dark room and the glow.
    The dark corridors between the glowing walls are closed over (a square ``close_frac``
    of the short side: wider than a corridor at any board size the search accepts), and the
    region's convex hull is simplified to four vertices (a pawn or a finger sticking out
    moves one vertex little); a hull that will not simplify gives its minimum-area rectangle.
    None when the region covers over ``max_share`` of the frame (nothing stands out of a uniform frame).
    ``open_tiles``: the region is first opened by a disc that wide (in its own tiles, from its area):
    the frame's glowing gate arrows and a spare tile lying close by come off, the corners round a little.
    """
    grey = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY) if work.ndim == 3 else work
    level, _ = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = (grey > level).astype(np.uint8)
    size = max(3, round(close_frac * min(grey.shape[:2])) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (size, size)))
    region = _largest(mask)
    if region is None or region.mean() > max_share:  # no glow stands out of the room
        return None
    if open_tiles > 0:
        size = max(3, round(open_tiles * np.sqrt(float(region.sum())) / 7.0) | 1)  # the region's tile, roughly
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
        region = _largest(cv2.morphologyEx(region, cv2.MORPH_OPEN, disc))
        if region is None:
            return None
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    perimeter = cv2.arcLength(hull, True)
    for eps in np.linspace(0.01, 0.1, 19):
        poly = cv2.approxPolyDP(hull, float(eps) * perimeter, True)
        if len(poly) == 4:
            return poly.reshape(4, 2).astype(np.float32)
    return cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float32)


def _largest(mask: np.ndarray) -> np.ndarray | None:
    """The largest connected region of a 0/1 mask (uint8 0/1), or None when there is none."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    if count < 2:
        return None
    return (labels == 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))).astype(np.uint8)


def inset(quad: np.ndarray, frame_tiles: float) -> np.ndarray:
    """``quad`` (a whole board seen in perspective) shrunk to its 7x7 tile area when the frame is ``frame_tiles``
    wide: the same share cut off each side in the board's own plane (through the quad's homography)."""
    share = frame_tiles / (7.0 + 2.0 * frame_tiles)
    inner = _UNIT * (1.0 - 2.0 * share) + share
    h = quad_homography(_UNIT, np.asarray(quad, dtype=np.float64))
    return cv2.perspectiveTransform(inner.reshape(1, 4, 2), h)[0].astype(np.float32)


def glow_quads(work: np.ndarray) -> list[np.ndarray]:
    """Coarse tile-area quads (work pixels) from the glowing region, likeliest first: its outline, the
    outline shrunk by a frame :data:`FRAME_TILES` wide, and the outline of the region opened by
    :data:`OPEN_TILES` (glowing gate arrows on the frame and a spare tile beside the board cut off).
    Empty when the frame has no bright region. (Any vertex first: the caller orders the corners.)"""
    outline = glow_outline(work)
    if outline is None:
        return []
    quads = [outline, inset(outline, FRAME_TILES)]
    opened = glow_outline(work, open_tiles=OPEN_TILES)
    return quads if opened is None else [*quads, opened]
