"""The table under the board: a surface (wood, tablecloth, felt) and flat things lying on it.

Painted as a texture of the table plane (world units = tile pitches) covering
``region`` at ``s`` pixels per unit, with the board's drop shadow, the spare
tile, another game's box, scattered cards (some printed in red, green, blue or
yellow: colours that must not be taken for pawns), coins and a phone. Nothing is
put on the board itself: a thing over the board is an occlusion, made elsewhere.
"""

from __future__ import annotations

import math
import random

import cv2
import numpy as np

from tests.support.holdout_art import Colour, hsv_colour, value_noise

Region = tuple[float, float, float, float]  # x0, y0, x1, y1 in world units

SURFACES = ("wood", "gingham", "stripes", "dots", "felt")
PRINT_COLOURS: tuple[Colour, ...] = (
    (40.0, 40.0, 210.0), (60.0, 170.0, 50.0), (200.0, 110.0, 30.0), (30.0, 210.0, 235.0),
)  # fmt: skip


def _surface(kind: str, rng: random.Random, nrng: np.random.Generator, shape: tuple[int, int], s: float) -> np.ndarray:
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "wood":
        base = np.array(hsv_colour(rng.uniform(0.05, 0.1), rng.uniform(0.4, 0.75), rng.uniform(0.3, 0.75)), np.float32)
        angle = rng.uniform(0, math.pi)
        along = xx * math.cos(angle) + yy * math.sin(angle)
        across = -xx * math.sin(angle) + yy * math.cos(angle)
        warp = value_noise(nrng, shape, s * 1.5, 3) * s * 0.8
        period = s * rng.uniform(0.08, 0.2)
        grain = np.sin((across + warp) * (2 * np.pi / period)) + 0.5 * value_noise(nrng, shape, s * 0.3, 2)
        plank = s * rng.uniform(2.5, 5.0)
        seams = (np.abs(((across + 0.0 * along) % plank) - plank / 2) > plank / 2 - max(s * 0.03, 1.0))
        shade = 1.0 + 0.1 * grain - 0.4 * seams
        return base * shade[..., None]
    if kind in ("gingham", "stripes", "dots"):
        c1 = np.array(hsv_colour(rng.random(), rng.uniform(0.3, 0.9), rng.uniform(0.4, 0.9)), np.float32)
        c2 = np.array(hsv_colour(rng.random(), rng.uniform(0.0, 0.2), rng.uniform(0.8, 0.97)), np.float32)
        period = s * rng.uniform(0.6, 1.8)
        angle = rng.uniform(0, math.pi)
        u = xx * math.cos(angle) + yy * math.sin(angle)
        v = -xx * math.sin(angle) + yy * math.cos(angle)
        edge = 2.0 * period / max(s * 0.05, 0.5)  # sharpness: about one texture pixel wide, no stair steps
        if kind == "gingham":
            a = np.clip(np.sin(u * (2 * np.pi / period)) * edge, -1, 1) * 0.5 + 0.5
            b = np.clip(np.sin(v * (2 * np.pi / period)) * edge, -1, 1) * 0.5 + 0.5
            mix = (a + b) / 2.0
        elif kind == "stripes":
            mix = np.clip(np.sin(u * (3 * np.pi / period)) * edge, -1, 1) * 0.5 + 0.5
        else:
            mix = 1.0 - (np.hypot((u % period) - period / 2, (v % period) - period / 2) < period * 0.18)
            mix = mix.astype(np.float32)
        weave = 1.0 + 0.06 * np.sin(xx * 2.1) * np.sin(yy * 2.1) + 0.05 * value_noise(nrng, shape, s * 0.7, 2)
        return (c1 * (1.0 - mix[..., None]) + c2 * mix[..., None]) * weave[..., None]
    base = np.array(hsv_colour(rng.random(), rng.uniform(0.2, 0.7), rng.uniform(0.2, 0.55)), np.float32)
    return base * (1.0 + 0.08 * value_noise(nrng, shape, s * 0.2, 4))[..., None]


def _to_px(points: np.ndarray, region: Region, s: float) -> np.ndarray:
    return np.round((points - np.array(region[:2])) * s * 16).astype(np.int32)


def _rect(cx: float, cy: float, w: float, h: float, angle: float) -> np.ndarray:
    c, sn = math.cos(angle), math.sin(angle)
    pts = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return pts @ np.array([[c, sn], [-sn, c]]) + np.array([cx, cy])


def _clear_of_board(cx: float, cy: float, radius: float, keep_out: float) -> bool:
    lo, hi = -keep_out, 7.0 + keep_out
    nx, ny = min(max(cx, lo), hi), min(max(cy, lo), hi)
    return math.hypot(cx - nx, cy - ny) > radius


