"""Can this frame be read now? Hands, objects and unreadable frames.

The reader must say "cannot read now" rather than guess when a hand or an
object hides part of the board, or when the frame itself is unusable. Three
stages, each returning a one-line reason or ``None``:

* :func:`frame_problem` — before locating: blank, too dark, too blurred.
* :func:`board_problem` — on the rectified view: areas inconsistent with the
  tile grid. Where four tiles meet (the 8x8 lattice of tile corners) the board
  is always wall, so those patches share one colour (the artwork's wall colour,
  learned from this very frame). A hand or sleeve makes a connected cluster of
  lattice points unlike it, usually reaching the board's edge (the arm comes
  from outside). Squares a pawn stands on are not counted.
* :func:`tiles_problem` — after reading the tiles: fixed tiles not matching
  their known openings, poor grid quality, many low-confidence tiles.

Thresholds are relative to the frame's own statistics where possible, so they
hold across artwork, lighting and camera exposure.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.board import FIXED_TILES, SIZE, Square
from companion.observation import TileReading
from vision.rectify import Rectified


@dataclass(frozen=True)
class OcclusionConfig:
    """Occlusion thresholds with their documented defaults.

    ``blank_std``: grey standard deviation below which the frame shows nothing.
    ``dark_level``: 99th-percentile grey below which even a night frame is too dark.
    ``blur_ratio``: sharpness (mean gradient / mean level spread) below which the
    frame is too blurred to read openings.
    ``lattice_patch``: half-size of a lattice patch, in tiles.
    ``foreign_distance``: Lab distance from the wall colour, in units of the
    frame's own robust spread (floored by ``foreign_floor``), beyond which a lattice
    point is foreign.
    ``min_cluster``: foreign lattice points in one 4-connected cluster that make a hand.
    ``band_inner``/``band_outer``: the frame band checked for an arm crossing it, in
    tiles outside the tile area; ``band_floor``: minimum Lab residual (after a smooth
    lighting model of the frame) of a foreign segment; ``min_band_run``: consecutive
    foreign segments (half a tile each) that make an arm.
    ``max_fixed_mismatch``: fixed tiles (not under a pawn) read wrong before the
    frame is called unreadable.
    ``low_confidence``/``max_low_tiles``: tile confidence deemed low, and how many
    such tiles (not under a pawn) are tolerated by day; ``night_max_low_tiles`` at night,
    where every reading is softer.
    """

    blank_std: float = 4.0
    dark_level: float = 12.0
    blur_ratio: float = 0.02
    lattice_patch: float = 0.1
    foreign_distance: float = 4.0
    foreign_floor: float = 18.0
    min_cluster: int = 4
    min_band_run: int = 2
    max_fixed_mismatch: int = 1
    low_confidence: float = 0.5
    max_low_tiles: int = 1
    night_max_low_tiles: int = 6
    band_inner: float = 0.1
    band_outer: float = 0.5
    band_floor: float = 14.0


# --------------------------------------------------------------------------- frame


def frame_problem(image: np.ndarray, config: OcclusionConfig | None = None) -> str | None:
    """Blank / too dark / blurred frame, checked on a small grey copy (cheap)."""
    cfg = config or OcclusionConfig()
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    step = max(1, min(grey.shape) // 240)
    small = grey[::step, ::step]
    if float(small.std()) < cfg.blank_std:
        return "blank frame: nothing to see"
    if float(np.percentile(small, 99)) < cfg.dark_level:
        return "frame too dark to read"
    return None


def frame_level(image: np.ndarray) -> float:
    """90th-percentile grey level of the whole frame: tells a darkened room (night) from daylight.

    The whole frame, not the board, because a dark-walled edition in daylight has a
    dark board but a lit table; at night the table is dark too.
    """
    step = max(1, min(image.shape[:2]) // 240)
    grey = cv2.cvtColor(image[::step, ::step], cv2.COLOR_BGR2GRAY)
    return float(np.percentile(grey, 90))


def sharpness(rect: Rectified) -> float:
    """Mean gradient magnitude over the tile area, relative to its grey-level spread.

    Scale-free (the rectified view has a fixed tile size) and exposure-free (divided
    by the spread), so one threshold holds for day and night.
    """
    m, side = rect.margin_px, SIZE * rect.tile_px
    grey = cv2.cvtColor(rect.image[m : m + side, m : m + side], cv2.COLOR_BGR2GRAY).astype(np.float32)
    spread = float(np.percentile(grey, 95) - np.percentile(grey, 5))
    if spread < 1.0:
        return 0.0
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    return float(np.mean(np.abs(gx) + np.abs(gy))) / (8.0 * spread)


# --------------------------------------------------------------------------- board


def lattice_foreign(rect: Rectified, config: OcclusionConfig | None = None) -> np.ndarray:
    """8x8 booleans: lattice points (where tile corners meet) unlike the board's wall colour."""
    cfg = config or OcclusionConfig()
    lab = cv2.cvtColor(rect.image, cv2.COLOR_BGR2Lab).astype(np.float32)
    t, m = rect.tile_px, rect.margin_px
    half = max(1, round(cfg.lattice_patch * t))
    samples = np.zeros((SIZE + 1, SIZE + 1, 3), dtype=np.float32)
    for i in range(SIZE + 1):
        for j in range(SIZE + 1):
            y, x = m + i * t, m + j * t
            # Only the inner side of border lattice points is wall of the tile area.
            y0, y1 = (y - half, y) if i == SIZE else ((y, y + half) if i == 0 else (y - half, y + half))
            x0, x1 = (x - half, x) if j == SIZE else ((x, x + half) if j == 0 else (x - half, x + half))
            samples[i, j] = np.median(lab[y0:y1, x0:x1].reshape(-1, 3), axis=0)
    flat = samples.reshape(-1, 3)
    ref = np.median(flat, axis=0)
    dist = np.linalg.norm(samples - ref, axis=2)
    spread = float(np.median(dist))
    threshold = max(cfg.foreign_floor, cfg.foreign_distance * spread)
    return dist > threshold


