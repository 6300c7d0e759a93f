"""Pawn candidates: blobs of a pawn colour on the rectified board, minus the board's own artwork.

The corridor and wall colours are learned on this frame, where the read openings
say a pixel is certainly corridor or certainly wall whatever the edition (see
:mod:`vision.pawns`, step 1); each surviving blob is described by
:func:`vision.pawn_features.features`.

Colours are judged under the board's usual light: where the materials show the light
tinted (a lamp's pool, an LED's glow, :func:`vision.pawn_light.colour_cast`) the image
is divided by the tint before the pawn hues are looked for, so a white corridor in a
green glow is not a green blob and a blue pawn in a yellow pool is blue again.

The stage rests on two physical assumptions, and both have known limits: a pawn's
paint is saturated (``min_saturation``), so a dull pawn shows only its lit or shaded
pieces; and a pawn of the artwork's hue stands out by being brighter
(``shade_is_artwork``), so a pawn of its own material's colour (red on brick, yellow
on sand, green on grass) is mostly dropped as artwork. Lower saturation gates, joins
of pieces and "darker than any shadow" exceptions were measured and not kept: a
print's pastel ground passes the same colour tests as a dull paint, and what tells a
body from a print or a shadow is its shape and shading, which is the model's to weigh
(:mod:`vision.pawn_features`), not a gate here. One shape cue is principled and kept:
a raised body projects along the ray from the nadir, so a slender blob lying on that
ray (:func:`_along_ray`) is not held to ``min_width`` nor the whole ``min_area``, and
only for a colour with no pawn found otherwise (``candidates``' ``slender``). So is one
shading cue: a lit body of its material's own colour has a lit side the artwork test
keeps *and* a shaded side and cast shadow it drops as the material in a shadow, while a
shadow or a dark patch of the material has only the second; where a colour has no pawn,
the blobs of the test that counts darker as different are looked at again, and kept
only if the first test kept part, not all, of them (:func:`_shaded_body`).
And one of place: a pawn on an edge square leans outward over the frame, where the tile
area mask cuts it; for a colour with no pawn, its pixels in the frame's inner band are
added back unless the frame or table is itself of that colour (:func:`_past_the_edge`).

Measurements and tried alternatives: vision/notes/pawn_candidates.md.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, partial

import cv2
import numpy as np

from companion.board import SIZE, Color
from companion.observation import TileReading
from vision.occlusion import shade_invariant
from vision.order_stats import median
from vision.pawn_colour import ColourModel, hue_only
from vision.pawn_features import Material, features
from vision.pawn_geometry import lean_point, slender_axis
from vision.pawn_light import light_map, neutral, relit
from vision.pawn_model import PawnConfig, sure_pawns
from vision.rectify import Rectified

#: Judge colours under the board's usual light (:func:`vision.pawn_light.colour_cast`).
CAST = True

#: The grid (pixels) the light's colour is sampled on (:func:`vision.pawn_light.colour_cast`).
CAST_STEP = 8

#: The channels' mean as a 1x3 colour transform.
_MEAN = np.full((1, 3), 1.0 / 3.0, np.float32)

#: A slender body seen from its side (:func:`_along_ray`): elongated (its principal axes' ratio
#: at least :data:`vision.pawn_geometry.SLENDER_RATIO`) within ``RAY_ANGLE`` degrees of the ray
#: from the nadir, widened where the nadir's own uncertainty (``NADIR_SLACK`` tiles: label and
#: located corners' nadirs differ by 0.25-0.5 tile on the sixth renderer) turns the ray more; not
#: parallel to a lattice line within ``LATTICE_BAND`` tile of it (a tile's edge, gap or outline).
#: It is held to neither ``min_width`` nor the whole ``min_area`` (``RAY_AREA`` of it: a side seen
#: is less than a foot).
RAY_ANGLE = 12.0
NADIR_SLACK = 0.3
LATTICE_BAND = 0.1
RAY_AREA = 0.75

#: Only a blob whose mean width (area over its box's longer side) is under this many
#: ``min_width``, and whose box is long (twice as long as wide) or filled less than
#: ``SLENDER_FILL`` (a stick at 10-45 degrees to the lattice: 0.55-0.38 at an axes' ratio
#: of 3), is asked whether it is a slender body: a round blob is not (no cost).
SLENDER_WIDTH = 1.5
SLENDER_FILL = 0.6

#: A body of its material's own colour (:func:`_shaded_body`): the share of its blob that passes
#: the first artwork test (its lit side, rim and highlights; the rest is its shaded side and cast
#: shadow, darker than the material). Under the lower bound the blob is the material in a shadow or
#: a dark patch of it (nothing lit); over the upper it is what the first look already had.
LIT_SHARE = (0.25, 0.9)

#: A body leaning past the tile area's edge (:func:`_past_the_edge`): how far outside the tile area
#: (tiles) its pixels are looked for (a pawn is ~0.6-1 tile tall; its top falls at most about half a
#: tile past its square), and the share of its blob that must lie out there (a blob barely touching
#: the edge is the first look's own).
EDGE_REACH = 0.6
EDGE_SHARE = 0.1

#: More of a colour than a pawn's top covers (tile areas) in that band is the frame's or the
#: table's own (a lime frame strip, a blue frame, a red cloth): no body of it is looked for there.
FRAME_COVER = 0.5


@dataclass(frozen=True)
class Candidate:
    """A blob of one pawn colour with its features (for the decision and for tuning)."""

    color: Color
    features: tuple[float, ...]
    base: tuple[float, float]
    box: tuple[int, int, int, int]
    area: float
    labels: np.ndarray = field(repr=False, compare=False)
    index: int = 0


#: A second look put aside for a colour that may have no pawn: its colour and the call that makes it a
#: candidate (a slender body, :func:`_slender_candidate`; a body of its material's colour, :func:`_shaded_body`;
#: a body leaning over the frame, :func:`_past_the_edge`).
Slender = tuple[Color, Callable[[], Candidate | None]]


@dataclass(frozen=True)
class _ArtworkTest:
    """The artwork test's evidence on the pawn-coloured pixels, kept for a second look.

    ``values`` are their comparison colours ((3, n), :func:`_artwork_colours`), ``ys``/``xs``
    where they are; ``tests`` each material's mean, inverse covariance and the pixels (bool
    (n,)) it is tested on.
    """

    values: np.ndarray
    ys: np.ndarray
    xs: np.ndarray
    tests: tuple[tuple[np.ndarray, np.ndarray, np.ndarray], ...]


@cache
def _zone_masks(tile_px: int, zone: float, core: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per opening mask (16, t, t): certain wall, certain corridor, and corridor *arms*.

    Certain wall: farther than ``zone`` (tiles) from the corridor centre lines.
    Certain corridor: within ``core`` of them. Arms: certain corridor farther than
    0.3 tile from the tile's centre, where no picture or pawn foot sits.
    """
    t = tile_px
    yy, xx = np.mgrid[0:t, 0:t].astype(np.float64)
    c = (t - 1) / 2.0
    px, py = xx - c, yy - c
    radius = np.hypot(px, py)
    wall = np.zeros((16, t, t), dtype=bool)
    corridor = np.zeros((16, t, t), dtype=bool)
    for mask in range(16):
        dist = radius.copy()
        for bit, (dx, dy) in ((1, (0, -1)), (2, (1, 0)), (4, (0, 1)), (8, (-1, 0))):
            if mask & bit:
                along = np.clip(px * dx + py * dy, 0, t / 2.0)
                dist = np.minimum(dist, np.hypot(px - along * dx, py - along * dy))
        wall[mask] = dist > zone * t
        corridor[mask] = dist <= core * t
    arms = corridor & (radius > 0.3 * t)[None]
    return wall, corridor, arms


