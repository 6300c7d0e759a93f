"""Corner refinement for :mod:`vision.locate`: homography plus radial lens distortion, fitted to corridor arms.

Corridors run through the middle of every tile, so in a rectified view the
centre line of each open corridor arm is its tile's centre line. About 120
arm centres are measured per pass (per pixel, with a colour model learned
from the fixed tiles in that very view) and a homography plus one radial
distortion term is fitted to them, robustly; the view is re-sampled through
the new model and the fit repeated until the corners settle.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

import cv2
import numpy as np

from companion.board import FIXED_TILES, SIZE
from vision import tiles as tile_mod
from vision.locate_grid import BOARD_CORNERS
from vision.order_stats import median
from vision.rectify import Rectified, quad_homography

if TYPE_CHECKING:
    from vision.locate import LocateConfig

__all__ = [
    "Refined",
    "corner_side",
    "glare_free_separation",
    "kept_fit",
    "legal_share",
    "refine_corners",
    "shade_free_separation",
]

_SIDE_BITS = np.array([1, 2, 4, 8])
#: The fixed tiles' squares and their known open sides (N E S W), set once rather than per pass.
_FIXED_ROWS = np.array([r for r, _ in FIXED_TILES], dtype=np.intp)
_FIXED_COLS = np.array([c for _, c in FIXED_TILES], dtype=np.intp)
_FIXED_OPEN = np.array([[bool(tile & b) for b in (1, 2, 4, 8)] for tile in FIXED_TILES.values()])

#: A view pixel is clipped white (a glare pool) when every channel is at least this.
_CLIPPED = 245
#: A fixed tile is washed out when at least this share of its pixels is clipped (:func:`glare_free_separation`).
_WASHED_SHARE = 0.5

#: The 33 movable squares (7 x 7 mask).
_MOVABLE = np.ones((SIZE, SIZE), dtype=bool)
_MOVABLE[_FIXED_ROWS, _FIXED_COLS] = False
_MOVABLE.flags.writeable = False

#: Row and column of every square (7 x 7, float), for placing arm centres in board units.
_ROWS, _COLS = np.meshgrid(np.arange(SIZE, dtype=np.float64), np.arange(SIZE, dtype=np.float64), indexing="ij")
_ROWS.flags.writeable = False
_COLS.flags.writeable = False

#: Scale of the radial-distortion prior: a fitted k must beat the flat model by a factor (1 + (k / K_PRIOR)²).
K_PRIOR = 1.0
#: The lens range the distortion term may take (barrel to mild pincushion, in this model's units).
_K_MIN, _K_MAX = -0.1, 0.35
#: The first distortion fit's candidates: the whole lens range (read-only, built once).
_K_GRID = np.linspace(_K_MIN, _K_MAX, 10)
_K_GRID.flags.writeable = False
#: An arm is uneven when its centre (the weighted mean) lies more than this share of a tile from the
#: middle of its own counted span: one side of it darker or lighter than the other (a pawn's shadow).
_UNEVEN_SHIFT = 0.04
#: A lens is one arm's when that arm brings more than this share of the fitted k's whole gain over flat.
_LONE_SHARE = 0.5
#: ... and is asked so only when the lens explains something: its gain over flat, times the arms' count,
#: over the flat cost (an F statistic of the one term; F(1, ~115) is 3.9 at 5 %) at least this.
_LONE_F = 4.0
_EYE8 = np.eye(8)
_EYE8.flags.writeable = False


@dataclass
class _Geometry:
    """Board -> photo model: ``board_from_ideal`` (3x3) and one radial distortion term ``k``.

    ideal = c + (p - c) (1 + k |p - c|² / s²) for an observed pixel p, with c the
    image centre and s the image width: the usual lens model with the focal
    length folded into ``k``. A homography alone bends nowhere, so under a
    wide lens its corners miss the board's real corners by several pixels.
    """

    board_from_ideal: np.ndarray
    k: float
    centre: np.ndarray
    scale: float

    def undistort(self, observed: np.ndarray, k: float | None = None) -> np.ndarray:
        kk = self.k if k is None else k
        d = observed - self.centre
        r2 = (d[..., 0] * d[..., 0] + d[..., 1] * d[..., 1]) / self.scale**2
        return self.centre + d * (1.0 + kk * r2)[..., None]

    def distort(self, ideal: np.ndarray) -> np.ndarray:
        # Per coordinate plane (x, y apart): the same arithmetic as on (N, 2) rows, without
        # the strided two-element reductions, which cost most of the sampling map's time.
        d = ideal - self.centre
        dx, dy = np.ascontiguousarray(d[..., 0]), np.ascontiguousarray(d[..., 1])
        px, py = dx, dy
        s2 = self.scale**2
        for _ in range(4):  # fixed point of p = d / (1 + k |p|²): converges fast for lens-sized k
            den = 1.0 + self.k * ((px * px + py * py) / s2)
            px, py = dx / den, dy / den
        return self.centre + np.stack([px, py], axis=-1)

    def to_image(self, board: np.ndarray) -> np.ndarray:
        """Board coordinates (tile units, N x 2) -> observed image pixels."""
        ideal_from_board = np.linalg.inv(self.board_from_ideal)
        ideal = cv2.perspectiveTransform(board.reshape(1, -1, 2).astype(np.float64), ideal_from_board)
        return self.distort(ideal[0])

    def corners(self) -> np.ndarray:
        return self.to_image(BOARD_CORNERS)


#: The sampling map is smooth: it is computed on a lattice this many view pixels apart and interpolated.
_MAP_STEP = 4


@functools.cache
def _map_lattice(t: int, m: int) -> np.ndarray:
    """Board coordinates (N x 2, read-only) of the sampling map's coarse lattice for tile_px ``t``, margin ``m``.

    The same for every pass and frame at one scale, so it is built once.
    """
    side = 7 * t + 2 * m
    step = _MAP_STEP
    n = -(-side // step) + 2
    # cv2.resize by an integer factor puts lattice point j at output pixel (j + 0.5) * step - 0.5;
    # one padding cell on each side keeps the border pixels interpolated, not clamped.
    idx = (np.arange(n, dtype=np.float64) - 0.5) * step - 0.5
    gx, gy = np.meshgrid(idx, idx)
    board = np.stack([(gx - (m - 0.5)) / t, (gy - (m - 0.5)) / t], axis=-1).reshape(-1, 2)
    board.flags.writeable = False
    return board


def _sample(image: np.ndarray, geo: _Geometry, t: int, m: int, factor: int = 1) -> np.ndarray:
    """A rectified view (tile_px ``t``, margin ``m``) through the distortion model, by remap.

    ``image`` may be the photo reduced by an integer ``factor`` (block average),
    which removes the aliasing noise a plain remap of a much larger tile has.
    """
    side = 7 * t + 2 * m
    step = _MAP_STEP
    n = -(-side // step) + 2
    pts = geo.to_image(_map_lattice(t, m))
    if factor > 1:
        # Into the reduced copy's pixels on the coarse lattice (2,600 points), not on the
        # interpolated map (37,000): the resize is linear, so the map is the same to float32's
        # last bits.
        pts = (pts + 0.5) / factor - 0.5
    lattice = pts.reshape(n, n, 2).astype(np.float32)
    full = cv2.resize(lattice, (n * step, n * step), interpolation=cv2.INTER_LINEAR)
    full = full[step : step + side, step : step + side]
    # One two-channel map (what remap converts from anyway): the same view as x and y maps apart,
    # without copying the two strided planes out first.
    return cv2.remap(image, full, None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)


class Refined(NamedTuple):
    """A refined grid: its corners, the fixed tiles' separation there, the movable tiles' legal share, the
    lens term ``k`` fitted with it (see :class:`vision.rectify.Lens`) and where the tiles' corners fall
    between the fixed tiles' closed and open sides (:func:`corner_side`)."""

    corners: np.ndarray
    separation: float
    legal: float
    k: float = 0.0
    corner_side: float = 0.0


