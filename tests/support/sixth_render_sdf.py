"""The sixth renderer's solids: signed distance functions, sphere tracing, soft shadows.

Pawns, hands and objects over the board are real 3D solids here, described by signed distance
functions (spheres, capsules, round cones, cylinders, boxes, smoothly joined). A solid is seen by
sphere-tracing the camera rays through its image window, so it hides what is behind it and is
shaded from its true normal (Lambert + Blinn highlight + Fresnel rim); the plane under it is
darkened by tracing toward each light (soft shadows with penumbra, hard under a lamp) and by a
contact term near the solid's foot. All vectorised in numpy, float32, centimetres.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

Sdf = Callable[[np.ndarray], np.ndarray]


def _len(v: np.ndarray) -> np.ndarray:
    return np.sqrt(np.sum(v * v, axis=-1))


def sphere(c: tuple[float, float, float], r: float) -> Sdf:
    cc = np.asarray(c, np.float32)
    return lambda p: _len(p - cc) - r


def capsule(a: tuple[float, float, float], b: tuple[float, float, float], r: float) -> Sdf:
    aa, bb = np.asarray(a, np.float32), np.asarray(b, np.float32)
    ab = bb - aa
    denom = float(ab @ ab)

    def f(p: np.ndarray) -> np.ndarray:
        pa = p - aa
        h = np.clip((pa @ ab) / denom, 0, 1)
        return _len(pa - h[:, None] * ab) - r

    return f


def round_cone(base: tuple[float, float, float], r1: float, r2: float, h: float) -> Sdf:
    """Vertical round cone: sphere r1 at ``base``, sphere r2 at ``base + h`` up, hull between."""
    c = np.asarray(base, np.float32)
    b = (r1 - r2) / h
    a = np.sqrt(max(1e-6, 1 - b * b))

    def f(p: np.ndarray) -> np.ndarray:
        q = p - c
        qx, qy = np.hypot(q[:, 0], q[:, 1]), q[:, 2]
        k = -b * qx + a * qy
        d_mid = qx * a + qy * b - r1
        d_lo = np.hypot(qx, qy) - r1
        d_hi = np.hypot(qx, qy - h) - r2
        return np.where(k < 0, d_lo, np.where(k > a * h, d_hi, d_mid))

    return f


def cylinder(base: tuple[float, float, float], r: float, h: float, round_r: float = 0.0) -> Sdf:
    """Vertical capped cylinder from ``base`` up ``h``, edges rounded by ``round_r``."""
    c = np.asarray(base, np.float32) + np.array([0, 0, h / 2], np.float32)

    def f(p: np.ndarray) -> np.ndarray:
        q = p - c
        dx = np.hypot(q[:, 0], q[:, 1]) - (r - round_r)
        dy = np.abs(q[:, 2]) - (h / 2 - round_r)
        out = np.hypot(np.maximum(dx, 0), np.maximum(dy, 0))
        return out + np.minimum(np.maximum(dx, dy), 0) - round_r

    return f


def box(centre: tuple[float, float, float], half: tuple[float, float, float], yaw: float, round_r: float = 0.0) -> Sdf:
    """A box turned ``yaw`` radians about the vertical, edges rounded by ``round_r``."""
    c = np.asarray(centre, np.float32)
    hb = np.asarray(half, np.float32) - round_r
    cs, sn = np.cos(yaw), np.sin(yaw)

    def f(p: np.ndarray) -> np.ndarray:
        q = p - c
        lx = q[:, 0] * cs + q[:, 1] * sn
        ly = -q[:, 0] * sn + q[:, 1] * cs
        d = np.abs(np.stack([lx, ly, q[:, 2]], 1)) - hb
        return _len(np.maximum(d, 0)) + np.minimum(d.max(axis=1), 0) - round_r

    return f


def union(parts: list[Sdf], k: float = 0.0) -> Sdf:
    """Union of solids; ``k`` > 0 blends them smoothly (polynomial smooth minimum)."""

    def f(p: np.ndarray) -> np.ndarray:
        d = parts[0](p)
        for g in parts[1:]:
            e = g(p)
            if k > 0:
                h = np.clip(0.5 + 0.5 * (e - d) / k, 0, 1)
                d = e * (1 - h) + d * h - k * h * (1 - h)
            else:
                d = np.minimum(d, e)
        return d

    return f


def slab(inner: Sdf, centre: tuple[float, float, float], yaw: float, half_thick: float) -> Sdf:
    """``inner`` cut to a vertical slab (a flat, extruded figure like a meeple)."""
    c = np.asarray(centre, np.float32)
    nx, ny = -np.sin(yaw), np.cos(yaw)
    return lambda p: np.maximum(inner(p), np.abs((p[:, 0] - c[0]) * nx + (p[:, 1] - c[1]) * ny) - half_thick)


@dataclass
class Solid:
    """A solid with one material: colour BGR 0..1, gloss (highlight strength) and shininess."""

    sdf: Sdf
    lo: np.ndarray  # world bounding box
    hi: np.ndarray
    albedo: np.ndarray
    gloss: float
    shininess: float
    kind: str = "pawn"
    info: dict[str, object] = field(default_factory=dict)  # what was sampled (for --meta breakdowns)


@dataclass
class Light:
    """A point light (``pos``) or a directional one (``direction`` toward the light); ``softness`` is
    the penumbra constant (large = hard)."""

    colour: np.ndarray  # BGR intensity
    pos: np.ndarray | None = None
    direction: np.ndarray | None = None
    softness: float = 16.0

    def to_light(self, p: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Unit vectors from points to the light, the distance, and the falloff factor."""
        if self.pos is None:
            d = np.broadcast_to(self.direction / np.linalg.norm(self.direction), p.shape).astype(np.float32)
            return d, np.full(p.shape[0], 1e4, np.float32), np.ones(p.shape[0], np.float32)
        v = (self.pos - p).astype(np.float32)
        dist = _len(v)
        ref = float(self.pos[2])
        return v / dist[:, None], dist, (ref / dist) ** 2


