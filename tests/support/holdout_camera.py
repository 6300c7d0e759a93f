"""A pinhole camera with radial distortion for the held-out renderer.

World frame: X east (toward column 6), Y south (toward row 6), Z down into the
table, in units of one tile pitch; the 7x7 tile area spans [0, 7] x [0, 7] on
the table plane Z = 0 and things above the table have negative Z. This frame is
right-handed, so a camera looking straight down needs no flip.

Images are made in two steps, as a real lens does it: an ideal pinhole image on
an *undistorted canvas* (a margin larger than the photo, so barrel distortion
has pixels to pull in), then ``cv2.remap`` through the Brown radial model
``x_d = x_u (1 + k1 r_u^2)`` (normalised coordinates). Label corners go through
the same forward model, so they are where the corners really appear.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import cv2
import numpy as np

BOARD_SIZE = 7.0
TILE_CORNERS = np.array([[0.0, 0.0, 0.0], [7.0, 0.0, 0.0], [7.0, 7.0, 0.0], [0.0, 7.0, 0.0]])


def _rx(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]], dtype=np.float64)


def _ry(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]], dtype=np.float64)


def _rz(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]], dtype=np.float64)


@dataclass
class Camera:
    """Intrinsics, pose and lens of one shot; ``margin`` pads the undistorted canvas."""

    size: tuple[int, int]
    focal: float
    principal: tuple[float, float]
    rotation: np.ndarray
    centre: np.ndarray
    k1: float
    margin: int = 0

    @property
    def canvas_size(self) -> tuple[int, int]:
        w, h = self.size
        return w + 2 * self.margin, h + 2 * self.margin

    def to_camera(self, points: np.ndarray) -> np.ndarray:
        """World points (N, 3) to camera coordinates (N, 3)."""
        return (np.asarray(points, dtype=np.float64) - self.centre) @ self.rotation.T

    def depth(self, points: np.ndarray) -> np.ndarray:
        return self.to_camera(points)[:, 2]

    def project_canvas(self, points: np.ndarray) -> np.ndarray:
        """World points (N, 3) to undistorted-canvas pixels (N, 2)."""
        cam = self.to_camera(points)
        z = np.maximum(cam[:, 2], 1e-6)
        u = self.focal * cam[:, 0] / z + self.principal[0] + self.margin
        v = self.focal * cam[:, 1] / z + self.principal[1] + self.margin
        return np.stack([u, v], axis=1)

    def distort(self, canvas_px: np.ndarray) -> np.ndarray:
        """Undistorted-canvas pixels to photo pixels (the forward lens model)."""
        cx, cy = self.principal
        x = (canvas_px[:, 0] - self.margin - cx) / self.focal
        y = (canvas_px[:, 1] - self.margin - cy) / self.focal
        g = 1.0 + self.k1 * (x * x + y * y)
        return np.stack([x * g * self.focal + cx, y * g * self.focal + cy], axis=1)

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points (N, 3) to photo pixels after the lens (N, 2)."""
        return self.distort(self.project_canvas(points))

    def plane_homography(self) -> np.ndarray:
        """3x3 map from table-plane (X, Y, 1) to undistorted-canvas pixels."""
        k = np.array(
            [[self.focal, 0, self.principal[0] + self.margin], [0, self.focal, self.principal[1] + self.margin],
             [0, 0, 1]]
        )
        t = -self.rotation @ self.centre
        rt = np.column_stack([self.rotation[:, 0], self.rotation[:, 1], t])
        return k @ rt

    def pixels_per_unit(self, point: np.ndarray) -> float:
        """Approximate image size of one tile pitch at a world point (for line widths, blur radii)."""
        return float(self.focal / max(self.depth(np.asarray(point, dtype=np.float64)[None])[0], 1e-6))

    def undistort_maps(self, step: int = 8) -> tuple[np.ndarray, np.ndarray]:
        """Per photo pixel, the canvas pixel the lens brought there (maps for ``cv2.remap``).

        The inverse of the radial model is found by fixed-point iteration on a coarse
        grid and interpolated up: the field is smooth, so this is exact to well under
        a pixel and costs almost nothing.
        """
        w, h = self.size
        gw, gh = w // step + 3, h // step + 3
        # node i sits at pixel (i - 0.5) * step - 0.5: exactly where cv2.resize by a factor of
        # ``step`` puts source sample i, one node before the photo's first pixel
        xs = (np.arange(gw, dtype=np.float64) - 0.5) * step - 0.5
        ys = (np.arange(gh, dtype=np.float64) - 0.5) * step - 0.5
        gx, gy = np.meshgrid(xs, ys)
        cx, cy = self.principal
        xd = (gx - cx) / self.focal
        yd = (gy - cy) / self.focal
        xu, yu = xd.copy(), yd.copy()
        for _ in range(8):
            g = 1.0 + self.k1 * (xu * xu + yu * yu)
            xu, yu = xd / g, yd / g
        mx = (xu * self.focal + cx + self.margin).astype(np.float32)
        my = (yu * self.focal + cy + self.margin).astype(np.float32)
        full = (gw * step, gh * step)
        mx = cv2.resize(mx, full, interpolation=cv2.INTER_LINEAR)[step : step + h, step : step + w]
        my = cv2.resize(my, full, interpolation=cv2.INTER_LINEAR)[step : step + h, step : step + w]
        return np.ascontiguousarray(mx), np.ascontiguousarray(my)


