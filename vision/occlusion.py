"""Can this frame be read now? Hands, objects and unreadable frames.

The reader must say "cannot read now" rather than guess when a hand or an
object hides part of the board, or when the frame itself is unusable:

* :func:`frame_problem` — before locating: blank or too dark; :func:`sharpness`
  rejects a blurred view (:mod:`vision.occlusion_frame`); day or night is decided in
  :mod:`vision.lighting`.
* :func:`signals` — on the rectified view, after reading the tiles: fixed tiles
  not matching their known openings, the grid quality, unclear tiles, the frame
  band (an arm crossing the board's printed frame, counted only beside an
  unclear edge tile) and the tile-corner lattice (where four tiles meet the board
  is always wall) and flat half tiles (a card, cup or phone lying on the board,
  :mod:`vision.occlusion_flat`) on an unclear tile, a foreign tile corner or a corner
  whose seams are gone (:func:`seamless_corners`). Squares a pawn stands on are left out.
* :func:`decide` — the reason, or None.

The signals live in their own modules: the frame band in :mod:`vision.occlusion_band`,
the tile-corner lattice in :mod:`vision.occlusion_lattice`, the thresholds in
:mod:`vision.occlusion_config`; this module measures them all (:func:`signals`) and
decides. Their public names are re-exported here.

Thresholds are relative to the frame's own statistics where possible, so they
hold across artwork, lighting and camera exposure.

Known limits: a hand the pawn detector takes for pawns is hidden from every signal
here (its squares and their corners are left out); pale skin in bright light can pass
for glare or light added (it keeps the walls' colour, or is blown out like a glare's
core); fingertips over the frame and the edge row leave few foreign corners. Each
rule that would catch more of these was measured against every cached clean frame
and kept only where it flagged none (lamp glare and LED spill look alike to the
lattice). Some clean frames are still flagged: a coloured LED spill lights the board
through the camera's tone curve, which compresses the seams it adds.

Measurements, frame classes and tried alternatives: vision/notes/occlusion.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cache, partial

import cv2
import numpy as np

from companion.board import FIXED_TILES, SIZE, Square
from companion.observation import TileReading
from vision.lighting import frame_level, frame_levels, is_night
from vision.occlusion_band import (
    _gradient_residuals,
    _segment_positions,
    beside_squares_unknown,
    disturbed_inside,
    finger_clusters,
    finger_run,
    frame_band,
    inner_colours,
    longest_run,
    one_colour_run,
    without_gates,
)
from vision.occlusion_config import OcclusionConfig, Signals
from vision.occlusion_fixed import fixed_squares, fixed_tile_agreement, shade_free_mismatch
from vision.occlusion_flat import flat_groups
from vision.occlusion_frame import frame_problem, percentiles_u8, sharpness, small_grey
from vision.occlusion_lattice import (
    _largest_cluster,
    foreign_and_blown,
    lattice_cluster,
    lattice_colours,
    lattice_foreign,
    lattice_grey,
    lattice_structure,
    light_seams,
    shade_invariant,
    under_pawns,
)
from vision.rectify import Rectified

__all__ = [
    "OcclusionConfig",
    "Signals",
    "_gradient_residuals",
    "_segment_positions",
    "decide",
    "disturbed_inside",
    "frame_band",
    "frame_level",
    "frame_levels",
    "frame_problem",
    "is_night",
    "lattice_cluster",
    "lattice_colours",
    "lattice_foreign",
    "lattice_grey",
    "lattice_structure",
    "longest_run",
    "percentiles_u8",
    "seamless_corners",
    "shade_invariant",
    "sharpness",
    "signals",
    "small_grey",
    "under_pawns",
]


# --------------------------------------------------------------------------- signals and decision


def signals(
    rect: Rectified,
    image_shape: tuple[int, ...],
    tiles: Sequence[TileReading],
    quality: float,
    covered: Iterable[Square] = (),
    boxes: Iterable[tuple[int, int, int, int]] = (),
    config: OcclusionConfig | None = None,
    lighting: str = "day",
) -> Signals:
    """Measure every occlusion signal of a rectified frame (``covered``/``boxes``: where pawns stand;
    ``lighting``: at night the flat cells are measured on smoothed grey, see :mod:`vision.occlusion_flat`, the
    frame beside an edge square a pawn stands on is not judged,
    :func:`vision.occlusion_band.beside_squares_unknown`, and the group of unclear tiles leaves out those a light
    made unclear, :func:`_lit_tiles`: at night a hand hides the walls' glow, an LED's pool adds to it; by day a
    tile corner in shade keeps its share of the seams, :func:`vision.occlusion_lattice.foreign_and_blown`)."""
    cfg = config or OcclusionConfig()
    hidden = set(covered)
    boxes = list(boxes)  # read by several signals (and later, by the seamless corners)
    unclear = {divmod(i, SIZE) for i, t in enumerate(tiles) if t.confidence < cfg.low_confidence} - hidden
    wrong = tuple(
        sq for sq, want in FIXED_TILES.items() if sq not in hidden and tiles[sq[0] * SIZE + sq[1]].openings != want
    )
    colours = lattice_colours(rect, cfg)
    night = lighting == "night"
    seen_foreign, blown = foreign_and_blown(rect, cfg, colours, shade=not night)
    hidden_points = under_pawns(rect, boxes, cfg.lattice_patch)
    foreign = seen_foreign & ~hidden_points
    seams = cache(partial(_seams_and_clip, rect, cfg))  # measured once, only when a tile or a corner is lit
    bounds = (cfg.lit_lost, cfg.lit_edge)
    own = _untinted(seen_foreign, colours, seams, cfg) if night and unclear else seen_foreign
    lit_tiles = _lit_tiles(unclear, colours, own, cfg.night_lit, seams, bounds, cfg.lit_falloff, inside=night)
    beside = unclear - lit_tiles
    corroborating = foreign if quality < cfg.corroborating_quality else None
    if corroborating is not None and night:
        corroborating = _without_small(corroborating, NIGHT_PAWN_POINTS)
    near = disturbed_inside(beside, corroborating)
    # The unclear tiles on the board's edge, lit ones included: a spill past a readable edge is light.
    rim = {(r, c) for r, c in unclear if r in (0, SIZE - 1) or c in (0, SIZE - 1)}
    edge_light = (disturbed_inside(rim, corroborating), lambda: seams()[0])
    flags = frame_band(rect, image_shape, cfg, boxes, (colours, seen_foreign, near), night, edge_light=edge_light)
    if night:
        flags = beside_squares_unknown(flags, hidden)
    flat, dark = flat_groups(
        rect,
        unclear,
        foreign,
        hidden,
        cfg.flat_level,
        cfg.clip_level,
        cfg.night_flat_blur if night else 0.0,
        (lambda: seamless_corners(rect, cfg, boxes)) if quality < cfg.seamless_quality else None,
        cfg.seam_keep,
        cfg.lit_lost,
        cfg.lit_edge,
        lambda: foreign & _lit_points(colours, cfg.night_lit, seams()[0], bounds),
        np.array([int(t.openings) for t in tiles]).reshape(SIZE, SIZE),
    )
    bar = cfg.quality_bar(lighting)
    unwashed = _unwashed_quality(rect, hidden, foreign, seams, cfg, lighting) if quality < bar else -1.0
    detail: dict[str, np.ndarray] = {}
    gated = cache(
        lambda: frame_band(
            rect,
            image_shape,
            cfg,
            boxes,
            (colours, seen_foreign, near),
            all_gates=True,
            edge_light=edge_light,
            detail=detail,
        )
    )
    band_alone = (
        longest_run(without_gates(flags))
        if night
        else _lone_run(flags, gated, lambda: foreign | (blown & ~hidden_points) | seamless_corners(rect, cfg, boxes))
    )
    # By day the corners of pawns' own edge squares, the frame beside them clear, are the pawns'.
    edge_foreign = foreign if night else foreign & ~_pawn_squares_own(foreign, hidden, gated)
    # Judged only where the lone run was doubtful (the gates were judged for it): one surface over the frame.
    one_colour = one_colour_run(gated(), detail["values"], detail["expected"], cfg) if detail else 0
    # By day, wherever the plain frame has a foreign segment: fingers going on over the edge tiles.
    fingers = 0
    if not night and bool((flags == 1).any()):
        fingers = finger_run(gated(), detail["values"], detail["expected"], inner_colours(rect, cfg), cfg)
    return Signals(
        band_run=longest_run(flags, near),
        band_alone=band_alone,
        band_flat=one_colour,
        band_fingers=fingers,
        lattice=_largest_cluster(foreign),
        lattice_from_edge=max(
            _largest_cluster(edge_foreign, from_edge=True),
            _bridged_cluster(seen_foreign | blown, hidden_points | blown, cfg.min_bridged_seen),
            0 if night else finger_clusters(foreign, flags),
        ),
        lattice_unclear=_darker_cluster_at_unclear(rect, foreign, unclear, cfg),
        quality=float(quality),
        low_tiles=len(unclear),
        fixed_wrong=wrong,
        low_cluster=_largest_group(beside if night else unclear),
        flat_cells=flat,
        dark_flat=dark,
        marked_low=_marked_group(foreign, unclear, cfg.min_marked_low),
        shade_free_wrong=shade_free_mismatch(rect, hidden, lighting) if quality < bar else -1,
        unwashed_quality=unwashed,
    )


def _pawn_squares_own(foreign: np.ndarray, squares: set[Square], gated: Callable[[], np.ndarray]) -> np.ndarray:
    """By day: the foreign lattice points (8x8) of each cluster from the tile area's edge whose every point is a
    corner of an edge square a pawn stands on (``squares``) and beside whose edge points the frame is clear, gates
    judged (``gated()``, :func:`frame_band`; asked only for such a cluster).

    A pawn on an edge square lies only over its own square: its shadow, its body leaning in perspective past the
    finder's box and an LED's light it catches and throws back colour the corners of that square (two pawns on
    neighbouring edge squares: six corners). A hand or an arm comes from outside the board: it crosses the frame
    beside the edge corners it covers, and one reaching past the pawns covers corners of other squares too.
    Known limit: a hand over the frame the band does not see (the frame's hue, a glare's excuse) and whose
    fingertips stop on the pawns' squares passes. Measurements: vision/notes/occlusion.md (o41).
    """
    out = np.zeros_like(foreign)
    edge_squares = {(r, c) for r, c in squares if r in (0, SIZE - 1) or c in (0, SIZE - 1)}
    if not edge_squares or not foreign.any():
        return out
    owned = np.zeros_like(foreign)
    for r, c in edge_squares:
        owned[r : r + 2, c : c + 2] = True
    count, labels = cv2.connectedComponents(foreign.astype(np.uint8), connectivity=4)
    for i in range(1, count):
        cluster = labels == i
        if (cluster & ~owned).any() or not cluster[1:-1, 1:-1].any():
            continue
        edges = (cluster[0], cluster[:, -1], cluster[-1], cluster[:, 0])  # top, right, bottom, left
        sides = np.asarray(gated()).reshape(4, 2 * SIZE) == 1
        if any(
            sides[side, max(2 * p - 2, 0) : min(2 * p + 2, 2 * SIZE)].any()
            for side, line in enumerate(edges)
            for p in np.flatnonzero(line)
        ):
            continue
        out |= cluster
    return out


def _unwashed_quality(
    rect: Rectified,
    hidden: set[Square],
    foreign: np.ndarray,
    seams: Callable[[], tuple[np.ndarray, np.ndarray]],
    cfg: OcclusionConfig,
    lighting: str,
) -> float:
    """The grid quality leaving out the fixed tiles a light washed out and left disagreeing; -1 when
    there are none, when any tile corner is foreign, or when fewer than ``min_unwashed_fixed`` remain.

    Asked only when the grid quality fails. A fixed tile is washed out when each of its four corners is
    partly blown out (at least ``washed_clip`` of its pixels clipped) and keeps its seams in linear light
    between ``lit_lost`` and ``lit_edge`` of the median (light added leaves the gaps between tiles as they
    were; :func:`_lit_tiles` holds lit edge tiles to the same bounds), none of them foreign. Clipped, its
    corridors and walls both turn white: its open sides look closed and its agreement falls (0.33-0.50)
    although nothing hides it. Only such tiles under the bar are left out, so a washed tile read right
    still vouches for the grid, a wrong grid (every tile near 0.5) gains nothing, and a tile under a
    hand still counts: a hand hides the seams (under ``lit_lost``), brings its outline (over ``lit_edge``)
    or leaves a corner unclipped at its edge. And only when no tile corner is foreign at all: light
    explains the mismatch only where nothing with a colour of its own lies on the board.

    A corner over half clipped and without seams (white) is blank, not kept: excused only on a tile with at
    least two corners keeping the seams (light pooled over part of it), never on a tile blown out at three
    or four corners, which a white surface lying there would show as well (a lamp pool over part of a tile
    keeps seams at its other corners; a pale hand blown out over a whole tile does not).

    Leaving every washed tile out (read right or not), or dropping the foreign-corner
    condition, let hands rise too close to the bar. Measurements: vision/notes/occlusion.md.
    """
    if foreign.any():
        return -1.0
    bar = cfg.quality_bar(lighting)
    strength, clipped = seams()
    measured = (strength >= cfg.lit_lost) & (strength <= cfg.lit_edge)
    # A blown-out corner (over half clipped) has no seams left to keep (as in :func:`_lit_tiles`); it is excused
    # only on a tile where most corners still show the seams kept: a surface covering the tile shows none.
    blank = (clipped > 0.5) & (strength <= cfg.lit_edge)
    washed = {
        (r, c)
        for r, c in set(FIXED_TILES) - hidden
        if bool((measured | blank)[r : r + 2, c : c + 2].all())
        and int(measured[r : r + 2, c : c + 2].sum()) >= 2
        and float(clipped[r : r + 2, c : c + 2].min()) >= cfg.washed_clip
    }
    if not washed:
        return -1.0
    agree = fixed_tile_agreement(rect, lighting)
    pairs = zip(fixed_squares(), agree, strict=True)
    keep = [float(a) for sq, a in pairs if sq not in hidden and not (sq in washed and a < bar)]
    if len(keep) == len(FIXED_TILES) - len(hidden & set(FIXED_TILES)) or len(keep) < cfg.min_unwashed_fixed:
        return -1.0
    return float(np.mean(keep))


#: A lone run of plain frame segments this long is doubtful enough to judge the gates for it too (:func:`_lone_run`).
LONE_RUN_DOUBT = 3


def _lone_run(flags: np.ndarray, gated: Callable[[], np.ndarray], gone: Callable[[], np.ndarray]) -> int:
    """The day's lone frame-band run: on the plain frame (``flags``, gates left out), or, once that run is
    ``LONE_RUN_DOUBT`` or more, with the gates judged (``gated()``, :func:`frame_band`) where the run passes
    beside an edge tile whose two outer corners are covered (``gone()``: foreign, blown out or seamless,
    :func:`disturbed_inside`), whichever is longer.

    An arm reaching in crosses the frame, gate arrows included, and goes on over the edge tiles, hiding
    their corners. A clean frame's run (a corner's artwork, a lamp's glare or shadow on the frame) leaves out
    the gates because glow nights judged by day made runs of 6 with them (:func:`without_gates`); counted only
    beside covered edge corners they add nothing there; judging the gates without the covered
    corners flagged clean frames (glares). Measurements: vision/notes/occlusion.md.
    Measured only on the rare doubtful frames (a second pass over the frame band and the seams).
    """
    run = longest_run(without_gates(flags))
    if run < LONE_RUN_DOUBT:
        return run
    return max(run, longest_run(gated(), disturbed_inside(set(), gone())))


#: At night a foreign lattice cluster this small (one edge tile's two outer corners) is a pawn's size.
NIGHT_PAWN_POINTS = 2


def _without_small(foreign: np.ndarray, max_points: int) -> np.ndarray:
    """``foreign`` without its 4-connected clusters of ``max_points`` points or fewer.

    At night the pawn finder reports only unmistakable pawns: a dark pawn standing on an edge tile
    and leaning over the frame in perspective stays unreported, its body makes the tile's two outer
    corners foreign and crosses two frame segments. An arm over the edge covers more of the lattice
    (measurements: vision/notes/occlusion.md).
    """
    count, labels = cv2.connectedComponents(foreign.astype(np.uint8), connectivity=4)
    sizes = np.bincount(labels.ravel(), minlength=count)
    keep = sizes > max_points
    keep[0] = False
    return keep[labels]


def seamless_corners(
    rect: Rectified, config: OcclusionConfig | None = None, boxes: Iterable[tuple[int, int, int, int]] = ()
) -> np.ndarray:
    """8x8 lattice points where the tiles' seams are gone (under ``seamless_level`` of the board's median point,
    :func:`lattice_structure`), not blown out and not under a pawn.

    Four separate tiles meet at every point: their edges and the gaps between them keep a
    log-grey structure that shadow and exposure do not remove. A cup or a hand over the point
    hides it even when its colour passes for the board's (a pale hand over cream walls).
    """
    cfg = config or OcclusionConfig()
    seams, clipped = lattice_structure(rect, cfg.seam_patch, cfg.clip_level)
    return (seams < cfg.seamless_level) & (clipped <= 0.5) & ~under_pawns(rect, boxes, cfg.lattice_patch)


def _darker_cluster_at_unclear(rect: Rectified, foreign: np.ndarray, unclear: set[Square], cfg: OcclusionConfig) -> int:
    """Largest cluster of foreign corners from the edge holding a corner of an unclear tile and darker than the
    board's corners (:func:`lattice_grey`: at night a hand hides the walls' glow, a light pool adds light)."""
    if not unclear or _largest_cluster(foreign, from_edge=True, touching=unclear) == 0:
        return 0
    return _largest_cluster(foreign, from_edge=True, touching=unclear, grey=lattice_grey(rect, cfg))


def _seams_and_clip(rect: Rectified, cfg: OcclusionConfig) -> tuple[np.ndarray, np.ndarray]:
    """8x8 seam strength in linear light (:func:`light_seams`) and clipped share (:func:`lattice_structure`)."""
    return light_seams(rect, cfg.seam_patch), lattice_structure(rect, cfg.seam_patch, cfg.clip_level)[1]


def _lit_tiles(
    unclear: set[Square],
    colours: np.ndarray,
    foreign: np.ndarray,
    lit: float,
    seams: Callable[[], tuple[np.ndarray, np.ndarray]] | None = None,
    bounds: tuple[float, float] = (0.0, np.inf),
    falloff: float = np.inf,
    inside: bool = False,
) -> set[Square]:
    """The unclear tiles made unclear by light: none of their four corners foreign, all of them at least
    ``lit`` times the board's median corner lightness (:func:`lattice_colours`' third channel) and keeping
    the seams in linear light as light added does (``seams``: :func:`light_seams` and the clipped share,
    measured only when a tile is that bright): none under ``bounds[0]`` unless blown out (over half
    clipped), none over ``bounds[1]`` times the median seam strength.

    A lamp's glare or a light pool over the board's edge lights the frame band and washes out the
    edge tile beside it: its corners keep the walls' colour (or are pulled toward white as glare
    does, :func:`lattice_foreign`) and shine brighter than the board's. A hand over the edge tile
    brings a colour of its own to a corner or hides the light; such a tile still backs a run of
    foreign frame segments (:func:`disturbed_inside`). A pale hand in bright light can keep the walls'
    colour too, but light added leaves the seams as they were while the hand brings edges of its own
    (its outline, its fingers: over ``lit_edge``, the same bound as :func:`vision.occlusion_lattice._lit_seams`)
    or hides them (under ``lit_lost``, the same veto). A glare's blown-out core has no seams left either
    (its pixels clipped, their structure gone, not hidden), so a blown-out corner is not held to the
    lower bound.

    ``falloff`` (:func:`_fading_in`): a lamp's pool over the board's edge is brightest outside and fades
    over the tile, so an edge tile whose corners on the board's edge are lit and whose inner corners keep
    at least ``falloff`` of the edge corner beside them (not ``lit`` of the board's) is lit too, with the
    same seams test. A hand lit over the outer corners ends at its outline: the corners beyond it are back
    at the board's level. ``falloff`` sits between the hands' edge tiles lit this way and the glare
    frames it was made for.

    ``inside`` (at night): a pool lying on the board fades the same way from whichever side it lies on, so
    any tile two of whose corners on one side are lit and whose other two keep ``falloff`` of them is lit
    (:func:`_fading_across`): an LED's spot on the tiles beside the frame makes a tile of the second row
    unclear, and the frame band it also lights then has a disturbed tile beside it. A lit hand still ends
    at its outline (its far corners under ``falloff``), brings a colour of its own or changes the seams,
    as over an edge tile. By day only the edge tiles lit from outside count: pale hands in the room's
    light were not measured against the wider test. At night :func:`signals` passes as ``foreign`` only the
    corners no coloured light tinted (:func:`_untinted`), and the seams' upper bound grows with each corner's
    own light (``bounds[1]`` times its lightness over the board's median, at least 1): an LED's pool
    multiplies the glowing walls' light and the seams with it, as :func:`_lit_points` allows. By day the
    bound stays flat: a pale hand lit 3.6-4.2x brings its outline at 1.9-4.3x. Measurements:
    vision/notes/occlusion.md.
    """
    if not unclear:
        return set()
    light = colours[..., 2]
    level = lit * float(np.median(light))
    out = set()
    for r, c in unclear:
        if foreign[r : r + 2, c : c + 2].any():
            continue
        corners = light[r : r + 2, c : c + 2]
        fading = _fading_across(corners, level, falloff) if inside else _fading_in(corners, r, c, level, falloff)
        if float(corners.min()) >= level or fading:
            out.add((r, c))
    if out and seams is not None:
        strength, clipped = seams()
        low, high = bounds
        # At night a pool multiplies the walls' glow and the seams with it (:func:`_lit_points`).
        gain = np.maximum(light / max(float(np.median(light)), 1e-6), 1.0) if inside else 1.0
        kept = ((strength >= low) | (clipped > 0.5)) & (strength <= high * gain)
        out = {(r, c) for r, c in out if bool(kept[r : r + 2, c : c + 2].all())}
    return out


def _untinted(
    foreign: np.ndarray,
    colours: np.ndarray,
    seams: Callable[[], tuple[np.ndarray, np.ndarray]],
    cfg: OcclusionConfig,
) -> np.ndarray:
    """``foreign`` (8x8 lattice points) without the points lit as light adds (:func:`_lit_points`): at night, for
    :func:`_lit_tiles`.

    At night the walls' glow is the board's light. A coloured LED's pool over them adds its own colour, far
    off the glow's (a red spill over green walls), so the corners it lights turn foreign by colour alone
    while they shine brighter than the board's and keep the seams in proportion to that light. A hand hides
    the glow: its corners are darker, or bring edges of their own. Such a tinted corner is light, not
    something lying there, so a tile the pool made unclear still counts as lit and backs no frame run.
    ``seams`` (:func:`_seams_and_clip`) is measured only when a point is foreign.
    """
    if not foreign.any():
        return foreign
    return foreign & ~_lit_points(colours, cfg.night_lit, seams()[0], (cfg.lit_lost, cfg.lit_edge))


def _lit_points(colours: np.ndarray, lit: float, seams: np.ndarray, bounds: tuple[float, float]) -> np.ndarray:
    """8x8 lattice points lit as :func:`_lit_tiles` judges a tile's corners: at least ``lit`` times the board's
    median corner lightness (``colours``' third channel, :func:`lattice_colours`), their seams in linear light
    (``seams``, :func:`light_seams`) at least ``bounds[0]`` of the median point and at most ``bounds[1]`` times
    the point's own light gain: light added keeps the seams, a pool of light multiplies them with the light
    (:func:`vision.occlusion_lattice._light_multiplied`), neither brings an edge of its own. Used by
    :func:`vision.occlusion_flat.flat_groups` on groups whose tiles still read."""
    light = colours[..., 2]
    gain = light / max(float(np.median(light)), 1e-6)
    return (gain >= lit) & (seams >= bounds[0]) & (seams <= bounds[1] * gain)


def _fading_in(corners: np.ndarray, r: int, c: int, level: float, falloff: float) -> bool:
    """An edge tile's 2x2 corner lightness lit from outside: both corners on the board's edge at least
    ``level``, each inner corner at least ``falloff`` of the edge corner beside it."""
    pairs = []
    if r == 0:
        pairs.append((corners[0], corners[1]))
    if r == SIZE - 1:
        pairs.append((corners[1], corners[0]))
    if c == 0:
        pairs.append((corners[:, 0], corners[:, 1]))
    if c == SIZE - 1:
        pairs.append((corners[:, 1], corners[:, 0]))
    return _fades(pairs, level, falloff)


def _fading_across(corners: np.ndarray, level: float, falloff: float) -> bool:
    """A tile's 2x2 corner lightness lit from any side: both corners of one side at least ``level``, each
    corner of the opposite side at least ``falloff`` of the corner beside it (:func:`_fading_in` for every side)."""
    rows, cols = (corners[0], corners[1]), (corners[:, 0], corners[:, 1])
    return _fades([rows, rows[::-1], cols, cols[::-1]], level, falloff)


def _fades(pairs: Iterable[tuple[np.ndarray, np.ndarray]], level: float, falloff: float) -> bool:
    """Does any (lit side, far side) pair of corner lightnesses have its lit side at ``level`` or more and keep
    ``falloff`` of it on the far side?"""
    return any(float(o.min()) >= level and bool((i >= falloff * o).all()) for o, i in pairs)


def _bridged_cluster(foreign: np.ndarray, hidden: np.ndarray, min_seen: int) -> int:
    """Largest cluster of foreign points from the edge counted through the points a pawn hides, when at least
    ``min_seen`` of its points lie outside every pawn (0 when no pawn point joins a cluster).

    A pawn's box hides what is under it: unknown, not clean. A hand over the board's edge often has a pawn
    found on it (skin passes for a pawn's colour), whose box then cut the hand's corners into pieces each
    too small to count (third-renderer fresh th_occ 0002: 5 corners, 4 seen, cut into 3 and 1). A pawn on a
    clean board hides one or two points, and with fewer than ``min_seen`` foreign points beside it stays out.
    """
    if not (foreign & hidden).any():
        return 0
    _count, labels = cv2.connectedComponents(foreign.astype(np.uint8), connectivity=4)
    edge = set(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]).tolist())
    inside = set(labels[1:-1, 1:-1].ravel().tolist())
    best = 0
    for i in (edge & inside) - {0}:
        cluster = labels == i
        if (cluster & hidden).any() and int((cluster & ~hidden).sum()) >= min_seen:
            best = max(best, int(cluster.sum()))
    return best


def _marked_group(foreign: np.ndarray, unclear: set[Square], min_group: int) -> int:
    """Largest cluster of foreign lattice points (8x8) holding a corner of a group of at least ``min_group``
    unclear tiles touching (8-neighbours); 0 when there is no such group."""
    if len(unclear) < min_group or not foreign.any():
        return 0
    grid = np.zeros((SIZE, SIZE), dtype=np.uint8)
    for r, c in unclear:
        grid[r, c] = 1
    count, labels = cv2.connectedComponents(grid, connectivity=8)
    groups = [[(int(r), int(c)) for r, c in np.argwhere(labels == i)] for i in range(1, count)]
    return max((_largest_cluster(foreign, touching=g) for g in groups if len(g) >= min_group), default=0)


def _largest_group(squares: set[Square]) -> int:
    """Size of the largest 8-connected group of ``squares`` on the 7x7 board."""
    grid = np.zeros((SIZE, SIZE), dtype=np.uint8)
    for r, c in squares:
        grid[r, c] = 1
    count, labels = cv2.connectedComponents(grid, connectivity=8)
    return max((int((labels == i).sum()) for i in range(1, count)), default=0)


def _board_reads(sig: Signals, night: bool) -> bool:
    """By day, does the board read although the grid quality fails: no tile unclear (pawn squares aside) and
    every fixed tile on its known openings?

    The grid quality judges each fixed tile by a model learnt from the other fixed tiles: coloured light pools
    and a shadow band over a low-contrast edition make the fixed tiles unlike each other, so none is sure,
    while the reader, judging every tile against the whole board, reads them all. Something over the board
    hides openings: the tiles under it are unclear. At night the walls' glow is the light a hand hides, not
    measured here. Measurements: vision/notes/occlusion.md.
    """
    return not night and sig.low_tiles == 0 and not sig.fixed_wrong


def decide(sig: Signals, lighting: str = "day", config: OcclusionConfig | None = None) -> str | None:
    """The reason the frame cannot be read now, or None (thresholds in :class:`OcclusionConfig`).

    Day and night share the fixed tiles, the grid quality (not when a shadow band or a light
    explains the fixed tiles' mismatch: ``shade_free_wrong``, ``unwashed_quality``; by day not when
    every tile reads, :func:`_board_reads`) and an arm crossing the
    frame beside a disturbed edge tile. By day a group of unclear tiles needs
    something at the edge too (at night it counts alone, lit tiles left out), and a long frame-band run or
    foreign tile corners reaching in from the edge decide alone (from ``min_day_lattice_unclear`` when they
    hold an unclear tile's corner and are darker than the board's); at night unclear tiles count on their
    own, the lone band run stays out (clean nights make runs of 4) and foreign
    corners from the edge count only around an unclear tile (clean nights make
    clusters of 5 from the edge, their tiles all readable). Day or night, a flat
    surface lying on an unclear tile, a foreign tile corner or a corner whose seams
    are gone (a card, a cup, a phone, a pale hand: :mod:`vision.occlusion_flat`,
    :func:`seamless_corners`) decides alone, and so does a smaller flat group darker
    than the board wherever it lies (glare flattens but brightens; a cup of coffee).
    """
    cfg = config or OcclusionConfig()
    night = lighting == "night"
    if len(sig.fixed_wrong) > cfg.max_fixed_mismatch:
        where = ", ".join(f"{r},{c}" for r, c in sig.fixed_wrong[:4])
        return f"fixed tiles do not match their known openings at {where}"
    # A low-contrast board under a shadow band: every fixed tile on its known side by shade-free colour.
    matched = 0 <= sig.shade_free_wrong <= cfg.max_fixed_mismatch
    bar = cfg.quality_bar(lighting)
    if sig.quality < bar and not matched and sig.unwashed_quality < bar and not _board_reads(sig, night):
        return f"board partly hidden or misread (fixed tiles match {sig.quality:.2f})"
    if night and sig.low_tiles > cfg.night_max_low_tiles:
        return f"{sig.low_tiles} tiles unclear"
    if sig.low_cluster > cfg.max_low_tiles and (night or sig.band_run > 0 or sig.lattice_from_edge > 0):
        return f"{sig.low_cluster} tiles together unclear (something over the board?)"
    if not night and sig.marked_low > 0:
        return f"{sig.low_cluster} tiles together unclear with foreign tile corners on them (something over the board?)"
    if sig.band_run >= cfg.min_band_run:
        return f"hand or object over the board's edge ({sig.band_run} frame segments hidden)"
    if not night and sig.band_alone >= cfg.min_band_alone:
        return f"hand or object over the board's frame ({sig.band_alone} frame segments hidden)"
    if not night and sig.band_flat >= cfg.min_band_flat:
        return f"hand or object over the board's frame ({sig.band_flat} frame segments of one colour)"
    if not night and sig.band_fingers >= cfg.min_band_fingers:
        return f"hand over the board's frame and edge ({sig.band_fingers} frame segments going on over the tiles)"
    if (sig.lattice_unclear if night else sig.lattice_from_edge) > cfg.max_lattice_cluster:
        return f"hand or object over the board ({sig.lattice_from_edge} tile corners covered from its edge)"
    if not night and sig.lattice_unclear >= cfg.min_day_lattice_unclear:
        return f"hand or object over an unclear edge tile ({sig.lattice_unclear} darker tile corners from its edge)"
    if sig.flat_cells >= cfg.min_flat_cells:
        return f"something lying on the board ({sig.flat_cells} half tiles without the tiles' structure)"
    if sig.dark_flat >= cfg.min_dark_flat_cells:
        return f"something dark lying on the board ({sig.dark_flat} dark half tiles without the tiles' structure)"
    return None
