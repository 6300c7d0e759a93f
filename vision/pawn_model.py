"""The pawn decision: thresholds and the logistic model over the blob features.

The weights were fitted on blobs of boards from two independent renderers, each
weight's sign fixed by the physics its feature describes (see :mod:`vision.pawns`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from companion.board import Color
from vision.pawn_colour import HUE_RANGES
from vision.pawn_features import FEATURES

#: Logistic weights over :data:`FEATURES` (then the bias), standardisation folded in.
#: Fitted by ``python -m tests.support.fit_pawns --l2 0.0005`` (signs bounded there, see
#: its ``SIGNS``) on the day blobs of 160 team-renderer, 160 held-out-renderer and 160
#: third-renderer boards (seeds 951000+, 955000+; 950000+, 954000+; 985100+, 985300+),
#: brightness as the channels' mean relit by the board's light, strokes gated out
#: (``min_thickness``).
PAWN_WEIGHTS: tuple[float, ...] = (
    0, 0.9925, -0.1555, -9.204, 0, 0, -0.4009, 0, -4.379, 1.054, 1.527, 0, 16.38, 1.882, 1.563, 0, -4.015, 11.08,
    3.497, 0, -2.252, 0, -12.63,
)  # fmt: skip

_LOG_AREA = FEATURES.index("log_area")
_SIZE = FEATURES.index("size_deviation")
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
    ``min_area``: blobs smaller than this (tile areas) are noise or print, not pawns
    (no pawn blob of the ~1000 rendered ones measured was under 0.06).
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
    ``lean_from_nadir``: pawns lean away from the camera's nadir
    (:mod:`vision.pawn_geometry`), else from the image centre (the former behaviour).
    ``min_confidence``/``night_min_confidence``: report thresholds by lighting. By day 0.5:
    on the fit's boards 0.45-0.6 made about as few per-colour mistakes (0.5 also keeps
    a flat green LED pool on a team-renderer fixture out; an artwork blob reported as a
    pawn costs the referee more than a pawn it tracks unseen). At night
    0.995: on 40 rendered nights of both renderers the colours of dark pawns hardly made
    a blob (the one that did scored 0.05) while glowing or lit artwork blobs scored up
    to 0.992 - in the dark a pawn is reported only when it is unmistakable.
    ``weights``: the logistic model (see module doc).
    """

    min_saturation: int = 90
    min_value: int = 40
    min_area: float = 0.05
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
    lean_from_nadir: bool = True
    weights: tuple[float, ...] = PAWN_WEIGHTS
    hue_ranges: Mapping[Color, tuple[tuple[int, int], ...]] = field(default_factory=lambda: dict(HUE_RANGES))


def confidence(features: Sequence[float], weights: Sequence[float] = PAWN_WEIGHTS) -> float:
    """The logistic model's probability that a blob is a pawn."""
    z = float(np.dot(np.asarray(features, dtype=np.float64), np.asarray(weights[:-1], dtype=np.float64)))
    z += float(weights[-1])
    return 1.0 / (1.0 + math.exp(-min(max(z, -50.0), 50.0)))


def set_size_deviation(rows: Sequence[Sequence[float]], weights: Sequence[float] = PAWN_WEIGHTS) -> list[float]:
    """Per blob: how far its size is from the size of this board's pawn set (|log area ratio|, 0..2).

    The four pawns are one set - the same piece in four colours - so on one board they
    are about as large as each other, whatever the edition; a picture or a glow that
    looks like a pawn rarely matches them (on 320 rendered boards of both renderers the
    pawns' log areas sat a median 0.08 from their set's, the artwork scoring like a
    pawn 0.4). The set's size is the median log area of the blobs sure to be pawns
    without this term (:data:`SET_SURE`); with fewer than two there is no set, and no
    deviation.
    """
    w = np.asarray(weights[:-1], dtype=np.float64)
    w[_SIZE] = 0.0
    sure_logit = math.log(SET_SURE / (1 - SET_SURE))
    areas = [float(row[_LOG_AREA]) for row in rows if float(np.dot(w, row)) + weights[-1] >= sure_logit]
    if len(areas) < 2:
        return [0.0] * len(rows)
    ref = float(np.median(areas))
    return [min(max(abs(float(row[_LOG_AREA]) - ref) - SET_TOLERANCE, 0.0), 2.0) for row in rows]


def with_set_size(rows: Sequence[Sequence[float]], weights: Sequence[float] = PAWN_WEIGHTS) -> list[tuple[float, ...]]:
    """``rows`` with their ``size_deviation`` filled in (see :func:`set_size_deviation`)."""
    devs = set_size_deviation(rows, weights)
    return [(*row[:_SIZE], dev, *row[_SIZE + 1 :]) for row, dev in zip(rows, devs, strict=True)]


__all__ = ["FEATURES", "PAWN_WEIGHTS", "PawnConfig", "confidence", "set_size_deviation", "with_set_size"]
