"""Coarse board search for :mod:`vision.locate`: the 7x7 window and a homography for each tile lattice.

Works on a block-averaged copy of the photo (``work``). Lattice hypotheses
come from :mod:`vision.locate_lattice` (at half the work resolution); each is placed on the
board (:mod:`vision.locate_place`) by the 16 fixed tiles' known openings (the separation d' of their 44
open and 20 closed edges) and, when perspective defeats that narrow-basin
score, first by a wide-basin one (tile centres against grid crossings). The
winner is polished as a free homography. When the refinement refutes that
answer, :func:`swept_quad` (grids of every pitch along the likeliest axes) and
``coarse_answers(..., normalised=True)`` (the lattice of contrast-normalised
gradients) give second opinions. The grid scores are :mod:`vision.locate_score`.
See :mod:`vision.locate` for the whole pipeline.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.locate_centre import ended_centre, periodic_centre
from vision.locate_lattice import Frame, lattice_frame, lattice_hypotheses, notched_hypotheses, window_lattices
from vision.locate_oriented import oriented_hypotheses, oriented_rotations, residual_rotations
from vision.locate_place import (
    blurred,
    keystone_search,
    place_grid,
    polish,
    search_fine,
    search_windows,
    tilted_search,
)
from vision.locate_score import BOARD_CORNERS, separation

if TYPE_CHECKING:
    from vision.locate import LocateConfig

__all__ = ["BOARD_CORNERS", "Placed", "coarse_answers", "quad_frame", "swept_quad"]


def _contrast_normalised(gx: np.ndarray, gy: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The gradients divided by their local RMS over ``size`` pixels (about the largest tile).

    A shadow band's edge, a lamp's bright pool or a table's hard border is one
    strong step: in the raw gradients it outweighs the faint seams of tiles in
    the shade and pulls the orientation histogram and the autocorrelation
    toward itself. Normalised, every neighbourhood counts alike, so the tiles
    in the shade repeat as loudly as those in the light (a small floor keeps
    flat table areas from being blown up into noise).
    """
    size = max(3, size) | 1
    energy = cv2.blur(gx * gx + gy * gy, (size, size))
    scale = 1.0 / np.sqrt(energy + 0.05 * float(energy.mean()) + 1e-6)
    return gx * scale, gy * scale


#: How many runner-up grids :func:`_runners_up` may still answer once every stage's answer was refuted.
_RUNNERS_UP = 2

#: A lattice placed in the work image: canonical -> work affine (2x3), periodic centre and pitch (canonical).
Placed = tuple[np.ndarray, np.ndarray, float]


