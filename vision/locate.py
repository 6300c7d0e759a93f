"""Find the board: the image corners of the 7x7 tile area (TL, TR, BR, BL), without markers.

Nothing here assumes an edition's colours. The board is found by what every
Labyrinth board has:

1. **Lattice** — tile seams and corridor walls repeat every tile along the
   board's two axes. Two estimators propose tile lattice vectors: the
   gradient-angle histogram (modulo 90° for the rotation, then each axis on
   its own, since tilt skews them) with the 1-D autocorrelation of the signed
   gradient along each axis for the pitch; and the 2-D autocorrelation of the
   signed gradient, whose first peaks are the lattice vectors (checked on
   their multiples, so a half-tile echo loses). Table texture, cards and noise
   do not repeat and average out. A patterned tablecloth does repeat: when no
   board fits the photo's strongest lattices, the table is segmented out by
   where a comb filter along its lattice cancels the photo, and the estimators
   run again on what is left.
2. **Position** — where the gradient repeats at that pitch a 7x7 window is
   summed, which places the board to within a tile or two. The phase, which
   7x7 window of the periodic pattern is the board, and the two pitches come
   from the 16 fixed tiles: a corridor/wall discriminant learned on their 64
   known edges separates best at the true grid (a shift by one tile puts the
   fixed tiles on movable squares; half a tile puts corners where edges are).
3. **Polish** — the four corners move independently (a homography: tilt and
   perspective) to maximise that separation; a strongly tilted board is
   first pulled in with a wider-basin score (tile centres against grid
   crossings on a blurred copy).
   When the refinement (step 4) refutes that answer, second opinions are
   tried before "not found": grids of every pitch along the likeliest axes (a
   shadow's or picture's echo can win the pitch, a patterned table can pass a
   grid a third too large), then the lattice of contrast-normalised gradients
   (a shadow band's edge outweighs the seams of tiles in its shade); last of all,
   widened and polished receding grids (a strongly tilted board beside a checked
   cloth, ``LocateConfig.tilted_last``), then the work copy straightened through
   guessed strong lenses (``LocateConfig.lens_last``).
4. **Refinement** at full resolution — corridors run through the middle of
   every tile, so in a rectified view the centre line of each open corridor
   arm is the tile's centre line. About 120 arm centres are measured and a
   homography plus one radial lens-distortion term is fitted to them
   (robustly, iterated): corners to ~1-2 px on day photos, a wide lens
   included. A refined grid is a board when its fixed tiles separate
   (``min_separation``) and the model learned on them reads the other 33
   tiles as real tiles (``min_legal``: straights, corners and Ts; a patterned
   table's chance grid reads all alike) and the tiles' own corners as wall
   (``max_corner_side``: a closed side and a corner are the same wall; on a
   table grid the "open" edges look like the corners). :func:`locate_board` also returns the
   fitted lens, through which :func:`vision.rectify.rectify` straightens the
   tile lines.

Step 1 is :mod:`vision.locate_lattice`, steps 2–3 :mod:`vision.locate_grid`
(both on a block-averaged copy, ``work_px`` on the long side, for speed) and
step 4 :mod:`vision.locate_refine`.
Markers are not needed here: the board's own tiles are the target (optional
corner markers are :mod:`vision.markers`, which the reader tries when this
search finds no board). Row 0 is the board edge nearest the image top
(rotations up to ±30°).

The located corners are about as good as the label's: the reads that differ between
the two sit at the ordinary corner error (a few hundredths of a tile), with no bias in
scale or tilt and no lens pattern, and jittering the label's corners by less than that
error flips them just as often. Those reads are marginal in the tile and pawn readers,
not in the geometry; a better corner would not settle them. The lens term is kept in
the fit because refitting without it is worse on every renderer, even where
``min_bend`` drops the lens from rectification.

Measurements (located against label corners): vision/notes/locate.md.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice

import cv2
import numpy as np

from vision.lighting import is_night
from vision.locate_grid import Placed, cloth_answers, coarse_answers, quad_frame, swept_quad
from vision.locate_night import glow_quads
from vision.locate_refine import Refined, glare_free_separation, refine_corners, shade_free_separation
from vision.rectify import Lens, quad_homography

__all__ = [
    "BoardNotFoundError",
    "LocateConfig",
    "Located",
    "block_average",
    "find_board",
    "locate_board",
    "order_corners",
]


class BoardNotFoundError(Exception):
    """No board in the image (too small, blank, or nothing that looks like a 7x7 tile grid)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class LocateConfig:
    """Locator settings and why they have these defaults.

    * ``work_px``: about the long side of the block-averaged copy for the
      coarse search (an integer reduction of the photo: 1280-1456 px -> 3,
      1600-1640 -> 4, 2028 -> 5); a tile is then at least ~12 px even for a
      board filling 40 % of the frame (~6 px in the half-size gradient
      analysis, still enough to see its lattice). 420 rather than 512 makes
      the bench's 1640 px photo a 4x reduction (two fast halvings, and ~0.56x
      the pixels for every coarse step): ~9 ms less per read, the same grids.
    * ``min_tile_frac``/``max_tile_frac``: tile pitch range as a fraction of the
      image's short side (board from ~30 % to 100 % of the short side).
    * ``max_orientations``/``max_pitches``: how many rotation and pitch peaks the
      1-D lattice estimate proposes (more only cost time on hard photos).
    * ``refine_tile_px``/``refine_iterations``: the rectified scale and the
      most passes of the corridor-centre refinement (it stops once the corners
      move less than a hundredth of a tile: above the arms' pass-to-pass
      jitter (~0.005 tile) and ten times under an error that costs reads).
    * ``clear_separation``: a coarse hypothesis this good ends the search early.
    * ``coarse_separation``: a polished grid of the photo's own lattices this good is
      the search's first answer; the table, window and tilt stages follow when it is
      refuted or when there is none (a checked tablecloth's lattice placed a chance
      grid at 2.9, 9 tiles off; the table-masked lattices then found the board at 12).
    * ``keystone_hypotheses``: how many lattice hypotheses (likeliest first) get
      the costly receding-grid search (~0.13 s each) when no plain grid proves a
      board; on the tuning photos the tilted boards it rescued came from the
      first two, so only those get it.
    * ``notched_hypotheses``: when no lattice proves a board, the table's pattern
      (the strongest lattice that explains most of the photo) is masked out,
      and also comb-filtered out, and this many hypotheses of what remains are
      placed (bounds the extra time on a photo without a board, ~0.1-0.3 s).
    * ``polish_candidates``: how many of the best coarse placements are polished
      when the best one stays below ``clear_separation`` after its polish.
    * ``fallbacks``: when the refinement refutes the search's answer (the frame
      would be "not found"), second opinions are refined in turn and the best kept:
      a pitch sweep (below), then the lattice of contrast-normalised gradients (a
      shadow band's edge no longer outweighs the tiles' seams). Only such frames
      pay for them (~0.25 s more; the common path is unchanged).
    * ``second_opinion_separation``: the bar a second opinion's refined grid must
      clear. Its searches place ~20000 more grids, so chance reaches higher: a
      dotted table with the board cut away reached 2.6 there (when the bar was
      3.0); that grid read the tiles' corners as corridor, and since the corner
      tests (``max_corner_side`` here, and in the searches themselves) no grid
      that passes them reached 1.9, second opinions included: the same bar as
      the first answer's.
    * ``sweep_hypotheses``/``sweep_pitches``: the pitch sweep keeps the axes and
      centres of the refuted grid and of this many lattices (those whose grids the
      fixed tiles liked best) and places grids of this many pitches from 0.5x to
      1.6x their own (~4000 cheap grid scores per lattice); only the ``sweep_fine``
      best placements get the sub-tile step (it was 40 % of the sweep's grids).
    * ``finer_look``: when even the second opinions are refuted, the whole search runs
      once more on the next finer block average (factor - 1), its new grids refined against
      ``second_opinion_separation``. At the work scale a clean board can be missed (a
      grain's lattice taking the first pitch peaks, a strongly tilted board under a wide
      lens) and be found on the finer copy. Only refused frames pay, and only the lattice
      stages run there (the others found nothing more). It is skipped when two refined grids
      that read as a board's (legal tiles, wall corners) agree within a quarter tile
      (:func:`_converged`): a hand over the board - the finer copy places that grid again.
    * ``settled_stop``: the same test (:func:`_converged`) also ends a refused search before its
      costly last second opinions, the ended grids and the normalised lattice (~0.1-0.2 s each on
      the work copy): once the pitch sweep and the cheap runners-up are refuted too and two refined
      grids that read as a board's agree, only the board's separation refused it (a hand over the
      fixed tiles), and those stages place it again. Not earlier: a dotted cloth's grid half on
      the board also reads as a board's, and the first answer and the sweep (which starts from
      that grid) agree on it; the runners-up then find the board. The shade-free judge still sees the
      best grid. Only refused frames change (found frames take the same path).
    * ``agree_separation``: a refined grid counts toward that agreement (:func:`_converged`) only
      when its fixed tiles separate at least this much. A hand hides part of the fixed tiles, but
      the others still match, so the board's grid under a hand keeps a separation above chance;
      a wooden table's grain can instead give two lattice stages the same chance grid (fixed tiles
      not matching at all, separation under 1), and their agreement stopped the stages that place
      the board (a pale board under a shadow band on wood grain, found by the tilt search).
    * ``shade_free_judge``: when every search was refuted and the best refined grid reads as a
      board's (``min_legal``, ``max_corner_side``) but separates under ``min_separation``, its fixed
      tiles are judged once more with the shadow-invariant chroma features added
      (:func:`vision.locate_refine.shade_free_separation`), against the same bar. A shadow band
      or a low-contrast edition dims the lightness differences the plain features rely on.
    * ``glare_free_judge``/``glare_kept``: after the shade-free judge, the same best grid judged once more
      with the fixed tiles a glare pool washed out (half their pixels clipped white) left out of the
      separation, when at least ``glare_kept`` fixed tiles are left
      (:func:`vision.locate_refine.glare_free_separation`), against the same bar. Clipped tiles carry no
      wall/corridor difference: four of them under a third-renderer glare pool pulled a clean board's right
      grid to 2.02 (the other twelve: 3.25). A hand is not clipped white, so hand frames are judged as
      before. The reader's occlusion rule still judges what it locates: a heavy wash (20+ unclear tiles)
      stays "partly hidden", a milder one is read. Measurements: vision/notes/locate.md (l29).
    * ``half_phase``: when even the finer look is refuted and the refined grids do not agree
      (:func:`_converged`), the first answer's refined grid is tried again shifted half a tile
      along both board axes (four ways), each refined and judged by ``second_opinion_separation``.
      A coarse grid about half a tile off on both axes is a second attractor of the corridor-arm
      fit (a foreshortened board under a shadow band on a striped cloth). Only refused frames pay
      (four refinements); found frames take the same path.
    * ``tilted_last``/``tilted_hypotheses``/``tilted_scales``: the very last resort, after every stage,
      second opinion and judge refused the frame and the refined grids do not agree (:func:`_converged`):
      receding grids of the first ``tilted_hypotheses`` kept lattices, at their periodic and ended
      centres and at ``tilted_scales`` of their pitch, widened and polished
      (:func:`vision.locate_grid._tilted_grids`, :func:`vision.locate_place.tilted_search`), refined and
      judged by ``second_opinion_separation``; not asked when ``exclude`` is given (the reader's second
      look wants a found frame's other answers, not a last resort for frames nothing found).
      Why: a board tilted along both axes beside a checked cloth can have its lattices' periodic
      centres on the cloth and their mean pitch off the board's, so no coarse stage places a grid
      near enough for the refinement; widened and polished receding grids reach it. Only refused
      frames pay (~1 s CPU). A small board on a striped cloth is a lattice-stage gap (no hypothesis
      has the board's axes and pitch), not a placement one (see ``finest_look``).
      Measurements: vision/notes/locate.md.
    * ``finest_look``: after the tilted grids, when the refined grids still do not agree, the finer look
      once more on the block average two steps finer (factor - 2, only where that is still 2 or more:
      photos of 1470 px and wider): on a striped cloth the stripes' lattices can win at the
      coarser factors while the photo's first lattice is the board's two steps finer. Only
      refused, non-agreeing frames pay (~1 s).
    * ``cloth_last``/``oriented_rotations``/``oriented_floor``: after the finest look, when the refined grids
      still do not agree: the cloth answers (:func:`vision.locate_grid.cloth_answers`), each refined and judged
      by ``second_opinion_separation``, and a grid that reads as a board but separates under it once more with
      the shadow-invariant features (as ``shade_free_judge`` judges the best grid). First stage 2's grid of the
      lattices left once the cloth is masked out, answered even though the refuted cloth grid of stage 1 scored
      higher, and half a tile off along both axes (``half_phase``); then, for each rotation of the photo (up to
      ``oriented_rotations`` peaks of the gradient-angle histogram down to ``oriented_floor`` of the strongest,
      of the plain and of the contrast-normalised gradients), the lattices measured on the gradients aligned
      with that rotation's axes only (:mod:`vision.locate_oriented`), one answer per rotation; last, the rotations
      left once those rotations' axes are taken out of the normalised gradients
      (:func:`vision.locate_oriented.residual_rotations`), measured there.
      Why: a small or low-contrast board on a bold checked or striped cloth. The masked lattices can have the
      board's axes and pitch while their grid, half a tile off under a shadow band, scores under the cloth's
      chance grid and is never answered; and a cloth at another rotation takes every lattice estimate (the
      strongest rotations; along the board's own axes the whole photo's autocorrelation is the cloth's, with
      no peak at the tile pitch), and a bold cloth can hold the board's rotation under a tenth of its own peak.
      Only refused, non-agreeing frames pay (~0.4-0.7 s).
      Measurements: vision/notes/locate.md.
    * ``lens_last``/``lens_answers``: the last of all, after the cloth stage, when the refined grids still do
      not agree: the work copy straightened through each lens term of ``lens_last`` (this module's lens model,
      :class:`vision.rectify.Lens`), its first ``lens_answers`` coarse answers carried back into the photo
      through the same lens, each refined (whose first pass fits the lens afresh); the most separating of them
      is judged by ``second_opinion_separation``, not the first over the bar.
      Why: every coarse stage assumes straight tile lines. A strong wide lens (k 0.23-0.29) bends the board's
      outer lines by a good part of a tile against its centre's, no lattice fits the whole board and no stage
      places a grid within the refinement's reach, though the label's grid refines to separations of 3.7-10.8.
      On the straightened copy the lattices are the board's again. The answers are sensitive to the lens
      guessed (one of two lenses placed each frame seen), hence two guesses; and a guess near the board's
      can place a grid that refines onto a neighbouring attractor still above the bar (0.3 tile off,
      separation 2.6, against 10.8 for the right one), hence the best of all rather than the first.
      It also placed a moderately bent (k 0.07), keystoned big board on polka dots that nothing else placed:
      the guess need not be the board's lens, only nearer to it than none.
      Only refused, non-agreeing frames pay (~0.3-0.8 s CPU). Measurements: vision/notes/locate.md (l25).
    * ``fit_distortion``: fit one radial lens-distortion term with the homography.
    * ``refine_keep``: the refined grid is kept unless its fixed-tile separation
      falls below this share of the best refined pass *and* below ``min_separation``
      (then the arms misled it); a grid still separating as a board's is kept, as
      passes early in the refinement overstate (vision/notes/locate_refine.md).
    * ``min_legal``: a refined grid is a board only when the model learned on its
      fixed tiles reads at least this share of the 33 movable tiles as real tiles
      (2 or 3 open sides; :func:`vision.locate_refine.legal_share`). Boards
      measure 0.82-1.0 (held-out glare the lowest), the chance grids that
      passed the separation bar on patterned tables 0.0-0.12.
    * ``max_corner_side``: a refined grid is a board only when the tiles' corners
      score nearer its fixed tiles' closed sides than their open ones
      (:func:`vision.locate_refine.corner_side`: 0 = like a closed side, 1 = like an
      open one; the bar is the model's own midpoint). Boards measure -0.1..0.1 (day,
      night, all four renderers); table grids that separated by more than 1 measured
      0.6-1.6, among them one that passed every other check (separation 2.8, legal
      share 0.82, a held-out dotted table beside an occluded board).
    * ``min_bend``: :func:`locate_board` returns the fitted lens only when it moves
      some grid crossing at least this far (tiles) from the corners' homography.
      A weakly bent fit is mostly the arms' noise: rectifying through every fitted
      lens cost tiles and pawns on the third renderer's weakly bent lenses, while through
      the strong ones only it gains and costs nothing elsewhere (vision/notes/locate.md).
    * ``min_separation``: below this separation of the fixed tiles' known open
      and closed edges (in spreads) there is no board to speak of: the search
      maximises it over many candidate grids, so chance alone reaches ~2 on a
      table; real boards measure 5-20 by day, 4+ at night, 2.4-3 under a shadow
      band or glare on the held-out renderer. Of ~800 refined wrong grids (140
      table-only photos, the hand sets) those whose corners read as wall
      (``max_corner_side``) reached 1.88 at most; 2.2 (was 2.5 before that
      test) found four more clean boards on 560 day photos.
    """

    work_px: int = 420
    min_tile_frac: float = 0.035
    max_tile_frac: float = 0.145
    max_orientations: int = 2
    max_pitches: int = 2
    refine_tile_px: int = 24
    refine_iterations: int = 6
    min_separation: float = 2.2
    clear_separation: float = 2.2
    coarse_separation: float = 2.5
    polish_candidates: int = 12
    keystone_hypotheses: int = 2
    notched_hypotheses: int = 20
    refine_keep: float = 0.6
    sweep_hypotheses: int = 2
    sweep_pitches: int = 30
    sweep_fine: int = 12
    fallbacks: bool = True
    second_opinion_separation: float = 2.2
    finer_look: bool = True
    shade_free_judge: bool = True
    glare_free_judge: bool = True
    glare_kept: int = 10
    half_phase: bool = True
    min_legal: float = 0.5
    max_corner_side: float = 0.5
    min_bend: float = 0.05
    fit_distortion: bool = True
    settled_stop: bool = True
    agree_separation: float = 1.0
    tilted_last: bool = True
    tilted_hypotheses: int = 6
    tilted_scales: tuple[float, ...] = (0.92, 1.0, 1.08)
    finest_look: bool = True
    cloth_last: bool = True
    lens_last: tuple[float, ...] = (0.2, 0.3)
    lens_answers: int = 3
    oriented_rotations: int = 4
    oriented_floor: float = 0.1


