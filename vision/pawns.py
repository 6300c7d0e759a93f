"""Pawns: red, yellow, green and blue pieces standing on the rectified board.

The stage in modules with one job each: colours (:mod:`vision.pawn_colour`),
candidate blobs (:mod:`vision.pawn_candidates`), their evidence
(:mod:`vision.pawn_features`), the decision (:mod:`vision.pawn_model`); this
module places the pawns found and paints them out for the tile reader.

A pawn is a compact, saturated, *raised* object. The board itself may be
colourful — a green hedge look has green walls, the classic frame is blue,
treasure pictures are colourful, start squares carry coloured rings, the
companion's LEDs tint whole squares — so colour alone is not enough:

1. **Candidates.** Pixels of a pawn hue (clearly saturated and lit) inside the
   tile area, minus *the board's own artwork*: pixels that look like this frame's
   corridor (a Gaussian learned on the corridor arms the read openings point to)
   are dropped anywhere, and pixels that look like its walls (learned where the
   openings say "wall") everywhere but the corridor's core. Colours are compared
   in shade-invariant chromaticity (:func:`vision.occlusion.shade_invariant`), so
   a shadow or a light pool on the artwork is still artwork, plus the lightness
   with the board's light divided out (:mod:`vision.pawn_light`), so a pawn of the
   artwork's own colour still differs by its shading and highlights. A green pawn
   on a green hedge then no longer merges with the hedge, yet keeps its highlights,
   and everything standing over the corridor. Only *brighter* than the material
   counts as different: darker is the material in a shadow (the pawn's own cast
   shadow, which otherwise joined its blob). Where a colour has no pawn, its blobs
   too narrow or small for a foot are looked at again: lying along the ray from the
   camera's nadir, one is a slender body seen from its side
   (:func:`vision.pawn_candidates._along_ray`); and the blobs of a test that counts
   *darker* than the material as different too, where the first test kept their lit
   side but not their shaded side, are a body of the material's own colour
   (:func:`vision.pawn_candidates._shaded_body`). By day, a pawn on an edge square
   leans outward over the frame, where the tile area cuts it: the colour's pixels in
   the frame's inner band are added back (:func:`vision.pawn_candidates._past_the_edge`;
   not at night, when that band shows the LEDs' spill).
2. **Evidence.** Each connected blob is described by edition-free facts of a
   raised, lit solid: its size and compactness (a pawn's foot is ~0.4 tile
   across), saturation, *shading* — a round body facing a light has a lit and a
   shaded side, a smooth light field measured away from the blob's rim and blind
   to small marks (the brightness range after a median filter wider than a
   printed eye or dot, and the range of a quadratic surface fitted with the marks
   and glints left out) — a specular glint, a one-sided shadow around it (the
   board darker than its own material there: dark wall beside light corridor around
   a flat print is artwork, not a shadow), and its elongation away from the camera.
   Brightness is the channels' mean (HSV value, their maximum, clips flat over a
   brightly lit saturated pawn) judged *relit*:
   divided by the light the board around the blob receives (measured on its certain
   wall and corridor, on all their pixels when the material is itself of a pawn
   colour), so a flat picture under a shadow's edge or a light pool is flat
   again. Against flat artwork: dark marks enclosed by
   the blob (a picture's eyes and spots; a pawn's top is one body, its only holes
   bright glints). Blobs thinner than ``min_width`` are lines of artwork, blobs
   whose widest inscribed disc is under ``min_thickness`` strokes (a printed ring).
3. **Decision.** A logistic score over those features (:data:`PAWN_MODEL`)
   gives a confidence. Each feature's term is monotone and piecewise linear (bent
   at the quartiles of the pawns' values, :class:`vision.pawn_model.PawnModel`): a
   feature says only what it means, and may stop saying more where pawns stop (a
   light pool's or a two-tone print's "shading" beyond any pawn's no longer adds).
   It was fitted (``tests/support/fit_pawns.py``) on ~8500
   blobs of 640 boards from four independent renderers (the team's looks, a
   held-out renderer, a third and a fourth, with other artwork, pawn shapes and lighting), with each
   slope's sign bounded by the physics above (more smooth shading, glint, shadow,
   lean, solidity count *for* a pawn; marks, raw brightness spread the smooth
   field does not explain, and box-filling lattice-aligned shapes *against*), so a
   feature can only say what it means. (A thin dark outline all round was tried as
   evidence of print and earned no weight.) One term is the board's: the four pawns
   are one set, the same piece in four colours, so a blob far from the size of the
   blobs sure to be pawns scores lower (:func:`vision.pawn_model.set_size_deviation`),
   unless it touches another colour's sure pawn: partly hidden in a pile, its size
   says nothing (:func:`_hidden_sizes`). Where a colour has no pawn, such a blob is
   judged again without the bite the pawn in front takes out of its outline and size
   either (:func:`_behind_another`); by day, a doubtful blob of such a colour lying across
   a wall's edge (both certain wall and certain corridor under it: a body set down
   anywhere, its top leaning over the edge, where a picture is printed inside its
   corridor) is lifted (:func:`_across_the_edge`). Its mirror: a pawn is set down on the path, so by day a
   chosen blob whose foot stands in certain wall, with no other pawn on its square, is wall artwork and its
   colour is chosen again without it (:func:`_in_the_wall`; a pile pushes pawns into the wall, never a lone one).
   And one light lights them all: a blob whose lit side (its brightness slope) and
   dark side (where the board around it is darkest, a cast shadow's side) point
   against those of the other colours' sure pawns scores lower, one that points with
   them higher (:mod:`vision.pawn_consensus`; a print's drawn or blurred "shading"
   turns with its tile).
   Features that describe one renderer's artwork rather than a pawn (how large a
   blob may be, its offset from the tile centre, its surroundings' brightness) get
   no weight. Each colour is reported at most once (its best blob) and only above
   ``min_confidence``; at night above ``night_min_confidence`` ("report a pawn
   only when really seen": the referee tracks pawns in the dark).

A pawn leans away from the camera's *nadir* (the board point below the camera,
recovered from the board's homography: :mod:`vision.pawn_geometry`; not the image
centre, which for a tilted camera lies on the far side of many pawns), so it is
assigned to the square of its *base*: the blob's end nearest the nadir, moved in
by the foot's radius; its elongation is measured along that line. Where two pawns'
blobs touch, the one nearer the nadir stands in front and hides the other's foot: that
one is placed from its top instead, as far behind it as the front pawn's base lies
behind its own (:func:`vision.pawn_geometry.hidden_bases`; a pile of pawns).

The known limits are those of the stages above: a pawn of a material's own colour
is dropped by the artwork test, a pawn with no shading and no cast shadow (soft
light, a round top seen straight down) scores low, and a print with drawn shading
and highlights can outscore a pawn of its colour; when a colour has several blobs
over the threshold, a blob with a twin on the board loses (:func:`_one_of_a_kind`). A picture
printed twice in one colour is artwork, and so are its copies in other colours (same silhouette,
same drawing: :mod:`vision.pawn_copies`); a picture printed once per colour is not caught.
A bright pawn under a strong light clips the sensor over its top, so its shading is one
flat level: where a colour has no pawn, such a blob whose rim shows a darker crescent on
one side is judged again with its shading unknown rather than small (:func:`_clipped_shading`).
A wall of several materials (grass, water, stone on one board) spans the colours
between them in one Gaussian; splitting it was tried and reverted, since a mask
change needs the model refitted on its blobs.

Measurements and tried alternatives: vision/notes/pawns.md.

Uncalibrated hue ranges work for the four colours; calibration narrows them.
``calibration.json`` schema (all optional)::

    {"pawn_colors": {"red": {"lab": [L, a, b]}, "blue": {"lab": [...]}, ...}}

OpenCV 8-bit Lab values (L 0..255, a and b offset by 128) of each pawn's body,
learned at setup with :func:`learn_colour_model`; a calibrated colour's hue range
becomes its learned hue ± ``calibrated_hue_tolerance``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, partial

import cv2
import numpy as np

from companion.board import SIZE, Color, Square
from companion.observation import TileReading
from vision.pawn_candidates import Candidate, Slender, _zone_masks, candidates, zones
from vision.pawn_colour import HUE_RANGES, ColourModel, hue_mask
from vision.pawn_copies import printed_copies
from vision.pawn_features import DARK_CONSENSUS, FEATURES, LIT_CONSENSUS
from vision.pawn_geometry import PILE_GAP, hidden_bases, lean_point, nadir_spread, reach, touch
from vision.pawn_model import PAWN_MODEL, SET_SURE, PawnConfig, PawnModel, confidence, sure_pawns, with_set_size
from vision.pawn_pictures import drawn_across_its_lean, mirror_on_the_lattice, without_pictures
from vision.rectify import Rectified

#: Where a blob's set-size term sits in a feature row.
SIZE_DEVIATION = FEATURES.index("size_deviation")

#: Hue-free shape features compared between a blob and its would-be twins, each with its spread over all
#: blobs (standard deviation, label corners, final9-13 si/ho/fi day; see :func:`_one_of_a_kind`).
TWIN_SCALES: dict[str, float] = {
    "log_area": 0.56, "fill": 0.11, "extent": 0.15, "solidity": 0.11, "saturation": 0.11,
    "thickness": 0.052, "width": 0.10, "inner_cv": 0.088, "value_cv": 0.085, "marks": 0.21,
}  # fmt: skip
#: A blob this close to another (in spreads) is its twin; the logit an exact twin loses.
TWIN_RADIUS = 2.5
TWIN_PENALTY = 4.0
#: Another colour's blob under this confidence is a certain print: a twin in another colour.
TWIN_PRINT = 0.05
_TWIN_COLUMNS = [FEATURES.index(name) for name in TWIN_SCALES]
_TWIN_SD = np.array(list(TWIN_SCALES.values()))

#: A pixel whose brightest channel reaches this is clipped by the sensor: its brightness is unknown, at least this.
CLIPPED = 250
#: A blob whose shading is measured on pixels clipped over this share shows no shading it could have
#: (:func:`_clipped_shading`).
CLIPPED_SHARE = 0.5
#: A pixel of a clipped blob whose clipped channels' mean is under this is on its shaded side (:func:`crescent`).
SHADED_LEVEL = 225
#: A clipped blob whose shaded pixels' share differs by this much between the sectors round its centre
#: shows a darker crescent on one side: a lit body, not a flat print (:func:`crescent`).
CRESCENT = 0.2
#: A clipped blob is judged by its crescent only where the sensor clipped this many of its channels (a yellow's
#: red and green): on a one-channel level a print's darker ink reads as a crescent (:func:`crescent`).
CLIPPED_CHANNELS = 2
_SECTORS = 8
#: A clipped blob whose outline encloses holes over this share of its filled area is a printed ring, not a
#: dome (a dome's hole is its specular dot; :func:`_printed_disc`).
RING_HOLES = 0.15
#: A pixel whose darkest channel reaches this is white; a clipped blob whose one-pixel border is white over this
#: share borders a white print of its own design (a moon's crescent), not the board (:func:`_printed_disc`).
WHITE_LEVEL = 230
WHITE_BORDER = 0.18
#: The shading features a clipped blob cannot show.
_SHADING_TERMS = (FEATURES.index("surface"), FEATURES.index("smooth_range"))

#: The board-level terms that say nothing for a blob piled against another colour's pawn (:func:`_hidden_sizes`).
_PILE_TERMS = (SIZE_DEVIATION, LIT_CONSENSUS, DARK_CONSENSUS)

#: The shape features a pawn in front bites out of the one behind it in a pile: its outline's convexity and its
#: size (:func:`_hidden_sizes` with ``behind_of``).
_BITE_TERMS = (FEATURES.index("solidity"), FEATURES.index("log_area_small"))

__all__ = [
    "FEATURES", "HUE_RANGES", "PAWN_MODEL", "Candidate", "ColourModel", "PawnConfig", "PawnDetection", "PawnModel",
    "candidates", "confidence", "covered_squares", "erase", "find_pawns", "learn_colour_model", "zones",
]  # fmt: skip


@dataclass(frozen=True)
class PawnDetection:
    """A pawn found: colour, square (of its base), confidence, and where (rectified pixels).

    ``pixels`` are the blob's pixels inside ``box`` (x, y, w, h), so later stages can
    look past the pawn (see :func:`erase`).
    """

    color: Color
    square: Square
    confidence: float
    base: tuple[float, float]
    box: tuple[int, int, int, int]
    area: float
    pixels: np.ndarray | None = field(default=None, repr=False, compare=False)


def learn_colour_model(rect: Rectified, pawns: Mapping[Color, Square], config: PawnConfig | None = None) -> ColourModel:
    """Learn the pawns' Lab medians from a frame where their squares are known (e.g. the start position)."""
    cfg = config or PawnConfig()
    hsv = cv2.cvtColor(rect.image, cv2.COLOR_BGR2HSV)
    lab = cv2.cvtColor(rect.image, cv2.COLOR_BGR2Lab)
    learned: dict[Color, tuple[float, float, float]] = {}
    for color, (r, c) in pawns.items():
        x0, y0, x1, y1 = rect.tile_box(r, c)
        g = rect.tile_px // 3
        region = (slice(max(0, y0 - g), y1 + g), slice(max(0, x0 - g), x1 + g))
        mask = hue_mask(hsv[region], cfg.hue_ranges[color], cfg.min_saturation, cfg.min_value)
        if int(mask.sum()) >= 10:
            values = lab[region][mask].reshape(-1, 3).astype(np.float64)
            learned[color] = tuple(float(v) for v in np.median(values, axis=0))  # type: ignore[assignment]
    return ColourModel(learned)


