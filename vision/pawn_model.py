"""The pawn decision: thresholds and the logistic model over the blob features.

The model was fitted on blobs of boards from four independent renderers, each
term's direction fixed by the physics its feature describes (see :mod:`vision.pawns`).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import pairwise

import numpy as np

from companion.board import Color
from vision.pawn_colour import HUE_RANGES
from vision.pawn_consensus import with_consensus
from vision.pawn_features import DARK_CONSENSUS, FEATURES, LIT_CONSENSUS


@dataclass(frozen=True)
class PawnModel:
    """A monotone additive logistic model: per feature a piecewise-linear term, summed, then the logistic.

    Feature ``i``'s term is linear between its ``knots[i]`` (none: one straight line)
    with one slope per segment, all of the sign its physics allows (see
    ``tests/support/fit_pawns.py``), so each term only ever rises (or only ever falls)
    with its feature: a feature still says only what it means, but it may say it up
    to a point and no further. A straight line extrapolates: artwork with more
    "shading" than any pawn has (a light pool's wide gradient, a print's two tones)
    scored higher the further it was from a pawn. Fitted on the same blobs, the
    segmented model saturates where pawns stop (smooth shading, solidity, thickness
    matter up to a little above what every pawn has).

    ``weights`` are the segments' slopes, feature by feature, then the bias.
    """

    knots: tuple[tuple[float, ...], ...]
    weights: tuple[float, ...]

    def __post_init__(self) -> None:
        if len(self.knots) != len(FEATURES) or len(self.weights) != self.size + 1:
            raise ValueError(f"a pawn model needs knots per feature and {self.size + 1} weights")

    @property
    def size(self) -> int:
        """Number of segments (weights without the bias)."""
        return sum(len(k) + 1 for k in self.knots)

    @classmethod
    def linear(cls, weights: Sequence[float]) -> PawnModel:
        """A plain linear logistic model (one segment per feature)."""
        return cls(tuple(() for _ in FEATURES), tuple(float(w) for w in weights))

    @classmethod
    def from_terms(cls, terms: Mapping[str, tuple[tuple[float, ...], tuple[float, ...]]], bias: float) -> PawnModel:
        """A model from ``{feature: (knots, slopes)}`` (features left out add nothing) and the bias."""
        unknown = set(terms) - set(FEATURES)
        if unknown:
            raise ValueError(f"unknown pawn features {sorted(unknown)}")
        knots = tuple(tuple(terms[name][0]) if name in terms else () for name in FEATURES)
        slopes = [s for name in FEATURES for s in (terms[name][1] if name in terms else (0.0,))]
        return cls(knots, (*slopes, float(bias)))

    def as_terms(self) -> dict[str, tuple[tuple[float, ...], tuple[float, ...]]]:
        """``{feature: (knots, slopes)}`` of the features that add something (the inverse of :meth:`from_terms`)."""
        return {FEATURES[i]: (knots, slopes) for i, knots, slopes in self._terms}

    @cached_property
    def _terms(self) -> tuple[tuple[int, tuple[float, ...], tuple[float, ...]], ...]:
        """(feature, knots, slopes) of the features with a non-zero slope (the others add nothing)."""
        pairs = zip(self.knots, self.segment_slopes, strict=True)
        return tuple((i, knots, slopes) for i, (knots, slopes) in enumerate(pairs) if any(slopes))

    @cached_property
    def segment_slopes(self) -> tuple[tuple[float, ...], ...]:
        """Per feature the slopes of its segments (``weights`` split by ``knots``, bias left out)."""
        out, at = [], 0
        for knots in self.knots:
            out.append(tuple(self.weights[at : at + len(knots) + 1]))
            at += len(knots) + 1
        return tuple(out)

    def term(self, i: int, x: float) -> float:
        """Feature ``i``'s contribution to the logit at value ``x``."""
        for j, knots, slopes in self._terms:
            if j == i:
                return _segments(x, knots, slopes)
        return 0.0

    def slope_sign(self, i: int) -> int:
        """+1 if feature ``i``'s term rises with it, -1 if it falls, 0 if it adds nothing."""
        for j, _, slopes in self._terms:
            if j == i:
                return 1 if max(slopes) > 0 else -1
        return 0

    def logit(self, row: Sequence[float]) -> float:
        """The logit of one blob (plain Python: called once per blob, where numpy's overhead dominates)."""
        z = self.weights[-1]
        for i, knots, slopes in self._terms:
            z += _segments(float(row[i]), knots, slopes)
        return z

    def columns(self, rows: np.ndarray) -> np.ndarray:
        """The segment values of many blobs ((n, features) -> (n, segments)), for fitting."""
        rows = np.atleast_2d(np.asarray(rows, dtype=np.float64))
        out = []
        for i, knots in enumerate(self.knots):
            x = rows[:, i]
            if not knots:
                out.append(x)
                continue
            out.append(np.minimum(x, knots[0]))
            out.extend(np.clip(x, a, b) for a, b in pairwise(knots))
            out.append(np.maximum(x, knots[-1]))
        return np.column_stack(out)


