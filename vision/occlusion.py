"""Can this frame be read now? Hands, objects and unreadable frames.

The reader must say "cannot read now" rather than guess when a hand or an
object hides part of the board, or when the frame itself is unusable:

* :func:`frame_problem` — before locating: blank or too dark; :func:`is_night`
  tells a darkened room from daylight; :func:`sharpness` rejects a blurred view.
* :func:`signals` — on the rectified view, after reading the tiles: fixed tiles
  not matching their known openings, the grid quality, unclear tiles, the frame
  band (an arm crossing the board's printed frame, counted only beside an
  unclear edge tile) and the tile-corner lattice (where four tiles meet the board
  is always wall; reported, not decisive). Squares a pawn stands on are left out.
* :func:`decide` — the reason, or None.

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

    Frame checks: ``blank_std`` (grey standard deviation below which the frame shows
    nothing), ``dark_level`` (99th-percentile grey below which even a night frame is
    too dark), ``blur_ratio`` (sharpness below which openings cannot be read; sharp
    rendered frames measure 0.054 and up, day or night).

    Signals (see :class:`Signals`): ``lattice_patch`` (half-size of a lattice patch,
    tiles); ``foreign_distance``/``foreign_floor`` (a lattice point or frame segment is
    foreign beyond this many robust spreads of the frame's own variation, and at least
    the floor, in :func:`shade_invariant` units); ``band_inner``/``band_outer`` (the
    frame band checked for an arm, tiles outside the tile area: inside even a thin
    frame, ~0.3 tile); ``lightness_weight`` (how much brightness counts next to
    chromaticity, see :func:`shade_invariant`); ``low_confidence`` (a tile reading below it is unclear).

    Decision by day — any of: grid quality under ``min_quality``; a group of more
    than ``max_low_tiles`` unclear tiles touching each other (a hand hides
    neighbouring tiles; unclear tiles scattered over a low-contrast or unevenly lit
    board are the artwork's doing: on held-out boards 2 clean frames of 60 had 3-4
    scattered ones, while every hand with 3+ unclear tiles had 3+ together or a poor
    grid anyway) with something at the board's edge too - a foreign frame segment
    or foreign tile corners reaching in from the edge (an arm comes in over the edge;
    a lamp's glare with the LEDs' light pools washed out 4 tiles together in the
    middle of a clean held-out board; of 31 hands caught by this rule on three
    renderers' tuning sets, 1 had nothing at the edge); a run of ``min_band_run`` foreign frame segments with an unclear
    edge tile beside it, or - when the grid quality is under ``corroborating_quality``
    - an edge tile beside it whose two outer corners are foreign on the lattice (an
    arm crosses the frame *and* goes on over the tiles). The frame band never decides
    alone, nor with evidence elsewhere on the board: a pool of LED light, a glare, a
    shadow band, the frame's own artwork or a striped cloth past a frameless board
    also change its colour while the board beside it stays readable. Measured with
    the labelled corners on 140 clean and 120 occluded rendered day frames (both
    renderers, tuning seeds): the previous globally corroborated rule flagged 17
    clean frames and missed 4 hands; this one flags 3 and misses 5. Lastly, a
    cluster of more than ``max_lattice_cluster`` foreign tile corners touching and
    reaching the tile area's edge (glare explained away, ``glare_share``/``max_glare``/``strict_glare_share``,
    see :func:`lattice_foreign`): fingers over the board whose tiles still decode. On 188 clean
    and 25 located occluded day frames of two renderers (pawn squares left out)
    the largest clean cluster was 4, while 20 hands made 5 or more. Points that keep
    the tiles' seams (``seam_keep`` of the board's median seam strength, measured
    over ``seam_patch`` tiles) or are clipped (``clip_level``) are not foreign: on 524
    clean and 136 occluded day frames of three renderers this took the clean frames
    flagged from 3 to 0 and lost no hand. Pawns hide only the lattice points under
    their boxes. And a run of ``min_band_alone`` foreign frame segments decides
    alone: a corner's artwork or shadow makes at most 4 (2 each side of the
    corner, the gate arrows are not judged), an arm along the frame past a gate more.
    At night the frame band is too noisy to use: quality under ``night_min_quality``,
    more than ``night_max_low_tiles`` unclear tiles, or a group of more than
    ``max_low_tiles`` touching (on 40 clean rendered nights of two renderers the
    largest group was 1 tile; 29 of 30 hands at night made one of 3+, where the
    count and quality rules alone missed 10). ``max_fixed_mismatch``: fixed
    tiles (not under a pawn) read wrong before the frame is called unreadable.
    """

    blank_std: float = 4.0
    dark_level: float = 12.0
    blur_ratio: float = 0.04
    lattice_patch: float = 0.1
    foreign_distance: float = 4.0
    foreign_floor: float = 6.0
    band_inner: float = 0.1
    band_outer: float = 0.26
    band_floor: float = 6.0
    lightness_weight: float = 0.2
    low_confidence: float = 0.5
    min_quality: float = 0.85
    max_low_tiles: int = 2
    min_band_run: int = 2
    corroborating_quality: float = 0.97
    night_min_quality: float = 0.8
    night_max_low_tiles: int = 8
    max_fixed_mismatch: int = 1
    glare_share: float = 0.5
    max_glare: float = 0.6
    strict_glare_share: float = 0.12
    max_lattice_cluster: int = 4
    min_band_alone: int = 6
    seam_patch: float = 0.15
    seam_keep: float = 0.9
    clip_level: float = 252.0


