"""The fifth renderer's solids: pawns, hands and cups as quad meshes, shaded and shadowed.

Solids are built in world centimetres (see ``fifth_render_camera``) so their projection
carries the camera's real perspective: a pawn near the image edge leans outward, its
top hides the tiles behind it, and its shadow is the mesh itself projected onto the
surface it stands on along the direction to each light. Quads are ordered far to
near (painter's algorithm) after back-face culling, and lit with Lambert diffuse plus
Blinn-Phong specular from the same lights that darken the board.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import cv2
import numpy as np

from tests.support.fifth_render_camera import Camera


@dataclass
class Light:
    """A directional light (``position`` None, ``direction`` toward the light) or a point lamp."""

    colour: np.ndarray  # BGR, 1.0 = white at full strength
    direction: np.ndarray | None = None
    position: np.ndarray | None = None
    shadow_softness: float = 0.0  # blur of its shadows, cm at the surface

    def toward(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Unit vectors from points toward the light, and the light's strength there."""
        if self.position is None:
            d = np.broadcast_to(self.direction, points.shape)
            return d, np.ones(points.shape[:-1])
        v = self.position - points
        dist = np.linalg.norm(v, axis=-1, keepdims=True)
        ref = float(self.position[2])
        return v / dist, (ref / dist[..., 0]) ** 2


@dataclass
class Mesh:
    """Quads (N, 4, 3) in world cm with one base colour and a plastic/skin material."""

    quads: np.ndarray
    colour: tuple[float, float, float]
    specular: float = 0.3
    shininess: float = 30.0
    shadow_z: float | None = 0.0  # the plane its shadow falls on (None: casts none)
    extra: dict[str, float] = field(default_factory=dict)


def _grid_quads(grid: np.ndarray, closed: bool = True) -> np.ndarray:
    """A (P, T, 3) vertex grid (profile x around) -> quads wound so cross(e_around, e_up) points out."""
    a = grid[:-1]
    b = np.roll(grid, -1, axis=1)[:-1] if closed else grid[:-1, 1:]
    c = np.roll(grid, -1, axis=1)[1:] if closed else grid[1:, 1:]
    d = grid[1:] if closed else grid[1:, :-1]
    if not closed:
        a = a[:, :-1]
    return np.stack([a, b, c, d], axis=2).reshape(-1, 4, 3)


def revolve(profile: list[tuple[float, float]], base: np.ndarray, n: int = 22) -> np.ndarray:
    """Surface of revolution of (radius, height) pairs (bottom to top) standing on ``base``."""
    th = np.linspace(0, 2 * math.pi, n, endpoint=False)
    pr = np.asarray(profile, np.float64)
    grid = np.empty((len(pr), n, 3))
    grid[..., 0] = base[0] + pr[:, :1] * np.cos(th)
    grid[..., 1] = base[1] + pr[:, :1] * np.sin(th)
    grid[..., 2] = base[2] + pr[:, 1:2]
    return _grid_quads(grid)


def _ball(radius: float, z0: float, steps: int = 7) -> list[tuple[float, float]]:
    return [(radius * math.sin(a), z0 + radius - radius * math.cos(a))
            for a in np.linspace(0.0, math.pi, steps)]


def pawn_mesh(rng: random.Random, kind: str, colour: tuple[float, float, float], base: np.ndarray,
              height: float, radius: float) -> Mesh:
    """One pawn of base ``radius`` standing on ``base``: cone with ball head, chess pawn, cylinder, meeple."""
    h = height
    r0 = radius
    if kind == "cone":
        head = rng.uniform(0.16, 0.22) * h
        r0 = max(r0, head * 1.1)
        prof = [(0.0, 0.0), (r0, 0.0), (r0, 0.06 * h), (head * 0.45, h - 1.8 * head)]
        prof += _ball(head, h - 2 * head)[1:]
        quads = revolve(prof, base)
    elif kind == "chess":
        head = rng.uniform(0.17, 0.21) * h
        prof = [(0.0, 0.0), (r0, 0.0), (r0, 0.1 * h), (r0 * 0.8, 0.16 * h), (r0 * 0.45, 0.3 * h),
                (r0 * 0.3, 0.55 * h), (r0 * 0.6, 0.6 * h), (r0 * 0.6, 0.64 * h), (head * 0.5, h - 1.9 * head)]
        prof += _ball(head, h - 2 * head)[1:]
        quads = revolve(prof, base)
    elif kind == "cylinder":
        prof = [(0.0, 0.0), (r0, 0.0), (r0, 0.85 * h), (r0 * 0.85, 0.97 * h), (r0 * 0.5, h), (0.0, h)]
        quads = revolve(prof, base)
    else:
        quads = _meeple(h, r0, rng.uniform(0, math.pi), base)
    return Mesh(quads, colour, specular=rng.uniform(0.15, 0.7), shininess=rng.uniform(10, 60), shadow_z=base[2])


