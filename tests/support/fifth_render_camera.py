"""The fifth renderer's camera: a pinhole with a pose above the table and radial distortion.

World units are centimetres. World axes are right-handed: X east (toward column 6),
Y north (toward row 0), Z up; the board's printed surface is the plane Z = 0 and its
tile area spans X in [0, 7 * tile], Y in [-7 * tile, 0] (row 0 at Y = 0).

The camera is sampled the way a person mounts one over a table: 45-80 cm high, tilted
up to 15 degrees in any direction, rolled up to 30 degrees about its axis, looking at a
point that is not quite the board's centre. Distortion is radial and written in the
*inverse* direction (distorted -> undistorted), so the image can be warped with one
``cv2.remap``; the few label points go the other way by fixed-point iteration.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Camera:
    """Intrinsics ``K`` (output pixels), world->camera rotation ``R``, centre ``C``, distortion."""

    K: np.ndarray
    R: np.ndarray
    C: np.ndarray
    k1: float
    k2: float
    width: int
    height: int

    def to_camera(self, points: np.ndarray) -> np.ndarray:
        """World points (N, 3) -> camera frame (N, 3), z forward."""
        return (np.asarray(points, dtype=np.float64) - self.C) @ self.R.T

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points (N, 3) -> undistorted pixel positions (N, 2)."""
        pc = self.to_camera(points)
        z = np.maximum(pc[:, 2], 1e-6)
        u = self.K[0, 0] * pc[:, 0] / z + self.K[0, 2]
        v = self.K[1, 1] * pc[:, 1] / z + self.K[1, 2]
        return np.stack([u, v], axis=1)

    def depth(self, points: np.ndarray) -> np.ndarray:
        """Distance of world points from the camera centre (for painter's ordering)."""
        return np.linalg.norm(np.asarray(points, dtype=np.float64) - self.C, axis=-1)

    def _scale(self, r2: np.ndarray) -> np.ndarray:
        return 1.0 + self.k1 * r2 + self.k2 * r2 * r2

    def undistort_pixels(self, pixels: np.ndarray) -> np.ndarray:
        """Distorted (image) pixels -> undistorted pixels, by the model's own direction."""
        f = self.K[0, 0]
        cx, cy = self.K[0, 2], self.K[1, 2]
        x = (pixels[..., 0] - cx) / f
        y = (pixels[..., 1] - cy) / f
        s = self._scale(x * x + y * y)
        return np.stack([x * s * f + cx, y * s * f + cy], axis=-1)

    def distort_pixels(self, pixels: np.ndarray) -> np.ndarray:
        """Undistorted pixels -> image pixels (inverse of :meth:`undistort_pixels`)."""
        f = self.K[0, 0]
        cx, cy = self.K[0, 2], self.K[1, 2]
        xu = (np.asarray(pixels, dtype=np.float64)[..., 0] - cx) / f
        yu = (np.asarray(pixels, dtype=np.float64)[..., 1] - cy) / f
        xd, yd = xu.copy(), yu.copy()
        for _ in range(40):
            s = self._scale(xd * xd + yd * yd)
            xd, yd = xu / s, yu / s
        return np.stack([xd * f + cx, yd * f + cy], axis=-1)

    def image_points(self, points: np.ndarray) -> np.ndarray:
        """World points -> pixels of the final (distorted) image."""
        return self.distort_pixels(self.project(points))

    def plane_homography(self, z: float, origin: tuple[float, float], px_per_cm: float,
                         k: np.ndarray | None = None) -> np.ndarray:
        """Homography from a texture lying on plane Z = z to undistorted pixels (of intrinsics ``k``).

        Texture pixel (tu, tv) is the world point (origin_x + tu / ppc, origin_y - tv / ppc, z).
        """
        ox, oy = origin
        a = px_per_cm
        tex_to_world = np.array([[1 / a, 0, ox], [0, -1 / a, oy], [0, 0, 1.0]])
        # world (X, Y, 1) on plane z -> camera: R @ ([X, Y, z] - C) = [r1 r2 (R@([0,0,z]-C))] @ [X, Y, 1]
        m = np.column_stack([self.R[:, 0], self.R[:, 1], self.R @ (np.array([0.0, 0.0, z]) - self.C)])
        return (self.K if k is None else k) @ m @ tex_to_world

    def scaled(self, factor: float, margin: tuple[float, float]) -> np.ndarray:
        """Intrinsics of a supersampled canvas of ``factor`` x size with ``margin`` pixels added left/top."""
        k = self.K.copy()
        k[0, 0] *= factor
        k[1, 1] *= factor
        k[0, 2] = (k[0, 2] + margin[0]) * factor
        k[1, 2] = (k[1, 2] + margin[1]) * factor
        return k