@dataclass(frozen=True)
class Signals:
    """What the frame says about something over the board (computed once, judged by :func:`decide`).

    ``band_run``: longest run of foreign frame segments beside a disturbed edge tile;
    ``lattice``: largest cluster of foreign lattice points (glare explained away; coloured
    light pools still make small ones, and at night noise makes it meaningless); ``quality``: grid
    quality; ``low_tiles``: unclear tiles not under a pawn; ``low_cluster``: the largest
    group of them touching (8-neighbours); ``fixed_wrong``: fixed tiles (not under a pawn) read wrong;
    ``lattice_from_edge``: the largest cluster of foreign lattice points that reaches from the
    tile area's edge inside (a hand comes in over the edge; a light pool may sit anywhere, and a
    dark seam or rim shadow along the frame stays on the edge); ``band_alone``: the longest run of
    foreign frame segments whatever the board beside it shows.
    """

    band_run: int
    lattice: int
    quality: float
    low_tiles: int
    fixed_wrong: tuple[Square, ...] = ()
    low_cluster: int = 0
    lattice_from_edge: int = 0
    band_alone: int = 0


# --------------------------------------------------------------------------- frame


def small_grey(image: np.ndarray) -> np.ndarray:
    """The frame's small grey copy (every ``min side // 240``-th pixel) the frame checks read.

    Only the kept pixels are converted (grey is per pixel, so this equals converting
    the whole frame and subsampling it); the reader converts once for both checks.
    """
    step = max(1, min(image.shape[:2]) // 240)
    return cv2.cvtColor(image[::step, ::step], cv2.COLOR_BGR2GRAY)


def frame_problem(
    image: np.ndarray, config: OcclusionConfig | None = None, grey: np.ndarray | None = None
) -> str | None:
    """Blank / too dark / blurred frame, checked on a small grey copy (cheap); ``grey``: :func:`small_grey`."""
    cfg = config or OcclusionConfig()
    small = small_grey(image) if grey is None else grey
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
    return frame_levels(image)[1]


def frame_levels(image: np.ndarray, grey: np.ndarray | None = None) -> tuple[float, float]:
    """Median and 90th-percentile grey level of the whole frame (a small copy).

    The median is the level of *most* of the scene (table, room, board): in a
    darkened room it stays low even when a lamp pool, the LEDs or glowing pieces
    lift the brightest tenth; the 90th percentile alone confuses such a night with a
    dim day. ``grey``: the frame's :func:`small_grey`, when the caller has it.
    """
    if grey is None:
        grey = small_grey(image)
    median, high = np.percentile(grey, [50, 90])
    return float(median), float(high)


def is_night(
    image: np.ndarray, night_level: float = 75.0, night_median: float = 30.0, grey: np.ndarray | None = None
) -> bool:
    """A darkened-room frame: its brightest tenth under ``night_level`` or most of it under ``night_median``."""
    median, high = frame_levels(image, grey)
    return high < night_level or median < night_median


def sharpness(rect: Rectified) -> float:
    """Mean gradient magnitude over the tile area, relative to its grey-level spread.

    Scale-free (the rectified view has a fixed tile size) and exposure-free (divided
    by the spread), so one threshold holds for day and night.
    """
    m, side = rect.margin_px, SIZE * rect.tile_px
    grey8 = cv2.cvtColor(rect.image[m : m + side, m : m + side], cv2.COLOR_BGR2GRAY)
    low, high = _percentiles_u8(grey8, (5.0, 95.0))
    spread = high - low
    grey = grey8.astype(np.float32)
    if spread < 1.0:
        return 0.0
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    return float(np.mean(np.abs(gx) + np.abs(gy))) / (8.0 * spread)


def _percentiles_u8(values: np.ndarray, qs: Sequence[float]) -> list[float]:
    """``np.percentile`` (linear method) of 8-bit values, exactly, from their histogram (no sort)."""
    counts = np.cumsum(np.bincount(values.ravel(), minlength=256))
    n = int(counts[-1])
    out = []
    for q in qs:
        index = q / 100.0 * (n - 1)
        lo = int(np.floor(index))
        a, b = np.searchsorted(counts, [lo, min(lo + 1, n - 1)], side="right")
        out.append(float(a + (b - a) * (index - lo)))
    return out


# --------------------------------------------------------------------------- board


def shade_invariant(image: np.ndarray, lightness_weight: float = 0.2) -> np.ndarray:
    """Per pixel: chromaticity (r, g shares of R+G+B, x100) and a little lightness (grey x weight / 2.55).

    A shadow or uneven light scales R, G and B together, leaving the chromaticity
    unchanged, so a shadow across the board is not "something over the board"; a
    hand or sleeve changes the colour itself.
    """
    bgr = image.astype(np.float32)
    total = bgr.sum(axis=2) + 3.0
    out = np.empty_like(bgr)
    out[..., 0] = bgr[..., 2] / total * 100.0
    out[..., 1] = bgr[..., 1] / total * 100.0
    out[..., 2] = total * (lightness_weight / 7.65)
    return out


#: Chromaticity of white light (r, g shares x100): where glare pulls any colour.
_NEUTRAL = np.array([100.0 / 3.0, 100.0 / 3.0], dtype=np.float32)


def lattice_foreign(rect: Rectified, config: OcclusionConfig | None = None) -> np.ndarray:
    """8x8 booleans: lattice points (where tile corners meet) unlike the board's wall colour.

    A point that differs only the way glare or a white light pool changes a
    surface - brighter, its chromaticity pulled part of the way toward white
    (dichromatic reflection) - is not foreign: a lamp's glare crosses many tile
    corners, while a hand or sleeve brings a colour of its own. Glare pulls
    a wall at most ``max_glare`` of the way: a pale hand under a bright lamp is
    nearly white too, and a wall washed out that far is unreadable anyway.
    Two more ways the board itself looks foreign (see :func:`lattice_structure`):
    a point that keeps the seams of separate tiles (a coloured light pool or a
    shadow bar tints them, a hand hides them) and a point blown out to the
    sensor's limit (its colour is gone, not changed).
    """
    cfg = config or OcclusionConfig()
    t, m = rect.tile_px, rect.margin_px
    # Patches of one size (inside, on a side, in a corner) are converted and reduced together.
    area = rect.image[m : m + SIZE * t, m : m + SIZE * t]
    start, stop = _patch_bounds(t, cfg.lattice_patch)
    by_size: dict[int, list[tuple[int, int, np.ndarray]]] = {}
    for i in range(SIZE + 1):
        for j in range(SIZE + 1):
            patch = area[start[i] : stop[i], start[j] : stop[j]].reshape(-1, 3)
            by_size.setdefault(len(patch), []).append((i, j, patch))
    samples = np.zeros((SIZE + 1, SIZE + 1, 3), dtype=np.float32)
    for group in by_size.values():
        values = shade_invariant(np.stack([patch for _, _, patch in group]), cfg.lightness_weight)
        for (i, j, _), median in zip(group, np.median(values, axis=1), strict=True):
            samples[i, j] = median
    flat = samples.reshape(-1, 3)
    ref = np.median(flat, axis=0)
    dist = np.linalg.norm(samples - ref, axis=2)
    spread = float(np.median(dist))
    threshold = max(cfg.foreign_floor, cfg.foreign_distance * spread)
    foreign = (dist > threshold) & ~_glare(samples, ref, threshold, cfg)
    if not foreign.any():
        return foreign
    seams, clipped = lattice_structure(rect, cfg.seam_patch, cfg.clip_level)
    return foreign & (seams < cfg.seam_keep) & (clipped <= 0.5)


def lattice_structure(rect: Rectified, reach: float = 0.15, clip_level: float = 252.0) -> tuple[np.ndarray, np.ndarray]:
    """8x8 seam strength (relative to the board's median point) and clipped share per lattice point.

    Tiles are separate pieces: where four meet, their edges, the gaps between them
    and the wall pattern make a local structure; skin or a sleeve over the point is
    smooth. The strength is the mean gradient of log grey level, so a shadow (light
    scaled) keeps it; glare (light added) weakens it, but glare is told apart by
    colour first. The clipped share is the part of the patch whose brightest channel
    reaches ``clip_level`` (over half: the median pixel is blown out). On 524 clean
    day frames of three renderers coloured light pools, a shadow bar and a
    blown-out glare made the only clusters of 5+ foreign points; their points kept
    at least the median seam strength or were clipped (>= 252), while the fingers of
    the hands kept under ~0.7 of it (0.8-1.0 all give the same result; the largest
    clean cluster is now 3). Box sums over integral images of the tile area: ~1.5 ms.
    """
    t, m = rect.tile_px, rect.margin_px
    # Every patch lies inside the tile area: work on it (and the Sobel's 1-pixel rim) only.
    lo, hi = m - 1, m + SIZE * t + 1
    image = rect.image[lo:hi, lo:hi]
    log = _LOG_GREY[cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)]
    grad = np.abs(cv2.Sobel(log, cv2.CV_32F, 1, 0, ksize=3))
    grad += np.abs(cv2.Sobel(log, cv2.CV_32F, 0, 1, ksize=3))
    blue, green, red = cv2.split(image)
    clipped = (cv2.max(cv2.max(blue, green), red) >= clip_level).astype(np.uint8)
    y0, y1 = _patch_bounds(t, reach)
    y0, y1 = y0 + 1, y1 + 1  # in the crop
    area = (y1 - y0)[:, None] * (y1 - y0)[None, :]
    seams = _box_sums(cv2.integral(grad), y0, y1) / area
    share = _box_sums(cv2.integral(clipped), y0, y1) / area
    return seams / max(float(np.median(seams)), 1e-6), share


