"""Tile lattice hypotheses for :mod:`vision.locate`: where the photo repeats every tile.

Tile seams and corridor walls repeat every tile along the board's two axes.
Two estimators propose lattice vectors (``a`` along the board's rows, ``b``
along its columns): the gradient-angle histogram (modulo 90° for the
rotation, then each axis on its own, since tilt skews them) with the 1-D
autocorrelation of the signed gradient along each axis; and the 2-D
autocorrelation of the signed gradient, whose first peaks are the lattice
vectors. Each hypothesis is re-measured where it repeats best, and windows of
the photo give last-resort hypotheses (a small board on a patterned table).
:mod:`vision.locate_centre` places a lattice's 7x7 window (where it repeats most, or ends).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from vision.locate_centre import periodic_centre
from vision.order_stats import percentile

if TYPE_CHECKING:
    from vision.locate import LocateConfig

__all__ = [
    "Frame",
    "lattice_frame",
    "lattice_hypotheses",
    "notched_hypotheses",
    "window_lattices",
]

#: A lattice's canonical frame: the affine map (image -> canonical) and the gradients warped into it.
Frame = tuple[np.ndarray, np.ndarray, np.ndarray]


#: The strongest gradients of the half-size image (every other pixel): their angles (arctan2) and magnitudes
#: clipped at their 95th percentile; None when fewer than 50 stand out.
Strong = tuple[np.ndarray, np.ndarray] | None


def _strong_gradients(gx: np.ndarray, gy: np.ndarray) -> Strong:
    """The strongest 30 % of the gradients (every other pixel is plenty for a histogram): angles and weights.

    Read by both the rotation (:func:`_orientations`) and the axis estimate (:func:`_axis_histogram`),
    so they are selected once.
    """
    gx, gy = gx[::2, ::2], gy[::2, ::2]
    mag = np.hypot(gx, gy)
    sel = mag > max(float(percentile(mag.ravel(), 70)), 1e-6)
    if sel.sum() < 50:
        return None
    strong = mag[sel]
    return np.arctan2(gy[sel], gx[sel]), np.minimum(strong, percentile(strong, 95))


def _orientations(strong: Strong, count: int, floor: float = 0.5) -> list[float]:
    """Board rotation candidates (radians, in [-pi/4, pi/4)) from the gradient angles modulo 90°: peaks of at
    least ``floor`` times the strongest."""
    if strong is None:
        return [0.0]
    angles, weight = strong
    alpha = np.mod(angles, np.pi / 2)
    bins = 180
    hist = np.bincount(np.minimum((alpha / (np.pi / 2) * bins).astype(np.int64), bins - 1), weight, bins)
    kernel = np.array([1.0, 2.0, 3.0, 2.0, 1.0])
    smooth = np.convolve(np.concatenate([hist[-2:], hist, hist[:2]]), kernel / kernel.sum(), mode="valid")
    peaks = [i for i in range(bins) if smooth[i] >= smooth[i - 1] and smooth[i] >= smooth[(i + 1) % bins]]
    peaks.sort(key=lambda i: -smooth[i])
    out: list[float] = []
    for i in peaks:
        if len(out) >= count or smooth[i] < floor * smooth[peaks[0]]:
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


def _axis_histogram(strong: Strong) -> np.ndarray | None:
    """The strong gradients' weighted angle histogram modulo 180° (360 bins), smoothed; the same for
    every rotation :func:`_axis_angles` looks near, so it is built once per image."""
    if strong is None:
        return None
    angles, weight = strong
    psi = np.mod(angles, np.pi)
    bins = 360
    hist = np.bincount(np.minimum((psi / np.pi * bins).astype(np.int64), bins - 1), weight, bins)
    kernel = np.array([1.0, 2.0, 3.0, 4.0, 3.0, 2.0, 1.0])
    return np.convolve(np.concatenate([hist[-3:], hist, hist[:3]]), kernel / kernel.sum(), mode="valid")


def _axis_angles(smooth: np.ndarray | None, theta: float, reach_deg: float = 10.0) -> tuple[float, float]:
    """Directions (radians) of the board's x and y axes in the image, near rotation ``theta``.

    Tilt makes the board a trapezoid: its two families of lines are not at
    90°, so each family's angle is measured on its own (gradient angles modulo
    180°, peaks within ``reach_deg`` of ``theta`` and ``theta + 90°``). ``smooth``: :func:`_axis_histogram`.
    """
    if smooth is None:
        return theta, theta + np.pi / 2
    bins = len(smooth)

    def peak(near: float) -> float:
        centre = round(np.mod(near, np.pi) / np.pi * bins)
        reach = round(reach_deg / 180.0 * bins)
        idx = (centre + np.arange(-reach, reach + 1)) % bins
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
            if not _square_enough(*item):
                continue
            out.append((*item, harmonic(a) + harmonic(match[0])) if with_strength else item)
    return out


#: The least angle (degrees) between a lattice's two axes that a board can show: a square tile's
#: corner stays near 90 degrees under any camera the companion is used with (75-90 on ~3100
#: labelled corners of all four renderers). The sectors of :func:`_lattice` would let two
#: peaks of a diagonal pattern meet at a few degrees; such a lattice is no board's, and its
#: canonical frame (area ~ 1 / sin of the angle) grows to ~4000 px square: ~0.3 s of
#: warps and window sums on one hand-covered photo, for nothing.
MIN_AXIS_ANGLE = 60.0


def _square_enough(a_vec: np.ndarray, b_vec: np.ndarray) -> bool:
    """Whether the axes of a lattice meet at :data:`MIN_AXIS_ANGLE` or more (either way round)."""
    cos = abs(float(a_vec @ b_vec)) / max(float(np.linalg.norm(a_vec) * np.linalg.norm(b_vec)), 1e-12)
    return cos <= float(np.cos(np.deg2rad(MIN_AXIS_ANGLE)))


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


#: Board axes found by :func:`_axis_angles` lie 70-110 degrees apart (each peak within 10 degrees of
#: its own). Only a degenerate sub-bin fit (a flat histogram: the parabola through three nearly equal
#: bins has its vertex anywhere) puts them nearer: then the canonical canvas of two almost parallel
#: axes is enormous (a table photo with the board painted out asked OpenCV for 500 GB). Under 60
#: degrees apart the orientation is skipped.
_MAX_AXIS_COS = 0.5


def _lattice_candidates(
    gx: np.ndarray, gy: np.ndarray, lo: float, hi: float, cfg: LocateConfig
) -> Iterator[tuple[np.ndarray, np.ndarray, Frame | None]]:
    """Tile lattice hypotheses (a, b, and the canonical frame when already computed), most likely first.

    Two independent estimators: the 1-D one (orientation histogram, then the
    pitch along each axis) copes with boards whose edges dominate the
    gradients; the 2-D autocorrelation copes with cluttered tables.
    Hypotheses are generated lazily so a clear board stops the search early.
    """
    strong = _strong_gradients(gx, gy)
    smooth = _axis_histogram(strong)
    for theta in _orientations(strong, cfg.max_orientations):
        alpha, beta = _axis_angles(smooth, theta)
        if abs(np.cos(beta - alpha)) > _MAX_AXIS_COS:
            continue  # a degenerate peak fit (see _MAX_AXIS_COS): no board's axes
        lin = np.linalg.inv(np.array([[np.cos(alpha), np.cos(beta)], [np.sin(alpha), np.sin(beta)]]))
        affine, size = _canonical(lin, gx.shape)
        gu = cv2.warpAffine(np.cos(alpha) * gx + np.sin(alpha) * gy, affine, size, flags=cv2.INTER_LINEAR)
        gv = cv2.warpAffine(np.cos(beta) * gx + np.sin(beta) * gy, affine, size, flags=cv2.INTER_LINEAR)
        for pitch in _pitches(gu, gv, lo, hi, cfg.max_pitches):
            a_vec = pitch * np.array([np.cos(alpha), np.sin(alpha)])
            b_vec = pitch * np.array([np.cos(beta), np.sin(beta)])
            # pitch * inv([a b]) is this frame's map: the grid search can reuse the warped gradients.
            yield a_vec, b_vec, (affine, gu, gv)
    for a_vec, b_vec in _lattice(gx, gy, lo, hi, cfg.max_pitches):
        yield a_vec, b_vec, None


def lattice_frame(
    gx: np.ndarray, gy: np.ndarray, a_vec: np.ndarray, b_vec: np.ndarray, shape: tuple[int, int]
) -> Frame:
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
    frame: Frame | None,
    shape: tuple[int, int],
) -> Iterator[tuple[np.ndarray, np.ndarray, Frame | None]]:
    """A global lattice hypothesis re-measured where it repeats best, then the hypothesis itself.

    A small board on a patterned table (checks, dots) shares the photo's
    autocorrelation with the table, which can pull the global lattice a tenth
    or more off the tiles'. Around the window where the hypothesis' pitch
    repeats most (the board, if it is the board's pitch) the local
    autocorrelation sees only the tiles.
    """
    pitch = 0.5 * (float(np.linalg.norm(a_vec)) + float(np.linalg.norm(b_vec)))
    if frame is None:
        frame = lattice_frame(gx, gy, a_vec, b_vec, shape)
    # The hypothesis itself first: on a plain table it is the board's, and a clear
    # board then ends the search before the local re-measurement is computed.
    yield a_vec, b_vec, frame
    affine, gu, gv = frame
    centre = periodic_centre(gu, gv, pitch)
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


def window_lattices(
    gx: np.ndarray, gy: np.ndarray, lo: float, hi: float
) -> Iterator[tuple[np.ndarray, np.ndarray, Frame]]:
    """Last resort: lattices measured in overlapping windows of the photo, strongest first.

    When the whole photo's autocorrelation belongs to a patterned table, a
    window that the board fills shows the tiles' lattice. Each hypothesis
    comes with its frame built from the window's gradients only, so its
    periodic centre (and so its grid) stays inside that window; then again
    with the whole photo's gradients: a window may hold only part of a board
    whose lattice the whole photo's autocorrelation missed (its double pitch
    won there), and the window's centre then lies up to two tiles off the
    board's, at the edge of the placement's reach (a small glowing board at
    night; vision/notes/locate_lattice.md).
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
        yield a_vec, b_vec, lattice_frame(mask_x, mask_y, a_vec, b_vec, (h, w))
        yield a_vec, b_vec, lattice_frame(gx, gy, a_vec, b_vec, (h, w))


