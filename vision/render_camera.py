"""The renderer's camera: pose, projection, lens distortion and the sensor.

World coordinates are in *tile units* on the table plane: ``X`` grows with the
board column, ``Y`` with the board row, the 7x7 tile area spans ``[0, 7]`` on
both axes and ``Z`` points down into the table (a point ``h`` above the table
has ``Z = -h``). With that choice an overhead camera aligned with the board has
the identity rotation, and row 0 lands at the image top.

Pixel coordinates follow OpenCV: pixel ``(i, j)`` has its centre at ``x = i``,
``y = j``. Lens distortion is radial and defined from distorted (observed)
normalised coordinates to ideal ones, which is exactly what a remap needs; the
forward direction, used for labels and for objects drawn in image space, is
solved by Newton's method.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Camera:
    """A pinhole camera with radial distortion looking at the table plane."""

    width: int
    height: int
    f: float
    cx: float
    cy: float
    R: np.ndarray  # world -> camera rotation
    t: np.ndarray  # world -> camera translation
    k1: float = 0.0
    k2: float = 0.0

    @property
    def K(self) -> np.ndarray:
        return np.array([[self.f, 0, self.cx], [0, self.f, self.cy], [0, 0, 1]], dtype=np.float64)

    def homography(self) -> np.ndarray:
        """Table plane ``(X, Y, 1)`` -> ideal (undistorted) pixel coordinates."""
        h = self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], self.t])
        return h / h[2, 2]

    def to_camera(self, points: np.ndarray) -> np.ndarray:
        return np.asarray(points, dtype=np.float64).reshape(-1, 3) @ self.R.T + self.t

    def project_ideal(self, points: np.ndarray) -> np.ndarray:
        cam = self.to_camera(points)
        return np.column_stack([self.f * cam[:, 0] / cam[:, 2] + self.cx, self.f * cam[:, 1] / cam[:, 2] + self.cy])

    def undistort(self, pixels: np.ndarray) -> np.ndarray:
        """Observed pixels -> ideal pixels (the direct direction of the model)."""
        p = np.asarray(pixels, dtype=np.float64).reshape(-1, 2)
        x = (p[:, 0] - self.cx) / self.f
        y = (p[:, 1] - self.cy) / self.f
        r2 = x * x + y * y
        k = 1.0 + self.k1 * r2 + self.k2 * r2 * r2
        return np.column_stack([x * k * self.f + self.cx, y * k * self.f + self.cy])

    def distort(self, ideal: np.ndarray) -> np.ndarray:
        """Ideal pixels -> where they appear in the photo (Newton on the radius)."""
        p = np.asarray(ideal, dtype=np.float64).reshape(-1, 2)
        x = (p[:, 0] - self.cx) / self.f
        y = (p[:, 1] - self.cy) / self.f
        ru = np.hypot(x, y)
        rd = ru.copy()
        for _ in range(8):
            r2 = rd * rd
            g = rd * (1 + self.k1 * r2 + self.k2 * r2 * r2) - ru
            dg = 1 + 3 * self.k1 * r2 + 5 * self.k2 * r2 * r2
            rd = rd - g / np.maximum(dg, 1e-6)
        scale = np.where(ru > 1e-12, rd / np.maximum(ru, 1e-12), 1.0)
        return np.column_stack([x * scale * self.f + self.cx, y * scale * self.f + self.cy])

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points (N, 3) -> observed pixel coordinates (N, 2)."""
        return self.distort(self.project_ideal(points))

    def project_plane(self, xy: np.ndarray) -> np.ndarray:
        """Table-plane points (N, 2) -> observed pixel coordinates."""
        xy = np.asarray(xy, dtype=np.float64).reshape(-1, 2)
        return self.project(np.column_stack([xy, np.zeros(len(xy))]))

    def image_to_plane(self, pixels: np.ndarray) -> np.ndarray:
        """Observed pixels -> the table-plane points they show."""
        ideal = self.undistort(pixels)
        hinv = np.linalg.inv(self.homography())
        pts = np.column_stack([ideal, np.ones(len(ideal))]) @ hinv.T
        return pts[:, :2] / pts[:, 2:3]

    def depth(self, points: np.ndarray) -> np.ndarray:
        return self.to_camera(points)[:, 2]

    def pixels_per_unit(self) -> float:
        """Approximate image pixels per tile at the board centre."""
        a, b = self.project_plane(np.array([[3.0, 3.5], [4.0, 3.5]]))
        c, d = self.project_plane(np.array([[3.5, 3.0], [3.5, 4.0]]))
        return float((np.hypot(*(b - a)) + np.hypot(*(d - c))) / 2)


def _rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    rvec = np.asarray(axis, dtype=np.float64) * angle
    mat, _ = cv2.Rodrigues(rvec)
    return mat


