"""Placing the 7x7 grid of one tile lattice in the work image, for :mod:`vision.locate_grid`.

A lattice hypothesis (canonical frame, periodic centre, pitch) says how the photo
repeats, not which 7x7 window of the repetition is the board. :func:`place_grid` finds
it: the fixed tiles' own search on the lattice (phase, window, sub-tile position and
pitches) for a board seen nearly square-on, and otherwise the wide-basin centre/crossing
score with a free homography, judged again by the fixed tiles. :func:`keystone_search`
places the receding grid of a strongly tilted board, :func:`search_windows` the grids of
many pitches of one lattice at once (the pitch sweep), :func:`polish` moves a grid's four
corners to maximise a score. The grid scores are :mod:`vision.locate_score`.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from vision.locate_score import BOARD_CORNERS
from vision.locate_score import batch_homographies as _batch_homographies
from vision.locate_score import centre_crossing_score as _centre_crossing_score
from vision.locate_score import separation as _separation

__all__ = ["blurred", "keystone_search", "place_grid", "polish", "search_fine", "search_windows", "tilted_search"]


def _offsets(steps: np.ndarray) -> np.ndarray:
    """Every (x, y) pair of ``steps``, as an (n, 2) array in meshgrid order: a square of grid offsets."""
    fx, fy = np.meshgrid(steps, steps)
    return np.stack([fx.ravel(), fy.ravel()], axis=1)


def blurred(lab: np.ndarray, pitch: float, cache: dict[int, np.ndarray]) -> np.ndarray:
    """``lab`` box-blurred over ~0.15 tile for the separation score, kept in ``cache`` by kernel size (every
    lattice of a similar pitch shares it)."""
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
    _, origin = _search_window(blur, inv, centre, pitch)
    return search_fine(blur, inv, origin, pitch)


def _search_window(blur: np.ndarray, inv: np.ndarray, centre: np.ndarray, pitch: float) -> tuple[float, np.ndarray]:
    """Steps (a) and (b) of :func:`_search_grid`: the best square grid's d' and top-left origin (canonical)."""
    # (a) phase and window parity, on a lattice finer than the separation's ~0.15-tile basin
    steps = np.arange(-1.0, 0.99, 0.2)
    origins = centre - 3.5 * pitch + _offsets(steps) * pitch
    ones = np.full(len(origins), pitch)
    sc = _separation(blur, _grid_quads(inv, origins, ones, ones))
    origin = origins[int(np.argmax(sc))]
    # (b) which 7x7 window of the periodic pattern is the board
    k = _offsets(np.arange(-2, 3, dtype=np.float64))
    origins = origin + k * pitch
    ones = np.full(len(origins), pitch)
    sc = _separation(blur, _grid_quads(inv, origins, ones, ones))
    i = int(np.argmax(sc))
    return float(sc[i]), origins[i]


def search_windows(
    lab: np.ndarray, blurs: dict[int, np.ndarray], inv: np.ndarray, centre: np.ndarray, pitches: np.ndarray
) -> list[tuple[float, np.ndarray]]:
    """:func:`_search_window` for many pitches of one lattice at once: (d', origin) per pitch, in order.

    The same grids and scores as one call per pitch, but the pitches that share a
    blurred image are scored in one batch per step: the pitch sweep places ~4000
    grids per lattice, and per-call overhead was most of its time.
    """
    steps = _offsets(np.arange(-1.0, 0.99, 0.2))
    windows = _offsets(np.arange(-2, 3, dtype=np.float64))
    out: list[tuple[float, np.ndarray]] = [(0.0, centre)] * len(pitches)
    groups: dict[int, list[int]] = {}
    for i, pitch in enumerate(pitches):
        groups.setdefault(id(blurred(lab, float(pitch), blurs)), []).append(i)
    for members in groups.values():
        idx = np.array(members)
        pitch = pitches[idx][:, None]  # (m, 1)
        blur = blurred(lab, float(pitch[0, 0]), blurs)
        results = []
        origin = centre[None] - 3.5 * pitch  # (a) phase and window parity
        for offsets in (steps, windows):  # then (b) which 7x7 window of the periodic pattern
            origins = origin[:, None, :] + offsets[None] * pitch[:, :, None]  # (m, K, 2)
            side = np.repeat(pitch[:, 0], len(offsets))
            sc = _separation(blur, _grid_quads(inv, origins.reshape(-1, 2), side, side)).reshape(len(idx), -1)
            best = sc.argmax(axis=1)
            origin = origins[np.arange(len(idx)), best]
            results = sc[np.arange(len(idx)), best]
        for j, i in enumerate(members):
            out[i] = (float(results[j]), origin[j])
    return out


def search_fine(blur: np.ndarray, inv: np.ndarray, origin: np.ndarray, pitch: float) -> tuple[float, np.ndarray]:
    """Step (c) of :func:`_search_grid`: sub-tile position and the two pitches (perspective makes them differ)."""
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


def _keystone_quads(inv: np.ndarray, mids: np.ndarray, pitch: float, gx: np.ndarray, gy: np.ndarray) -> np.ndarray:
    """Work-image quads of 7x7 grids centred at ``mids`` (canonical frame) whose tiles shrink along (gx, gy).

    Board point (u, v) tiles from the centre lands at ``mid + pitch (u, v) / (1 + gx u + gy v)``:
    a homography that keeps the lattice's pitch and axes at the board's centre while one side
    recedes, as a tilted camera sees it.
    """
    u = BOARD_CORNERS - 3.5
    w = 1.0 + gx[:, None] * u[None, :, 0] + gy[:, None] * u[None, :, 1]
    pts = mids[:, None, :] + pitch * u[None] / w[..., None]
    return pts @ inv[:, :2].T + inv[:, 2]


def keystone_search(blur: np.ndarray, inv: np.ndarray, centre: np.ndarray, pitch: float) -> tuple[float, np.ndarray]:
    """Place the grid of a strongly tilted board: phase and perspective together, then the window.

    A 15° tilt under a wide lens changes the tile pitch by a fifth or more
    across the board. The lattice then measures the mean pitch, which fits
    only the board's middle, and the fixed tiles' search on it misses. Here
    the fixed tiles judge grids that recede along either axis (pitch ratios
    across the board from 0.7 to 1.4) at every phase; the best few are then
    moved by whole tiles to the window the fixed tiles prefer.
    """
    cands, sc = _receding_windows(blur, inv, centre, pitch, keep=3, reach=2)
    i = int(np.argmax(sc))
    return float(sc[i]), cands[i]


def _receding_windows(
    blur: np.ndarray, inv: np.ndarray, centre: np.ndarray, pitch: float, keep: int, reach: int
) -> tuple[np.ndarray, np.ndarray]:
    """The ``keep`` best receding grids at every phase, each moved by up to ``reach`` whole tiles, and their d'."""
    steps = np.arange(-1.0, 0.99, 0.2)
    slopes = np.linspace(-0.05, 0.05, 7)
    fx, fy, gx, gy = (a.ravel() for a in np.meshgrid(steps, steps, slopes, slopes))
    mids = centre + np.stack([fx, fy], axis=1) * pitch
    quads = _keystone_quads(inv, mids, pitch, gx, gy)
    top = quads[np.argsort(-_separation(blur, quads))[:keep]]
    k = np.arange(-reach, reach + 0.5)
    cands = _shifted(top, np.array([(dx, dy) for dy in k for dx in k]))
    return cands, _separation(blur, cands)


def tilted_search(
    blur: np.ndarray,
    inv: np.ndarray,
    centre: np.ndarray,
    pitch: float,
    keep: int = 8,
    reach: int = 4,
    polished: int = 10,
) -> tuple[float, np.ndarray]:
    """:func:`keystone_search` widened for the last resort: more receding grids kept, a farther window, polished.

    On a checked cloth beside a strongly tilted board every stage's grid can be refuted although
    the fixed tiles separate well on the true grid. The receding grid nearest the board is then
    about a third of a tile off (the lattice's axes and pitch are not quite the board's) and
    scores before its polish no better than the cloth's chance grids, so
    :func:`keystone_search`'s best three miss it; and the lattice's centre can lie on the
    cloth, tiles away. Here ``keep`` receding grids are moved by up to ``reach``
    tiles and the ``polished`` best get the four-corner polish, whose basin (~0.4 tile) takes
    such a grid to the board. Measurements: vision/notes/locate_place.md.
    """
    cands, sc = _receding_windows(blur, inv, centre, pitch, keep, reach)
    best = cands[np.argsort(-sc)[:polished]]
    scores, quads = polish(_separation, blur, best, pitch, (0.12, 0.06))
    i = int(np.argmax(scores))
    return float(scores[i]), quads[i]


def place_grid(
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
    blur = blurred(lab, pitch, blurs)
    # The fixed tiles' own lattice search first: enough for a board seen nearly square-on.
    direct, direct_quad = _search_grid(blur, inv, centre, pitch)
    if direct > clear:
        return direct, direct_quad
    wide = _wide(lab, pitch, blurs)
    steps = np.arange(0.0, 0.99, 0.1)
    origins = centre - 3.5 * pitch + _offsets(steps) * pitch
    ones = np.full(len(origins), pitch)
    sc = _centre_crossing_score(wide, _grid_quads(inv, origins, ones, ones))
    origin = origins[int(np.argmax(sc))]
    k = _offsets(np.arange(-2, 3, dtype=np.float64))
    starts = []
    for half in (0.0, 0.5):  # the score cannot tell tile centres from crossings
        origins = origin + (k + half) * pitch
        ones = np.full(len(origins), pitch)
        quads = _grid_quads(inv, origins, ones, ones)
        starts.append(quads[int(np.argmax(_centre_crossing_score(wide, quads)))])
    _, candidates = polish(_centre_crossing_score, wide, np.array(starts), pitch, (0.2, 0.07), rounds=2)
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


def polish(
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
