"""Synthetic rectified views for the occlusion lattice tests: a plain wall-coloured board and painted corners."""

from __future__ import annotations

import numpy as np

from vision.rectify import Rectified


def wall_lattice(colour: tuple[int, int, int]) -> Rectified:
    """A rectified view of plain wall colour (every tile corner alike, frame too) with some texture."""
    t, m = 48, 36
    side = 7 * t + 2 * m
    rng = np.random.default_rng(5)
    image = np.clip(np.array(colour, np.float32) + rng.normal(0, 3, (side, side, 3)), 0, 255).astype(np.uint8)
    return Rectified(image=image, tile_px=t, margin_px=m, homography=np.eye(3), corners=np.zeros((4, 2)))


def paint_corners(rect: Rectified, points: list[tuple[int, int]], colour: tuple[int, int, int]) -> None:
    """Paint a 16 px patch of ``colour`` on each tile corner ``(i, j)`` (corner row, corner column)."""
    t, m = rect.tile_px, rect.margin_px
    for i, j in points:
        rect.image[m + i * t - 8 : m + i * t + 8, m + j * t - 8 : m + j * t + 8] = colour
