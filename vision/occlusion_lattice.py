"""The tile-corner lattice: where four tiles meet the board is always wall.

A hand or sleeve over the board hides tile corners with a colour of its own; glare,
light pools and shadows change them the way light does. :func:`lattice_foreign`
finds the corners unlike the board's walls, :func:`under_pawns` the ones a pawn hides.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

import cv2
import numpy as np

from companion.board import SIZE, Square
from vision.occlusion_config import OcclusionConfig
from vision.rectify import Rectified


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


def lattice_colours(rect: Rectified, config: OcclusionConfig | None = None) -> np.ndarray:
    """8x8x3 median :func:`shade_invariant` colour of the lattice patches (where tile corners meet)."""
    cfg = config or OcclusionConfig()
    # Patches of one size (inside, on a side, in a corner) are gathered, converted and reduced together.
    pixels = rect.image.reshape(-1, 3)
    samples = np.zeros((SIZE + 1, SIZE + 1, 3), dtype=np.float32)
    for rows, cols, flat in _patch_pixels(rect.tile_px, rect.margin_px, rect.image.shape[1], cfg.lattice_patch):
        values = shade_invariant(pixels[flat], cfg.lightness_weight)  # (patches, pixels, 3)
        samples[rows, cols] = np.median(values, axis=1)
    return samples


@cache
def _patch_pixels(t: int, m: int, width: int, reach: float) -> tuple[tuple[np.ndarray, ...], ...]:
    """Per patch size: the lattice points' rows and columns and their patches' pixels (points, pixels) as
    flat positions in a view ``width`` wide, each patch row by row (as its slice's ``reshape(-1, 3)``).

    One gather per size instead of 64 slices copied and stacked (~0.15 ms a read): the same
    pixels in the same order, so the same medians.
    """
    start, stop = _patch_bounds(t, reach)
    by_size: dict[int, list[tuple[int, int, np.ndarray]]] = {}
    for i in range(SIZE + 1):
        for j in range(SIZE + 1):
            ys, xs = np.arange(m + start[i], m + stop[i]), np.arange(m + start[j], m + stop[j])
            flat = (ys[:, None] * width + xs[None, :]).ravel()
            by_size.setdefault(len(flat), []).append((i, j, flat))
    return tuple(
        (np.array([i for i, _, _ in group]), np.array([j for _, j, _ in group]), np.stack([f for _, _, f in group]))
        for group in by_size.values()
    )


def lattice_foreign(
    rect: Rectified, config: OcclusionConfig | None = None, colours: np.ndarray | None = None
) -> np.ndarray:
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
    sensor's limit (its colour is gone, not changed) when the walls could be what
    blew out (:func:`_blown_walls`). And a point lit by a lamp of any colour: brighter, with
    the seams still there in linear light (:func:`_lit_seams`). ``colours``:
    :func:`lattice_colours`, when the caller has them.

    Glare is judged by the seams too: a point whose colour lies on the glare line but whose
    seams are gone in log grey and, in linear light, hidden (under ``lit_lost`` of the median
    point) or crossed by edges of its own (over ``lit_edge``) is a pale surface, not light added
    (the bounds of :func:`_lit_seams`; a clipped patch has no structure to judge and is left to
    the blown-out rules). Pale fingers over a greyish or pinkish board lie on that line.
    The seams are measured only on frames with a glare-coloured or foreign point (about a tenth
    of clean day frames, ~1.5 ms there; the bench frame has neither). Measurements:
    vision/notes/occlusion_lattice.md.
    """
    return foreign_and_blown(rect, config, colours)[0]


def foreign_and_blown(
    rect: Rectified, config: OcclusionConfig | None = None, colours: np.ndarray | None = None, shade: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`lattice_foreign` and the points it let off as blown out: unlike the walls by colour, over half
    clipped in a way the walls could clip (:func:`_blown_walls`). Such a point's colour is gone: it is
    unknown, neither clean nor covered (:func:`vision.occlusion._bridged_cluster` counts a cluster through it).
    ``shade`` (by day): a shaded point keeps its share of the seams (:func:`_lit_seams`).
    """
    cfg = config or OcclusionConfig()
    samples = lattice_colours(rect, cfg) if colours is None else colours
    flat = samples.reshape(-1, 3)
    ref = np.median(flat, axis=0)
    dist = np.linalg.norm(samples - ref, axis=2)
    spread = float(np.median(dist))
    threshold = max(cfg.foreign_floor, cfg.foreign_distance * spread)
    by_colour = dist > threshold
    glare = by_colour & _glare(samples, ref, threshold, cfg)
    foreign = by_colour & ~glare
    if not (foreign.any() or glare.any()):
        return foreign, foreign.copy()
    seams, clipped = lattice_structure(rect, cfg.seam_patch, cfg.clip_level)
    surface = glare & (seams < cfg.seam_keep) & (clipped <= 0.5)
    pooled = np.zeros_like(surface)
    if surface.any():
        linear = light_seams(rect, cfg.lattice_patch, 1.0, 2.0)
        foreign |= surface & ((linear < cfg.lit_lost) | (linear > cfg.lit_edge))
        pooled = surface & (linear > cfg.lit_edge) & _light_multiplied(samples, ref, linear, cfg)
    if not foreign.any():
        return foreign, foreign.copy()
    foreign &= ~_veil_cores(samples, ref, foreign, cfg.veil_fade)
    blown = foreign & (clipped > 0.5) & _blown_walls(samples, ref, threshold)
    foreign &= (seams < cfg.seam_keep) & ~blown
    if foreign.any():
        foreign &= ~_lit_seams(rect, samples, ref, foreign, cfg, shade)
    if pooled.any() and foreign.any():
        foreign &= ~_pooled_points(foreign, pooled, linear, cfg.lit_lost)
    return foreign, blown


def _light_multiplied(samples: np.ndarray, ref: np.ndarray, linear: np.ndarray, cfg: OcclusionConfig) -> np.ndarray:
    """Which lattice points keep the tiles' seams in linear light as a lamp's pool of light multiplying them
    does: between ``seam_keep`` and ``lit_edge`` of the board's median point times the point's own lightness
    gain over the board's median point (:func:`shade_invariant`'s third channel, at least 1).

    A pool of light is illumination: it multiplies what the tiles reflect, so the linear-light differences
    between their edges, gaps and walls grow with it, while the haze it brings (light added, the walls'
    colour pulled toward white) flattens their log grey, so a pool's seams can pass ``lit_edge`` with no edge there.
    A pale hand far brighter than a dark board brings an outline that does not grow with its
    lightness (measurements: vision/notes/occlusion_lattice.md).
    """
    gain = np.maximum(samples[..., 2] / max(float(ref[2]), 1e-6), 1.0)
    return (linear >= cfg.seam_keep * gain) & (linear <= cfg.lit_edge * gain)


def _pooled_points(foreign: np.ndarray, pooled: np.ndarray, linear: np.ndarray, lost: float) -> np.ndarray:
    """The ``pooled`` points (:func:`_light_multiplied`) of the foreign clusters none of whose points hides the
    seams (linear light under ``lost`` of the median point, as in :func:`_lit_seams`: a surface somewhere).

    A hand's cluster is judged as one thing: a bright pale hand's glare-coloured points can pass for
    light multiplied (spent final6 ho_occ 0017: three points at the top edge 3.8-4.5x at 2.6-3.1x gain),
    but the same cluster hid the seams further in (0.31-0.51).
    """
    out = np.zeros_like(foreign)
    count, labels = cv2.connectedComponents(foreign.astype(np.uint8), connectivity=4)
    for i in range(1, count):
        cluster = labels == i
        if (cluster & pooled).any() and not bool((linear[cluster] < lost).any()):
            out |= cluster & pooled
    return out


def _lit_seams(
    rect: Rectified,
    samples: np.ndarray,
    ref: np.ndarray,
    foreign: np.ndarray,
    cfg: OcclusionConfig,
    shade: bool = False,
) -> np.ndarray:
    """Which lattice points look lit, not covered: brighter than the board's median point and keeping
    the tiles' seams in linear light as they were (:func:`light_seams` over the colour patch,
    ``lattice_patch``, band-passed 1-2 px: between ``seam_keep`` and ``lit_edge`` of the median point).

    A lamp's glare is the lamp's colour, which need not be white (a cool lamp pulls grey walls
    past white toward blue, a warm one toward orange), so its colour alone cannot tell it from
    a hand. But it is light added over the board: the linear-light differences between the
    tiles' edges, their gaps and the walls stay under it while its log grey loses them
    (:func:`lattice_structure`); a hand, a sleeve or a card over the point hides both. The fine band
    and the small patch keep the outline of a surface just beside the point out; a surface whose own
    edge crosses the patch makes structure stronger than any seam (over ``lit_edge``). Bright skin
    with a finger's outline is a strong edge in linear light too, so a cluster is judged as one
    thing: when any of its points has lost the seams (under ``lit_lost`` of the median point, the
    smooth skin between the outlines) none of it is excused. With ``shade`` (by day) a point darker
    than the board's median is held to ``lit_lost`` of its own linear light (:func:`linear_gain`): shade
    scales the light and every linear-light difference with it, so a corner in a shadow band keeps its
    share of the seams, while a dark surface hides them (at night the walls' glow is the light, which a
    hand hides). The tile area's four corner points veto nothing: their patch holds one tile's corner and no
    seam between tiles, so their seams run low by geometry (on clean sixth-renderer days a fifth of them under
    ``lit_lost``), not because something hides them. Measured only on frames with a foreign point left (~2 ms
    there; see ``lit_lost`` in :class:`OcclusionConfig` for the figures; the shade and the corners:
    vision/notes/occlusion_lattice.md).
    """
    seams = light_seams(rect, cfg.lattice_patch, 1.0, 2.0)
    clipped = lattice_structure(rect, cfg.lattice_patch, cfg.clip_level)[1]
    lit = foreign & (samples[..., 2] > ref[2]) & _kept_seams(seams, clipped, cfg)
    lost = seams < cfg.lit_lost
    if shade and (lost & foreign).any():
        lost &= seams < cfg.lit_lost * np.minimum(linear_gain(rect, cfg.lattice_patch), 1.0)
    lost[::SIZE, ::SIZE] = False  # the tile area's corners: one tile's corner, no seam between tiles to hide
    count, labels = cv2.connectedComponents(foreign.astype(np.uint8), connectivity=4)
    for i in range(1, count):
        cluster = labels == i
        if bool(lost[cluster].any()):
            lit &= ~cluster
    return lit


def _kept_seams(seams: np.ndarray, clipped: np.ndarray, cfg: OcclusionConfig) -> np.ndarray:
    """Which points keep the seams as light added does: at least ``seam_keep`` of the median point on the
    share of their patch that can show them, and no edge of their own (over ``lit_edge``).

    Clipped pixels show no seam whatever lies there (their structure is gone, not hidden): a patch partly
    blown out by the lamp keeps at most its unclipped share of them, and a patch over half clipped is
    blown out (:func:`_blown_walls`), so at least half counts: a glare clipping part of a corner's patch
    made a clean board's edge "covered" before (vision/notes/occlusion_lattice.md). The upper bound stays on
    the whole patch: a glare's clipped rim is a strong edge of its own in linear light.
    """
    return (seams >= cfg.seam_keep * seam_share(clipped)) & (seams <= cfg.lit_edge)


def linear_gain(rect: Rectified, reach: float) -> np.ndarray:
    """8x8 mean linear light of each lattice point's patch (``reach`` tiles each way) over the median point's.

    Shade scales the light a surface sends back, and with it every linear-light difference (the seams): a
    point in shade keeps its share of them, as :func:`lattice_structure`'s log grey keeps them whole.
    """
    t, m = rect.tile_px, rect.margin_px
    grey = cv2.cvtColor(rect.image[m - 1 : m + SIZE * t + 1, m - 1 : m + SIZE * t + 1], cv2.COLOR_BGR2GRAY)
    y0, y1 = _patch_bounds(t, reach)
    y0, y1 = y0 + 1, y1 + 1  # in the crop
    area = (y1 - y0)[:, None] * (y1 - y0)[None, :]
    level = _box_sums(cv2.integral(cv2.LUT(grey, _LINEAR_GREY)), y0, y1) / area
    return level / max(float(np.median(level)), 1e-6)


def seam_share(clipped: np.ndarray) -> np.ndarray:
    """The share of each point's patch that can show seams: its unclipped share, at least half (a patch over
    half clipped is the blown-out rules' to judge)."""
    return np.maximum(1.0 - clipped, 0.5)


