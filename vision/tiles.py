"""Tile openings: which sides of each of the 49 tiles are open, learned per frame.

Nothing here knows what an edition looks like. Every frame teaches the reader
what corridor and wall look like *in that frame*, from facts true of every
Labyrinth board: the 16 fixed tiles have known openings, a tile's four corners
are always wall, and every tile is a straight, a corner or a T.

* :mod:`vision.tile_features`: each side's two bands (the usual one and one
  hugging the tile border), described relative to the tile's own corners;
* :mod:`vision.tile_model`: per band, a discriminant learned on the fixed tiles'
  64 known edges, and how typical of corridor or wall each side looks;
* :mod:`vision.tile_lines`: each side's line structure (an arm's two bounding edges),
  read in frames where some tile is in doubt: glare or a pale outline edition
  flattens the colours but leaves the corridor's drawn borders;
* :mod:`vision.tile_decode`: the most likely valid shape of every tile.

This module combines them. A first read decodes every tile; the movable tiles
it is sure of then teach both models as well (self-training: ~200 labelled
edges instead of 64, spread over the whole board, its shadows and glare), and
the sides are read again. Pawn squares (``exclude``) do not teach the models,
their usual band counts little, and their probabilities are pulled toward 0.5.
Near the squares pawns stood on (``pawns_on``), a side darker than the board's
darker surface lies in a cast shadow and is read on shadow-invariant chroma only, and
so is a side read as the darker surface whose chroma (both bands) says the lighter one.

No tile has four openings or fewer than two: four open-looking sides in the usual
band hand the decision to the border band (as far as all four look open), and a tile
whose four sides all look closed (washed out) chooses its shape against itself.
A board whose shapes add up to more Ts or straights than any edition has is decoded
again within the inventory (:func:`vision.tile_decode.in_inventory`), changing only sides
the camera did not clearly see (:func:`_unseen_sides`, and sides whose two bands contradict
each other: :func:`_split_sides`); otherwise it stays as read. Which tile it changes is
weighed with blind sides' paint counted as the coin flip it is (:func:`_inventory_evidence`).
By day, with the pawns painted out, a side neither colour band reads as corridor or wall leans on
its linear-light contrast to the wall at its own ends (:func:`_veil_fallback`: glare adds light,
which cancels there). By day a hard shadow band crossing the board and its frame band (a lamp's arm, a window bar) is
divided out of the view first (:mod:`vision.tile_shade`); a frame with none reads as before.
At night each side is referred to the wall at its ends at its own depth
(:func:`tiles_for_lighting`), which cancels gaps and seams along the border.

Known limits (day misreads classified by cause, with the rules tried for each, in
vision/notes/tiles.md): sides hidden under tall pawns and piles, where only the paint-out
decides; glare veils and burnt-white spots; broad lighting shadows and stripes on pale
editions, where the usual band is typical and wrong; a pawn's body or a print's paint-out
read as a side; small geometry errors. No one class dominates, and neither a heavier line
logit, the shade-free read on every side nor a narrower ``inventory_doubt`` held on all
renderers.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from types import EllipsisType

import numpy as np

from companion.board import FIXED_TILES, SIZE, Square, Tile
from companion.observation import TileReading
from vision.rectify import Rectified
from vision.tile_decode import decode, in_inventory, posterior_of, shape_prior, within_inventory
from vision.tile_features import (
    DEFAULT_CONFIG,
    FIXED_EDGES,
    FIXED_OPEN,
    SHADE_FREE,
    TilesConfig,
    ViewBands,
    band_features,
    edge_features,
    lab_view,
    view_bands,
    view_integrals,
)
from vision.tile_lines import line_features
from vision.tile_model import Band, TileModel, fit_model, held_out, learn, read_band, typical_weight
from vision.tile_shade import ShadowBand, find_band, unshaded
from vision.tile_veil import veil_features

__all__ = [
    "DEFAULT_CONFIG",
    "GOOD_GRID_QUALITY",
    "TileModel",
    "TilesConfig",
    "ViewBands",
    "decode",
    "edge_features",
    "edge_probabilities",
    "fit_model",
    "fixed_edge_agreement",
    "grid_quality",
    "lab_view",
    "learn",
    "read_tiles",
    "shaded_sides",
    "shadow_band",
    "tiles_for_lighting",
    "view_bands",
]

#: A :func:`grid_quality` below this means a wrong geometry or a board partly hidden.
#: Measured on rendered photos: right grids 0.96-0.99 by day, 0.975-0.99 at night;
#: a hand over the board 0.68-0.92; a grid off by a tile or half a tile 0.5-0.8.
GOOD_GRID_QUALITY = 0.94

#: A band's typical weight (:func:`vision.tile_model.typical_weight`) from which it looks like corridor or
#: wall: at most the typical quantile's distance to the nearer class.
TYPICAL = 0.5

#: Squares of the fixed tiles: their sides are known, so they never teach the models twice.
_FIXED_SQUARES = np.zeros((SIZE, SIZE), dtype=bool)
_FIXED_SQUARES[tuple(np.array(sorted(FIXED_TILES)).T)] = True


def tiles_for_lighting(config: TilesConfig | None, lighting: str) -> TilesConfig:
    """The tile settings for a frame's lighting: at night, ``ends_at_depth`` and no ``inventory``.

    At night the corridor is often the darker surface (glowing walls), so a gap between
    displaced tiles or a seam along a border looks like corridor to the band hugging it;
    the wall at the side's ends at the same depth cancels it (held-out night frames:
    24 wrong tiles -> 16 on 70 frames). By day the corner reference stays: against the
    ends at depth a tile under a hand read clear, and the occlusion check needs it
    unclear (third renderer: 3 more frames with hands, of 44, read as boards).
    The linear-light fallback for sides neither colour band reads typically (``veil_fallback``)
    is measured by day only: off at night. The inventory check (``inventory``) is a day rule:
    at night a tile's class evidence is spread thin, and the cheapest change was as often a
    right tile (nine night sets of the five renderers: 21 wrong tiles -> 18, but two sets lost
    one each).
    """
    cfg = config or DEFAULT_CONFIG
    if lighting != "night":
        return cfg
    return replace(cfg, ends_at_depth=True, inventory=False, shadow_band=False, veil_fallback=0.0)


def _excluded_grid(exclude: Iterable[Square] | None) -> np.ndarray:
    grid = np.zeros((SIZE, SIZE), dtype=bool)
    for r, c in exclude or ():
        if 0 <= r < SIZE and 0 <= c < SIZE:
            grid[r, c] = True
    return grid


def combine_bands(usual: Band, outer: Band, excluded: np.ndarray, cfg: TilesConfig) -> np.ndarray:
    """Open probabilities from the two bands: the usual one as far as it is typical, the border one for the rest."""
    # A pawn stands on the centre and leans out over the inner part of the sides: there the border band decides.
    w_usual = np.where(excluded[:, :, None], usual.weight * cfg.hidden_weight, usual.weight)
    w_outer = outer.weight * (1.0 - w_usual)  # a fallback: the narrow band sees seams and shadows too
    logit = (w_usual * usual.logit + w_outer * outer.logit) / np.maximum(w_usual + w_outer, 1e-9)
    logit *= np.minimum(1.0, 2.0 * np.maximum(w_usual, w_outer))  # neither band typical: less sure
    return logit


def _floored(logit: np.ndarray, floor: float) -> np.ndarray:
    """Open probability from log-odds, kept within [floor, 1 - floor]."""
    prob = 1.0 / (1.0 + np.exp(-np.clip(logit, -50, 50)))
    return np.clip(prob, floor, 1.0 - floor)


def edge_probabilities(
    rect: Rectified, config: TilesConfig | None = None, exclude: Iterable[Square] | None = None
) -> tuple[np.ndarray, TileModel]:
    """Open probability of every side of every tile, shape (7, 7, 4) (N, E, S, W), and the usual band's model.

    Each side's log-odds is a typicality-weighted mean of its two bands': the
    usual one as far as it looks like corridor or wall, the border-hugging one
    (noisier: seams, neighbours' shadows) for the rest; when neither does
    (a picture or a pawn over both) the answer is softened toward 0.5.
    """
    cfg = config or DEFAULT_CONFIG
    logit, excluded, model, _, _ = _side_logits(rect, cfg, exclude)
    return _side_probabilities(logit, excluded, cfg.prob_floor, cfg), model


def _side_logits(
    rect: Rectified,
    cfg: TilesConfig,
    exclude: Iterable[Square] | None,
    bands: ViewBands | None = None,
    shaded: np.ndarray | None = None,
    visible: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray, TileModel, np.ndarray | None, tuple[Band, Band]]:
    """Combined open log-odds of every side (7, 7, 4), the excluded squares, the usual band's model,
    the shift (7, 7, 4) to add to the log-odds to choose shapes on (by day, sides neither colour band
    reads typically: :func:`_veil_fallback`; veiled tiles that are no shape: :func:`_veil_shift`; None:
    neither) and the final usual and border bands (:func:`_split_sides`, for the inventory).

    The veil read (:func:`_veil_read`) only chooses shapes: the published edges and the tiles'
    confidences stay the colour bands' evidence, so a tile reads as unclear where the occlusion
    check looks for one as before (a hand over the board is lit beyond the board's walls too:
    spent third occluded 0007 read as a board when the veil read sharpened its edges; spent sixth
    day 0000 reported occluded when the confidence was the veil-chosen shape's)."""
    excluded = _excluded_grid(exclude)
    if bands is None:
        bands = view_bands(rect, cfg)
    logit, usual, outer = _read_sides(bands, excluded, cfg, None, visible=visible)
    if 0.0 < cfg.self_train_confidence <= 1.0:
        # The tiles the first read is sure of teach the models too; their sides keep the decoded labels.
        shapes, conf = decode(_floored(logit, cfg.decode_floor), shape_prior(cfg.fixed_prior))
        sides = (shapes[..., None] >> np.arange(4)) & 1
        unsure = (conf < cfg.self_train_confidence) | excluded | _FIXED_SQUARES
        extra_sides = np.where(unsure[..., None], -1, sides)
        logit, usual, outer = _read_sides(bands, excluded, cfg, extra_sides, shaded, visible)
        if cfg.line_weight > 0 and bands.lightness is not None and _in_doubt(logit, cfg.line_gate):
            logit = logit + cfg.line_weight * _line_logit(rect, bands.lightness, excluded, cfg, extra_sides)
        shift = None
        read = None
        # Only once the pawns are known and painted out (``visible``): before, a side no colour band reads
        # typically is mostly under a pawn, which the linear-light read does not see through either.
        if cfg.veil_fallback > 0 and visible is not None and _colour_atypical(usual, outer, cfg, shaded).any():
            read = _veil_read(rect, excluded, cfg, extra_sides, visible)
            shift = _veil_fallback(logit, usual, outer, read[0], read[1], cfg, shaded)
        chosen = logit if shift is None else logit + shift
        invalid = _invalid_tiles(chosen)
        if (cfg.veil_weight > 0 or cfg.veil_shape_weight > 0) and invalid.any():
            # A tile that is no shape under a glare veil: its sides against itself in linear light too.
            veil, seen, veiled = read if read is not None else _veil_read(rect, excluded, cfg, extra_sides, visible)
            more = _veil_shift(chosen, veil, seen, invalid & veiled, cfg)
            shift = more if shift is None else shift + more
        return logit, excluded, usual.model, shift, (usual, outer)
    elif shaded is not None and shaded.any():
        logit, usual, outer = _read_sides(bands, excluded, cfg, None, shaded, visible)
    return logit, excluded, usual.model, None, (usual, outer)


def _read_sides(
    bands: ViewBands,
    excluded: np.ndarray,
    cfg: TilesConfig,
    extra_sides: np.ndarray | None,
    shaded: np.ndarray | None = None,
    visible: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[np.ndarray, Band, Band]:
    """Both bands read and combined: the sides' open log-odds (7, 7, 4), the usual and the border band.

    ``shaded`` (7, 7, 4): sides a pawn's cast shadow may darken; those of them darker
    than the board ever is (:func:`_darker_than_board`) are read by models learned on
    the shade-free features only (:func:`_shade_free_logit`). The darkness gate keeps the
    usual read wherever lightness is still evidence: the chroma alone separates less.
    """
    usual = read_band(bands.usual, excluded, cfg, extra_sides)
    outer = read_band(bands.outer, excluded, cfg, extra_sides)
    if visible is not None:
        usual = replace(usual, weight=usual.weight * _seen(visible[0], cfg))
        outer = replace(outer, weight=outer.weight * _seen(visible[1], cfg))
    # No tile has four openings: four open-looking sides mean something over the centre
    # (a dark pawn at night looks like corridor), so the border band decides there too,
    # as far as the usual band's sides all look open (:func:`covered_share`).
    share = np.where(excluded, 0.0, covered_share(usual.logit))  # a pawn square is down-weighted already
    usual_kept = replace(usual, weight=usual.weight * (1.0 - share * (1.0 - cfg.hidden_weight))[..., None])
    logit = combine_bands(usual_kept, outer, excluded, cfg)
    covered = share > 0.5
    if shaded is not None and shaded.any() and cfg.shade_free_near_pawns:
        # Near a pawn, a side darker than either class ever is lies in its cast shadow.
        dark = shaded & (_darker_than_board(bands.usual, cfg) | _darker_than_board(bands.outer, cfg))
        lighter = _lighter_is_open(bands.usual)
        darker_read = shaded & ((logit < 0.0) if lighter else (logit > 0.0))
        if dark.any() or (cfg.shadow_explains and darker_read.any()):
            free, agree = _shade_free_logit(bands, excluded | covered, cfg, extra_sides, visible)
            if cfg.shadow_explains:
                # A shadow only darkens: a side read as the darker class whose chroma says the
                # lighter one in both bands is what a cast shadow makes of the lighter class.
                explained = darker_read & agree & ((free > 0.0) if lighter else (free < 0.0))
                if visible is not None:  # a shadow falls on board the camera saw, not on paint
                    explained &= visible[1] >= cfg.board_share
                dark = dark | explained
            logit = np.where(dark, free, logit)
    return logit, usual, outer


def _split_sides(usual: Band, outer: Band, cfg: TilesConfig) -> np.ndarray:
    """Sides (7, 7, 4) both bands read typically and clearly, but opposite: not clearly seen.

    Either band alone would count as clear (beyond ``inventory_doubt``), yet they
    contradict each other: a broad lighting shadow across the usual band on a pale edition
    (spent final8 held-out 0000: usual band wrong at log-odds 1.6-4.3, border band right at
    +-10). Neither band is the better in general (8 day sets of four renderers: of 55 such
    sides the usual band is right on 46), so such a side is only handed to the inventory.
    """
    clear = np.log(cfg.inventory_doubt / (1.0 - cfg.inventory_doubt))
    typical = np.minimum(usual.weight, outer.weight) >= TYPICAL
    opposite = (usual.logit > 0.0) != (outer.logit > 0.0)
    return typical & opposite & (np.minimum(np.abs(usual.logit), np.abs(outer.logit)) > clear)


def _lighter_is_open(features: np.ndarray) -> bool:
    """Whether corridor is the lighter surface of this frame (the fixed tiles' known edges' mean lightness)."""
    known = features[FIXED_EDGES[:, 0], FIXED_EDGES[:, 1], FIXED_EDGES[:, 2], 0]
    return bool(known[FIXED_OPEN].mean() > known[~FIXED_OPEN].mean())


def _seen(visible: np.ndarray, cfg: TilesConfig) -> np.ndarray:
    """How much a band's side counts (7, 7, 4) given the share of its box no pawn covers.

    A box at least ``board_share`` visible counts fully (its board pixels are most of
    it); below, the painted-out pixels weigh as ``painted_weight``, so the tile's valid
    shape rests on the sides the camera saw.
    """
    seen = np.clip(visible / cfg.board_share, 0.0, 1.0)
    return cfg.painted_weight + (1.0 - cfg.painted_weight) * seen


def _in_doubt(logit: np.ndarray, level: float) -> bool:
    """Whether any tile of the frame is in doubt: a side whose open probability lies between
    1 - ``level`` and ``level``, or four sides that all look closed (washed out)."""
    doubtful = (np.abs(logit) < np.log(level / (1.0 - level))).any(axis=2) | (logit.max(axis=2) < 0.0)
    return bool(doubtful.any())


def _invalid_tiles(logit: np.ndarray) -> np.ndarray:
    """Tiles (7, 7) whose sides do not read as a valid shape: fewer than two or four open-looking sides."""
    ordered = np.sort(logit, axis=2)
    return (ordered[..., 2] < 0.0) | (ordered[..., 0] > 0.0)


def _veil_read(
    rect: Rectified,
    excluded: np.ndarray,
    cfg: TilesConfig,
    extra_sides: np.ndarray,
    visible: tuple[np.ndarray, np.ndarray] | None,
) -> tuple[Band, np.ndarray, np.ndarray]:
    """Every side read from :func:`vision.tile_veil.veil_features`, learned like the colour bands, how
    far each side was seen (:func:`_seen`; 1 without pawns) and the veiled tiles (7, 7)."""
    features, veiled = veil_features(rect, cfg)
    veil = read_band(features, excluded, cfg, extra_sides)
    seen = np.ones(veil.logit.shape) if visible is None else _seen(visible[0], cfg)
    return veil, seen, veiled


def _veil_fallback(
    logit: np.ndarray,
    usual: Band,
    outer: Band,
    veil: Band,
    seen: np.ndarray,
    cfg: TilesConfig,
    shaded: np.ndarray | None = None,
) -> np.ndarray:
    """How the log-odds (7, 7, 4) move for choosing shapes where neither colour band looks like corridor or wall.

    The linear-light read against the side's own ends (:mod:`vision.tile_veil`) is a third band,
    a fallback after both colour bands: the log-odds move toward it by its typicality times the
    share of the side seen times how far both colour bands fall short of ``veil_fallback``.
    A glare pool adds light: in Lab it moves a side off both classes (atypical in both bands,
    often confidently wrong), while in linear light the same added light cancels against the
    wall at the side's ends. Where the veil read is itself atypical (a spot burnt to white, a
    picture) it moves little. Sides a found pawn may shade (``shaded``) are left alone: a cast
    shadow multiplies the light, which the difference does not cancel, and those sides have
    their own shade-free read. Only on the read with the pawns painted out (the reader's second;
    the caller's gate): on the first, the sides no colour band reads typically are mostly under
    pawns (the bench photo's three are), and a frame whose pawn stage found none reads as before.
    Only for choosing shapes; the published edges stay the colour read's (the occlusion check
    weighs them). Figures: vision/notes/tiles.md, t31.
    """
    colour = np.maximum(usual.weight, outer.weight)
    share = veil.weight * seen * np.clip(1.0 - colour / cfg.veil_fallback, 0.0, 1.0)
    if shaded is not None:
        share = np.where(shaded, 0.0, share)
    return share * (veil.logit - logit)


def _colour_atypical(usual: Band, outer: Band, cfg: TilesConfig, shaded: np.ndarray | None) -> np.ndarray:
    """Sides (7, 7, 4) :func:`_veil_fallback` may move: neither colour band ``veil_fallback`` typical, no pawn's
    shade. A frame with none skips the linear-light read (an integral image of the tile area)."""
    atypical = np.maximum(usual.weight, outer.weight) < cfg.veil_fallback
    return atypical if shaded is None else atypical & ~shaded


def _veil_shift(logit: np.ndarray, veil: Band, seen: np.ndarray, chosen: np.ndarray, cfg: TilesConfig) -> np.ndarray:
    """How the log-odds (7, 7, 4) of the ``chosen`` tiles (veiled, no shape) move for choosing their shapes.

    Where the veil read of such a tile is itself a shape (two or three open-looking sides), it
    replaces the colour read (``veil_shape_weight``, as far as each side was seen): a veil adds
    light, which compresses the Lab differences toward "closed", so on this tile the colour read
    is the one known to be wrong, while the veil cancels in the linear-light read. Its typicality
    is not asked: under the veil every side is atypical for the reason the colour read failed.
    Where the veil read is no shape either (a spot burnt out to white: no contrast is left, and
    the normalised differences are noise that looks open on all four sides), it is only a weak
    vote (``veil_weight`` times its typicality), and the tile is chosen against itself as before.
    Measurements and tried alternatives: vision/notes/tiles.md.
    """
    shape = chosen & ~_invalid_tiles(veil.logit)
    weak = chosen & ~shape
    replace_by = cfg.veil_shape_weight * seen * (veil.logit - logit)
    vote = cfg.veil_weight * veil.weight * seen * veil.logit
    return np.where(shape[..., None], replace_by, np.where(weak[..., None], vote, 0.0))


def _line_logit(
    rect: Rectified, lightness: np.ndarray, excluded: np.ndarray, cfg: TilesConfig, extra_sides: np.ndarray
) -> np.ndarray:
    """Open log-odds (7, 7, 4) from the sides' line structure (:func:`vision.tile_lines.line_features`),
    learned like the colour bands (fixed tiles, then the sure ones) and weighted by how typical it looks."""
    lines = read_band(line_features(rect, lightness, (cfg.edge_lo, cfg.edge_hi)), excluded, cfg, extra_sides)
    return lines.weight * lines.logit


def covered_share(logit: np.ndarray) -> np.ndarray:
    """How likely (7, 7) all four sides of a tile look open from one band's log-odds (7, 7, 4).

    Four open-looking sides mean something stands over the centre; the product of the
    four open probabilities says how far, without the jump of a yes/no rule at zero: a
    picture over three sides and a fourth just past either way is the same tile.
    """
    return (1.0 / (1.0 + np.exp(-np.clip(logit, -50.0, 50.0)))).prod(axis=2)


def _shade_free_logit(
    bands: ViewBands,
    excluded: np.ndarray,
    cfg: TilesConfig,
    extra_sides: np.ndarray | None,
    visible: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Open log-odds of every side from the shadow-invariant chroma features alone, both bands combined,
    and whether both bands agree on the side and look like the board's classes (7, 7, 4).

    A pawn's cast shadow is left on the board after the pawn is painted out: it
    darkens a corridor toward a wall's lightness (and dims its colour and texture
    alike), but leaves a*, b* over L* + 16 unchanged. Learning the discriminant on
    those features only is the Gaussian model with the shadow-hit ones marginalised
    out; where this frame's corridor and wall differ little in colour the learned
    separation is small and so are the log-odds, and the tile's other sides and its
    valid shapes decide.
    """
    usual = read_band(bands.usual[..., SHADE_FREE], excluded, cfg, extra_sides)
    outer = read_band(bands.outer[..., SHADE_FREE], excluded, cfg, extra_sides)
    # Both bands agree and one looks like the board (within the typical quantile of a class:
    # a coloured light or a picture moves the chroma off both; the shadow's dim, bluish core
    # beside the pawn moves the near band's off alone, spent final9 third 0004 5,1 W).
    agree = ((usual.logit > 0.0) == (outer.logit > 0.0)) & (np.maximum(usual.weight, outer.weight) >= TYPICAL)
    if visible is not None:  # weighed as the full read it replaces is (:func:`_seen`)
        usual = replace(usual, weight=usual.weight * _seen(visible[0], cfg))
        outer = replace(outer, weight=outer.weight * _seen(visible[1], cfg))
    return combine_bands(usual, outer, excluded, cfg), agree


def _darker_than_board(features: np.ndarray, cfg: TilesConfig) -> np.ndarray:
    """Sides (7, 7, 4) whose lightness (relative to the tile's corners) is below the darker class's
    by more than ``shadow_spreads`` of that class's spread on the fixed tiles' known edges.

    Only a cast shadow makes the board darker than its own darker surface (wall or
    corridor, whichever it is in this edition and light); its lightness then says nothing.
    """
    known = features[FIXED_EDGES[:, 0], FIXED_EDGES[:, 1], FIXED_EDGES[:, 2], 0]
    mean, spread = min((float(cls.mean()), float(cls.std())) for cls in (known[FIXED_OPEN], known[~FIXED_OPEN]))
    return features[..., 0] < mean - cfg.shadow_spreads * max(spread, 1.0)


def shaded_sides(near: Iterable[Square] | None) -> np.ndarray:
    """Sides (7, 7, 4) a pawn on one of ``near`` may shade: its square's four, its neighbours' facing ones."""
    shaded = np.zeros((SIZE, SIZE, 4), dtype=bool)
    for r, c in near or ():
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            continue
        shaded[r, c] = True
        for side, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
            nr, nc = r + dr, c + dc
            if 0 <= nr < SIZE and 0 <= nc < SIZE:
                shaded[nr, nc, (side + 2) % 4] = True
    return shaded


def _washed_out_relative(logit: np.ndarray, excluded: np.ndarray) -> np.ndarray:
    """Log-odds (7, 7, 4) to choose shapes on: a tile whose four sides all look closed is read against itself.

    No tile has fewer than two openings, so four closed-looking sides mean the tile's
    contrast is flattened (glare washing it out, haze): its two least closed sides are
    openings, its most closed one a wall, and the remaining side goes with whichever of
    those it is nearer. The sides are shifted by the midpoint between the second least
    closed and the most closed; the published edges keep the frame's evidence.
    """
    ordered = np.sort(logit, axis=2)
    flat = (ordered[..., 3] < 0.0) & ~excluded
    if not flat.any():
        return logit
    mid = 0.5 * (ordered[..., 2] + ordered[..., 0])
    return np.where(flat[..., None], logit - mid[..., None], logit)


def _side_probabilities(logit: np.ndarray, excluded: np.ndarray, floor: float, cfg: TilesConfig) -> np.ndarray:
    """Floored open probabilities; an excluded square's pulled toward 0.5."""
    prob = _floored(logit, floor)
    if excluded.any():
        prob[excluded] = 0.5 + (prob[excluded] - 0.5) * cfg.exclude_weight
    return prob


def _unseen_sides(
    prob: np.ndarray, excluded: np.ndarray, visible: tuple[np.ndarray, np.ndarray] | None, cfg: TilesConfig
) -> np.ndarray:
    """Sides (7, 7, 4) the camera did not clearly see: the only ones the inventory may change.

    A side is unseen where a pawn covered its usual band's box past ``board_share`` (the
    read is the inpainting's guess), its square is excluded, or its open probability is in
    doubt (between 1 - ``inventory_doubt`` and ``inventory_doubt``). A clearly seen side is
    what the board shows, whatever the inventory says: FORMATS.md accepts any board of the
    ten shapes, and a renderer drawing such boards (9 Ts, 16 straights: 18 frames of six
    renderers) lost 4-10 right tiles a frame to the unguarded check (118 wrong -> 4).
    """
    doubt = cfg.inventory_doubt
    weak = ((prob > 1.0 - doubt) & (prob < doubt)) | excluded[..., None]
    if visible is not None:
        weak |= visible[0] < cfg.board_share
    return weak


def _inventory_evidence(
    logit: np.ndarray, prob: np.ndarray, visible: tuple[np.ndarray, np.ndarray] | None, cfg: TilesConfig
) -> np.ndarray:
    """``prob`` (7, 7, 4) for the inventory's programme: blind sides' log-odds times ``inventory_blind_slope``.

    A board past the counts needs one tile changed, and the programme changes the one whose
    evidence costs least. A blind side (neither band box ``blind_share`` seen, under a tall
    pawn or a pile) is read on the inpainting alone, whose log-odds say little (open 50 % at
    -6..-3 and 75 % at +3..+6 over 67 such sides: tile_hidden.md), so at face value a pile's
    painted T arm outbid a side the camera saw in doubt beside it, and the seen tile lost its
    T (held-out 0027 5,3 for 6,3's blind S). Only which tiles change class, and to which class,
    depends on this: each tile's shape within a class stays the best on the evidence as read
    (``cost`` of :func:`vision.tile_decode.in_inventory`). Day only (no inventory at night).
    Figures: vision/notes/tiles.md, t30.
    """
    if visible is None or cfg.inventory_blind_slope == 1.0:
        return prob
    blind = np.maximum(visible[0], visible[1]) < cfg.blind_share
    if not blind.any():
        return prob
    out = prob.copy()
    out[blind] = 1.0 / (1.0 + np.exp(-cfg.inventory_blind_slope * logit[blind]))
    return out


def read_tiles(
    rect: Rectified,
    config: TilesConfig | None = None,
    exclude: set[Square] | None = None,
    bands: ViewBands | None = None,
    pawns_on: Iterable[Square] | None = None,
    visible: tuple[np.ndarray, np.ndarray] | None = None,
    band: ShadowBand | EllipsisType | None = ...,
) -> list[TileReading]:
    """Read the 49 tiles (row-major) of a rectified board.

    ``exclude``: squares where a pawn or a hand hides the tile; they neither
    teach the model nor give confident answers. ``bands``: this view's
    :func:`view_bands` (with the same ``config``), when the caller has them.
    ``pawns_on``: squares where pawns stood (painted out or not): the sides their cast
    shadows may reach (:func:`shaded_sides`) are read on shade-free features only.
    ``visible``: the share of each side's usual and border box no pawn covered
    (:func:`vision.tile_hidden.visible_shares`); a band counts as far as it was seen.
    ``band``: the hard shadow band to divide out (:func:`shadow_band` of this view; None: none);
    ``...`` (the default): looked for here.
    """
    cfg = config or DEFAULT_CONFIG
    if cfg.shadow_band:
        rect, bands = _without_shadow_band(rect, cfg, bands, find_band(rect) if band is ... else band)
    shaded = shaded_sides(pawns_on) if pawns_on else None
    logit, excluded, model, veil, both = _side_logits(rect, cfg, exclude, bands, shaded, visible)
    prob = _side_probabilities(logit, excluded, cfg.prob_floor, cfg)
    # The edges stay the frame's evidence (the referee and grid_quality weigh them);
    # only the decoded shape of a fixed square leans on its known openings.
    # The shape is chosen on probabilities floored lower: a side far past the published
    # floor still counts for more than one just past it (two closed-looking sides of
    # a corner: the less closed one opens), while the confidence comes from the edges.
    prior = shape_prior(cfg.fixed_prior)
    choose = _washed_out_relative(logit, excluded)
    choose_prob = _side_probabilities(choose, excluded, cfg.decode_floor, cfg)
    shapes, _ = decode(choose_prob, prior)
    # The confidence stays the evidence's for its own best shape: the occlusion check weighs
    # how clearly each tile was seen, which the board's inventory and the veil read do not change.
    conf = posterior_of(prob, shapes, prior)
    if veil is not None:
        choose = _washed_out_relative(logit + veil, excluded)
        choose_prob = _side_probabilities(choose, excluded, cfg.decode_floor, cfg)
        shapes, _ = decode(choose_prob, prior)
    if cfg.inventory and not within_inventory(shapes):
        unseen = _unseen_sides(choose_prob, excluded, visible, cfg) | _split_sides(*both, cfg)
        cost = _inventory_evidence(choose, choose_prob, visible, cfg)
        shapes = in_inventory(choose_prob, prior, shapes, unseen, cost)
    # A frame whose known edges barely separate cannot be trusted whatever a tile says.
    trust = float(np.clip(model.separation / 3.0, 0.0, 1.0))
    # tolist(): the same Python ints and floats as converting element by element, made at once.
    shape_list, conf_list, prob_list = shapes.tolist(), conf.tolist(), prob.tolist()
    out = []
    for r in range(SIZE):
        for c in range(SIZE):
            edges = tuple(prob_list[r][c])
            out.append(TileReading(Tile(shape_list[r][c]), conf_list[r][c] * trust, edges))  # type: ignore[arg-type]
    return out


def shadow_band(
    rect: Rectified, config: TilesConfig | None = None, like: ShadowBand | None = None
) -> ShadowBand | None:
    """The hard shadow band across the view that :func:`read_tiles` divides out with ``config`` (None: none,
    or the config reads without it), for the caller to pass to that read. ``like``: the band of an earlier
    view of the same frame (:func:`vision.tile_shade.find_band`: not searched for again, only fitted)."""
    if not (config or DEFAULT_CONFIG).shadow_band:
        return None
    return find_band(rect, like)


def _without_shadow_band(
    rect: Rectified, cfg: TilesConfig, bands: ViewBands | None, band: ShadowBand | None
) -> tuple[Rectified, ViewBands | None]:
    """The view and its bands with ``band`` (a hard shadow band across the board) divided out
    (:mod:`vision.tile_shade`); unchanged when there is none. The caller's board mask (pawns left out) is kept."""
    if band is None:
        return rect, bands
    lit = unshaded(rect, band)
    return lit, view_bands(lit, cfg, bands.board if bands is not None else None)


def grid_quality(
    rect: Rectified,
    config: TilesConfig | None = None,
    features: np.ndarray | None = None,
    bands: ViewBands | None = None,
) -> float:
    """How well the geometry fits a Labyrinth board, 0..1 (about 0.5 for a wrong grid, near 1 for a right one).

    The share of the 16 fixed tiles' 64 known edges whose side (open/closed)
    models learned from the *other* fixed tiles get right (leave-one-tile-out,
    so a wrong grid cannot explain itself), softened by how sure they are.
    Both bands are read as :func:`edge_probabilities` reads them (12 fixed
    tiles carry a picture, which may reach into the usual band), except where
    both look like corridor or wall: there the band that tells them apart more
    sharply decides (no label is looked at to choose). A shadow band or a glare
    over the usual band flattens its contrast while the border band stays sharp
    and right (spent final9 held-out day 0021: usual log-odds +-0.5, border +-2.5
    to 4.5), or a picture's rim makes it typical and wrong against a sure border
    band (0014, 0,2 W: -3.3 against +8.7); the typical usual band's vote then kept
    two clean boards under 0.85 (0.83, 0.82 -> 0.91, 0.93). A hand or an object
    over a fixed tile covers both bands: the sharper one is as wrong (the three
    hands the quality alone catches, spent final7 si_occ 0010, th_occ 0001, final8
    fi_occ 0003: 0.78, 0.82, 0.82 -> 0.78, 0.84, 0.83). The 16 folds
    are solved together in closed form. ``features``: the view's
    :func:`edge_features` with ``shade_free``, when the caller has them; ``bands``:
    both bands' (:func:`view_bands` with the same ``config``).
    """
    return float(fixed_edge_agreement(rect, config, features, bands).mean())


def fixed_edge_agreement(
    rect: Rectified,
    config: TilesConfig | None = None,
    features: np.ndarray | None = None,
    bands: ViewBands | None = None,
) -> np.ndarray:
    """Per known edge of the fixed tiles (FIXED_EDGES' order, 64: four per tile) the probability that it
    reads as the board says; :func:`grid_quality` is their mean (arguments as there)."""
    cfg = config or DEFAULT_CONFIG
    if bands is None:
        if features is None:
            bands = view_bands(rect, cfg)
        else:
            outer = replace(cfg, edge_lo=cfg.pawn_edge_lo, edge_hi=cfg.pawn_edge_hi)
            bands = ViewBands(features, band_features(rect, outer, view_integrals(rect)))
    read = []
    for band_feats in (bands.usual, bands.outer):
        known = band_feats[FIXED_EDGES[:, 0], FIXED_EDGES[:, 1], FIXED_EDGES[:, 2]]  # (64, F)
        logit, distance = held_out(known, cfg)
        model = TileModel(np.zeros(1), 1.0, 0.0, 1.0)  # unused: only the logits and weights combine
        read.append(Band(model, logit[None, :, None], typical_weight(distance, known.shape[1], cfg)[None, :, None]))
    logit = combine_bands(read[0], read[1], np.zeros((1, len(FIXED_EDGES)), dtype=bool), cfg)
    logit = sharper_where_typical(read[0], read[1], logit)[0, :, 0]
    prob = _floored(logit, cfg.prob_floor)
    return np.where(FIXED_OPEN, prob, 1.0 - prob)


def sharper_where_typical(usual: Band, outer: Band, combined: np.ndarray) -> np.ndarray:
    """Log-odds (any shape, as the bands'): where both bands look like corridor or wall, the one
    that tells them apart more sharply (the larger magnitude); elsewhere ``combined``.

    For :func:`grid_quality`: it chooses without the known side, so a side that both bands see
    wrong (a hand, an object) stays wrong and a wrong grid gains nothing on average.
    """
    typical = (usual.weight >= TYPICAL) & (outer.weight >= TYPICAL)
    sharper = np.where(np.abs(outer.logit) > np.abs(usual.logit), outer.logit, usual.logit)
    return np.where(typical, sharper, combined)