def find_pawns(
    rect: Rectified,
    tiles: Sequence[TileReading] | None = None,
    config: PawnConfig | None = None,
    model: ColourModel | None = None,
    *,
    lighting: str = "day",
    camera: Iterable[float] | None = None,
) -> list[PawnDetection]:
    """The pawns on the board, at most one per colour (several colours may share a square).

    ``tiles`` (the board's read openings) locate the walls; ``camera`` is the image
    centre in rectified pixels (pawns lean away from it; default: the board centre).
    """
    cfg = config or PawnConfig()
    at_night = lighting == "night"
    threshold = cfg.night_min_confidence if at_night else cfg.min_confidence
    # Blobs that cannot reach the threshold are left out early, but not one that may be a
    # sure pawn (SET_SURE, below the night threshold): it votes in the others' board-level
    # terms (with_set_size), so leaving it out would change their confidence.
    slender: list[Slender] = []
    floor = min(threshold, SET_SURE)
    found = candidates(rect, tiles, cfg, model, camera, floor, slender=slender, look_past_edge=not at_night)
    # A blob with a printed picture's marks inside its outline is no moulded pawn (vision.pawn_pictures).
    found = without_pictures(rect.image, rect.tile_px, found)
    # A picture printed twice in one colour, and its copies in other colours, are no pawns (vision.pawn_copies):
    # never chosen nor sure for the board's terms, but still twins for the contests.
    printed = frozenset(printed_copies(rect.image, found))
    # The point pawns lean away from: asked only where a rule needs it, then kept (it is read, never changed).
    lean_from = cache(partial(lean_point, rect, camera, cfg.lean_from_nadir))
    out = _decide(rect, tiles, cfg, found, slender, printed, threshold, at_night, lean_from)
    if not at_night and tiles is not None and len(tiles) == SIZE * SIZE:
        # Wall artwork is no pawn set down on the path (_in_the_wall), nor is a picture drawn upright on its tile
        # (_drawn_upright): such a blob is never chosen, and the choice is taken again without it (its colour
        # may have a pawn elsewhere).
        # Only the condemned colours are chosen again: the others keep their first reading (the board's terms
        # without the condemned blob's vote moved other pawns' scores by up to 0.2 on dev frames).
        excluded = printed
        mirrored: dict[int, bool] = {}
        for _ in range(WALL_ROUNDS):
            walled = _in_the_wall(out, tiles, rect, cfg) | _drawn_upright(out, rect, mirrored, lean_from)
            if not walled:
                break
            excluded = excluded | walled
            again = _decide(rect, tiles, cfg, found, slender, excluded, threshold, at_night, lean_from)
            redo = {det.color for det, k in out if k in walled}
            out = [o for o in out if o[0].color not in redo] + [o for o in again if o[0].color in redo]
    order = list(Color)
    return [det for det, _ in sorted(out, key=lambda o: order.index(o[0].color))]