def average_models(models: Sequence[PawnModel]) -> PawnModel:
    """The logit average of ``models`` as ONE :class:`PawnModel` (bagging: models fitted on different draws).

    A mean of piecewise-linear terms is piecewise linear: per feature its knots are the
    union of the members' knots, each segment's slope the members' mean slope there
    (members of one sign keep it, so every term stays monotone), and the terms' constant
    offsets go into the bias. The reader, and its early exit, see one model as before.
    """
    if not models:
        raise ValueError("nothing to average")
    n = float(len(models))
    knots_out: list[tuple[float, ...]] = []
    slopes_out: list[float] = []
    bias = sum(m.weights[-1] for m in models) / n
    members = [m.segment_slopes for m in models]
    for i in range(len(FEATURES)):
        union = tuple(sorted({k for m in models for k in m.knots[i]}))
        probes = [union[0] - 1.0] if union else [0.0]
        probes += [(a + b) / 2.0 for a, b in pairwise(union)]
        probes += [union[-1] + 1.0] if union else []
        pairs = list(zip(models, members, strict=True))
        slopes = tuple(sum(_slope_at(x, m.knots[i], s[i]) for m, s in pairs) / n for x in probes)
        # The members' mean minus the new term is a constant (same slope everywhere): into the bias.
        at = union[0] if union else 0.0
        bias += sum(_segments(at, m.knots[i], s[i]) for m, s in pairs) / n
        bias -= _segments(at, union, slopes)
        knots_out.append(union)
        slopes_out.extend(slopes)
    return PawnModel(tuple(knots_out), (*slopes_out, bias))


def _slope_at(x: float, knots: tuple[float, ...], slopes: tuple[float, ...]) -> float:
    """The slope of the term at ``x`` (not on a knot)."""
    return slopes[sum(1 for k in knots if x > k)]


def _segments(x: float, knots: tuple[float, ...], slopes: tuple[float, ...]) -> float:
    """sum of slope_j * (x clipped to segment j) over the segments the knots bound.

    The clips are written out as ``min``/``max`` decide (the first argument unless the
    second is strictly smaller/larger: the same value for NaN and signed zeros), without
    their calls: the logit of a blob is ~20 of these, asked ~40 times a frame, and the
    builtins' calls were half its cost.
    """
    if not knots:
        return slopes[0] * x
    first, last = knots[0], knots[-1]
    z = slopes[0] * (first if first < x else x) + slopes[-1] * (last if last > x else x)
    for j in range(1, len(knots)):
        lo, hi = knots[j - 1], knots[j]
        above = lo if lo > x else x
        z += slopes[j] * (hi if hi < above else above)
    return z


