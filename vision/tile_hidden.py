"""How much of each side a detected pawn hides: the share of its band boxes no pawn pixel covers.

The reader paints the pawns out (:func:`vision.pawns.erase`) and reads the tiles
again. Inpainting continues the board around a pawn inward, which restores a side
a short pawn barely touched; a tall pawn (a solid leaning away from the camera's
nadir, :mod:`vision.pawn_geometry`) covers whole arms, and there the paint is a
smear of wall and corridor. :func:`vision.tiles.read_tiles` lets each band's side
count as far as its box was seen, so the tile's valid shape rests on the sides the
camera saw. Treating the covered pixels as missing instead, or sweeping the blobs
toward the base, did not help.

Known limit, the largest class of day tile errors where pawns stand: a side no band
box saw at all (under a pile, or a tall 3D pawn) rests on the paint-out, a coin flip.
Mixing the reads before and after the paint-out, dropping the paint's vote there, or
scaling it were each measured and not kept (gains within noise, losses on fresh
frames). Measurements and the misreads classified by cause: vision/notes/tile_hidden.md.

Only frames with pawns pay for it: one integral image of the pawns' pixels (~0.2 ms).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np

from companion.board import SIZE
from vision.pawns import PawnDetection
from vision.rectify import Rectified
from vision.tile_features import TilesConfig, box_means, side_boxes


def pawn_pixels(shape: tuple[int, int], detections: Sequence[PawnDetection]) -> np.ndarray:
    """A (H, W) uint8 mask of the detections' blob pixels (1) in a view of ``shape``."""
    mask = np.zeros(shape, dtype=np.uint8)
    size_y, size_x = shape
    for d in detections:
        if d.pixels is None:
            continue
        x, y, w, h = d.box
        x0, y0, x1, y1 = max(0, x), max(0, y), min(size_x, x + w), min(size_y, y + h)
        if x1 > x0 and y1 > y0:
            mask[y0:y1, x0:x1] |= d.pixels[y0 - y : y1 - y, x0 - x : x1 - x].astype(np.uint8)
    return mask


def visible_shares(
    rect: Rectified, detections: Sequence[PawnDetection], cfg: TilesConfig
) -> tuple[np.ndarray, np.ndarray]:
    """Share (7, 7, 4) of each side's usual and border-band box (N, E, S, W) that no detection's pixels cover."""
    covered = pawn_pixels(rect.image.shape[:2], detections)
    integral = cv2.integral(covered, sdepth=cv2.CV_32S)[..., None]
    t, m = rect.tile_px, rect.margin_px
    origin = m + t * np.arange(SIZE)
    offs = np.zeros((SIZE, SIZE, 1, 4), dtype=np.int64)
    offs[..., 0] = offs[..., 2] = origin[None, :, None]
    offs[..., 1] = offs[..., 3] = origin[:, None, None]
    outer = replace(cfg, edge_lo=cfg.pawn_edge_lo, edge_hi=cfg.pawn_edge_hi)
    usual_share, outer_share = (
        1.0 - box_means(integral, offs + side_boxes(t, c)[None, None])[..., 0] for c in (cfg, outer)
    )
    return usual_share, outer_share