DEFAULT_CONFIG = LocateConfig()


# --------------------------------------------------------------------------- helpers


def _to_bgr(image: np.ndarray) -> np.ndarray:
    if not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or image.size == 0:
        raise BoardNotFoundError("not an image")
    if image.dtype != np.uint8:
        img = np.nan_to_num(image.astype(np.float32), nan=0.0, posinf=0.0, neginf=0.0)
        hi = float(img.max())
        scale = 255.0 / hi if hi > 255 else (255.0 if 0 < hi <= 1.0 else 1.0)
        image = cv2.convertScaleAbs(img, alpha=scale)  # saturating: negatives come out as their magnitude
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 1:
        return cv2.cvtColor(image[:, :, 0], cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.shape[2] != 3:
        raise BoardNotFoundError(f"unsupported number of channels: {image.shape[2]}")
    return image


def order_corners(quad: np.ndarray) -> np.ndarray:
    """Reorder 4 corners to TL, TR, BR, BL: clockwise on screen, top edge the most horizontal, at the top."""
    q = np.asarray(quad, dtype=np.float64).reshape(4, 2)
    centre = q.mean(axis=0)
    angles = np.arctan2(q[:, 1] - centre[1], q[:, 0] - centre[0])
    q = q[np.argsort(angles)]  # increasing angle = clockwise on screen (y down)
    best, best_cost = q, np.inf
    for k in range(4):
        cand = np.roll(q, -k, axis=0)
        edge = cand[1] - cand[0]
        # top edge pointing right (+x) and lying above the centre
        cost = abs(np.arctan2(edge[1], edge[0]))
        if cost < best_cost:
            best, best_cost = cand, cost
    return best


def block_average(image: np.ndarray, factor: int) -> np.ndarray:
    """``image`` reduced by the integer ``factor`` (each output pixel the mean of a factor x factor block).

    Even factors go through halvings: OpenCV's INTER_AREA has a fast path for
    exactly 2x (a 1640x1232 photo: ~0.8 ms for 4x as two halvings, ~2.5 ms for
    3x in one go).
    """
    h, w = image.shape[:2]
    out = image[: h - h % factor, : w - w % factor]
    while factor > 1:
        step = 2 if factor % 2 == 0 else factor
        out = cv2.resize(out, (out.shape[1] // step, out.shape[0] // step), interpolation=cv2.INTER_AREA)
        factor //= step
    return out


# --------------------------------------------------------------------------- entry point


def find_board(image: np.ndarray, config: LocateConfig | None = None) -> np.ndarray:
    """Image corners (4x2 float32, TL TR BR BL) of the 7x7 tile area; row 0 is the edge nearest the image top.

    Raises :class:`BoardNotFoundError` when there is no recognisable board.
    """
    return locate_board(image, config).corners


@dataclass(frozen=True)
class Located:
    """A found board: ``corners`` as :func:`find_board` gives them and the ``lens`` fitted with them
    (:class:`vision.rectify.Lens` of this image; None when no distortion was fitted)."""

    corners: np.ndarray
    lens: Lens | None


def locate_board(image: np.ndarray, config: LocateConfig | None = None, exclude: np.ndarray | None = None) -> Located:
    """The board's corners and the lens they were fitted with (see :func:`find_board`).

    The corners are where the tile area's corners are in the photo; under a
    wide lens the tile lines between them bend, and rectifying through the
    ``lens`` straightens them (:func:`vision.rectify.rectify`).

    ``exclude``: corners (photo pixels) of an answer already read and refuted by a later stage (the
    reader's grid quality): every refined grid within a quarter tile of it at every corner counts as
    refuted, so the search goes on to its second opinions (the same grid at another pitch is more
    than that off at some corner and stays a candidate). Raises :class:`BoardNotFoundError` when no other
    grid proves a board.
    """
    cfg = config or DEFAULT_CONFIG
    bgr = _to_bgr(image)
    h, w = bgr.shape[:2]
    if min(h, w) < 64:
        raise BoardNotFoundError(f"image too small ({w}x{h})")
    # An integer reduction factor keeps INTER_AREA fast (a plain block average).
    factor = max(1, int(max(h, w) / cfg.work_px + 0.5))  # nearest, halves up (1280 px -> 3)
    work = block_average(bgr, factor)
    if float(cv2.meanStdDev(work)[1].max()) < 2.0:
        raise BoardNotFoundError("blank image")
    excluded = None if exclude is None else order_corners(np.asarray(exclude, dtype=np.float64))
    tried: list[np.ndarray] = []
    # Refined grids that read as a board's but for their separation, and separate above chance
    # (``LocateConfig.agree_separation``): the ones whose agreement means a board (:func:`_converged`).
    shapely: list[np.ndarray] = []
    best: Refined | None = None
    first: list[Refined] = []  # the first refined grid (the search's first answer)
    tilted: list[Iterator[tuple[float, np.ndarray]]] = []  # the work copy's receding grids (the last resort)

    def attempt(
        quad: np.ndarray | None, bar: float, reduced: tuple[int, np.ndarray], again: bool = True, shade: bool = False
    ) -> bool:
        """Refine a coarse grid (photo pixels); True once one clears ``bar`` and reads as a board (it is then
        ``best``, whatever the separation of grids refuted before it; until then ``best`` is the most
        separating). Unless ``again``, a grid within a quarter tile of one refined before is skipped.
        ``shade``: a grid that reads as a board but separates under ``bar`` is judged once more with the
        shadow-invariant features (as ``LocateConfig.shade_free_judge`` judges the best grid)."""
        nonlocal best
        if quad is None or (not again and any(np.abs(quad - seen).max() < 0.25 * _pitch(seen) for seen in tried)):
            return False
        tried.append(quad)
        refined = refine_corners(bgr, order_corners(quad), cfg, reduced)
        if not first:
            first.append(refined)
        if exclude is not None and _same_grid(order_corners(refined.corners), excluded):
            return False
        shaped = refined.legal >= cfg.min_legal and refined.corner_side < cfg.max_corner_side
        board = shaped and refined.separation >= bar
        if shaped and not board and shade and cfg.shade_free_judge:
            board = shade_free_separation(bgr, refined, cfg) >= bar
        if shaped and refined.separation >= cfg.agree_separation:
            shapely.append(order_corners(refined.corners))
        if board or best is None or refined.separation > best.separation:
            best = refined
        return board

    def search(work: np.ndarray, factor: int, bar: float, again: bool = True) -> bool:
        """The search's answers on the block average ``work`` (``factor``), cheapest stage first, until one
        is proven (``bar``); then - only once the refinement refuted them - second opinions, each judged by
        its refined separation against their bar (they try some 20000 more grids, so chance reaches
        higher): grids of other pitches along the likeliest axes (the refuted grid's own first), the grids
        the stages placed but never answered with (judged by ``bar``, as the stages' answers), then the
        lattice of contrast-normalised gradients; the last two (the costly ones) only while no two refined
        grids agree on a board (``LocateConfig.settled_stop``). ``again``: see :func:`attempt`; when False (the finer
        look) only the lattice stages run: stage 1 and the normalised lattice, no table masking, windows,
        tilt search or pitch sweep (they found nothing the work scale missed)."""
        scale = 1.0 / factor

        def settled() -> bool:
            """Two refined grids that read as a board's agree (:func:`_converged`): the board is there and
            only its separation refused it (a hand over the fixed tiles); the later stages would place it
            again (see ``LocateConfig.settled_stop``)."""
            return cfg.settled_stop and _converged(shapely)

        liked: list[Placed] = []
        later: list[Iterator[tuple[float, np.ndarray]]] = []
        found: tuple[float, np.ndarray] | None = None
        answers = coarse_answers(
            work, cfg, liked=liked, lattice_only=not again, later=later, tilted=tilted if again else None
        )
        for found in answers:
            if attempt(found[1] / scale, bar, (factor, work), again):
                return True
        if not cfg.fallbacks:
            return False
        if again:
            frames = ([quad_frame(found[1])] if found is not None else []) + liked
            swept = swept_quad(work, frames, cfg)
            if attempt(None if swept is None else swept[1] / scale, cfg.second_opinion_separation, (factor, work)):
                return True
            # The grids the stages placed but never answered with (a cloth's lattice outranked the board's).
            for k, runner in enumerate(later):  # the runners-up, then the ended grids (costly: ~0.1 s)
                if k and settled():
                    return False
                if any(attempt(quad / scale, bar, (factor, work)) for _, quad in runner):
                    return True
        if settled():
            return False
        second = next(coarse_answers(work, cfg, normalised=True), None)
        return attempt(
            None if second is None else second[1] / scale, cfg.second_opinion_separation, (factor, work), again
        )

    proven = search(work, factor, cfg.min_separation)
    if not proven and cfg.fallbacks and is_night(work):
        # A dark room: the glowing tile area's outline (locate_night), cheap, so before the finer look.
        proven = any(attempt(quad * factor, cfg.second_opinion_separation, (factor, work)) for quad in glow_quads(work))
    if not proven and cfg.fallbacks and cfg.finer_look and factor > 1 and not _converged(shapely):
        # A last look on the next finer block average (only refused frames pay): at the work
        # scale a board can still be missed - a small board's thin walls averaged away, the
        # grain of a wooden table taking the lattice estimate's first pitches, a tilted board's
        # far rows - where the finer copy's lattices place it (see LocateConfig.finer_look).
        proven = search(block_average(bgr, factor - 1), factor - 1, cfg.second_opinion_separation, again=False)
    if not proven and cfg.fallbacks and cfg.half_phase and first and not _converged(shapely):
        # The arm fit's other attractor: half a tile off along both axes (see LocateConfig.half_phase).
        reduced = (factor, work)
        proven = any(attempt(q, cfg.second_opinion_separation, reduced) for q in _half_shifted(first[0].corners))
    if not proven and cfg.fallbacks and cfg.shade_free_judge and best is not None and _shaped(best, cfg):
        # Refused by its separation alone: judged once more with shadow-invariant chroma (see
        # LocateConfig.shade_free_judge). Only refused frames pay (one view of the best grid).
        proven = shade_free_separation(bgr, best, cfg) >= cfg.min_separation
    if not proven and cfg.fallbacks and cfg.glare_free_judge and best is not None and _shaped(best, cfg):
        # Refused by its separation alone, with fixed tiles washed out by a glare pool: judged without them
        # (see LocateConfig.glare_free_judge). Only refused frames pay (one view of the best grid).
        proven = glare_free_separation(bgr, best, cfg) >= cfg.min_separation
    # The last resorts below are for frames nothing found; the reader's second look (``exclude``: a
    # found frame's other answers, checked by l18 without them) does not ask them.
    last_resort = exclude is None and not _converged(shapely)
    if not proven and cfg.fallbacks and cfg.tilted_last and tilted and last_resort:
        # A strongly tilted board beside a checked cloth (see LocateConfig.tilted_last).
        reduced = (factor, work)
        proven = any(attempt(q * factor, cfg.second_opinion_separation, reduced) for _, q in tilted[0])
    if (
        not proven
        and cfg.fallbacks
        and cfg.finest_look
        and factor - 2 >= 2
        and exclude is None
        and not _converged(shapely)
    ):
        # A small board on a striped cloth: its lattice shows only on a finer copy still
        # (see LocateConfig.finest_look).
        proven = search(block_average(bgr, factor - 2), factor - 2, cfg.second_opinion_separation, again=False)
    if not proven and cfg.fallbacks and cfg.cloth_last and exclude is None and not _converged(shapely):
        # A board on a patterned cloth (see LocateConfig.cloth_last).
        reduced = (factor, work)
        # Judged with the shadow-invariant features too: the cloth's boards met lie under shadow bands as
        # often as the others (which the shade-free judge saw as the best grid before this stage).
        proven = any(
            attempt(q, cfg.second_opinion_separation, reduced, shade=True) for q in _cloth_quads(work, factor, cfg)
        )
    if not proven and cfg.fallbacks and cfg.lens_last and exclude is None and not _converged(shapely):
        # A board under a strong wide lens (see LocateConfig.lens_last).
        # Every straightened answer is refined and the most separating one judged: a lens near the board's
        # places a grid that can refine onto a neighbouring attractor still above the bar (0.3 tile off, 2.6).
        before = best
        for q in _lens_quads(bgr, work, factor, cfg):
            attempt(q, math.inf, (factor, work))  # never proven here: ``best`` keeps the most separating grid
        proven = (
            best is not before
            and best is not None
            and _shaped(best, cfg)
            and best.separation >= cfg.second_opinion_separation
        )
    if best is None:
        raise BoardNotFoundError("no periodic tile grid found")
    corners, separation, legal, k, side = best
    if not proven:
        if separation >= cfg.min_separation and side >= cfg.max_corner_side:
            raise BoardNotFoundError(f"no board: the tiles' corners read as corridor (separation {separation:.2f})")
        if separation >= cfg.min_separation:
            reason = f"the other tiles are no tiles (legal share {legal:.2f}, separation {separation:.2f})"
            raise BoardNotFoundError(f"no board: {reason}")
        raise BoardNotFoundError(f"no board: fixed tiles do not match (separation {separation:.2f})")
    corners = order_corners(corners)
    lens = Lens.for_image(k, bgr.shape) if k != 0.0 else None
    if lens is not None and _bend(corners, lens) < cfg.min_bend:
        lens = None
    return Located(corners.astype(np.float32), lens)


def _cloth_quads(work: np.ndarray, factor: int, cfg: LocateConfig) -> Iterator[np.ndarray]:
    """The cloth answers (:func:`vision.locate_grid.cloth_answers`) in photo pixels; the first (the lattices
    left once the cloth is masked out) also half a tile off along both axes (:func:`_half_shifted`): its
    grid is placed by fixed tiles that a shadow band can dim, and half a tile off on both axes is the
    placement's other attractor (see ``LocateConfig.half_phase``)."""
    answers = cloth_answers(work, cfg)
    first = next(answers, None)
    if first is None:
        return
    yield first[1] * factor
    yield from _half_shifted(first[1] * factor)
    for _, quad in answers:
        yield quad * factor


def _lens_quads(bgr: np.ndarray, work: np.ndarray, factor: int, cfg: LocateConfig) -> Iterator[np.ndarray]:
    """The search's first answers on the work copy straightened through each lens of ``cfg.lens_last``,
    carried back into the photo (its corners through the same lens): the lattice stages assume straight
    tile lines, which a strong wide lens bends by a good part of a tile at the board's edge."""
    h, w = work.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
    ideal = np.stack([xs, ys], axis=-1)
    for k in cfg.lens_last:
        lens = Lens.for_image(k, work.shape)
        observed = lens.distort(ideal).astype(np.float32)
        straight = cv2.remap(work, observed, None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        photo_lens = Lens.for_image(k, bgr.shape)
        for _, quad in islice(coarse_answers(straight, cfg), cfg.lens_answers):
            yield photo_lens.distort(quad * factor)


def _shaped(refined: Refined, cfg: LocateConfig) -> bool:
    """Whether a refined grid reads as a board's but for its separation: legal tiles, wall corners."""
    return refined.legal >= cfg.min_legal and refined.corner_side < cfg.max_corner_side


def _converged(grids: list[np.ndarray]) -> bool:
    """Whether two refined grids that read as a board's (legal tiles, wall corners) lie within a quarter
    tile of each other: the search agrees where the board is, and only its separation refused it - a
    hand or an object over the fixed tiles, which a finer copy does not lift (it places the same grid)."""
    return any(
        np.abs(grids[i] - grids[j]).max() < 0.25 * _pitch(grids[i])
        for i in range(len(grids))
        for j in range(i + 1, len(grids))
    )


def _same_grid(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two ordered corner quads lie within a quarter tile of each other at every corner."""
    return bool(np.abs(np.asarray(a, dtype=np.float64) - b).max() < 0.25 * _pitch(b))


def _half_shifted(corners: np.ndarray) -> Iterator[np.ndarray]:
    """The grid of ``corners`` (photo pixels) shifted half a tile along both board axes, four ways
    (through its homography, so a foreshortened grid shifts by its own local pitch)."""
    board = np.array([[0.0, 0.0], [7.0, 0.0], [7.0, 7.0], [0.0, 7.0]])
    to_image = quad_homography(board, order_corners(np.asarray(corners, dtype=np.float64)))
    for dx, dy in ((-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)):
        yield cv2.perspectiveTransform((board + np.array([dx, dy])).reshape(1, -1, 2), to_image)[0]


def _pitch(quad: np.ndarray) -> float:
    """Mean side of a quad over 7: its tile pitch (same pixels as the quad)."""
    return float(np.mean(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1))) / 7.0


def _bend(corners: np.ndarray, lens: Lens) -> float:
    """How far (tiles) the lens moves the 64 grid crossings from where the corners' homography puts them."""
    board = np.stack(np.meshgrid(np.arange(8.0), np.arange(8.0)), axis=-1).reshape(1, -1, 2)
    target = np.array([[0.0, 0.0], [7.0, 0.0], [7.0, 7.0], [0.0, 7.0]])
    flat = cv2.perspectiveTransform(board, quad_homography(target, corners))[0]
    ideal = cv2.perspectiveTransform(board, quad_homography(target, lens.undistort(corners)))[0]
    pitch = float(np.mean(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1))) / 7.0
    return float(np.linalg.norm(lens.distort(ideal) - flat, axis=1).max()) / pitch