#: The pawn model (:class:`PawnModel`): knots at the 25th and 75th percentile of the
#: pawn blobs' values. Fitted by ``python -m tests.support.fit_pawns --l2 0.002 --per-folder``
#: (slopes' signs bounded there, see its ``SIGNS``) on the day blobs of 160 team-renderer,
#: 160 held-out-renderer, 160 third-renderer and 160 fourth-renderer boards (seeds
#: 951000+, 955000+; 950000+, 954000+; 985100+, 985300+; 1300000+, 1301000+), pawns
#: leaning away from the camera's nadir, a cast shadow measured against the board's own
#: material, each blob's lit and dark side compared with the other pawns'
#: (:mod:`vision.pawn_consensus`).
#:
#: Plus one term added to that fit, the others left as fitted: a blob whose centroid sits
#: within :data:`CENTRED_WITHIN` tile of its tile's exact centre loses up to
#: ``CENTRED_PENALTY * CENTRED_WITHIN`` of logit (1.36 at the centre), a blob further out
#: nothing (the bias takes the term's constant). A printed picture (a gem, a beetle, a
#: potion) is drawn at the tile's centre, flat, so its blob's centroid is there (label
#: corners, prints scoring >= 0.5: ``centre_offset`` median 0.02-0.03 tile on the fourth,
#: fifth and sixth renderers); a pawn is a raised body, its blob's top displaced away from
#: the lens, standing where a hand set it: pawn medians 0.07-0.16 on all six renderers,
#: 5th percentile 0.01-0.07. The term only ever lowers a logit, so it adds no report, by
#: day or at night, and the reader's early exit (its best case over the late features) is
#: still an upper bound.
#:
#: Every refit of this recipe tried since (other features, new terms such as the cast-shadow
#: fringe, a learned appearance patch, the full-resolution frame) lost to it on some renderer
#: on fresh frames; the sixth renderer's flat tokens and dark pawns score low on every term a
#: low body lacks, no single term misshapen. Figures, the terms tried and what is left to try:
#: vision/notes/pawn_model.md.
CENTRED_WITHIN = 0.04
CENTRED_PENALTY = 34.0
PAWN_MODEL = PawnModel.from_terms(
    {
        "log_area_small": ((-0.2608, 0.0), (1.455, 1.31, 0.0)),
        "log_area_large": ((0.0, 0.1446), (0.0, 0.0, -1.219)),
        "fill": ((0.6722, 0.7599), (-1.854, -4.089, -3.137)),
        "saturation": ((0.6962, 0.8231), (0.5401, 5.042, 1.774)),
        "inner_range": ((0.2861, 0.4583), (0.0, -0.8004, -1.861)),
        "value_cv": ((0.1918, 0.2968), (-2.368, -4.577, -10.06)),
        "dark_share": ((0.1005, 0.425), (3.911, 2.456, 0.5378)),
        "glint": ((0.0, 0.5365), (0.0, 2.288, 0.3028)),
        "centre_offset": ((CENTRED_WITHIN,), (CENTRED_PENALTY, 0.0)),
        "solidity": ((0.9244, 0.9617), (8.003, 0.0, 0.0)),
        "elongation": ((1.0353, 1.3658), (0.0, 6.878, 0.4212)),
        "shadow": ((0.2714, 0.4974), (9.355, 4.631, 0.0)),
        "marks": ((0.0,), (0.0, -1.901)),
        "smooth_range": ((0.2161, 0.4121), (8.749, 0.0, 1.339)),
        "surface": ((0.3298, 0.6668), (9.096, 1.955, 0.0)),
        "size_deviation": ((), (-1.395,)),
        "thickness": ((0.1458, 0.2039), (10.18, 0.0, 0.0)),
        "lit_consensus": ((0.0,), (1.075, 1.018)),
        "dark_consensus": ((0.0,), (0.9465, 0.1767)),
    },
    bias=-17.67 - CENTRED_PENALTY * CENTRED_WITHIN,
)

_LOG_AREA = FEATURES.index("log_area")
_SIZE = FEATURES.index("size_deviation")
#: The board-level terms: left out when deciding which blobs are sure pawns.
_BOARD = (_SIZE, LIT_CONSENSUS, DARK_CONSENSUS)
#: Blobs at least this sure without the size term make the set's size (need two of them);
#: a log-area deviation up to ``SET_TOLERANCE`` costs nothing (a pawn partly hidden or
#: leaning varies that much). Tried on the fit's 320 boards: sure 0.6-0.97 and tolerance
#: 0-0.35 all gained; 0.8/0.15 most without a loss on either renderer.
SET_SURE = 0.8
SET_TOLERANCE = 0.15


