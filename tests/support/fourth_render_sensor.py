"""What the camera does to the light for the fourth renderer: glare to JPEG.

In order: glare from a glossy board (day), auto exposure and a partial auto
white balance (grey world), a tone curve, vignetting, lateral chromatic
aberration, the lens' radial distortion, camera shake or defocus, sensor
noise (more at night, where the gain is high), rolling-shutter banding from
mains-powered lights, and 8-bit output. JPEG quality is chosen by the caller.
"""

from __future__ import annotations

import cv2
import numpy as np

from tests.support.fourth_render_camera import Camera


def _scale_about_centre(channel: np.ndarray, scale: float) -> np.ndarray:
    h, w = channel.shape
    m = np.array([[scale, 0, (1 - scale) * w / 2], [0, scale, (1 - scale) * h / 2]], np.float32)
    return cv2.warpAffine(channel, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def add_glare(rng: np.random.Generator, img: np.ndarray, board_poly: np.ndarray) -> np.ndarray:
    """A soft bright reflection somewhere on the board (the print is a little glossy)."""
    h, w = img.shape[:2]
    centre = board_poly.mean(0) + rng.uniform(-0.35, 0.35, 2) * (board_poly.max(0) - board_poly.min(0))
    axes = rng.uniform(0.05, 0.2, 2) * min(w, h)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, np.pi)
    dx, dy = xs - centre[0], ys - centre[1]
    u = (dx * np.cos(a) + dy * np.sin(a)) / axes[0]
    v = (-dx * np.sin(a) + dy * np.cos(a)) / axes[1]
    spot = np.exp(-(u * u + v * v)).astype(np.float32)
    return img + spot[..., None] * rng.uniform(0.15, 0.45)


def develop(rng: np.random.Generator, img: np.ndarray, cam: Camera, night: bool) -> np.ndarray:
    """Linear scene light (float RGB) to a camera's 8-bit BGR picture."""
    h, w = img.shape[:2]
    # auto exposure on a bright percentile (night: high gain, so noise grows with it)
    level = float(np.percentile(img[::4, ::4].mean(axis=2), 97 if not night else 99.5))
    target = rng.uniform(0.8, 1.0) if not night else rng.uniform(0.55, 0.9)
    gain = float(np.clip(target / max(level, 1e-4), 0.5, 12.0 if night else 2.0))
    img = img * gain
    if rng.uniform() < 0.7:  # partial grey-world white balance
        means = img[::4, ::4].reshape(-1, 3).mean(0) + 1e-4
        k = rng.uniform(0.3, 0.8)
        img = img * ((means.mean() / means) ** k)
    img = np.clip(img, 0, 1.3)
    img = np.clip(img, 0, 1) ** (1 / rng.uniform(1.0, 1.35))  # tone curve
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((xs - w / 2) ** 2 + (ys - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    img = img * (1 - rng.uniform(0.0, 0.45) * r2)[..., None]
    if rng.uniform() < 0.6:
        ca = rng.uniform(0.0005, 0.002)
        img = np.dstack(
            [_scale_about_centre(img[..., 0], 1 + ca), img[..., 1], _scale_about_centre(img[..., 2], 1 - ca)]
        )
    img = cam.distort_image(img.astype(np.float32))
    p = rng.uniform()
    if p < 0.25:  # camera shake
        length = rng.uniform(2, 3 + 4 * w / 2028)
        k = np.zeros((15, 15), np.float32)
        a = rng.uniform(0, np.pi)
        c = 7 + np.array([np.cos(a), np.sin(a)]) * length / 2
        cv2.line(k, (round(14 - c[0]), round(14 - c[1])), (round(c[0]), round(c[1])), 1.0, 1, cv2.LINE_AA)
        img = cv2.filter2D(img, -1, k / k.sum())
    elif p < 0.5:  # a little out of focus
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.6, 1.6))
    sigma = rng.uniform(0.006, 0.02) if not night else rng.uniform(0.015, 0.035) * np.sqrt(gain / 3)
    shot = np.sqrt(np.clip(img, 0, 1)) * rng.normal(0, 1, img.shape).astype(np.float32) * sigma
    read = rng.normal(0, 1, img.shape).astype(np.float32) * sigma * 0.6
    chroma_blur = cv2.GaussianBlur(read, (0, 0), 1.0)  # sensor noise is a little blotchy after demosaicing
    img = img + shot + 0.5 * read + chroma_blur
    if rng.uniform() < 0.4:  # rolling-shutter banding from lights on the mains
        period = rng.uniform(40, 200)
        band = 1 + rng.uniform(0.01, 0.03) * np.sin(2 * np.pi * np.arange(h) / period + rng.uniform(0, 6.3))
        rows = 1 + rng.normal(0, 0.004, h)
        img = img * (band * rows).astype(np.float32)[:, None, None]
    out = np.clip(img * 255 + 0.5, 0, 255).astype(np.uint8)
    return out[..., ::-1].copy()  # RGB -> BGR
