"""Rectification: warp the board's 7x7 tile area to a top-down, axis-aligned view.

Every later stage (tile openings, pawns, treasures, occlusion) works on this
view, where tile ``(r, c)`` is the square ``tile_box(r, c)`` and the board's
own border lies in a ``margin`` of a fraction of a tile around it. One shared
function builds the homography so locate's refinement, the readers and the
debug drawings all agree to the half pixel.

Pixel convention (OpenCV's): integer coordinates are pixel centres. The label
``corners`` are the continuous outer corners of the tile area, so they map to
``margin_px - 0.5`` and ``margin_px + 7 * tile_px - 0.5``: the tile area then
covers exactly the pixels ``margin_px .. margin_px + 7 * tile_px - 1``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.board import SIZE

__all__ = ["Rectified", "quad_homography", "rectified_size", "rectify", "rectify_homography"]


def rectified_size(tile_px: int, margin_px: int) -> int:
    """Side of the square rectified image in pixels."""
    return SIZE * tile_px + 2 * margin_px


def _target_corners(tile_px: int, margin_px: int) -> np.ndarray:
    lo = margin_px - 0.5
    hi = margin_px + SIZE * tile_px - 0.5
    return np.array([[lo, lo], [hi, lo], [hi, hi], [lo, hi]], dtype=np.float64)


def _as_corners(corners: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
    quad = np.asarray(corners, dtype=np.float64).reshape(-1, 2)
    if quad.shape != (4, 2) or not np.all(np.isfinite(quad)):
        raise ValueError(f"corners must be 4 finite (x, y) points TL TR BR BL, got {np.asarray(corners).tolist()!r}")
    return quad


def rectify_homography(
    corners: Sequence[Sequence[float]] | np.ndarray, tile_px: int = 48, margin: float = 0.25
) -> tuple[np.ndarray, int]:
    """The image -> rectified homography (3x3 float64) and the margin in pixels."""
    if tile_px < 2:
        raise ValueError(f"tile_px must be at least 2, got {tile_px!r}")
    margin_px = max(0, round(margin * tile_px))
    return quad_homography(_as_corners(corners), _target_corners(tile_px, margin_px)), margin_px


def quad_homography(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """The homography taking 4 points ``src`` to ``dst``, solved in float64.

    ``cv2.getPerspectiveTransform`` works in float32, which costs a few
    hundredths of a pixel: too much for the sub-pixel corner refinement.
    """
    src = np.asarray(src, dtype=np.float64).reshape(4, 2)
    dst = np.asarray(dst, dtype=np.float64).reshape(4, 2)
    a = np.zeros((8, 8))
    b = dst.reshape(8)
    x, y, u, v = src[:, 0], src[:, 1], dst[:, 0], dst[:, 1]
    a[0::2, 0], a[0::2, 1], a[0::2, 2] = x, y, 1.0
    a[0::2, 6], a[0::2, 7] = -u * x, -u * y
    a[1::2, 3], a[1::2, 4], a[1::2, 5] = x, y, 1.0
    a[1::2, 6], a[1::2, 7] = -v * x, -v * y
    try:
        h = np.linalg.solve(a, b)
    except np.linalg.LinAlgError:
        raise ValueError(f"degenerate quadrilateral {src.tolist()!r}") from None
    return np.append(h, 1.0).reshape(3, 3)


@dataclass(frozen=True, eq=False)
class Rectified:
    """A top-down view of the board: 7x7 tiles of ``tile_px`` and ``margin_px`` of border all round.

    ``homography`` maps image pixels to rectified pixels; ``corners`` are the
    image corners it was built from (TL, TR, BR, BL); ``image_shape`` the
    photo's (height, width), which tells where the camera looks straight down
    (objects standing on the board lean away from there).
    """

    image: np.ndarray
    tile_px: int
    margin_px: int
    homography: np.ndarray
    corners: np.ndarray
    image_shape: tuple[int, int] | None = None  # (height, width) of the photo, when known

    @property
    def size(self) -> int:
        return rectified_size(self.tile_px, self.margin_px)

    def tile_box(self, r: int, c: int) -> tuple[int, int, int, int]:
        """Pixel box ``(x0, y0, x1, y1)`` (slice bounds, x1/y1 exclusive) of tile ``(r, c)``."""
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            raise ValueError(f"square {(r, c)!r} is off the board: row and col are 0..6")
        x0 = self.margin_px + c * self.tile_px
        y0 = self.margin_px + r * self.tile_px
        return x0, y0, x0 + self.tile_px, y0 + self.tile_px

    def tile(self, r: int, c: int) -> np.ndarray:
        """The rectified pixels of tile ``(r, c)`` (a view, not a copy)."""
        x0, y0, x1, y1 = self.tile_box(r, c)
        return self.image[y0:y1, x0:x1]

    def tiles_array(self) -> np.ndarray:
        """All tiles as one array ``(7, 7, tile_px, tile_px, channels)`` (a copy), for vectorised readers."""
        m, t = self.margin_px, self.tile_px
        area = self.image[m : m + SIZE * t, m : m + SIZE * t]
        if area.ndim == 2:
            area = area[:, :, None]
        return area.reshape(SIZE, t, SIZE, t, -1).swapaxes(1, 2).copy()

    def to_image(self, points: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
        """Rectified pixel coordinates -> image pixel coordinates (N x 2 float64)."""
        return _apply(np.linalg.inv(self.homography), points)

    def to_rect(self, points: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
        """Image pixel coordinates -> rectified pixel coordinates (N x 2 float64)."""
        return _apply(self.homography, points)

    def square_center_image(self, r: int, c: int) -> np.ndarray:
        """Image pixel position of the centre of tile ``(r, c)``."""
        x0, y0, x1, y1 = self.tile_box(r, c)
        return self.to_image([[(x0 + x1 - 1) / 2.0, (y0 + y1 - 1) / 2.0]])[0]


def _apply(homography: np.ndarray, points: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if len(pts) == 0:
        return pts
    return cv2.perspectiveTransform(pts[None], homography)[0]


def rectify(
    image: np.ndarray,
    corners: Sequence[Sequence[float]] | np.ndarray,
    tile_px: int = 48,
    margin: float = 0.25,
    interpolation: int = cv2.INTER_LINEAR,
) -> Rectified:
    """Warp ``image`` so the 7x7 tile area bounded by ``corners`` (TL, TR, BR, BL) fills a square grid.

    Pixels outside the photo come out black (``BORDER_CONSTANT``), so a board
    partly out of frame still rectifies; the tile readers see those tiles as
    low-contrast and lower their confidence.
    """
    if image is None or image.ndim not in (2, 3) or image.size == 0:
        raise ValueError("rectify needs a non-empty 2-D (grey) or 3-D (colour) image")
    homography, margin_px = rectify_homography(corners, tile_px, margin)
    side = rectified_size(tile_px, margin_px)
    warped = cv2.warpPerspective(
        image, homography, (side, side), flags=interpolation, borderMode=cv2.BORDER_CONSTANT, borderValue=0
    )
    return Rectified(
        image=warped,
        tile_px=tile_px,
        margin_px=margin_px,
        homography=homography,
        corners=_as_corners(corners).copy(),
        image_shape=(int(image.shape[0]), int(image.shape[1])),
    )