def zones(rect: Rectified, tiles: Sequence[TileReading], zone: float = 0.27, core: float = 0.12) -> np.ndarray:
    """(3, H, W) booleans over the rectified image: certain wall, certain corridor, corridor arms.

    From the read openings; outside the tile area all three are False.
    """
    t, m = rect.tile_px, rect.margin_px
    shapes = np.array([int(r.openings) for r in tiles], dtype=np.int64).reshape(SIZE, SIZE)
    out = np.zeros((3, *rect.image.shape[:2]), dtype=bool)
    for k, per_shape in enumerate(_zone_masks(t, zone, core)):
        board = per_shape[shapes].transpose(0, 2, 1, 3).reshape(SIZE * t, SIZE * t)
        out[k, m : m + SIZE * t, m : m + SIZE * t] = board
    return out


def _light_reference(zone: np.ndarray, coloured: np.ndarray) -> np.ndarray:
    """The pixels of one material (a zone of :func:`zones`) that measure the light: those not of a pawn colour.

    Unless most of the material is of a pawn colour (a green hedge wall, a sand-yellow
    corridor): then the colour is the material's own, and leaving it out would keep
    only its darkest seams and shadows, a biased and sparse light meter (on a third-
    renderer board with both it made the light map span 0.3-4 and a sand corridor
    under a bright map pass as a pawn). A few pawns on it do not move a light map
    smoothed over half a tile much.
    """
    plain = zone & ~coloured
    return plain if 2 * np.count_nonzero(plain) >= np.count_nonzero(zone) else zone


