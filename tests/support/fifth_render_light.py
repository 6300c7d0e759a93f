"""The fifth renderer's light: sources in the world, their effect on surfaces, and the sensor.

Day scenes have a window (directional, with a falloff across the table) and often a
warm lamp (a point source with 1/d^2 and cosine falloff); both cast the pawns' and the
hands' shadows and both set how bright each flat surface is, so the brightness
gradient, the shadow directions and the glare spot all agree. Some frames add the
hard-edged shadow of something outside the view (a window bar, a shelf). Night scenes
are a dark room: the board's glow paint emits, everything else sees only a faint
ambient and the dim red spill of the LEDs around the board.

The sensor stage (after the lens) applies white balance, exposure, vignetting, shot and
read noise, a little defocus and JPEG compression.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import cv2
import numpy as np

from tests.support.fifth_render_camera import Camera
from tests.support.fifth_render_solids import Light


@dataclass
class Lighting:
    """The frame's sources: ambient BGR, lights, a window falloff and an occluder's hard shadow."""

    ambient: np.ndarray
    lights: list[Light]
    window_axis: np.ndarray  # unit XY vector pointing away from the window
    window_drop: float  # relative loss of window light per 50 cm
    hard_shadow: tuple[np.ndarray, float] | None  # world half-plane (nx, ny, d): n.XY > d is shaded
    glare: float
    night: bool


def _warm(rng: random.Random) -> np.ndarray:
    return np.array([rng.uniform(0.55, 0.8), rng.uniform(0.8, 0.92), 1.0])


def sample_lighting(rng: random.Random, centre: np.ndarray, night: bool) -> Lighting:
    """Sources around a board centred at ``centre`` (world cm)."""
    lights: list[Light] = []
    if night:
        ambient = np.full(3, rng.uniform(0.04, 0.12)) * np.array([1.0, 1.0, rng.uniform(1.0, 1.4)])
        for _ in range(rng.randint(1, 3)):  # LED spill from the frame's strip
            a = rng.uniform(0, 2 * math.pi)
            pos = centre + np.array([17 * math.cos(a), 17 * math.sin(a), rng.uniform(2.0, 6.0)])
            lights.append(Light(np.array([0.03, 0.05, rng.uniform(0.25, 0.5)]), position=pos,
                                shadow_softness=0.3))
        return Lighting(ambient, lights, np.array([1.0, 0.0]), 0.0, None, 0.0, True)
    ambient = np.full(3, rng.uniform(0.35, 0.6)) * np.array([rng.uniform(0.95, 1.1), 1.0, rng.uniform(0.9, 1.05)])
    az = rng.uniform(0, 2 * math.pi)
    el = math.radians(rng.uniform(25, 70))
    if rng.random() < 0.85:
        window = np.array([math.cos(az) * math.cos(el), math.sin(az) * math.cos(el), math.sin(el)])
        strength = rng.uniform(0.35, 0.75)
        cool = np.array([rng.uniform(1.0, 1.12), 1.0, rng.uniform(0.88, 1.0)])
        lights.append(Light(cool * strength, direction=window, shadow_softness=rng.choice([0.0, 0.05, 0.3])))
    if not lights or rng.random() < 0.45:
        a = rng.uniform(0, 2 * math.pi)
        d = rng.uniform(25, 70)
        pos = centre + np.array([d * math.cos(a), d * math.sin(a), rng.uniform(35, 90)])
        lights.append(Light(_warm(rng) * rng.uniform(0.35, 0.7), position=pos, shadow_softness=rng.choice([0.0, 0.1])))
    hard = None
    if rng.random() < 0.3:  # the straight edge of a shadow from something outside the view
        ang = rng.uniform(0, math.pi)
        n = np.array([math.cos(ang), math.sin(ang)])
        off = rng.uniform(-10, 10)
        hard = (np.array([n[0], n[1], off + float(n @ centre[:2])]), rng.uniform(0.2, 0.45))
    axis = np.array([-math.cos(az), -math.sin(az)])
    return Lighting(ambient, lights, axis, rng.uniform(0.0, 0.35), hard, rng.uniform(0.0, 0.8), False)


def irradiance(light: Lighting, points: np.ndarray, normal: np.ndarray, centre: np.ndarray) -> np.ndarray:
    """BGR light falling on surface points (..., 3) with one ``normal``."""
    out = np.broadcast_to(light.ambient, points.shape).astype(np.float64).copy()
    for src in light.lights:
        to_l, strength = src.toward(points)
        cos = np.clip((to_l * normal).sum(-1), 0, None) * strength
        if src.position is None:
            along = ((points[..., :2] - centre[:2]) * light.window_axis).sum(-1)
            cos = cos * np.clip(1.0 - light.window_drop * along / 50.0, 0.3, 1.5)
        out += cos[..., None] * src.colour
    return out


def surface_field(light: Lighting, cam: Camera, k_canvas: np.ndarray, shape: tuple[int, int], z: float,
                  centre: np.ndarray) -> np.ndarray:
    """Irradiance (h, w, 3) float32 of the plane Z = z as seen in the canvas, smooth (low-res, upsampled)."""
    h, w = shape
    step = 16
    ys, xs = np.mgrid[0:h + step:step, 0:w + step:step].astype(np.float64)
    # back-project canvas pixels onto the plane
    rays = np.stack([(xs - k_canvas[0, 2]) / k_canvas[0, 0], (ys - k_canvas[1, 2]) / k_canvas[1, 1],
                     np.ones_like(xs)], -1) @ cam.R
    t = (z - cam.C[2]) / np.where(np.abs(rays[..., 2]) < 1e-9, -1e-9, rays[..., 2])
    pts = cam.C + rays * t[..., None]
    field = irradiance(light, pts, np.array([0.0, 0.0, 1.0]), centre).astype(np.float32)
    if light.hard_shadow is not None:
        plane, strength = light.hard_shadow
        n = plane[:2]
        foot = n * plane[2]
        world = np.array([[*(foot + 50 * np.array([-n[1], n[0]])), z], [*(foot - 50 * np.array([-n[1], n[0]])), z],
                          [*(foot + 10 * n), z]])
        pc = (world - cam.C) @ cam.R.T
        uv = np.stack([k_canvas[0, 0] * pc[:, 0] / pc[:, 2] + k_canvas[0, 2],
                       k_canvas[1, 1] * pc[:, 1] / pc[:, 2] + k_canvas[1, 2]], 1)
        (x0, y0), (x1, y1), (xs_, ys_) = uv
        yy, xx = np.ogrid[0:h, 0:w]
        side = (xx - x0) * (y1 - y0) - (yy - y0) * (x1 - x0)
        ref = (xs_ - x0) * (y1 - y0) - (ys_ - y0) * (x1 - x0)
        shaded = (side * np.sign(ref) > 0).astype(np.float32)
        shaded = cv2.GaussianBlur(shaded, (0, 0), 1.0)
        up = cv2.resize(field, (xs.shape[1] * step, xs.shape[0] * step), interpolation=cv2.INTER_LINEAR)[:h, :w]
        return up * (1.0 - strength * shaded[..., None])
    return cv2.resize(field, (xs.shape[1] * step, xs.shape[0] * step), interpolation=cv2.INTER_LINEAR)[:h, :w]


def glare_point(light: Lighting, cam: Camera) -> np.ndarray | None:
    """Where the brightest source's mirror reflection lands on the board plane (world), if anywhere."""
    if not light.lights or light.night:
        return None
    src = max(light.lights, key=lambda s: float(np.sum(s.colour)))
    c = cam.C
    if src.position is None:
        d = src.direction
        t = c[2] / d[2]
        return np.array([c[0] + t * d[0], c[1] + t * d[1], 0.0])
    mirror = src.position * np.array([1.0, 1.0, -1.0])
    s = c[2] / (c[2] - mirror[2])
    return c + s * (mirror - c)


