"""Room light for the fourth renderer, as a low-resolution map over the table plane.

Day: a colour temperature, a window gradient across the table, sometimes a
warm lamp, hard shadows of things outside the picture (a window bar, a lamp
arm, a person's head) falling across the board, and LED light on a few
squares. Night: a dark room (faint blue or warm ambient), dim red/amber or
coloured LED spill, and the glow of the board's walls and pictures (added at
composition, not here). The key light (direction, ambient/diffuse balance)
shades the standing figures and points their cast shadows.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tests.support.fourth_render_figures import Light

LED_DAY = ((1.0, 0.15, 0.1), (1.0, 0.55, 0.1), (0.2, 1.0, 0.3), (0.2, 0.4, 1.0), (1.0, 1.0, 1.0), (0.8, 0.2, 1.0))
LED_NIGHT = ((1.0, 0.12, 0.05), (1.0, 0.45, 0.08), (1.0, 0.25, 0.05), (0.2, 0.5, 1.0), (0.3, 1.0, 0.4))


@dataclass
class Lighting:
    """Illumination over the table (``illum``: low-res RGB texture) plus the key light and night glow."""

    illum: np.ndarray
    light: Light
    night: bool
    glow_strength: float
    shadow_strength: float


def _blob(xs: np.ndarray, ys: np.ndarray, cx: float, cy: float, radius: float) -> np.ndarray:
    return np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * radius**2)).astype(np.float32)


def build_lighting(
    rng: np.random.Generator, night: bool, xs: np.ndarray, ys: np.ndarray, px_per_tile: float
) -> Lighting:
    """Light over table points ``xs, ys`` (world tiles, one per low-res texture pixel)."""
    h, w = xs.shape
    azimuth = rng.uniform(0, 2 * np.pi)
    elevation = np.radians(rng.uniform(35, 75))
    direction = np.array([np.cos(azimuth) * np.cos(elevation), np.sin(azimuth) * np.cos(elevation), np.sin(elevation)])
    squares = rng.integers(0, 7, (8, 2)) + 0.5
    if not night:
        warm = rng.uniform(-1, 1)
        tint = np.array([1 + 0.12 * warm, 1.0, 1 - 0.18 * warm], np.float32)
        illum = np.ones((h, w, 3), np.float32) * tint * rng.uniform(0.85, 1.1)
        if rng.uniform() < 0.65:  # window light: brighter toward the key light's side
            along = (xs - 3.5) * np.cos(azimuth) + (ys - 3.5) * np.sin(azimuth)
            span = rng.uniform(8, 25)
            illum *= (1 + rng.uniform(0.2, 0.55) * np.tanh(along / span * 2))[..., None]
        if rng.uniform() < 0.35:  # a warm lamp
            cx, cy = rng.uniform(-6, 13, 2)
            lamp = _blob(xs, ys, cx, cy, rng.uniform(4, 10))
            illum += lamp[..., None] * np.array([1.0, 0.72, 0.4], np.float32) * rng.uniform(0.2, 0.6)
        if rng.uniform() < 0.35:  # hard shadows of things outside the picture
            mask = np.zeros((h, w), np.float32)
            for _ in range(int(rng.integers(1, 3))):
                _hard_shadow(rng, mask, xs, ys)
            mask = cv2.GaussianBlur(mask, (0, 0), max(0.6, rng.uniform(0.02, 0.12) * px_per_tile))
            illum *= (1 - rng.uniform(0.25, 0.5) * mask)[..., None]
        if rng.uniform() < 0.3:
            for k in range(int(rng.integers(1, 5))):
                colour = np.array(LED_DAY[int(rng.integers(len(LED_DAY)))], np.float32)
                illum += _blob(xs, ys, *squares[k], rng.uniform(0.4, 0.9))[..., None] * colour * rng.uniform(0.1, 0.3)
        light = Light(direction, ambient=float(rng.uniform(0.35, 0.55)), diffuse=float(rng.uniform(0.5, 0.7)))
        return Lighting(illum, light, False, 0.0, float(rng.uniform(0.35, 0.6)))
    tint = np.array([0.75, 0.85, 1.0] if rng.uniform() < 0.6 else [1.0, 0.85, 0.65], np.float32)
    illum = np.ones((h, w, 3), np.float32) * tint * rng.uniform(0.02, 0.09)
    if rng.uniform() < 0.5:  # light from a doorway or screen somewhere off the table
        along = (xs - 3.5) * np.cos(azimuth) + (ys - 3.5) * np.sin(azimuth)
        illum *= (1 + 0.6 * np.tanh(along / 10))[..., None]
    for k in range(int(rng.integers(1, 7))):
        colour = np.array(LED_NIGHT[int(rng.integers(len(LED_NIGHT)))], np.float32)
        illum += _blob(xs, ys, *squares[k], rng.uniform(0.4, 1.2))[..., None] * colour * rng.uniform(0.05, 0.3)
    light = Light(direction, ambient=float(rng.uniform(0.5, 0.7)), diffuse=float(rng.uniform(0.3, 0.5)))
    return Lighting(illum, light, True, float(rng.uniform(0.18, 0.55)), float(rng.uniform(0.1, 0.25)))


def _hard_shadow(rng: np.random.Generator, mask: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> None:
    """A bar (window frame, lamp arm) or a round blob (a head) across the board, in place on ``mask``."""
    cx, cy = rng.uniform(0.5, 6.5, 2)
    if rng.uniform() < 0.65:
        a = rng.uniform(0, np.pi)
        dist = np.abs((xs - cx) * np.sin(a) - (ys - cy) * np.cos(a))
        np.maximum(mask, (dist < rng.uniform(0.25, 1.2)).astype(np.float32), out=mask)
    else:
        rx, ry = rng.uniform(1.0, 2.5, 2)
        np.maximum(mask, (((xs - cx) / rx) ** 2 + ((ys - cy) / ry) ** 2 < 1).astype(np.float32), out=mask)