def _half_gradients(work: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The work image at half size and its gradients (x, y), where the lattice analysis runs."""
    half = cv2.resize(work[: work.shape[0] // 2 * 2, : work.shape[1] // 2 * 2], None, fx=0.5, fy=0.5,
                      interpolation=cv2.INTER_AREA)  # fmt: skip
    grey = cv2.GaussianBlur(cv2.cvtColor(half, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0), 0.7)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    return half, gx, gy


def cloth_answers(work: np.ndarray, cfg: LocateConfig) -> Iterator[tuple[float, np.ndarray]]:
    """Answers for a board on a patterned cloth: first stage 2's best polished grid of the lattices left once
    the cloth is masked out, answered even though stage 1's refuted cloth grid scored higher (a board under
    a shadow band, its grid half a tile off: see :func:`vision.locate.locate_board`); then one per rotation
    of the photo (:func:`vision.locate_oriented.oriented_rotations`), strongest first: the best polished
    grid of the lattices measured on the gradients aligned with that rotation.

    One per rotation, not the best over all: the cloth's own rotation places chance grids too (refuted
    before), and one of those must not hide the board's. Last, one per rotation left once those rotations'
    axes are taken out of the contrast-normalised gradients (:func:`vision.locate_oriented.residual_rotations`:
    a small board beside a bold cloth can lie under a tenth of the cloth's peak), its lattices measured on
    those normalised gradients.
    """
    yield from coarse_answers(work, cfg, notched=True)
    half, gx, gy = _half_gradients(work)
    hi = cfg.max_tile_frac * min(half.shape[:2])
    normalised = _contrast_normalised(gx, gy, round(hi))
    rotations = oriented_rotations(gx, gy, normalised, cfg)
    for theta in rotations:
        yield from coarse_answers(work, cfg, oriented=theta)
    # The rotations a bold cloth hid (its axes taken out), measured as they were found: normalised.
    for theta in residual_rotations(normalised, rotations, cfg):
        yield from coarse_answers(work, cfg, oriented=theta, normalised=True)


def coarse_answers(
    work: np.ndarray,
    cfg: LocateConfig,
    normalised: bool = False,
    oriented: float | None = None,
    notched: bool = False,
    liked: list[Placed] | None = None,
    lattice_only: bool = False,
    later: list[Iterator[tuple[float, np.ndarray]]] | None = None,
    tilted: list[Iterator[tuple[float, np.ndarray]]] | None = None,
) -> Iterator[tuple[float, np.ndarray]]:
    """Tile-area quads (work pixels, TL TR BR BL) with their d': each search stage's best, cheapest first.

    :func:`vision.locate.find_board` refines each answer and stops asking at the
    first it proves. The stages:

    1. the photo's own lattice hypotheses (orientation, pitch, each re-measured
       where it repeats best); only a grid clearing ``coarse_separation`` is an
       answer here, and when the refinement proves it the search ends (a
       checked tablecloth's lattice can clear that bar and be refuted: then the
       stages below still run);
    2. the lattices left once a patterned table is masked out;
    3. lattices measured in windows of the photo (a small board on a pattern);
    4. the receding-grid search of a strongly tilted board (~100 ms).

    Stages 2-4 answer only with a grid better than all before, a refuted
    stage-1 answer included (the last always answers when nothing did before,
    so the refinement judges the best there is). Tables
    before tilt: on a patterned table stage 2 finds the board in ~25 ms and
    the tilt search nothing, while on a plain table stage 2 ends at once.

    The gradient analysis (lattice, periodic centre) runs at half the work
    resolution, where a tile is still 7+ pixels; the fixed tiles are then
    sampled at full work resolution. ``oriented``: a rotation (radians); only stage 1 runs, on
    :func:`vision.locate_oriented.oriented_hypotheses` (see :func:`cloth_answers`); ``notched``: the
    same on stage 2's table-masked lattices, answered whatever stage 1 scored.
    ``normalised``: the lattice is sought in
    contrast-normalised gradients (:func:`_contrast_normalised`), and only
    stage 1 (with the window lattices) runs: the second opinion
    :func:`vision.locate.find_board` asks for when the plain gradients led to
    no board. ``liked``: when given, receives the lattices whose grids the
    fixed tiles liked best (for :func:`swept_quad`). ``later``: when given, receives (once
    every stage answered) the lazy :func:`_runners_up` of this search, for the caller to ask
    after its pitch sweep. ``tilted``: when given, receives the lazy :func:`_tilted_grids` (the caller's
    very last resort). ``lattice_only``: stage 1 alone
    (the finer look of :func:`vision.locate.locate_board`: the stage that can miss at the
    work scale is the lattice estimate's pitch peaks; the later stages found nothing there).
    """
    half, gx, gy = _half_gradients(work)
    lab = cv2.cvtColor(work, cv2.COLOR_BGR2Lab).astype(np.float32)
    short = min(half.shape[:2])
    lo, hi = cfg.min_tile_frac * short, cfg.max_tile_frac * short
    if normalised:
        gx, gy = _contrast_normalised(gx, gy, round(hi))
    blurs: dict[int, np.ndarray] = {}
    found: list[tuple[float, np.ndarray, float]] = []
    placed: list[Placed | None] = []  # found[i] is placed[i]'s grid; None: a table-masked lattice or a tilt search
    polished: dict[int, tuple[float, np.ndarray]] = {}
    frames: dict[int, Frame] = {}  # found[i]'s lattice frame (kept lattices only), for :func:`_ended_grids`

    def place(
        hypotheses: Iterable[tuple[np.ndarray, np.ndarray, Frame | None]], limit: int | None = None, keep: bool = True
    ) -> None:
        """Place each hypothesis' grid (into ``found``), until a clear one or ``limit`` hypotheses."""
        for k, (a_vec, b_vec, frame) in enumerate(hypotheses):
            if limit is not None and k >= limit:
                break
            if frame is None:
                frame = lattice_frame(gx, gy, a_vec, b_vec, half.shape[:2])
            at = _in_work_pixels(a_vec, b_vec, frame)
            if at is None:
                continue
            score, quad = place_grid(lab, blurs, *at, cfg.clear_separation)
            if keep:
                frames[len(found)] = frame
            placed.append(at if keep else None)
            found.append((score, quad, at[2]))
            if score > cfg.clear_separation:
                break  # a clear board: the other lattice hypotheses are harmonics or clutter

    def like() -> None:
        """The lattices (not table-masked ones) whose grids the fixed tiles liked best, into ``liked``."""
        if liked is not None:
            order = sorted((i for i in range(len(placed)) if placed[i] is not None), key=lambda i: -found[i][0])
            liked[:] = [placed[i] for i in order[: cfg.sweep_hypotheses]]  # type: ignore[misc]

    if notched:
        place(notched_hypotheses(gx, gy, lo, hi, cfg), cfg.notched_hypotheses)
    elif oriented is not None:
        place(oriented_hypotheses(gx, gy, lo, hi, oriented))
    else:
        place(lattice_hypotheses(gx, gy, lo, hi, cfg, windows=normalised))
    if not found:
        return
    like()
    best = _best_polished(lab, blurs, found, polished, cfg)
    # The second opinions (``normalised``, ``oriented``, ``notched``) are about shadows and cloths: the other
    # stages already ran in the first.
    if normalised or notched or oriented is not None:
        yield best
        return
    likeliest = [at for at in placed[: cfg.keystone_hypotheses] if at is not None]
    answered: tuple[float, np.ndarray] | None = None  # the last answer given
    given: list[np.ndarray] = []  # every answer's quad (all refuted once the generator resumes)
    # A polished grid is free to chase chance (~2 on a bare table), so only the board
    # threshold itself makes it an answer here. A checked tablecloth's lattice can clear
    # it (its chance grid reads the cloth's squares as tiles) and be refuted: the later
    # stages then still run, the table's lattice masked out first, and their grids
    # answer only when the fixed tiles like them better than that refuted one.
    if best[0] > cfg.coarse_separation:
        answered = best
        given.append(best[1])
        yield best
    if lattice_only:
        return

    def better(best: tuple[float, np.ndarray]) -> bool:
        """A grid better than the last answer (and than stage 1's, which was no answer)."""
        return best[0] > (first[0] if answered is None else answered[0])

    first = best
    # 2. The photo's strongest lattice may be a striped or checked table's. Its own
    # lattice removed, the board's can show (a few hypotheses only: bounded time).
    place(notched_hypotheses(gx, gy, lo, hi, cfg), cfg.notched_hypotheses, keep=False)
    best = _best_polished(lab, blurs, found, polished, cfg)
    if better(best):
        answered = best
        given.append(best[1])
        yield best
    # 3. Lattices of windows of the photo: a small board whose lattice the table's outweighs.
    place(window_lattices(gx, gy, lo, hi))
    like()
    best = _best_polished(lab, blurs, found, polished, cfg)
    if better(best):
        answered = best
        given.append(best[1])
        yield best
    # 4. A strong tilt may bend the board away from every lattice. The receding-grid
    # search is costly, so it runs only now, on the likeliest hypotheses.
    for inv, centre, pitch in likeliest:
        score, quad = keystone_search(blurred(lab, pitch, blurs), inv, centre, pitch)
        placed.append(None)
        found.append((score, quad, pitch))
        if score > cfg.clear_separation:
            break
    best = _best_polished(lab, blurs, found, polished, cfg)
    if answered is None or better(best):
        given.append(best[1])
        yield best  # the best there is: the refinement judges it
    if later is not None:
        later.append(_runners_up(lab, blurs, found, polished, given, cfg))
        later.append(_ended_grids(lab, blurs, found, frames, given, cfg))
    if tilted is not None:
        tilted.append(_tilted_grids(lab, blurs, found, frames, given, cfg))


def _ended_grids(
    lab: np.ndarray,
    blurs: dict[int, np.ndarray],
    found: list[tuple[float, np.ndarray, float]],
    frames: dict[int, Frame],
    given: list[np.ndarray],
    cfg: LocateConfig,
) -> Iterator[tuple[float, np.ndarray]]:
    """The lattices placed again where they END (:func:`ended_centre`), polished, best first: the last resort.

    On a checked cloth whose squares share the board's harmonics every lattice's
    :func:`periodic_centre` window lies on the cloth, several tiles from the board. A board's
    lattice ends in its frame band, a cloth's runs on: the window where the periodic
    energy inside most exceeds a ring just outside is the board's. The board's
    lattice may also be proposed only at twice its pitch (the window lattices can find
    the board's axes at two tiles' pitch): so every kept lattice is tried at its
    pitch (placed where it ends, when that lies a tile or more from its periodic
    centre) and at half its pitch (placed at both centres). The best
    ``polish_candidates`` by d' are polished, and a grid clearing
    ``clear_separation`` half a tile or more from every answer given is asked (at most
    ``_RUNNERS_UP``). Lazy, after the runners-up: every frame proven before takes the
    same path. Measurements: vision/notes/locate_grid.md.
    """
    moved: list[tuple[float, np.ndarray, float]] = []
    for i, (affine, gu, gv) in frames.items():
        inv = _work_inverse(affine)
        base = 0.5 * found[i][2]  # the half image's pitch (found holds work pixels)
        for pitch in (base, 0.5 * base):
            for spot in _centres(gu, gv, pitch, periodic=pitch != base):
                score, quad = place_grid(lab, blurs, inv, 2.0 * spot, 2.0 * pitch, cfg.clear_separation)
                moved.append((score, quad, 2.0 * pitch))
    moved.sort(key=lambda m: -m[0])
    polished = ((*_polished(lab, blurs, quad, pitch), pitch) for _, quad, pitch in moved[: cfg.polish_candidates])
    yield from _offered(polished, given, cfg)


def _tilted_grids(
    lab: np.ndarray,
    blurs: dict[int, np.ndarray],
    found: list[tuple[float, np.ndarray, float]],
    frames: dict[int, Frame],
    given: list[np.ndarray],
    cfg: LocateConfig,
) -> Iterator[tuple[float, np.ndarray]]:
    """Receding grids of the first kept lattices (:func:`tilted_search`) at their periodic and ended centres and
    at three pitches, polished, best first: asked only when every other stage and judge refused the frame.

    A strongly tilted board on a checked cloth defeats the stage-4 tilt search twice: the
    lattices' centres lie on the cloth (tiles from the board) and the mean pitch a lattice
    measures is several per cent off the board's at its centre, which a receding grid of
    fixed pitch at the centre cannot absorb. So the first
    ``tilted_hypotheses`` kept lattices are searched at both centres (:func:`periodic_centre`,
    and :func:`ended_centre` when a pitch or more away) and at ``tilted_scales`` of their pitch;
    the grids clearing ``clear_separation`` half a tile or more from every grid given are
    asked (at most ``_RUNNERS_UP``), like :func:`_ended_grids`. Measurements: vision/notes/locate_grid.md.
    """
    grids: list[tuple[float, np.ndarray, float]] = []
    for i in sorted(frames)[: cfg.tilted_hypotheses]:
        affine, gu, gv = frames[i]
        inv = _work_inverse(affine)
        half = 0.5 * found[i][2]  # the half image's pitch (found holds work pixels)
        for spot in _centres(gu, gv, half):
            for scale in cfg.tilted_scales:
                pitch = 2.0 * half * scale
                score, quad = tilted_search(blurred(lab, pitch, blurs), inv, 2.0 * spot, pitch)
                grids.append((score, quad, pitch))
    grids.sort(key=lambda g: -g[0])
    yield from _offered(iter(grids), given, cfg)


def _centres(gu: np.ndarray, gv: np.ndarray, pitch: float, periodic: bool = True) -> list[np.ndarray]:
    """Where to place a lattice: its periodic centre (unless ``periodic`` is False), and where it ends
    (:func:`ended_centre`) when that lies a pitch or more from the periodic centre."""
    first = periodic_centre(gu, gv, pitch)
    ended = ended_centre(gu, gv, pitch)
    spots = [first] if periodic and first is not None else []
    if ended is not None and (first is None or np.linalg.norm(ended - first) >= pitch):
        spots.append(ended)
    return spots


def _runners_up(
    lab: np.ndarray,
    blurs: dict[int, np.ndarray],
    found: list[tuple[float, np.ndarray, float]],
    polished: dict[int, tuple[float, np.ndarray]],
    given: list[np.ndarray],
    cfg: LocateConfig,
) -> Iterator[tuple[float, np.ndarray]]:
    """Grids the stages placed but never answered with, polished, best first: only once every answer was refuted.

    Each stage answers with its best polished grid, and the later stages only
    with one the fixed tiles like better than the refuted one before. On a
    dotted or checked tablecloth whose period is near the tiles' pitch the
    cloth's lattice can come first and clear the bar (its chance grid half on the
    board), while a window's lattice places the board itself a little lower:
    ranked by raw d' it is never an answer (vision/notes/locate_grid.md).
    The refinement is the judge the fixed tiles' d' is not: so the placements
    whose polished grid still clears ``clear_separation`` and lies half a tile
    or more from every answer given are asked too (at most ``_RUNNERS_UP``).
    Lazy, and asked by :func:`vision.locate.locate_board` only after the pitch sweep
    refuted its grid too, so every frame proven before takes the same path to the same
    corners.
    """
    order = sorted(range(len(found)), key=lambda i: -found[i][0])

    def in_order() -> Iterator[tuple[float, np.ndarray, float]]:
        for i in order[: cfg.polish_candidates]:
            _, quad, pitch = found[i]
            if i not in polished:
                polished[i] = _polished(lab, blurs, quad, pitch)
            yield (*polished[i], pitch)

    yield from _offered(in_order(), given, cfg)


def _polished(
    lab: np.ndarray, blurs: dict[int, np.ndarray], quad: np.ndarray, pitch: float
) -> tuple[float, np.ndarray]:
    """One placement polished (the stages' last polish steps): its d' and grid."""
    scores, quads = polish(separation, blurred(lab, pitch, blurs), quad[None], pitch, (0.12, 0.06))
    return float(scores[0]), quads[0]


def _offered(
    polished: Iterator[tuple[float, np.ndarray, float]], given: list[np.ndarray], cfg: LocateConfig
) -> Iterator[tuple[float, np.ndarray]]:
    """The polished grids (d', grid, pitch) that clear ``clear_separation`` half a tile or more from every grid
    ``given`` (which they join), at most ``_RUNNERS_UP``: what :func:`_runners_up` and :func:`_ended_grids` ask."""
    asked = 0
    for score, grid, pitch in polished:
        if score <= cfg.clear_separation or any(np.abs(grid - g).max() < 0.5 * pitch for g in given):
            continue
        given.append(grid)
        yield score, grid
        asked += 1
        if asked >= _RUNNERS_UP:
            return


def _in_work_pixels(a_vec: np.ndarray, b_vec: np.ndarray, frame: Frame) -> Placed | None:
    """A half-image lattice hypothesis as (canonical -> work affine, centre, pitch) in work pixels, or None
    when its pattern has no periodic centre."""
    pitch = 0.5 * (float(np.linalg.norm(a_vec)) + float(np.linalg.norm(b_vec)))
    affine, gu, gv = frame
    centre = periodic_centre(gu, gv, pitch)
    if centre is None:
        return None
    return _work_inverse(affine), 2.0 * centre, 2.0 * pitch


def _work_inverse(affine: np.ndarray) -> np.ndarray:
    """A half-image lattice's canonical -> work-pixel affine (canonical units doubled, half-image -> work)."""
    inv = cv2.invertAffineTransform(2.0 * affine)
    return np.hstack([2.0 * inv[:, :2], 2.0 * inv[:, 2:] + 0.5])


def quad_frame(quad: np.ndarray) -> Placed:
    """A grid's own lattice (its affine part: axes and pitch) and centre, as :func:`swept_quad` takes them."""
    quad = np.asarray(quad, dtype=np.float64).reshape(4, 2)
    pitch = float(np.mean(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1))) / 7.0
    src = np.column_stack([BOARD_CORNERS * pitch, np.ones(4)])
    inv = np.linalg.lstsq(src, quad, rcond=None)[0].T  # canonical (board units x pitch) -> work
    return inv, np.array([3.5 * pitch, 3.5 * pitch]), pitch