def lattice_hypotheses(
    gx: np.ndarray, gy: np.ndarray, lo: float, hi: float, cfg: LocateConfig, windows: bool = True
) -> Iterator[tuple[np.ndarray, np.ndarray, Frame | None]]:
    """All hypotheses, most likely first: global ones re-measured locally, then (``windows``) window ones.

    Generated lazily. Without ``windows`` the caller asks :func:`window_lattices` itself, later.
    """
    tried: list[tuple[np.ndarray, np.ndarray]] = []
    shape = (gx.shape[0], gx.shape[1])

    def fresh(a_vec: np.ndarray, b_vec: np.ndarray) -> bool:
        if any(_same_lattice(a_vec, b_vec, a, b) for a, b in tried):
            return False
        tried.append((a_vec, b_vec))
        return True

    for a_glob, b_glob, frame_glob in _lattice_candidates(gx, gy, lo, hi, cfg):
        for a_vec, b_vec, fr in _with_local(gx, gy, a_glob, b_glob, frame_glob, shape):
            if fresh(a_vec, b_vec):
                yield a_vec, b_vec, fr
    # Window lattices carry their own (window-masked) frames: never dropped as duplicates.
    if windows:
        yield from window_lattices(gx, gy, lo, hi)


def _comb(g: np.ndarray, vecs: list[np.ndarray]) -> np.ndarray:
    """``g`` with every pattern that repeats along each of ``vecs`` removed: g - (g(x+v) + g(x-v)) / 2 per vector.

    A linear, shift-invariant filter: a pattern periodic along ``v`` cancels
    exactly, while any other periodic pattern keeps its period (its spectrum
    is only reweighted by 1 - cos(2 pi f.v), zero only at multiples of v).
    """
    h, w = g.shape
    for v in vecs:
        fwd = np.float32([[1, 0, -v[0]], [0, 1, -v[1]]])
        back = np.float32([[1, 0, v[0]], [0, 1, v[1]]])
        plus = cv2.warpAffine(g, fwd, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        minus = cv2.warpAffine(g, back, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        g = g - 0.5 * (plus + minus)
    return g


def _table_weight(gx: np.ndarray, gy: np.ndarray, vecs: list[np.ndarray]) -> tuple[float, np.ndarray]:
    """How much of the photo repeats along ``vecs`` (share of pixels), and a weight that is 0 there, 1 elsewhere.

    Where a pattern repeats along both vectors the comb filter's output is
    small against its input; elsewhere (the board, whose lattice differs, or
    anything that does not repeat) the output is at least as strong as the
    input. The ratio of their local energies (over ~1.5 lattice vectors) thus
    segments the table from the board whatever either looks like.
    """
    fx, fy = _comb(gx, vecs), _comb(gy, vecs)
    e_in, e_out = gx * gx + gy * gy, fx * fx + fy * fy
    k = round(1.5 * max(float(np.linalg.norm(v)) for v in vecs)) | 1
    ratio = cv2.blur(e_out, (k, k)) / (cv2.blur(e_in, (k, k)) + 1e-3 * float(e_in.mean()) + 1e-12)
    weight = np.clip((ratio - 0.5) / 0.5, 0.0, 1.0).astype(np.float32)
    return float((ratio < 0.5).mean()), weight


def notched_hypotheses(
    gx: np.ndarray, gy: np.ndarray, lo: float, hi: float, cfg: LocateConfig
) -> Iterator[tuple[np.ndarray, np.ndarray, Frame]]:
    """Lattice hypotheses once a patterned table is masked out of the photo.

    A striped or checked tablecloth fills most of the photo, so its lattice
    wins both estimators and the board's seven tiles never get proposed. Of
    the photo's strongest lattices (which no board fitted) the one that
    explains most of the photo is taken for the table's; where the photo
    repeats along it (see :func:`_table_weight`) the gradients are set to
    zero, and the estimators run again on what is left (the board, cards,
    objects: only the board repeats).
    """
    tables = [tuple(v) for v in _lattice(gx, gy, lo, hi, 1)]
    for a_vec, b_vec, _ in _lattice_candidates(gx, gy, lo, hi, cfg):
        if len(tables) >= 3:
            break
        if not any(_same_lattice(a_vec, b_vec, a, b) for a, b in tables):
            tables.append((a_vec, b_vec))
    if not tables:
        return
    share, weight = max((_table_weight(gx, gy, list(t)) for t in tables), key=lambda item: item[0])
    if share < 0.2:
        return  # no pattern covers the table
    masked = (gx * weight, gy * weight)
    combed = (_comb(gx, list(tables[0])), _comb(gy, list(tables[0])))
    streams = [_refined(*masked, lo, hi, cfg), _refined(*combed, lo, hi, cfg)]
    tried: list[tuple[np.ndarray, np.ndarray]] = []
    while streams:
        for stream in list(streams):
            item = next(stream, None)
            if item is None:
                streams.remove(stream)
            elif not any(_same_lattice(item[0], item[1], a, b) for a, b in tried):
                tried.append((item[0], item[1]))
                yield item


def _refined(
    gx: np.ndarray, gy: np.ndarray, lo: float, hi: float, cfg: LocateConfig
) -> Iterator[tuple[np.ndarray, np.ndarray, Frame]]:
    """Hypotheses of (filtered) gradients, each re-measured locally, with their frames; halves too.

    On a small board the autocorrelation can peak at two tiles (every other
    tile alike); the half lattice is then the board's.
    """
    shape = (gx.shape[0], gx.shape[1])
    for a_glob, b_glob, frame_glob in _lattice_candidates(gx, gy, lo, hi, cfg):
        for a_vec, b_vec, frame in _with_local(gx, gy, a_glob, b_glob, frame_glob, shape):
            yield a_vec, b_vec, frame if frame is not None else lattice_frame(gx, gy, a_vec, b_vec, shape)
            if min(np.linalg.norm(a_vec), np.linalg.norm(b_vec)) >= 2 * lo:
                yield a_vec / 2, b_vec / 2, lattice_frame(gx, gy, a_vec / 2, b_vec / 2, shape)
