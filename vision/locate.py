"""Find the board: the image corners of the 7x7 tile area (TL, TR, BR, BL), without markers.

Nothing here assumes an edition's colours. The board is found by what every
Labyrinth board has:

1. **Lattice** — tile seams and corridor walls repeat every tile along the
   board's two axes. Two estimators propose tile lattice vectors: the
   gradient-angle histogram (modulo 90° for the rotation, then each axis on
   its own, since tilt skews them) with the 1-D autocorrelation of the signed
   gradient along each axis for the pitch; and the 2-D autocorrelation of the
   signed gradient, whose first peaks are the lattice vectors (checked on
   their multiples, so a half-tile echo loses). Table texture, cards and noise
   do not repeat and average out.
2. **Position** — where the gradient repeats at that pitch a 7x7 window is
   summed, which places the board to within a tile or two. The phase, which
   7x7 window of the periodic pattern is the board, and the two pitches come
   from the 16 fixed tiles: a corridor/wall discriminant learned on their 64
   known edges separates best at the true grid (a shift by one tile puts the
   fixed tiles on movable squares; half a tile puts corners where edges are).
3. **Polish** — the four corners move independently (a homography: tilt and
   perspective) to maximise that separation; a strongly tilted board is
   first pulled in with a wider-basin score (tile centres against grid
   crossings on a blurred copy).
4. **Refinement** at full resolution — corridors run through the middle of
   every tile, so in a rectified view the centre line of each open corridor
   arm is the tile's centre line. About 120 arm centres are measured and a
   homography plus one radial lens-distortion term is fitted to them
   (robustly, iterated): corners to ~1-2 px on day photos, a wide lens
   included.

Steps 1–3 work on a block-averaged copy (``work_px`` on the long side) for
speed. Markers are not needed and not used: the board's own tiles are the
target. Row 0 is the board edge nearest the image top (rotations up to ±30°).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from companion.board import FIXED_TILES, SIZE
from vision import tiles as tile_mod
from vision.rectify import Rectified, quad_homography

__all__ = ["BoardNotFoundError", "LocateConfig", "find_board", "order_corners"]


class BoardNotFoundError(Exception):
    """No board in the image (too small, blank, or nothing that looks like a 7x7 tile grid)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class LocateConfig:
    """Locator settings and why they have these defaults.

    * ``work_px``: long side of the downscaled copy for the coarse search; a
      tile is then at least ~12 px even for a board filling 40 % of the frame.
    * ``min_tile_frac``/``max_tile_frac``: tile pitch range as a fraction of the
      image's short side (board from ~30 % to 100 % of the short side).
    * ``refine_tile_px``/``refine_iterations``: the rectified scale and number
      of passes of the corridor-centre refinement.
    * ``clear_separation``: a coarse hypothesis this good ends the search early.
    * ``fit_distortion``: fit one radial lens-distortion term with the homography.
    * ``refine_keep``: the refined grid is kept unless its fixed-tile separation
      falls below this share of the best seen (then the arms misled it).
    * ``min_separation``: below this separation of the fixed tiles' known open
      and closed edges (in spreads) there is no board to speak of.
    """

    work_px: int = 512
    min_tile_frac: float = 0.035
    max_tile_frac: float = 0.145
    max_orientations: int = 2
    max_pitches: int = 2
    refine_tile_px: int = 24
    refine_iterations: int = 6
    min_separation: float = 1.2
    clear_separation: float = 2.2
    refine_keep: float = 0.6
    fit_distortion: bool = True


DEFAULT_CONFIG = LocateConfig()

_FIXED = sorted(FIXED_TILES)
_FIXED_EDGES = np.array([(r, c, s) for (r, c) in _FIXED for s in range(4)], dtype=np.int64)
_FIXED_OPEN = np.array([bool(FIXED_TILES[(r, c)] & (1 << s)) for r, c, s in _FIXED_EDGES])


# --------------------------------------------------------------------------- helpers


