"""Find the board: the image corners of the 7x7 tile area (TL, TR, BR, BL), without markers.

Nothing here assumes an edition's colours. The board is found by what every
Labyrinth board has:

1. **Orientation** — tile seams and corridor walls all run along the board's
   two axes, so the image gradients' angles (modulo 90°) pile up at the board's
   rotation. With rotations up to ±30°, the peak in [-45°, 45°) is the angle of
   the board's top edge.
2. **Tile size** — along those axes the signed gradients repeat every tile:
   the autocorrelation of the gradient (summed over rows and columns, so a
   table, cards or noise average out) peaks at the tile pitch.
3. **Position** — where the gradient is periodic at that pitch a 7x7 window
   is summed; the best window is the tile area to within a tile. The exact
   phase and which 7x7 of the periodic pattern is the board come from the 16
   fixed tiles: a corridor/wall discriminant learned on their 64 known edges
   separates best at the true grid (a shift by one tile puts the fixed tiles on
   movable squares; half a tile puts corners where centres should be).
4. **Refinement** at full resolution — corridors run through the middle of
   every tile, so in a rectified view the centre line of each open corridor
   arm is the tile's centre line. Measuring ~120 arm centres and fitting a
   small homography correction to them (robustly, iterated) gives sub-tile,
   typically ~1 px, corners under tilt and perspective.

Steps 1–3 work on a downscaled copy (``work_px`` on the long side) for speed.
When ArUco markers (4x4_50, ids 0–3 at TL TR BR BL) are visible they seed
step 3 with the board's frame instead of the periodicity search.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.board import FIXED_TILES, SIZE
from vision import tiles as tile_mod
from vision.rectify import Rectified, rectify

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
    * ``min_separation``: below this separation of the fixed tiles' known open
      and closed edges (in spreads) there is no board to speak of.
    """

    work_px: int = 512
    min_tile_frac: float = 0.035
    max_tile_frac: float = 0.145
    max_orientations: int = 2
    max_pitches: int = 2
    refine_tile_px: int = 32
    refine_iterations: int = 3
    min_separation: float = 1.2
    use_markers: bool = True


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
    corr = _autocorr(gu, 1, max_lag) + _autocorr(gv, 0, max_lag)
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


def _region_boxes(pitch: float) -> tuple[np.ndarray, np.ndarray]:
    """Corner and edge boxes of one tile (float, relative to its top-left), as in :mod:`vision.tiles`."""
    cfg = tile_mod.DEFAULT_CONFIG
    lo, hi = cfg.corner_lo, cfg.corner_hi
    corners = np.array(
        [(lo, lo, hi, hi), (1 - hi, lo, 1 - lo, hi), (1 - hi, 1 - hi, 1 - lo, 1 - lo), (lo, 1 - hi, hi, 1 - lo)]
    )
    a, b = 0.5 - cfg.edge_half_width, 0.5 + cfg.edge_half_width
    e0, e1 = cfg.edge_lo, cfg.edge_hi
    edges = np.array([(a, e0, b, e1), (1 - e1, a, 1 - e0, b), (a, 1 - e1, b, 1 - e0), (e0, a, e1, b)])
    return corners * pitch, edges * pitch


def _fixed_separation(integral: np.ndarray, origins: np.ndarray, pitch: float, shape: tuple[int, int]) -> np.ndarray:
    """For each candidate top-left ``origins`` (N x 2, x y) of an axis-aligned grid, the fixed-edge separation d'."""
    return _fixed_separation_xy(integral, origins, pitch, pitch, shape)


@dataclass(frozen=True)
class _Hypothesis:
    score: float
    corners: np.ndarray  # work-image pixels, TL TR BR BL


def _rotation(theta: float, shape: tuple[int, int]) -> tuple[np.ndarray, tuple[int, int]]:
    """Affine map (2x3) turning the work image by -theta onto an expanded canvas, and the canvas size (w, h)."""
    h, w = shape
    c, s = np.cos(theta), np.sin(theta)
    rot = np.array([[c, s], [-s, c]])
    pts = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64) @ rot.T
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    affine = np.hstack([rot, -lo[:, None]])
    size = (int(np.ceil(hi[0] - lo[0])) + 1, int(np.ceil(hi[1] - lo[1])) + 1)
    return affine, size