def _meeple(h: float, r0: float, yaw: float, base: np.ndarray) -> np.ndarray:
    """A meeple outline extruded front to back, as quads (faces fanned from the outline's centre)."""
    w = 2 * r0
    outline = np.array([(-0.5, 0), (-0.15, 0), (0, 0.22), (0.15, 0), (0.5, 0), (0.38, 0.35), (0.5, 0.58),
                        (0.2, 0.66), (0.17, 0.8), (0.0, 1.0), (-0.17, 0.8), (-0.2, 0.66), (-0.5, 0.58),
                        (-0.38, 0.35)])
    x = outline[:, 0] * w
    z = outline[:, 1] * h
    t = 0.16 * h
    quads = []
    ca, sa = math.cos(yaw), math.sin(yaw)
    def world(px: float, py: float, pz: float) -> np.ndarray:
        return base + np.array([px * ca - py * sa, px * sa + py * ca, pz])
    n = len(outline)
    centre = (0.0, 0.45 * h)
    for i in range(n):
        j = (i + 1) % n
        # side wall (outline runs clockwise seen from the front: outward normal from this winding)
        quads.append([world(x[j], -t, z[j]), world(x[i], -t, z[i]), world(x[i], t, z[i]), world(x[j], t, z[j])])
        for side in (-t, t):
            tri = [world(centre[0], side, centre[1]), world(x[i], side, z[i]), world(x[j], side, z[j])]
            tri.append(tri[-1])
            quads.append(tri if side > 0 else tri[::-1])
    arr = np.array(quads)
    # wind every face outward (away from the figure's middle)
    mid = base + np.array([0.0, 0.0, 0.45 * h])
    out = (_normals(arr) * (arr.mean(axis=1) - mid)).sum(1) < 0
    arr[out] = arr[out][:, ::-1]
    return arr


def tube(path: np.ndarray, radii: np.ndarray, n: int = 12) -> np.ndarray:
    """A tube along a polyline with per-point radii, closed by a ball at the far end."""
    grid = []
    for i, p in enumerate(path):
        d = path[min(i + 1, len(path) - 1)] - path[max(i - 1, 0)]
        d /= np.linalg.norm(d)
        ref = np.array([0.0, 0.0, 1.0]) if abs(d[2]) < 0.9 else np.array([1.0, 0.0, 0.0])
        u = np.cross(d, ref)
        u /= np.linalg.norm(u)
        v = np.cross(d, u)
        th = np.linspace(0, 2 * math.pi, n, endpoint=False)[:, None]
        grid.append(p + radii[i] * (np.cos(th) * u + np.sin(th) * v))
    tip = ellipsoid(path[-1], np.eye(3) * radii[-1], steps=6, n=n)
    return np.concatenate([_grid_quads(np.array(grid)), tip])


def ellipsoid(centre: np.ndarray, axes: np.ndarray, steps: int = 10, n: int = 16) -> np.ndarray:
    """An ellipsoid whose principal axes are the rows of ``axes`` (half lengths included)."""
    prof = [(math.sin(a), -math.cos(a)) for a in np.linspace(0, math.pi, steps)]
    unit = revolve(prof, np.zeros(3), n)
    m = axes.T
    if np.linalg.det(m) < 0:
        unit = unit[:, ::-1]
    return unit @ m.T + centre


# --------------------------------------------------------------------------- drawing


def _normals(quads: np.ndarray) -> np.ndarray:
    n = np.cross(quads[:, 2] - quads[:, 0], quads[:, 3] - quads[:, 1])
    return n / np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-12)


