"""The fifth renderer's surroundings: the table, things lying beside the board, hands and arms.

The table is a textured plane under the board (wood, cloth, laminate). Cards and a phone
are thin slabs on it and a cup is a solid, all kept clear of the board so they never
hide a tile. A hand is an arm tube entering from any side plus a palm and fingers,
hovering a few centimetres over some square: it is a solid like the pawns, so it is lit
by the same lights and casts a soft shadow on the board.
"""

from __future__ import annotations

import math
import random

import cv2
import numpy as np

from tests.support.fifth_render_camera import Camera
from tests.support.fifth_render_solids import Mesh, ellipsoid, revolve, tube

TABLE_CM = 260.0


def table_texture(rng: random.Random, night: bool) -> tuple[np.ndarray, float]:
    """A table top texture covering TABLE_CM square around the board, and its px per cm."""
    ppc = 3.0
    n = int(TABLE_CM * ppc)
    nrng = np.random.default_rng(rng.randrange(1 << 30))
    kind = rng.choice(["wood", "wood", "cloth", "plain"])
    base = np.array(rng.choice([(40, 80, 130), (70, 110, 160), (30, 50, 80), (200, 200, 200), (90, 90, 95),
                                (60, 100, 60), (120, 80, 60)]), np.float32)
    base *= rng.uniform(0.8, 1.15)
    img = np.empty((n, n, 3), np.float32)
    img[:] = base
    if kind == "wood":
        ys = np.arange(n, dtype=np.float32)[:, None]
        grain = np.sin(ys / rng.uniform(3, 9) + 3 * np.sin(np.arange(n)[None, :] / rng.uniform(40, 120)))
        img *= (1.0 + 0.12 * grain + 0.05 * nrng.standard_normal((n, 1)).astype(np.float32))[..., None]
        if rng.random() < 0.5:
            img = cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)
    elif kind == "cloth":
        img += nrng.normal(0, 10, (n, n, 1)).astype(np.float32)
        img = cv2.GaussianBlur(img, (0, 0), 0.8)
    else:
        img += cv2.resize(nrng.normal(0, 8, (n // 40, n // 40, 1)).astype(np.float32), (n, n))[..., None]
    return np.clip(img, 0, 255).astype(np.uint8), ppc


def _clear_of(board_half: float, centre: np.ndarray, rng: random.Random, margin: float) -> np.ndarray:
    """A table point at least ``margin`` cm outside the board's square footprint."""
    side = rng.randrange(4)
    along = rng.uniform(-board_half - 10, board_half + 10)
    out = board_half + margin + rng.uniform(0, 12)
    offsets = [(along, out), (along, -out), (out, along), (-out, along)]
    return centre + np.array([*offsets[side], 0.0])


def flat_clutter(rng: random.Random, board_half: float, centre: np.ndarray, z: float
                 ) -> list[tuple[np.ndarray, tuple[int, int, int]]]:
    """Cards and a phone lying on the table: world polygons (4, 3) with their colours."""
    items = []
    for _ in range(rng.randint(0, 3)):
        kind = rng.choice(["card", "card", "phone"])
        w, h = (5.8, 8.8) if kind == "card" else (7.2, 15.0)
        pos = _clear_of(board_half, centre, rng, max(w, h) / 2 + 1.5)
        ang = rng.uniform(0, math.pi)
        ca, sa = math.cos(ang), math.sin(ang)
        corners = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
        xy = corners @ np.array([[ca, sa], [-sa, ca]]) + pos[:2]
        lift = 0.05 if kind == "card" else 0.8
        poly = np.column_stack([xy, np.full(4, z + lift)])
        colour = rng.choice([(230, 230, 235), (60, 60, 200), (200, 140, 40), (30, 170, 220)]) if kind == "card" \
            else (25, 25, 28)
        items.append((poly, colour))
    return items


def cup(rng: random.Random, board_half: float, centre: np.ndarray, z: float) -> Mesh:
    r = rng.uniform(3.5, 4.5)
    h = rng.uniform(8.0, 10.5)
    pos = _clear_of(board_half, centre, rng, r + 5.0)
    pos[2] = z
    prof = [(0.0, 0.0), (r, 0.0), (r, h), (r * 0.9, h), (r * 0.9, h * 0.85), (0.0, h * 0.85)]
    colour = rng.choice([(235, 235, 240), (40, 40, 160), (160, 110, 40), (40, 40, 40)])
    return Mesh(revolve(prof, pos, 28), colour, specular=0.5, shininess=40, shadow_z=z)


def hand(rng: random.Random, target: np.ndarray, top: float, ang: float | None = None,
         lift: tuple[float, float] = (2.5, 9.0)) -> list[Mesh]:
    """An arm reaching from outside the view to hold its hand over ``target`` (world XY).

    ``ang`` is the direction from the hand back toward the person (random when None).
    """
    if ang is None:
        ang = rng.uniform(0, 2 * math.pi)
    out = np.array([math.cos(ang), math.sin(ang), 0.0])
    palm_z = top + rng.uniform(*lift)
    palm = np.array([target[0], target[1], palm_z])
    side = np.cross(np.array([0.0, 0.0, 1.0]), out)
    skin = rng.choice([(150, 180, 225), (120, 155, 205), (90, 120, 170), (60, 85, 130)])
    skin = tuple(float(c) * rng.uniform(0.9, 1.1) for c in skin)
    wrist = palm + out * 5.5 + np.array([0, 0, 1.0])
    elbow = wrist + out * 26 + np.array([0, 0, rng.uniform(4, 8)])
    shoulder = elbow + out * 30 + np.array([0, 0, rng.uniform(5, 10)])
    path = np.array([shoulder, elbow, wrist + out * 1.0, wrist])
    radii = np.array([5.0, 4.0, 3.0, 2.6]) * rng.uniform(0.9, 1.1)
    meshes = []
    sleeve = rng.random() < 0.6
    if sleeve:
        cloth = rng.choice([(40, 40, 40), (150, 80, 30), (40, 40, 150), (200, 200, 200), (60, 120, 60)])
        cut = rng.uniform(0.35, 0.8)
        mid = elbow + (wrist - elbow) * cut
        meshes.append(Mesh(tube(np.array([shoulder, elbow, mid]), radii[:3] * 1.15), cloth, 0.05, 5, top + 0.2))
        meshes.append(Mesh(tube(np.array([mid, wrist]), np.array([radii[2], radii[3]])), skin, 0.15, 12, top + 0.2))
    else:
        meshes.append(Mesh(tube(path, radii), skin, 0.15, 12, top + 0.2))
    axes = np.stack([out * 5.0, side * 4.3, np.array([0.0, 0.0, 1.6])])
    meshes.append(Mesh(ellipsoid(palm, axes), skin, 0.15, 12, top + 0.2))
    curl = rng.uniform(0.0, 1.0)
    for k, off in enumerate((-3.0, -1.0, 1.0, 3.0)):
        length = (7.0, 8.0, 7.6, 6.0)[k] * rng.uniform(0.9, 1.1)
        start = palm - out * 4.2 + side * off * 0.95
        direction = -out + side * off * 0.04
        pts = [start]
        for s in range(1, 4):
            bend = np.array([0, 0, -curl * 1.6 * s])
            pts.append(start + direction * length * s / 3 + bend)
        meshes.append(Mesh(tube(np.array(pts), np.full(4, 0.8)), skin, 0.15, 12, top + 0.2))
    thumb_side = rng.choice([-1.0, 1.0])
    t0 = palm + side * thumb_side * 3.5
    thumb = np.array([t0, t0 + side * thumb_side * 2.5 - out * 2.5, t0 + side * thumb_side * 3.0 - out * 5.0])
    meshes.append(Mesh(tube(thumb, np.full(3, 0.95)), skin, 0.15, 12, top + 0.2))
    return meshes


def draw_flat(canvas: np.ndarray, k_canvas: np.ndarray, cam: Camera, poly: np.ndarray,
              colour: tuple[float, float, float]) -> None:
    """Fill a world polygon (N, 3) into the canvas."""
    pc = (poly - cam.C) @ cam.R.T
    uv = np.stack([k_canvas[0, 0] * pc[:, 0] / pc[:, 2] + k_canvas[0, 2],
                   k_canvas[1, 1] * pc[:, 1] / pc[:, 2] + k_canvas[1, 2]], 1)
    cv2.fillPoly(canvas, [np.round(uv * 16).astype(np.int32)], colour, cv2.LINE_AA, 4)
