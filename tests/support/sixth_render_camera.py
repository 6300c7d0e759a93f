"""The sixth renderer's camera: a pinhole with radial lens distortion, and the sensor after it.

World units are centimetres: ``X`` east (toward col 6), ``Y`` south (toward row 6), ``Z`` up,
the table at ``Z = 0``. The camera is placed above the board, looking down, then rolled about
its axis (up to 30 degrees) and tilted (up to 15 degrees) toward a random azimuth, so row 0
stays the board row nearest the image's top edge (FORMATS.md §5).

The distortion is written from the image side (distorted normalised coordinates ``d`` give
the ideal ray ``u = d * (1 + k1 |d|^2 + k2 |d|^4)``), so rendering a pixel needs no inversion;
projecting a 3D point (the label's corners) inverts it with Newton steps. Either way it is the
same lens, the labels and the picture agree exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


def rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    """Rodrigues: the 3x3 matrix turning by ``angle`` radians about ``axis``."""
    a = np.asarray(axis, np.float64) / np.linalg.norm(axis)
    k = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return np.eye(3) + np.sin(angle) * k + (1 - np.cos(angle)) * (k @ k)


@dataclass
class Camera:
    """Pinhole camera: centre ``pos``, image axes ``right``/``down``, optical axis ``fwd``."""

    pos: np.ndarray
    right: np.ndarray
    down: np.ndarray
    fwd: np.ndarray
    focal: float
    width: int
    height: int
    k1: float
    k2: float

    @property
    def cx(self) -> float:
        return (self.width - 1) / 2.0

    @property
    def cy(self) -> float:
        return (self.height - 1) / 2.0

    def _undistort_factor(self, rho2: np.ndarray) -> np.ndarray:
        return 1.0 + self.k1 * rho2 + self.k2 * rho2 * rho2

    def rays(self, step: int = 1, x0: int = 0, y0: int = 0, w: int | None = None, h: int | None = None) -> np.ndarray:
        """Unit world directions of pixels ``(x0 + i*step, y0 + j*step)``: array (h', w', 3)."""
        w = self.width - x0 if w is None else w
        h = self.height - y0 if h is None else h
        xs = (np.arange(x0, x0 + w, step, dtype=np.float32) - self.cx) / self.focal
        ys = (np.arange(y0, y0 + h, step, dtype=np.float32) - self.cy) / self.focal
        dx, dy = np.meshgrid(xs, ys)
        g = self._undistort_factor(dx * dx + dy * dy).astype(np.float32)
        ux, uy = dx * g, dy * g
        r, d, f = (v.astype(np.float32) for v in (self.right, self.down, self.fwd))
        dirs = ux[..., None] * r + uy[..., None] * d + f
        dirs /= np.linalg.norm(dirs, axis=-1, keepdims=True)
        return dirs

    def project(self, points: np.ndarray) -> np.ndarray:
        """Image pixels (N, 2) of world points (N, 3), with the lens distortion."""
        p = np.atleast_2d(np.asarray(points, np.float64)) - self.pos
        z = p @ self.fwd
        ux, uy = (p @ self.right) / z, (p @ self.down) / z
        rho_u = np.hypot(ux, uy)
        rho = rho_u.copy()
        for _ in range(12):  # Newton on rho * (1 + k1 rho^2 + k2 rho^4) = rho_u
            f = rho * self._undistort_factor(rho * rho) - rho_u
            df = 1 + 3 * self.k1 * rho**2 + 5 * self.k2 * rho**4
            rho = rho - f / df
        scale = np.where(rho_u > 1e-12, rho / np.maximum(rho_u, 1e-12), 1.0)
        return np.stack([ux * scale * self.focal + self.cx, uy * scale * self.focal + self.cy], axis=1)


def make_camera(rng: np.random.Generator, board_side: float, width: int, height: int, z_board: float) -> Camera:
    """A random camera 45-70 cm from the board that sees the whole board (with a small margin)."""
    centre = np.array([board_side / 2, board_side / 2, z_board])
    target = centre + np.array([rng.uniform(-2, 2), rng.uniform(-2, 2), 0.0])
    roll = np.radians(rng.uniform(-30, 30))
    tilt = np.radians(rng.uniform(0, 15))
    azimuth = rng.uniform(0, 2 * np.pi)
    fwd0 = np.array([0.0, 0.0, -1.0])
    rot = rotation(np.array([np.cos(azimuth), np.sin(azimuth), 0.0]), tilt) @ rotation(fwd0, roll)
    right, down, fwd = rot @ np.array([1.0, 0, 0]), rot @ np.array([0, 1.0, 0]), rot @ fwd0
    dist = rng.uniform(45, 70)
    pos = target - dist * fwd
    k1 = rng.uniform(-0.12, 0.10)
    k2 = rng.uniform(-0.03, 0.03)
    hfov = np.radians(rng.uniform(48, 66))
    focal = (width / 2) / np.tan(hfov / 2)
    corners = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], float) * board_side
    corners[:, 2] = z_board
    for _ in range(40):  # widen until the board (and a frame margin) is in the picture
        cam = Camera(pos, right, down, fwd, focal, width, height, k1, k2)
        px = cam.project(corners + (corners - centre) * 0.08)
        if (
            px[:, 0].min() > 0.03 * width
            and px[:, 0].max() < 0.97 * width
            and px[:, 1].min() > 0.03 * height
            and (px[:, 1].max() < 0.97 * height)
        ):
            return cam
        focal *= 0.93
    return cam


_GAMMA = np.round(255 * np.linspace(0, 1, 4096) ** (1 / 2.2)).astype(np.uint8)


def sensor(img: np.ndarray, rng: np.random.Generator, night: bool) -> np.ndarray:
    """Linear-ish float image (0..1+) -> uint8 BGR: white balance, vignetting, noise, gamma, sharpening."""
    h, w = img.shape[:2]
    wb = rng.uniform(0.85, 1.15, 3) if not night else rng.uniform(0.8, 1.2, 3)
    img = img * wb.astype(np.float32)
    yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    vig = cv2.resize(1.0 - rng.uniform(0.05, 0.4) * r2, (w, h))
    img = img * vig[..., None]
    # shot + read noise in the linear domain (heavier at night: high gain)
    shot = rng.uniform(0.002, 0.006) if not night else rng.uniform(0.01, 0.03)
    read = rng.uniform(0.002, 0.006) if not night else rng.uniform(0.01, 0.025)
    sigma = np.sqrt(np.maximum(img, 0) * shot + read * read)
    cv2.setRNGSeed(int(rng.integers(0, 2**31 - 1)))
    half = np.empty((h // 2 + 1, w // 2 + 1, 3), np.float32)
    cv2.randn(half, 0.0, 0.6)  # chroma noise is coarser (demosaicing)
    noise = cv2.resize(half, (w, h), interpolation=cv2.INTER_LINEAR)
    grain = np.empty((h, w), np.float32)
    cv2.randn(grain, 0.0, 0.5)  # luminance grain
    noise += grain[..., None]
    img = img + sigma * noise
    out = _GAMMA[(np.clip(img, 0, 1) * 4095).astype(np.uint16)]
    amount = rng.uniform(0.0, 0.9)
    if amount > 0.05:
        blur = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.8, 2.0))
        out = cv2.addWeighted(out, 1 + amount, blur, -amount, 0)
    return out


def jpeg(img: np.ndarray, rng: np.random.Generator) -> bytes:
    """JPEG 4:2:0 at a random quality (phone-like)."""
    q = int(rng.integers(55, 96))
    params = [cv2.IMWRITE_JPEG_QUALITY, q, cv2.IMWRITE_JPEG_SAMPLING_FACTOR, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_420]
    ok, buf = cv2.imencode(".jpg", img, params)
    assert ok
    return buf.tobytes()