@dataclass(frozen=True)
class PawnConfig:
    """Pawn thresholds.

    ``min_saturation``/``min_value``: a candidate pixel is clearly coloured and lit.
    ``min_area``: blobs smaller than this (tile areas) are noise or print, not pawns.
    0.035: the held-out renderer's small pawns on a small or far board, a pawn in a
    pile or lying down make blobs of 0.036-0.05 (21 of 26 held-out pawns without a
    candidate on three test sets stopped at 0.05); smaller blobs are left to the
    model's size terms.
    ``max_area``/``max_extent``: blobs larger (tile areas) or longer (tiles) are artwork
    (a frame, a wall run), not a pawn, even a leaning one; ``min_fill``: blobs filling
    less of their bounding box are curves or rings; ``min_width``: blobs narrower (tiles,
    the short side of their smallest enclosing rectangle) are lines of artwork - a wall's edge, a
    stripe - (the narrowest of ~300 pawn blobs measured, partly hidden ones included,
    was 0.17). ``min_thickness``: blobs whose largest inscribed disc has a smaller radius
    (tiles) are strokes - a start square's printed ring, an outline - however wide their
    box (on 40 day boards of each of three renderers the thinnest pawn blob was 0.062,
    start rings 0.042-0.046).
    ``wall_zone``: distance from a tile's corridor centre lines (tiles) beyond which
    the tile is wall whatever the edition (corridors are at most ~0.5 tile wide);
    the wall colour is learned there.
    ``corridor_core``: distance within which the tile is corridor whatever the edition
    (corridors are at least ~0.28 tile wide); pawn-coloured pixels there are kept even
    when they look like the walls, everywhere else wall-like pixels are dropped.
    ``wall_distance2``: squared Mahalanobis distance to the wall (or corridor) colour
    under which a pixel is artwork; ``shade_invariant_artwork``/``artwork_lightness_weight``:
    compare in chromaticity plus a little lightness (else in Lab).
    ``light_sigma``: the board's light map is smoothed over this many tiles
    (:mod:`vision.pawn_light`; 0: no map). On the fit's boards 0.3, 0.5 and 1.0 did
    about as well (0.5 best by a pawn or two). ``relit_lightness_weight``: with a light
    map the artwork comparison's lightness is relit and weighs this much (a blue pawn
    on a blue corridor differs in lightness and shading, not in chromaticity): 0.2 vs
    1.0/2.0/4.0 on the fit's blobs: held-out dev 107/128 vs 107-109, team dev 100/110
    vs 104-105/109.
    ``shade_is_artwork``: a pixel of the artwork's chromaticity that is only *darker*
    than the material (relit) is the material in a shadow - above all the pawn's own
    cast shadow, which otherwise joined its blob (a yellow pawn's shadow on an orange
    wall made its blob twice the set's size, and a printed hexagon beat it).
    ``lean_from_nadir``: pawns lean away from the camera's nadir
    (:mod:`vision.pawn_geometry`), else from the image centre (the former behaviour).
    ``min_confidence``/``night_min_confidence``: report thresholds by lighting. By day 0.5:
    on the fit's boards 0.45-0.6 made about as few per-colour mistakes (0.5 also keeps
    a flat green LED pool on a team-renderer fixture out; an artwork blob reported as a
    pawn costs the referee more than a pawn it tracks unseen). At night
    0.995: on 40 rendered nights of both renderers the colours of dark pawns hardly made
    a blob (the one that did scored 0.05) while glowing or lit artwork blobs scored up
    to 0.992 - in the dark a pawn is reported only when it is unmistakable.
    ``model``: the logistic model (see :class:`PawnModel`).
    """

    min_saturation: int = 90
    min_value: int = 40
    #: A cast shadow measured against the board's own material (wall, corridor), not raw brightness.
    material_shadow: bool = True
    min_area: float = 0.035
    max_area: float = 1.2
    min_width: float = 0.15
    min_thickness: float = 0.05
    max_extent: float = 1.6
    min_fill: float = 0.3
    wall_zone: float = 0.27
    corridor_core: float = 0.12
    wall_distance2: float = 6.0
    min_confidence: float = 0.5
    shade_invariant_artwork: bool = True
    artwork_lightness_weight: float = 0.2
    night_min_confidence: float = 0.995
    calibrated_hue_tolerance: int = 12
    light_sigma: float = 0.5
    relit_lightness_weight: float = 2.0
    shade_is_artwork: bool = True
    lean_from_nadir: bool = True
    model: PawnModel = PAWN_MODEL
    hue_ranges: Mapping[Color, tuple[tuple[int, int], ...]] = field(default_factory=lambda: dict(HUE_RANGES))