def corner_side(model: tile_mod.TileModel) -> float:
    """Where the tiles' own corners score between the fixed tiles' closed (0) and open (1) sides.

    A tile's corners are wall, and so is the edge region of a closed side: on a
    board both are the same material, so the closed sides score like the
    corners (the edge features are relative to the corners: a wall side's are
    ~0) and this is near 0 (-0.1..0.1 on every board seen, day and night, all
    four renderers). A chance grid on a patterned table separates its "open"
    and "closed" edges by a pattern that has nothing to do with the corners:
    there the open class sat on the corners' level (~1, 0.6-1.6 on every
    table grid that separated by more than 1). Above 0.5 the model learned on
    the fixed tiles reads the tiles' corners as corridor: no board.
    """
    gap = model.mean_open - model.mean_closed
    if abs(gap) < 1e-12:
        return 1.0
    return float(-model.mean_closed / gap)


def legal_share(prob: np.ndarray) -> float:
    """Share of the 33 movable tiles that read as a real tile (2 or 3 open sides) under the fixed tiles' model.

    Every Labyrinth tile is a straight, a corner or a T, whatever the edition.
    The model learned on the 16 fixed tiles reads the other 33 as real tiles
    on a board (>= 0.8 by day and at night, glare included, on all three
    renderers) but not on a chance grid on a patterned table, whose cells look
    alike (all open or all closed: 0.0-0.12 on every false board seen), a
    check the search never optimised. ``prob``: (7, 7, 4) open probabilities.
    """
    opens = (prob[_MOVABLE] > 0.5).sum(axis=-1)
    return float(((opens == 2) | (opens == 3)).mean())