def shade(normals: np.ndarray, points: np.ndarray, cam: Camera, lights: list[Light], ambient: np.ndarray,
          colour: np.ndarray, specular: float, shininess: float) -> np.ndarray:
    """BGR (N, 3) of surfaces: base * (ambient + sum diffuse) + sum specular (white highlights)."""
    out = np.broadcast_to(colour * ambient, normals.shape).copy()
    view = cam.C - points
    view /= np.linalg.norm(view, axis=1, keepdims=True)
    for light in lights:
        to_l, strength = light.toward(points)
        diff = np.clip((normals * to_l).sum(1), 0, None) * strength
        half = to_l + view
        half /= np.linalg.norm(half, axis=1, keepdims=True)
        spec = np.clip((normals * half).sum(1), 0, None) ** shininess * specular * strength * (diff > 0)
        out += colour * light.colour * diff[:, None] + 255.0 * light.colour * spec[:, None]
    return np.clip(out, 0, 255)


def draw_meshes(canvas: np.ndarray, k_canvas: np.ndarray, cam: Camera, meshes: list[Mesh], lights: list[Light],
                ambient: np.ndarray, emit: np.ndarray | None = None) -> None:
    """Paint the meshes far to near into ``canvas`` (whose intrinsics are ``k_canvas``)."""
    all_quads, colours, depths = [], [], []
    for mesh in meshes:
        normals = _normals(mesh.quads)
        centres = mesh.quads.mean(axis=1)
        facing = (normals * (cam.C - centres)).sum(1) > 0
        if not facing.any():
            continue
        q, nrm, ctr = mesh.quads[facing], normals[facing], centres[facing]
        cols = shade(nrm, ctr, cam, lights, ambient, np.asarray(mesh.colour, np.float64), mesh.specular,
                     mesh.shininess)
        all_quads.append(q)
        colours.append(cols)
        depths.append(cam.depth(ctr))
    if not all_quads:
        return
    quads = np.concatenate(all_quads)
    cols = np.concatenate(colours)
    order = np.argsort(-np.concatenate(depths))
    pix = _to_canvas(quads.reshape(-1, 3), k_canvas, cam).reshape(-1, 4, 2)
    fixed = np.round(pix * 16).astype(np.int32)
    for i in order:
        colour = tuple(float(v) for v in cols[i])
        cv2.fillPoly(canvas, [fixed[i]], colour, cv2.LINE_8, 4)
        if emit is not None:
            cv2.fillPoly(emit, [fixed[i]], 0, cv2.LINE_8, 4)


def _to_canvas(points: np.ndarray, k_canvas: np.ndarray, cam: Camera) -> np.ndarray:
    pc = cam.to_camera(points)
    z = np.maximum(pc[:, 2], 1e-6)
    return np.stack([k_canvas[0, 0] * pc[:, 0] / z + k_canvas[0, 2], k_canvas[1, 1] * pc[:, 1] / z + k_canvas[1, 2]], 1)


def shadow_mask(shape: tuple[int, int], k_canvas: np.ndarray, cam: Camera, meshes: list[Mesh],
                light: Light, px_per_cm: float) -> np.ndarray:
    """Float mask (0..1) of where ``light`` is blocked by the meshes, on their shadow planes."""
    mask = np.zeros(shape, np.uint8)
    soft = np.zeros(shape, np.float32)
    for mesh in meshes:
        if mesh.shadow_z is None:
            continue
        pts = mesh.quads.reshape(-1, 3)
        to_l, _ = light.toward(pts)
        if np.any(to_l[:, 2] <= 0.05):
            continue
        t = (pts[:, 2] - mesh.shadow_z) / to_l[:, 2]
        flat = pts - to_l * t[:, None]
        pix = _to_canvas(flat, k_canvas, cam).reshape(-1, 4, 2)
        one = np.zeros(shape, np.uint8)
        cv2.fillPoly(one, list(np.round(pix * 16).astype(np.int32)), 255, cv2.LINE_8, 4)
        lift = float(np.ptp(pts[:, 2]))
        blur = (light.shadow_softness + 0.04 * lift) * px_per_cm
        if blur > 1.0:
            k = int(blur * 2) | 1
            soft = np.maximum(soft, cv2.GaussianBlur(one, (k, k), blur / 2).astype(np.float32) / 255)
        else:
            mask |= one
    return np.maximum(soft, mask.astype(np.float32) / 255)
