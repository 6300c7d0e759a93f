"""Light and sensor for the held-out renderer.

Scene light is built as two smooth fields at a quarter of the canvas size
(a multiplier per colour channel and an additive term), then scaled up: lamp
fall-off, colour cast, a lamp arm's shadow band, the companion's coloured LED
pools on some squares, specular glare, vignetting and exposure error by day;
a dark room, green-yellow glow from the glow paint and a dim red LED spill by
night. The sensor then adds motion blur now and then, noise and JPEG.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import cv2
import numpy as np

from tests.support.holdout_camera import Camera

LED_COLOURS = ((40.0, 40.0, 255.0), (60.0, 255.0, 60.0), (255.0, 90.0, 40.0), (30.0, 220.0, 255.0))  # BGR


@dataclass
class LightFields:
    """Per-pixel light on the canvas: ``gain`` (H, W, 3) multiplies surfaces, ``add`` (H, W, 3) adds light
    (``None`` when there is none); ``glow`` (3,) is the colour one unit of glow paint shines with (zero by day)."""

    gain: np.ndarray
    add: np.ndarray | None
    glow: np.ndarray


def _square_centre(cam: Camera, r: int, c: int, scale: float) -> tuple[np.ndarray, float]:
    p = cam.project_canvas(np.array([[c + 0.5, r + 0.5, 0.0]]))[0] * scale
    return p, cam.pixels_per_unit(np.array([c + 0.5, r + 0.5, 0.0])) * scale


def _disc(shape: tuple[int, int], centre: np.ndarray, radius: float, blur: float) -> np.ndarray:
    out = np.zeros(shape, np.float32)
    cv2.circle(out, (int(centre[0] * 16), int(centre[1] * 16)), int(max(radius, 0.5) * 16), 1.0, -1, cv2.LINE_AA, 4)
    return cv2.GaussianBlur(out, (0, 0), max(blur, 0.5))


def light_fields(rng: random.Random, cam: Camera, night: bool) -> LightFields:
    """The scene light of one shot, at full canvas size."""
    cw, ch = cam.canvas_size
    q = 0.25
    sw, sh = max(int(cw * q), 4), max(int(ch * q), 4)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    ppu = cam.pixels_per_unit(np.array([3.5, 3.5, 0.0])) * q
    gain = np.ones((sh, sw, 3), np.float32)
    add = np.zeros((sh, sw, 3), np.float32)
    diag = math.hypot(sw, sh)
    if night:
        ambient = rng.uniform(0.03, 0.12)
        gain *= np.array([1.15, 1.0, 0.85], np.float32) * ambient
        for _ in range(rng.randint(1, 5)):  # the companion's dim red/amber guidance light
            centre, rad = _square_centre(cam, rng.randrange(7), rng.randrange(7), q)
            spill = _disc((sh, sw), centre, rad * rng.uniform(0.5, 1.0), rad * 0.5)
            strength = rng.uniform(0.15, 0.55)  # a night cap of a few per cent: dim, but the camera is set for the dark
            gain += spill[..., None] * np.array([0.02, 0.1 * rng.random(), 1.0], np.float32) * strength
            add += spill[..., None] * np.array([0.0, 3.0, 25.0], np.float32) * strength
        lamp = np.array([rng.uniform(0, sw), rng.uniform(0, sh)])
        fall = 1.0 - rng.uniform(0.0, 0.5) * ((xx - lamp[0]) ** 2 + (yy - lamp[1]) ** 2) / diag**2
        gain *= fall[..., None]
        glow = np.array([rng.uniform(60, 120), rng.uniform(170, 240), rng.uniform(110, 190)], np.float32)
        glow *= rng.uniform(0.35, 0.8)
    else:
        kind = rng.random()
        cast = (np.array([0.78, 0.92, 1.08]) if kind < 0.35 else np.array([1.1, 1.0, 0.85]) if kind < 0.6
                else np.ones(3)) * np.array([rng.uniform(0.93, 1.07) for _ in range(3)])
        gain *= cast.astype(np.float32)
        lamp = np.array([rng.uniform(-0.3, 1.3) * sw, rng.uniform(-0.3, 1.3) * sh])
        fall = 1.0 - rng.uniform(0.0, 0.55) * ((xx - lamp[0]) ** 2 + (yy - lamp[1]) ** 2) / diag**2
        gain *= np.clip(fall, 0.3, 1.0)[..., None]
        if rng.random() < 0.55:  # a lamp arm's shadow: a soft band across the board
            centre = cam.project_canvas(np.array([[rng.uniform(1, 6), rng.uniform(1, 6), 0.0]]))[0] * q
            ang = rng.uniform(0, math.pi)
            dist = np.abs((xx - centre[0]) * math.sin(ang) - (yy - centre[1]) * math.cos(ang))
            width = ppu * rng.uniform(0.4, 1.8)
            band = np.clip((width / 2 - dist) / max(ppu * rng.uniform(0.1, 0.5), 1.0) + 0.5, 0.0, 1.0)
            gain *= (1.0 - rng.uniform(0.3, 0.6) * band)[..., None]
        if rng.random() < 0.6:  # the companion's LED light on a few squares
            for _ in range(rng.randint(1, 8)):
                centre, rad = _square_centre(cam, rng.randrange(7), rng.randrange(7), q)
                pool = _disc((sh, sw), centre, rad * rng.uniform(0.35, 0.8), rad * rng.uniform(0.2, 0.5))
                col = np.array(rng.choice(LED_COLOURS), np.float32) / 255.0
                gain += pool[..., None] * col * rng.uniform(0.3, 1.0)
                add += pool[..., None] * col * rng.uniform(0.0, 25.0)
        for _ in range(rng.choice([0, 0, 1, 1, 2])):  # specular glare off the glossy board
            centre = cam.project_canvas(np.array([[rng.uniform(0, 7), rng.uniform(0, 7), 0.0]]))[0] * q
            spot = _disc((sh, sw), centre, ppu * rng.uniform(0.3, 1.2), ppu * rng.uniform(0.3, 0.9))
            add += spot[..., None] * rng.uniform(60.0, 200.0)
        glow = np.zeros(3, np.float32)
    r2 = ((xx - sw / 2) ** 2 + (yy - sh / 2) ** 2) / (diag / 2) ** 2
    gain *= (1.0 - rng.uniform(0.1, 0.45) * r2)[..., None]
    if not night and rng.random() < 0.3:  # auto-exposure got it wrong
        gain *= rng.choice([rng.uniform(0.55, 0.8), rng.uniform(1.2, 1.5)])
    size = (cw, ch)
    full_add = cv2.resize(add, size, interpolation=cv2.INTER_LINEAR) if add.any() else None
    return LightFields(cv2.resize(gain, size, interpolation=cv2.INTER_LINEAR), full_add, glow)


def sensor(rng: random.Random, frame: np.ndarray, night: bool) -> np.ndarray:
    """Motion blur (sometimes), noise (heavy at night), as a uint8 frame."""
    if rng.random() < 0.12:
        length = rng.randint(3, 9)
        k = np.zeros((length, length), np.float32)
        ang = rng.uniform(0, math.pi)
        c = (length - 1) / 2
        cv2.line(k, (int(c - c * math.cos(ang)), int(c - c * math.sin(ang))),
                 (int(c + c * math.cos(ang)), int(c + c * math.sin(ang))), 1.0, 1)
        frame = cv2.filter2D(frame, -1, k / max(k.sum(), 1e-6))
    sigma = rng.uniform(6.0, 14.0) if night else rng.uniform(1.0, 5.0)
    h, w = frame.shape[:2]
    # OpenCV's generator is fast; seeding it from the scene keeps the noise deterministic
    cv2.setRNGSeed(rng.randrange(1 << 30))
    luma = np.empty((h, w), np.float32)
    cv2.randn(luma, 0.0, sigma)
    chroma = np.empty((h // 2 + 1, w // 2 + 1, 3), np.float32)
    cv2.randn(chroma, (0.0, 0.0, 0.0), (sigma * 0.5,) * 3)
    noise = cv2.resize(chroma, (w, h), interpolation=cv2.INTER_NEAREST)
    noise += luma[..., None]
    return cv2.add(frame, noise, dtype=cv2.CV_8U)  # saturating