def refine_corners(
    image: np.ndarray, corners: np.ndarray, cfg: LocateConfig, reduced: tuple[int, np.ndarray] | None = None
) -> Refined:
    """Sharpen the corners: fit homography + radial distortion to the centre lines of open corridor arms.

    Every model is judged by the fixed tiles' separation in its own rectified
    view and the best one is kept, so a frame that misleads the arm
    measurements (a hand, LED spill at night) cannot walk the grid away.
    """
    h, w = image.shape[:2]
    centre = np.array([(w - 1) / 2.0, (h - 1) / 2.0])
    geo = _Geometry(quad_homography(corners, BOARD_CORNERS), 0.0, centre, float(w))
    t, m = cfg.refine_tile_px, cfg.refine_tile_px // 2
    # Sample from a block-averaged copy with ~1.25-2.5 source pixels per view pixel.
    pitch = float(np.mean(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1))) / 7.0
    factor = max(1, int(pitch / (1.25 * t)))
    if reduced is not None and 1 < reduced[0] <= pitch / t:
        factor, source = reduced  # the work copy is fine enough: no second reduction of the photo
    elif factor > 1:
        source = cv2.resize(
            image[: h - h % factor, : w - w % factor], (w // factor, h // factor), interpolation=cv2.INTER_AREA
        )
    else:
        source = image
    previous = geo.corners()
    best = last = Refined(previous, -1.0, 0.0, geo.k, 1.0)
    for it in range(cfg.refine_iterations + 1):
        view_k = geo.k  # the lens of this pass' view (previous = its corners)
        view = Rectified(_sample(source, geo, t, m, factor), t, m, np.eye(3), previous)
        lab = tile_mod.lab_view(view)
        feats = tile_mod.edge_features(view, lab=lab)
        model = tile_mod.learn(feats)
        prob = model.probabilities(feats)
        # previous is geo.corners(), computed last pass
        last = Refined(previous, model.separation, legal_share(prob), view_k, corner_side(model))
        # The coarse grid (pass 0) is the reference only until a refined pass exists: its
        # separation was maximised by the search itself, so it overstates (see the end).
        if last.separation > best.separation or it == 1:
            best = last
        if it == cfg.refine_iterations:
            break
        shapes, _ = tile_mod.decode(prob)
        is_open = (shapes[..., None] & _SIDE_BITS) > 0  # (7, 7, 4)
        is_open[_FIXED_ROWS, _FIXED_COLS] = _FIXED_OPEN
        # The arms are measured per pixel, where only colour exists: a colour-only model.
        meas = _arm_centres(lab, t, m, tile_mod.learn(feats[..., :3]), is_open, own_runs=it > 0)
        if meas is None:
            break
        points, axis, expected, uneven = meas
        # The first pass already searches the whole lens range for k: a wide lens is then
        # reached at once instead of by +-0.08 per pass (five passes on the bench frame, now two).
        fitted = _fit_geometry(
            geo,
            geo.to_image(points),
            axis,
            expected,
            fit_k=cfg.fit_distortion,
            k_span=None if it == 0 else 0.08,
            floor=0.06 if it < 2 else 0.02,
            # The coarse pass counts the whole window (no own runs): its spans are no arm's own.
            uneven=uneven if it > 0 else None,
        )
        if fitted is None:
            break
        geo = fitted
        new = geo.corners()
        moved = float(np.abs(new - previous).max())
        previous = new
        if moved < max(0.3, 0.01 * pitch) and it > 0:
            last = last._replace(corners=new, k=geo.k)  # converged: its separation is the one just measured
            break
    # Separation is flat near the truth (the arms are the precise part), so the
    # latest fit stands unless the fixed tiles collapsed under it against an
    # earlier refined pass (the arms misled by a hand or LED spill). Not against
    # the coarse grid: the search picked it for this very score, which it
    # overstates - a clear board's 14 fell to 8 as its grid moved 0.1 tile
    # closer to the truth, and a dotted table's chance 2.8 to 1.7 (falling back
    # to the coarse grid kept the worse grid and accepted the table as a board;
    # on 268 day, night and hand photos it never kept a better one).
    return kept_fit(last, best, cfg)


def kept_fit(last: Refined, best: Refined, cfg: LocateConfig) -> Refined:
    """The refinement's answer: its ``last`` fit unless the fixed tiles collapsed under it (then ``best``).

    "Collapsed" means they no longer separate as a board's (below
    ``cfg.min_separation``) and fell below ``cfg.refine_keep`` of the best refined
    pass. A drop alone is no collapse, since an early pass can overstate too: a
    strongly turned board's separation can fall past ``refine_keep`` of its best
    while its grid converges (vision/notes/locate_refine.md).
    """
    collapsed = last.separation < min(cfg.refine_keep * best.separation, cfg.min_separation)
    return best if collapsed else last


def shade_free_separation(image: np.ndarray, refined: Refined, cfg: LocateConfig) -> float:
    """The fixed tiles' separation on ``refined``'s grid with the shadow-invariant chroma features too.

    The refinement judges a grid by lightness and colour relative to each tile's
    corners (:func:`vision.tiles.edge_features`, plain). A lamp's shadow band
    across the board, or an edition whose corridors differ from its walls more in
    hue than in lightness, dims those differences where the light falls off:
    held-out boards whose refined corners were 0.04-0.06 tile from the truth
    separated at 2.0-2.14, under the bar. Dimming scales L* + 16, a* and b* alike,
    so a*/(L* + 16) and b*/(L* + 16) (what the tile reader already uses) keep each
    side's colour against its own tile's corners however the light falls there;
    on those boards the separation is 2.2-3.3, on wrong grids it moves by ~0.1.
    Same view as the refinement's (``refine_tile_px``, the lens fitted with the grid).
    """
    view = _judged_view(image, refined, cfg)
    feats = tile_mod.edge_features(view, lab=tile_mod.lab_view(view), shade_free=True)
    return float(tile_mod.learn(feats).separation)


def glare_free_separation(image: np.ndarray, refined: Refined, cfg: LocateConfig) -> float:
    """The fixed tiles' separation on ``refined``'s grid with the fixed tiles a glare pool washed out left out.

    A saturated glare pool (every channel clipped) leaves no wall/corridor
    difference on the tiles under it, and when it covers a few fixed tiles
    their edges pull the pooled separation of all 16 under the bar: third day
    8000074, its right grid refused at 2.02, four fixed tiles 70-100 % clipped
    (vision/notes/locate.md, l29). Left out as the pawn squares are
    (:func:`vision.tiles.learn`'s ``excluded``), the other twelve separate at
    3.25. A hand is no glare (skin, a sleeve, its shadow: not clipped white),
    so a grid refused for a hand over its fixed tiles is judged as before. No
    fixed tile washed out, or too many (fewer than ``glare_kept`` left): the
    refined grid's own separation (nothing to judge again).
    """
    view = _judged_view(image, refined, cfg)
    washed = _washed_fixed(view)
    if not washed.any() or len(FIXED_TILES) - int(washed.sum()) < cfg.glare_kept:
        return refined.separation
    feats = tile_mod.edge_features(view, lab=tile_mod.lab_view(view))
    return float(tile_mod.learn(feats, excluded=washed).separation)


def _washed_fixed(view: Rectified) -> np.ndarray:
    """The fixed squares (7 x 7 mask) at least half of whose pixels are clipped white in every channel."""
    t, m = view.tile_px, view.margin_px
    clipped = view.image[m : m + SIZE * t, m : m + SIZE * t].min(axis=2) >= _CLIPPED
    share = clipped.reshape(SIZE, t, SIZE, t).mean(axis=(1, 3))
    return (share >= _WASHED_SHARE) & ~_MOVABLE


def _judged_view(image: np.ndarray, refined: Refined, cfg: LocateConfig) -> Rectified:
    """The refinement's view (``refine_tile_px``, the lens fitted with the grid) of ``refined``'s grid, for the
    last judges."""
    h, w = image.shape[:2]
    centre = np.array([(w - 1) / 2.0, (h - 1) / 2.0])
    corners = np.asarray(refined.corners, dtype=np.float64)
    flat = _Geometry(np.eye(3), refined.k, centre, float(w))
    geo = _Geometry(quad_homography(flat.undistort(corners), BOARD_CORNERS), refined.k, centre, float(w))
    t, m = cfg.refine_tile_px, cfg.refine_tile_px // 2
    pitch = float(np.mean(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1))) / 7.0
    factor = max(1, int(pitch / (1.25 * t)))
    source = image
    if factor > 1:
        source = cv2.resize(
            image[: h - h % factor, : w - w % factor], (w // factor, h // factor), interpolation=cv2.INTER_AREA
        )
    return Rectified(_sample(source, geo, t, m, factor), t, m, np.eye(3), corners)


def _arm_centres(
    lab_u8: np.ndarray, t: int, m: int, model: tile_mod.TileModel, is_open: np.ndarray, own_runs: bool = True
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Centre lines of open corridor arms, measured in a rectified view.

    Returns board-unit points where a centre was measured, the axis measured
    (0: x for N/S arms, 1: y for E/W arms) and the coordinate it should have
    (the tile's centre line). ``own_runs``: only the corridor runs that belong
    to the tile (:func:`_own_runs`); off on the coarse grid's pass, which may be
    up to half a tile off and gains from the whole window's wider pull (with
    the rule there, an occluded held-out board was no longer found).
    """
    # per-pixel corridor score (colour part of the model)
    score = lab_u8.astype(np.float32) @ model.weights[:3].astype(np.float32)
    area = score[m : m + 7 * t, m : m + 7 * t].reshape(SIZE, t, SIZE, t).swapaxes(1, 2)  # (7, 7, t, t)
    cfg = tile_mod.DEFAULT_CONFIG
    lo, hi = round(cfg.corner_lo * t), max(round(cfg.corner_hi * t), round(cfg.corner_lo * t) + 1)
    corner_vals = np.stack(
        [area[:, :, lo:hi, lo:hi], area[:, :, lo:hi, t - hi : t - lo],
         area[:, :, t - hi : t - lo, lo:hi], area[:, :, t - hi : t - lo, t - hi : t - lo]], axis=2
    ).mean(axis=(3, 4))  # fmt: skip
    wall = np.sort(corner_vals, axis=2)[:, :, 1:3].mean(axis=2)  # (7, 7)
    contrast = model.mean_open - model.mean_closed
    if abs(contrast) < 1e-6:
        return None
    a0, a1 = round(0.03 * t), max(round(0.28 * t), round(0.03 * t) + 2)
    w0, w1 = round(0.06 * t), t - round(0.06 * t)
    coords = np.arange(w0, w1, dtype=np.float64)
    arm_mid = (0.5 * (a0 + a1 - 1) + 0.5) / t  # board units from the tile side
    profiles = (
        area[:, :, a0:a1, w0:w1].mean(axis=2),  # N arm: profile along x
        area[:, :, w0:w1, t - a1 : t - a0].mean(axis=3),  # E arm: along y
        area[:, :, t - a1 : t - a0, w0:w1].mean(axis=2),  # S arm
        area[:, :, w0:w1, a0:a1].mean(axis=3),  # W arm
    )
    q = np.clip((np.stack(profiles) - wall[None, :, :, None]) / contrast, 0.0, 1.5)  # (4, 7, 7, W)
    q = np.where(q > 0.4, q, 0.0) ** 2
    if own_runs:
        masses, moments, counted = _own_runs(q, coords, counted=True)
    else:
        masses, moments = q.sum(axis=-1), (q * coords).sum(axis=-1)
        counted = q > 0.0
    # How far each arm's centre lies from the middle of its counted span (view px): a flat arm's
    # centre is its span's middle to within a pixel's rounding; a ramp across it (a pawn's shadow
    # on one side) moves the centre toward the lit side while the walls stay put.
    first = coords[np.argmax(counted, axis=-1)]
    last = coords[counted.shape[-1] - 1 - np.argmax(counted[..., ::-1], axis=-1)]
    shift = np.abs(moments / np.maximum(masses, 1e-9) - 0.5 * (first + last))
    pts, axes, expect, shifts = [], [], [], []
    rr, cc = _ROWS, _COLS
    for side in range(4):
        mass = masses[side]
        local = (moments[side] / np.maximum(mass, 1e-9) + 0.5) / t  # board units inside the tile
        ok = is_open[:, :, side] & (mass > 0.05 * (w1 - w0))
        along = {0: arm_mid, 1: 1 - arm_mid, 2: 1 - arm_mid, 3: arm_mid}[side]
        if side in (0, 2):
            x, y = cc + local, rr + along
            pts.append(np.stack([x[ok], y[ok]], axis=1))
            axes.append(np.zeros(int(ok.sum()), dtype=np.int64))
            expect.append(cc[ok] + 0.5)
        else:
            x, y = cc + along, rr + local
            pts.append(np.stack([x[ok], y[ok]], axis=1))
            axes.append(np.ones(int(ok.sum()), dtype=np.int64))
            expect.append(rr[ok] + 0.5)
        shifts.append(shift[side][ok])
    points = np.concatenate(pts)
    if len(points) < 24:
        return None
    return points, np.concatenate(axes), np.concatenate(expect), np.concatenate(shifts) > _UNEVEN_SHIFT * t


def _own_runs(q: np.ndarray, coords: np.ndarray, counted: bool = False) -> tuple[np.ndarray, ...]:
    """Mass and first moment (along ``coords``) of the corridor runs (q > 0) that belong to each profile's tile.

    An arm is a run of corridor between two walls, so it never reaches the
    measuring window's ends on a grid that is about right (the tile's corner
    walls lie between). A run that does reach an end comes from past the
    wall: beside an outer tile, a light board frame or table (to the colour
    model it is corridor); elsewhere a neighbour's corridor. Summed with the
    arm it pulls the arm's centre toward it, the fit follows, the next view
    shows more of it, and the outer corners walk away (a light board frame;
    vision/notes/locate_refine.md). Such runs are left out unless one
    is the profile's heaviest (then the arm itself reaches an end, a grid
    still well off: it is what there is to follow). Gaps inside the walls (a
    pawn or treasure on the arm) do not split the arm: every inner run counts.
    ``q``: (..., W) profiles, 0 where wall; returns two (...) arrays, and with
    ``counted`` a third, (..., W): which positions those runs cover.
    """
    flat = q.reshape(-1, q.shape[-1])
    n, width = flat.shape
    runs = np.cumsum(flat == 0.0, axis=1)  # run id per position: it changes only across a gap
    labels = (runs + np.arange(n)[:, None] * (width + 1)).ravel()
    weights = flat.ravel()
    mass = np.bincount(labels, weights, n * (width + 1)).reshape(n, width + 1)
    moment = np.bincount(labels, (flat * coords).ravel(), n * (width + 1)).reshape(n, width + 1)
    rows = np.arange(n)
    best = np.argmax(mass, axis=1)
    keep = np.ones_like(mass, dtype=bool)
    for end in (0, width - 1):
        touching = flat[:, end] > 0.0
        keep[rows[touching], runs[touching, end]] = False
    keep[rows, best] = True
    if counted:
        cover = (keep[rows[:, None], runs] & (flat > 0.0)).reshape(q.shape)
        return (mass * keep).sum(axis=1).reshape(q.shape[:-1]), (moment * keep).sum(axis=1).reshape(q.shape[:-1]), cover
    return (mass * keep).sum(axis=1).reshape(q.shape[:-1]), (moment * keep).sum(axis=1).reshape(q.shape[:-1])


def _fit_geometry(
    geo: _Geometry,
    observed: np.ndarray,
    axis: np.ndarray,
    expected: np.ndarray,
    fit_k: bool,
    floor: float = 0.02,
    k_span: float | None = 0.08,
    uneven: np.ndarray | None = None,
) -> _Geometry | None:
    """Robustly fit board_from_ideal (and k) so each measured arm centre lands on its tile's centre line.

    ``k_span``: k is searched within this distance of the current one; ``None``
    searches the whole lens range at once (the first distortion fit), so a wide
    lens is reached in one pass rather than a step per pass.

    ``uneven``: arms whose centre is not their span's middle (:func:`_arm_centres`).
    k is chosen in the first round, at unit weights (the robust rounds keep it), so
    one biased arm at a board corner, where a lens moves points most, can choose
    it: on team day scene 35 a pawn's shadow across the corner tile's arm moved
    its centre 0.08 tile and brought 65-70 % of k -0.1's gain over flat, for a
    camera of about -0.02. A lens bends the whole board, so when one uneven arm
    brings more than ``_LONE_SHARE`` of the chosen k's gain, k is chosen again
    without it (once; the robust rounds then weigh it by its residual as any arm).
    An even arm is never dropped so: where no arm is uneven, the fit is unchanged
    (a lone-arm test alone moved k on a third of the dev frames, no better on
    balance). Nor is a lens that explains next to nothing guarded (``_LONE_F``):
    there one arm brings "most" of a gain that is the arms' noise, and choosing
    again only moves k within that noise (a first fresh check: 1 pawn read broken,
    k -0.001 -> 0.017). vision/notes/locate.md, "cv2".
    """
    # Lens-sized k only: a runaway k would bend the grid to fit biased arms.
    if not fit_k:
        ks = np.array([geo.k])
    elif k_span is None:
        ks = _K_GRID
    else:
        ks = np.clip(geo.k + np.linspace(-k_span, k_span, 5), _K_MIN, _K_MAX)
    weights = np.ones(len(observed))
    norm, prior = _normalisation(geo)  # the same for every solve below: computed once
    best: tuple[np.ndarray, float] | None = None
    candidates = ks
    lone_check = uneven is not None and len(ks) > 1 and bool(uneven.any())
    rounds = 0
    while rounds < 3:
        sol = _solve_many(geo, observed, axis, expected, weights, ks, norm, prior)
        if sol is None:
            return None
        homs, costs, _, resids = sol
        solved = ks, weights  # this round's inputs
        # Bending is believed only when it explains clearly more than a flat homography.
        penalised = costs * (1.0 + (ks / K_PRIOR) ** 2)
        i = int(np.argmin(penalised))
        if fit_k and 0 < i < len(ks) - 1:
            den = penalised[i - 1] - 2 * penalised[i] + penalised[i + 1]
            if den > 0:  # the parabola's minimum through the best k and its neighbours
                k_star = np.clip(ks[i] + 0.5 * (penalised[i - 1] - penalised[i + 1]) / den * (ks[1] - ks[0]),
                                 _K_MIN, _K_MAX)  # fmt: skip
                star = _solve_many(geo, observed, axis, expected, weights, np.array([k_star]), norm, prior)
                if star is not None and star[1][0] * (1.0 + (k_star / K_PRIOR) ** 2) < penalised[i]:
                    homs, ks, resids, i = star[0], np.array([k_star]), star[3], 0
        if lone_check and ks[i] != 0.0:
            lone_check = False
            flat = _solve_many(geo, observed, axis, expected, weights, np.zeros(1), norm, prior)
            if flat is not None:
                gain = weights * (flat[3][0] ** 2 - resids[i] ** 2)  # per arm: what the lens explains
                flat_cost = float((weights * flat[3][0] ** 2).sum())
                j = int(np.argmax(gain))
                material = gain.sum() * weights.sum() > _LONE_F * flat_cost
                if material and uneven[j] and gain[j] > _LONE_SHARE * gain.sum() > 0.0:
                    weights = weights.copy()
                    weights[j] = 0.0
                    ks = candidates
                    continue  # the same round again, without the arm
        lone_check = False
        rounds += 1
        best = (homs[i], float(ks[i]))
        resid = np.abs(resids[i])
        scale = max(1.4826 * median(resid), floor)  # tile units; wide while far from converged
        weights = 1.0 / np.maximum(1.0, resid / (1.5 * scale))
        weights[resid > 4 * scale] = 0.0
        ks = ks[i : i + 1]
        if len(solved[0]) == 1 and ks[0] == solved[0][0] and np.array_equal(weights, solved[1]):
            break  # the next round would solve the very same system (a quarter of the fits): its answer is best
    assert best is not None
    return _Geometry(best[0], best[1], geo.centre, geo.scale)


def _normalisation(geo: _Geometry) -> tuple[np.ndarray, np.ndarray]:
    """Image-coordinate normalisation (for conditioning) and the current model in it, as the fit's prior."""
    inv_s = 1.0 / geo.scale
    norm = np.array([[inv_s, 0, -geo.centre[0] * inv_s], [0, inv_s, -geo.centre[1] * inv_s], [0, 0, 1]])
    prior = geo.board_from_ideal @ np.linalg.inv(norm)
    return norm, (prior / prior[2, 2]).ravel()[:8]