def trace(
    sdf: Sdf, origin: np.ndarray, dirs: np.ndarray, t0: np.ndarray, t1: np.ndarray, steps: int = 72, eps: float = 0.004
) -> tuple[np.ndarray, np.ndarray]:
    """Sphere-trace rays ``origin + t * dirs`` between t0 and t1: (hit mask, t)."""
    n = dirs.shape[0]
    t = t0.astype(np.float32).copy()
    hit = np.zeros(n, bool)
    active = np.arange(n)
    for _ in range(steps):
        if active.size == 0:
            break
        p = origin + t[active, None] * dirs[active]
        d = sdf(p)
        done = d < eps
        hit[active[done]] = True
        t[active] += np.maximum(d, 0) * 0.92
        keep = ~done & (t[active] < t1[active])
        active = active[keep]
    return hit, t


def normals(sdf: Sdf, p: np.ndarray, e: float = 0.01) -> np.ndarray:
    out = np.zeros_like(p)
    for i in range(3):
        dv = np.zeros(3, np.float32)
        dv[i] = e
        out[:, i] = sdf(p + dv) - sdf(p - dv)
    return out / np.maximum(_len(out), 1e-9)[:, None]


def soft_shadow(sdf: Sdf, p: np.ndarray, light: Light, steps: int = 40) -> np.ndarray:
    """Visibility (0..1) of ``light`` from plane points ``p``: 1 lit, 0 in full shadow."""
    to_l, dist, _ = light.to_light(p)
    n = p.shape[0]
    res = np.ones(n, np.float32)
    t = np.full(n, 0.05, np.float32)
    active = np.arange(n)
    for _ in range(steps):
        if active.size == 0:
            break
        q = p[active] + t[active, None] * to_l[active]
        d = sdf(q)
        res[active] = np.minimum(res[active], np.clip(light.softness * d / t[active], 0, 1))
        t[active] += np.clip(d, 0.05, 3.0)
        keep = (res[active] > 0.01) & (t[active] < np.minimum(dist[active], 60.0))
        active = active[keep]
    return res * res * (3 - 2 * res)


def ray_box(origin: np.ndarray, dirs: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Entry and exit distances of rays through the box (entry > exit: missed)."""
    inv = 1.0 / np.where(np.abs(dirs) < 1e-9, 1e-9, dirs)
    a, b = (lo - origin) * inv, (hi - origin) * inv
    t0 = np.maximum(np.minimum(a, b).max(axis=1), 0)
    t1 = np.maximum(a, b).min(axis=1)
    return t0, t1


def shade(
    solid: Solid, p: np.ndarray, n: np.ndarray, view: np.ndarray, lights: list[Light], ambient: np.ndarray
) -> np.ndarray:
    """Colour (BGR, linear) of surface points of ``solid`` seen along ``view`` (unit, toward the eye)."""
    albedo = solid.albedo.astype(np.float32)
    sky = 0.55 + 0.45 * np.clip(n[:, 2], -1, 1)
    colour = albedo * (ambient * sky[:, None])
    for light in lights:
        to_l, _, fall = light.to_light(p)
        lam = np.clip(np.sum(n * to_l, axis=1), 0, 1) * fall
        half = to_l + view
        half /= np.maximum(_len(half), 1e-9)[:, None]
        spec = np.clip(np.sum(n * half, axis=1), 0, 1) ** solid.shininess * solid.gloss * fall
        colour += albedo * lam[:, None] * light.colour + spec[:, None] * light.colour
    rim = (
        (1 - np.clip(np.sum(n * view, axis=1), 0, 1)) ** 5 * solid.gloss * 0.25
    )  # Fresnel: room reflected at grazing angles
    return colour + rim[:, None] * ambient
