"""Lattice hypotheses along a weaker rotation of the photo (:mod:`vision.locate`'s last resort, ``cloth_last``).

A checked or striped cloth fills most of a photo with a small board, so its
edges outweigh the board's in every estimator of :mod:`vision.locate_lattice`:
the gradient-angle histogram's strongest rotations are the cloth's, and even
along the board's own axes the 1-D and 2-D autocorrelations of the whole photo
are the cloth's (its pattern projected on those axes), with no peak at the
tile pitch. A cloth printed at another angle than the board has (almost) no
edges along the board's axes: keeping only the gradients aligned with one
rotation's axes leaves the board (and clutter, which does not repeat), whose
autocorrelation then peaks at the tile pitch. Tiles are square, so a pitch
measured along either axis gives the lattice along both (the faint board's
second peak can be a half-tile echo or missing).

Each hypothesis carries the frame of the gradients left, so its periodic
centre is sought where the board repeats, not on the cloth.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.locate_lattice import (
    _MAX_AXIS_COS,
    Frame,
    _axis_angles,
    _axis_histogram,
    _canonical,
    _lattice,
    _orientations,
    _pitches,
    _strong_gradients,
    lattice_frame,
)

if TYPE_CHECKING:
    from vision.locate import LocateConfig

__all__ = ["oriented_hypotheses", "oriented_rotations", "residual_rotations"]

#: Angular spread (degrees, one sigma) of the gradients kept along an axis: a board's lines stay within a
#: few degrees of its axes under perspective and a lens, while a cloth at another rotation lies 10-45 degrees off.
ALIGNED_SIGMA_DEG = 4.0


#: How far (degrees) from a rotation its axes are sought the second time (:func:`vision.locate_lattice._axis_angles`
#: looks 10 degrees either way: enough for tilt, but a nearby stronger cloth axis can win there).
AXIS_REACH_DEG = 5.0

#: Rotations nearer than this (degrees) to one already listed add nothing (the axes are sought 5-10 degrees
#: either way of it).
SAME_ROTATION_DEG = 2.0

#: Angular spread (degrees, one sigma) of the gradients taken out along a known rotation's axes by
#: :func:`residual_rotations`: a bold stripe's gradients spread some 5 degrees either way of its normal at the
#: work scale (l23: spent final18 held-out day 0018, 38-50 degrees about a 45-degree stripe).
RESIDUAL_SIGMA_DEG = 6.0

#: Pitch peaks of the 1-D autocorrelation kept per rotation (as ``LocateConfig.max_pitches``).
PITCH_PEAKS = 2


def _aligned_weight(angle: np.ndarray, normals: tuple[float, float]) -> np.ndarray:
    """Per pixel: 1 where the gradient (``angle``, radians) is along one of ``normals`` (modulo 180°),
    falling off as a Gaussian of the angle between them (:data:`ALIGNED_SIGMA_DEG`)."""
    off = np.full(angle.shape, np.pi, dtype=np.float32)
    for normal in normals:
        off = np.minimum(off, np.abs(np.mod(angle - normal + np.pi / 2, np.pi) - np.pi / 2))
    return np.exp(-0.5 * (off / np.deg2rad(ALIGNED_SIGMA_DEG)) ** 2).astype(np.float32)


def _square_pitches(gx: np.ndarray, gy: np.ndarray, alpha: float, beta: float, lo: float, hi: float) -> list[float]:
    """Tile pitch candidates along the axes ``alpha``/``beta`` (radians) of the (masked) gradients: the 1-D
    autocorrelation's peaks, then the lengths of the 2-D autocorrelation's lattice vectors."""
    lin = np.linalg.inv(np.array([[np.cos(alpha), np.cos(beta)], [np.sin(alpha), np.sin(beta)]]))
    affine, size = _canonical(lin, gx.shape)
    gu = cv2.warpAffine(np.cos(alpha) * gx + np.sin(alpha) * gy, affine, size, flags=cv2.INTER_LINEAR)
    gv = cv2.warpAffine(np.cos(beta) * gx + np.sin(beta) * gy, affine, size, flags=cv2.INTER_LINEAR)
    found = list(_pitches(gu, gv, lo, hi, PITCH_PEAKS))
    for a_vec, b_vec in _lattice(gx, gy, lo, hi, 1):
        found += [float(np.linalg.norm(a_vec)), float(np.linalg.norm(b_vec))]
    out: list[float] = []
    for pitch in found:
        if all(abs(pitch - p) > 0.04 * p for p in out):
            out.append(pitch)
    return out


def oriented_rotations(
    gx: np.ndarray, gy: np.ndarray, normalised: tuple[np.ndarray, np.ndarray], cfg: LocateConfig
) -> list[float]:
    """The photo's rotations (radians) for :func:`oriented_hypotheses`: the gradient-angle histogram's peaks
    down to ``oriented_floor`` of the strongest (a board beside a cloth can be a tenth of it), of the plain
    gradients, then of the contrast-``normalised`` ones (a bold cloth's edges take the plain histogram's
    strongest gradients; normalised, the board counts by its area). Rotations within :data:`SAME_ROTATION_DEG`
    of one before are dropped."""
    out: list[float] = []
    for x, y in ((gx, gy), normalised):
        strong = _strong_gradients(x, y)
        if strong is None:
            continue
        for theta in _orientations(strong, cfg.oriented_rotations, floor=cfg.oriented_floor):
            if all(_rotation_gap(theta, seen) > np.deg2rad(SAME_ROTATION_DEG) for seen in out):
                out.append(theta)
    return out


def residual_rotations(normalised: tuple[np.ndarray, np.ndarray], known: list[float], cfg: LocateConfig) -> list[float]:
    """The rotations (radians) of the contrast-``normalised`` gradients left once the ``known`` rotations' axes are
    taken out (each gradient weighed by one minus its :func:`_aligned_weight` at :data:`RESIDUAL_SIGMA_DEG`), down
    to ``oriented_floor`` of the strongest left; those within :data:`SAME_ROTATION_DEG` of a known one are dropped.

    A bold cloth fills the photo around a small board: its gradients are most of the strong ones, so the
    board's rotation can lie under a tenth of the cloth's peak, normalised or not (a board turned 18 degrees
    from a striped cloth: under 0.03 of it), and :func:`oriented_rotations` never proposes it. Taken out, the
    cloth leaves the board's rotation among the peaks of what remains (measurements: vision/notes/locate.md).
    """
    x, y = normalised
    angle = np.arctan2(y, x)
    keep = np.ones(angle.shape, dtype=np.float32)
    for theta in known:
        off = np.full(angle.shape, np.pi, dtype=np.float32)
        for normal in (theta, theta + np.pi / 2):
            off = np.minimum(off, np.abs(np.mod(angle - normal + np.pi / 2, np.pi) - np.pi / 2))
        keep *= 1.0 - np.exp(-0.5 * (off / np.deg2rad(RESIDUAL_SIGMA_DEG)) ** 2).astype(np.float32)
    strong = _strong_gradients(x * keep, y * keep)
    if strong is None:
        return []
    return [
        theta
        for theta in _orientations(strong, cfg.oriented_rotations, floor=cfg.oriented_floor)
        if all(_rotation_gap(theta, seen) > np.deg2rad(SAME_ROTATION_DEG) for seen in known)
    ]


def _rotation_gap(a: float, b: float) -> float:
    """Angle (radians) between two rotations, modulo 90 degrees."""
    return abs(((a - b + np.pi / 4) % (np.pi / 2)) - np.pi / 4)


def oriented_hypotheses(
    gx: np.ndarray, gy: np.ndarray, lo: float, hi: float, theta: float
) -> Iterator[tuple[np.ndarray, np.ndarray, Frame]]:
    """Square lattices along the rotation ``theta`` (radians), measured on the gradients aligned with its axes.

    The axes are sought as :func:`vision.locate_lattice.lattice_hypotheses` seeks them (within 10 degrees of
    the rotation), then within :data:`AXIS_REACH_DEG` only: a cloth's stronger axes a few degrees further
    can take the wider peak (a board 7 degrees from a cloth's axis).
    """
    strong = _strong_gradients(gx, gy)
    if strong is None:
        return
    smooth = _axis_histogram(strong)
    angle = np.arctan2(gy, gx)
    shape = (gx.shape[0], gx.shape[1])
    seen: list[tuple[float, float]] = []
    for reach in (10.0, AXIS_REACH_DEG):
        alpha, beta = _axis_angles(smooth, theta, reach)
        if abs(np.cos(beta - alpha)) > _MAX_AXIS_COS or any(
            abs(alpha - a) + abs(beta - b) < np.deg2rad(1.0) for a, b in seen
        ):
            continue
        seen.append((alpha, beta))
        # Normals of the lines along each axis (see _axis_angles).
        weight = _aligned_weight(angle, (beta - np.pi / 2, alpha + np.pi / 2))
        mx, my = gx * weight, gy * weight
        for pitch in _square_pitches(mx, my, alpha, beta, lo, hi):
            a_vec = pitch * np.array([np.cos(alpha), np.sin(alpha)])
            b_vec = pitch * np.array([np.cos(beta), np.sin(beta)])
            yield a_vec, b_vec, lattice_frame(mx, my, a_vec, b_vec, shape)

