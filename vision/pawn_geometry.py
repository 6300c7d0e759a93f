"""Where the camera stands over the board: the point a standing pawn leans away from.

A pawn is a raised object. Seen from a camera at height ``H`` above the board, a
point of the pawn at height ``h`` over its base ``b`` projects onto the board plane
at ``b + (b - n) * h / (H - h)``, where ``n`` is the camera's *nadir* (the board
point straight below it). In the rectified (board-plane) view every pawn is
therefore drawn out along the line from the nadir, its base at the end nearest
the nadir. The nadir is not where the camera looks (the image centre): a camera
tilted 30 degrees looks at the board's middle from a point beyond its near edge,
so between the two the directions are opposite, and "the end nearest the image
centre" is the pawn's top there, not its base.

The nadir follows from the board's homography alone when the camera is an
ordinary one (square pixels, principal point at the image centre): the focal
length is the one that makes the board's two axes perpendicular and equally
long in the camera frame (Zhang's constraints with a single unknown), and the
camera's position is then ``-R^T t``. Whatever the edition: only the board's
corners and the photo's size are used. A view straight down (or nearly) leaves
the focal length undetermined; the nadir then is the image centre, which is
where it is in such a view.
"""

from __future__ import annotations

import math

import numpy as np

from vision.rectify import Rectified

#: A view whose implied focal length is this many image diagonals or more is taken as
#: straight down (the constraints are ill-conditioned; nadir = image centre).
MAX_FOCAL_DIAGONALS = 20.0


def camera_position(rect: Rectified) -> tuple[float, float, float] | None:
    """The camera's position in rectified pixels: (x, y) of its nadir and its height; None if undetermined.

    Needs ``rect.image_shape`` (the principal point is the photo's centre).
    """
    if rect.image_shape is None:
        return None
    height, width = rect.image_shape
    # Rectified pixels -> image pixels, the principal point moved to the origin.
    to_image = np.linalg.inv(rect.homography)
    shift = np.array([[1.0, 0.0, -width / 2.0], [0.0, 1.0, -height / 2.0], [0.0, 0.0, 1.0]])
    g = shift @ to_image
    g = g / np.linalg.norm(g[:, :2])
    h1, h2 = g[:, 0], g[:, 1]
    # Unknown a = 1 / f^2: r1 . r2 = 0 and |r1| = |r2| for K^-1 g, K = diag(f, f, 1).
    rows = np.array([h1[0] * h2[0] + h1[1] * h2[1], h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2])
    rhs = -np.array([h1[2] * h2[2], h1[2] ** 2 - h2[2] ** 2])
    denom = float(rows @ rows)
    if denom <= 0.0:
        return None
    a = float(rows @ rhs) / denom
    if not math.isfinite(a) or a <= 0.0:
        return None
    focal = 1.0 / math.sqrt(a)
    if focal > MAX_FOCAL_DIAGONALS * math.hypot(width, height):
        return None
    m = np.diag([1.0 / focal, 1.0 / focal, 1.0]) @ g
    scale = 2.0 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
    r1, r2, t = m[:, 0] * scale, m[:, 1] * scale, m[:, 2] * scale
    if t[2] < 0:  # the board in front of the camera
        r1, r2, t = -r1, -r2, -t
    rot = np.column_stack([r1, r2, np.cross(r1, r2)])
    centre = -rot.T @ t
    if not np.all(np.isfinite(centre)) or abs(float(centre[2])) < 1e-6:
        return None
    return float(centre[0]), float(centre[1]), abs(float(centre[2]))


def nadir(rect: Rectified, fallback: np.ndarray) -> np.ndarray:
    """The point pawns lean away from (rectified pixels): the camera's nadir, else ``fallback`` (the image centre)."""
    pose = camera_position(rect)
    if pose is None:
        return fallback
    return np.array(pose[:2], dtype=np.float64)
