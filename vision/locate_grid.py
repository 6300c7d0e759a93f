"""Coarse board search for :mod:`vision.locate`: the tile lattice, the 7x7 window, a homography.

Works on a block-averaged copy of the photo (``work``). Lattice hypotheses
come from the gradients (at half the work resolution); each is placed on the
board by the 16 fixed tiles' known openings (the separation d' of their 44
open and 20 closed edges) and, when perspective defeats that narrow-basin
score, first by a wide-basin one (tile centres against grid crossings). The
winner is polished as a free homography. See :mod:`vision.locate` for the
whole pipeline.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from companion.board import FIXED_TILES, SIZE
from vision import tiles as tile_mod

if TYPE_CHECKING:
    from vision.locate import LocateConfig

__all__ = ["BOARD_CORNERS", "coarse_quad"]

_FIXED = sorted(FIXED_TILES)
_FIXED_EDGES = np.array([(r, c, s) for (r, c) in _FIXED for s in range(4)], dtype=np.int64)
_FIXED_OPEN = np.array([bool(FIXED_TILES[(r, c)] & (1 << s)) for r, c, s in _FIXED_EDGES])


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
BOARD_CORNERS = np.array([[0.0, 0.0], [7.0, 0.0], [7.0, 7.0], [0.0, 7.0]])


def _batch_homographies(quads: np.ndarray) -> np.ndarray:
    """Board (0..7 tile units) -> image homographies for N quads (N x 4 x 2): (N, 3, 3)."""
    n = len(quads)
    x, y = BOARD_CORNERS[:, 0], BOARD_CORNERS[:, 1]
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
    proj = hom @ _POINTS_H.T  # (N, 3, P)
    den = proj[:, 2]
    ok = np.abs(den) > 1e-9
    den = np.where(ok, den, 1.0)
    h, w = blur.shape[:2]
    xs = np.clip(np.rint(proj[:, 0] / den), 0, w - 1).astype(np.intp)
    ys = np.clip(np.rint(proj[:, 1] / den), 0, h - 1).astype(np.intp)
    vals = blur[ys, xs].reshape(len(quads), 16, 8, -1).astype(np.float64)
    corners = vals[:, :, :4]
    # Mean of the middle two of the four corners (one may be under a pawn or a picture's rim).
    wall = 0.5 * (corners.sum(axis=2) - corners.max(axis=2) - corners.min(axis=2))
    feats = (vals[:, :, 4:] - wall[:, :, None, :]).reshape(len(quads), 64, -1)
    pos, neg = feats[:, _FIXED_OPEN], feats[:, ~_FIXED_OPEN]
    mp, mn = pos.mean(axis=1), neg.mean(axis=1)
    cp, cn = pos - mp[:, None], neg - mn[:, None]
    cov = (cp.transpose(0, 2, 1) @ cp + cn.transpose(0, 2, 1) @ cn) / 62.0
    dim = cov.shape[-1]
    cov += np.eye(dim)[None] * (np.trace(cov, axis1=1, axis2=2)[:, None, None] * 0.05 / dim + 1e-6)
    diff = mp - mn
    wvec = np.linalg.solve(cov, diff[..., None])[..., 0]
    score = np.sqrt(np.maximum((wvec * diff).sum(axis=1), 0.0))
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
    quads = origins[:, None, :] + BOARD_CORNERS[None] * np.stack([px, py], axis=1)[:, None, :]
    return quads @ inv[:, :2].T + inv[:, 2]


def _wide(lab: np.ndarray, pitch: float, cache: dict[int, np.ndarray]) -> np.ndarray:
    size = max(1, round(0.3 * pitch)) | 1
    if size not in cache:
        cache[size] = cv2.blur(lab, (size, size)) if size > 1 else lab
    return cache[size]


def _shifted(quads: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """For each quad, the quads of the 7x7 windows moved by whole tiles ``offsets`` (K x 2): (N*K, 4, 2)."""
    hom = _batch_homographies(quads)  # board -> image
    pts = BOARD_CORNERS[None, :, :] + offsets[:, None, :]  # (K, 4, 2)
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


def _lattice(
    gx: np.ndarray, gy: np.ndarray, lo: float, hi: float, count: int, with_strength: bool = False
) -> list[Any]:
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
    out: list[Any] = []

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
            item = (_refine_vector(auto, cx, cy, a), _refine_vector(auto, cx, cy, match[0]))
            out.append((*item, harmonic(a) + harmonic(match[0])) if with_strength else item)
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


def coarse_quad(work: np.ndarray, cfg: LocateConfig) -> tuple[float, np.ndarray] | None:
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
    tried: list[tuple[np.ndarray, np.ndarray]] = []

    def hypotheses() -> Iterator[tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray] | None]]:
        for a_glob, b_glob, frame_glob in _lattice_candidates(gx, gy, lo, hi, cfg):
            yield from _with_local(gx, gy, a_glob, b_glob, frame_glob, half.shape[:2])
        yield from _window_lattices(gx, gy, lo, hi)

    for a_vec, b_vec, frame in hypotheses():
        if any(_same_lattice(a_vec, b_vec, a, b) for a, b in tried) and frame is None:
            continue
        tried.append((a_vec, b_vec))
        pitch = 0.5 * (float(np.linalg.norm(a_vec)) + float(np.linalg.norm(b_vec)))
        if frame is None:
            frame = _frame(gx, gy, a_vec, b_vec, half.shape[:2])
        affine, gu, gv = frame
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


def _frame(
    gx: np.ndarray, gy: np.ndarray, a_vec: np.ndarray, b_vec: np.ndarray, shape: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Canonical frame of a lattice (its vectors become (pitch, 0), (0, pitch)) and the gradients warped into it."""
    pitch = 0.5 * (float(np.linalg.norm(a_vec)) + float(np.linalg.norm(b_vec)))
    lin = pitch * np.linalg.inv(np.column_stack([a_vec, b_vec]))
    affine, size = _canonical(lin, shape)
    ua, ub = a_vec / np.linalg.norm(a_vec), b_vec / np.linalg.norm(b_vec)
    gu = cv2.warpAffine(ua[0] * gx + ua[1] * gy, affine, size, flags=cv2.INTER_LINEAR)
    gv = cv2.warpAffine(ub[0] * gx + ub[1] * gy, affine, size, flags=cv2.INTER_LINEAR)
    return affine, gu, gv