#: Log grey level per 8-bit grey value (offset: the darkest levels are mostly noise).
_LOG_GREY = np.log(np.arange(256, dtype=np.float32) + 8.0)


def _patch_bounds(t: int, reach: float) -> tuple[np.ndarray, np.ndarray]:
    """Start and stop (tile-area pixels, one axis) of the 8 lattice lines' patches, ``reach`` tiles each way.

    Only the inner side of the border lines is wall of the tile area.
    """
    half = max(1, round(reach * t))
    lines = np.arange(SIZE + 1) * t
    start, stop = lines - half, lines + half
    start[0], stop[-1] = 0, SIZE * t
    return start, stop


def _box_sums(integral: np.ndarray, start: np.ndarray, stop: np.ndarray) -> np.ndarray:
    """8x8 sums of the boxes rows ``start[i]:stop[i]`` x columns ``start[j]:stop[j]`` (``cv2.integral`` layout)."""
    return (
        integral[np.ix_(stop, stop)]
        - integral[np.ix_(start, stop)]
        - integral[np.ix_(stop, start)]
        + integral[np.ix_(start, start)]
    )


def _glare(samples: np.ndarray, ref: np.ndarray, threshold: float, cfg: OcclusionConfig) -> np.ndarray:
    """Which :func:`shade_invariant` samples differ from ``ref`` only as glare does.

    Glare adds white light to a surface (dichromatic reflection): brighter, and
    the chromaticity pulled along the line toward white. Part of the way (at most
    ``max_glare``) within ``glare_share`` of the foreign threshold of that line;
    further, up to white itself, only when right on the line (``strict_glare_share``):
    a strong lamp's haze stays on it, while a pale hand, nearly white too, lies off it.
    """
    ref = np.broadcast_to(ref, samples.shape)
    chroma, base = samples[..., :2], ref[..., :2]
    towards_white = _NEUTRAL - base
    length2 = np.maximum((towards_white**2).sum(axis=-1), 1e-6)
    along = ((chroma - base) * towards_white).sum(axis=-1) / length2
    brighter = samples[..., 2] >= ref[..., 2]

    def off_line(most: float) -> np.ndarray:
        on_line = base + np.clip(along, 0.0, most)[..., None] * towards_white
        return np.linalg.norm(chroma - on_line, axis=-1)

    partway = off_line(cfg.max_glare) <= cfg.glare_share * threshold
    to_white = off_line(1.0) <= cfg.strict_glare_share * threshold
    return brighter & (partway | to_white)