def make_camera(
    width: int,
    height: int,
    *,
    hfov_deg: float,
    rotation_deg: float,
    tilt_deg: float,
    tilt_azimuth_deg: float,
    distance: float,
    target: tuple[float, float],
    k1: float = 0.0,
    k2: float = 0.0,
) -> Camera:
    """A camera ``distance`` tile units from ``target`` on the table, tilted and rolled."""
    f = width / 2.0 / math.tan(math.radians(hfov_deg) / 2.0)
    az = math.radians(tilt_azimuth_deg)
    tilt = _rotation(np.array([math.cos(az), math.sin(az), 0.0]), math.radians(tilt_deg))
    roll = _rotation(np.array([0.0, 0.0, 1.0]), math.radians(rotation_deg))
    rot = roll @ tilt
    axis = rot.T @ np.array([0.0, 0.0, 1.0])
    centre = np.array([target[0], target[1], 0.0]) - distance * axis
    t = -rot @ centre
    return Camera(width, height, f, (width - 1) / 2.0, (height - 1) / 2.0, rot, t, k1, k2)


def _inside(cam: Camera, xy: np.ndarray, margin: float) -> bool:
    px = cam.project_plane(xy)
    mx, my = margin * cam.width, margin * cam.height
    return bool(
        np.all(px[:, 0] >= mx) and np.all(px[:, 0] <= cam.width - 1 - mx)
        and np.all(px[:, 1] >= my) and np.all(px[:, 1] <= cam.height - 1 - my)
    )  # fmt: skip


def random_camera(
    rng: np.random.Generator,
    width: int,
    height: int,
    *,
    keep_visible: float = 0.35,
    fill: tuple[float, float] = (0.45, 0.9),
    max_rotation: float = 30.0,
    max_tilt: float = 15.0,
) -> Camera:
    """A plausible overhead pose: the 7x7 tile area spans ``fill`` of the short image side.

    The tile area plus ``keep_visible`` tile units around it (part of the frame)
    is kept inside the image; when the drawn size does not fit (large board,
    strong rotation) the camera backs off until it does, then the board is
    shifted randomly within the room left.
    """
    hfov = rng.uniform(50.0, 72.0)
    rotation = rng.uniform(-max_rotation, max_rotation) if rng.random() < 0.6 else rng.normal(0, 4.0)
    rotation = float(np.clip(rotation, -max_rotation, max_rotation))
    if rng.random() < 0.5:
        tilt = float(rng.uniform(0.0, max_tilt))
    else:
        tilt = float(min(abs(rng.normal(0.0, max_tilt / 2.5)), max_tilt))
    azimuth = rng.uniform(0.0, 360.0)
    k1 = rng.uniform(-0.03, 0.12)
    k2 = rng.uniform(-0.02, 0.03)
    f = width / 2.0 / math.tan(math.radians(hfov) / 2.0)
    share = rng.uniform(*fill)
    distance = f * 7.0 / (share * min(width, height))
    m = keep_visible
    box = np.array([[-m, -m], [7 + m, -m], [7 + m, 7 + m], [-m, 7 + m]])

    def build(dist: float, target: tuple[float, float]) -> Camera:
        return make_camera(
            width, height, hfov_deg=hfov, rotation_deg=rotation, tilt_deg=tilt, tilt_azimuth_deg=azimuth,
            distance=dist, target=target, k1=k1, k2=k2,
        )  # fmt: skip

    cam = build(distance, (3.5, 3.5))
    for _ in range(60):
        if _inside(cam, box, 0.01):
            break
        distance *= 1.04
        cam = build(distance, (3.5, 3.5))
    # shift the board off-centre within the room left, when there is some
    for _ in range(6):
        px = cam.project_plane(box)
        room_x = min(px[:, 0].min(), width - 1 - px[:, 0].max()) / cam.pixels_per_unit()
        room_y = min(px[:, 1].min(), height - 1 - px[:, 1].max()) / cam.pixels_per_unit()
        if room_x <= 0.05 and room_y <= 0.05:
            break
        shifted = build(distance, (3.5 + rng.uniform(-room_x, room_x) * 0.8, 3.5 + rng.uniform(-room_y, room_y) * 0.8))
        if _inside(shifted, box, 0.01):
            cam = shifted
            break
    return cam


# --------------------------------------------------------------------------- dense maps


