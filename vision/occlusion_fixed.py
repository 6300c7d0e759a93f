"""The fixed tiles judged by shade-free colour alone: a low-contrast board under a shadow band is not a hidden one.

The grid quality (:func:`vision.tiles.grid_quality`) is the mean probability that
each of the 16 fixed tiles' 64 known edges lies on its known side, judged by a model
learnt from the *other* fixed tiles. It rewards certainty: under 0.85 the reader
calls the board partly hidden. On an edition whose corridors differ little from its
walls, with a lamp's shadow band across it, every edge is read right but none is
sure: a clean board measured under the bar with all 16 fixed tiles read right. A hand
or an object over the board puts edges on the wrong side instead.

Only when the quality fails, each edge is judged again the same way (both bands,
leave one fixed tile out) on the shadow-invariant chroma alone, a*/(L*+16) and
b*/(L*+16) relative to the tile's corners (:func:`vision.tile_features._shade_free_chroma`,
what the locator's last judge uses, :func:`vision.locate_refine.shade_free_separation`):
a shadow dims a tile's lightness and colour differences evenly, it does not move
their ratios. What counts is on which side each edge falls, not how sure it is.

It does not help where walls and corridors differ in lightness only (not chroma), nor under
glare (a clipped corner has no chroma); the cases and the rules tried: vision/notes/occlusion_fixed.md.

The grid quality tile by tile (:func:`fixed_tile_agreement`) serves
:func:`vision.occlusion._unwashed_quality`: fixed tiles a lamp washed out (every corner partly
clipped, seams kept) and left disagreeing are left out of a failing quality when no tile corner is
foreign.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from companion.board import Square
from vision.rectify import Rectified
from vision.tile_features import FIXED_EDGES, FIXED_OPEN, view_bands
from vision.tile_model import Band, TileModel, held_out, typical_weight
from vision.tiles import combine_bands, fixed_edge_agreement, tiles_for_lighting

#: The shade-free chroma among the reader's 12 edge features: (L, a, b, std L, a/(L+16), b/(L+16)) relative to
#: the tile's middle corners, then the same relative to the side's ends (:func:`vision.tile_features.edge_features`).
SHADE_FREE = np.array([4, 5, 10, 11])


def shade_free_mismatch(rect: Rectified, covered: Iterable[Square] = (), lighting: str = "day") -> int:
    """Fixed tiles not under a pawn (``covered``) with a known edge on the wrong side, each edge judged on the
    shade-free chroma alone by a model learnt from the other fixed tiles (both bands combined as the grid
    quality combines them). ~5 ms; asked only when the grid quality fails.
    """
    cfg = tiles_for_lighting(None, lighting)
    bands = view_bands(rect, cfg)
    read = []
    for features in (bands.usual, bands.outer):
        known = features[FIXED_EDGES[:, 0], FIXED_EDGES[:, 1], FIXED_EDGES[:, 2]][:, SHADE_FREE]
        logit, distance = held_out(known, cfg)
        weight = typical_weight(distance, known.shape[1], cfg)
        read.append(Band(TileModel(np.zeros(1), 1.0, 0.0, 1.0), logit[None, :, None], weight[None, :, None]))
    logit = combine_bands(read[0], read[1], np.zeros((1, len(FIXED_EDGES)), dtype=bool), cfg)[0, :, 0]
    wrong = ((logit > 0) != FIXED_OPEN).reshape(-1, 4).any(axis=1)  # per fixed tile, in FIXED_EDGES' order
    hidden = set(covered)
    tiles = [(int(r), int(c)) for r, c in FIXED_EDGES[::4, :2]]
    return sum(1 for sq, bad in zip(tiles, wrong, strict=True) if bad and sq not in hidden)


def fixed_tile_agreement(rect: Rectified, lighting: str = "day") -> np.ndarray:
    """Per fixed tile (in FIXED_EDGES' order, 16) the mean agreement of its 4 known edges
    (:func:`vision.tiles.fixed_edge_agreement`, whose mean is the grid quality). ~5 ms; asked only when
    the grid quality fails."""
    return fixed_edge_agreement(rect, tiles_for_lighting(None, lighting)).reshape(-1, 4).mean(axis=1)


def fixed_squares() -> list[Square]:
    """The 16 fixed tiles' squares in FIXED_EDGES' order."""
    return [(int(r), int(c)) for r, c in FIXED_EDGES[::4, :2]]