def _same_lattice(a1: np.ndarray, b1: np.ndarray, a2: np.ndarray, b2: np.ndarray) -> bool:
    scale = 0.5 * (np.linalg.norm(a1) + np.linalg.norm(b1))
    return bool(np.linalg.norm(a1 - a2) < 0.03 * scale and np.linalg.norm(b1 - b2) < 0.03 * scale)


def _with_local(
    gx: np.ndarray,
    gy: np.ndarray,
    a_vec: np.ndarray,
    b_vec: np.ndarray,
    frame: tuple[np.ndarray, np.ndarray, np.ndarray] | None,
    shape: tuple[int, int],
) -> Iterator[tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray] | None]]:
    """A global lattice hypothesis re-measured where it repeats best, then the hypothesis itself.

    A small board on a patterned table (checks, dots) shares the photo's
    autocorrelation with the table, which can pull the global lattice a tenth
    or more off the tiles'. Around the window where the hypothesis' pitch
    repeats most (the board, if it is the board's pitch) the local
    autocorrelation sees only the tiles.
    """
    pitch = 0.5 * (float(np.linalg.norm(a_vec)) + float(np.linalg.norm(b_vec)))
    if frame is None:
        frame = _frame(gx, gy, a_vec, b_vec, shape)
    affine, gu, gv = frame
    centre = _periodic_centre(gu, gv, pitch)
    if centre is not None:
        inv = cv2.invertAffineTransform(affine)
        cx, cy = inv[:, :2] @ centre + inv[:, 2]
        reach = 5.0 * pitch
        h, w = shape
        x0, x1 = max(0, round(cx - reach)), min(w, round(cx + reach))
        y0, y1 = max(0, round(cy - reach)), min(h, round(cy + reach))
        if x1 - x0 > 3 * pitch and y1 - y0 > 3 * pitch:
            window = np.outer(np.hanning(y1 - y0), np.hanning(x1 - x0)).astype(np.float32)
            local = _lattice(gx[y0:y1, x0:x1] * window, gy[y0:y1, x0:x1] * window, 0.75 * pitch, 1.35 * pitch, 1)
            for a_loc, b_loc in local:
                if not _same_lattice(a_loc, b_loc, a_vec, b_vec):
                    yield a_loc, b_loc, None
    yield a_vec, b_vec, frame


def _window_lattices(
    gx: np.ndarray, gy: np.ndarray, lo: float, hi: float
) -> Iterator[tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray]]]:
    """Last resort: lattices measured in overlapping windows of the photo, strongest first.

    When the whole photo's autocorrelation belongs to a patterned table, a
    window that the board fills shows the tiles' lattice. Each hypothesis
    comes with its frame built from the window's gradients only, so its
    periodic centre (and so its grid) stays inside that window.
    """
    h, w = gx.shape
    side = int(0.6 * min(h, w))
    if side < 4 * lo:
        return
    found = []
    for y0 in range(0, max(h - side, 0) + 1, max(side // 2, 1)):
        for x0 in range(0, max(w - side, 0) + 1, max(side // 2, 1)):
            taper = np.outer(np.hanning(side), np.hanning(side)).astype(np.float32)
            wx = gx[y0 : y0 + side, x0 : x0 + side] * taper
            wy = gy[y0 : y0 + side, x0 : x0 + side] * taper
            for a_vec, b_vec, strength in _lattice(wx, wy, lo, min(hi, side / 4.0), 1, with_strength=True):
                found.append((strength, a_vec, b_vec, (x0, y0, taper)))
    found.sort(key=lambda item: -item[0])
    for _, a_vec, b_vec, (x0, y0, taper) in found:
        mask_x, mask_y = np.zeros_like(gx), np.zeros_like(gy)
        mask_x[y0 : y0 + side, x0 : x0 + side] = gx[y0 : y0 + side, x0 : x0 + side] * taper
        mask_y[y0 : y0 + side, x0 : x0 + side] = gy[y0 : y0 + side, x0 : x0 + side] * taper
        yield a_vec, b_vec, _frame(mask_x, mask_y, a_vec, b_vec, (h, w))


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
    proj = hom @ _CX_POINTS.T  # (N, 3, P)
    den = np.where(np.abs(proj[:, 2]) > 1e-9, proj[:, 2], 1e-9)
    h, w = blur.shape[:2]
    xs = np.clip(np.rint(proj[:, 0] / den), 0, w - 1).astype(np.intp)
    ys = np.clip(np.rint(proj[:, 1] / den), 0, h - 1).astype(np.intp)
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