def _decide(
    rect: Rectified,
    tiles: Sequence[TileReading] | None,
    cfg: PawnConfig,
    found: list[Candidate],
    slender: list[Slender],
    printed: frozenset[int],
    threshold: float,
    at_night: bool,
    lean_from: Callable[[], np.ndarray],
) -> list[tuple[PawnDetection, int]]:
    """:func:`find_pawns`' choice, each pawn with its blob's index (into ``found`` and the slender blobs judged
    after it, in that order; the same on every call): none of ``printed`` is chosen nor sure for the board's terms.
    ``lean_from`` gives the point pawns lean away from (:func:`vision.pawn_geometry.lean_point`)."""
    best = _best(found, cfg.model, threshold, printed=printed)
    # A colour with no pawn: its blobs put aside as maybe a slender body seen from its side
    # (too narrow or small for a foot) are judged, and the board's terms computed again with them.
    missing = {color for color, _ in slender} - best.keys()
    extra = [cand for color, judge in slender if color in missing and (cand := judge()) is not None]
    extra = without_pictures(rect.image, rect.tile_px, extra, found)
    if extra:
        found = [*found, *extra]
        best = _best(found, cfg.model, threshold, printed=printed)
    best = _behind_another(found, best, cfg.model, threshold, lean_from, printed)
    if not at_night and tiles is not None:
        tile_zones = tiles
        best = _across_the_edge(
            found,
            best,
            cfg.model,
            threshold,
            lambda: zones(rect, tile_zones, cfg.wall_zone, cfg.corridor_core),
            printed,
        )
    if not at_night:
        best = _clipped_shading(found, best, cfg.model, threshold, rect, printed)
    t, m = rect.tile_px, rect.margin_px
    chosen = [best[c] for c in Color if c in best]
    blobs = [(cand.box, _pixels(cand)) for _, cand in chosen]
    bases = [cand.base for _, cand in chosen]
    if len(chosen) > 1:
        bases = hidden_bases(blobs, bases, lean_from)
    out = []
    for (p, cand), (box, pixels), base in zip(chosen, blobs, bases, strict=True):
        r = min(SIZE - 1, max(0, int((base[1] - m) // t)))
        c = min(SIZE - 1, max(0, int((base[0] - m) // t)))
        k = next(i for i, other in enumerate(found) if other is cand)
        out.append((PawnDetection(cand.color, (r, c), p, base, box, cand.area, pixels), k))
    return out


#: How many times a colour whose chosen blob stands in the wall is chosen again (wall artwork is often several
#: blobs of one colour: a hedge cut by the tile's seams).
WALL_ROUNDS = 3


def _in_the_wall(
    chosen: Sequence[tuple[PawnDetection, int]], tiles: Sequence[TileReading], rect: Rectified, cfg: PawnConfig
) -> frozenset[int]:
    """The chosen blobs (indices) whose foot stands in certain wall with no other pawn on its square: wall artwork.

    A pawn is set down on the path: its base (the blob's end nearest the nadir, :mod:`vision.pawn_geometry`)
    lies in the corridor even where its top leans over a wall, while wall or hedge artwork of a pawn's colour
    lies wholly in the wall. A pawn's foot is pushed into the wall only where it shares its square with another
    pawn (a pile spread over the square) - or lies on its side, its near end in the wall. So a foot in certain
    wall (farther than ``wall_zone`` from every corridor centre line of the tile's read openings:
    :func:`vision.pawn_candidates.zones`) condemns a blob only when no other chosen pawn's base is on its
    square, nor does its blob touch another chosen pawn's (:func:`_against_a_pawn`: a crowd over two squares).
    Known limits: a pile whose other pawn is not found, a lone pawn lying across a wall, a tile read
    wrong. Measurements: vision/notes/pawns.md (p54, p59).
    """
    t, m = rect.tile_px, rect.margin_px
    wall = _zone_masks(t, cfg.wall_zone, cfg.corridor_core)[0]
    out = set()
    for det, k in chosen:
        r, c = det.square
        if any(other.square == det.square for other, j in chosen if j != k):
            continue
        x = round(det.base[0] - m - c * t)
        y = round(det.base[1] - m - r * t)
        if not (0 <= x < t and 0 <= y < t):
            continue
        # Only a foot in the wall asks whether the blob touches another pawn (the costlier test).
        if wall[int(tiles[r * SIZE + c].openings), y, x] and not _against_a_pawn(
            det, [other for other, j in chosen if j != k]
        ):
            out.add(k)
    return frozenset(out)


def _against_a_pawn(det: PawnDetection, others: Sequence[PawnDetection]) -> bool:
    """Whether the chosen blob touches another chosen pawn's blob (:func:`vision.pawn_geometry.touch`): a crowd.

    :func:`_in_the_wall` admits a foot in the wall where a pile pushed it there, and knows a pile by another
    pawn's base on the same square. A crowd spills over the squares' borders: a pawn pressed against one on
    the next square is pushed aside as far (fifth renderer, p59 dev 6001016: a blue cylinder in the wall of
    2,1 against the green pawn of 2,2, the yellow piled with it not found). Bodies in contact are evidence of
    each other; wall artwork touches a pawn only where the pawn stands against the wall, and then the artwork
    is the chosen blob of its colour only when that colour's pawn is missed. Measurements:
    vision/notes/pawns.md (p59).
    """
    if det.pixels is None:
        return False
    mine = (det.box, det.pixels)
    return any(
        other.color != det.color and other.pixels is not None and touch(mine, (other.box, other.pixels))
        for other in others
    )


#: A treasure picture is printed at its tile's centre and within the picture disc there: a blob judged by
#: :func:`_drawn_upright` has its centroid within ``PICTURE_OFFSET`` tile of its tile's centre and its box's
#: longer side at most ``PICTURE_EXTENT`` tile (a pawn lying on its side is longer; pile members stand off
#: the centre).
PICTURE_OFFSET = 0.15
PICTURE_EXTENT = 0.45


def _drawn_upright(
    chosen: Sequence[tuple[PawnDetection, int]],
    rect: Rectified,
    judged: dict[int, bool],
    point: Callable[[], np.ndarray],
) -> frozenset[int]:
    """The chosen blobs (indices) that are a picture drawn upright at a tile's centre.

    A treasure picture is printed upright on its tile, at its centre, so it mirrors itself about the tile's
    row or column axis through its own centre; a pawn seen from above mirrors itself about its lean and its
    light, a lattice axis only by chance (:func:`vision.pawn_pictures.mirror_on_the_lattice`). A picture
    whose inks are not symmetric (a ball's half cut by its button, a key) still has its outline mirrored about
    the lattice axis it is drawn on, where a pawn's outline mirrors itself about its ray from the nadir
    (``point``; :func:`_across_its_lean`). Only a blob
    where pictures are printed is judged: its centroid near its tile's centre and no longer than a picture
    (:data:`PICTURE_OFFSET`, :data:`PICTURE_EXTENT`): pawns lying on their side along a row or column
    mirror themselves about it too. Only chosen blobs are judged (``judged`` keeps the answers between
    rounds): the cue is a few dozen small warps on a print. By day only (as :func:`_in_the_wall`).
    Measurements: vision/notes/pawn_pictures.md (p57), vision/notes/pawns.md (p63).
    """
    t, m = rect.tile_px, rect.margin_px
    out = set()
    for det, k in chosen:
        if k not in judged:
            judged[k] = (
                det.pixels is not None
                and _where_pictures_are(det, t, m)
                and (mirror_on_the_lattice(rect.image, det.box, det.pixels) or _across_its_lean(det, rect, point))
            )
        if judged[k]:
            out.add(k)
    return frozenset(out)


def _across_its_lean(det: PawnDetection, rect: Rectified, point: Callable[[], np.ndarray]) -> bool:
    """Whether the blob's outline is drawn about a lattice axis and not about its ray from ``point`` (the nadir):
    :func:`vision.pawn_pictures.drawn_across_its_lean`, with the ray's uncertainty seen from the blob (the
    nadir's spread, :func:`vision.pawn_geometry.nadir_spread`, over the blob's distance from it)."""
    if det.pixels is None or not det.pixels.any():
        return False
    x, y, _, _ = det.box
    ys, xs = np.nonzero(det.pixels)
    nadir = point()
    dx, dy = x + float(xs.mean()) - float(nadir[0]), y + float(ys.mean()) - float(nadir[1])
    ray = math.degrees(math.atan2(dy, dx))
    cone = math.degrees(math.atan2(nadir_spread(rect), math.hypot(dx, dy)))
    return drawn_across_its_lean(det.pixels, ray, cone)


def _where_pictures_are(det: PawnDetection, t: int, m: int) -> bool:
    """Whether the blob is no longer than a picture and its centroid near its tile's centre."""
    x, y, w, h = det.box
    if det.pixels is None or max(w, h) > PICTURE_EXTENT * t or not det.pixels.any():
        return False
    ys, xs = np.nonzero(det.pixels)
    u, v = (x + float(xs.mean()) - m) / t, (y + float(ys.mean()) - m) / t
    return math.hypot(u - math.floor(u) - 0.5, v - math.floor(v) - 0.5) <= PICTURE_OFFSET


def _behind_another(
    found: Sequence[Candidate],
    best: dict[Color, tuple[float, Candidate]],
    model: PawnModel,
    threshold: float,
    point: Callable[[], np.ndarray],
    printed: frozenset[int] = frozenset(),
) -> dict[Color, tuple[float, Candidate]]:
    """``best`` with each colour that has no pawn judged again as maybe the one behind another in a pile.

    The pawn in front (nearer the nadir, which ``point`` gives) hides part of the one behind
    it: what is left has a bite out of its outline and is smaller than a pawn, so its
    convexity and size say nothing about what it is (:func:`_hidden_sizes`' ``behind_of``).
    Only a colour with no pawn is judged so: a pawn read without it keeps its score, and no
    rival of its colour gains one.
    """
    missing = {cand.color for cand in found} - best.keys()
    if not missing:
        return best
    behind = _best(found, model, threshold, behind_of=point(), printed=printed)
    return best | {color: behind[color] for color in missing if color in behind}


#: A blob of a colour with no pawn whose silhouette covers both certain wall and certain corridor (each at
#: least ``EDGE_SHARE`` of its pixels) gains ``EDGE_LIFT`` logit (so only blobs from 0.27 up can be reported).
EDGE_SHARE = 0.05
EDGE_LIFT = 1.0


def _across_the_edge(
    found: Sequence[Candidate],
    best: dict[Color, tuple[float, Candidate]],
    model: PawnModel,
    threshold: float,
    zone_of: Callable[[], np.ndarray],
    printed: frozenset[int] = frozenset(),
) -> dict[Color, tuple[float, Candidate]]:
    """``best`` with each colour that has no pawn judged again: a doubtful blob lying across a wall's edge.

    A raised body hides the tile under it wherever a hand set it, and from the tilted camera its
    top leans past its foot, so its silhouette covers corridor and wall alike; a treasure picture is
    printed inside its corridor (the tile read knows where the walls are, :func:`zones`). Under soft
    light a dull cylinder or cube has no shading and no cast shadow and scores like a print; lying
    across the edge is evidence of a body the model has not seen. Only lifts, only a colour with no
    pawn, only by day, never a printed copy (``printed``, :mod:`vision.pawn_copies`). Known limit:
    the held-out renderer draws some blob icons over the edge. Measurements: vision/notes/pawns.md (p51).
    """
    missing = {cand.color for cand in found} - best.keys()
    if not missing:
        return best
    rows = with_set_size([cand.features for cand in found], model, [cand.color for cand in found], printed)
    rows = _hidden_sizes(found, rows, model)
    top = math.log(threshold / (1.0 - threshold))
    low = top - EDGE_LIFT
    zone = None
    out = dict(best)
    for k, (cand, row) in enumerate(zip(found, rows, strict=True)):
        z = model.logit(row)
        if cand.color not in missing or k in printed or not low <= z < top:
            continue
        if zone is None:
            zone = zone_of()
        x, y, w, h = cand.box
        blob = cand.labels[y : y + h, x : x + w] == cand.index
        n = max(1, int(np.count_nonzero(blob)))
        wall = np.count_nonzero(zone[0, y : y + h, x : x + w] & blob) / n
        corridor = np.count_nonzero(zone[1, y : y + h, x : x + w] & blob) / n
        if min(wall, corridor) < EDGE_SHARE:
            continue
        lifted = 1.0 / (1.0 + math.exp(-(z + EDGE_LIFT)))
        if cand.color not in out or lifted > out[cand.color][0]:
            out[cand.color] = (lifted, cand)
    return out


def _clipped_shading(
    found: Sequence[Candidate],
    best: dict[Color, tuple[float, Candidate]],
    model: PawnModel,
    threshold: float,
    rect: Rectified,
    printed: frozenset[int] = frozenset(),
) -> dict[Color, tuple[float, Candidate]]:
    """``best`` with each colour that has no pawn judged again where the sensor clipped its blob's shading.

    A bright pawn (a yellow dome, a glossy body) under a strong light is brighter than the
    camera's range over much of its top: its brightest channels sit at 255 there, and the lit
    side, the shaded side and the highlight are one flat level. Its shading (``surface``,
    ``smooth_range``, measured inside the blob's rim) is then unknown - not small - and the
    model, which reads small shading as a flat print, scores it under the threshold (third
    renderer: bright yellow domes, 51-86 % of their inner pixels clipped, ``surface`` 0.01-0.24).
    Flat prints clip as fully (a bright yellow disc on a sunlit tile), so the clipping alone
    says nothing. What the clipping leaves of a lit body is its shaded side: the band of the
    rim turned from the light falls under the sensor's range, a darker crescent on one side
    (:func:`crescent`), while a flat print's ink holds its level all round its edge (the
    blur of its edge darkens it evenly). Where over :data:`CLIPPED_SHARE` of the inner pixels
    are clipped and the crescent is at least :data:`CRESCENT`, the blob's shading terms are
    taken at least at the least most pawns show (each term's first knot, the pawns' lower
    quartile). Prints with a drawn shaded side (a printed orb) show a crescent too: so only
    a colour with no pawn is judged so (a pawn read without it keeps its score, and no print
    of its colour gains one over it), and only by day. Only the blobs the features' early
    exit kept are judged (p52: letting it allow for the lift kept many clipped prints).
    A printed ring whose pale centre sits off the blob's centre, and a printed moon (a yellow
    disc beside a white crescent), read as a crescent too: a blob so shaped is not judged
    (:func:`_printed_disc`). Known limits: a dome lit from straight above has its shaded band
    all round (no crescent), and a yellow that clips its red only is not judged
    (:data:`CLIPPED_CHANNELS`). Measurements: vision/notes/pawns.md (p52, p53, p56).
    """
    missing = {cand.color for cand in found} - best.keys()
    if not missing:
        return best
    lifted = []
    for cand in found:
        row = cand.features
        if (
            cand.color in missing
            and _clipped_share(cand, rect) > CLIPPED_SHARE
            and crescent(cand, rect) >= CRESCENT
            and not _printed_disc(cand, rect)
        ):
            out = list(row)
            for k in _SHADING_TERMS:
                if model.knots[k]:
                    out[k] = max(out[k], model.knots[k][0])
            cand = replace(cand, features=tuple(out))
        lifted.append(cand)
    again = _best(lifted, model, threshold, printed=printed)
    # The blob as measured is reported (its score is the lifted one's).
    original = {id(new): old for new, old in zip(lifted, found, strict=True)}
    return best | {color: (again[color][0], original[id(again[color][1])]) for color in missing if color in again}


def _printed_disc(cand: Candidate, rect: Rectified) -> bool:
    """Whether a clipped blob with a crescent is a print by its shape: a ring, or a disc beside white ink.

    A dome is a filled disc whose only hole is its specular dot (0-9 % of the filled outline for the
    17 pawns :func:`_clipped_shading` found on p53's sets); a printed yellow ring encloses its pale
    centre (24-26 %), which, off the blob's centre, reads as a crescent. A printed moon (a yellow disc
    with a white crescent inside a black outline) is a clipped yellow blob whose crescent is the white
    one: the blob borders white ink over a quarter of its outline (a pawn borders the board and its own
    shaded side: at most a tenth white). Known limit: a dome standing on a white tile would border
    white too. Measurements: vision/notes/pawns.md (p56).
    """
    x, y, w, h = cand.box
    inside = (cand.labels[y : y + h, x : x + w] == cand.index).view(np.uint8)
    contours, _ = cv2.findContours(inside, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    filled = np.zeros_like(inside)
    cv2.drawContours(filled, contours, -1, 1, -1)
    area = int(np.count_nonzero(filled))
    if area and (area - int(np.count_nonzero(inside))) / area > RING_HOLES:
        return True
    height, width = cand.labels.shape[:2]
    x0, y0, x1, y1 = max(0, x - 1), max(0, y - 1), min(width, x + w + 1), min(height, y + h + 1)
    blob = (cand.labels[y0:y1, x0:x1] == cand.index).view(np.uint8)
    border = (cv2.dilate(blob, np.ones((3, 3), np.uint8)) > 0) & (blob == 0)
    if not border.any():
        return False
    white = rect.image[y0:y1, x0:x1].min(axis=2)[border] >= WHITE_LEVEL
    return float(np.count_nonzero(white)) / float(np.count_nonzero(border)) > WHITE_BORDER


def _clipped_share(cand: Candidate, rect: Rectified) -> float:
    """The share of the blob's inner pixels (where :func:`vision.pawn_features.features` measures shading)
    whose brightest channel is clipped (:data:`CLIPPED`)."""
    x, y, w, h = cand.box
    blob = (cand.labels[y : y + h, x : x + w] == cand.index).view(np.uint8)
    k = max(3, round(rect.tile_px / 10)) | 1
    inner = cv2.erode(blob, np.ones((k, k), np.uint8), borderType=cv2.BORDER_CONSTANT, borderValue=0) > 0
    if int(np.count_nonzero(inner)) < 5:
        inner = blob > 0
    return float(np.count_nonzero(rect.image[y : y + h, x : x + w].max(axis=2)[inner] >= CLIPPED)) / float(
        np.count_nonzero(inner)
    )


def crescent(cand: Candidate, rect: Rectified) -> float:
    """How one-sided a clipped blob's shaded pixels are: the largest minus the smallest share of them over
    :data:`_SECTORS` sectors round the blob's centre (0: even all round, 1: a whole side and nothing opposite).

    The level is the mean of the blob's clipped channels (those at :data:`CLIPPED` on over half of its
    clipped pixels: red and green on a yellow, the hue's own on the others), the one that tells the lit top
    from the shaded side before the sensor clips it; a pixel under :data:`SHADED_LEVEL` is shaded. The whole
    outline is used (the rim is where the crescent is). 0 when nothing is clipped, or fewer than
    :data:`CLIPPED_CHANNELS` channels: a red, green or blue blob clips its own channel only, and on that
    one level the darker ink of a print (a shield's stripe, a diamond's shaded facet, a figure's outline)
    made a crescent as one-sided as a dome's (first fresh check: 3 red prints read, every pawn the rule
    found was yellow). Measurements: vision/notes/pawns.md (p53).
    """
    x, y, w, h = cand.box
    inside = cand.labels[y : y + h, x : x + w] == cand.index
    pixels = rect.image[y : y + h, x : x + w][inside].astype(np.int32)
    clipped = pixels.max(axis=1) >= CLIPPED
    if not clipped.any():
        return 0.0
    channels = (pixels[clipped] >= CLIPPED).mean(axis=0) > 0.5
    if int(np.count_nonzero(channels)) < CLIPPED_CHANNELS:
        return 0.0
    shaded = pixels[:, channels].mean(axis=1) < SHADED_LEVEL
    ys, xs = np.nonzero(inside)
    angle = np.arctan2(ys - ys.mean(), xs - xs.mean())
    sector = ((angle + np.pi) * (_SECTORS / (2 * np.pi))).astype(np.int64) % _SECTORS
    counts = np.bincount(sector, minlength=_SECTORS)
    dark = np.bincount(sector, weights=shaded.astype(np.float64), minlength=_SECTORS)
    kept = counts >= 3
    if not kept.any():
        return 0.0
    shares = dark[kept] / counts[kept]
    return float(shares.max() - shares.min())


def _best(
    found: Sequence[Candidate],
    model: PawnModel,
    threshold: float,
    behind_of: np.ndarray | None = None,
    printed: frozenset[int] = frozenset(),
) -> dict[Color, tuple[float, Candidate]]:
    """Each colour's best blob at ``threshold`` or above, with its confidence (the board's terms filled in).

    With ``behind_of`` (the nadir), a blob piled behind another colour's pawn is judged without its
    outline's bite (:func:`_hidden_sizes`). The blobs ``printed`` (indices into ``found``: printed
    copies, :mod:`vision.pawn_copies`) are never chosen nor sure pawns for the board's terms.
    """
    rows = with_set_size([cand.features for cand in found], model, [cand.color for cand in found], printed)
    rows = _hidden_sizes(found, rows, model, behind_of)
    probs = [confidence(row, model) for row in rows]
    best: dict[Color, tuple[float, Candidate]] = {}
    rivals: set[Color] = set()  # colours with two blobs or more over the threshold
    for k, (cand, p) in enumerate(zip(found, probs, strict=True)):
        if p >= threshold and k not in printed:
            if cand.color in best:
                rivals.add(cand.color)
            if cand.color not in best or p > best[cand.color][0]:
                best[cand.color] = (p, cand)
    for color in rivals:
        k = _one_of_a_kind(found, rows, probs, color, threshold, model, printed)
        best[color] = (probs[k], found[k])
    return best


def _one_of_a_kind(
    found: Sequence[Candidate],
    rows: Sequence[Sequence[float]],
    probs: Sequence[float],
    color: Color,
    threshold: float,
    model: PawnModel,
    printed: frozenset[int] = frozenset(),
) -> int:
    """Which of ``color``'s blobs over ``threshold`` is its pawn: the most probable, once a blob with a twin
    on the board has lost up to :data:`TWIN_PENALTY` of logit.

    A pawn is one of a kind; a board's artwork repeats (the same key, crown or star on
    several tiles, and the same picture drawn in other colours). A twin is another blob
    whose hue-free shape (:data:`TWIN_SCALES`: size, fill, extent, solidity, saturation,
    thickness, width, brightness spread, marks) lies within :data:`TWIN_RADIUS` of it,
    each feature in units of its spread over all blobs: any other blob of its colour, or
    a certain print of another colour (under :data:`TWIN_PRINT`; another colour's pawn,
    the same piece in another colour, is no twin). The penalty falls linearly from
    ``TWIN_PENALTY`` for an exact twin to nothing at ``TWIN_RADIUS``. It only chooses
    between blobs already over the threshold: no colour is reported that was not, by day
    or at night, and a board with one blob per colour reads as before. The scales are the
    features' spreads; radius and penalty were chosen offline on the sixth, held-out and
    fifth renderers' spent day blobs (radius 2-3 and penalty 4 all gained, 6 began to lose).
    Most twins that decide are look-alikes, not copies, so the rule reads "a pawn stands
    apart from its colour's other blobs" as much as "artwork repeats"; as a penalty on
    every blob (a report may go) it trades pawns for false reports, so it only chooses.
    The blobs ``printed`` (printed copies, :mod:`vision.pawn_copies`) are no choice, but
    still twins. Measurements: vision/notes/pawns.md.
    """
    shape = np.array([[row[k] for k in _TWIN_COLUMNS] for row in (cand.features for cand in found)]) / _TWIN_SD
    pool = np.array([c.color == color or p < TWIN_PRINT for c, p in zip(found, probs, strict=True)])
    best_k, best_score = -1, -math.inf
    for k, (cand, p) in enumerate(zip(found, probs, strict=True)):
        if cand.color != color or p < threshold or k in printed:
            continue  # not a choice (a printed copy still counts as a twin)
        others = pool.copy()
        others[k] = False
        near = float(np.sqrt(((shape[others] - shape[k]) ** 2).sum(axis=1)).min()) if others.any() else math.inf
        score = model.logit(rows[k]) - TWIN_PENALTY * max(0.0, 1.0 - near / TWIN_RADIUS)
        if score > best_score:
            best_k, best_score = k, score
    return best_k


def _hidden_sizes(
    found: Sequence[Candidate], rows: list[tuple[float, ...]], model: PawnModel, behind_of: np.ndarray | None = None
) -> list[tuple[float, ...]]:
    """``rows`` with the best case of the board-level terms for a blob that touches another colour's pawn.

    The four pawns are one set, so a blob far from the set's size scores lower
    (``size_deviation``). But pawns piled on one square, or standing close in a tilted
    view, hide each other: the one behind shows a fragment, smaller than the set, and
    its size says nothing about what it is. Where a blob touches another colour's blob
    (within :data:`vision.pawn_geometry.PILE_GAP`: the front body's shaded side lies
    between them) that is itself sure to be a pawn (:data:`SET_SURE`, on its own
    evidence), its size term is left out - its best case, as for a blob alone on the board.

    Nor do its sides say much about the light (:mod:`vision.pawn_consensus`): the board
    darkest around it is where the other pawn's body and cast shadow stand, and its
    brightness slope is cut where the front pawn hides it, so a consensus *against* it
    is left out too (one for it stays); leaving the terms out entirely rather than
    taking their best case lost more than it gained: a pile's agreeing side is worth
    keeping. Measurements: vision/notes/pawns.md.

    With ``behind_of`` (the nadir; asked only for a colour with no pawn,
    :func:`_behind_another`), nor do the outline and size of a blob behind that pawn
    (farther from the nadir: the pawn nearer it stands in front): the front pawn bites a
    piece out of it, so its convexity (``solidity``) and ``log_area_small`` are taken at
    least at a whole pawn's values (:func:`_whole_values`). A blob on the near side is not
    hidden by it (a start ring or a print at a pawn's foot).

    For the consensus the other colour's pawn is its colour's surest blob on its own
    evidence: a colour is one pawn, and a sure blob that another of its colour outscores
    is a print (own sixth-renderer set, 0005: a red print touching a green artwork blob at
    0.92, while the green pawn elsewhere scored 0.99, became a false red). The size rule
    keeps any sure blob: a pawn is often split in two pieces by the one in front of it
    (held-out final5 0004: a yellow fragment touches the blue pawn's smaller piece, 0.92,
    beside its main one, 0.998).
    """
    if len(found) < 2:
        return rows
    # Candidates of two colours whose boxes meet are few (none on most boards): only then is
    # the model asked which blobs are sure, and the pixels compared.
    box = np.array([cand.box for cand in found], dtype=np.int64)
    x0, y0, x1, y1 = box[:, 0], box[:, 1], box[:, 0] + box[:, 2], box[:, 1] + box[:, 3]
    gap = PILE_GAP
    near = (x0[:, None] - gap < x1[None, :]) & (x0[None, :] - gap < x1[:, None])
    near &= (y0[:, None] - gap < y1[None, :]) & (y0[None, :] - gap < y1[:, None])
    colour = np.array([list(Color).index(cand.color) for cand in found])
    near &= colour[:, None] != colour[None, :]
    said = np.array([[row[k] for k in _PILE_TERMS] for row in rows]).reshape(len(rows), len(_PILE_TERMS))
    lift = (said[:, 0] > 0.0) | (said[:, 1:] < 0.0).any(axis=1)
    bite = _whole_values(model, _BITE_TERMS) if behind_of is not None else {}
    for k, whole in bite.items():
        lift |= np.array([row[k] < whole for row in rows], dtype=bool)
    near &= lift[:, None]
    pairs = np.argwhere(near).tolist()
    if not pairs:
        return rows
    sure = sure_pawns(rows, model)
    # The other colour's pawn, for the consensus, is its surest blob on its own evidence.
    own = [model.logit(tuple(0.0 if k in _PILE_TERMS else v for k, v in enumerate(row))) for row in rows]
    piled: dict[int, bool] = {}  # blob -> whether it touches its partner colour's pawn
    hidden: set[int] = set()  # blobs behind a pawn they touch (with ``behind_of``)
    for i, j in pairs:
        pawn = all(own[k] <= own[j] for k in range(len(found)) if colour[k] == colour[j])
        if not sure[j] or (i in piled and (piled[i] or not pawn)):
            continue  # not a pawn, or nothing more to learn from this pair
        blob, partner = (found[i].box, _pixels(found[i])), (found[j].box, _pixels(found[j]))
        if touch(blob, partner, gap):
            piled[i] = pawn
            if behind_of is not None and reach(blob, behind_of) > reach(partner, behind_of):
                hidden.add(i)  # behind that pawn, which bites into it
    return [_unpiled(row, piled[i], bite if i in hidden else None) if i in piled else row for i, row in enumerate(rows)]


def _unpiled(row: Sequence[float], consensus: bool, bite: Mapping[int, float] | None = None) -> tuple[float, ...]:
    """``row`` without its set-size deviation and, with ``consensus``, without a light consensus against it.

    With ``bite`` (feature -> a whole pawn's value, :func:`_whole_values`), nor with the bite the pawn
    in front takes out of its outline and size: each of those features at least that value.
    """
    lifted = _PILE_TERMS[1:] if consensus else ()
    out = [0.0 if k == SIZE_DEVIATION else max(v, 0.0) if k in lifted else v for k, v in enumerate(row)]
    for k, whole in (bite or {}).items():
        out[k] = max(out[k], whole)
    return tuple(out)


def _whole_values(model: PawnModel, columns: Iterable[int]) -> dict[int, float]:
    """Per feature the value from which the model's term stops rising: what a whole pawn shows, no more.

    The term of a feature that speaks *for* a pawn rises up to the knot the pawns' values
    fill (a quartile of them) and is flat beyond; a feature whose term never stops rising,
    or falls, is left out.
    """
    out = {}
    for k in columns:
        knots, slopes = model.knots[k], model.segment_slopes[k]
        top = next((j for j in range(len(knots)) if all(s <= 0.0 for s in slopes[j + 1 :])), None)
        if top is not None and slopes[top] > 0.0:
            out[k] = knots[top]
    return out


def _pixels(cand: Candidate) -> np.ndarray:
    """The candidate's blob within its box (bool)."""
    x, y, w, h = cand.box
    return cand.labels[y : y + h, x : x + w] == cand.index


def covered_squares(detections: Iterable[PawnDetection], rect: Rectified) -> set[Square]:
    """Squares whose tile a pawn hides: its base square and the squares its body leans over."""
    t, m = rect.tile_px, rect.margin_px
    covered: set[Square] = set()
    for d in detections:
        covered.add(d.square)
        x, y, w, h = d.box
        for px, py in ((x, y), (x + w - 1, y), (x, y + h - 1), (x + w - 1, y + h - 1)):
            r, c = int((py - m) // t), int((px - m) // t)
            if 0 <= r < SIZE and 0 <= c < SIZE:
                covered.add((r, c))
    return covered


def erase(rect: Rectified, detections: Sequence[PawnDetection], grow: float = 0.0) -> Rectified:
    """A copy of ``rect`` with the pawns painted out (inpainted from the board around them).

    A pawn standing on a tile hides part of its openings; the tile reader then sees
    the board around the pawn continued inward instead of the pawn's own colours.
    ``grow`` widens each blob (tiles) beyond a 1-pixel rim; wider inpainting smears
    walls over corridors (on 200 rendered boards: 16 misread tiles unpainted, 5 with
    no growth, 10 at 0.06, 20 at 0.12).

    A tall 3D pawn's blob is its lit colour only; its shaded body stays in the view.
    Painting out the whole body too was measured and not kept: more painted pawn means
    more unseen sides, and the unseen sides' reading (:mod:`vision.tile_hidden`)
    decides the gain. Measurements: vision/notes/pawns.md.
    """
    if not detections:
        return rect
    image = rect.image.copy()
    k = max(3, 2 * round(grow * rect.tile_px) + 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    pad = k + 4
    size_y, size_x = image.shape[:2]
    for d in detections:
        if d.pixels is None:
            continue
        x, y, w, h = d.box
        x0, y0 = max(0, x - pad), max(0, y - pad)
        x1, y1 = min(size_x, x + w + pad), min(size_y, y + h + pad)
        mask = np.zeros((y1 - y0, x1 - x0), dtype=np.uint8)
        mask[y - y0 : y - y0 + h, x - x0 : x - x0 + w] = d.pixels.astype(np.uint8)
        mask = cv2.dilate(mask, kernel)
        image[y0:y1, x0:x1] = cv2.inpaint(image[y0:y1, x0:x1], mask, 3, cv2.INPAINT_TELEA)
    return replace(rect, image=image)