def confidence(features: Sequence[float], model: PawnModel = PAWN_MODEL) -> float:
    """The model's probability that a blob is a pawn."""
    z = model.logit(features)
    return 1.0 / (1.0 + math.exp(-min(max(z, -50.0), 50.0)))


def set_size_deviation(
    rows: Sequence[Sequence[float]], model: PawnModel = PAWN_MODEL, sure: Sequence[bool] | None = None
) -> list[float]:
    """Per blob: how far its size is from the size of this board's pawn set (|log area ratio|, 0..2).

    The four pawns are one set - the same piece in four colours - so on one board they
    are about as large as each other, whatever the edition; a picture or a glow that
    looks like a pawn rarely matches them (on 320 rendered boards of both renderers the
    pawns' log areas sat a median 0.08 from their set's, the artwork scoring like a
    pawn 0.4). The set's size is the median log area of the blobs sure to be pawns
    without this term (:data:`SET_SURE`, :func:`sure_pawns`, or ``sure`` given); with
    fewer than two there is no set, and no deviation.
    """
    sure = sure_pawns(rows, model) if sure is None else sure
    areas = [float(row[_LOG_AREA]) for row, is_sure in zip(rows, sure, strict=True) if is_sure]
    if len(areas) < 2:
        return [0.0] * len(rows)
    ref = float(np.median(areas))
    return [min(max(abs(float(row[_LOG_AREA]) - ref) - SET_TOLERANCE, 0.0), 2.0) for row in rows]


def sure_pawns(rows: Sequence[Sequence[float]], model: PawnModel = PAWN_MODEL) -> list[bool]:
    """Per blob: is it sure to be a pawn (:data:`SET_SURE`) on its own evidence, the board-level terms left out?

    Those terms compare a blob with the sure ones, so a blob's own comparison cannot make
    it sure (and the sure set does not depend on itself).
    """
    sure_logit = math.log(SET_SURE / (1 - SET_SURE))
    return [model.logit(row) - sum(model.term(i, float(row[i])) for i in _BOARD) >= sure_logit for row in rows]


def with_set_size(
    rows: Sequence[Sequence[float]],
    model: PawnModel = PAWN_MODEL,
    colours: Sequence[object] | None = None,
    prints: Collection[int] = (),
) -> list[tuple[float, ...]]:
    """``rows`` with their board-level terms filled in: ``size_deviation`` (see :func:`set_size_deviation`)
    and, given each blob's colour, the light consensus (:mod:`vision.pawn_consensus`). The blobs
    ``prints`` (indices; known to be artwork) are never sure pawns, so they vote in neither."""
    sure = [is_sure and k not in prints for k, is_sure in enumerate(sure_pawns(rows, model))]
    devs = set_size_deviation(rows, model, sure)
    out = [(*row[:_SIZE], dev, *row[_SIZE + 1 :]) for row, dev in zip(rows, devs, strict=True)]
    if colours is None:
        return out
    return with_consensus(out, colours, sure)


__all__ = [
    "FEATURES", "PAWN_MODEL", "PawnConfig", "PawnModel", "average_models", "confidence", "set_size_deviation",
    "sure_pawns", "with_set_size",
]  # fmt: skip