def table_texture(
    rng: random.Random,
    region: Region,
    s: float,
    frame_width: float,
    shadow_dir: tuple[float, float],
    spare: tuple[np.ndarray, np.ndarray] | None,
) -> tuple[np.ndarray, np.ndarray]:
    """(BGR uint8, glow uint8) of the table plane over ``region``; ``spare`` is a tile piece's art."""
    nrng = np.random.default_rng(rng.randrange(1 << 30))
    x0, y0, x1, y1 = region
    w, h = max(int((x1 - x0) * s), 8), max(int((y1 - y0) * s), 8)
    rgb = _surface(rng.choice(SURFACES), rng, nrng, (h, w), s)
    glow = np.zeros((h, w), np.float32)
    keep = frame_width + 0.15
    # the board's drop shadow (the board is a few millimetres thick)
    off = np.array(shadow_dir) * rng.uniform(0.08, 0.2)
    outline = np.array([[-frame_width, -frame_width], [7 + frame_width, -frame_width],
                        [7 + frame_width, 7 + frame_width], [-frame_width, 7 + frame_width]]) + off
    shadow = np.zeros((h, w), np.float32)
    cv2.fillPoly(shadow, [_to_px(outline, region, s)], 1.0, cv2.LINE_AA, 4)
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(s * 0.08, 1.0))
    rgb *= (1.0 - 0.5 * shadow)[..., None]

    def place(radius: float, tries: int = 30) -> tuple[float, float] | None:
        for _ in range(tries):
            cx, cy = rng.uniform(x0, x1), rng.uniform(y0, y1)
            if _clear_of_board(cx, cy, radius, keep):
                return cx, cy
        return None

    if rng.random() < 0.45:  # another game's box, partly in view
        spot = place(4.0)
        if spot:
            box = _rect(spot[0], spot[1], rng.uniform(6, 10), rng.uniform(4, 7), rng.uniform(0, math.pi))
            lid = np.array(hsv_colour(rng.random(), rng.uniform(0.4, 0.9), rng.uniform(0.4, 0.9)), np.float32)
            cv2.fillPoly(rgb, [_to_px(box + off * 3, region, s)], (15.0, 15.0, 15.0), cv2.LINE_AA, 4)
            cv2.fillPoly(rgb, [_to_px(box, region, s)], lid.tolist(), cv2.LINE_AA, 4)
            for _ in range(rng.randint(2, 5)):
                c = box.mean(axis=0) + np.array([rng.uniform(-2.5, 2.5), rng.uniform(-1.5, 1.5)])
                art = _rect(c[0], c[1], rng.uniform(0.5, 2.5), rng.uniform(0.3, 1.5), rng.uniform(0, 3))
                cv2.fillPoly(rgb, [_to_px(art, region, s)], hsv_colour(rng.random(), 0.8, 0.9), cv2.LINE_AA, 4)
    for _ in range(rng.randint(0, 7)):  # cards
        spot = place(1.5)
        if spot is None:
            continue
        angle = rng.uniform(0, math.pi)
        card = _rect(spot[0], spot[1], 1.6, 2.4, angle)
        cv2.fillPoly(rgb, [_to_px(card + off * 0.4, region, s)], (20.0, 20.0, 20.0), cv2.LINE_AA, 4)
        cv2.fillPoly(rgb, [_to_px(card, region, s)], (235.0, 238.0, 240.0), cv2.LINE_AA, 4)
        inner = _rect(spot[0], spot[1], 1.3, 2.1, angle)
        cv2.fillPoly(rgb, [_to_px(inner, region, s)], rng.choice(PRINT_COLOURS), cv2.LINE_AA, 4)
        blob_c = (int((spot[0] - x0) * s * 16), int((spot[1] - y0) * s * 16))
        cv2.circle(rgb, blob_c, int(0.45 * s * 16), hsv_colour(rng.random(), 0.9, 0.9), -1, cv2.LINE_AA, 4)
    for _ in range(rng.randint(0, 5)):  # coins
        radius = rng.uniform(0.3, 0.45)
        spot = place(radius)
        if spot is None:
            continue
        metal = rng.choice([(60.0, 170.0, 215.0), (190.0, 190.0, 195.0), (60.0, 110.0, 180.0)])
        c = (int((spot[0] - x0) * s * 16), int((spot[1] - y0) * s * 16))
        r = int(radius * s * 16)
        cv2.circle(rgb, c, r, tuple(v * 0.6 for v in metal), -1, cv2.LINE_AA, 4)
        cv2.circle(rgb, c, int(r * 0.85), metal, -1, cv2.LINE_AA, 4)
    if rng.random() < 0.35:  # a phone
        spot = place(2.2)
        if spot:
            angle = rng.uniform(0, math.pi)
            body = _rect(spot[0], spot[1], 2.0, 4.1, angle)
            screen = _rect(spot[0], spot[1], 1.8, 3.7, angle)
            cv2.fillPoly(rgb, [_to_px(body, region, s)], (25.0, 25.0, 28.0), cv2.LINE_AA, 4)
            cv2.fillPoly(rgb, [_to_px(screen, region, s)], (55.0, 45.0, 40.0), cv2.LINE_AA, 4)
    if spare is not None:
        spot = place(0.8, 60)
        if spot:
            srgb, sglow = spare
            n = srgb.shape[0]
            angle = rng.uniform(-40, 40)
            m = cv2.getRotationMatrix2D((n / 2, n / 2), angle, s / n)
            m[0, 2] += (spot[0] - x0) * s - n / 2
            m[1, 2] += (spot[1] - y0) * s - n / 2
            alpha = cv2.warpAffine(np.ones((n, n), np.float32), m, (w, h))
            piece = cv2.warpAffine(srgb.astype(np.float32), m, (w, h))
            gpiece = cv2.warpAffine(sglow.astype(np.float32), m, (w, h))
            edge = np.roll(alpha, (int(shadow_dir[1] * s * 0.05 + 1), int(shadow_dir[0] * s * 0.05 + 1)), (0, 1))
            rgb *= (1.0 - 0.6 * np.clip(edge - alpha, 0, 1))[..., None]
            rgb = rgb * (1.0 - alpha[..., None]) + piece * alpha[..., None]
            glow = np.maximum(glow, gpiece * alpha)
    return np.clip(rgb, 0, 255).astype(np.uint8), np.clip(glow, 0, 255).astype(np.uint8)
