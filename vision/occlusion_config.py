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
    At night: quality under ``night_min_quality``, more than ``night_max_low_tiles``
    unclear tiles, or a group of more than ``max_low_tiles`` touching whatever the
    edge shows (on 40 clean rendered nights of two renderers the largest group was 1
    tile; 29 of 30 hands at night made one of 3+, where the count and quality rules
    alone missed 10), and the day's band-run rule. On 243 clean nights of three
    renderers decided night the band run (beside a disturbed edge tile) was always
    0 and the quality at least 0.91, while 25 of 58 hands at night slipped through
    the night-only rules: with the band-run rule and quality 0.85 (was 0.8) 12 do,
    no clean night more flagged. The lone band run stays a day rule (clean nights
    make runs of 4), and at night the lattice cluster from the edge counts only when
    it holds a corner of an unclear tile (``lattice_unclear``): clean nights make
    clusters of 5 from the edge with every tile readable (alone it would have caught
    4 more hands and flagged 2 clean nights); with an unclear tile it catches 3 of
    those 4 (the fourth's unclear tile lies away from its cluster) and no clean
    night: on 242 clean nights no such cluster touched an unclear tile at all, while
    36 of 58 hands made one of 3 corners or more. Such a cluster must also be darker
    (median grey) than the board's corners: at night the walls' glow lights the
    board, a hand hides it, a lamp's or an LED's pool adds light (an outside
    renderer's clean night was called "5 tile corners covered"; on three renderers
    every hand's cluster of 3+ around an unclear tile was darker but one, caught by
    the band run anyway, and the two clean nights' clusters around an unclear tile,
    in the middle, were 1.3-1.5x brighter).
    By day that darker cluster at an unclear tile decides from ``min_day_lattice_unclear``
    corners (more than an unreported pawn's two, leaning over an edge tile): the unclear
    tile and the foreign corners are two signals agreeing where the bare cluster needs
    more than ``max_lattice_cluster``. Spent final8 ho_occ 0006, a pale hand over the
    right edge of a pale board, its skin the brown frame's hue (the shade-free band sees
    nothing): one tile unclear (0.27) under a darker cluster of 3. On 2,424 clean cached
    day frames of six renderers no foreign cluster from the edge touched an unclear tile.
    ``max_fixed_mismatch``: fixed tiles (not under a pawn) read wrong before the
    frame is called unreadable.
    Day and night, a group of at least ``min_flat_cells`` half-tile cells whose
    structure (mean log-grey gradient) is under ``flat_level`` of the board's median
    cell, lying on an unclear tile or a foreign tile corner: a card, cup or phone on
    the tiles (:mod:`vision.occlusion_flat`). Measured with the labelled corners on
    765 clean frames of three renderers (day and night, /tmp/dev and seeds
    1040000-1042929, 1060000-1065019): groups lying on an unclear tile or a foreign
    corner made at most 1 cell once the glare's halo is left out (groups of 12 flat
    cells without them: glare); on 420 frames with a card, cup or phone pasted over
    the tiles (tests/support/board_objects.py) 376 made one, 215 caught by no other
    rule (recognised 169 -> 384). Glare flattens cells too but leaves the tiles readable.
    Three cells (three quarters of a tile), not four: a card's printed border and pips
    and its edges keep many of its cells structured. With label corners on 673 clean
    frames of four renderers (/tmp/dev and seeds 1330000-1338529, day and night) the
    groups were 0 cells but for one clean board already flagged (a hazy corner, 5);
    cards pasted on 495 frames of four renderers (grey, light grey, white; seeds
    from the path) recognised 375 -> 395, one more hand (3 cells) caught.
    A flat group with no foreign tile corner on its tiles that fades out (every cell around it
    brighter than the board's median cell and less structured) and whose tile corners all keep
    ``seam_keep`` of the median seam strength in linear light is a lamp's glare, not a surface
    (:func:`vision.occlusion_flat._fading`, :func:`vision.occlusion_lattice.light_seams`): spent
    fo_day 0034, a glare over a clean fourth-renderer board's left edge, read "something lying on
    the board (5 half tiles)". Of 48 groups without a foreign corner on 1016 clean and 599 occluded
    or object-laden frames (five renderers) only that glare met all three; of the hands' and objects'
    groups none faded, one card kept its seams.
    ``night_flat_blur``: at night the flat cells are measured on log grey smoothed
    with this sigma (rectified pixels): the high gain's noise made a dark cup over
    the glowing walls look structured (see :mod:`vision.occlusion_flat`).
    ``seamless_level``: a tile corner whose seam strength (:func:`lattice_structure`) is
    under this share of the board's median point, not clipped and not under a pawn, marks
    a flat group as a foreign corner does (:func:`vision.occlusion.seamless_corners`): a
    cup or a pale hand whose colour passes for the walls' hides the seams where four tiles
    meet (dev th_occ 0007, a hand and a cup over the top row, was read as a board with 4
    tiles wrong once the locator found it). Measured only when the grid quality is under
    ``seamless_quality`` (a fixed tile half mismatched; the bench frame and most clean
    frames are above, so the common path pays nothing). On 765 located and labelled frames
    (all /tmp/dev sets, day, night, occluded, and seeds 1365000-1365323 at occluded
    fraction 0.8) the three hands it adds made points of 0.01-0.08; a lamp's haze over a third-
    renderer board (dev th_day 0029), not clipped, took its points to 0.13-0.18 and made 12
    flat cells: 0.15 or 0.2 would have flagged it, 0.1 flags no clean frame.
    ``veil_fade``: a cluster of foreign tile corners, brighter and pulled toward white, whose
    every neighbouring point is brighter and pulled at least this share of the way toward white
    too is a lamp's haze fading out, not a hand (:func:`vision.occlusion_lattice._veil_cores`):
    a warm lamp's veil lies off the line toward pure white like a pale hand, but a hand has an
    outline. Measured (located corners) on the four /tmp/dev occluded sets: the hands' clusters
    from the edge always had a neighbour pulled at most 0.08; n4's clean third-renderer day 0020
    (a hazy corner, "6 tile corners covered") had all its neighbours at 0.53-0.68, and another
    clean hazy cluster (not from the edge, not flagged) 0.27: 0.3 lies between.
    ``lit_lost``/``lit_edge``: a foreign tile corner brighter than the board's median point that keeps
    ``seam_keep`` to ``lit_edge`` of the median seam strength in linear light (measured over its colour
    patch, band-passed 1-2 px) is lit by a lamp, not covered (:func:`vision.occlusion_lattice._lit_seams`),
    unless a point of its cluster is under ``lit_lost`` (the cluster hides the seams somewhere: a
    surface). Light added leaves the seams as they were; structure over ``lit_edge`` is an edge of
    its own (skin the size of a tile corner whose outline crosses the patch: 5-13x). The sixth
    renderer's lamps are of any colour: a cool glare took grey walls past white toward cyan, a warm
    one toward orange, beyond what the glare line and the veil rule excuse (5 of 100 clean
    sixth-renderer day frames and 1 of the 17 clean frames of its occluded sets flagged, "6 tile
    corners covered from its edge", "something lying on the board", "2-4 frame segments hidden");
    their points kept 0.72-1.95 (most over 0.9). Bright outlined skin keeps 1-2.7 at some points
    too (o9 fo_occ 0004, a hand lost without the veto), but the same cluster had a point at 0.19;
    the lowest point of a glare's cluster was 0.65 (an LED pool beside it): 0.3 and 0.5 give the
    same result, 0.7 keeps that glare flagged. With the full reader's inputs (its own corners) on
    1133 clean, 357 occluded and 385 object-laden frames of six renderers: clean flagged 10 -> 4,
    hands and objects missed 55 -> 55. A glare-coloured point lit by a pool of light (illumination
    multiplies the tiles' light) passes ``lit_edge`` in proportion to its light: its bounds are then
    ``seam_keep`` to ``lit_edge`` times its lightness gain (:func:`vision.occlusion_lattice._light_multiplied`).
    ``min_bridged_seen``: a from-edge cluster is also counted through the points a pawn hides
    when at least this many of its points lie outside every pawn (a pawn found on a hand cut its
    corners apart; :func:`vision.occlusion._bridged_cluster`). On 348 clean frames no pawn-hidden
    foreign point joined a from-edge cluster at all.
    ``spill_cos``/``spill_share``: a foreign frame segment beside readable tiles whose edge tile
    corner is shifted the same way (cosine over ``spill_cos``, at least ``spill_share`` as far) and
    keeps its seams is a light spilling over the edge, not an arm
    (:func:`vision.occlusion_band._spilled`): glow nights read as day met the lone-band rule with
    LED spills (dev fo_night 0003 judged by day rules: 6 segments -> 1; fresh fourth nights
    2144100-2144139 by day rules: 0027 flagged 6 -> none); no hand lost (520 frames, 21 sets).
    ``spill_mix``: at night a flagged frame segment beside a foreign edge tile corner is tinted by a
    coloured light, not covered, when the corner's colour moved toward the segment's (cosine over
    ``spill_cos``) but less than this share of the way (:func:`vision.occlusion_band._mixed_light`):
    the light is the same, but the glowing walls outshine the dark frame. A red LED pool over the
    bottom edge of a clean held-out night (spent ho_night 0012, "2 frame segments hidden") moved its
    corners 0.16-0.20 of the way; the foreign edge corners of 46 night hands (five renderers) beside
    their runs lay 0.54-3.6 of the way. On all sets measured no hand lost, no run of a night hand
    shortened.
    ``night_lit``: at night a flagged frame segment is lit, not covered, when it is brighter than its
    lighting model and the edge tile corner beside it keeps its seams and is at least this many times
    the board's median corner lightness (:func:`vision.occlusion_band._lit_at_night`): a light pool
    adds to the glow, a hand hides it; beside an unclear tile too, since the pool's colour makes the
    edge tile unclear. Clean fourth-renderer nights (seeds of /tmp/n6 fo_night 0000 and 0016: an orange
    and a red LED pool over the edge, "2/3 frame segments hidden") had such corners at 1.29-1.42; on 83
    night hands (five renderers, seeds 2190000-2190419, occluded fraction 0.8) the uncovered corners
    beside a flagged segment with an unclear tile reached 1.22 (a fifth-renderer hand) and 1.27 with
    the segment darker than its model (a team-renderer hand): 1.25 lies between. Night-only: by day
    the glow is not the board's light, and nothing changes there. Day and night, an unclear tile none of
    whose corners is foreign and all of them at least ``night_lit`` times the board's median corner
    lightness is washed out by light and backs no frame-band run (:func:`vision.occlusion._lit_tiles`):
    a lamp's glare over a fresh third-renderer board's left edge (seeds 2606300-29, day 0029: "2 frame
    segments hidden", its tile's corners 2.5x the median) lit the band and the tile beside it. On 1016
    clean and 314 occluded frames of five renderers plus 285 with an object laid on (/tmp/dev, the spent
    final5 sets, fresh seeds 2600000-2609714, the night-hand sets /tmp/o8 and /tmp/n4) no hand or
    object was lost; four hands had such a tile (1.4-1.9x) and were caught by other rules. Nor may a
    corner of the tile keep over ``lit_edge`` of the median seam strength in linear light: light added
    leaves the seams as they were, a pale hand brings its fingers' outlines (fresh seeds 2731021 team and
    2732036 third: hands over the bottom and left edges, corners 2.4-4.2x the median lightness with
    seams to 4.33 and 3.08, lost to this rule and to ``_lit_seams``; every clean frame's lit tile kept
    1.12-2.88 over o9's, o10's and o12's cached sets).
    ``lit_falloff``: an edge tile lit only on its outer corners (at least ``night_lit`` of the board's)
    counts as lit when each inner corner keeps at least this share of the outer corner beside it: a
    light pool fades over the tile, a lit hand ends at its outline (:func:`vision.occlusion._lit_tiles`).
    Glare frames 0.60-0.75, deciding hands 0.22-0.37 (5,963 cached frames, six renderers).
    ``washed_clip``/``min_unwashed_fixed``: when the grid quality fails and no tile corner is foreign,
    a fixed tile whose four corners each have at least ``washed_clip`` of their pixels clipped and keep
    their seams (``lit_lost`` to ``lit_edge``) is washed out by light; read wrong, it is left out of the
    quality, if at least ``min_unwashed_fixed`` fixed tiles remain (:func:`vision.occlusion._unwashed_quality`;
    spent final11 th_day 0013: 0.83 -> 0.92, no other decision changed on the cached frames).
    ``min_dark_flat_cells``: a group of at least this many flat half-tile cells darker than the
    board's darkest tenth of cells decides alone, wherever it lies (:func:`vision.occlusion_flat._darker`:
    the coffee in a cup seen from above, a dark phone). Measured only where the flat cells already are
    (an unclear tile, a foreign corner or a grid quality under ``seamless_quality``): on 508 clean
    located frames of five renderers no flat cell was that dark; two cups over the middle of
    fourth-renderer boards (their tiles still read) made 2.
    ``judge_gates``: the frame band's gate-arrow segments (half the band) are judged against a
    lighting model of their own (all gates carry the same print) instead of being unknown; they
    count for the band run beside a disturbed edge tile only, never for the lone run (clean glow
    nights made lone runs of 6 with them; see :func:`vision.occlusion_band.without_gates`). Fresh
    third-renderer hands caught by it: a hand holding a card over the left gates (th_occ 0004 of
    seeds 2143000-19) and dark fingertips over the top gates (th_occ8 0003 of 2148000-19). On 451
    clean frames the band run stayed 0 but for one frame already flagged.
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
    group of them touching (8-neighbours); ``fixed_wrong``: fixed tiles (not under a pawn) read wrong;
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
    (:func:`vision.occlusion._unwashed_quality`); at or over the bar, the quality does not decide.
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
