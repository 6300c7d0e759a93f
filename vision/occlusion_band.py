"""The board's printed frame band: an arm reaching over the board crosses it.

:func:`frame_band` judges each half-tile segment of the band against a smooth lighting
model of the whole band; :func:`longest_run` counts foreign segments going round the
board; :func:`disturbed_inside` says where the board just inside looks disturbed;
:func:`finger_clusters` adds up the foreign tile corners of fingers that each cross the frame;
:func:`one_colour_run` finds one surface over the frame; :func:`finger_run` finds fingers
that cross it apart and go on over the edge tiles in their own colour.

Known limits: a hand whose skin has the frame's own hue, or a pale hand over a red frame
(it lies on the line toward white and passes for glare, :func:`_glare`), is not seen by the
band; telling it from a lamp's glare needs a sign other than colour (an outline, a shadow).
A lamp's glare over the band beside an edge tile it made unclear is let off by
``lit_falloff`` (a pool's inner corners keep most of its outer ones' light, a hand's do not).
By day an opaque surface over the frame shows as a run of one colour ending sharply
(:func:`one_colour_run`), where a pool of light peaks and fades; fingers spread apart over the
frame (clear frame between them) make no such run, but each keeps its colour over the edge tile
just inside, where light leaves the tile's colour apart from the frame's (:func:`finger_run`;
a sixth-renderer haze at its peak does it for up to two segments). Fingertips that stop at the
frame's inner edge, or skin of the frame's hue, stay unseen.
Cases, figures and the rules tried and dropped: vision/notes/occlusion_band.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import cv2
import numpy as np

from companion.board import SIZE, Square
from vision.occlusion_config import OcclusionConfig
from vision.occlusion_lattice import _glare, shade_invariant
from vision.rectify import Rectified


def frame_band(
    rect: Rectified,
    image_shape: tuple[int, ...],
    config: OcclusionConfig | None = None,
    boxes: Iterable[tuple[int, int, int, int]] = (),
    lattice: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
    night: bool = False,
    all_gates: bool = False,
    edge_light: tuple[np.ndarray, Callable[[], np.ndarray]] | None = None,
    detail: dict[str, np.ndarray] | None = None,
) -> np.ndarray:
    """Per segment of the board's own frame (4 sides x 14 half-tiles): 1 foreign, 0 like the frame, -1 unknown.

    The frame around the tile area looks the same all the way round (a printed
    border), except at the 12 gates (arrows): those segments are judged among themselves
    (every gate carries the same print; ``judge_gates``, else unknown) and, with ``lattice``,
    only when the board inside looks disturbed somewhere (they count only for that run). Segments outside
    the photo and under a pawn (``boxes``, rectified pixels) are unknown. An arm
    reaching over the board crosses this band: a run of foreign segments.
    ``lattice``: the tile-corner lattice's colours and foreign points
    (:func:`vision.occlusion_lattice.lattice_colours`, :func:`vision.occlusion_lattice.lattice_foreign`)
    and where the board inside looks disturbed (:func:`disturbed_inside`): with them a segment lit by a
    light spilling over the board's edge, beside readable tiles, is not foreign (:func:`_spilled`); at
    ``night`` neither is one lit with its edge tile corner, even beside an unclear tile (:func:`_lit_at_night`).
    ``all_gates``: judge the gates whatever the board inside shows (a doubtful lone run,
    :func:`vision.occlusion._lone_run`).
    ``edge_light``: by day, where the board's rim tiles look disturbed (:func:`disturbed_inside` of the unclear
    tiles on the board's edge) and the lattice's seam strength in linear light (measured on demand): a spill
    beside an unclear inner tile is light, not an arm (:func:`_lit_past_readable_edge`).
    ``detail``: filled with each judged segment's colour (``"values"``, 56 x 3) and its population's lighting
    model there (``"expected"``), for :func:`one_colour_run`.
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
    # All four strips (same shape) converted and reduced together: one call each instead of four.
    depth = strips[0].shape[0]
    values = shade_invariant(np.concatenate(strips), cfg.lightness_weight)  # (4 x depth, along, 3)
    segments = values.reshape(4, depth, n, half, 3).transpose(0, 2, 1, 3, 4).reshape(4, n, depth * half, 3)
    medians = np.median(segments, axis=2)
    known = np.ones((4, n), dtype=bool)
    gates = np.zeros((4, n), dtype=bool)
    gates[:, [k for k in range(n) if (k // 2) in (1, 3, 5)]] = True  # gate arrows: judged among themselves
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
    values = medians.reshape(-1, 3)
    # The gates count only for a run beside a disturbed edge tile: judged only when there is one.
    gated = cfg.judge_gates and (all_gates or lattice is None or bool(np.any(lattice[2])))
    for group, least in ((known & ~gates, 12), (known & gates, 8) if gated else (None, 0)):
        if group is None or group.sum() < least:
            continue
        flags = _foreign_segments(
            values, _segment_positions(t, m), group.reshape(-1), cfg, lattice, night, None if night else edge_light
        )
        out[group] = flags.reshape(4, 2 * SIZE)[group].astype(np.int8)
        if detail is not None:
            known_here = group.reshape(-1)
            detail.setdefault("values", values.copy())
            expected = detail.setdefault("expected", np.zeros_like(values))
            expected[known_here] = _gradient_residuals(values, _segment_positions(t, m), known_here, np.ones(3))[1][
                known_here
            ]
    return out.reshape(-1)


#: :func:`frame_band` order rearranged to go round the board (sides 2 and 3 run backwards), as :func:`longest_run`.
_RING = np.concatenate(
    [np.arange(2 * SIZE) + side * 2 * SIZE for side in range(2)]
    + [np.arange(2 * SIZE)[::-1] + side * 2 * SIZE for side in (2, 3)]
)


def one_colour_run(flags: np.ndarray, values: np.ndarray, expected: np.ndarray, cfg: OcclusionConfig) -> int:
    """Longest run of foreign segments going round the frame (``flags``, gates judged, :func:`frame_band`) that
    one surface of one colour covers: every segment's colour (``values``) within ``band_flat_spread`` of the
    run's median shift from the print (``expected``, each population's lighting model) of the run's median
    colour, and the known segment just past each end back near the print (its shift at most ``band_flat_end``
    of the run's). 0 when no run ends (the whole frame foreign) or none is that flat.

    An opaque hand, sleeve or card over the frame replaces the print with its own colour, the same over the
    plain frame and over the gate arrows, and ends at its outline. A light's pool over the frame (an LED's
    spot, a lamp's glare or haze) multiplies or adds to the print: its strength peaks and falls off, so the
    colours along its run change with it and its ends fade over several segments. Fingertips over the frame
    and the edge row keep the tiles readable and few tile corners foreign (their skin passes for lit or blown
    out, :func:`_spilled`), but cross the frame as such a plateau. Measurements: vision/notes/occlusion_band.md.
    """
    ring = np.asarray(flags).reshape(-1)[_RING]
    known = np.flatnonzero(ring >= 0)
    if len(known) == 0 or bool((ring[known] == 1).all()) or not (ring[known] == 1).any():
        return 0
    start = int(np.flatnonzero(ring[known] == 0)[0])
    order = np.roll(known, -start)  # begins on a segment like the frame
    best, run = 0, []
    for i, k in enumerate(np.append(order, order[0])):
        if ring[k] == 1:
            run.append(k)
            continue
        if len(run) > best:
            segments = _RING[run]
            shifts = np.linalg.norm(values[segments] - expected[segments], axis=1)
            level = max(float(np.median(shifts)), 1e-6)
            spread = np.linalg.norm(values[segments] - np.median(values[segments], axis=0), axis=1)
            ends = _RING[[order[i - len(run) - 1], k]]
            past = np.linalg.norm(values[ends] - expected[ends], axis=1)
            if float(spread.max()) <= cfg.band_flat_spread * level and float(past.max()) <= cfg.band_flat_end * level:
                best = len(run)
        run = []
    return best


def inner_colours(rect: Rectified, config: OcclusionConfig | None = None) -> np.ndarray:
    """Per frame segment (:func:`frame_band` order, 56 x 3): the median :func:`shade_invariant` colour of the
    strip just inside the tile area beside it (``finger_strip``: from-to depth in tiles, past the seam)."""
    cfg = config or OcclusionConfig()
    t, m = rect.tile_px, rect.margin_px
    lo, hi = round(cfg.finger_strip[0] * t), round(cfg.finger_strip[1] * t)
    side, half, n = SIZE * t, t // 2, 2 * SIZE
    length = n * half
    image = rect.image
    strips = (
        image[m + lo : m + hi, m : m + length],
        image[m : m + length, m + side - hi : m + side - lo].transpose(1, 0, 2),
        image[m + side - hi : m + side - lo, m : m + length],
        image[m : m + length, m + lo : m + hi].transpose(1, 0, 2),
    )
    depth = strips[0].shape[0]
    values = shade_invariant(np.concatenate(strips), cfg.lightness_weight)
    segments = values.reshape(4, depth, n, half, 3).transpose(0, 2, 1, 3, 4).reshape(4, n, depth * half, 3)
    return np.median(segments, axis=2).reshape(-1, 3)


def finger_run(
    flags: np.ndarray, values: np.ndarray, expected: np.ndarray, inner: np.ndarray, cfg: OcclusionConfig
) -> int:
    """Most foreign frame segments (``flags``, gates judged, :func:`frame_band`) whose surface goes on over the
    edge tile, one such segment at most one segment from the next (fingers spread apart), counted going round
    the frame: a hand over the board's corner lays its fingers across two sides (:func:`_spread_run`).

    A finger crossing the frame is one opaque surface: just inside the tile area (``inner``,
    :func:`inner_colours`) it keeps the colour it has over the frame (``values``), within ``finger_cont`` of the
    segment's shift from the print (``expected``). Light multiplies each print from its own colour: a lamp's glare,
    an LED's spot or a shadow leaves the edge tile's colour apart from the frame's, and a cloth's checks past a
    frameless board's edge stop at the board. Spread fingers leave the frame clear between them (runs of 1-2
    cut apart, no lone run) and their tips often only reach the edge row (its tiles read, few corners foreign).
    A strong haze or glare (sixth renderer) washes frame and edge tile toward its colour too where it peaks; it
    adds near-white light (:func:`_white_gain`), so such segments do not count. A pale hand or white sleeve gains
    white too (known limit, as for :func:`_spilled`). Measurements: vision/notes/occlusion_band.md (o39).
    """
    shift = np.linalg.norm(values - expected, axis=1)
    cont = np.linalg.norm(values - inner, axis=1) < cfg.finger_cont * np.maximum(shift, 1e-6)
    cont &= np.asarray(flags).reshape(-1) == 1
    for k in np.flatnonzero(cont):
        cont[k] = not _white_gain(values[k], expected[k], cfg)
    return _spread_run(cont[_RING])


def _spread_run(ring: np.ndarray) -> int:
    """Longest chain of marked positions going round the frame (``ring``: :data:`_RING` order, closed), each at
    most two positions from the next: fingers spread apart leave one segment clear between them, and fingers
    over the board's corner go on from the end of one side to the start of the next."""
    marked = np.flatnonzero(ring)
    if len(marked) == 0:
        return 0
    n = len(ring)
    gaps = np.diff(np.append(marked, marked[0] + n))  # gap after each marked position, the last one closing the ring
    if bool((gaps <= 2).all()):
        return len(marked)
    start = int(np.flatnonzero(gaps > 2)[0]) + 1  # a chain starts after a gap too wide to bridge
    best = run = 0
    for g in np.roll(gaps, -start):
        run += 1
        best = max(best, run)
        if g > 2:
            run = 0
    return best


def _foreign_segments(
    values: np.ndarray,
    positions: np.ndarray,
    known: np.ndarray,
    cfg: OcclusionConfig,
    lattice: tuple[np.ndarray, np.ndarray, np.ndarray] | None,
    night: bool = False,
    edge_light: tuple[np.ndarray, Callable[[], np.ndarray]] | None = None,
) -> np.ndarray:
    """Segments of one population (the plain frame, or the gate arrows) unlike its smooth lighting model
    (``edge_light``: :func:`frame_band`)."""
    residual, expected = _gradient_residuals(values, positions, known, np.ones(3))
    spread = float(np.median(residual[known]))
    threshold = max(cfg.band_floor, cfg.foreign_distance * spread)
    # A lamp's glare on the frame is not an arm (a pale arm may pass for glare: the rules
    # inside the board then have to see it; a false alarm costs a whole frame's reading).
    flags = (residual > threshold) & ~_glare(values, expected, threshold, cfg) & known
    if not night:
        flags &= ~_shaded(values, expected, threshold, cfg)
        if flags.any():
            flags &= ~_glare_pool(values, expected, flags, known, cfg)
    if lattice is not None and flags.any():
        spilled = _spilled(values - expected, flags, lattice[0], lattice[1], cfg, None if night else values)
        excused = spilled & ~lattice[2]
        if edge_light is not None and (spilled & lattice[2]).any():
            lit = _lit_at_night(values, expected, spilled & lattice[2], lattice[0], lattice[1], cfg)
            excused |= _lit_past_readable_edge(lit, edge_light, cfg)
        if edge_light is not None:
            excused |= _lit_apart(values, expected, flags, lattice[0], lattice[1], cfg, edge_light[1])
        if night:
            excused |= _lit_at_night(values, expected, flags, lattice[0], lattice[1], cfg)
            excused |= _mixed_light(values, flags, lattice[0], lattice[1], cfg)
            excused |= _tinted_at_night(values, expected, flags, lattice[0], lattice[1], cfg)
        flags &= ~excused
    return flags


def _glare_pool(
    values: np.ndarray, expected: np.ndarray, flags: np.ndarray, known: np.ndarray, cfg: OcclusionConfig
) -> np.ndarray:
    """Which flagged segments are a white glare's pool on the frame, by day: a run of at least
    ``pool_len`` flagged segments round the frame (unjudged segments between them skipped, runs going on round
    a corner) that all gained near-white light (every linear channel at least ``pool_balance`` of the strongest
    gain) and whose gain rises to a peak inside the run and falls off at both ends (the end segments at most
    ``pool_ends`` of it).

    A lamp's pool fades from its centre; a hand or a sleeve over the frame is opaque, its colour is the same
    all along it (a plateau), and skin gains red far more than blue. A pool over the board's corner peaks at
    the corner: along each side it only falls off, so the run is followed round the corner (o41: fresh sixth
    day 5451040, a white-pink haze over the top-left corner of a red frame, gains 0.15 0.30 | 0.55 0.61 0.53
    0.33 0.16). Measurements: vision/notes/occlusion_band.md (o40, o41).
    """
    out = np.zeros(len(flags), dtype=bool)
    ring = [int(i) for i in _RING if known[i]]
    breaks = [k for k, i in enumerate(ring) if not flags[i]]
    if not breaks:
        return out
    start = breaks[0]
    run: list[int] = []
    for k in range(1, len(ring) + 1):
        index = ring[(start + k) % len(ring)]
        if flags[index] and k < len(ring):
            run.append(index)
            continue
        if len(run) >= cfg.pool_len:
            gains = [_light_gain(values[i], expected[i], cfg) for i in run]
            top = [float(gain.max()) for gain in gains]
            white = all(_is_white(gain, cfg.pool_balance) for gain in gains)
            if white and max(top[0], top[-1]) <= cfg.pool_ends * max(top):
                out[run] = True
        run = []
    return out


def _shaded(values: np.ndarray, expected: np.ndarray, threshold: float, cfg: OcclusionConfig) -> np.ndarray:
    """Which segments differ from the band's lighting model only as a shadow does: darker, same chromaticity.

    A shadow takes light away from R, G and B alike: the lightness drops and the
    chromaticity stays put, within the tolerance glare gets on its line (``glare_share``
    of the foreign threshold): a diagonal shadow over a clean board's corner is no arm
    (vision/notes/occlusion_band.md). By day only: at night the frame's light is the
    tiles' glow, which a hand hides.
    """
    darker = values[:, 2] < expected[:, 2]
    off = np.linalg.norm(values[:, :2] - expected[:, :2], axis=1)
    return darker & (off <= cfg.glare_share * threshold)


def _spilled(
    shift: np.ndarray,
    flags: np.ndarray,
    colours: np.ndarray,
    foreign: np.ndarray,
    cfg: OcclusionConfig,
    values: np.ndarray | None = None,
) -> np.ndarray:
    """Which flagged segments are lit by a light spilling over the board's edge rather than hidden by an arm.

    A coloured LED's or a lamp's pool that reaches over the frame tints the tiles just
    inside it too: the tile corner on the edge next to the segment is shifted from the
    board's wall colour the same way (the shifts' cosine over ``spill_cos``, at least
    ``spill_share`` as far) while it keeps its seams, so it is not foreign
    (:func:`vision.occlusion_lattice.lattice_foreign`). An arm over the frame either goes
    on over that corner (foreign: the segment counts) or stops short (the corner keeps
    the walls' colour: it counts). ``shift``: each segment's colour minus the band
    model's there (56 x 3, :func:`frame_band` order); ``colours``: 8x8x3 lattice colours.
    ``values`` (by day, the segments' colours): an arm can also go on over the corner and leave it not
    foreign, its skin passing for lit or blown out (fingertips over the edge row): then the corner lands on
    the segment's colour, where light leaves the two apart (:func:`_lit_apart`'s ``spill_apart`` test), and the
    segment counts; unless the segment gained near-white light (:func:`_white_gain`): a white glare also brings
    frame and corner to its own colour. Measurements: vision/notes/occlusion_band.md.
    """
    ref = np.median(colours.reshape(-1, 3), axis=0)
    out = np.zeros(len(flags), dtype=bool)
    for index in np.flatnonzero(flags):
        point = _edge_corner(int(index))
        if foreign[point]:
            continue
        band, corner = shift[index], colours[point] - ref
        size = float(np.linalg.norm(band))
        along = float(band @ corner) / max(size * float(np.linalg.norm(corner)), 1e-6)
        out[index] = along > cfg.spill_cos and float(np.linalg.norm(corner)) >= cfg.spill_share * size
        if out[index] and values is not None and not _white_gain(values[index], values[index] - band, cfg):
            apart = float(np.linalg.norm(colours[point][:2] - values[index, :2]))
            out[index] = apart >= cfg.spill_apart * float(np.linalg.norm(band[:2]))
    return out


def _linear_rgb(colour: np.ndarray, cfg: OcclusionConfig) -> np.ndarray:
    """The linear R, G, B (0-1, gamma 2.2 decoded) behind one :func:`shade_invariant` colour."""
    total = float(colour[2]) * 7.65 / cfg.lightness_weight
    red, green = float(colour[0]) / 100.0 * total, float(colour[1]) / 100.0 * total
    rgb = np.array([red, green, total - 3.0 - red - green], dtype=np.float64)
    return (np.clip(rgb, 0.0, 255.0) / 255.0) ** 2.2


def _light_gain(value: np.ndarray, model: np.ndarray, cfg: OcclusionConfig) -> np.ndarray:
    """The linear R, G, B light a frame segment gained over its model (both :func:`shade_invariant` colours)."""
    return _linear_rgb(value, cfg) - _linear_rgb(model, cfg)


def _is_white(gain: np.ndarray, balance: float) -> bool:
    """Whether a linear gain (:func:`_light_gain`) is near-white: every channel rose, the weakest by at least
    ``balance`` of the strongest."""
    return float(gain.max()) > 0.0 and float(gain.min()) >= balance * float(gain.max())


def _white_gain(value: np.ndarray, model: np.ndarray, cfg: OcclusionConfig) -> bool:
    """Whether a frame segment gained near-white light over its model (a glare or haze), by day.

    Light adds in linear light: a white or warm glare raises R, G and B alike (the weakest channel's gain at
    least ``glare_balance`` of the strongest), whatever the print's colour. A surface over the frame (skin,
    sleeve, card) replaces the print's colour by its own: some channel gains far less than another, or falls.
    Both a glare and a surface can bring the frame and its edge corner to one colour (:func:`_spilled`), so
    the one-colour test is only trusted where the gain is not white. A white card or sleeve gains white like a
    glare (known limit). ``value``, ``model``: :func:`shade_invariant` colours. Measurements:
    vision/notes/occlusion_band.md (o38).
    """
    return _is_white(_light_gain(value, model, cfg), cfg.glare_balance)


def _lit_past_readable_edge(
    lit: np.ndarray, edge_light: tuple[np.ndarray, Callable[[], np.ndarray]], cfg: OcclusionConfig
) -> np.ndarray:
    """Which spilled segments (:func:`_spilled`) beside a disturbed board are still light, by day: no tile on the
    board's edge beside them is disturbed (the unclear tile is an inner one), and their edge corner is lit
    (``lit``: :func:`_lit_at_night`'s test, the segment brighter than its model and the corner at least
    ``night_lit`` times the board's median) while keeping its seams in linear light between ``lit_lost`` and
    ``lit_edge`` of the median point.

    A coloured pool over the board's edge tints the frame and the edge corner alike, and its brightest part can
    make an inner tile near the edge unclear. An arm reaching that far crosses the board's edge on the way: a
    tile on the edge beside it is unclear or its corners foreign (``edge_light[0]``), and where it lies on the
    corner it hides the seams (under ``lit_lost``) or brings its outline (over ``lit_edge``; flat by day, as in
    :func:`vision.occlusion._lit_tiles`). At night :func:`_lit_at_night` excuses every lit segment.
    Measurements: vision/notes/occlusion_band.md.
    """
    candidates = lit & ~edge_light[0]
    if not candidates.any():
        return candidates
    strength = edge_light[1]()
    out = np.zeros(len(lit), dtype=bool)
    for index in np.flatnonzero(candidates):
        out[index] = cfg.lit_lost <= float(strength[_edge_corner(int(index))]) <= cfg.lit_edge
    return out


def _lit_apart(
    values: np.ndarray,
    expected: np.ndarray,
    flags: np.ndarray,
    colours: np.ndarray,
    foreign: np.ndarray,
    cfg: OcclusionConfig,
    seams: Callable[[], np.ndarray],
) -> np.ndarray:
    """Which flagged segments beside a foreign edge tile corner are lit, by day, by a coloured light over both:
    the segment brighter than its lighting model, the corner brighter than the board's median corner, its
    chromaticity shifted from the walls' toward the segment's (cosine over ``spill_cos``, as in
    :func:`_mixed_light`), the two still apart (the corner's chromaticity at least ``spill_apart`` of the
    segment's shift from its model away from the segment's), and the corner keeping its seams in linear light
    (``seams()``, measured only when a segment passes the rest: between ``lit_lost`` and ``lit_edge`` of the
    median point, as :func:`_lit_past_readable_edge` holds it). The tile area's four corner points are judged
    by colour alone: their patch holds one tile's corner and no seam between tiles to keep or hide.

    Light added over the frame and the tiles beside it (an LED's spot on an edge tile) moves both toward its
    colour but each from its own: the frame's print and the walls' keep colours of their own, so a corner it
    tints enough to be foreign (its seams flattened in log grey) stays apart from the segment, short of it or
    past it. A hand, a sleeve or a card over both brings one colour to both: the corner lands on the segment's
    colour (0.0-0.4 of the shift on the dev hands), and an object of two colours (a phone's rim over the frame,
    its screen over the corner) hides the seams. :func:`_spilled` holds only beside a corner that is not
    foreign. Measurements: vision/notes/occlusion_band.md.
    """
    ref = np.median(colours.reshape(-1, 3), axis=0)
    level = float(np.median(colours[..., 2]))
    out = np.zeros(len(flags), dtype=bool)
    for index in np.flatnonzero(flags):
        point = _edge_corner(int(index))
        if not foreign[point] or values[index, 2] <= expected[index, 2] or colours[point][2] <= level:
            continue
        band, corner = values[index, :2] - ref[:2], colours[point][:2] - ref[:2]
        cosine = float(corner @ band) / max(float(np.linalg.norm(corner) * np.linalg.norm(band)), 1e-6)
        apart = float(np.linalg.norm(corner - band))
        shift = float(np.linalg.norm(values[index, :2] - expected[index, :2]))
        out[index] = cosine > cfg.spill_cos and apart >= cfg.spill_apart * shift
    if out.any():
        strength = seams()
        for index in np.flatnonzero(out):
            point = _edge_corner(int(index))
            if point[0] in (0, SIZE) and point[1] in (0, SIZE):
                continue
            out[index] = cfg.lit_lost <= float(strength[point]) <= cfg.lit_edge
    return out


def _mixed_light(
    values: np.ndarray, flags: np.ndarray, colours: np.ndarray, foreign: np.ndarray, cfg: OcclusionConfig
) -> np.ndarray:
    """Which flagged segments beside a foreign edge tile corner are tinted, at night, by a coloured light over both.

    A coloured light (an LED's pool) adds the same light to the frame and to the tile corner
    beside it, but at night the walls shine with their glow far brighter than the dark frame,
    so it pulls the corner's chromaticity only part of the way toward the frame segment's: the
    corner's shift from the board's wall colour points toward the segment's colour (cosine over
    ``spill_cos``) and covers less than ``spill_mix`` of the way. A hand or a sleeve over both
    brings one colour to both: the corner goes all the way (measurements:
    vision/notes/occlusion_band.md). Night-only: by day walls and frame share the room's light,
    and the edge of an arm half over a corner patch looks the same.
    """
    ref = np.median(colours.reshape(-1, 3), axis=0)[:2]
    out = np.zeros(len(flags), dtype=bool)
    for index in np.flatnonzero(flags):
        point = _edge_corner(int(index))
        if not foreign[point]:
            continue
        band, corner = values[index, :2] - ref, colours[point][:2] - ref
        size2 = float(band @ band)
        along = float(corner @ band) / max(size2, 1e-6)
        cosine = float(corner @ band) / max(float(np.linalg.norm(corner)) * np.sqrt(size2), 1e-6)
        out[index] = cosine > cfg.spill_cos and along < cfg.spill_mix
    return out


def _lit_at_night(
    values: np.ndarray,
    expected: np.ndarray,
    flags: np.ndarray,
    colours: np.ndarray,
    foreign: np.ndarray,
    cfg: OcclusionConfig,
) -> np.ndarray:
    """Which flagged segments are lit, at night, by a light pool reaching over the board's edge.

    At night the tiles' glow is the board's light: a hand hides it, a lamp's or LED's pool adds
    to it. A pool over the edge brightens the frame segment (over its lighting model) and the
    tile corner on the edge beside it (over ``night_lit`` times the board's median corner
    lightness) while that corner keeps its seams (not foreign); its colour also makes the edge
    tile unclear, so, unlike :func:`_spilled`, this holds beside an unclear tile. The pool's
    colour shifts the dark frame and the glowing walls' chromaticities differently (an orange
    pool: cosine 0.61 on a clean fourth-renderer night), so no direction is compared: the light
    it adds is the sign. A hand at night over the frame and on over the corner makes it foreign
    or darker; a hand stopping short leaves the corner at the glow's own lightness.
    """
    light = colours[..., 2]
    ref = float(np.median(light))
    out = np.zeros(len(flags), dtype=bool)
    for index in np.flatnonzero(flags):
        point = _edge_corner(int(index))
        brighter = values[index, 2] > expected[index, 2]
        out[index] = brighter and not foreign[point] and float(light[point]) >= cfg.night_lit * ref
    return out


def _tinted_at_night(
    values: np.ndarray,
    expected: np.ndarray,
    flags: np.ndarray,
    colours: np.ndarray,
    foreign: np.ndarray,
    cfg: OcclusionConfig,
) -> np.ndarray:
    """Which flagged segments are lit, at night, by a coloured light whose tint reaches the edge tile corner.

    A coloured LED's spill over the edge adds light to the dark frame (the segment is brighter than
    its lighting model) and the same light to the glowing walls beside it. The glow outshines it,
    so the corner neither passes ``night_lit`` (:func:`_lit_at_night`) nor moves far (under
    ``spill_share`` of the segment's shift, :func:`_spilled`), but it moves the segment's way (cosine
    over ``spill_cos``, at least ``night_tint_share`` as far), keeps its seams (not foreign) and is no
    darker than the board's median corner: added light darkens nothing. A hand at night hides the
    glow (the corner darker, or foreign), or stops short (the corner keeps the walls' colour). Next to a
    flagged segment whose corner shows a hand hiding the glow (foreign and darker than the board's median
    corner, or darker than it by ``night_lit`` whatever its colour) the segment still counts: the LED lights
    the hand beside it as it lights the frame, with the same tint.
    Measurements: vision/notes/occlusion_band.md.
    """
    light = colours[..., 2]
    ref = np.median(colours.reshape(-1, 3), axis=0)
    out = np.zeros(len(flags), dtype=bool)
    hidden = np.zeros(len(flags), dtype=bool)
    for index in np.flatnonzero(flags):
        point = _edge_corner(int(index))
        hidden[index] = light[point] * cfg.night_lit < ref[2] or (foreign[point] and light[point] < ref[2])
        if foreign[point] or values[index, 2] <= expected[index, 2] or light[point] < ref[2]:
            continue
        band, corner = values[index, :2] - expected[index, :2], colours[point][:2] - ref[:2]
        size, moved = float(np.linalg.norm(band)), float(np.linalg.norm(corner))
        cosine = float(band @ corner) / max(size * moved, 1e-6)
        out[index] = cosine > cfg.spill_cos and moved >= cfg.night_tint_share * size
    return out & ~_beside(hidden)


def _beside(segments: np.ndarray) -> np.ndarray:
    """Segments (:func:`frame_band` order) next to one of ``segments`` on the same side of the frame."""
    sides = segments.reshape(4, 2 * SIZE)
    out = np.zeros_like(sides)
    out[:, 1:] |= sides[:, :-1]
    out[:, :-1] |= sides[:, 1:]
    return out.reshape(-1)


def _edge_corner(index: int) -> tuple[int, int]:
    """The tile corner on the board's edge nearest a frame segment (:func:`frame_band` order): 8x8 lattice index."""
    side, k = divmod(index, 2 * SIZE)
    j = min(SIZE, round((k + 0.5) / 2.0))
    return ((0, j), (j, SIZE), (SIZE, j), (j, 0))[side]


def beside_squares_unknown(flags: np.ndarray, squares: Iterable[Square]) -> np.ndarray:
    """``flags`` (:func:`frame_band` order) with the two segments beside each edge square of ``squares`` unknown.

    Used at night with the squares a pawn stands on. At night the pawn finder reports a pawn
    only when it is sure of it and gives a pile one box: what stands beside the box on an
    edge square (a second pawn of the pile, the pawn's lean over the frame in perspective, the
    light it throws on the frame) is not judged, as under the box itself (measurements:
    vision/notes/occlusion_band.md).
    """
    out = np.asarray(flags).reshape(4, 2 * SIZE).copy()
    last = SIZE - 1
    for r, c in squares:
        for side, on_edge, j in ((0, r == 0, c), (1, c == last, r), (2, r == last, c), (3, c == 0, r)):
            if on_edge:
                out[side, 2 * j : 2 * j + 2] = -1
    return out.reshape(-1)


def without_gates(flags: np.ndarray) -> np.ndarray:
    """``flags`` (:func:`frame_band` order) with the gate arrows' segments unknown.

    The lone band run (nothing disturbed inside) is judged on the plain frame only: judged
    among themselves, the gate arrows of clean glow nights add segments to a light's lone
    run (fourth-renderer nights made runs of 6 with them, 4 without).
    """
    out = np.asarray(flags).reshape(4, 2 * SIZE).copy()
    out[:, [k for k in range(2 * SIZE) if (k // 2) in (1, 3, 5)]] = -1
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


def _without_rims(foreign: np.ndarray) -> np.ndarray:
    """``foreign`` (8x8 lattice points) without the clusters that stay on the tile area's edge and run
    the whole length of a side: the board's rim (the frame's colour or a shadow in the edge patches, a
    dim edge), not fingers, which come in across the edge over a few tiles (measurements:
    vision/notes/occlusion_band.md).
    """
    if not foreign.any():
        return foreign
    count, labels = cv2.connectedComponents(foreign.astype(np.uint8), connectivity=4)
    out = foreign.copy()
    for i in range(1, count):
        cluster = labels == i
        if cluster[1:-1, 1:-1].any():
            continue
        if cluster[0].all() or cluster[-1].all() or cluster[:, 0].all() or cluster[:, -1].all():
            out &= ~cluster
    return out


def disturbed_inside(unclear: set[Square], foreign: np.ndarray | None = None) -> np.ndarray:
    """Per frame segment (frame_band order): does the board just inside it look disturbed?

    An arm or a held object that crosses the frame goes on over the edge tiles: an
    unclear tile in the two outer rows within a tile of the segment, or (``foreign``
    given) both outer corners of the edge tile beside it foreign on the tile-corner
    lattice - fingers over a tile whose openings still read. A shadow band, a glare,
    a pool of LED light, frame artwork or a striped cloth seen past a frameless
    board's edge change the band's colour while the board beside it reads clearly.
    """
    covered_edge = np.zeros((4, SIZE), dtype=bool)
    if foreign is not None:
        foreign = _without_rims(foreign)
        border = np.stack([foreign[0, :], foreign[:, SIZE], foreign[SIZE, :], foreign[:, 0]])
        covered_edge = border[:, :-1] & border[:, 1:]
    grid = np.zeros((SIZE, SIZE), dtype=bool)
    for r, c in unclear:
        if 0 <= r < SIZE and 0 <= c < SIZE:
            grid[r, c] = True
    # Per side, along it: an unclear tile in its two outer rows (top, right, bottom, left).
    rows = np.stack([grid[0] | grid[1], grid[:, -1] | grid[:, -2], grid[-1] | grid[-2], grid[:, 0] | grid[:, 1]])
    # Within a tile: the tile beside the segment's own or either neighbour (segment k lies by tile k // 2).
    spread = rows.copy()
    spread[:, 1:] |= rows[:, :-1]
    spread[:, :-1] |= rows[:, 1:]
    return np.repeat(spread | covered_edge, 2, axis=1).reshape(-1)


def finger_clusters(foreign: np.ndarray, flags: np.ndarray) -> int:
    """Foreign lattice points (8x8) in all the clusters from the tile area's edge that cross a foreign frame segment.

    A hand's splayed fingers cover the tile corners as several clusters, the gaps between
    the fingers keeping corners clear, and each finger crosses the printed frame where it
    comes in. Clusters that reach from the edge inside and whose edge corner has a foreign
    frame segment beside it (``flags`` in :func:`frame_band` order; a segment covers half a
    tile, a corner touches the two beside it) are parts of one arm: their sizes add up, and
    the sum must pass the same ``max_lattice_cluster`` a single cluster from the edge must pass
    (measurements: vision/notes/occlusion_band.md).
    """
    if not foreign.any() or not (flags == 1).any():
        return 0
    sides = np.asarray(flags).reshape(4, 2 * SIZE) == 1
    count, labels = cv2.connectedComponents(foreign.astype(np.uint8), connectivity=4)
    total = 0
    for i in range(1, count):
        cluster = labels == i
        if not cluster[1:-1, 1:-1].any():
            continue
        edges = (cluster[0], cluster[:, -1], cluster[-1], cluster[:, 0])  # top, right, bottom, left
        if any(
            sides[side, max(2 * p - 1, 0) : min(2 * p + 1, 2 * SIZE)].any()
            for side, line in enumerate(edges)
            for p in np.flatnonzero(line)
        ):
            total += int(cluster.sum())
    return total