def board_problem(
    rect: Rectified,
    config: OcclusionConfig | None = None,
    lighting: str = "day",
    covered: Iterable[Square] = (),
    image_shape: tuple[int, ...] | None = None,
    boxes: Iterable[tuple[int, int, int, int]] = (),
) -> str | None:
    """A hand or object over the board: a run of foreign frame segments, or a cluster of foreign lattice points.

    ``covered`` squares and ``boxes`` (rectified pixels) are where pawns stand: ignored.
    """
    cfg = config or OcclusionConfig()
    if sharpness(rect) < cfg.blur_ratio:
        return "frame too blurred to read"
    shape = image_shape if image_shape is not None else (1 << 30, 1 << 30)
    run = longest_run(frame_band(rect, shape, cfg, boxes))
    if run >= cfg.min_band_run:
        return f"hand or object over the board's edge ({run} frame segments hidden)"
    foreign = lattice_foreign(rect, cfg)
    for r, c in covered:
        foreign[r : r + 2, c : c + 2] = False
    count, labels = cv2.connectedComponents(foreign.astype(np.uint8), connectivity=4)
    for i in range(1, count):
        size = int((labels == i).sum())
        if size >= cfg.min_cluster:
            return f"hand or object over the board ({size} tile corners hidden)"
    return None


