"""Hands, sleeves and flat things for the fourth renderer.

A hand is built in world units (a real hand is four to five tiles long), held
1-3 tiles above the table and reaching toward a point, its arm and sleeve
running out of the picture toward any side; it is projected through the
camera, so it grows toward the lens, and it casts a soft shadow along the key
light. Cards, a phone and a box lid are flat rectangles a little above the
table. All parts are filled polygons with antialiased coverage and simple
shading (cylindrical light across arms and fingers, knuckle creases).
"""

from __future__ import annotations

import cv2
import numpy as np

from tests.support.fourth_render_camera import Camera
from tests.support.fourth_render_figures import Layer, Light

SKINS = ((0.93, 0.76, 0.64), (0.85, 0.64, 0.50), (0.72, 0.52, 0.38), (0.55, 0.38, 0.27), (0.38, 0.26, 0.19))


def fill(layer: Layer, poly: np.ndarray, rgb: np.ndarray | tuple[float, ...]) -> None:
    """Fill an image-space polygon on the layer with antialiased coverage."""
    w, h = layer.size
    x0, y0 = np.clip(np.floor(poly.min(0)).astype(int) - 2, 0, [w, h])
    x1, y1 = np.clip(np.ceil(poly.max(0)).astype(int) + 2, 0, [w, h])
    if x1 <= x0 or y1 <= y0:
        return
    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(m, [np.round((poly - [x0, y0]) * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
    a = m.astype(np.float32) / 255
    layer.composite(int(x0), int(y0), np.broadcast_to(np.asarray(rgb, np.float32), (*a.shape, 3)), a)


def _capsule(a: np.ndarray, b: np.ndarray, width: float, n: int = 8) -> np.ndarray:
    """Outline (world, at the points' heights) of a rounded bar from ``a`` to ``b``."""
    d = b[:2] - a[:2]
    d = d / (np.linalg.norm(d) + 1e-9)
    p = np.array([-d[1], d[0]])
    ang = np.linspace(-np.pi / 2, np.pi / 2, n)
    cap_b = [b[:2] + width / 2 * (np.cos(t) * d + np.sin(t) * p) for t in ang]
    cap_a = [a[:2] + width / 2 * (-np.cos(t) * d - np.sin(t) * p) for t in ang]
    pts2 = np.array(cap_b + cap_a)
    z = np.concatenate([np.full(n, b[2]), np.full(n, a[2])])
    return np.column_stack([pts2, z])


def _shadow(layer: Layer, cam: Camera, world: np.ndarray, light: Light, strength: float) -> None:
    d = light.direction
    push = -d[:2] / max(d[2], 0.25)
    ground = world[:, :2] + world[:, 2:3] * push
    layer.cast(cam.project(np.column_stack([ground, np.zeros(len(ground))])), strength, soft=True)


def _shaded_bar(
    layer: Layer, cam: Camera, a: np.ndarray, b: np.ndarray, width: float, rgb: np.ndarray, light: Light
) -> None:
    """A limb: dark outline, then a lit core shifted toward the light (reads as a cylinder)."""
    fill(layer, cam.project(_capsule(a, b, width)), rgb * light.ambient * 1.6)
    d = light.direction
    shift = np.append(d[:2] * width * 0.12, 0.0)
    fill(layer, cam.project(_capsule(a + shift, b + shift, width * 0.7)), rgb * (light.ambient + light.diffuse * 0.75))
    fill(layer, cam.project(_capsule(a + 2 * shift, b + 2 * shift, width * 0.3)), rgb * (light.ambient + light.diffuse))


def draw_hand(
    layer: Layer,
    cam: Camera,
    rng: np.random.Generator,
    target: np.ndarray,
    outward: np.ndarray,
    light: Light,
    with_fingers: bool = True,
) -> None:
    """A hand reaching to ``target`` (table x, y) from direction ``outward`` (unit, table plane)."""
    skin = np.array(SKINS[int(rng.integers(len(SKINS)))], np.float32) * rng.uniform(0.92, 1.05)
    sleeve = rng.uniform(0.05, 0.9, 3).astype(np.float32)
    z = rng.uniform(0.8, 3.0)
    out = np.append(outward / np.linalg.norm(outward), 0.0)
    side = np.array([-out[1], out[0], 0.0])
    rise = np.array([0, 0, rng.uniform(0.05, 0.2)])
    tip = np.array([target[0], target[1], z])
    palm_len, palm_w = rng.uniform(1.8, 2.4), rng.uniform(1.7, 2.3)
    finger_len = rng.uniform(1.4, 2.0) if with_fingers else 0.0
    wrist = tip + out * (palm_len + finger_len * 0.9) + rise * 2
    far = wrist + out * 40 + rise * 40
    cuff = wrist + out * rng.uniform(0.5, 2.5) + rise
    sleeve_w = rng.uniform(2.2, 3.4)
    arm_w = rng.uniform(1.4, 1.8)
    parts = [
        _capsule(cuff, far, sleeve_w),
        _capsule(wrist, cuff + out, arm_w),
        _capsule(wrist - out * palm_len * 0.5, wrist - out * palm_len * 0.5, palm_w),
    ]
    for part in parts:
        _shadow(layer, cam, part, light, rng.uniform(0.35, 0.6))
    _shaded_bar(layer, cam, wrist, cuff + out, arm_w, skin, light)
    _shaded_bar(layer, cam, cuff, far, sleeve_w, sleeve, light)
    if rng.uniform() < 0.5:  # striped knit
        for k in range(1, 12):
            p = cuff + out * (k * 0.8)
            band = np.array(
                [
                    p - side * sleeve_w * 0.5,
                    p + side * sleeve_w * 0.5,
                    p + side * sleeve_w * 0.5 + out * 0.25,
                    p - side * sleeve_w * 0.5 + out * 0.25,
                ]
            )
            fill(layer, cam.project(band), sleeve * 0.55)
    palm_c = wrist - out * palm_len * 0.5
    knuckles = wrist - out * palm_len
    fill(
        layer, cam.project(_capsule(wrist - out * 0.2, knuckles, palm_w)), skin * (light.ambient + light.diffuse * 0.6)
    )
    fill(
        layer,
        cam.project(_capsule(palm_c + np.append(light.direction[:2] * 0.2, 0), knuckles, palm_w * 0.6)),
        skin * (light.ambient + light.diffuse * 0.85),
    )
    spread = rng.uniform(0.0, 0.25)
    for i in range(4):
        if not with_fingers:
            break
        off = (i - 1.5) / 1.5
        base = knuckles + side * off * palm_w * 0.36
        direction = -out * np.cos(off * spread) + side * np.sin(off * spread)
        length = finger_len * (1.0 - 0.18 * abs(i - 1.3))
        end = base + direction * length - np.array([0, 0, 0.3])
        _shadow(layer, cam, _capsule(base, end, 0.42), light, 0.5)
        _shaded_bar(layer, cam, base, end, rng.uniform(0.38, 0.48), skin, light)
        crease = base + direction * length * 0.5
        fill(layer, cam.project(_capsule(crease - side * 0.12, crease + side * 0.12, 0.05)), skin * 0.5)
    thumb_side = side if rng.uniform() < 0.5 else -side
    t0 = wrist - out * palm_len * 0.35 + thumb_side * palm_w * 0.45
    t1 = t0 - out * 0.9 + thumb_side * 0.7
    _shaded_bar(layer, cam, t0, t1, 0.55, skin, light)


def draw_flat(
    layer: Layer,
    cam: Camera,
    centre: np.ndarray,
    size: tuple[float, float],
    angle: float,
    height: float,
    rgb: np.ndarray,
    light: Light,
    kind: str,
    rng: np.random.Generator,
) -> None:
    """A card, phone or box lid: a rectangle at ``height`` with a printed face."""
    a = np.radians(angle)
    ax, ay = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    w, h = size
    rect = np.array([centre + sx * w / 2 * ax + sy * h / 2 * ay for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
    world = np.column_stack([rect, np.full(4, height)])
    _shadow(layer, cam, world, light, 0.45)
    fill(layer, cam.project(world), rgb * (light.ambient + light.diffuse * light.direction[2]))
    inner = np.column_stack([centre + (rect - centre) * (0.82 if kind != "phone" else 0.9), np.full(4, height)])
    if kind == "phone":
        fill(layer, cam.project(inner), np.array([0.05, 0.06, 0.08], np.float32) + rng.uniform(0, 0.2))
    elif kind == "card":
        face = rng.uniform(0.2, 0.95, 3).astype(np.float32)
        fill(layer, cam.project(inner), face * (light.ambient + light.diffuse * light.direction[2]))
        blob = np.column_stack([centre + (rect - centre) * 0.35, np.full(4, height)])
        fill(layer, cam.project(blob), rng.uniform(0.1, 0.9, 3).astype(np.float32))
    else:  # box lid: printed art in bands
        for k in range(3):
            band = np.column_stack([centre + (rect - centre) * (0.8 - 0.25 * k), np.full(4, height)])
            fill(
                layer,
                cam.project(band),
                rng.uniform(0.1, 0.95, 3).astype(np.float32) * (light.ambient + light.diffuse * 0.7),
            )