def swept_quad(work: np.ndarray, frames: list[Placed], cfg: LocateConfig) -> tuple[float, np.ndarray] | None:
    """The best grid along the axes and about the centres of ``frames`` at every pitch (0.5x-1.6x), polished.

    A lattice's axes and periodic centre can be right while its pitch is not: a
    shadow band's or a picture's echo won the autocorrelation, or a patterned
    table gave a grid a third too large around the right centre a chance
    separation that stopped the search. Along those axes the fixed tiles place
    grids of every pitch in the range. Called only once the first answer was
    refuted, so its chance grids never compete with a board the search found.
    """
    if not frames:
        return None
    lab = cv2.cvtColor(work, cv2.COLOR_BGR2Lab).astype(np.float32)
    blurs: dict[int, np.ndarray] = {}
    placed = []
    for inv, centre, pitch in frames:
        sweep = pitch * np.geomspace(0.5, 1.6, cfg.sweep_pitches)
        for (score, origin), swept in zip(search_windows(lab, blurs, inv, centre, sweep), sweep, strict=True):
            placed.append((score, inv, origin, float(swept)))
    # The sub-tile step only for the likeliest placements: it moves a grid by a tenth of a
    # tile, which reorders placements within a few tenths of d', not from the bottom up.
    placed.sort(key=lambda item: -item[0])
    found = []
    for _, inv, origin, swept in placed[: cfg.sweep_fine]:
        score, quad = search_fine(blurred(lab, swept, blurs), inv, origin, swept)
        found.append((score, quad, swept))
    return _best_polished(lab, blurs, found, {}, cfg)


