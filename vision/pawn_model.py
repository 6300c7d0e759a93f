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
PAWN_WEIGHTS: tuple[float, ...] = (
    -2.264, 5.412, 0, -14.43, 0, 0.7746, 0, 0, -14.43, 2.165, 1.355, 0, 22.6, 3.208, 1.279, 0, -6.646, 16.12, 2.896, 0,
    -14.79,
)  # fmt: skip


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
    was 0.17).
    ``wall_zone``: distance from a tile's corridor centre lines (tiles) beyond which
    the tile is wall whatever the edition (corridors are at most ~0.5 tile wide);
    the wall colour is learned there.
    ``corridor_core``: distance within which the tile is corridor whatever the edition
    (corridors are at least ~0.28 tile wide); pawn-coloured pixels there are kept even
    when they look like the walls, everywhere else wall-like pixels are dropped.
    ``wall_distance2``: squared Mahalanobis distance to the wall (or corridor) colour
    under which a pixel is artwork; ``shade_invariant_artwork``/``artwork_lightness_weight``:
    compare in chromaticity plus a little lightness (else in Lab).
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
    weights: tuple[float, ...] = PAWN_WEIGHTS
    hue_ranges: Mapping[Color, tuple[tuple[int, int], ...]] = field(default_factory=lambda: dict(HUE_RANGES))


def confidence(features: Sequence[float], weights: Sequence[float] = PAWN_WEIGHTS) -> float:
    """The logistic model's probability that a blob is a pawn."""
    z = float(np.dot(np.asarray(features, dtype=np.float64), np.asarray(weights[:-1], dtype=np.float64)))
    z += float(weights[-1])
    return 1.0 / (1.0 + math.exp(-min(max(z, -50.0), 50.0)))


__all__ = ["FEATURES", "PAWN_WEIGHTS", "PawnConfig", "confidence"]