def sensor(rng: random.Random, img: np.ndarray, night: bool, glare_px: np.ndarray | None, glare: float
           ) -> np.ndarray:
    """Float BGR scene radiance (0..255 scale) -> uint8 photo: glare, balance, vignetting, blur, noise."""
    h, w = img.shape[:2]
    out = img.astype(np.float32)
    if glare_px is not None and glare > 0.05 and -0.2 * w < glare_px[0] < 1.2 * w:
        gx, gy = float(glare_px[0]), float(glare_px[1])
        yy, xx = np.ogrid[0:h, 0:w]
        rad = rng.uniform(0.03, 0.12) * w
        blob = np.exp(-(((xx - gx) ** 2 + (yy - gy) ** 2 * rng.uniform(0.6, 1.6)) / (2 * rad * rad)))
        out += (glare * 160.0 * blob)[..., None].astype(np.float32)
    gains = np.array([rng.uniform(0.85, 1.15), 1.0, rng.uniform(0.85, 1.15)], np.float32)
    exposure = rng.uniform(0.85, 1.2) if not night else rng.uniform(0.9, 1.8)
    out *= gains * exposure
    yy, xx = np.ogrid[0:h, 0:w]
    r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / (w * w / 4 + h * h / 4)
    out *= (1.0 - rng.uniform(0.0, 0.3) * r2)[..., None].astype(np.float32)
    sigma = rng.uniform(0.3, 1.2)
    out = cv2.GaussianBlur(out, (0, 0), sigma)
    if rng.random() < 0.5:  # the camera's own sharpening (halos along strong edges)
        amount = rng.uniform(0.3, 0.9)
        out = out * (1 + amount) - cv2.GaussianBlur(out, (0, 0), rng.uniform(1.0, 2.5)) * amount
    nrng = np.random.default_rng(rng.randrange(1 << 30))
    read = rng.uniform(1.0, 3.0) if not night else rng.uniform(3.0, 7.0)
    shot = np.sqrt(np.clip(out, 0, None)) * rng.uniform(0.2, 0.6)
    out += nrng.standard_normal(out.shape, np.float32) * (read + shot)
    if night:  # chroma noise blotches of a high-gain sensor
        blot = nrng.standard_normal((h // 4 + 1, w // 4 + 1, 3), np.float32) * read * 0.6
        out += cv2.resize(blot, (w, h))
    return np.clip(out, 0, 255).astype(np.uint8)
