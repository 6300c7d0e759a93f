"""Occlusion thresholds and the measured signals they judge (shared by the occlusion modules).

Split out of :mod:`vision.occlusion` so the signal modules (frame band, tile-corner
lattice) and the decision can all read one configuration without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.board import Square


@dataclass(frozen=True)
class OcclusionConfig:
    """Occlusion thresholds with their documented defaults.

    Every rule below was measured on clean, hand-covered and object-laden frames of
    several renderers; the frames, figures and margins behind each default are in
    vision/notes/occlusion_config.md (this docstring's earlier text, verbatim).

    Frame checks: ``blank_std`` (grey standard deviation below which the frame shows
    nothing), ``dark_level`` (99th-percentile grey below which even a night frame is
    too dark), ``blur_ratio`` (sharpness below which openings cannot be read).

    Signals (see :class:`Signals`): ``lattice_patch`` (half-size of a lattice patch,
    tiles); ``foreign_distance``/``foreign_floor`` (a lattice point or frame segment is
    foreign beyond this many robust spreads of the frame's own variation, and at least
    the floor, in :func:`shade_invariant` units); ``band_inner``/``band_outer`` (the
    frame band checked for an arm, tiles outside the tile area: inside even a thin
    frame); ``lightness_weight`` (how much brightness counts next to chromaticity, see
    :func:`shade_invariant`); ``low_confidence`` (a tile reading below it is unclear).

    Decision by day, any of:

    * more than ``max_fixed_mismatch`` fixed tiles (not under a pawn) read wrong;
    * grid quality under ``min_quality``, unless at most ``max_fixed_mismatch`` fixed tiles
      are wrong by shade-free colour (a shadow band over a low-contrast board), or the quality
      passes without the fixed tiles washed out by light (``washed_clip``: that share of each
      corner's pixels clipped, seams kept; left out while ``min_unwashed_fixed`` fixed tiles
      remain), or every tile reads (none unclear, no fixed tile wrong: coloured pools over a
      low-contrast board, :func:`vision.occlusion._board_reads`);
    * a group of more than ``max_low_tiles`` unclear tiles touching each other (a hand hides
      neighbouring tiles; the artwork's unclear tiles are scattered) with something at the
      board's edge too (an arm comes in over the edge; a lamp's glare can wash out tiles in
      the middle);
    * a run of ``min_band_run`` foreign frame segments with an unclear edge tile beside it or,
      when the grid quality is under ``corroborating_quality``, an edge tile whose two outer
      corners are foreign (an arm crosses the frame *and* goes on over the tiles). The band
      alone decides only from ``min_band_alone`` segments: a corner's artwork or shadow, a
      pool of light, a striped cloth past a frameless board change its colour too, over
      fewer segments. ``judge_gates``: the gate-arrow segments are judged against a lighting
      model of their own and count for the run beside a disturbed tile only. By day, beside a
      doubtful lone run, ``min_band_flat`` foreign segments (gates judged) of one colour decide:
      each within ``band_flat_spread`` of the run's median shift from the print, the segment
      past each end back within ``band_flat_end`` of it (an opaque surface ends at its outline;
      a light's pool peaks and fades, :func:`vision.occlusion_band.one_colour_run`). By day
      ``min_band_fingers`` foreign segments going round the frame (gates judged; a hand over the board's
      corner lays fingers on two sides), each at most one segment from the next, whose colour goes on over
      the edge tile just inside (``finger_strip``, in tiles) within ``finger_cont`` of the segment's shift
      from the print (a finger's skin shades a little apart over the tile: 0.09-0.10 measured; light leaves
      the tile 0.39+ apart on dev frames, but a coloured light over a neutral frame and pale tiles tints both
      its way: 0.14 on a fresh clean frame, vision/notes/occlusion_band.md o47), and not gained near-white light
      (``glare_balance``), decide: fingers spread apart, one opaque surface over frame and tile; light
      keeps the tile's colour apart from the frame's, a haze that does not is near-white
      (:func:`vision.occlusion_band.finger_run`);
    * a cluster of more than ``max_lattice_cluster`` foreign tile corners touching and
      reaching the tile area's edge (fingers over tiles that still decode); clusters of
      fingers that each cross a foreign frame segment add up. ``min_bridged_seen``: a
      cluster is counted through the points a pawn hides when this many of its points lie
      outside every pawn (a pawn found on a hand cuts its corners apart);
    * from ``min_day_lattice_unclear`` foreign corners at an unclear tile, darker than the
      board's corners: two signals agreeing (more than an unreported pawn's two corners);
    * foreign corners on a group of at least ``min_marked_low`` unclear tiles touching
      (something with a colour of its own over the middle);
    * a flat group (see below).

    Not foreign, since light changes the board the way light does: glare on its line toward
    white (``glare_share``/``max_glare``/``strict_glare_share``); points that keep the tiles'
    seams (``seam_keep`` of the board's median seam strength over ``seam_patch`` tiles) or are
    clipped (``clip_level``); a lamp's haze fading out (``veil_fade``: every neighbour pulled at
    least that share toward white; a hand has an outline); a lit point keeping ``seam_keep`` to
    ``lit_edge`` of the median seams in linear light, times its lightness gain under a pool,
    unless a point of its cluster is under ``lit_lost`` (the cluster hides the seams somewhere:
    a surface; structure over ``lit_edge`` is an edge of its own, such as a finger's outline).
    A frame segment lit by light spilling over the edge (``spill_cos``/``spill_share``: the edge
    corner shifted the same way and keeping its seams) or, at night, tinted by a coloured light
    the glowing walls outshine (``spill_mix``; a corner kept, not foreign, moved at least
    ``night_tint_share`` of the way) is not an arm; nor, by day, one lit with its foreign edge corner
    when the two keep colours of their own (``spill_apart`` of the segment's shift between them: light
    added over both keeps them apart, one surface over both brings them together; by day the same test
    holds a spill beside an edge corner that is not foreign, unless the segment gained near-white light:
    every linear channel at least ``glare_balance`` of the strongest gain, a glare bringing both to its colour).
    By day a run of at least ``pool_len`` foreign segments round the frame (on round a corner) that all gained
    near-white light (every linear channel at least ``pool_balance`` of the strongest gain) and whose gain falls
    off at both ends to at most ``pool_ends`` of its peak is a lamp's pool, not an arm (an arm is opaque: a plateau).
    An unclear tile whose corners are all at least ``night_lit`` times the board's median corner
    lightness, none foreign, is washed out by light and backs no band run; on an edge tile lit only
    outside, the inner corners must keep ``lit_falloff`` of the outer ones' light (a pool fades, a lit
    hand ends at its outline).

    Flat groups, day and night: at least ``min_flat_cells`` half-tile cells whose structure
    (mean log-grey gradient) is under ``flat_level`` of the board's median cell, lying on an
    unclear tile, a foreign tile corner or (grid quality under ``seamless_quality``) a corner
    whose seams fell under ``seamless_level`` of the median: a card, cup or phone on the tiles
    (:mod:`vision.occlusion_flat`). Three cells, not four: a card's printed border and pips keep
    many of its cells structured. A group that fades out with every corner keeping its seams is
    a glare. ``min_dark_flat_cells`` flat cells darker than the board's darkest tenth decide
    alone wherever they lie (the coffee in a cup, a dark phone). ``night_flat_blur``: at night
    the cells are measured on log grey smoothed this much against the sensor's noise.

    At night: quality under ``night_min_quality``, more than ``night_max_low_tiles`` unclear
    tiles, a group of more than ``max_low_tiles`` touching whatever the edge shows, and the
    day's band-run rule (not the lone run: clean nights make runs of 4). The lattice cluster
    from the edge counts only when it holds a corner of an unclear tile and is darker than the
    board's corners: at night the walls' glow lights the board, a hand hides it, a lamp's or an
    LED's pool adds light, and noise makes bare clusters meaningless.
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
    night_min_quality: float = 0.85
    night_max_low_tiles: int = 8
    max_fixed_mismatch: int = 1
    glare_share: float = 0.5
    max_glare: float = 0.6
    strict_glare_share: float = 0.12
    max_lattice_cluster: int = 4
    min_band_alone: int = 6
    min_band_flat: int = 5
    band_flat_spread: float = 0.22
    band_flat_end: float = 0.3
    min_band_fingers: int = 3
    finger_cont: float = 0.12
    finger_strip: tuple[float, float] = (0.04, 0.16)
    seam_patch: float = 0.15
    seam_keep: float = 0.9
    clip_level: float = 252.0
    flat_level: float = 0.3
    min_flat_cells: int = 3
    night_flat_blur: float = 1.5
    seamless_level: float = 0.1
    seamless_quality: float = 0.97
    veil_fade: float = 0.3
    lit_lost: float = 0.5
    lit_edge: float = 3.0
    min_bridged_seen: int = 3
    min_day_lattice_unclear: int = 3
    spill_cos: float = 0.7
    spill_share: float = 0.25
    spill_mix: float = 0.5
    spill_apart: float = 0.6
    glare_balance: float = 0.35
    pool_len: int = 3
    pool_balance: float = 0.5
    pool_ends: float = 0.4
    night_tint_share: float = 0.1
    night_lit: float = 1.25
    lit_falloff: float = 0.5
    min_unwashed_fixed: int = 8
    washed_clip: float = 0.25
    min_dark_flat_cells: int = 2
    min_marked_low: int = 2
    judge_gates: bool = True

    def quality_bar(self, lighting: str) -> float:
        """The grid quality under which the frame counts as hidden or misread: ``night_min_quality`` at night."""
        return self.night_min_quality if lighting == "night" else self.min_quality


@dataclass(frozen=True)
class Signals:
    """What the frame says about something over the board (computed once, judged by :func:`decide`).

    ``band_run``: longest run of foreign frame segments beside a disturbed edge tile;
    ``lattice``: largest cluster of foreign lattice points (glare explained away; coloured
    light pools still make small ones, and at night noise makes it meaningless); ``quality``: grid
    quality; ``low_tiles``: unclear tiles not under a pawn; ``low_cluster``: the largest
    group of them touching (8-neighbours; at night without those a light made unclear, which a hand does not
    do: it hides the walls' glow); ``fixed_wrong``: fixed tiles (not under a pawn) read wrong;
    ``lattice_from_edge``: the largest cluster of foreign lattice points that reaches from the
    tile area's edge inside (a hand comes in over the edge; a light pool may sit anywhere, and a
    dark seam or rim shadow along the frame stays on the edge); ``band_alone``: the longest run of
    foreign frame segments whatever the board beside it shows; ``lattice_unclear``: the largest
    cluster like ``lattice_from_edge`` that also holds a corner of an unclear tile (the hand over
    the corners blurs the tile under them too; noise at night leaves the tiles readable) and is
    darker than the board's corners (a hand hides the walls' glow, a light pool adds light);
    ``flat_cells``: the largest group of half-tile cells without the tiles' structure lying on
    an unclear tile, a foreign tile corner or (grid quality under ``seamless_quality``) a tile
    corner whose seams are gone (something flat lying on the board); ``dark_flat``: the largest
    group of flat cells darker than the board's darkest tenth of cells, wherever it lies (measured when the
    flat cells are); ``marked_low``: the largest cluster of foreign lattice points on a group of at least
    ``min_marked_low`` unclear tiles touching (something with a colour of its own over the middle);
    ``shade_free_wrong``: measured only when the quality is under its bar (-1 otherwise), the fixed tiles
    not under a pawn with a known edge on the wrong side judged on the shadow-invariant chroma alone
    (:func:`vision.occlusion_fixed.shade_free_mismatch`); up to ``max_fixed_mismatch`` of them, the quality
    does not decide (a low-contrast board under a shadow band, not a hidden one); ``unwashed_quality``:
    measured only when the quality is under its bar (-1 otherwise or when no fixed tile read wrong is
    washed out by light), the quality without the washed-out fixed tiles read wrong
    (:func:`vision.occlusion._unwashed_quality`); at or over the bar, the quality does not decide;
    ``band_flat``: by day, measured only beside a doubtful lone run, the longest run of foreign frame segments
    (gates judged) one surface of one colour covers, ending at its outline
    (:func:`vision.occlusion_band.one_colour_run`); ``band_fingers``: by day, wherever the plain frame has a
    foreign segment, the most foreign segments going round the frame (gates judged) that go on over the edge tile
    in their own colour, each at most one segment from the next (:func:`vision.occlusion_band.finger_run`).
    """

    band_run: int
    lattice: int
    quality: float
    low_tiles: int
    fixed_wrong: tuple[Square, ...] = ()
    low_cluster: int = 0
    lattice_from_edge: int = 0
    band_alone: int = 0
    lattice_unclear: int = 0
    flat_cells: int = 0
    dark_flat: int = 0
    marked_low: int = 0
    shade_free_wrong: int = -1
    unwashed_quality: float = -1.0
    band_flat: int = 0
    band_fingers: int = 0
