"""Optional ArUco markers at the board's frame corners: a shortcut to the board, never a requirement.

Some rigs glue four printed markers on the board's frame, one at each outer
corner, so the board is found even on a busy tablecloth. The convention (the
renderer's ``markers=True`` draws it; print the same for a real board):

* dictionary ``DICT_4X4_50``, ids 0, 1, 2, 3 at the board's top-left, top-right,
  bottom-right and bottom-left frame corners, each square to the board;
* each marker centred on the frame's corner diagonal, half a frame width out
  from the tile area on both axes, with a side of 0.8 frame widths.

The frame width is not assumed: the markers' own size gives it (side = 0.8 w
and centre spacing = 7 + w tiles), fitted with the homography to all their corners.
The result is only a start: :func:`vision.locate_refine.refine_corners` then
fits the grid (and the lens) to the tiles themselves, and a start that does
not show a board (its fixed tiles do not separate) is rejected.

The board's orientation is still read from the image (row 0 nearest the image
top, :func:`vision.locate.order_corners`), not from the ids: a board may sit at
any quarter turn to the camera.
"""

from __future__ import annotations

import math
from functools import cache

import cv2
import numpy as np

from vision.locate import DEFAULT_CONFIG, BoardNotFoundError, LocateConfig, order_corners
from vision.locate_refine import refine_corners

#: Marker side as a share of the frame width (the convention above).
SIDE_PER_FRAME = 0.8
#: Long side of the reduced copy searched for markers: a marker of ~0.8 tile stays
#: ~20 px there for a board filling 40 % of the frame, enough for 6x6 modules.
SEARCH_PX = 820
_IDS = (0, 1, 2, 3)


@cache
def _detector() -> cv2.aruco.ArucoDetector:
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    return cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())


def _detect(image: np.ndarray, factor: float) -> dict[int, np.ndarray]:
    h, w = image.shape[:2]
    size = (max(1, round(w / factor)), max(1, round(h / factor)))
    small = image if factor == 1 else cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    grey = small if small.ndim == 2 else cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    corners, ids, _ = _detector().detectMarkers(grey)
    found: dict[int, np.ndarray] = {}
    for quad, marker in zip(corners, () if ids is None else ids.ravel(), strict=True):
        if int(marker) in _IDS and int(marker) not in found:
            found[int(marker)] = (quad.reshape(4, 2).astype(np.float64) + 0.5) * (w / small.shape[1]) - 0.5
    return found


def detect_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """Marker id (0..3) -> its four corners (4x2, image pixels, the marker's own order); others ignored.

    A reduced copy is searched first (a few ms, the price on every frame without
    markers); only when it shows some markers but not all is the full frame
    searched too, for small markers on a thin frame.
    """
    h, w = image.shape[:2]
    # Reduced to exactly SEARCH_PX, not by a whole factor: 1280 px halved to 640 left
    # the markers of a thin frame under the decodable size (none found, so the full
    # frame was never searched either).
    factor = max(1.0, max(h, w) / SEARCH_PX)
    found = _detect(image, factor)
    if found and len(found) < len(_IDS) and factor > 1:
        found = {**_detect(image, 1), **found}
    return found


#: Directions from a marker's centre to its corners, in ArUco's corner order (TL TR BR BL).
_CORNER_DIRECTIONS = np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])
#: Frame widths (tiles) tried when fitting the markers; a finer search follows around the best.
_FRAME_WIDTHS = np.geomspace(0.15, 4.0, 16)


def _plane_corners(markers: dict[int, np.ndarray], frame: float) -> np.ndarray:
    """Board-plane positions (tiles, tile area 0..7) of the found markers' corners for a frame width."""
    centres = np.array([[-0.5, -0.5], [7.5, -0.5], [7.5, 7.5], [-0.5, 7.5]]) - 3.5
    centres = centres * (7.0 + frame) / 8.0 + 3.5
    half = SIDE_PER_FRAME * frame / 2.0
    return np.concatenate([centres[m] + half * _CORNER_DIRECTIONS for m in markers])


def _fit(markers: dict[int, np.ndarray], frame: float) -> tuple[float, np.ndarray]:
    """Mean reprojection error (pixels) and board->image homography for one frame width."""
    plane = _plane_corners(markers, frame)
    image = np.concatenate(list(markers.values()))
    homography, _ = cv2.findHomography(plane, image, 0)
    if homography is None:
        return math.inf, np.eye(3)
    projected = cv2.perspectiveTransform(plane.reshape(-1, 1, 2), homography).reshape(-1, 2)
    return float(np.linalg.norm(projected - image, axis=1).mean()), homography


def tile_area_from_markers(markers: dict[int, np.ndarray]) -> np.ndarray | None:
    """The tile area's image corners implied by the markers (unordered), or None with fewer than three.

    Every found marker's four corners are matched to their board-plane places,
    which depend on the unknown frame width only; the width that reprojects them
    best gives the homography (so three markers suffice, perspective included).
    """
    found = {m: markers[m] for m in _IDS if m in markers}
    if len(found) < 3:
        return None
    errors = [_fit(found, w)[0] for w in _FRAME_WIDTHS]
    best = int(np.argmin(errors))
    lo, hi = _FRAME_WIDTHS[max(best - 1, 0)], _FRAME_WIDTHS[min(best + 1, len(_FRAME_WIDTHS) - 1)]
    error, homography = min((_fit(found, w) for w in np.linspace(lo, hi, 9)), key=lambda fit: fit[0])
    side = float(np.mean([np.linalg.norm(q - np.roll(q, 1, axis=0), axis=1).mean() for q in found.values()]))
    if not math.isfinite(error) or error > 0.1 * side:
        return None  # the markers do not sit as the convention says
    tile_area = np.array([[0.0, 0.0], [7.0, 0.0], [7.0, 7.0], [0.0, 7.0]])
    return cv2.perspectiveTransform(tile_area.reshape(-1, 1, 2), homography).reshape(4, 2)


def find_board_by_markers(image: np.ndarray, config: LocateConfig | None = None) -> np.ndarray | None:
    """Tile-area corners (TL TR BR BL, float32) from the four markers, fitted to the tiles; None without markers.

    Raises :class:`BoardNotFoundError` when the markers are there but the tiles
    they frame do not look like a board (a marker sheet without a board, a hand).
    """
    cfg = config or DEFAULT_CONFIG
    start = tile_area_from_markers(detect_markers(image))
    if start is None:
        return None
    corners, separation, *_ = refine_corners(image, order_corners(start), cfg)
    if separation < cfg.min_separation:
        raise BoardNotFoundError(f"markers found but the tiles do not match (separation {separation:.2f})")
    return order_corners(corners).astype(np.float32)