def _best_polished(
    lab: np.ndarray,
    blurs: dict[int, np.ndarray],
    found: list[tuple[float, np.ndarray, float]],
    polished: dict[int, tuple[float, np.ndarray]],
    cfg: LocateConfig,
) -> tuple[float, np.ndarray]:
    """Polish the best placement; when even that stays unclear, the runners-up too, and keep the best.

    A wide lens bends a big, tilted board away from any one grid: a placement
    a third of a tile off scores low before its polish and can still be the
    board. ``polished`` (index in ``found`` -> result) saves repeated work.
    """
    order = sorted(range(len(found)), key=lambda i: -found[i][0])
    best: tuple[float, np.ndarray] | None = None
    for i in order[: cfg.polish_candidates]:
        if i not in polished:
            _, quad, pitch = found[i]
            # Down to 0.06 tile only: the refinement's basin is far wider, and a finer step
            # changed no grid on 180 test photos (six separation calls saved).
            steps = (0.12, 0.06)
            scores, quads = polish(separation, blurred(lab, pitch, blurs), quad[None], pitch, steps)
            polished[i] = (float(scores[0]), quads[0])
        if best is None or polished[i][0] > best[0]:
            best = polished[i]
        if best[0] > cfg.clear_separation:
            break
    assert best is not None
    return best