def _blown_walls(samples: np.ndarray, ref: np.ndarray, threshold: float) -> np.ndarray:
    """Which :func:`shade_invariant` samples could be the walls blown out (their colour gone, not changed).

    A wall brightened past the sensor's limit clips in its own brightest channel first
    (an orange wall's red), or in all three (white): its chromaticity is then no longer
    the wall's, yet nothing covers it. A surface of another colour clipping in another
    channel (skin in bright light clips in red over green walls, its green and blue
    still far from the walls') keeps a colour of its own: judged like any point.
    """
    shares = np.concatenate([samples[..., :2], 100.0 - samples[..., :1] - samples[..., 1:2]], axis=-1)
    walls = np.array([ref[0], ref[1], 100.0 - ref[0] - ref[1]])
    same_channel = np.argmax(shares, axis=-1) == int(np.argmax(walls))
    white = np.linalg.norm(samples[..., :2] - _NEUTRAL, axis=-1) <= threshold
    return same_channel | white


def lattice_structure(rect: Rectified, reach: float = 0.15, clip_level: float = 252.0) -> tuple[np.ndarray, np.ndarray]:
    """8x8 seam strength (relative to the board's median point) and clipped share per lattice point.

    Tiles are separate pieces: where four meet, their edges, the gaps between them
    and the wall pattern make a local structure; skin or a sleeve over the point is
    smooth. The strength is the mean gradient of log grey level, so a shadow (light
    scaled) keeps it; glare (light added) weakens it, but glare is told apart by
    colour first. The clipped share is the part of the patch whose brightest channel
    reaches ``clip_level`` (over half: the median pixel is blown out). Light pools,
    shadow bars and blown-out glare keep at least the median seam strength or are
    clipped, while fingers keep well under it (measurements:
    vision/notes/occlusion_lattice.md). Box sums over integral images of the tile
    area: ~1.5 ms.
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

#: Linear light per 8-bit grey value (gamma 2.2 decoded, x255): the light the camera received.
#: Not the exact sRGB curve :mod:`vision.tile_veil` decodes with: the seam limits here were set on
#: frames encoded with a 2.2 power, and the sRGB curve (o22: commit 512f609, merged, measured, reverted)
#: moves dark patches' seams ~3 % across ``seam_keep``. It changed no decision on 5,403 cached frames,
#: but on the measurement set final10 it flagged a clean sixth-renderer day frame (0008: 5 tile corners
#: covered from the edge, limit 4), so the curve the limits were set with stays.
_LINEAR_GREY = ((np.arange(256, dtype=np.float32) / 255.0) ** 2.2 * 255.0).astype(np.float32)


def white_share(rect: Rectified, reach: float = 0.15, clip_level: float = 252.0) -> np.ndarray:
    """8x8 share of each lattice point's patch (as :func:`lattice_structure` places it) clipped in every channel.

    :func:`lattice_structure`'s clipped share counts the brightest channel: a coloured lamp's glare
    clips one or two channels and the others still show the tiles; white clipped is white, whatever lay there.
    """
    t, m = rect.tile_px, rect.margin_px
    image = rect.image[m - 1 : m + SIZE * t + 1, m - 1 : m + SIZE * t + 1]
    blue, green, red = cv2.split(image)
    white = (cv2.min(cv2.min(blue, green), red) >= clip_level).astype(np.uint8)
    y0, y1 = _patch_bounds(t, reach)
    y0, y1 = y0 + 1, y1 + 1  # in the crop
    area = (y1 - y0)[:, None] * (y1 - y0)[None, :]
    return _box_sums(cv2.integral(white), y0, y1) / area


def light_seams(rect: Rectified, reach: float = 0.15, fine: float = 1.0, coarse: float = 4.0) -> np.ndarray:
    """8x8 seam strength in linear light (relative to the median point of its kind), :func:`lattice_structure`'s twin.

    Light added over the board (a lamp's glare) leaves the linear-light differences between
    the tiles' edges, their gaps and the walls as they were, while the log grey loses them in
    the added light; a surface over the point (a card, a cup, a hand) hides both. Only the
    structure at the seams' scale counts: the linear grey is band-passed (Gaussian ``fine``
    minus ``coarse`` pixels of a 48 px tile), since the sensor's noise grows with the light and
    a smooth light gradient over a bright surface is large in linear light but no seam.
    Points on the tile area's edge are compared with the edge's own median point
    (:func:`_by_kind`). Only measured on the rare frames with a flat group to judge (~2 ms).
    """
    t, m = rect.tile_px, rect.margin_px
    lo, hi = m - 1, m + SIZE * t + 1
    return _linear_seams(cv2.cvtColor(rect.image[lo:hi, lo:hi], cv2.COLOR_BGR2GRAY), t, reach, fine, coarse)


def least_clipped_seams(
    rect: Rectified, reach: float = 0.15, clip_level: float = 252.0, fine: float = 1.0, coarse: float = 4.0
) -> np.ndarray:
    """8x8 seam strength in linear light as :func:`light_seams` measures it, but each point in its least clipped
    channel (the one with the smallest share of its patch at ``clip_level`` or more; each channel relative to its
    own median point of its kind).

    The grey :func:`light_seams` reads mixes the channels, so where a coloured lamp's glare clips two of
    them the seams left in the third count for a tenth of the grey (blue's weight), and a clean board under
    a yellow glare read as an object lying on it (vision/notes/occlusion_lattice.md). Light added keeps the
    seams in every channel it did not clip; a surface (a pale hand whose skin clips red) is as smooth in the
    others.
    """
    t, m = rect.tile_px, rect.margin_px
    image = rect.image[m - 1 : m + SIZE * t + 1, m - 1 : m + SIZE * t + 1]
    y0, y1 = _patch_bounds(t, reach)
    y0, y1 = y0 + 1, y1 + 1  # in the crop
    area = (y1 - y0)[:, None] * (y1 - y0)[None, :]
    out = np.zeros((SIZE + 1, SIZE + 1), dtype=np.float64)
    least = np.full(out.shape, np.inf)
    for channel in cv2.split(image):
        share = _box_sums(cv2.integral((channel >= clip_level).astype(np.uint8)), y0, y1) / area
        take = share < least
        out[take] = _linear_seams(channel, t, reach, fine, coarse)[take]
        least[take] = share[take]
    return out


def _linear_seams(grey: np.ndarray, t: int, reach: float, fine: float, coarse: float) -> np.ndarray:
    """8x8 band-passed linear-light gradient of one grey image (the tile area and a 1-pixel rim), by kind."""
    light = cv2.LUT(grey, _LINEAR_GREY)
    band = cv2.GaussianBlur(light, (0, 0), fine) - cv2.GaussianBlur(light, (0, 0), coarse)
    grad = np.abs(cv2.Sobel(band, cv2.CV_32F, 1, 0, ksize=3))
    grad += np.abs(cv2.Sobel(band, cv2.CV_32F, 0, 1, ksize=3))
    y0, y1 = _patch_bounds(t, reach)
    y0, y1 = y0 + 1, y1 + 1  # in the crop
    area = (y1 - y0)[:, None] * (y1 - y0)[None, :]
    return _by_kind(_box_sums(cv2.integral(grad), y0, y1) / area)


def _by_kind(seams: np.ndarray) -> np.ndarray:
    """8x8 ``seams`` relative to the median point of its kind: the 28 on the tile area's edge, the 36 inside.

    An edge point's patch is cut by the border (only its inner side is tile area): it holds one
    seam running in from the edge instead of two crossing. On 219 clean day frames of five renderers
    (dev day sets, lead f5, r6 day) the edge points' median sat at 0.94 of the inner points' in
    linear light (the four corners 0.81, 0.48-1.36), so a lit edge point fell under ``seam_keep``
    by geometry alone: spent si_day 0013, a glare washing out the top-left corner tile (flat cells
    1.8-2.2x the median cell's grey, fading out, no foreign corner) read "something lying on the
    board" with its outer corner at 0.88 of the median point (1.0 of the edge's).
    """
    edge = np.zeros(seams.shape, dtype=bool)
    edge[0], edge[-1], edge[:, 0], edge[:, -1] = True, True, True, True
    out = np.empty_like(seams)
    for kind in (edge, ~edge):
        out[kind] = seams[kind] / max(float(np.median(seams[kind])), 1e-6)
    return out


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


def _veil_cores(samples: np.ndarray, ref: np.ndarray, foreign: np.ndarray, fade: float) -> np.ndarray:
    """Foreign points in clusters that are the core of a haze fading out: not a hand.

    A lamp's haze (a veil of light over part of the board) pulls the walls toward the
    light's colour, which need not be white (a warm lamp is yellowish), so its core can
    lie off the line toward white like a pale hand. But a veil fades: every point around
    the core is itself brighter and pulled toward white at least ``fade`` of the way,
    while a hand has an outline, with wall beside it (measurements:
    vision/notes/occlusion_lattice.md).
    """
    count, labels = cv2.connectedComponents(foreign.astype(np.uint8), connectivity=4)
    if count <= 1:
        return np.zeros_like(foreign)
    veiled = (_whitening(samples, ref) >= fade) & (samples[..., 2] >= ref[2])
    cross = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], dtype=np.uint8)
    cores = np.zeros_like(foreign)
    for i in range(1, count):
        cluster = labels == i
        ring = cv2.dilate(cluster.astype(np.uint8), cross).astype(bool) & ~cluster
        if ring.any() and bool(veiled[ring].all()) and bool(veiled[cluster].all()):
            cores |= cluster
    return cores


def _whitening(samples: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """How far each :func:`shade_invariant` sample's chromaticity is pulled from ``ref``'s toward white
    (0: not at all, 1: white; the projection on that line)."""
    base = ref[..., :2]
    towards_white = _NEUTRAL - base
    length2 = np.maximum((towards_white**2).sum(axis=-1), 1e-6)
    return ((samples[..., :2] - base) * towards_white).sum(axis=-1) / length2


def lattice_cluster(rect: Rectified, config: OcclusionConfig | None = None, covered: Iterable[Square] = ()) -> int:
    """Largest 4-connected cluster of foreign lattice points, ignoring the corners of ``covered`` squares."""
    foreign = lattice_foreign(rect, config)
    for r, c in covered:
        foreign[r : r + 2, c : c + 2] = False
    return _largest_cluster(foreign)


def _largest_cluster(
    foreign: np.ndarray,
    from_edge: bool = False,
    touching: Iterable[Square] | None = None,
    grey: np.ndarray | None = None,
) -> int:
    """Largest 4-connected cluster (``from_edge``: of those reaching both the tile area's edge and its inside;
    ``touching``: of those holding a corner of one of these squares; ``grey``, 8x8 lattice grey levels: of
    those darker, at their median point, than the median of all points)."""
    count, labels = cv2.connectedComponents(foreign.astype(np.uint8), connectivity=4)
    keep = set(range(1, count))
    if grey is not None:
        level = float(np.median(grey))
        keep = {i for i in keep if float(np.median(grey[labels == i])) < level}
    if from_edge:
        edge = set(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]).tolist())
        keep &= edge & set(labels[1:-1, 1:-1].ravel().tolist())
    if touching is not None:
        keep &= {int(v) for r, c in touching for v in labels[r : r + 2, c : c + 2].ravel()}
    return max((int((labels == i).sum()) for i in keep), default=0)


def lattice_grey(rect: Rectified, config: OcclusionConfig | None = None) -> np.ndarray:
    """8x8 median grey level of the lattice patches (the patches :func:`lattice_foreign` judges).

    At night the light on the board is the glow of its walls: a hand or an object over
    the tile corners hides that glow (darker), a lamp's or an LED's pool adds light
    (brighter). Only measured on the rare frames that need it (~1 ms).
    """
    cfg = config or OcclusionConfig()
    t, m = rect.tile_px, rect.margin_px
    grey = cv2.cvtColor(rect.image[m : m + SIZE * t, m : m + SIZE * t], cv2.COLOR_BGR2GRAY)
    start, stop = _patch_bounds(t, cfg.lattice_patch)
    out = np.zeros((SIZE + 1, SIZE + 1), dtype=np.float32)
    for i in range(SIZE + 1):
        for j in range(SIZE + 1):
            out[i, j] = np.median(grey[start[i] : stop[i], start[j] : stop[j]])
    return out


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