def look_rotation(forward: np.ndarray, north: np.ndarray, roll: float) -> np.ndarray:
    """World->camera rotation looking along ``forward``, image-up toward ``north``, then rolled."""
    z = forward / np.linalg.norm(forward)
    up = north - z * float(north @ z)
    up /= np.linalg.norm(up)
    y = -up  # image y points down, i.e. away from north
    x = np.cross(y, z)
    base = np.stack([x, y, z])
    c, s = math.cos(roll), math.sin(roll)
    roll_m = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])
    return roll_m @ base


def sample_camera(
    rng: random.Random,
    size: tuple[int, int],
    board_centre: np.ndarray,
    board_outline: np.ndarray,
    tile_area: np.ndarray,
) -> Camera:
    """A plausible overhead camera that keeps the whole tile area (and most of the board) in view."""
    width, height = size
    for attempt in range(60):
        cam_h = rng.uniform(45.0, 80.0)
        tilt = math.radians(rng.uniform(0.0, 15.0))
        azim = rng.uniform(0.0, 2 * math.pi)
        roll = math.radians(rng.uniform(-30.0, 30.0)) if rng.random() < 0.8 else math.radians(rng.uniform(-6, 6))
        off = 6.0 if attempt < 30 else 2.0  # off-centre, less so if the board keeps falling out of view
        target = board_centre + np.array([rng.uniform(-off, off), rng.uniform(-off, off), 0.0])
        fwd = np.array([math.sin(tilt) * math.cos(azim), math.sin(tilt) * math.sin(azim), -math.cos(tilt)])
        centre = target - fwd * (cam_h / math.cos(tilt))
        rot = look_rotation(fwd, np.array([0.0, 1.0, 0.0]), roll)
        # focal so the board spans a chosen share of the short image side
        board_size = float(np.ptp(board_outline[:, 0]))
        share = rng.uniform(0.52, 0.82) if attempt < 40 else rng.uniform(0.45, 0.6)
        f = share * height * cam_h / board_size
        k = np.array([[f, 0, width / 2 + rng.uniform(-0.02, 0.02) * width],
                      [0, f, height / 2 + rng.uniform(-0.02, 0.02) * height], [0, 0, 1.0]])
        k1 = rng.uniform(-0.05, 0.12) if rng.random() < 0.8 else 0.0
        k2 = rng.uniform(-0.02, 0.04) if k1 else 0.0
        cam = Camera(k, rot, centre, k1, k2, width, height)
        tiles = cam.image_points(tile_area)
        outline = cam.image_points(board_outline)
        m = 0.03 * height
        if not (np.all(tiles[:, 0] > m) and np.all(tiles[:, 0] < width - m)
                and np.all(tiles[:, 1] > m) and np.all(tiles[:, 1] < height - m)):
            continue
        inside = (outline[:, 0] > 0) & (outline[:, 0] < width) & (outline[:, 1] > 0) & (outline[:, 1] < height)
        if inside.sum() < 3:
            continue
        return cam
    raise RuntimeError("no camera pose keeps the board in view")  # pragma: no cover - 60 tries suffice