def frame_band(
    rect: Rectified,
    image_shape: tuple[int, ...],
    config: OcclusionConfig | None = None,
    boxes: Iterable[tuple[int, int, int, int]] = (),
) -> np.ndarray:
    """Per segment of the board's own frame (4 sides x 14 half-tiles): 1 foreign, 0 like the frame, -1 unknown.

    The frame around the tile area looks the same all the way round (a printed
    border), except at the 12 gates (arrows) - those segments are unknown, as are
    segments outside the photo and under a pawn (``boxes``, rectified pixels). An arm
    reaching over the board crosses this band: a run of foreign segments.
    """
    cfg = config or OcclusionConfig()
    t, m = rect.tile_px, rect.margin_px
    lo, hi = round(cfg.band_inner * t), round(cfg.band_outer * t)
    hi = min(hi, m)
    if hi - lo < 2:
        return np.full(4 * 2 * SIZE, -1, dtype=np.int8)
    lab = cv2.cvtColor(rect.image, cv2.COLOR_BGR2Lab).astype(np.float32)
    side = SIZE * t
    half = t // 2
    medians = np.zeros((4, 2 * SIZE, 3), dtype=np.float32)
    known = np.ones((4, 2 * SIZE), dtype=bool)
    h_img, w_img = image_shape[:2]
    pawn_boxes = list(boxes)
    for s_idx in range(4):
        for k in range(2 * SIZE):
            a0, a1 = m + k * half, m + (k + 1) * half
            if s_idx == 0:  # top: rows m-hi..m-lo
                x0, x1, y0, y1 = a0, a1, m - hi, m - lo
            elif s_idx == 1:  # right
                x0, x1, y0, y1 = m + side + lo, m + side + hi, a0, a1
            elif s_idx == 2:  # bottom
                x0, x1, y0, y1 = a0, a1, m + side + lo, m + side + hi
            else:  # left
                x0, x1, y0, y1 = m - hi, m - lo, a0, a1
            patch = lab[y0:y1, x0:x1].reshape(-1, 3)
            medians[s_idx, k] = np.median(patch, axis=0)
            if (k // 2) in (1, 3, 5):
                known[s_idx, k] = False
            centre = rect.to_image([[(x0 + x1) / 2.0, (y0 + y1) / 2.0]])[0]
            if not (0 <= centre[0] < w_img and 0 <= centre[1] < h_img):
                known[s_idx, k] = False
            for bx, by, bw, bh in pawn_boxes:
                if bx < x1 and x0 < bx + bw and by < y1 and y0 < by + bh:
                    known[s_idx, k] = False
    out = np.full((4, 2 * SIZE), -1, dtype=np.int8)
    if known.sum() < 12:
        return out.reshape(-1)
    residual = _gradient_residuals(medians.reshape(-1, 3), _segment_positions(t, m), known.reshape(-1))
    spread = float(np.median(residual[known.reshape(-1)]))
    threshold = max(cfg.band_floor, cfg.foreign_distance * spread)
    flags = (residual > threshold).reshape(4, 2 * SIZE)
    out[known] = flags[known].astype(np.int8)
    return out.reshape(-1)


def _segment_positions(t: int, m: int) -> np.ndarray:
    """Centres (x, y) of the 56 frame segments, in tiles from the board centre."""
    centres = (np.arange(2 * SIZE) + 0.5) / 2.0 - SIZE / 2.0
    edge = SIZE / 2.0 + 0.3
    sides = [
        np.stack([centres, np.full_like(centres, -edge)], axis=1),
        np.stack([np.full_like(centres, edge), centres], axis=1),
        np.stack([centres, np.full_like(centres, edge)], axis=1),
        np.stack([np.full_like(centres, -edge), centres], axis=1),
    ]
    return np.concatenate(sides)


def _gradient_residuals(values: np.ndarray, positions: np.ndarray, known: np.ndarray) -> np.ndarray:
    """Distance of each segment's Lab from a smooth (planar) lighting model of the frame, fitted robustly.

    Lightness differences count half: uneven light changes L more than colour.
    """
    design = np.column_stack([np.ones(len(positions)), positions])
    weights = known.astype(np.float64)
    scale = np.array([0.5, 1.0, 1.0])
    residual = np.zeros(len(values))
    for _ in range(3):
        w = np.sqrt(weights)[:, None]
        coef, *_ = np.linalg.lstsq(design * w, values * w, rcond=None)
        residual = np.linalg.norm((values - design @ coef) * scale, axis=1)
        cut = max(4.0, 2.5 * float(np.median(residual[known])))
        weights = (known & (residual <= cut)).astype(np.float64)
        if weights.sum() < 8:
            break
    return residual


def longest_run(flags: np.ndarray) -> int:
    """Longest run of foreign (1) segments around the closed perimeter (unknown segments break nothing)."""
    ring = [int(v) for v in flags if v >= 0]
    if not ring or all(ring):
        return len(ring)
    best = run = 0
    for v in ring + ring:
        run = run + 1 if v == 1 else 0
        best = max(best, run)
    return min(best, len(ring))


# --------------------------------------------------------------------------- tiles


def tiles_problem(
    tiles: Sequence[TileReading],
    quality: float,
    covered: Iterable[Square],
    config: OcclusionConfig | None = None,
    lighting: str = "day",
    min_quality: float = 0.55,
) -> str | None:
    """Tile-level evidence that the frame cannot be trusted."""
    cfg = config or OcclusionConfig()
    if quality < min_quality:
        return f"board geometry doubtful (fixed tiles match {quality:.2f})"
    hidden = set(covered)
    wrong = [
        sq for sq, want in FIXED_TILES.items() if sq not in hidden and tiles[sq[0] * SIZE + sq[1]].openings != want
    ]
    if len(wrong) > cfg.max_fixed_mismatch:
        return f"fixed tiles do not match their known openings at {', '.join(f'{r},{c}' for r, c in wrong[:4])}"
    low = [i for i, t in enumerate(tiles) if t.confidence < cfg.low_confidence and divmod(i, SIZE) not in hidden]
    if len(low) > (cfg.night_max_low_tiles if lighting == "night" else cfg.max_low_tiles):
        return f"{len(low)} tiles unclear (something over the board?)"
    return None
