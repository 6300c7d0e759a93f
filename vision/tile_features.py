"""Tile-opening features: what each side of each tile looks like, relative to the tile's own corners.

Each sampled region is described by its mean Lab colour, its texture (the
standard deviation of L) and its shade-free chroma (a* and b* over L* + 16,
which a shadow leaves unchanged), *minus the same description of the tile's own
corners*, twice: against the middle two of all four corners (robust to one
corner hidden by a pawn or a picture's rim) and against the wall at that side's
two ends, as far from the border as the side's box (nearer, so a shadow band, a
glare spot or a lamp's fall-off across the tile cancels better, and so does a
seam or a gap between displaced tiles running along the border). That subtraction removes what a whole tile
shares: uneven light, colour casts, the companion's LED spill on that square,
the glow-in-the-dark tint at night.

The reader's views (:func:`view_bands`) measure those means over the pixels that
look like the board only: the fixed tiles' corners and known-open edges show
what wall and corridor look like in this frame, and a pixel far from both (in
shade-free chroma) belongs to something lying on the board.

Edge regions sit between the tile's centre and its border, not at the centre,
so treasure pictures (at the centre) do not look like corridor or wall. Large
pictures and pawns still reach into them, so every side is read in two bands
(:class:`ViewBands`): the usual one and a narrow one hugging the tile border.
The models that turn these features into openings are in :mod:`vision.tile_model`.

Known limit: a broad lighting shadow across a pale edition (a stripe narrower than a
tile, or a diagonal one) can make a side read wrong. The shade-free chroma says nothing
there (cream and brown wood share their hue), and a stripe over a side but not its
corners leaves no reference of the tile's own to correct it; a diagonal edge puts a
side's box and its ends on opposite sides of it, so the ends-referenced half is wrong
too. Preferring the ends' reference, letting the border band vote, or reading on the
ends only under a light edge were measured and not kept: only a model of the edge
itself could read these.

Measurements and tried alternatives: vision/notes/tile_features.md.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import Any

import cv2
import numpy as np

from companion.board import FIXED_TILES, SIZE
from vision.rectify import Rectified

__all__ = [
    "DEFAULT_CONFIG",
    "FIXED_EDGES",
    "FIXED_OPEN",
    "SHADE_FREE",
    "TilesConfig",
    "ViewBands",
    "band_features",
    "box_means",
    "edge_features",
    "end_boxes",
    "lab_view",
    "side_boxes",
    "view_bands",
    "view_integrals",
]


@dataclass(frozen=True)
class TilesConfig:
    """Sampling geometry (fractions of a tile) and model settings, with the reasons for the defaults.

    * ``corner_lo..corner_hi``: corner boxes start just inside the seam (seams and
      the neighbour's shadow are neither corridor nor wall) and stay small enough
      to miss the corridor of any edition.
    * ``edge_half_width``: half the width of an edge box along the side; corridors
      are about a third of a tile wide in every edition, so 0.09 stays inside.
    * ``edge_lo..edge_hi``: how far the edge box reaches from the side toward the
      centre; it stops well before the centre picture (pictures up to ~55 % of
      a tile across stay out of it).
    * ``prob_floor``: no side is ever certain; keeps one misread from dominating a
      candidate board's score.
    * ``exclude_weight``: how much of an excluded (pawn-covered) tile's evidence is kept.
    * ``pawn_edge_lo..pawn_edge_hi``: the second band read on every side, hugging
      the tile border, where a pawn standing on the centre or a large picture
      rarely reaches.
    * ``typical_quantile``: a band's distance to the nearer class (squared
      Mahalanobis) is judged against this chi-square quantile of the feature
      dimension; a band that far out counts half (the weight falls as the
      square of the ratio).
    * ``hidden_weight``: the usual band's share on an excluded (pawn) square.
    * ``fixed_prior``: log-odds in favour of a fixed square's known shape when
      decoding (a pawn on a start corner must not turn it into a T; two sides
      clearly contradicting it still win, which grid_quality then flags): between
      one and two sides' largest evidence: a side's combined log-odds reach at most
      ``band_logit_limit`` (10), so 15.
    * ``decode_floor``: the floor of the side probabilities the shape is chosen on
      (``prob_floor`` stays the published edges' floor); its log-odds (11.5) lie beyond
      ``band_logit_limit``, so two sides that both look closed keep their order (one at
      -7 with a doubtful band, one at -10) instead of tying at the floor and leaving the
      choice to the inventory prior.
    * ``spread_inflation``: widens the learned class spreads, because 64 samples
      underestimate the tails.
    * ``self_train_confidence``: after a first read, the movable tiles decoded at least
      this sure (and not under a pawn) teach both bands' models too, with their decoded
      sides as labels: 64 known edges become ~200, covering the frame's shadows, glare
      and art far from the fixed tiles. 0 or above 1 turns the second pass off.
    * ``band_logit_limit``: no single band's vote on a side counts for more than these
      log-odds; the learned Gaussians' tails are far thinner than a real frame's (a seam,
      a pawn's shadow), and an atypical band must not outshout a typical one. The cap
      saturates (``limit * tanh(logit / limit)``) so votes far past it keep their order.
    * ``foreign_sigma``: a pixel whose shade-free chroma lies more than this many robust
      spreads from both the fixed tiles' wall and corridor colours is not board (a
      treasure picture reaching into a side, a pawn's remains, an LED's colour) and is
      left out of the box means (:func:`_board_mask`); 0 turns this off. Far out on
      purpose: a wall's wood grain or a corridor's speckles must stay board.
    * ``shade_free_near_pawns``: the sides a pawn's cast shadow may reach (``pawns_on``
      of :func:`vision.tiles.read_tiles`) are read on the :data:`SHADE_FREE` features only
      when darker than the board's darker class by ``shadow_spreads`` of its spread.
    * ``shadow_explains``: near a pawn, a side the full features read as the frame's darker
      class (wall by day) while both bands' shade-free chroma read the lighter one is read on
      the chroma too: a shadow only darkens, so it explains that disagreement and nothing else
      does; a lighter shadow leaves a corridor at the wall's lightness, above the darkness gate.
      Only where both bands' chroma is typical of a class (a coloured light or a picture moves
      it off both) and the border band was mostly seen (a shadow falls on board, not on paint).
    * ``local_sigma``, ``local_prior``: where each band's two classes lie on its discriminant
      is taken near each tile (Gaussian weights this many tiles wide over the labelled
      sides: fixed tiles, then the sure ones), shrunk toward the board's by ``local_prior``
      sides' worth: light that is not uniform over the board (a glare spot flattening a
      region's contrast, a lamp's fall-off) shifts the classes there. 0: one pair for the board.
    * ``ends_at_depth``: the second reference of each side is the wall at its two ends at the
      same depth from the border as its box (corner-wide boxes), not the tile's corner boxes:
      a dark gap between displaced tiles or a seam along the border then darkens the
      reference as it darkens the side (at night, with dark corridors, it looked open).
      The reader turns it on for night frames only (:func:`vision.tiles.tiles_for_lighting`).
    * ``line_weight``, ``line_gate``: in a frame where some tile is in doubt after the
      self-trained read (a side's open probability between 1 - ``line_gate`` and
      ``line_gate``, or four closed-looking sides), every side's line structure
      (:mod:`vision.tile_lines`: the arm's bounding edges, which glare or a pale outline
      edition leaves while it flattens the colours) is read too and its typicality-weighted
      log-odds added, times ``line_weight``. Frames with every tile sure skip it (~1 ms). 0: off.
    * ``veil_weight``: a tile whose sides still do not read as a shape after that (fewer than
      two or four open-looking) and lies under a glare veil (:mod:`vision.tile_veil`: the wall
      at a side's ends lit beyond the board's walls) also gets each side's reading against its
      own tile in linear light, where an added veil cancels (typicality- and seen-weighted
      log-odds, times ``veil_weight``). Only frames with such a tile pay for it. 0: off.
      0.5, not 1: at 1 it also flipped a held-out tile under glare at the board's rim whose
      sides all looked closed (spent final6 ho 0025 1,0) for one more sixth tile; at 0.5 no
      set of the six renderers loses a tile. That vote is only for tiles whose veil read is no
      shape either (:func:`vision.tiles._veil_shift`).
    * ``veil_shape_weight``: on such a tile whose veil read *is* a shape (two or three open-looking
      sides), how far each side's log-odds move from the colour read to the veil read for choosing
      the shape (times the share of the side seen); 1: the veil read alone. The veil compresses
      Lab differences toward "closed", so there the colour read is the one known to be wrong, and
      a weak typicality-weighted vote could not overturn a colour side read closed at -7. 0: off.
    * ``veil_fallback``: by day, a side on which neither colour band looks like corridor or wall
      (both typicality weights under this) is also read against the wall at its own ends in linear
      light (:mod:`vision.tile_veil`): that read moves the log-odds the shape is chosen on toward its
      own, as far as it is typical (times the share of the side seen) and the colour bands are not
      (``1 - weight / veil_fallback``). Glare adds light, which leaves the linear difference to the
      ends and cancels in it, while it moves the Lab features off both classes. Only on the read
      with the found pawns painted out, and not on sides they may shade (a shadow multiplies, it
      does not add). 0.5: where a band starts to count as typical (:data:`vision.tiles.TYPICAL`).
      0: off (the night config: glow and LED light).
    * ``board_share``: a box keeps its board-only means while at least this share of its
      pixels is board; under a picture or a pawn it falls back to all its pixels (the
      typicality weights then judge the band).
    * ``painted_weight``: how much a band's side counts where a detected pawn covered
      its box (``board_share`` of it or more; less cover, proportionally more): the
      reader paints pawns out, and the painted pixels only continue the board around
      them. On true-3D frames (tall pawns leaning over the arms) 0 or 0.25 let the
      visible sides decide; 0 dropped a side whose both bands a pawn's head covered
      while the inpainting had continued its corridor right (held-out occ).
    * ``inventory``: decode the board within an edition's counts of Ts and straights
      (:func:`vision.tile_decode.in_inventory`) when the per-tile shapes exceed them,
      changing only sides the camera did not clearly see: a usual-band box less than
      ``board_share`` seen (its means are the paint's), a square excluded, or an open
      probability between 1 - ``inventory_doubt`` and ``inventory_doubt``.
    * ``inventory_blind_slope``: where the inventory must change a tile, the log-odds of a
      blind side (neither band box ``blind_share`` seen: the inpainting's guess) count this
      much in choosing *which* tile (:func:`vision.tiles._inventory_evidence`): the paint's
      log-odds there are a coin flip (open 50 % at -6..-3, 75 % at +3..+6: a slope of about
      0.1, vision/notes/tile_hidden.md), yet at full weight they outbid a side the camera saw
      in doubt. 1: as read.
    * ``shadow_band``: divide a hard shadow band crossing the board and its frame out of the
      view before reading the tiles (:mod:`vision.tile_shade`); a day rule (at night the light
      is the glow paint's and the LEDs', not a lamp's). False: off.
    """

    corner_lo: float = 0.07
    corner_hi: float = 0.22
    edge_half_width: float = 0.09
    edge_lo: float = 0.05
    edge_hi: float = 0.22
    prob_floor: float = 0.01
    exclude_weight: float = 0.9
    pawn_edge_lo: float = 0.03
    pawn_edge_hi: float = 0.11
    typical_quantile: float = 0.99
    hidden_weight: float = 0.1
    fixed_prior: float = 15.0
    decode_floor: float = 0.00001
    spread_inflation: float = 1.3
    ridge: float = 1.0
    self_train_confidence: float = 0.9
    band_logit_limit: float = 10.0
    foreign_sigma: float = 6.0
    board_share: float = 0.6
    painted_weight: float = 0.25
    inventory: bool = True
    inventory_doubt: float = 0.9
    inventory_blind_slope: float = 0.1
    blind_share: float = 0.1
    shade_free_near_pawns: bool = True
    shadow_spreads: float = 1.5
    shadow_explains: bool = True
    ends_at_depth: bool = False
    local_sigma: float = 1.0
    local_prior: float = 4.0
    line_weight: float = 1.0
    line_gate: float = 0.9
    veil_weight: float = 0.5
    veil_shape_weight: float = 1.0
    veil_fallback: float = 0.5
    shadow_band: bool = True


DEFAULT_CONFIG = TilesConfig()

# Known edges of the fixed tiles: (row, col, side) and open flags.
FIXED_EDGES = np.array([(r, c, s) for (r, c) in sorted(FIXED_TILES) for s in range(4)], dtype=np.int64)
FIXED_OPEN = np.array([bool(FIXED_TILES[(r, c)] & (1 << s)) for r, c, s in FIXED_EDGES])

#: Positions of the shade-free chroma features (a*, b* over L* + 16) in the 12 of
#: :func:`band_features` (relative to the middle corners, then to the side's end corners):
#: the ones a shadow leaves unchanged.
SHADE_FREE = np.array([4, 5, 10, 11])


def _boxes(tile_px: int, cfg: TilesConfig) -> tuple[np.ndarray, np.ndarray]:
    """Pixel boxes inside one tile: 4 corner boxes and 4 edge boxes (N, E, S, W), as (x0, y0, x1, y1)."""
    t = float(tile_px)

    def px(f: float) -> int:
        return round(f * t)

    lo, hi = px(cfg.corner_lo), max(px(cfg.corner_hi), px(cfg.corner_lo) + 1)
    corners = np.array(
        [
            (lo, lo, hi, hi),
            (tile_px - hi, lo, tile_px - lo, hi),
            (tile_px - hi, tile_px - hi, tile_px - lo, tile_px - lo),
            (lo, tile_px - hi, hi, tile_px - lo),
        ]
    )
    a, b = px(0.5 - cfg.edge_half_width), max(px(0.5 + cfg.edge_half_width), px(0.5 - cfg.edge_half_width) + 1)
    e0, e1 = px(cfg.edge_lo), max(px(cfg.edge_hi), px(cfg.edge_lo) + 1)
    edges = np.array(
        [
            (a, e0, b, e1),  # N
            (tile_px - e1, a, tile_px - e0, b),  # E
            (a, tile_px - e1, b, tile_px - e0),  # S
            (e0, a, e1, b),  # W
        ]
    )
    return corners, edges


def end_boxes(tile_px: int, cfg: TilesConfig) -> np.ndarray:
    """Per side (N, E, S, W), the two corner-wide boxes at its ends at the edge box's depth: (4, 2, 4)."""
    t = float(tile_px)

    def px(f: float) -> int:
        return round(f * t)

    lo, hi = px(cfg.corner_lo), max(px(cfg.corner_hi), px(cfg.corner_lo) + 1)
    e0, e1 = px(cfg.edge_lo), max(px(cfg.edge_hi), px(cfg.edge_lo) + 1)
    first, last = (lo, hi), (tile_px - hi, tile_px - lo)
    return np.array(
        [
            [(a, e0, b, e1) for a, b in (first, last)],  # N: TL, TR
            [(tile_px - e1, a, tile_px - e0, b) for a, b in (first, last)],  # E: TR, BR
            [(a, tile_px - e1, b, tile_px - e0) for a, b in (last, first)],  # S: BR, BL
            [(e0, a, e1, b) for a, b in (last, first)],  # W: BL, TL
        ]
    )


def side_boxes(tile_px: int, cfg: TilesConfig) -> np.ndarray:
    """The 4 side boxes (N, E, S, W) inside one tile as ``cfg`` places them, (4, 4) of x0 y0 x1 y1."""
    return _boxes(tile_px, cfg)[1]


def box_means(integral: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Means over boxes (..., 4) of x0 y0 x1 y1 from a (H+1, W+1, C) integral image."""
    x0, y0, x1, y1 = (boxes[..., i] for i in range(4))
    total = integral[y1, x1] - integral[y0, x1] - integral[y1, x0] + integral[y0, x0]
    area = ((x1 - x0) * (y1 - y0)).astype(np.float64)[..., None]
    return total / area


def _corner_index(boxes: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """Boxes (..., 4) of x0 y0 x1 y1 as the flat positions (4, ...) of their corners in integral images
    ``width`` wide (in :func:`box_means`' order) and their areas (..., 1)."""
    x0, y0, x1, y1 = (boxes[..., i] for i in range(4))
    index = np.stack([y1 * width + x1, y0 * width + x1, y1 * width + x0, y0 * width + x0])
    return index, ((x1 - x0) * (y1 - y0)).astype(np.float64)[..., None]


def _indexed_means(integral: np.ndarray, index: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """:func:`box_means` with the boxes given by :func:`_corner_index`: one gather for all four corners.

    The same sums (exact integers: int32 sums, float64 sums of squares far below 2**53) over
    the same areas, so the same means.
    """
    flat, area = index
    corner = integral.reshape(-1, integral.shape[-1]).take(flat, axis=0)
    return (corner[0] - corner[1] - corner[2] + corner[3]) / area


def lab_view(rect: Rectified) -> np.ndarray:
    """The rectified view in Lab (uint8 as OpenCV scales it), from colour or grey views."""
    image = rect.image
    if image.ndim == 2 or image.shape[2] == 1:
        image = cv2.cvtColor(image.reshape(image.shape[:2]), cv2.COLOR_GRAY2BGR)
    return cv2.cvtColor(image, cv2.COLOR_BGR2Lab)


def _tiles_lab(rect: Rectified, like: tuple[Rectified, np.ndarray] | None = None) -> np.ndarray:
    """:func:`lab_view` of the tiles' area only, the margin left black: no side's box reaches into it.

    ``like``: an earlier view of the same frame at the same scale and its Lab from here (the
    reader's view before the pawns were painted out): only the pixels that differ are converted
    (in each tile row, the span of columns where any does), the rest is that Lab. Lab is per
    pixel, so it is the same array as converting the whole area.
    """
    lo, hi = rect.margin_px, rect.margin_px + SIZE * rect.tile_px
    image = rect.image
    if lo == 0 or image.ndim == 2 or image.shape[2] == 1:
        return lab_view(rect)
    if like is not None and like[0].image.shape == image.shape and like[1].shape == image.shape:
        t, side, lab = rect.tile_px, hi - lo, like[1].copy()
        # Per tile row, which columns hold a changed pixel (whole arrays: ~0.1 ms for the view).
        changed = image[lo:hi, lo:hi] != like[0].image[lo:hi, lo:hi]
        columns = changed.reshape(SIZE, t, side * 3).any(axis=1).reshape(SIZE, side, 3).any(axis=2)
        for row, cols in enumerate(columns):
            hit = np.flatnonzero(cols)
            if len(hit):
                y0, x0, x1 = lo + row * t, lo + int(hit[0]), lo + int(hit[-1]) + 1
                block = np.ascontiguousarray(image[y0 : y0 + t, x0:x1])
                lab[y0 : y0 + t, x0:x1] = cv2.cvtColor(block, cv2.COLOR_BGR2Lab)
        return lab
    lab = np.zeros(image.shape, dtype=np.uint8)
    lab[lo:hi, lo:hi] = cv2.cvtColor(np.ascontiguousarray(image[lo:hi, lo:hi]), cv2.COLOR_BGR2Lab)
    return lab


def _tile_area(rect: Rectified, image: np.ndarray) -> np.ndarray:
    """The 7x7 tiles' part of a full-view array (a view): every box any band reads lies inside it."""
    lo, hi = rect.margin_px, rect.margin_px + SIZE * rect.tile_px
    return image[lo:hi, lo:hi]


def view_integrals(rect: Rectified, lab: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Integral images of the tile area's Lab channels and of L², shared by both bands' features.

    Over the tile area only (its top-left corner is their origin; :func:`band_features`
    places the boxes so): the margin is a third of the view's pixels and no box reads it.
    A box's sum is the same exact integer either way (int32 sums, float64 sums of squares
    far below 2**53).
    """
    if lab is None:
        lab = lab_view(rect)
    lab = _tile_area(rect, lab)
    sums = cv2.integral(lab, sdepth=cv2.CV_32S)  # exact: 8-bit values over a few hundred pixels squared
    _, lum_squares = cv2.integral2(np.ascontiguousarray(lab[:, :, 0]), sdepth=cv2.CV_32S, sqdepth=cv2.CV_64F)
    return sums, lum_squares[:, :, None]


def edge_features(
    rect: Rectified, config: TilesConfig | None = None, lab: np.ndarray | None = None, shade_free: bool = False
) -> np.ndarray:
    """Per tile and side, the edge region's description minus the tile's corners': shape (7, 7, 4, F).

    Features: L, a, b means and the standard deviation of L (texture), with
    ``shade_free`` also the shadow-invariant chroma (:func:`_shade_free_chroma`),
    first relative to the middle two of the tile's four corners, then relative
    to the two corners at that side's ends (F = 8, or 12 with ``shade_free``).
    The tile reader uses all 12; the locator's grid refinement the plain 8, against
    the corner boxes as it was tuned (``ends_at_depth`` is the tile reader's only).
    ``lab``: the view already converted by :func:`lab_view`, when the caller has it.
    """
    cfg = config or DEFAULT_CONFIG
    if not shade_free:
        cfg = replace(cfg, ends_at_depth=False)
    return band_features(rect, cfg, view_integrals(rect, lab), shade_free)


#: Scale of the shade-free chroma features: a*/(L*+16) is about 0.1-0.5 for coloured board
#: regions; times 100 it spans roughly what the Lab channels span, so the ridge treats them alike.
_CHROMA_GAIN = 100.0


def _shade_free_chroma(mean: np.ndarray) -> np.ndarray:
    """a*, b* over (L* + 16) of box means (OpenCV's 8-bit Lab): the colour a shadow does not change.

    Dimming a region's light by a factor s scales L* + 16, a* and b* alike (by the
    cube root of s), so their ratios stay put. A lamp's shadow band crossing a tile
    darkens part of a corridor to the wall's lightness; its colour relative to
    the tile's corners still tells corridor from wall.
    """
    lum = mean[..., 0] * (100.0 / 255.0) + 16.0
    return _CHROMA_GAIN * (mean[..., 1:3] - 128.0) / lum[..., None]


def band_features(rect: Rectified, cfg: TilesConfig, integrals: tuple[Any, ...], shade_free: bool = True) -> np.ndarray:
    """:func:`edge_features` from the view's integral images (edge regions as ``cfg`` places them).

    ``integrals``: :func:`view_integrals`, optionally followed by :func:`_masked_integrals`
    (then a box's means are its board pixels' while they are ``board_share`` of it).
    """
    return _bands_features(rect, (cfg,), integrals, shade_free)[0]


def _bands_features(
    rect: Rectified, cfgs: tuple[TilesConfig, ...], integrals: tuple[Any, ...], shade_free: bool = True
) -> list[np.ndarray]:
    """:func:`band_features` of several bands (``cfgs`` differing in their edge boxes only) at once.

    The bands share the tiles' corner boxes: their means and the wall they give are
    computed once, and every box of every band is read in one pass over the integrals
    (each box's mean is its own, so each band's features are the same as alone).
    """
    sums, lum_squares = integrals[:2]
    masked = integrals[2] if len(integrals) > 2 else None
    cfg = cfgs[0]
    t = rect.tile_px
    corner_boxes = _boxes(t, cfg)[0]
    origin = t * np.arange(SIZE)  # the integrals start at the tile area's corner (view_integrals)
    offs = np.zeros((SIZE, SIZE, 1, 4), dtype=np.int64)
    offs[..., 0] = offs[..., 2] = origin[None, :, None]
    offs[..., 1] = offs[..., 3] = origin[:, None, None]

    def stats(boxes: np.ndarray) -> np.ndarray:  # means of L, a, b and of L² per box
        # The boxes' corners as flat positions, shared by the (up to five) integral images.
        index = _corner_index(boxes, sums.shape[1])
        plain = np.concatenate([_indexed_means(sums, index), _indexed_means(lum_squares, index)], axis=-1)
        if masked is None:
            return plain
        board = np.concatenate([_indexed_means(part, index) for part in masked], axis=-1)  # per box pixel:
        share = board[..., 4:5]  # masked sums of L, a, b, L², and the share of board pixels
        mean = board[..., :4] / np.maximum(share, 1e-9)
        return np.where(share >= cfg.board_share, mean, plain)

    # All of a tile's boxes in one pass: 4 corners, then per band 4 sides and with
    # ends_at_depth 2 ends per side.
    boxes = [corner_boxes]
    for band in cfgs:
        boxes += [_boxes(t, band)[1]] + ([end_boxes(t, band).reshape(8, 4)] if band.ends_at_depth else [])
    every = stats(offs + np.concatenate(boxes)[None, None])  # (7, 7, 4 + 4 or 12 per band, 4)

    def describe(stats: np.ndarray) -> np.ndarray:
        mean = stats[..., :3]
        std = np.sqrt(np.maximum(stats[..., 3] - stats[..., 0] ** 2, 0.0))
        parts = [mean, std[..., None]] + ([_shade_free_chroma(mean)] if shade_free else [])
        return np.concatenate(parts, axis=-1)

    corners = describe(every[:, :, :4])
    # The middle two of the four corners: one corner may be hidden by a pawn or a picture's rim.
    wall = np.sort(corners, axis=2)[:, :, 1:3].mean(axis=2)
    # The corners at each side's ends (N: TL+TR, E: TR+BR, S: BR+BL, W: BL+TL): light as it falls there.
    corner_ends = 0.5 * (corners + corners[:, :, [1, 2, 3, 0]])
    out = []
    at = 4
    for band in cfgs:
        edges = describe(every[:, :, at : at + 4])
        at += 4
        if band.ends_at_depth:
            # The wall at each side's two ends, as far from the border as the side's box: a seam,
            # a gap between tiles or a shadow along the border darkens them as it darkens the side.
            ends = describe(every[:, :, at : at + 8].reshape(SIZE, SIZE, 4, 2, -1)).mean(axis=3)
            at += 8
        else:
            ends = corner_ends
        out.append(np.concatenate([edges - wall[:, :, None, :], edges - ends], axis=-1))
    return out


def _outer_config(cfg: TilesConfig) -> TilesConfig:
    """``cfg`` with the border-hugging band's edge boxes."""
    return replace(cfg, edge_lo=cfg.pawn_edge_lo, edge_hi=cfg.pawn_edge_hi)


@dataclass(frozen=True)
class ViewBands:
    """Both bands' edge features of one view (:func:`view_bands`), each (7, 7, 4, 12).

    The reader reads a view's tiles and its grid quality from the same features;
    computing them once (one Lab conversion, one set of integral images) instead of
    per call changes nothing in the results, only the time. ``board``: which pixels
    looked like the board (:func:`_board_mask`; None when not judged).
    """

    usual: np.ndarray
    outer: np.ndarray
    board: np.ndarray | None = None
    lightness: np.ndarray | None = None  # the view's L channel, for :mod:`vision.tile_lines`
    lab: np.ndarray | None = None  # the view in Lab (tile area; margin black), for :mod:`vision.treasures`


def view_bands(
    rect: Rectified,
    config: TilesConfig | None = None,
    board: np.ndarray | None = None,
    like: tuple[Rectified, ViewBands] | None = None,
) -> ViewBands:
    """The usual and the border-hugging band's features of a view, for :func:`read_tiles` and :func:`grid_quality`.

    ``board``: the board-pixel mask of an earlier view of the same frame to use again
    (the reader's view with the pawns painted out: what was a pawn stays left out).
    ``like``: an earlier view of the same frame (same geometry) and its bands: its Lab is
    kept where the pixels are the same (:func:`_tiles_lab`; the painted-out view differs
    only around the pawns).
    """
    cfg = config or DEFAULT_CONFIG
    earlier = (like[0], like[1].lab) if like is not None and like[1].lab is not None else None
    lab = _tiles_lab(rect, earlier)
    integrals: tuple[Any, ...] = view_integrals(rect, lab)
    if cfg.foreign_sigma > 0:
        if board is None or board.shape != lab.shape[:2]:
            board = _board_mask(lab, rect, cfg)
        integrals = (*integrals, _masked_integrals(rect, lab, board))
    else:
        board = None
    usual, outer = _bands_features(rect, (cfg, _outer_config(cfg)), integrals)
    return ViewBands(usual, outer, board, lab[..., 0], lab)


@cache
def _sampled_pixels(tile_px: int, margin: int, width: int, cfg: TilesConfig) -> tuple[np.ndarray, ...]:
    """Flat indices of every pixel any box of either band reads (the only pixels whose kind matters),
    and, as positions in that list, the fixed tiles' corner boxes (wall) and known-open edge boxes (corridor)."""
    outer_cfg = _outer_config(cfg)
    corner_boxes, edge_boxes = _boxes(tile_px, cfg)
    outer_boxes = _boxes(tile_px, outer_cfg)[1]
    used = np.zeros((margin * 2 + SIZE * tile_px, width), dtype=bool)
    wall = np.zeros_like(used)
    corridor = np.zeros_like(used)
    for r in range(SIZE):
        for c in range(SIZE):
            ox, oy = margin + c * tile_px, margin + r * tile_px
            tile = FIXED_TILES.get((r, c))
            for kind, boxes in (("corner", corner_boxes), ("edge", edge_boxes), ("outer", outer_boxes)):
                for side, (x0, y0, x1, y1) in enumerate(boxes):
                    used[oy + y0 : oy + y1, ox + x0 : ox + x1] = True
                    if tile is not None and kind == "corner":
                        wall[oy + y0 : oy + y1, ox + x0 : ox + x1] = True
                    if tile is not None and kind == "edge" and tile & (1 << side):
                        corridor[oy + y0 : oy + y1, ox + x0 : ox + x1] = True
    index = np.flatnonzero(used)
    return index, np.flatnonzero(wall.ravel()[index]), np.flatnonzero(corridor.ravel()[index])


def _middle(values: np.ndarray) -> np.float32:
    """The (upper) median of a 1-D sample, by partition: a fraction of :func:`numpy.median`'s overhead."""
    k = len(values) // 2
    return np.float32(np.partition(values, k)[k])


def _board_mask(lab: np.ndarray, rect: Rectified, cfg: TilesConfig) -> np.ndarray:
    """Which pixels (H, W) look like the board (1) rather than something on it (0).

    The board's own colours are learned from the fixed tiles: their corners (wall) and
    known-open edges (corridor), in shade-free chroma so a shadow is still board. A pixel
    more than ``foreign_sigma`` robust spreads from both is foreign (a treasure picture,
    what is left of a pawn, an LED's colour): the sides are measured without it. Only the
    pixels some box reads are judged (a quarter of the view); the rest count as board.
    """
    height, width = lab.shape[:2]
    index, wall, corridor = _sampled_pixels(rect.tile_px, rect.margin_px, width, cfg)
    pixels = np.take(lab.reshape(-1, 3), index, axis=0).astype(np.float32)
    scale = np.float32(_CHROMA_GAIN) / (pixels[:, 0] * np.float32(100.0 / 255.0) + np.float32(16.0))
    chroma = [(pixels[:, i] - np.float32(128.0)) * scale for i in (1, 2)]  # a*, b* over L* + 16
    near = np.zeros(len(index), dtype=bool)
    for idx in (wall, corridor):
        dist = np.zeros(len(index), dtype=np.float32)
        for values in chroma:
            sample = np.take(values, idx)
            centre = _middle(sample)
            spread = max(1.4826 * float(_middle(np.abs(sample - centre))), 1.0)
            dist += np.square((values - centre) * np.float32(1.0 / spread))
        near |= dist <= np.float32(cfg.foreign_sigma**2)
    keep = np.ones(height * width, dtype=np.uint8)
    # The flags' bytes as 0/1 (what np.put's cast wrote), assigned without a cast: ~0.06 ms instead of 0.14.
    keep[index] = near.view(np.uint8)
    return keep.reshape(height, width)


def _masked_integrals(rect: Rectified, lab: np.ndarray, keep: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Integral images of L, a, b, of L² and of the count over the board pixels (``keep``), over the tile
    area as :func:`view_integrals`."""
    lab, keep = _tile_area(rect, lab), _tile_area(rect, keep)
    masked = cv2.bitwise_and(lab, lab, mask=keep)
    sums = cv2.integral(masked, sdepth=cv2.CV_32S)
    count = cv2.integral(keep, sdepth=cv2.CV_32S)
    _, squares = cv2.integral2(np.ascontiguousarray(masked[..., 0]), sdepth=cv2.CV_32S, sqdepth=cv2.CV_64F)
    return sums, squares[..., None], count[..., None]