class CoarseGrid:
    """Image points every ``step`` pixels (padded one step beyond each edge).

    Smooth per-pixel fields (remap coordinates, the light field) are computed on
    this grid and brought to full resolution by :meth:`upsample`, which is an
    exact bilinear interpolation aligned with the full-resolution pixels.
    """

    def __init__(self, width: int, height: int, step: int = 8) -> None:
        self.width, self.height, self.step = width, height, step
        nx = math.ceil(width / step) + 2
        ny = math.ceil(height / step) + 2
        xs = (np.arange(nx) + 0.5) * step - 0.5 - step
        ys = (np.arange(ny) + 0.5) * step - 0.5 - step
        self.u, self.v = np.meshgrid(xs.astype(np.float64), ys.astype(np.float64))

    @property
    def shape(self) -> tuple[int, int]:
        return self.u.shape  # type: ignore[return-value]

    def points(self) -> np.ndarray:
        return np.column_stack([self.u.ravel(), self.v.ravel()])

    def upsample(self, field: np.ndarray) -> np.ndarray:
        ny, nx = self.u.shape
        s = self.step
        big = cv2.resize(field.astype(np.float32), (nx * s, ny * s), interpolation=cv2.INTER_LINEAR)
        return big[s : s + self.height, s : s + self.width]


def plane_maps(
    cam: Camera, grid: CoarseGrid, canvas_from_world: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Remap coordinates into a top-down canvas for every image pixel.

    Returns full-resolution ``map_x``, ``map_y`` (float32) and the coarse grid's
    table-plane coordinates (``(ny, nx, 2)``) for fields defined on the table.
    """
    world = cam.image_to_plane(grid.points())
    pts = np.column_stack([world, np.ones(len(world))]) @ canvas_from_world.T
    canvas = pts[:, :2] / pts[:, 2:3]
    ny, nx = grid.shape
    map_x = grid.upsample(canvas[:, 0].reshape(ny, nx))
    map_y = grid.upsample(canvas[:, 1].reshape(ny, nx))
    return map_x, map_y, world.reshape(ny, nx, 2)


# --------------------------------------------------------------------------- sensor

_POOL_SIZE = 1 << 23
_pool: np.ndarray | None = None


def _noise(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Standard normal float32 noise of ``shape``, cut from a fixed pool at a seeded offset.

    Drawing millions of normals per frame is the slowest step of a render; a
    window of a fixed pool (itself seeded) is just as random to a reader and
    keeps the frame deterministic in the scene seed.
    """
    global _pool
    if _pool is None:
        _pool = np.random.default_rng(20240229).standard_normal(_POOL_SIZE, dtype=np.float32)
    n = int(np.prod(shape))
    if n > _POOL_SIZE // 2:
        return rng.standard_normal(shape, dtype=np.float32)
    start = int(rng.integers(0, _POOL_SIZE - n))
    return _pool[start : start + n].reshape(shape)


def optics(image: np.ndarray, *, blur_sigma: float, motion: tuple[float, float] | None = None) -> np.ndarray:
    """Lens blur (and camera shake) on the scene before the light is applied.

    Room light varies slowly across the image, so blurring the albedo (and glow)
    layers first is the same as blurring the lit scene, at 8-bit cost.
    """
    if motion is not None and motion[0] >= 1.5:
        length, angle = motion
        k = math.ceil(length) | 1
        kernel = np.zeros((k, k), np.float32)
        c = k // 2
        dx, dy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        cv2.line(kernel, (round(c - dx * c), round(c - dy * c)), (round(c + dx * c), round(c + dy * c)), 1.0, 1)
        kernel /= kernel.sum()
        image = cv2.filter2D(image, -1, kernel)
    if blur_sigma > 0.25:
        image = cv2.GaussianBlur(image, (0, 0), blur_sigma)
    return image


def sensor(
    image: np.ndarray,
    rng: np.random.Generator,
    *,
    noise_sigma: float,
    chroma_noise: float,
    jpeg_quality: int | None,
    sharpen: float = 0.0,
    grain: float = 0.0,
) -> np.ndarray:
    """The sensor and the camera's processing on a float32 BGR image (0..255): noise, 8-bit, sharpening, JPEG.

    ``image`` may be modified in place.
    """
    h, w = image.shape[:2]
    if noise_sigma > 0:
        # fine luminance noise, plus the blotchy luminance and colour noise an ISP's denoiser leaves
        image += _noise(rng, (h, w)).reshape(h, w, 1) * np.float32(noise_sigma)
    if grain > 0 or chroma_noise > 0:
        hh, hw = (h + 1) // 2, (w + 1) // 2
        small = _noise(rng, (hh, hw, 3)) * np.float32(chroma_noise)
        if grain > 0:
            small += _noise(rng, (hh, hw)).reshape(hh, hw, 1) * np.float32(grain)
        image += cv2.resize(cv2.GaussianBlur(small, (0, 0), 0.7), (w, h), interpolation=cv2.INTER_LINEAR)
    np.maximum(image, 0.0, out=image)
    out = cv2.convertScaleAbs(image)  # saturates at 255
    if sharpen > 0:
        # the camera's own sharpening: an unsharp mask, with its faint halos
        soft = cv2.GaussianBlur(out, (0, 0), 1.5)
        out = cv2.addWeighted(out, 1.0 + sharpen, soft, -sharpen, 0)
    if jpeg_quality is not None:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            out = decoded
    return out