def _outline(extent: float) -> np.ndarray:
    """Points along the board's outer edge (lines curve under the lens, so corners are not enough)."""
    lo, hi = -extent, BOARD_SIZE + extent
    t = np.linspace(lo, hi, 9)
    pts = [(x, lo) for x in t] + [(hi, y) for y in t] + [(x, hi) for x in t] + [(lo, y) for y in t]
    return np.array([[x, y, 0.0] for x, y in pts])


def random_camera(rng: random.Random, size: tuple[int, int], frame_width: float) -> Camera:
    """A plausible overhead shot: in-plane yaw ±30°, tilt up to ~15°, board 40–95 % of the short side.

    The board's side (tile area plus its frame) is scaled to the chosen fill of the
    short side, then the board is slid to a random place that keeps it wholly in
    the photo; when a rotated, tilted board cannot fit at that fill, the fill shrinks.
    """
    w, h = size
    short = min(w, h)
    yaw = math.radians(rng.uniform(-30, 30) if rng.random() < 0.7 else rng.uniform(-8, 8))
    tilt_max = 15.0 if rng.random() < 0.6 else 6.0
    pitch = math.radians(rng.uniform(-tilt_max, tilt_max))
    roll = math.radians(rng.uniform(-tilt_max, tilt_max))
    rotation = _rx(pitch) @ _ry(roll) @ _rz(yaw)
    focal = short * rng.uniform(0.85, 1.7)
    principal = (w / 2 + rng.uniform(-0.02, 0.02) * w, h / 2 + rng.uniform(-0.02, 0.02) * h)
    k1 = rng.uniform(-0.15, 0.05)
    fill = rng.uniform(0.40, 0.95)
    outline = _outline(frame_width)
    centre_world = np.array([3.5, 3.5, 0.0])
    axis = rotation.T @ np.array([0.0, 0.0, 1.0])
    size_world = BOARD_SIZE + 2 * frame_width
    distance = focal * size_world / (fill * short)
    cam = Camera(size, focal, principal, rotation, centre_world - distance * axis, k1)
    margin_px = 0.01 * short
    # where in the free space the board should sit (0 = left/top limit, 1 = right/bottom limit)
    place = (rng.random(), rng.random())
    for _ in range(12):
        px = cam.project(outline)
        span = px.max(axis=0) - px.min(axis=0)
        side = board_side(cam, frame_width)
        scale = max(span[0] / (w - 2 * margin_px), span[1] / (h - 2 * margin_px), side / (fill * short))
        if scale > 1.0 + 1e-3 or scale < 1.0 - 0.02:
            distance *= scale
            cam.centre = centre_world - distance * axis
            cam.centre = cam.centre.copy()
        px = cam.project(outline)
        lo, hi = px.min(axis=0), px.max(axis=0)
        free = np.array([w, h]) - 2 * margin_px - (hi - lo)
        want_lo = margin_px + np.maximum(free, 0) * np.array(place)
        shift = want_lo - lo
        if np.all(np.abs(shift) < 0.5) and scale <= 1.0 + 1e-3:
            break
        depth = float(cam.depth(centre_world[None])[0])
        cam.centre = cam.centre - rotation.T @ np.array([shift[0] * depth / focal, shift[1] * depth / focal, 0.0])
    cam.margin = _canvas_margin(cam)
    return cam


def board_side(cam: Camera, frame_width: float) -> float:
    """Mean side length in the photo of the whole board (tile area and frame), in pixels."""
    lo, hi = -frame_width, BOARD_SIZE + frame_width
    c = cam.project(np.array([[lo, lo, 0.0], [hi, lo, 0.0], [hi, hi, 0.0], [lo, hi, 0.0]]))
    return float(np.mean([np.linalg.norm(c[i] - c[(i + 1) % 4]) for i in range(4)]))


def _canvas_margin(cam: Camera) -> int:
    """How far outside the photo the lens reaches into the undistorted canvas (pixels)."""
    mx, my = cam.undistort_maps(step=64)
    w, h = cam.size
    over = max(-mx.min(), -my.min(), mx.max() - (w - 1), my.max() - (h - 1), 0.0)
    return math.ceil(over) + 4
