"""A hard shadow band across the board (a lamp's arm, a window bar): found as light, and divided out.

A cast shadow multiplies the light under it by a near-constant factor: corridor and wall,
tiles and the board's frame alike. Its edges are long straight luminance steps that run on
across the whole board and over the frame band on both sides, where artwork edges stop at
tile seams. Inside such a band the colour bands of :mod:`vision.tile_features` compare a
shaded side with a lit corner (or the other way round), so a lit wall beside a shaded
corridor reads open.

Here the rectified view's log luminance is averaged along straight lines of every direction:
at the band's direction the profile across it shows a dip (artwork averages out along an
oblique line, and along a row it repeats on every row); the dip counts as a shadow only if
the board's frame band shows it too on *both* ends of the lines (:func:`find_band`). A band
of flat floor and straight soft edges fitted to the full-resolution profile gives the factor
at every distance across it, and :func:`unshaded` divides it out of the view before the tiles
are read. A frame with no such band reads exactly as before. Figures and what was tried:
vision/notes/tile_shade.md.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

import cv2
import numpy as np

from vision.rectify import Rectified

__all__ = ["ShadowBand", "find_band", "unshaded"]

#: Pixels per tile of the small view the profiles are taken on.
_SMALL = 6
#: Width of one profile bin, in tiles.
_BIN = 0.25
#: Width of one bin of the band's final profile, in tiles.
_FINE = 1.0 / 24
#: Directions tried, across 180 degrees.
_ANGLES = np.deg2rad(np.arange(0.0, 180.0, 5.0))
#: Turns of the coarse direction the final profile tries (half the coarse step either way).
_TURNS = np.deg2rad(np.arange(-2.5, 2.6, 1.25))
#: Log-luminance drop under which a bin is in the shadow (a factor of ~0.8: well past lamp fall-off
#: between neighbouring bins, well within a cast shadow's depth).
MIN_DROP = 0.22
#: Widths (tiles) a band across the board may have: a lamp's arm or a window bar, not a half-board shade.
MIN_WIDTH, MAX_WIDTH = 0.4, 2.6
#: Share of the band's pixels the division may push into clipping (a few specks of highlight).
CLIP_SHARE = 0.002
#: Share of the tile area's drop the frame band must show on each end of the band.
FRAME_SHARE = 0.5


@dataclass(frozen=True)
class ShadowBand:
    """A shadow band: its normal's ``angle`` (radians), and per profile bin (distance along the normal, from
    ``origin`` measured from the board's centre, in tiles; bins of ``step``) the log factor the light was
    multiplied by (0 outside the band). ``found``: where the coarse search found it (direction, and the run
    across it in tiles from the board's centre), for :func:`find_band` to fit it again on another view."""

    angle: float
    origin: float
    step: float
    log_factor: np.ndarray
    found: tuple[float, tuple[float, float]]


def _log_luminance(rect: Rectified) -> np.ndarray:
    """The whole rectified view (tiles and frame band) at ``_SMALL`` pixels per tile, as log luminance."""
    img = rect.image if rect.image.ndim == 2 else cv2.cvtColor(rect.image, cv2.COLOR_BGR2GRAY)
    scale = _SMALL / rect.tile_px
    small = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return np.log(small.astype(np.float32) + 4.0)


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """Start and end (exclusive) of each run of True in ``mask``."""
    edges = np.diff(np.concatenate(([0], mask.astype(np.int8), [0])))
    return list(zip(np.flatnonzero(edges == 1).tolist(), np.flatnonzero(edges == -1).tolist(), strict=True))


def _profile(values: np.ndarray, bins: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Mean of ``values`` per bin and the pixel count per bin."""
    count = np.bincount(bins, minlength=n)
    return _binned_means(values, bins, count), count


def _binned_means(values: np.ndarray, bins: np.ndarray, count: np.ndarray) -> np.ndarray:
    """Mean of ``values`` per bin, given the pixel count per bin (``np.bincount(bins)``, at least ``n`` long)."""
    total = np.bincount(bins, weights=values, minlength=len(count))
    return total / np.maximum(count, 1)


def _dip(profile: np.ndarray, count: np.ndarray, min_count: int) -> tuple[int, int, float] | None:
    """The deepest run of bins well below the profile's level on both sides: (start, end, mean drop)."""
    good = count >= min_count
    if good.sum() < 8:
        return None
    level = float(np.median(profile[good]))
    best = None
    for start, end in _runs(good & (profile < level - MIN_DROP)):
        width = (end - start) * _BIN
        lit_before, lit_after = good[:start].sum(), good[end:].sum()
        if not (MIN_WIDTH <= width <= MAX_WIDTH) or lit_before < 2 or lit_after < 2:
            continue
        drop = level - float(profile[start:end].mean())
        if best is None or drop > best[2]:
            best = (start, end, drop)
    return best


def _frame_drop(values: np.ndarray, bins: np.ndarray, run: tuple[int, int]) -> float:
    """How much darker the frame band's pixels in the run's bins are than the frame band's others near it."""
    start, end = run
    inside = (bins >= start) & (bins < end)
    near = ~inside & (bins >= start - 6) & (bins < end + 6)
    if inside.sum() < 3 or near.sum() < 3:
        return 0.0
    return float(np.median(values[near]) - np.median(values[inside]))


@dataclass(frozen=True)
class _Lines:
    """Where every pixel of the small view lies across and along lines of each direction (the same for every
    frame of one view size): ``tile_bins`` (angles, tile pixels) stacked profile bins of the tile area,
    ``frame_bins`` (angles, frame pixels) profile bins of the frame band and ``frame_end`` (angles, frame
    pixels) which end of the lines (True: the far one) each frame pixel lies at; ``frame_stacked`` the frame
    pixels' bins stacked per angle and end, and the pixel counts of the stacked bins (``tile_counts``,
    ``frame_counts``, read-only): geometry too, counted once instead of on every frame (~0.12 ms)."""

    tiles: np.ndarray
    frame: np.ndarray
    tile_bins: np.ndarray
    frame_bins: np.ndarray
    frame_end: np.ndarray
    bins: int
    reach: float
    frame_stacked: np.ndarray
    tile_counts: np.ndarray
    frame_counts: np.ndarray


@cache
def _lines(size: int, margin_tiles: float) -> _Lines:
    """The small view's line geometry (:class:`_Lines`) for a view of ``size`` pixels and that margin."""
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) / _SMALL
    tiles = (xx >= margin_tiles) & (xx < margin_tiles + 7) & (yy >= margin_tiles) & (yy < margin_tiles + 7)
    inner, outer = margin_tiles * 0.3, margin_tiles * 1.7 + 7  # the frame band, off the view's own rim
    frame = ~tiles & (xx >= inner) & (xx < outer) & (yy >= inner) & (yy < outer)
    centre = margin_tiles + 3.5
    dx, dy = xx - centre, yy - centre
    reach = float(np.hypot(centre, centre))
    n = int(np.ceil(2 * reach / _BIN)) + 1
    cos, sin = np.cos(_ANGLES)[:, None], np.sin(_ANGLES)[:, None]
    across_t = dx[tiles][None] * cos + dy[tiles][None] * sin
    across_f = dx[frame][None] * cos + dy[frame][None] * sin
    along_f = -dx[frame][None] * sin + dy[frame][None] * cos
    stack = (np.arange(_ANGLES.size) * n)[:, None]
    tile_bins = ((across_t + reach) / _BIN).astype(np.int64) + stack
    frame_bins = ((across_f + reach) / _BIN).astype(np.int64)
    frame_end = along_f > 0
    k = _ANGLES.size
    frame_stacked = (frame_bins + ((np.arange(k)[:, None] * 2 + frame_end) * n)).ravel()
    tile_counts = np.bincount(tile_bins.ravel(), minlength=n * k)
    frame_counts = np.bincount(frame_stacked, minlength=n * k * 2)
    for counts in (tile_counts, frame_counts):
        counts.flags.writeable = False
    return _Lines(tiles, frame, tile_bins, frame_bins, frame_end, n, reach, frame_stacked, tile_counts, frame_counts)


def find_band(rect: Rectified, like: ShadowBand | None = None) -> ShadowBand | None:
    """The shadow band across the board, if one is evident (None otherwise): the deepest dip of the tile
    area's profile across lines of some direction that the frame band shows on both ends of the lines.

    ``like``: the band found on an earlier view of the same frame (the reader's view before the pawns were
    painted out): the search is not run again, the band is fitted afresh where ``like`` was found. Not
    ``like`` itself: the fine fit's direction moves by a turn between the two views now and then, and on
    spent held-out 4403010 the first view's fit read a tile of the second view wrong (see the note)."""
    if like is not None:
        return _fitted(rect, *like.found)
    lum = _log_luminance(rect)
    lines = _lines(lum.shape[0], rect.margin_px / rect.tile_px)
    n, k = lines.bins, _ANGLES.size
    profiles = _binned_means(np.tile(lum[lines.tiles], k), lines.tile_bins.ravel(), lines.tile_counts)
    profiles, counts = profiles.reshape(k, n), lines.tile_counts.reshape(k, n)
    frame_lum = lum[lines.frame]
    frames = _binned_means(np.tile(frame_lum, k), lines.frame_stacked, lines.frame_counts)
    frames, frame_counts = frames.reshape(k, 2, n), lines.frame_counts.reshape(k, 2, n)
    best: tuple[float, float, tuple[int, int]] | None = None
    for a in _candidate_angles(profiles, counts >= _SMALL, frames, frame_counts >= 2):
        dip = _dip(profiles[a], counts[a], min_count=_SMALL)
        if dip is None or (best is not None and dip[2] <= best[0]):
            continue
        ends = (lines.frame_end[a], ~lines.frame_end[a])
        drops = [_frame_drop(frame_lum[e], lines.frame_bins[a][e], dip[:2]) for e in ends]
        if min(drops) >= FRAME_SHARE * dip[2]:
            best = (dip[2], float(_ANGLES[a]), dip[:2])
    if best is None:
        return None
    _, ang, (start, end) = best
    return _fitted(rect, ang, (start * _BIN - lines.reach, end * _BIN - lines.reach))


def _fitted(rect: Rectified, angle: float, run: tuple[float, float]) -> ShadowBand | None:
    """The band found at ``angle`` over ``run`` fitted on ``rect`` (:func:`_fine_band`); None if it is flat."""
    band = _fine_band(rect, angle, run)
    return band if float(band.log_factor.min()) < 0.0 else None


def _candidate_angles(profiles: np.ndarray, good: np.ndarray, frames: np.ndarray, frame_good: np.ndarray) -> list[int]:
    """Directions with a bin ``MIN_DROP`` below the tile area's level (its median) where both ends of the
    frame band (``frames``: (angles, 2, bins)) are darker than their own level by ``FRAME_SHARE`` of that:
    a cheap first pass (artwork alone seldom darkens the frame band on both ends in line with it)."""
    low = good & (profiles < _row_median(profiles, good)[:, None] - MIN_DROP)
    for end in range(2):
        level = _row_median(frames[:, end], frame_good[:, end])[:, None]
        low &= frame_good[:, end] & (frames[:, end] < level - FRAME_SHARE * MIN_DROP)
    return np.flatnonzero(low.any(axis=1)).tolist()


def _row_median(values: np.ndarray, good: np.ndarray) -> np.ndarray:
    """Median of each row's good values (the lower middle one; inf where a row has none)."""
    ordered = np.sort(np.where(good, values, np.inf), axis=1)
    middle = np.maximum(good.sum(axis=1) - 1, 0) // 2
    return ordered[np.arange(values.shape[0]), middle]


def _fine_band(rect: Rectified, angle: float, run: tuple[float, float]) -> ShadowBand:
    """The band's factor profile at full resolution (bins of ``_FINE`` tile), at the direction near the coarse
    one (``_TURNS``) where the band is deepest: a soft edge is a ramp a few pixels wide, and a coarse or
    slightly turned profile would leave a stripe of its residual on every tile it crosses."""
    img = rect.image if rect.image.ndim == 2 else cv2.cvtColor(rect.image, cv2.COLOR_BGR2GRAY)
    t, m = rect.tile_px, rect.margin_px
    lum = np.log(img[m : m + 7 * t, m : m + 7 * t].astype(np.float32) + 4.0).ravel()
    coords = (np.arange(7 * t, dtype=np.float32) + 0.5) / t - 3.5
    reach = float(np.hypot(3.5, 3.5))
    n = int(np.ceil(2 * reach / _FINE)) + 1
    start, end = (int((x + reach) / _FINE) for x in run)
    best: ShadowBand | None = None
    for turn in _TURNS:
        ang = angle + turn
        across = coords[None, :] * np.cos(ang) + coords[:, None] * np.sin(ang)
        profile, count = _profile(lum, ((across + reach) / _FINE).astype(np.int64).ravel(), n)
        log_factor = _log_factor(profile, count >= t, start, end, round(_BIN / _FINE))
        band = ShadowBand(ang, -reach, _FINE, log_factor, (angle, run))
        if best is None or band.log_factor[start:end].mean() < best.log_factor[start:end].mean():
            best = band
    assert best is not None
    return best


def _log_factor(profile: np.ndarray, good: np.ndarray, start: int, end: int, edge: int) -> np.ndarray:
    """Per bin, the band's log factor: the trapezoid (a flat floor, straight soft edges; :func:`_trapezoids`)
    that best fits the profile's drop below the lit level beside the band (the mean of two tiles on each
    side). A fit, not the profile itself: the profile also averages the artwork along each line (seams,
    rows of corridor at near-axis directions), which divided out would be printed on the tiles inverted."""
    idx = np.arange(profile.size)
    side = 8 * edge
    before = good & (idx < start - edge) & (idx >= start - edge - side)
    after = good & (idx >= end + edge) & (idx < end + edge + side)
    if not (before.any() or after.any()):
        return np.zeros(profile.size, np.float32)  # no full light seen beside it: nothing to refer the band to
    lit_before = float(profile[before].mean()) if before.any() else float(profile[after].mean())
    lit_after = float(profile[after].mean()) if after.any() else lit_before
    lo, hi = max(start - 4 * edge, 0), min(end + 4 * edge, profile.size)
    lit = np.interp(idx[lo:hi], [start - edge, end + edge - 1], [lit_before, lit_after])
    drop = np.where(good[lo:hi], profile[lo:hi] - lit, 0.0)
    shapes = _trapezoids(idx[lo:hi], start, end, edge)  # (shapes, bins)
    weights = good[lo:hi].astype(np.float64)
    fill = (shapes * weights) @ drop / np.maximum((shapes**2) @ weights, 1e-9)
    fill = np.minimum(fill, 0.0)
    error = ((drop[None] - fill[:, None] * shapes) ** 2) @ weights
    k = int(np.argmin(error))
    out = np.zeros(profile.size, np.float32)
    out[lo:hi] = fill[k] * shapes[k]
    return out


def _trapezoids(bins: np.ndarray, start: int, end: int, edge: int) -> np.ndarray:
    """Candidate band shapes over ``bins`` (1 on the floor, 0 in full light, straight ramps between):
    centres within the run, half-widths within ``edge`` of the run's, ramps from one bin to three ``edge`` wide."""
    half = (end - start) / 2
    centres = np.arange(start, end + 1, 2, dtype=np.float64)
    halves = np.arange(max(half - edge, 2), half + edge + 1, 2, dtype=np.float64)
    ramps = np.array([1, 2, 4, 6, 9, 12, 18], dtype=np.float64) * edge / 6
    c, h, r = (a.ravel()[:, None] for a in np.meshgrid(centres, halves, ramps, indexing="ij"))
    return np.clip((h - np.abs(bins[None] + 0.5 - c)) / r + 0.5, 0.0, 1.0)


def unshaded(rect: Rectified, band: ShadowBand) -> Rectified:
    """The view with the band's factor divided out (every pixel, tiles and frame), then the whole view dimmed
    as far as needed to keep what lay in the band out of clipping (``CLIP_SHARE`` of its pixels may reach
    it): a glare spot over the band is added light the division would otherwise burn white, and its
    corridor/wall contrast with it."""
    size = rect.image.shape[0]
    coords = (np.arange(size, dtype=np.float32) + 0.5) / rect.tile_px
    centre = rect.margin_px / rect.tile_px + 3.5
    across = (coords[None, :] - centre) * np.cos(band.angle) + (coords[:, None] - centre) * np.sin(band.angle)
    pos = (across - band.origin) / band.step - 0.5
    log_f = np.interp(pos, np.arange(band.log_factor.size), band.log_factor)
    gain = np.exp(-log_f).astype(np.float32)
    img = rect.image.astype(np.float32)
    img *= gain[..., None] if img.ndim == 3 else gain
    brightest = img.max(axis=-1) if img.ndim == 3 else img
    lifted = brightest[gain > 1.01]
    if lifted.size:
        k = int((1.0 - CLIP_SHARE) * (lifted.size - 1))
        peak = float(np.partition(lifted, k)[k])
        img *= min(1.0, 254.0 / max(peak, 1.0))
    return replace(rect, image=np.clip(img, 0, 255).astype(np.uint8))