def _coarse(work: np.ndarray, cfg: LocateConfig) -> list[_Hypothesis]:
    grey = cv2.GaussianBlur(cv2.cvtColor(work, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0), 1.0)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    lab = cv2.cvtColor(work, cv2.COLOR_BGR2Lab).astype(np.float32)
    short = min(work.shape[:2])
    lo, hi = cfg.min_tile_frac * short, cfg.max_tile_frac * short
    hypotheses: list[_Hypothesis] = []
    for theta in _orientations(gx, gy, cfg.max_orientations):
        affine, size = _rotation(theta, work.shape[:2])
        c, s = np.cos(theta), np.sin(theta)
        gu = cv2.warpAffine(c * gx + s * gy, affine, size, flags=cv2.INTER_LINEAR)
        gv = cv2.warpAffine(-s * gx + c * gy, affine, size, flags=cv2.INTER_LINEAR)
        rot_lab = cv2.warpAffine(lab, affine, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        integral = cv2.integral(rot_lab, sdepth=cv2.CV_64F)
        shape = (size[1], size[0])
        for pitch in _pitches(gu, gv, lo, hi, cfg.max_pitches):
            hyp = _place(gu, gv, integral, shape, pitch)
            if hyp is None:
                continue
            score, origin, pitch_x, pitch_y = hyp
            quad = origin[None, :] + np.array([[0, 0], [7 * pitch_x, 0], [7 * pitch_x, 7 * pitch_y], [0, 7 * pitch_y]])
            inv = cv2.invertAffineTransform(affine)
            corners = quad @ inv[:, :2].T + inv[:, 2]
            hypotheses.append(_Hypothesis(score, corners))
    hypotheses.sort(key=lambda h: -h.score)
    return hypotheses


def _place(
    gu: np.ndarray, gv: np.ndarray, integral: np.ndarray, shape: tuple[int, int], pitch: float
) -> tuple[float, np.ndarray, float, float] | None:
    """Best 7x7 grid of ``pitch`` in the axis-aligned frame: (score, top-left x y, pitch x, pitch y)."""
    h, w = shape
    p = round(pitch)
    if 7 * pitch > 1.05 * max(h, w) or p < 4:
        return None
    periodic = np.zeros_like(gu)
    periodic[:, p:-p] = gu[:, p:-p] * (gu[:, 2 * p :] + gu[:, : -2 * p])
    periodic[p:-p, :] += gv[p:-p, :] * (gv[2 * p :, :] + gv[: -2 * p, :])
    win = max(round(7 * pitch), 3)
    summed = cv2.boxFilter(periodic, -1, (win, win), normalize=False, borderType=cv2.BORDER_CONSTANT)
    cy, cx = np.unravel_index(int(np.argmax(summed)), summed.shape)
    centre = np.array([cx, cy], dtype=np.float64)
    # Phase and which 7x7 window: the fixed tiles decide, on a grid of offsets.
    steps = np.arange(-1.25, 1.2501, 1.0 / 6.0) * pitch
    ox, oy = np.meshgrid(steps, steps)
    origins = centre - 3.5 * pitch + np.stack([ox.ravel(), oy.ravel()], axis=1)
    scores = _fixed_separation(integral, origins, pitch, shape)
    best = origins[int(np.argmax(scores))]
    # Local polish of position and the two pitches (tilt makes them differ).
    best_score, best_px, best_py = float(scores.max()), pitch, pitch
    for _ in range(2):
        fine = np.arange(-2, 3) * pitch / 18.0
        for sx in (0.97, 1.0, 1.03):
            for sy in (0.97, 1.0, 1.03):
                px, py = best_px * sx, best_py * sy
                fx, fy = np.meshgrid(fine, fine)
                cand = best + np.stack([fx.ravel(), fy.ravel()], axis=1)
                # scale around the grid centre
                cand = cand + 3.5 * np.array([best_px - px, best_py - py])
                sc = _fixed_separation_xy(integral, cand, px, py, shape)
                i = int(np.argmax(sc))
                if sc[i] > best_score + 1e-9:
                    best_score, best, bpx, bpy = float(sc[i]), cand[i], px, py
                    best_px, best_py = bpx, bpy
    return best_score, best, best_px, best_py


def _fixed_separation_xy(
    integral: np.ndarray, origins: np.ndarray, px: float, py: float, shape: tuple[int, int]
) -> np.ndarray:
    """Fixed-edge separation d' of axis-aligned grids with top-left ``origins`` and pitches ``px``, ``py``.

    d' is the Fisher separation of the 44 known-open and 20 known-closed edges
    of the fixed tiles (Lab features relative to each tile's corners): large
    only when the grid sits exactly on the board's tiles.
    """
    corner_boxes, edge_boxes = _region_boxes(1.0)
    scale = np.array([px, py, px, py])
    rc = np.array(_FIXED, dtype=np.float64)
    tl = origins[:, None, :] + rc[None, :, ::-1] * np.array([px, py])
    return _separation_from_boxes(integral, tl, corner_boxes * scale, edge_boxes * scale, shape)


def _separation_from_boxes(
    integral: np.ndarray, tl: np.ndarray, corner_boxes: np.ndarray, edge_boxes: np.ndarray, shape: tuple[int, int]
) -> np.ndarray:
    h, w = shape

    def means(boxes: np.ndarray) -> np.ndarray:
        x0 = np.clip(np.rint(tl[:, :, None, 0] + boxes[None, None, :, 0]).astype(np.int64), 0, w - 1)
        y0 = np.clip(np.rint(tl[:, :, None, 1] + boxes[None, None, :, 1]).astype(np.int64), 0, h - 1)
        x1 = np.clip(np.rint(tl[:, :, None, 0] + boxes[None, None, :, 2]).astype(np.int64), x0 + 1, w)
        y1 = np.clip(np.rint(tl[:, :, None, 1] + boxes[None, None, :, 3]).astype(np.int64), y0 + 1, h)
        area = ((x1 - x0) * (y1 - y0))[..., None]
        total = integral[y1, x1] - integral[y0, x1] - integral[y1, x0] + integral[y0, x0]
        return total / area

    n = tl.shape[0]
    wall = np.sort(means(corner_boxes), axis=2)[:, :, 1:3].mean(axis=2)
    feats = (means(edge_boxes) - wall[:, :, None, :]).reshape(n, 64, -1)
    pos, neg = feats[:, _FIXED_OPEN], feats[:, ~_FIXED_OPEN]
    mp, mn = pos.mean(axis=1), neg.mean(axis=1)
    cp, cn = pos - mp[:, None], neg - mn[:, None]
    cov = (np.einsum("nki,nkj->nij", cp, cp) + np.einsum("nki,nkj->nij", cn, cn)) / 62.0
    dim = cov.shape[-1]
    cov += np.eye(dim)[None] * (np.trace(cov, axis1=1, axis2=2)[:, None, None] * 0.05 / dim + 1e-6)
    diff = mp - mn
    wvec = np.linalg.solve(cov, diff[..., None])[..., 0]
    return np.sqrt(np.maximum(np.einsum("ni,ni->n", wvec, diff), 0.0))


# --------------------------------------------------------------------------- refinement


def _refine(image: np.ndarray, corners: np.ndarray, cfg: LocateConfig) -> tuple[np.ndarray, float]:
    """Sharpen the corners by fitting a homography correction to the corridor-arm centre lines."""
    t = cfg.refine_tile_px
    separation = 0.0
    for _ in range(cfg.refine_iterations):
        rect = rectify(image, corners, tile_px=t, margin=0.5)
        feats = tile_mod.edge_features(rect)
        model = tile_mod.learn(feats)
        separation = model.separation
        prob = model.probabilities(feats)
        shapes, _ = tile_mod.decode(prob)
        is_open = (shapes[..., None] & np.array([1, 2, 4, 8])) > 0  # (7, 7, 4)
        for (r, c), tile in FIXED_TILES.items():
            is_open[r, c] = [bool(tile & b) for b in (1, 2, 4, 8)]
        correction = _arm_correction(rect, model, is_open)
        if correction is None:
            break
        homography = correction @ rect.homography
        target = np.array(
            [[rect.margin_px - 0.5] * 2, [rect.margin_px + 7 * t - 0.5, rect.margin_px - 0.5],
             [rect.margin_px + 7 * t - 0.5] * 2, [rect.margin_px - 0.5, rect.margin_px + 7 * t - 0.5]]
        )  # fmt: skip
        new = cv2.perspectiveTransform(target[None], np.linalg.inv(homography))[0]
        moved = float(np.abs(new - corners).max())
        corners = new
        if moved < 0.3:
            break
    return corners, separation


def _arm_correction(rect: Rectified, model: tile_mod.TileModel, is_open: np.ndarray) -> np.ndarray | None:
    """Homography (rectified -> corrected rectified) that puts every open arm's centre on its tile's centre line."""
    t, m = rect.tile_px, rect.margin_px
    lab = cv2.cvtColor(rect.image, cv2.COLOR_BGR2Lab).astype(np.float32)
    score = lab @ model.weights[:3].astype(np.float32)  # per-pixel corridor score (no texture term)
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
    a0, a1 = round(0.03 * t), max(round(0.30 * t), round(0.03 * t) + 2)
    w0, w1 = round(0.08 * t), t - round(0.08 * t)
    coords = np.arange(w0, w1, dtype=np.float64) + 0.5 - 0.5  # pixel centres, tile-local
    profiles = {
        0: area[:, :, a0:a1, w0:w1].mean(axis=2),  # N arm: profile along x
        2: area[:, :, t - a1 : t - a0, w0:w1].mean(axis=2),  # S arm
        1: area[:, :, w0:w1, t - a1 : t - a0].mean(axis=3),  # E arm: profile along y
        3: area[:, :, w0:w1, a0:a1].mean(axis=3),  # W arm
    }
    rows, rhs, weights = [], [], []
    rr, cc = np.meshgrid(np.arange(SIZE), np.arange(SIZE), indexing="ij")
    for side, prof in profiles.items():
        q = np.clip((prof - wall[:, :, None]) / contrast, 0.0, 1.5)
        q = np.where(q > 0.35, q, 0.0) ** 2
        mass = q.sum(axis=2)
        centre_local = (q * coords).sum(axis=2) / np.maximum(mass, 1e-9)
        ok = is_open[:, :, side] & (mass > 0.1 * (w1 - w0) * 0.3)
        arm_mid = 0.5 * (a0 + a1) - 0.5
        for r, c in zip(rr[ok], cc[ok], strict=True):
            x0, y0 = m + c * t, m + r * t
            expected = (t - 1) / 2.0
            if side in (0, 2):
                y = y0 + (arm_mid if side == 0 else t - 1 - arm_mid)
                x_meas, x_exp = x0 + centre_local[r, c], x0 + expected
                rows.append([x_meas, y, 1, 0, 0, 0, -x_exp * x_meas, -x_exp * y])
                rhs.append(x_exp)
            else:
                x = x0 + (t - 1 - arm_mid if side == 1 else arm_mid)
                y_meas, y_exp = y0 + centre_local[r, c], y0 + expected
                rows.append([0, 0, 0, x, y_meas, 1, -y_exp * x, -y_exp * y_meas])
                rhs.append(y_exp)
            weights.append(1.0)
    if len(rows) < 24:
        return None
    a = np.array(rows, dtype=np.float64)
    b = np.array(rhs, dtype=np.float64)
    wts = np.array(weights)
    # Condition: work around the view's centre and size.
    half = rect.size / 2.0
    norm = np.array([[1 / half, 0, -1], [0, 1 / half, -1], [0, 0, 1]])
    h = np.eye(3)
    for _ in range(4):
        sol = _weighted_homography(a, b, wts, norm)
        if sol is None:
            return None
        h = sol
        pred = _predict(a, h)
        resid = np.abs(pred - b)
        scale = max(1.4826 * np.median(resid), 0.05 * t)
        wts = 1.0 / np.maximum(1.0, resid / (1.5 * scale))
        wts[resid > 4 * scale] = 0.0
    return h


def _predict(a: np.ndarray, h: np.ndarray) -> np.ndarray:
    """Predicted corrected coordinate of each measurement row (x rows for vertical arms, y rows otherwise)."""
    is_x = a[:, 2] == 1
    x = np.where(is_x, a[:, 0], a[:, 3])
    y = np.where(is_x, a[:, 1], a[:, 4])
    den = h[2, 0] * x + h[2, 1] * y + h[2, 2]
    num = np.where(is_x, h[0, 0] * x + h[0, 1] * y + h[0, 2], h[1, 0] * x + h[1, 1] * y + h[1, 2])
    return num / den


def _weighted_homography(a: np.ndarray, b: np.ndarray, w: np.ndarray, norm: np.ndarray) -> np.ndarray | None:
    """Solve the 8 homography parameters from 1-D constraints, in normalised coordinates, near identity."""
    is_x = a[:, 2] == 1
    x = np.where(is_x, a[:, 0], a[:, 3])
    y = np.where(is_x, a[:, 1], a[:, 4])
    s = norm[0, 0]
    xn, yn, bn = x * s - 1, y * s - 1, b * s - 1
    rows = np.zeros((len(a), 8))
    rows[is_x, 0], rows[is_x, 1], rows[is_x, 2] = xn[is_x], yn[is_x], 1
    rows[~is_x, 3], rows[~is_x, 4], rows[~is_x, 5] = xn[~is_x], yn[~is_x], 1
    rows[:, 6], rows[:, 7] = -bn * xn, -bn * yn
    # Ridge toward the identity: parameters the arms do not constrain stay put.
    ident = np.array([1, 0, 0, 0, 1, 0, 0, 0], dtype=np.float64)
    lam = 1e-3 * max(float(w.sum()), 1.0)
    lhs = rows.T @ (rows * w[:, None]) + lam * np.eye(8)
    rhs_v = rows.T @ (bn * w) + lam * ident
    try:
        hn = np.linalg.solve(lhs, rhs_v)
    except np.linalg.LinAlgError:
        return None
    hmat = np.append(hn, 1.0).reshape(3, 3)
    return np.linalg.inv(norm) @ hmat @ norm


# --------------------------------------------------------------------------- markers


def _marker_quad(work: np.ndarray) -> np.ndarray | None:
    """Centres of ArUco 4x4_50 markers 0..3 (TL TR BR BL) when all four are visible, else None."""
    aruco = getattr(cv2, "aruco", None)
    if aruco is None:
        return None
    detector = aruco.ArucoDetector(aruco.getPredefinedDictionary(aruco.DICT_4X4_50), aruco.DetectorParameters())
    grey = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY)
    found, ids, _ = detector.detectMarkers(grey)
    if ids is None:
        return None
    centres: dict[int, np.ndarray] = {}
    for quad, marker in zip(found, ids.ravel(), strict=True):
        if 0 <= int(marker) <= 3:
            centres[int(marker)] = quad.reshape(4, 2).mean(axis=0)
    if len(centres) < 4:
        return None
    return np.array([centres[i] for i in range(4)], dtype=np.float64)


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
    if float(bgr.std()) < 2.0:
        raise BoardNotFoundError("blank image")
    scale = min(1.0, cfg.work_px / max(h, w))
    work = cv2.resize(bgr, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    hypotheses = _coarse(work, cfg)
    if not hypotheses:
        raise BoardNotFoundError("no periodic tile grid found")
    best = hypotheses[0]
    corners = order_corners(best.corners / scale)
    corners, separation = _refine(bgr, corners, cfg)
    if separation < cfg.min_separation:
        raise BoardNotFoundError(f"no board: fixed tiles do not match (separation {separation:.2f})")
    return order_corners(corners).astype(np.float32)