def lattice_cluster(rect: Rectified, config: OcclusionConfig | None = None, covered: Iterable[Square] = ()) -> int:
    """Largest 4-connected cluster of foreign lattice points, ignoring the corners of ``covered`` squares."""
    foreign = lattice_foreign(rect, config)
    for r, c in covered:
        foreign[r : r + 2, c : c + 2] = False
    return _largest_cluster(foreign)


def _largest_cluster(foreign: np.ndarray, from_edge: bool = False) -> int:
    """Largest 4-connected cluster (``from_edge``: of those reaching both the tile area's edge and its inside)."""
    count, labels = cv2.connectedComponents(foreign.astype(np.uint8), connectivity=4)
    keep = set(range(1, count))
    if from_edge:
        edge = set(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]).tolist())
        keep &= edge & set(labels[1:-1, 1:-1].ravel().tolist())
    return max((int((labels == i).sum()) for i in keep), default=0)


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
    image = rect.image
    side = SIZE * t
    half = t // 2
    n = 2 * SIZE
    length = n * half
    # The four strips as (depth, along, 3), cut along their length into n segments each.
    strips = (
        image[m - hi : m - lo, m : m + length],
        image[m : m + length, m + side + lo : m + side + hi].transpose(1, 0, 2),
        image[m + side + lo : m + side + hi, m : m + length],
        image[m : m + length, m - hi : m - lo].transpose(1, 0, 2),
    )
    medians = np.zeros((4, n, 3), dtype=np.float32)
    for s_idx, strip in enumerate(strips):
        values = shade_invariant(np.ascontiguousarray(strip), cfg.lightness_weight)
        segments = values.reshape(values.shape[0], n, half, 3).transpose(1, 0, 2, 3).reshape(n, -1, 3)
        medians[s_idx] = np.median(segments, axis=1)
    known = np.ones((4, n), dtype=bool)
    known[:, [k for k in range(n) if (k // 2) in (1, 3, 5)]] = False  # gate arrows
    along = m + (np.arange(n) + 0.5) * half
    mid_out, mid_in = m - (lo + hi) / 2.0, m + side + (lo + hi) / 2.0
    centres = np.concatenate(
        [
            np.stack([along, np.full(n, mid_out)], axis=1),
            np.stack([np.full(n, mid_in), along], axis=1),
            np.stack([along, np.full(n, mid_in)], axis=1),
            np.stack([np.full(n, mid_out), along], axis=1),
        ]
    )
    in_photo = rect.to_image(centres)
    h_img, w_img = image_shape[:2]
    inside = (in_photo[:, 0] >= 0) & (in_photo[:, 0] < w_img) & (in_photo[:, 1] >= 0) & (in_photo[:, 1] < h_img)
    known &= inside.reshape(4, n)
    for bx, by, bw, bh in boxes:
        near = (np.abs(centres[:, 0] - (bx + bw / 2.0)) < (bw + half) / 2.0) & (
            np.abs(centres[:, 1] - (by + bh / 2.0)) < (bh + hi - lo) / 2.0
        )
        known &= ~near.reshape(4, n)
    out = np.full((4, 2 * SIZE), -1, dtype=np.int8)
    if known.sum() < 12:
        return out.reshape(-1)
    values = medians.reshape(-1, 3)
    residual, expected = _gradient_residuals(values, _segment_positions(t, m), known.reshape(-1), np.ones(3))
    spread = float(np.median(residual[known.reshape(-1)]))
    threshold = max(cfg.band_floor, cfg.foreign_distance * spread)
    # A lamp's glare on the frame is not an arm (a pale arm may pass for glare: the rules
    # inside the board then have to see it; a false alarm costs a whole frame's reading).
    flags = ((residual > threshold) & ~_glare(values, expected, threshold, cfg)).reshape(4, 2 * SIZE)
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


def _gradient_residuals(
    values: np.ndarray, positions: np.ndarray, known: np.ndarray, scale: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Distance of each segment's colour from a smooth (planar) lighting model of the frame, fitted robustly,
    and the model's value there.

    ``scale`` weighs the L, a, b differences: shadows and uneven light change L far
    more than colour.
    """
    design = np.column_stack([np.ones(len(positions)), positions])
    weights = known.astype(np.float64)
    residual = np.zeros(len(values))
    for _ in range(3):
        w = np.sqrt(weights)[:, None]
        coef, *_ = np.linalg.lstsq(design * w, values * w, rcond=None)
        residual = np.linalg.norm((values - design @ coef) * scale, axis=1)
        cut = max(4.0, 2.5 * float(np.median(residual[known])))
        weights = (known & (residual <= cut)).astype(np.float64)
        if weights.sum() < 8:
            break
    return residual, design @ coef


def longest_run(flags: np.ndarray, near: np.ndarray | None = None) -> int:
    """Longest run of foreign (1) segments around the frame (unknown segments break nothing).

    ``flags`` are in :func:`frame_band` order (each side left to right or top to
    bottom); the run is counted going round the board, so it continues across corners.
    With ``near`` (same order), only runs with at least one segment where the board
    inside looks disturbed count.
    """
    flags = np.asarray(flags).reshape(-1)
    support = np.ones(len(flags), dtype=bool) if near is None else np.asarray(near, dtype=bool).reshape(-1)
    if len(flags) == 8 * SIZE:
        sides, sup = flags.reshape(4, 2 * SIZE), support.reshape(4, 2 * SIZE)
        flags = np.concatenate([sides[0], sides[1], sides[2][::-1], sides[3][::-1]])
        support = np.concatenate([sup[0], sup[1], sup[2][::-1], sup[3][::-1]])
    ring = [(int(v), bool(n)) for v, n in zip(flags, support, strict=True) if v >= 0]
    if not ring:
        return 0
    if all(v for v, _ in ring):
        return len(ring) if any(n for _, n in ring) else 0
    best = run = 0
    backed = False
    for v, n in ring + ring:
        if v == 1:
            run += 1
            backed = backed or n
            if backed:
                best = max(best, run)
        else:
            run, backed = 0, False
    return min(best, len(ring))


# --------------------------------------------------------------------------- tiles


def signals(
    rect: Rectified,
    image_shape: tuple[int, ...],
    tiles: Sequence[TileReading],
    quality: float,
    covered: Iterable[Square] = (),
    boxes: Iterable[tuple[int, int, int, int]] = (),
    config: OcclusionConfig | None = None,
) -> Signals:
    """Measure every occlusion signal of a rectified frame (``covered``/``boxes``: where pawns stand)."""
    cfg = config or OcclusionConfig()
    hidden = set(covered)
    unclear = {divmod(i, SIZE) for i, t in enumerate(tiles) if t.confidence < cfg.low_confidence} - hidden
    wrong = tuple(
        sq for sq, want in FIXED_TILES.items() if sq not in hidden and tiles[sq[0] * SIZE + sq[1]].openings != want
    )
    foreign = lattice_foreign(rect, cfg) & ~under_pawns(rect, boxes, cfg.lattice_patch)
    flags = frame_band(rect, image_shape, cfg, boxes)
    return Signals(
        band_run=longest_run(
            flags, _disturbed_inside(unclear, foreign if quality < cfg.corroborating_quality else None)
        ),
        band_alone=longest_run(flags),
        lattice=_largest_cluster(foreign),
        lattice_from_edge=_largest_cluster(foreign, from_edge=True),
        quality=float(quality),
        low_tiles=len(unclear),
        fixed_wrong=wrong,
        low_cluster=_largest_group(unclear),
    )


def under_pawns(rect: Rectified, boxes: Iterable[tuple[int, int, int, int]], grow: float = 0.1) -> np.ndarray:
    """8x8 booleans: lattice points a pawn hides (inside a pawn's box, ``x, y, w, h`` rectified pixels).

    The box grows by ``grow`` tiles, the lattice patch's reach, so a point whose patch
    touches the pawn is hidden too. Only the points a pawn really stands over: leaving
    out all four corners of every square a pawn touches also left out the fingers of a
    hand reaching past the pawns (2 of 136 hands missed). Alone this change let one
    coloured light pool beside a pawn through (1 of 524 clean frames); with
    :func:`lattice_structure` judging the points none.
    """
    t, m = rect.tile_px, rect.margin_px
    lines = m + np.arange(SIZE + 1) * t
    hidden = np.zeros((SIZE + 1, SIZE + 1), dtype=bool)
    g = grow * t
    for bx, by, bw, bh in boxes:
        rows = (lines >= by - g) & (lines <= by + bh + g)
        cols = (lines >= bx - g) & (lines <= bx + bw + g)
        hidden |= rows[:, None] & cols[None, :]
    return hidden


def _largest_group(squares: set[Square]) -> int:
    """Size of the largest 8-connected group of ``squares`` on the 7x7 board."""
    grid = np.zeros((SIZE, SIZE), dtype=np.uint8)
    for r, c in squares:
        grid[r, c] = 1
    count, labels = cv2.connectedComponents(grid, connectivity=8)
    return max((int((labels == i).sum()) for i in range(1, count)), default=0)


def _disturbed_inside(unclear: set[Square], foreign: np.ndarray | None = None) -> np.ndarray:
    """Per frame segment (frame_band order): does the board just inside it look disturbed?

    An arm or a held object that crosses the frame goes on over the edge tiles: an
    unclear tile in the two outer rows within a tile of the segment, or (``foreign``
    given) both outer corners of the edge tile beside it foreign on the tile-corner
    lattice - fingers over a tile whose openings still read. A shadow band, a glare,
    a pool of LED light, frame artwork or a striped cloth seen past a frameless
    board's edge change the band's colour while the board beside it reads clearly.
    """
    near = np.zeros((4, 2 * SIZE), dtype=bool)
    covered_edge = np.zeros((4, SIZE), dtype=bool)
    if foreign is not None:
        border = np.stack([foreign[0, :], foreign[:, SIZE], foreign[SIZE, :], foreign[:, 0]])
        covered_edge = border[:, :-1] & border[:, 1:]
    outer = (0, 1)
    inner = (SIZE - 1, SIZE - 2)
    for k in range(2 * SIZE):
        span = range(max(0, k // 2 - 1), min(SIZE, k // 2 + 2))
        near[0, k] = any((r, c) in unclear for r in outer for c in span)
        near[1, k] = any((r, c) in unclear for r in span for c in inner)
        near[2, k] = any((r, c) in unclear for r in inner for c in span)
        near[3, k] = any((r, c) in unclear for r in span for c in outer)
        near[:, k] |= covered_edge[:, k // 2]
    return near.reshape(-1)


def decide(sig: Signals, lighting: str = "day", config: OcclusionConfig | None = None) -> str | None:
    """The reason the frame cannot be read now, or None (thresholds in :class:`OcclusionConfig`)."""
    cfg = config or OcclusionConfig()
    if len(sig.fixed_wrong) > cfg.max_fixed_mismatch:
        where = ", ".join(f"{r},{c}" for r, c in sig.fixed_wrong[:4])
        return f"fixed tiles do not match their known openings at {where}"
    if lighting == "night":
        if sig.quality < cfg.night_min_quality:
            return f"board unclear (fixed tiles match {sig.quality:.2f})"
        if sig.low_tiles > cfg.night_max_low_tiles:
            return f"{sig.low_tiles} tiles unclear"
        if sig.low_cluster > cfg.max_low_tiles:
            return f"{sig.low_cluster} tiles together unclear (something over the board?)"
        return None
    if sig.quality < cfg.min_quality:
        return f"board partly hidden or misread (fixed tiles match {sig.quality:.2f})"
    if sig.low_cluster > cfg.max_low_tiles and (sig.band_run > 0 or sig.lattice_from_edge > 0):
        return f"{sig.low_cluster} tiles together unclear (something over the board?)"
    if sig.band_run >= cfg.min_band_run:
        return f"hand or object over the board's edge ({sig.band_run} frame segments hidden)"
    if sig.band_alone >= cfg.min_band_alone:
        return f"hand or object over the board's frame ({sig.band_alone} frame segments hidden)"
    if sig.lattice_from_edge > cfg.max_lattice_cluster:
        return f"hand or object over the board ({sig.lattice_from_edge} tile corners covered from its edge)"
    return None