def _solve_many(
    geo: _Geometry,
    observed: np.ndarray,
    axis: np.ndarray,
    expected: np.ndarray,
    weights: np.ndarray,
    ks: np.ndarray,
    norm: np.ndarray,
    prior: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """Weighted linear fits of the 8 homography parameters from 1-D constraints, one per distortion ``ks``.

    All candidate k are solved in one batch (the undistorted points are linear
    in k). ``norm`` and ``prior`` come from :func:`_normalisation` of ``geo``.
    Returns the homographies (K, 3, 3), their costs (K,), the undistorted
    points (K, N, 2) and the signed residuals (K, N, tile units).
    """
    d = observed - geo.centre
    r2 = (d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1]) / geo.scale**2
    ideal = geo.centre + d[None] * (1.0 + ks[:, None] * r2[None])[..., None]  # (K, N, 2)
    # Normalise image coordinates for conditioning.
    u = (ideal[..., 0] - geo.centre[0]) / geo.scale
    v = (ideal[..., 1] - geo.centre[1]) / geo.scale
    is_x = axis == 0
    # Each constraint's row: (u, v, 1) in the x or the y block, zeros in the other. np.where
    # picks u, v or 0.0: the very values masked assignments into zeros wrote, without their gathers.
    on_x, on_y = is_x.astype(np.float64), (~is_x).astype(np.float64)
    rows = np.empty((len(ks), len(observed), 8))
    rows[..., 0], rows[..., 1], rows[..., 2] = np.where(is_x, u, 0.0), np.where(is_x, v, 0.0), on_x
    rows[..., 3], rows[..., 4], rows[..., 5] = np.where(is_x, 0.0, u), np.where(is_x, 0.0, v), on_y
    rows[..., 6], rows[..., 7] = -expected * u, -expected * v
    # A weak pull toward the current model keeps directions the arms do not pin down in place.
    lam = 1e-4 * max(float(weights.sum()), 1.0)
    weighted = rows * weights[None, :, None]
    lhs = rows.transpose(0, 2, 1) @ weighted + lam * _EYE8
    rhs = np.einsum("kni,n->ki", weighted, expected) + lam * prior
    try:
        hn = np.linalg.solve(lhs, rhs[..., None])[..., 0]
    except np.linalg.LinAlgError:
        return None
    homs = np.concatenate([hn, np.ones((len(ks), 1))], axis=1).reshape(-1, 3, 3) @ norm
    proj = np.einsum("kij,knj->kni", homs[:, :, :2], ideal) + homs[:, None, :, 2]
    pred = np.where(is_x, proj[..., 0], proj[..., 1]) / proj[..., 2]
    resid = pred - expected
    costs = (weights * resid * resid).sum(axis=1) / max(float(weights.sum()), 1e-9)
    return homs, costs, ideal, resid