def _material(value: np.ndarray, where: Sequence[np.ndarray], reference: Sequence[np.ndarray]) -> Material | None:
    """Where the board is plain wall and plain corridor, and each material's usual brightness (for a cast shadow).

    ``where`` and ``reference`` are plain zones (:func:`_light_reference`: not of a
    pawn colour), so a neighbouring pawn or coloured picture is not taken for the
    board lit or shaded. A material's brightness is the median of ``value`` over its
    ``reference`` (the corridor's its arms, where no picture sits), on every fourth
    row and column (the level of a whole material; a histogram with a mask costs
    several times more). None if a material has too few pixels to say.
    """
    levels = []
    for zone in reference:
        sample = value[::4, ::4][zone[::4, ::4]]
        if len(sample) < 16:
            return None
        levels.append(max(1.0, median(sample.astype(np.float64))))
    return where[0], where[1], levels[0], levels[1]


def _mahalanobis2(d: np.ndarray, inv: np.ndarray) -> np.ndarray:
    """Squared Mahalanobis lengths of the columns of ``d`` ((3, n): channel rows keep numpy's loops long)."""
    return ((inv @ d) * d).sum(axis=0)


def _gaussian(samples: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Robust mean ((3, 1)) and inverse covariance of ``samples`` ((3, n) float64; None when too few)."""
    if samples.shape[1] < 50:
        return None
    keep = samples
    for _ in range(3):
        mu, inv = _moments(keep)
        keep = samples[:, _mahalanobis2(samples - mu, inv) < 9.0]
        if keep.shape[1] < 30:
            return None
    return _moments(keep)


def _moments(samples: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean and inverse of the (unbiased, +4 on the diagonal) covariance, as ``np.cov`` gives it, by one product."""
    mu = samples.mean(axis=1, keepdims=True)
    d = samples - mu
    cov = (d @ d.T) / max(1, samples.shape[1] - 1) + np.eye(samples.shape[0]) * 4.0
    return mu, np.linalg.inv(cov)


def candidates(
    rect: Rectified,
    tiles: Sequence[TileReading] | None,
    config: PawnConfig | None = None,
    model: ColourModel | None = None,
    camera: Iterable[float] | None = None,
    min_confidence: float | None = None,
    slender: list[Slender] | None = None,
    look_past_edge: bool = True,
) -> list[Candidate]:
    """Every blob of a pawn colour in the tile area, with its features (see module doc).

    With a ``slender`` list, the blobs too narrow or small for a foot that may be a
    slender body seen from its side are appended to it, each as its colour and a call
    that makes it a candidate if it is one (:func:`_slender_candidate`): the caller asks
    only for the colours it found no pawn of, so the common board pays nothing. So are,
    per colour, a second look for a body of its material's own colour
    (:func:`_shaded_body`) and one for a body leaning past the tile area's edge
    (:func:`_past_the_edge`), unless ``look_past_edge`` is false: at night the frame's band is
    lit by the LEDs' spill, not by the room, and an unlit pawn there is not seen anyway, so
    a colour found there is the LEDs' own.

    With ``min_confidence``, blobs the model (``config.model``) cannot score that
    high are left out early (:func:`vision.pawn_features.features`' ``floor``).
    """
    cfg = config or PawnConfig()
    t, m = rect.tile_px, rect.margin_px
    # Brightness is the channels' mean, not HSV's value (their maximum): a saturated
    # pawn under bright light has its strongest channel clipped at 255 all over, so its
    # value is flat, while the other channels still rise toward the highlight and fall
    # on the shaded side. (Refitted on three renderers: right pawns on 8 sets not fitted
    # on 944 -> 967, 5 fewer false reports.) It is the photo's own brightness: the
    # light map below divides out the light's strength.
    brightness = cv2.transform(rect.image, _MEAN)
    board = tiles is not None and len(tiles) == SIZE * SIZE
    if board:
        wall, corridor, arms = zones(rect, tiles, cfg.wall_zone, cfg.corridor_core)
        if CAST and cfg.light_sigma > 0:
            # The colours as under the board's usual light (pawn_light.colour_cast), before any
            # hue is looked at: one HSV conversion and one set of masks either way.
            judged = neutral(rect.image, [wall, arms], cfg.light_sigma * t, CAST_STEP)
            if judged is not None:
                rect = replace(rect, image=judged)
    hsv = cv2.cvtColor(rect.image, cv2.COLOR_BGR2HSV)
    inside = np.zeros(hsv.shape[:2], dtype=bool)
    inside[m : m + SIZE * t, m : m + SIZE * t] = True
    ranges = model.hue_ranges(cfg.hue_ranges, cfg.calibrated_hue_tolerance) if model else cfg.hue_ranges
    # Saturation, value and the tile area are the same test for every colour: computed once.
    coloured_anywhere = (hsv[..., 1] >= cfg.min_saturation) & (hsv[..., 2] >= cfg.min_value)
    lit = coloured_anywhere & inside
    hue = np.ascontiguousarray(hsv[..., 0])
    masks = {color: (cv2.LUT(hue, _hue_table(tuple(rng))) > 0) & lit for color, rng in ranges.items()}
    hsv[..., 2] = brightness
    value = brightness
    light = None
    material: Material | None = None
    test: _ArtworkTest | None = None
    if board:
        coloured = np.logical_or.reduce(list(masks.values()))
        plain_wall, plain_arms = (_light_reference(zone, coloured) for zone in (wall, arms))
        if cfg.light_sigma > 0:
            light = light_map(value, [plain_wall, plain_arms], cfg.light_sigma * t)
            value = relit(value, light)
        gated = masks
        masks, test = _drop_artwork(rect, (wall, corridor, arms), coloured, masks, cfg, light)
        if cfg.material_shadow:
            plain = (plain_wall, _light_reference(corridor, coloured))
            material = _material(value, plain, (plain_wall, plain_arms))
    cam = lean_point(rect, camera, cfg.lean_from_nadir)  # below the camera, not where it looks
    k = max(3, round(t / 16)) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    floor = None if min_confidence is None else (cfg.model, min_confidence)
    body = (cfg.min_width, cfg.min_thickness)
    if slender is not None and test is not None and cfg.shade_is_artwork and light is not None:
        # A colour with no pawn may be a body of its material's own colour (_shaded_body).
        judging = (hsv, cam, rect, value, floor, light, material, body)
        for color in masks:
            look = (color, gated[color], masks[color], test, cfg, (kernel, k))
            slender.append((color, partial(_shaded_body, look, judging)))
        edge = (hue, coloured_anywhere, ranges, inside, cfg, (kernel, k))
        for color in masks if look_past_edge else ():
            slender.append((color, partial(_past_the_edge, color, masks[color], edge, judging)))
    out: list[Candidate] = []
    for color, mask in masks.items():
        labels, stats = _components(mask, kernel, k)
        for i, (x, y, w, h, area) in enumerate(stats.tolist()[1:], start=1):
            rel = area / float(t * t)
            if rel < RAY_AREA * cfg.min_area or rel > cfg.max_area or max(w, h) > cfg.max_extent * t:
                continue
            if area < cfg.min_fill * w * h:  # a thin curve or a ring, not a solid
                continue
            # Narrower than min_width: a line of artwork (a wall's edge, a stripe); thinner than
            # min_thickness: a stroke (a printed ring, an outline) - not a body either way.
            box = (x, y, w, h)
            found = None
            if rel >= cfg.min_area:
                found = features(labels, i, hsv, box, cam, rect, value, floor, light, material, body)
            if found is not None:
                feats, base = found
                out.append(Candidate(color, feats, base, box, rel, labels, i))
            elif slender is not None and _slender_box(area, w, h, cfg.min_width * t):
                # Unless it lies along the ray from the nadir: a slender body seen from its side,
                # looked at only if its colour has no pawn without it (the caller's to say).
                blob = (color, labels, i, box, rel)
                context = (hsv, cam, rect, value, floor, light, material, (0.0, cfg.min_thickness))
                slender.append((color, partial(_slender_candidate, blob, context)))
    return out


def _slender_box(area: float, w: int, h: int, min_width: float) -> bool:
    """Whether a blob's box and area allow a slender body (see :data:`SLENDER_WIDTH`; ``min_width`` in pixels)."""
    return area < SLENDER_WIDTH * min_width * max(w, h) and (max(w, h) >= 2 * min(w, h) or area < SLENDER_FILL * w * h)


def _slender_candidate(blob: tuple, context: tuple) -> Candidate | None:
    """The blob as a candidate if it is a slender body along the ray from the nadir (:func:`_along_ray`), else None.

    ``blob`` is (colour, labels, index, box, area in tiles); ``context`` the arguments
    :func:`vision.pawn_features.features` takes after the box, the relaxed body gate last.
    """
    color, labels, index, box, rel = blob
    hsv, cam, rect, *rest = context
    if not _along_ray(labels, index, box, cam, rect.tile_px, rect.margin_px):
        return None
    found = features(labels, index, hsv, box, cam, rect, *rest)
    if found is None:
        return None
    feats, base = found
    return Candidate(color, feats, base, box, rel, labels, index)


def _along_ray(
    labels: np.ndarray, index: int, box: tuple[int, int, int, int], cam: np.ndarray, tile_px: int, margin: int
) -> bool:
    """Whether the blob is a slender body seen from its side: drawn out along the ray from the nadir ``cam``.

    A raised body projects onto the board along the line from the nadir
    (:mod:`vision.pawn_geometry`); a figure, a chess pawn or a cone seen from its side is
    a slender blob lying on that line, narrower than a foot (``min_width``) and smaller.
    A printed stroke lies anywhere else, and a lattice line (a tile's edge, its gap or
    outline) lies on the lattice whatever the ray. See :data:`RAY_ANGLE`.
    """
    x, y, w, h = box
    mo = cv2.moments((labels[y : y + h, x : x + w] == index).view(np.uint8), True)
    if mo["m00"] <= 0:
        return False
    axis = slender_axis(mo["mu20"] / mo["m00"], mo["mu02"] / mo["m00"], mo["mu11"] / mo["m00"])
    if axis is None:
        return False
    cx, cy = x + mo["m10"] / mo["m00"], y + mo["m01"] / mo["m00"]
    dx, dy = cx - float(cam[0]), cy - float(cam[1])
    off = abs((math.degrees(axis - math.atan2(dy, dx)) + 90.0) % 180.0 - 90.0)
    if off > RAY_ANGLE + math.degrees(math.atan2(NADIR_SLACK * tile_px, math.hypot(dx, dy))):
        return False
    along = abs((math.degrees(axis) + 45.0) % 90.0 - 45.0) <= RAY_ANGLE  # parallel to a lattice line
    upright = abs(math.cos(axis)) < abs(math.sin(axis))  # the line is a column's, not a row's
    across = ((cx if upright else cy) - margin) / tile_px
    return not (along and abs(across - round(across)) < LATTICE_BAND)


@cache
def _hue_table(ranges: tuple[tuple[int, int], ...]) -> np.ndarray:
    """A 256-entry lookup table: 1 for the OpenCV hues in ``ranges`` (one pass over the image per colour)."""
    return hue_only(np.arange(256), ranges).astype(np.uint8)


def _components(mask: np.ndarray, kernel: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The opened mask's 8-connected components: a full-size label image and their stats (row 0: background).

    Only the box around the mask's pixels is opened and labelled (a colour covers a
    small part of the board), then placed back; the same labels as over the image.
    """
    mask8 = mask.view(np.uint8)
    x, y, w, h = cv2.boundingRect(mask8)
    labels = np.zeros(mask.shape, np.int32)
    if w == 0 or h == 0:
        return labels, np.zeros((1, 5), np.int32)
    pad = k
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(mask.shape[1], x + w + pad), min(mask.shape[0], y + h + pad)
    opened = cv2.morphologyEx(mask8[y0:y1, x0:x1], cv2.MORPH_OPEN, kernel)
    # Block-based labelling (Grana): the same components, ~4x faster here than the default.
    _, sub, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(opened, 8, cv2.CV_32S, cv2.CCL_GRANA)
    labels[y0:y1, x0:x1] = sub
    stats = stats.copy()
    stats[1:, 0] += x0
    stats[1:, 1] += y0
    return labels, stats


def _drop_artwork(
    rect: Rectified,
    zone_masks: tuple[np.ndarray, np.ndarray, np.ndarray],
    coloured: np.ndarray,
    masks: dict[Color, np.ndarray],
    cfg: PawnConfig,
    light: np.ndarray | None = None,
) -> tuple[dict[Color, np.ndarray], _ArtworkTest | None]:
    """Remove pixels that look like this frame's corridor (anywhere) or walls (outside the corridor core).

    ``zone_masks`` are :func:`zones` (certain wall, certain corridor, corridor arms);
    ``coloured`` is the union of ``masks``. With the board's ``light`` map
    (:mod:`vision.pawn_light`) the lightness is compared with the light divided out,
    and weighs ``relit_lightness_weight``: under even light a pawn the artwork's
    colour still stands out by its own shading and highlights. Also returns the test's
    evidence (None without coloured pixels) for a second look (:func:`_shaded_body`).
    """
    wall, corridor, arms = zone_masks
    width = wall.shape[1]
    # Flat indices first, rows and columns from them: np.nonzero over the whole board
    # costs ~5x np.flatnonzero, the same pixels in the same order.
    where_coloured = np.flatnonzero(coloured)
    if len(where_coloured) == 0:
        return masks, None
    ys, xs = np.divmod(where_coloured, width)
    # The colour transform is per pixel, so it is computed only where it is read: the
    # coloured pixels and every 11th pixel of each learning zone (as ``_gaussian`` samples).
    flat = (where_coloured, np.flatnonzero(wall)[::11], np.flatnonzero(arms)[::11])
    values, wall_samples, arm_samples = (
        np.ascontiguousarray(a.T) for a in _artwork_colours(rect.image, flat, cfg, light)
    )
    tests = []
    for samples, where in ((wall_samples, ~corridor[ys, xs]), (arm_samples, np.ones(len(ys), dtype=bool))):
        gauss = _gaussian(samples)
        if gauss is not None:
            tests.append((*gauss, where))
    test = _ArtworkTest(values, ys, xs, tuple(tests))
    # The material in a shadow (a pawn's cast shadow) is still the material.
    artwork = _is_artwork(test, cfg, darker_is_material=cfg.shade_is_artwork and light is not None)
    keep = np.ones(wall.shape, dtype=bool)
    keep[ys[artwork], xs[artwork]] = False
    return {color: mask & keep for color, mask in masks.items()}, test


def _is_artwork(
    test: _ArtworkTest, cfg: PawnConfig, darker_is_material: bool, among: np.ndarray | None = None
) -> np.ndarray:
    """Per tested pixel (or per pixel of ``among``, a bool (n,) selection): is it like a material?

    With ``darker_is_material`` a pixel only darker than the material (relit) counts as
    the material: its lightness difference is floored at zero.
    """
    values = test.values if among is None else test.values[:, among]
    artwork = np.zeros(values.shape[1], dtype=bool)
    for mu, inv, where in test.tests:
        d = values - mu
        if darker_is_material:
            d[2] = np.maximum(d[2], 0.0)
        artwork |= (where if among is None else where[among]) & (_mahalanobis2(d, inv) < cfg.wall_distance2)
    return artwork


def _shaded_body(look: tuple, judging: tuple) -> Candidate | None:
    """The best blob of one colour that is a lit body of its material's own colour, or None.

    A pawn standing on a material of its own colour (yellow on sand, red on brick, blue on
    a blue corridor) shares the material's chromaticity, so the artwork test keeps only
    what differs in lightness: its lit side, rim and highlights, brighter than the
    material relit. Its shaded side and cast shadow are darker and count as the material
    in a shadow, so what is left are pieces too small for a foot. Counting *darker* as
    different too gives the whole body back, joined with its cast shadow - but also
    every shadow and dark patch of the material. What only a raised, lit solid has is
    both at once: a lit part the first test kept and a shaded part it dropped. So a blob
    of the darker-counts mask is kept only if the first test kept :data:`LIT_SHARE` of
    it (a shadow or dark patch has no lit part; a blob kept almost whole is the first
    look's own). Drawn shading, a glare pool's edge on a material and a textured stone
    have both parts too, so the blob must also be sure to be a pawn on its own evidence
    (:data:`vision.pawn_model.SET_SURE`, the bar of the pawns the board's terms trust),
    not merely over the report threshold. Of those, the one the model
    (``config.model``) scores highest, since a colour is one pawn.

    ``look`` is (colour, its pixels before the artwork test, after it, the
    :class:`_ArtworkTest`, the config, (opening kernel, its size)); ``judging`` the
    arguments :func:`vision.pawn_features.features` takes after the box.
    """
    color, gated, first, test, cfg, (kernel, k) = look
    among = gated[test.ys, test.xs]
    body = among.copy()
    body[among] = ~_is_artwork(test, cfg, darker_is_material=False, among=among)
    mask = np.zeros(gated.shape, dtype=bool)
    mask[test.ys[body], test.xs[body]] = True

    def lit_and_shaded(blob: np.ndarray, box: tuple[int, int, int, int]) -> bool:
        x, y, w, h = box
        lit = np.count_nonzero(first[y : y + h, x : x + w] & blob) / float(np.count_nonzero(blob))
        return LIT_SHARE[0] <= lit <= LIT_SHARE[1]

    return _surest(color, mask, (kernel, k), lit_and_shaded, judging, cfg)


def _surest(
    color: Color,
    mask: np.ndarray,
    opening: tuple[np.ndarray, int],
    accept: Callable[[np.ndarray, tuple[int, int, int, int]], bool],
    judging: tuple,
    cfg: PawnConfig,
) -> Candidate | None:
    """A second look's answer: of the opened ``mask``'s blobs that pass the size and fill gates and
    ``accept`` (the blob's pixels in its box, the box), the one the model scores highest among those
    it is sure of on their own evidence (:data:`vision.pawn_model.SET_SURE`), or None.

    ``judging`` is the arguments :func:`vision.pawn_features.features` takes after the box.
    """
    t = judging[2].tile_px
    labels, stats = _components(mask, *opening)
    best: tuple[float, Candidate] | None = None
    for i, (x, y, w, h, area) in enumerate(stats.tolist()[1:], start=1):
        rel = area / float(t * t)
        if rel < cfg.min_area or rel > cfg.max_area or max(w, h) > cfg.max_extent * t or area < cfg.min_fill * w * h:
            continue
        if not accept(labels[y : y + h, x : x + w] == i, (x, y, w, h)):
            continue
        found = features(labels, i, judging[0], (x, y, w, h), *judging[1:])
        if found is None or not sure_pawns([found[0]], cfg.model)[0]:
            continue
        logit = cfg.model.logit(found[0])
        if best is None or logit > best[0]:
            best = (logit, Candidate(color, found[0], found[1], (x, y, w, h), rel, labels, i))
    return None if best is None else best[1]


def _edge_band(rect: Rectified) -> np.ndarray:
    """The pixels outside the tile area within :data:`EDGE_REACH` tile of it (the frame's inner band)."""
    t, m = rect.tile_px, rect.margin_px
    reach = max(1, round(EDGE_REACH * t))
    band = np.zeros(rect.image.shape[:2], dtype=bool)
    lo, hi = max(0, m - reach), m + SIZE * t + reach
    band[lo:hi, lo:hi] = True
    band[m : m + SIZE * t, m : m + SIZE * t] = False
    return band


def _past_the_edge(color: Color, first: np.ndarray, edge: tuple, judging: tuple) -> Candidate | None:
    """The best blob of one colour that is a body on an edge square leaning past the tile area, or None.

    A raised body projects away from the nadir, so a pawn on an edge square leans
    outward: its top lies over the board's frame, outside the tile area the first look
    keeps, and what is left is a cut foot (often none at all: hidden behind a pile, or
    dropped as artwork), too small or too flat to score. Here the colour's pixels in the
    frame's inner band (:data:`EDGE_REACH`) are added back. The frame has no certain
    zones to learn its colours on as the walls and corridor have, but it is large: a
    colour covering more of that band than a pawn's top could (:data:`FRAME_COVER`) is
    the frame's or the table's own, and is not looked for there at all (within one hue,
    shadows and glare on the frame cannot be told from a body's shading). The mask is
    opened to a body's least width (``min_width``), so the thin outlines along the edge
    do not join a pawn to a run of them. A blob is kept only if it crosses the edge
    (:data:`EDGE_SHARE` of it outside) *outward*: its outer part farther from the nadir
    than its inner part, as a leaning body's top is (where the camera stands beyond an
    edge, the pawns of that edge lean inward); and, as every second look, only if the
    model is sure of it on its own evidence (:data:`vision.pawn_model.SET_SURE`).

    ``first`` is the colour's mask after the artwork test; ``edge`` (hue image, pixels
    saturated and lit anywhere, hue ranges, tile area, config, (opening kernel, its
    size)); ``judging`` the arguments :func:`vision.pawn_features.features` takes after
    the box.
    """
    hue, coloured, ranges, inside, cfg, opening = edge
    rect, cam = judging[2], judging[1]
    t = rect.tile_px
    band = _edge_band(rect)
    outside = band & coloured & (cv2.LUT(hue, _hue_table(tuple(ranges[color]))) > 0)
    if not cfg.min_area * EDGE_SHARE <= np.count_nonzero(outside) / float(t * t) < FRAME_COVER:
        return None
    mask = first | outside
    # Opened to a body's least width: the tile area's outline and the frame's border lines,
    # thin and running along the edge, would join a pawn to a long run of them.
    width = max(opening[1], round(cfg.min_width * t) | 1)
    opening = (cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (width, width)), width)

    def crosses_outward(blob: np.ndarray, box: tuple[int, int, int, int]) -> bool:
        x, y, w, h = box
        out = blob & ~inside[y : y + h, x : x + w]
        return np.count_nonzero(out) >= EDGE_SHARE * np.count_nonzero(blob) and _leans_outward(blob, out, (x, y), cam)

    return _surest(color, mask, opening, crosses_outward, judging, cfg)


def _leans_outward(blob: np.ndarray, out: np.ndarray, origin: tuple[int, int], cam: np.ndarray) -> bool:
    """Whether the blob's part outside the tile area (``out``) lies farther from the nadir ``cam`` than the rest."""
    inner = blob & ~out
    if not inner.any():
        return False

    def distance(part: np.ndarray) -> float:
        ys, xs = np.nonzero(part)
        return math.hypot(xs.mean() + origin[0] - float(cam[0]), ys.mean() + origin[1] - float(cam[1]))

    return distance(out) > distance(inner)


def _artwork_colours(
    image: np.ndarray, flat: Sequence[np.ndarray], cfg: PawnConfig, light: np.ndarray | None = None
) -> list[np.ndarray]:
    """The artwork comparison colours (float64, (n, 3)) of the pixels at each array of flat indices.

    Shade-invariant chromaticity is a per-pixel formula, so it is applied to the few
    gathered pixels only (the same numbers as over the whole image, at a fraction of
    the cost); Lab goes through OpenCV on the whole image as before.
    """
    if cfg.shade_invariant_artwork:
        pixels = image.reshape(-1, image.shape[2])
        if light is None:
            weight = cfg.artwork_lightness_weight
            return [shade_invariant(pixels[i][:, None, :], weight).reshape(-1, 3).astype(np.float64) for i in flat]
        out = []
        for i in flat:
            colours = shade_invariant(pixels[i][:, None, :], cfg.relit_lightness_weight).reshape(-1, 3)
            colours[:, 2] /= light.reshape(-1)[i]
            out.append(colours.astype(np.float64))
        return out
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2Lab).reshape(-1, 3)
    return [lab[i].astype(np.float64) for i in flat]
