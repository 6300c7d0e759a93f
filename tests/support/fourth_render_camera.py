"""A pinhole camera over the table, its lens and its sensor, for the fourth renderer.

World units are tiles: the 7x7 tile area spans ``X, Y`` in ``[0, 7]`` (``X``
toward column 6, ``Y`` toward row 6), ``Z`` points up. The camera looks down,
turned in the image plane by up to 30 degrees and tilted by up to 15 degrees
about a random axis, so pawns (which stand up) are seen a little from the side
and their tops lean away from the image centre. The table plane maps to the
image by a homography; lens distortion (barrel or pincushion) and chromatic
aberration are applied to the finished image, and label points follow them.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


def _rot(axis: np.ndarray, angle: float) -> np.ndarray:
    axis = axis / np.linalg.norm(axis)
    rvec = (axis * angle).reshape(3, 1)
    return cv2.Rodrigues(rvec)[0]


@dataclass
class Camera:
    """Intrinsics ``K``, world-to-camera rotation ``R`` and centre ``C``; ``k1`` radial distortion."""

    K: np.ndarray
    R: np.ndarray
    C: np.ndarray
    size: tuple[int, int]
    k1: float

    def project(self, pts: np.ndarray) -> np.ndarray:
        """World points ``(..., 3)`` to undistorted image pixels ``(..., 2)``."""
        p = (np.asarray(pts, np.float64) - self.C) @ self.R.T @ self.K.T
        return p[..., :2] / p[..., 2:3]

    def depth(self, pts: np.ndarray) -> np.ndarray:
        """Distance along the viewing axis (to sort objects far-to-near)."""
        return ((np.asarray(pts, np.float64) - self.C) @ self.R.T)[..., 2]

    def plane_homography(self) -> np.ndarray:
        """3x3 map from table-plane ``(X, Y, 1)`` to image pixels."""
        return self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], -self.R @ self.C])

    def pixels_per_tile(self, at: tuple[float, float] = (3.5, 3.5)) -> float:
        a = self.project(np.array([at[0], at[1], 0.0]))
        b = self.project(np.array([at[0] + 1, at[1], 0.0]))
        c = self.project(np.array([at[0], at[1] + 1, 0.0]))
        return float(0.5 * (np.linalg.norm(b - a) + np.linalg.norm(c - a)))

    def footprint(self) -> np.ndarray:
        """Table-plane points seen at the image corners (4 x 2)."""
        w, h = self.size
        hinv = np.linalg.inv(self.plane_homography())
        corners = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], np.float64) @ hinv.T
        return corners[:, :2] / corners[:, 2:3]

    # ------------------------------------------------------------------ lens
    def _norm(self) -> float:
        w, h = self.size
        return float(np.hypot(w, h) / 2)

    def distort_points(self, pts: np.ndarray) -> np.ndarray:
        """Undistorted pixels to where they land in the distorted photo (inverse of the remap)."""
        w, h = self.size
        c = np.array([w / 2, h / 2])
        p = np.asarray(pts, np.float64) - c
        q = p.copy()
        for _ in range(30):  # solve p = q * (1 + k1 |q|^2 / n^2) for q
            r2 = np.sum(q * q, axis=-1, keepdims=True) / self._norm() ** 2
            q = p / (1 + self.k1 * r2)
        return q + c

    def distort_image(self, img: np.ndarray) -> np.ndarray:
        """Apply the radial distortion: each photo pixel samples ``centre + q (1 + k1 r^2)``."""
        if self.k1 == 0:
            return img
        w, h = self.size
        xs, ys = np.meshgrid(np.arange(w, dtype=np.float32) - w / 2, np.arange(h, dtype=np.float32) - h / 2)
        f = 1 + self.k1 * (xs * xs + ys * ys) / self._norm() ** 2
        return cv2.remap(img, xs * f + w / 2, ys * f + h / 2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def random_camera(rng: np.random.Generator, size: tuple[int, int], frame_extent: float) -> Camera:
    """A camera that sees the whole board (tile area plus ``frame_extent`` tiles of frame) with a margin."""
    w, h = size
    for attempt in range(40):
        f = w * rng.uniform(0.75, 1.35)
        K = np.array([[f, 0, w / 2 + rng.normal(0, w * 0.01)], [0, f, h / 2 + rng.normal(0, h * 0.01)], [0, 0, 1]])
        base = np.array([[1.0, 0, 0], [0, 1.0, 0], [0, 0, -1.0]])  # x east, y south, looking down
        roll = np.radians(rng.uniform(-30, 30))
        tilt = np.radians(rng.uniform(0, 15))
        tilt_axis = np.array([np.cos(a := rng.uniform(0, 2 * np.pi)), np.sin(a), 0.0])
        R = _rot(np.array([0, 0, 1.0]), roll) @ _rot(tilt_axis, tilt) @ base
        fill = rng.uniform(0.5, 0.88) * (0.97**attempt)  # tile area side over the image's short side
        dist = f * 7 / (fill * min(w, h))
        target = np.array([3.5, 3.5, 0]) + np.append(rng.normal(0, 0.4, 2), 0)
        C = target - dist * R[2]  # R[2] is the viewing direction in world coordinates
        cam = Camera(K, R, C, size, k1=float(rng.uniform(-0.09, 0.06)) if rng.uniform() < 0.75 else 0.0)
        m = frame_extent
        outer = np.array([[-m, -m, 0], [7 + m, -m, 0], [7 + m, 7 + m, 0], [-m, 7 + m, 0]], np.float64)
        img = cam.distort_points(cam.project(outer))
        pad = 0.02 * min(w, h)
        if (
            (img[:, 0] > pad).all()
            and (img[:, 0] < w - pad).all()
            and (img[:, 1] > pad).all()
            and (img[:, 1] < h - pad).all()
        ):
            return cam
    return cam