def _to_bgr(image: np.ndarray) -> np.ndarray:
    if not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or image.size == 0:
        raise BoardNotFoundError("not an image")
    if image.dtype != np.uint8:
        img = image.astype(np.float64)
        hi = float(np.nanmax(img)) if np.isfinite(img).any() else 0.0
        scale = 255.0 / hi if hi > 255 else (255.0 if 0 < hi <= 1.0 else 1.0)
        image = np.clip(np.nan_to_num(img * scale), 0, 255).astype(np.uint8)
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 1:
        return cv2.cvtColor(image[:, :, 0], cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.shape[2] != 3:
        raise BoardNotFoundError(f"unsupported number of channels: {image.shape[2]}")
    return image


def order_corners(quad: np.ndarray) -> np.ndarray:
    """Reorder 4 corners to TL, TR, BR, BL: clockwise on screen, top edge the most horizontal, at the top."""
    q = np.asarray(quad, dtype=np.float64).reshape(4, 2)
    centre = q.mean(axis=0)
    angles = np.arctan2(q[:, 1] - centre[1], q[:, 0] - centre[0])
    q = q[np.argsort(angles)]  # increasing angle = clockwise on screen (y down)
    best, best_cost = q, np.inf
    for k in range(4):
        cand = np.roll(q, -k, axis=0)
        edge = cand[1] - cand[0]
        # top edge pointing right (+x) and lying above the centre
        cost = abs(np.arctan2(edge[1], edge[0]))
        if cost < best_cost:
            best, best_cost = cand, cost
    return best


# --------------------------------------------------------------------------- coarse search


def _orientations(gx: np.ndarray, gy: np.ndarray, count: int) -> list[float]:
    """Board rotation candidates (radians, in [-pi/4, pi/4)) from the gradient angles modulo 90°."""
    gx, gy = gx[::2, ::2], gy[::2, ::2]  # every other pixel is plenty for a histogram
    mag = np.hypot(gx, gy)
    thr = np.percentile(mag, 70)
    sel = mag > max(thr, 1e-6)
    if sel.sum() < 50:
        return [0.0]
    weight = np.minimum(mag[sel], np.percentile(mag[sel], 95))
    alpha = np.mod(np.arctan2(gy[sel], gx[sel]), np.pi / 2)
    bins = 180
    hist = np.bincount(np.minimum((alpha / (np.pi / 2) * bins).astype(np.int64), bins - 1), weight, bins)
    kernel = np.array([1.0, 2.0, 3.0, 2.0, 1.0])
    smooth = np.convolve(np.concatenate([hist[-2:], hist, hist[:2]]), kernel / kernel.sum(), mode="valid")
    peaks = [i for i in range(bins) if smooth[i] >= smooth[i - 1] and smooth[i] >= smooth[(i + 1) % bins]]
    peaks.sort(key=lambda i: -smooth[i])
    out: list[float] = []
    for i in peaks:
        if len(out) >= count or smooth[i] < 0.5 * smooth[peaks[0]]:
            break
        left, mid, right = smooth[i - 1], smooth[i], smooth[(i + 1) % bins]
        denom = left - 2 * mid + right
        frac = 0.5 * (left - right) / denom if denom < 0 else 0.0
        angle = (i + 0.5 + frac) / bins * (np.pi / 2)
        angle = (angle + np.pi / 4) % (np.pi / 2) - np.pi / 4
        if all(abs(((angle - a + np.pi / 4) % (np.pi / 2)) - np.pi / 4) > np.deg2rad(6) for a in out):
            out.append(float(angle))
    return out or [0.0]


def _autocorr(signal: np.ndarray, axis: int, max_lag: int) -> np.ndarray:
    """Sum over the other axis of the autocorrelation along ``axis``, lags 0..max_lag."""
    n = signal.shape[axis]
    size = 1 << int(np.ceil(np.log2(n + max_lag + 1)))
    spec = np.fft.rfft(signal, n=size, axis=axis)
    power = (spec.real**2 + spec.imag**2).sum(axis=1 - axis)
    corr = np.fft.irfft(power, n=size)[: max_lag + 1]
    overlap = np.maximum(n - np.arange(max_lag + 1), 1)
    return corr / overlap * n


def _pitches(gu: np.ndarray, gv: np.ndarray, lo: float, hi: float, count: int) -> list[float]:
    """Tile pitch candidates (pixels) from the autocorrelation of the axis-aligned signed gradients."""
    max_lag = int(np.ceil(hi)) + 2
    # Summing bands of 4 rows (columns) keeps the periodicity along them and is 4x cheaper.
    hu, wv = gu.shape[0] // 4 * 4, gv.shape[1] // 4 * 4
    bands_u = gu[:hu].reshape(hu // 4, 4, -1).sum(axis=1)
    bands_v = gv[:, :wv].reshape(gv.shape[0], wv // 4, 4).sum(axis=2)
    corr = _autocorr(bands_u, 1, max_lag) + _autocorr(bands_v, 0, max_lag)
    if corr[0] <= 0:
        return []
    corr = corr / corr[0]
    lags = np.arange(len(corr))
    cand = [
        i
        for i in range(max(int(lo), 2), min(int(hi) + 1, len(corr) - 1))
        if corr[i] > corr[i - 1] and corr[i] >= corr[i + 1] and corr[i] > 0
    ]
    cand.sort(key=lambda i: -corr[i])
    out: list[float] = []
    for i in cand[:count]:
        left, mid, right = corr[i - 1], corr[i], corr[i + 1]
        denom = left - 2 * mid + right
        frac = 0.5 * (left - right) / denom if denom < 0 else 0.0
        out.append(float(lags[i] + frac))
    return out


# Sample points (board units inside a tile) standing for the tile regions of vision.tiles:
# on a box-blurred image one sample approximates the region's mean.
def _region_points() -> np.ndarray:
    cfg = tile_mod.DEFAULT_CONFIG
    k = 0.5 * (cfg.corner_lo + cfg.corner_hi)
    e = 0.5 * (cfg.edge_lo + cfg.edge_hi)
    corners = [(k, k), (1 - k, k), (1 - k, 1 - k), (k, 1 - k)]
    edges = [(0.5, e), (1 - e, 0.5), (0.5, 1 - e), (e, 0.5)]
    local = np.array(corners + edges)  # (8, 2)
    origin = np.array(_FIXED, dtype=np.float64)[:, ::-1]  # (16, 2) x=col, y=row
    return (origin[:, None, :] + local[None]).reshape(-1, 2)  # (128, 2)


_POINTS = _region_points()
_POINTS_H = np.column_stack([_POINTS, np.ones(len(_POINTS))])
#: Scale of the radial-distortion prior: a fitted k must beat the flat model by a factor (1 + (k / K_PRIOR)²).
K_PRIOR = 1.0
_BOARD_CORNERS = np.array([[0.0, 0.0], [7.0, 0.0], [7.0, 7.0], [0.0, 7.0]])


def _batch_homographies(quads: np.ndarray) -> np.ndarray:
    """Board (0..7 tile units) -> image homographies for N quads (N x 4 x 2): (N, 3, 3)."""
    n = len(quads)
    x, y = _BOARD_CORNERS[:, 0], _BOARD_CORNERS[:, 1]
    u, v = quads[:, :, 0], quads[:, :, 1]
    a = np.zeros((n, 8, 8))
    a[:, 0::2, 0], a[:, 0::2, 1], a[:, 0::2, 2] = x, y, 1.0
    a[:, 0::2, 6], a[:, 0::2, 7] = -u * x, -u * y
    a[:, 1::2, 3], a[:, 1::2, 4], a[:, 1::2, 5] = x, y, 1.0
    a[:, 1::2, 6], a[:, 1::2, 7] = -v * x, -v * y
    b = quads.reshape(n, 8)
    h = np.linalg.solve(a, b[..., None])[..., 0]
    return np.concatenate([h, np.ones((n, 1))], axis=1).reshape(n, 3, 3)


def _separation(blur: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """Fixed-edge separation d' of each candidate tile-area quad (N x 4 x 2, work pixels) on a blurred Lab image.

    d' is the Fisher separation of the fixed tiles' 44 known-open and 20
    known-closed edges (Lab relative to each tile's corners): large only when
    the grid sits on the board's tiles (a tile's shift puts the fixed tiles on
    movable squares, half a tile puts corners where edges should be).
    """
    hom = _batch_homographies(quads)
    proj = np.einsum("nij,pj->npi", hom, _POINTS_H)
    den = proj[..., 2]
    ok = np.abs(den) > 1e-9
    den = np.where(ok, den, 1.0)
    h, w = blur.shape[:2]
    xs = np.clip(np.rint(proj[..., 0] / den), 0, w - 1).astype(np.intp)
    ys = np.clip(np.rint(proj[..., 1] / den), 0, h - 1).astype(np.intp)
    vals = blur[ys, xs].reshape(len(quads), 16, 8, -1).astype(np.float64)
    wall = np.sort(vals[:, :, :4], axis=2)[:, :, 1:3].mean(axis=2)
    feats = (vals[:, :, 4:] - wall[:, :, None, :]).reshape(len(quads), 64, -1)
    pos, neg = feats[:, _FIXED_OPEN], feats[:, ~_FIXED_OPEN]
    mp, mn = pos.mean(axis=1), neg.mean(axis=1)
    cp, cn = pos - mp[:, None], neg - mn[:, None]
    cov = (cp.transpose(0, 2, 1) @ cp + cn.transpose(0, 2, 1) @ cn) / 62.0
    dim = cov.shape[-1]
    cov += np.eye(dim)[None] * (np.trace(cov, axis1=1, axis2=2)[:, None, None] * 0.05 / dim + 1e-6)
    diff = mp - mn
    wvec = np.linalg.solve(cov, diff[..., None])[..., 0]
    score = np.sqrt(np.maximum(np.einsum("ni,ni->n", wvec, diff), 0.0))
    return np.where(ok.all(axis=1), score, 0.0)


def _axis_angles(gx: np.ndarray, gy: np.ndarray, theta: float) -> tuple[float, float]:
    """Directions (radians) of the board's x and y axes in the image, near rotation ``theta``.

    Tilt makes the board a trapezoid: its two families of lines are not at
    90°, so each family's angle is measured on its own (gradient angles modulo
    180°, peaks within 10° of ``theta`` and ``theta + 90°``).
    """
    gx, gy = gx[::2, ::2], gy[::2, ::2]
    mag = np.hypot(gx, gy)
    sel = mag > max(float(np.percentile(mag, 70)), 1e-6)
    if sel.sum() < 50:
        return theta, theta + np.pi / 2
    weight = np.minimum(mag[sel], np.percentile(mag[sel], 95))
    psi = np.mod(np.arctan2(gy[sel], gx[sel]), np.pi)
    bins = 360
    hist = np.bincount(np.minimum((psi / np.pi * bins).astype(np.int64), bins - 1), weight, bins)
    kernel = np.array([1.0, 2.0, 3.0, 4.0, 3.0, 2.0, 1.0])
    smooth = np.convolve(np.concatenate([hist[-3:], hist, hist[:3]]), kernel / kernel.sum(), mode="valid")

    def peak(near: float) -> float:
        centre = round(np.mod(near, np.pi) / np.pi * bins)
        idx = (centre + np.arange(-20, 21)) % bins
        i = int(idx[int(np.argmax(smooth[idx]))])
        left, mid, right = smooth[i - 1], smooth[i], smooth[(i + 1) % bins]
        den = left - 2 * mid + right
        frac = 0.5 * (left - right) / den if den < 0 else 0.0
        angle = (i + 0.5 + frac) / bins * np.pi
        return near + (np.mod(angle - near + np.pi / 2, np.pi) - np.pi / 2)

    normal_x_lines = peak(theta)  # lines of constant board x: their normal is perpendicular to the y axis
    normal_y_lines = peak(theta + np.pi / 2)
    return normal_y_lines - np.pi / 2, normal_x_lines + np.pi / 2


def _canonical(lin: np.ndarray, shape: tuple[int, int]) -> tuple[np.ndarray, tuple[int, int]]:
    """The linear map ``lin`` (2x2) as an affine map onto a canvas that holds the whole image."""
    h, w = shape
    pts = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64) @ lin.T
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    affine = np.hstack([lin, -lo[:, None]])
    size = (int(np.ceil(hi[0] - lo[0])) + 1, int(np.ceil(hi[1] - lo[1])) + 1)
    return affine, size


def _blurred(lab: np.ndarray, pitch: float, cache: dict[int, np.ndarray]) -> np.ndarray:
    size = max(1, round(0.15 * pitch)) | 1
    if size not in cache:
        cache[size] = cv2.blur(lab, (size, size)) if size > 1 else lab
    return cache[size]


def _grid_quads(inv: np.ndarray, origins: np.ndarray, px: np.ndarray, py: np.ndarray) -> np.ndarray:
    """Work-image quads of axis-aligned grids (canonical frame: top-left ``origins``, pitches ``px``, ``py``)."""
    quads = origins[:, None, :] + _BOARD_CORNERS[None] * np.stack([px, py], axis=1)[:, None, :]
    return quads @ inv[:, :2].T + inv[:, 2]


def _wide(lab: np.ndarray, pitch: float, cache: dict[int, np.ndarray]) -> np.ndarray:
    size = max(1, round(0.3 * pitch)) | 1
    if size not in cache:
        cache[size] = cv2.blur(lab, (size, size)) if size > 1 else lab
    return cache[size]


def _shifted(quads: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """For each quad, the quads of the 7x7 windows moved by whole tiles ``offsets`` (K x 2): (N*K, 4, 2)."""
    hom = _batch_homographies(quads)  # board -> image
    pts = _BOARD_CORNERS[None, :, :] + offsets[:, None, :]  # (K, 4, 2)
    pts_h = np.concatenate([pts, np.ones((*pts.shape[:2], 1))], axis=-1)
    proj = np.einsum("nij,kpj->nkpi", hom, pts_h)
    return (proj[..., :2] / proj[..., 2:3]).reshape(-1, 4, 2)


def _search_grid(blur: np.ndarray, inv: np.ndarray, centre: np.ndarray, pitch: float) -> tuple[float, np.ndarray]:
    """Place the 7x7 grid near the periodic centre: phase, window, then sub-tile position and pitches."""
    # (a) phase and window parity, on a lattice finer than the separation's ~0.15-tile basin
    steps = np.arange(-1.0, 0.99, 0.2)
    fx, fy = (a.ravel() for a in np.meshgrid(steps, steps))
    origins = centre - 3.5 * pitch + np.stack([fx, fy], axis=1) * pitch
    ones = np.full(len(origins), pitch)
    sc = _separation(blur, _grid_quads(inv, origins, ones, ones))
    origin = origins[int(np.argmax(sc))]
    # (b) which 7x7 window of the periodic pattern is the board
    k = np.arange(-2, 3, dtype=np.float64)
    kx, ky = (a.ravel() for a in np.meshgrid(k, k))
    origins = origin + np.stack([kx, ky], axis=1) * pitch
    ones = np.full(len(origins), pitch)
    sc = _separation(blur, _grid_quads(inv, origins, ones, ones))
    origin = origins[int(np.argmax(sc))]
    # (c) sub-tile position and the two pitches (perspective makes them differ)
    fine = np.array([-0.1, 0.0, 0.1])
    fac = np.array([0.97, 1.0, 1.03])
    ax, ay, sx, sy = (a.ravel() for a in np.meshgrid(fine, fine, fac, fac))
    px, py = pitch * sx, pitch * sy
    mid = origin + 3.5 * pitch
    origins = mid + np.stack([ax * pitch - 3.5 * px, ay * pitch - 3.5 * py], axis=1)
    quads = _grid_quads(inv, origins, px, py)
    sc = _separation(blur, quads)
    i = int(np.argmax(sc))
    return float(sc[i]), quads[i]


def _place(
    lab: np.ndarray, blurs: dict[int, np.ndarray], inv: np.ndarray, centre: np.ndarray, pitch: float, clear: float
) -> tuple[float, np.ndarray]:
    """Place the 7x7 grid of one lattice hypothesis: (fixed-tile separation d', work-image quad).

    First the fixed tiles' own search on the lattice (phase, window, pitches):
    enough when the board is seen nearly square-on. Strong perspective bends a
    real board away from any one lattice and that search's narrow basin misses
    it; then the grid is found with the wide-basin centre/crossing score
    (phase, window, then a full homography) and judged by the fixed tiles,
    which also settle what that score cannot: the half-tile (centres vs
    crossings) and one-tile (which window) ambiguities.
    """
    blur = _blurred(lab, pitch, blurs)
    # The fixed tiles' own lattice search first: enough for a board seen nearly square-on.
    direct, direct_quad = _search_grid(blur, inv, centre, pitch)
    if direct > clear:
        return direct, direct_quad
    wide = _wide(lab, pitch, blurs)
    steps = np.arange(0.0, 0.99, 0.1)
    fx, fy = (a.ravel() for a in np.meshgrid(steps, steps))
    origins = centre - 3.5 * pitch + np.stack([fx, fy], axis=1) * pitch
    ones = np.full(len(origins), pitch)
    sc = _centre_crossing_score(wide, _grid_quads(inv, origins, ones, ones))
    origin = origins[int(np.argmax(sc))]
    k = np.arange(-2, 3, dtype=np.float64)
    kx, ky = (a.ravel() for a in np.meshgrid(k, k))
    starts = []
    for half in (0.0, 0.5):  # the score cannot tell tile centres from crossings
        origins = origin + (np.stack([kx, ky], axis=1) + half) * pitch
        ones = np.full(len(origins), pitch)
        quads = _grid_quads(inv, origins, ones, ones)
        starts.append(quads[int(np.argmax(_centre_crossing_score(wide, quads)))])
    _, candidates = _polish(_centre_crossing_score, wide, np.array(starts), pitch, (0.2, 0.07), rounds=2)
    # Which window and which half: the fixed tiles decide.
    moves = np.array([(dx, dy) for dy in (-1.0, 0.0, 1.0) for dx in (-1.0, 0.0, 1.0)])
    quads = _shifted(candidates, moves)
    sc = _separation(blur, quads)
    i = int(np.argmax(sc))
    # Keep whichever the fixed tiles prefer (the centre/crossing score can be
    # misled, e.g. by pictures glowing at night where corridors should be).
    if direct > sc[i]:
        return direct, direct_quad
    return float(sc[i]), quads[i]


def _lattice(gx: np.ndarray, gy: np.ndarray, lo: float, hi: float, count: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Candidate tile lattice vectors (a: along the board's rows, b: along its columns), work pixels.

    The board is the one strongly periodic thing in the photo: the 2-D
    autocorrelation of the signed gradient (gx, gy) peaks at the tile lattice
    vectors, whatever the artwork and wherever the board lies; table texture,
    cards and noise do not repeat and average out. The first peak in the
    horizontal sector gives ``a``, in the vertical sector ``b`` (rotation up to
    ±30°, perspective skews them a little apart); each is then sharpened on
    its third multiple, three times further out, where a pixel is a third of
    the angle.
    """
    rows, cols = gx.shape
    size = (cv2.getOptimalDFTSize(rows), cv2.getOptimalDFTSize(cols))
    power = None
    for g in (gx, gy):
        padded = np.zeros(size, np.float32)
        padded[:rows, :cols] = g
        spec = cv2.dft(padded, flags=cv2.DFT_COMPLEX_OUTPUT)
        sq = cv2.mulSpectrums(spec, spec, 0, conjB=True)
        power = sq if power is None else power + sq
    full = cv2.idft(power, flags=cv2.DFT_REAL_OUTPUT | cv2.DFT_SCALE)
    # Only lags up to three lattice vectors matter: crop around lag 0 (the map wraps around).
    reach = int(min(3 * hi + 4, rows // 2 - 1, cols // 2 - 1))
    lags = np.arange(-reach, reach + 1)
    auto = full[np.ix_(lags % size[0], lags % size[1])].astype(np.float64)
    h = w = 2 * reach + 1
    cy = cx = reach
    if auto[cy, cx] <= 0:
        return []
    auto /= auto[cy, cx]
    yy, xx = np.mgrid[0:h, 0:w]
    dx, dy = xx - cx, yy - cy
    radius = np.hypot(dx, dy)
    angle = np.degrees(np.arctan2(dy, dx))
    ring = (radius >= lo) & (radius <= hi)
    local_max = auto >= cv2.dilate(auto, np.ones((3, 3), np.uint8))
    out: list[tuple[np.ndarray, np.ndarray]] = []

    def harmonic(vec: np.ndarray) -> float:
        """Mean peak height at 1, 2 and 3 times ``vec``: a half-tile echo fails at 1.5 tiles, the tile does not."""
        total, n = 0.0, 0
        for k in (1, 2, 3):
            x, y = round(k * vec[0]) + cx, round(k * vec[1]) + cy
            r = max(1, round(0.05 * k * np.hypot(*vec)))
            if r <= x < w - r and r <= y < h - r:
                total += float(auto[y - r : y + r + 1, x - r : x + r + 1].max())
                n += 1
        return total / max(n, 1) if n >= 2 else -1.0

    def peaks(sector: np.ndarray) -> list[np.ndarray]:
        sel = ring & sector & local_max & (auto > 0)
        ys, xs = np.nonzero(sel)
        if len(ys) == 0:
            return []
        order = np.argsort(-auto[ys, xs])[:8]
        found = [_sharpen(auto, cx, cy, np.array([xs[i] - cx, ys[i] - cy], dtype=np.float64)) for i in order]
        found.sort(key=lambda v: -harmonic(v))
        return found

    a_list = peaks((np.abs(angle) <= 40) & (dx > 0))
    b_list = peaks((np.abs(angle - 90) <= 40) & (dy > 0))
    for a in a_list[:count]:
        # b: the best vertical peak of about the same length (tiles are square)
        match = [b for b in b_list if 0.8 < np.linalg.norm(b) / np.linalg.norm(a) < 1.25]
        if match:
            out.append((_refine_vector(auto, cx, cy, a), _refine_vector(auto, cx, cy, match[0])))
    return out


def _sharpen(auto: np.ndarray, cx: int, cy: int, vec: np.ndarray) -> np.ndarray:
    """Sub-pixel peak position near integer lag ``vec`` (parabola through the 3x3 neighbourhood)."""
    x, y = round(vec[0]) + cx, round(vec[1]) + cy
    h, w = auto.shape
    if not (1 <= x < w - 1 and 1 <= y < h - 1):
        return vec
    fx = auto[y, x - 1] - 2 * auto[y, x] + auto[y, x + 1]
    fy = auto[y - 1, x] - 2 * auto[y, x] + auto[y + 1, x]
    ox = 0.5 * (auto[y, x - 1] - auto[y, x + 1]) / fx if fx < 0 else 0.0
    oy = 0.5 * (auto[y - 1, x] - auto[y + 1, x]) / fy if fy < 0 else 0.0
    return np.array([x - cx + np.clip(ox, -0.5, 0.5), y - cy + np.clip(oy, -0.5, 0.5)])


def _refine_vector(auto: np.ndarray, cx: int, cy: int, vec: np.ndarray) -> np.ndarray:
    """Re-measure a lattice vector on its 3rd multiple (when inside the map): three times the precision."""
    h, w = auto.shape
    far = 3 * vec
    x, y = round(far[0]) + cx, round(far[1]) + cy
    r = max(2, round(0.06 * np.linalg.norm(far)))
    if not (r + 1 <= x < w - r - 1 and r + 1 <= y < h - r - 1):
        return vec
    win = auto[y - r : y + r + 1, x - r : x + r + 1]
    iy, ix = np.unravel_index(int(np.argmax(win)), win.shape)
    if win[iy, ix] <= 0:
        return vec
    peak = _sharpen(auto, cx, cy, np.array([x - r + ix - cx, y - r + iy - cy], dtype=np.float64))
    return peak / 3.0


def _lattice_candidates(
    gx: np.ndarray, gy: np.ndarray, lo: float, hi: float, cfg: LocateConfig
) -> Iterator[tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray] | None]]:
    """Tile lattice hypotheses (a, b, and the canonical frame when already computed), most likely first.

    Two independent estimators: the 1-D one (orientation histogram, then the
    pitch along each axis) copes with boards whose edges dominate the
    gradients; the 2-D autocorrelation copes with cluttered tables.
    Hypotheses are generated lazily so a clear board stops the search early.
    """
    for theta in _orientations(gx, gy, cfg.max_orientations):
        alpha, beta = _axis_angles(gx, gy, theta)
        lin = np.linalg.inv(np.array([[np.cos(alpha), np.cos(beta)], [np.sin(alpha), np.sin(beta)]]))
        affine, size = _canonical(lin, gx.shape)
        gu = cv2.warpAffine(np.cos(alpha) * gx + np.sin(alpha) * gy, affine, size, flags=cv2.INTER_LINEAR)
        gv = cv2.warpAffine(np.cos(beta) * gx + np.sin(beta) * gy, affine, size, flags=cv2.INTER_LINEAR)
        for pitch in _pitches(gu, gv, lo, hi, cfg.max_pitches):
            a_vec = pitch * np.array([np.cos(alpha), np.sin(alpha)])
            b_vec = pitch * np.array([np.cos(beta), np.sin(beta)])
            # pitch * inv([a b]) is this frame's map: _coarse can reuse the warped gradients.
            yield a_vec, b_vec, (affine, gu, gv)
    for a_vec, b_vec in _lattice(gx, gy, lo, hi, cfg.max_pitches):
        yield a_vec, b_vec, None


def _coarse(work: np.ndarray, cfg: LocateConfig) -> tuple[float, np.ndarray] | None:
    """The best tile-area quad (work pixels, TL TR BR BL) over orientation and pitch hypotheses, and its d'.

    The gradient analysis (lattice, periodic centre) runs at half the work
    resolution, where a tile is still 7+ pixels; the fixed tiles are then
    sampled at full work resolution.
    """
    half = cv2.resize(work[: work.shape[0] // 2 * 2, : work.shape[1] // 2 * 2], None, fx=0.5, fy=0.5,
                      interpolation=cv2.INTER_AREA)  # fmt: skip
    grey = cv2.GaussianBlur(cv2.cvtColor(half, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0), 0.7)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    lab = cv2.cvtColor(work, cv2.COLOR_BGR2Lab).astype(np.float32)
    short = min(half.shape[:2])
    lo, hi = cfg.min_tile_frac * short, cfg.max_tile_frac * short
    blurs: dict[int, np.ndarray] = {}
    best: tuple[float, np.ndarray, float] | None = None
    for a_vec, b_vec, frame in _lattice_candidates(gx, gy, lo, hi, cfg):
        pitch = 0.5 * (float(np.linalg.norm(a_vec)) + float(np.linalg.norm(b_vec)))
        if frame is not None:
            affine, gu, gv = frame
        else:
            # Canonical frame: the lattice vectors become (pitch, 0) and (0, pitch).
            lin = pitch * np.linalg.inv(np.column_stack([a_vec, b_vec]))
            affine, size = _canonical(lin, half.shape[:2])
            ua, ub = a_vec / np.linalg.norm(a_vec), b_vec / np.linalg.norm(b_vec)
            gu = cv2.warpAffine(ua[0] * gx + ua[1] * gy, affine, size, flags=cv2.INTER_LINEAR)
            gv = cv2.warpAffine(ub[0] * gx + ub[1] * gy, affine, size, flags=cv2.INTER_LINEAR)
        centre = _periodic_centre(gu, gv, pitch)
        if centre is None:
            continue
        # Back to work pixels: canonical units doubled, and half-image -> work coordinates.
        inv = cv2.invertAffineTransform(2.0 * affine)
        inv = np.hstack([2.0 * inv[:, :2], 2.0 * inv[:, 2:] + 0.5])
        score, quad = _place(lab, blurs, inv, 2.0 * centre, 2.0 * pitch, cfg.clear_separation)
        if best is None or score > best[0]:
            best = (score, quad, 2.0 * pitch)
        if score > cfg.clear_separation:
            break  # a clear board: the other lattice hypotheses are harmonics or clutter
    if best is None:
        return None
    score, quad, pitch = best
    scores, quads = _polish(_separation, _blurred(lab, pitch, blurs), quad[None], pitch, (0.12, 0.06, 0.03))
    return float(scores[0]), quads[0]


def _periodic_centre(gu: np.ndarray, gv: np.ndarray, pitch: float) -> np.ndarray | None:
    """Centre (x, y, rotated frame) of the 7x7-tile window where the gradients repeat at ``pitch``."""
    h, w = gu.shape
    p = round(pitch)
    if 7 * pitch > 1.05 * max(h, w) or p < 4 or 2 * p >= min(h, w):
        return None
    periodic = np.zeros_like(gu)
    periodic[:, p:-p] = gu[:, p:-p] * (gu[:, 2 * p :] + gu[:, : -2 * p])
    periodic[p:-p, :] += gv[p:-p, :] * (gv[2 * p :, :] + gv[: -2 * p, :])
    # The window sum at half resolution: the centre is only needed to a fraction of a tile.
    small = cv2.resize(periodic[: h // 2 * 2, : w // 2 * 2], (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    win = max(round(3.5 * pitch), 3)
    summed = cv2.boxFilter(small, -1, (win, win), normalize=False, borderType=cv2.BORDER_CONSTANT)
    cy, cx = np.unravel_index(int(np.argmax(summed)), summed.shape)
    return np.array([2 * cx + 0.5, 2 * cy + 0.5], dtype=np.float64)


def _cx_points() -> np.ndarray:
    centres = [(c + 0.5, r + 0.5) for r in range(SIZE) for c in range(SIZE)]
    crossings = [(float(i), float(j)) for j in range(1, SIZE) for i in range(1, SIZE)]
    return np.column_stack([np.array(centres + crossings), np.ones(len(centres) + len(crossings))])


_CX_POINTS = _cx_points()


def _centre_crossing_score(blur: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """Fisher separation of the 49 tile centres (corridor) from the 36 inner grid crossings (wall).

    On a heavily blurred image this falls off slowly as the grid drifts (up to
    ~0.3 tile), so it pulls a grid that is only roughly right (a strong tilt
    the coarse lattice could not follow) into the narrow basin of the
    fixed-tile separation.
    """
    hom = _batch_homographies(quads)
    proj = np.einsum("nij,pj->npi", hom, _CX_POINTS)
    den = np.where(np.abs(proj[..., 2]) > 1e-9, proj[..., 2], 1e-9)
    h, w = blur.shape[:2]
    xs = np.clip(np.rint(proj[..., 0] / den), 0, w - 1).astype(np.intp)
    ys = np.clip(np.rint(proj[..., 1] / den), 0, h - 1).astype(np.intp)
    vals = blur[ys, xs].astype(np.float64)
    cen, crs = vals[:, :49], vals[:, 49:]
    diff = cen.mean(axis=1) - crs.mean(axis=1)
    dc, dx = cen - cen.mean(axis=1, keepdims=True), crs - crs.mean(axis=1, keepdims=True)
    cov = (dc.transpose(0, 2, 1) @ dc + dx.transpose(0, 2, 1) @ dx) / (vals.shape[1] - 2)
    dim = cov.shape[-1]
    cov += np.eye(dim)[None] * (np.trace(cov, axis1=1, axis2=2)[:, None, None] * 0.05 / dim + 1e-6)
    wvec = np.linalg.solve(cov, diff[..., None])[..., 0]
    return np.sqrt(np.maximum(np.einsum("ni,ni->n", wvec, diff), 0.0))


def _polish(
    score_fn: Callable[[np.ndarray, np.ndarray], np.ndarray],
    blur: np.ndarray,
    quads: np.ndarray,
    pitch: float,
    steps: tuple[float, ...],
    rounds: int = 3,
) -> tuple[np.ndarray, np.ndarray]:
    """Move each quad's four corners independently (a homography: tilt, perspective) to maximise a grid score.

    ``quads`` (M, 4, 2) are polished together (one batched score call per
    round). Returns the final scores (M,) and quads.
    """
    quads = np.array(quads, dtype=np.float64).reshape(-1, 4, 2)
    count = len(quads)
    eye = np.eye(8).reshape(8, 4, 2)
    score = score_fn(blur, quads)
    for step in steps:
        delta = step * pitch
        for _ in range(rounds):
            cands = np.concatenate([quads[:, None] + delta * eye[None], quads[:, None] - delta * eye[None]], axis=1)
            sc = score_fn(blur, cands.reshape(-1, 4, 2)).reshape(count, 16)
            gain = sc - score[:, None]
            if gain.max() <= 1e-9:
                break
            # Combine every coordinate's better direction; keep it if it beats the best single move.
            up, down = gain[:, :8], gain[:, 8:]
            move = np.where(up >= down, delta, -delta) * (np.maximum(up, down) > 0)
            combined = quads + move.reshape(count, 4, 2)
            c_score = score_fn(blur, combined)
            best = sc.argmax(axis=1)
            single = cands[np.arange(count), best]
            s_score = sc[np.arange(count), best]
            use_combined = c_score >= s_score
            improve = np.maximum(c_score, s_score) > score
            new = np.where(use_combined[:, None, None], combined, single)
            quads = np.where(improve[:, None, None], new, quads)
            score = np.where(improve, np.maximum(c_score, s_score), score)
    return score, quads


# --------------------------------------------------------------------------- refinement


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
        r2 = (d * d).sum(axis=-1, keepdims=True) / self.scale**2
        return self.centre + d * (1.0 + kk * r2)

    def distort(self, ideal: np.ndarray) -> np.ndarray:
        d = ideal - self.centre
        p = d.copy()
        for _ in range(4):  # fixed point of p = d / (1 + k |p|²): converges fast for lens-sized k
            r2 = (p * p).sum(axis=-1, keepdims=True) / self.scale**2
            p = d / (1.0 + self.k * r2)
        return self.centre + p

    def to_image(self, board: np.ndarray) -> np.ndarray:
        """Board coordinates (tile units, N x 2) -> observed image pixels."""
        ideal_from_board = np.linalg.inv(self.board_from_ideal)
        ideal = cv2.perspectiveTransform(board.reshape(1, -1, 2).astype(np.float64), ideal_from_board)
        return self.distort(ideal[0])

    def corners(self) -> np.ndarray:
        return self.to_image(_BOARD_CORNERS)


def _sample(image: np.ndarray, geo: _Geometry, t: int, m: int, factor: int = 1) -> np.ndarray:
    """A rectified view (tile_px ``t``, margin ``m``) through the distortion model, by remap.

    ``image`` may be the photo reduced by an integer ``factor`` (block average),
    which removes the aliasing noise a plain remap of a much larger tile has.
    """
    side = 7 * t + 2 * m
    step = 4  # the map is smooth: compute it on a coarse lattice and interpolate
    n = -(-side // step) + 2
    # cv2.resize by an integer factor puts lattice point j at output pixel (j + 0.5) * step - 0.5;
    # one padding cell on each side keeps the border pixels interpolated, not clamped.
    idx = (np.arange(n, dtype=np.float64) - 0.5) * step - 0.5
    gx, gy = np.meshgrid(idx, idx)
    board = np.stack([(gx - (m - 0.5)) / t, (gy - (m - 0.5)) / t], axis=-1).reshape(-1, 2)
    pts = geo.to_image(board).reshape(n, n, 2).astype(np.float32)
    full = cv2.resize(pts, (n * step, n * step), interpolation=cv2.INTER_LINEAR)[step : step + side, step : step + side]
    if factor > 1:
        full = (full + 0.5) / factor - 0.5
    return cv2.remap(image, full[..., 0], full[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)


def _refine(
    image: np.ndarray, corners: np.ndarray, cfg: LocateConfig, reduced: tuple[int, np.ndarray] | None = None
) -> tuple[np.ndarray, float]:
    """Sharpen the corners: fit homography + radial distortion to the centre lines of open corridor arms.

    Every model is judged by the fixed tiles' separation in its own rectified
    view and the best one is kept, so a frame that misleads the arm
    measurements (a hand, LED spill at night) cannot walk the grid away.
    """
    h, w = image.shape[:2]
    centre = np.array([(w - 1) / 2.0, (h - 1) / 2.0])
    geo = _Geometry(quad_homography(corners, _BOARD_CORNERS), 0.0, centre, float(w))
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
    best_sep, best_corners = -1.0, geo.corners()
    last_sep, last_corners = -1.0, best_corners
    previous = best_corners
    for it in range(cfg.refine_iterations + 1):
        view = Rectified(_sample(source, geo, t, m, factor), t, m, np.eye(3), previous)
        lab = tile_mod.lab_view(view)
        feats = tile_mod.edge_features(view, lab=lab)
        model = tile_mod.learn(feats)
        last_sep, last_corners = model.separation, geo.corners()
        if last_sep > best_sep:
            best_sep, best_corners = last_sep, last_corners
        if it == cfg.refine_iterations:
            break
        shapes, _ = tile_mod.decode(model.probabilities(feats))
        is_open = (shapes[..., None] & np.array([1, 2, 4, 8])) > 0  # (7, 7, 4)
        for (r, c), tile in FIXED_TILES.items():
            is_open[r, c] = [bool(tile & b) for b in (1, 2, 4, 8)]
        # The arms are measured per pixel, where only colour exists: a colour-only model.
        meas = _arm_centres(lab, t, m, tile_mod.learn(feats[..., :3]), is_open)
        if meas is None:
            break
        points, axis, expected = meas
        fitted = _fit_geometry(
            geo,
            geo.to_image(points),
            axis,
            expected,
            fit_k=cfg.fit_distortion and it > 0,
            floor=0.06 if it < 2 else 0.02,
        )
        if fitted is None:
            break
        geo = fitted
        new = geo.corners()
        moved = float(np.abs(new - previous).max())
        previous = new
        if moved < max(0.3, 0.005 * pitch) and it > 0:
            last_corners = new  # converged: its separation is the one just measured
            break
    # Separation is flat near the truth (the arms are the precise part) and the
    # coarse grid was chosen for it, so the latest fit stands unless the fixed
    # tiles collapsed under it (the arms misled by a hand or LED spill).
    if last_sep >= cfg.refine_keep * best_sep:
        return last_corners, last_sep
    return best_corners, best_sep


def _arm_centres(
    lab_u8: np.ndarray, t: int, m: int, model: tile_mod.TileModel, is_open: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Centre lines of open corridor arms, measured in a rectified view.

    Returns board-unit points where a centre was measured, the axis measured
    (0: x for N/S arms, 1: y for E/W arms) and the coordinate it should have
    (the tile's centre line).
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
    pts, axes, expect = [], [], []
    rr, cc = np.meshgrid(np.arange(SIZE, dtype=np.float64), np.arange(SIZE, dtype=np.float64), indexing="ij")
    for side, prof in enumerate(profiles):
        q = np.clip((prof - wall[:, :, None]) / contrast, 0.0, 1.5)
        q = np.where(q > 0.4, q, 0.0) ** 2
        mass = q.sum(axis=2)
        local = ((q * coords).sum(axis=2) / np.maximum(mass, 1e-9) + 0.5) / t  # board units inside the tile
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
    points = np.concatenate(pts)
    if len(points) < 24:
        return None
    return points, np.concatenate(axes), np.concatenate(expect)


def _fit_geometry(
    geo: _Geometry, observed: np.ndarray, axis: np.ndarray, expected: np.ndarray, fit_k: bool, floor: float = 0.02
) -> _Geometry | None:
    """Robustly fit board_from_ideal (and k) so each measured arm centre lands on its tile's centre line."""
    # Lens-sized k only: a runaway k would bend the grid to fit biased arms.
    ks = np.clip(geo.k + np.linspace(-0.08, 0.08, 9), -0.1, 0.35) if fit_k else np.array([geo.k])
    weights = np.ones(len(observed))
    best: tuple[float, np.ndarray, float] | None = None
    for _ in range(3):
        results = []
        for k in ks:
            sol = _solve_board_from_ideal(geo, observed, axis, expected, weights, float(k))
            if sol is not None:
                results.append((sol[1], sol[0], float(k)))
        if not results:
            return None
        if fit_k and len(results) >= 3:
            # Bending is believed only when it explains clearly more than a flat homography.
            cost = np.array([r[0] * (1.0 + (r[2] / K_PRIOR) ** 2) for r in results])
            kk = np.array([r[2] for r in results])
            i = int(np.argmin(cost))
            if 0 < i < len(cost) - 1:
                den = cost[i - 1] - 2 * cost[i] + cost[i + 1]
                if den > 0:
                    k_star = kk[i] + 0.5 * (cost[i - 1] - cost[i + 1]) / den * (kk[1] - kk[0])
                    k_star = float(np.clip(k_star, -0.1, 0.35))
                    sol = _solve_board_from_ideal(geo, observed, axis, expected, weights, float(k_star))
                    if sol is not None:
                        results.append((sol[1], sol[0], float(k_star)))
        best = min(results, key=lambda r: r[0] * (1.0 + (r[2] / K_PRIOR) ** 2))
        _, hom, k = best
        resid = np.abs(_predict(hom, geo.undistort(observed, k), axis) - expected)
        scale = max(1.4826 * float(np.median(resid)), floor)  # tile units; wide while far from converged
        weights = 1.0 / np.maximum(1.0, resid / (1.5 * scale))
        weights[resid > 4 * scale] = 0.0
        ks = np.array([k])
    assert best is not None
    return _Geometry(best[1], best[2], geo.centre, geo.scale)


def _predict(hom: np.ndarray, ideal: np.ndarray, axis: np.ndarray) -> np.ndarray:
    board = cv2.perspectiveTransform(ideal.reshape(1, -1, 2), hom)[0]
    return np.where(axis == 0, board[:, 0], board[:, 1])


def _solve_board_from_ideal(
    geo: _Geometry, observed: np.ndarray, axis: np.ndarray, expected: np.ndarray, weights: np.ndarray, k: float
) -> tuple[np.ndarray, float] | None:
    """Weighted linear fit of the 8 homography parameters from 1-D constraints; returns it and its cost."""
    ideal = geo.undistort(observed, k)
    # Normalise image coordinates for conditioning.
    u = (ideal[:, 0] - geo.centre[0]) / geo.scale
    v = (ideal[:, 1] - geo.centre[1]) / geo.scale
    rows = np.zeros((len(u), 8))
    is_x = axis == 0
    rows[is_x, 0], rows[is_x, 1], rows[is_x, 2] = u[is_x], v[is_x], 1.0
    rows[~is_x, 3], rows[~is_x, 4], rows[~is_x, 5] = u[~is_x], v[~is_x], 1.0
    rows[:, 6], rows[:, 7] = -expected * u, -expected * v
    # A weak pull toward the current model keeps directions the arms do not pin down in place.
    inv_s = 1.0 / geo.scale
    norm = np.array([[inv_s, 0, -geo.centre[0] * inv_s], [0, inv_s, -geo.centre[1] * inv_s], [0, 0, 1]])
    prior = geo.board_from_ideal @ np.linalg.inv(norm)
    prior = (prior / prior[2, 2]).ravel()[:8]
    lam = 1e-4 * max(float(weights.sum()), 1.0)
    lhs = rows.T @ (rows * weights[:, None]) + lam * np.eye(8)
    rhs = rows.T @ (expected * weights) + lam * prior
    try:
        hn = np.linalg.solve(lhs, rhs)
    except np.linalg.LinAlgError:
        return None
    hom = np.append(hn, 1.0).reshape(3, 3) @ norm
    resid = _predict(hom, ideal, axis) - expected
    return hom, float((weights * resid * resid).sum() / max(weights.sum(), 1e-9))


# --------------------------------------------------------------------------- entry point


def find_board(image: np.ndarray, config: LocateConfig | None = None) -> np.ndarray:
    """Image corners (4x2 float32, TL TR BR BL) of the 7x7 tile area; row 0 is the edge nearest the image top.

    Raises :class:`BoardNotFoundError` when there is no recognisable board.
    """
    cfg = config or DEFAULT_CONFIG
    bgr = _to_bgr(image)
    h, w = bgr.shape[:2]
    if min(h, w) < 64:
        raise BoardNotFoundError(f"image too small ({w}x{h})")
    # An integer reduction factor keeps INTER_AREA fast (a plain block average).
    factor = max(1, round(max(h, w) / cfg.work_px))
    crop = bgr[: h - h % factor, : w - w % factor]
    work = cv2.resize(crop, (w // factor, h // factor), interpolation=cv2.INTER_AREA)
    scale = 1.0 / factor
    if float(cv2.meanStdDev(work)[1].max()) < 2.0:
        raise BoardNotFoundError("blank image")
    found = _coarse(work, cfg)
    if found is None:
        raise BoardNotFoundError("no periodic tile grid found")
    corners = order_corners(found[1] / scale)
    corners, separation = _refine(bgr, corners, cfg, (factor, work))
    if separation < cfg.min_separation:
        raise BoardNotFoundError(f"no board: fixed tiles do not match (separation {separation:.2f})")
    return order_corners(corners).astype(np.float32)
