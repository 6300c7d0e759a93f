"""Third held-out renderer: pawns, ray-cast through the real camera.

A pawn is a surface of revolution (a stack of cone frusta: cone, cylinder or a
figure with a waist and shoulders) with a sphere head. Each pixel of its bounding
box (2x supersampled) casts a ray; the nearest hit gives position and normal,
shaded by the scene's lights (diffuse plus a specular highlight for glossy plastic).
Contact and cast shadows are drawn into the board plane by ``pawn_shadows``.
"""

from __future__ import annotations

import itertools

import cv2
import numpy as np


def profile(p) -> list[tuple[float, float]]:
    """(height, radius) points of the body from the base up; the head sits on top."""
    R, H = p.radius, p.height - p.head * 1.6
    if p.shape == "cylinder":
        return [(0, R), (0.06 * H, R), (0.1 * H, R * 0.72), (H, R * 0.68), (H * 1.04, R * 0.35)]
    if p.shape == "figure":
        return [
            (0, R),
            (0.08 * H, R),
            (0.14 * H, R * 0.6),
            (0.55 * H, R * 0.38),
            (0.8 * H, R * 0.62),
            (0.92 * H, R * 0.5),
            (H, R * 0.25),
        ]
    return [(0, R), (0.05 * H, R), (0.09 * H, R * 0.8), (H, R * 0.3)]  # cone


def _hit_frustum(o, d, cx, cy, h0, r0, h1, r1):
    """Ray parameter (inf if missed) and normal of a vertical frustum's side."""
    b = (r1 - r0) / (h1 - h0)
    a = r0 - b * h0
    qx, qy = o[0] - cx, o[1] - cy
    A_ = a - b * o[2]  # height is -Z
    B_ = -b * d[..., 2]
    qa = d[..., 0] ** 2 + d[..., 1] ** 2 - B_**2
    qb = 2 * (qx * d[..., 0] + qy * d[..., 1] - A_ * B_)
    qc = qx * qx + qy * qy - A_ * A_
    disc = qb * qb - 4 * qa * qc
    ok = disc >= 0
    sq = np.sqrt(np.where(ok, disc, 0))
    best = np.full(d.shape[:-1], np.inf)
    for sign in (-1, 1):
        t = (-qb + sign * sq) / np.where(np.abs(qa) < 1e-12, 1e-12, 2 * qa)
        h = -(o[2] + t * d[..., 2])
        good = ok & (t > 0) & (h >= h0) & (h <= h1) & (a + b * h >= 0)
        best = np.where(good & (t < best), t, best)
    p = o + np.where(np.isfinite(best), best, 0)[..., None] * d
    rad = a + b * (-p[..., 2])
    n = np.stack([p[..., 0] - cx, p[..., 1] - cy, rad * b], -1)  # d/dZ of -(a+bh)^2 term, Z = -h
    return best, n


def _hit_disk(o, d, cx, cy, h, r):
    t = (-h - o[2]) / np.where(np.abs(d[..., 2]) < 1e-12, 1e-12, d[..., 2])
    p = o + t[..., None] * d
    inside = (t > 0) & ((p[..., 0] - cx) ** 2 + (p[..., 1] - cy) ** 2 <= r * r)
    n = np.zeros(d.shape)
    n[..., 2] = -1.0
    return np.where(inside, t, np.inf), n


def _hit_sphere(o, d, c, r):
    q = o - c
    b = (d * q).sum(-1)
    cc = q @ q - r * r
    disc = b * b - cc
    t = -b - np.sqrt(np.maximum(disc, 0))
    t = np.where((disc >= 0) & (t > 0), t, np.inf)
    p = o + np.where(np.isfinite(t), t, 0)[..., None] * d
    return t, p - c


def _shade_pawn(cam, p, lights, ambient, bbox, night, glow_level, ss=2):
    x0, y0, x1, y1 = bbox
    u, v = np.meshgrid(x0 + (np.arange((x1 - x0) * ss) + 0.5) / ss, y0 + (np.arange((y1 - y0) * ss) + 0.5) / ss)
    d = cam.rays(u, v)
    o = cam.C
    prof = profile(p)
    best = np.full(u.shape, np.inf)
    normal = np.zeros((*u.shape, 3))
    for (h0, r0), (h1, r1) in itertools.pairwise(prof):
        if h1 - h0 < 1e-6:
            continue
        t, n = _hit_frustum(o, d, p.x, p.y, h0, r0, h1, r1)
        closer = t < best
        best = np.where(closer, t, best)
        normal = np.where(closer[..., None], n, normal)
    top_h, top_r = prof[-1]
    t, n = _hit_disk(o, d, p.x, p.y, top_h, top_r)
    closer = t < best
    best, normal = np.where(closer, t, best), np.where(closer[..., None], n, normal)
    head_c = np.array([p.x, p.y, -(top_h + p.head * 0.85)])
    t, n = _hit_sphere(o, d, head_c, p.head)
    closer = t < best
    best, normal = np.where(closer, t, best), np.where(closer[..., None], n, normal)
    hit = np.isfinite(best)
    pos = o + np.where(hit, best, 0)[..., None] * d
    normal /= np.maximum(np.linalg.norm(normal, axis=-1, keepdims=True), 1e-9)
    alb = np.asarray(p.rgb, np.float32)[::-1] ** 2.2  # BGR sRGB -> RGB linear
    col = np.zeros((*u.shape, 3), np.float32)
    up = -normal[..., 2]
    col += alb * ambient * (0.6 + 0.4 * up)[..., None]
    if night:  # faint green spill from the glowing walls around it
        col += alb * np.array([0.3, 1.0, 0.5], np.float32) * glow_level * 0.5 * np.clip(0.5 - 0.5 * up, 0, 1)[..., None]
    view = -d
    for L in lights:
        lv = np.asarray(L.pos) - pos
        dist = np.linalg.norm(lv, axis=-1, keepdims=True)
        lv = lv / dist
        h = -L.pos[2]
        e = L.power * (h * h) / (dist[..., 0] ** 2)
        lam = np.clip((normal * lv).sum(-1), 0, None)
        rgb = np.asarray(L.rgb, np.float32)[::-1]
        col += alb * rgb * (e * lam)[..., None]
        half = lv + view
        half /= np.maximum(np.linalg.norm(half, axis=-1, keepdims=True), 1e-9)
        spec = np.clip((normal * half).sum(-1), 0, None) ** (8 + 80 * p.gloss) * (0.04 + 0.9 * p.gloss) * e
        col += rgb * spec[..., None] * (lam > 0)[..., None]
    # rim darkening where the surface turns away from the camera
    facing = np.clip((normal * view).sum(-1), 0, 1)
    col *= (0.55 + 0.45 * facing**0.5)[..., None]
    w, h = x1 - x0, y1 - y0
    col = cv2.resize(col * hit[..., None], (w, h), interpolation=cv2.INTER_AREA)
    a = cv2.resize(hit.astype(np.float32), (w, h), interpolation=cv2.INTER_AREA)
    return col, a


def draw_pawns(canvas, cam, pawns, lights, ambient, night, glow_level):
    """Composite the pawns onto the linear RGB canvas, farthest first."""
    H, W = canvas.shape[:2]
    order = sorted(pawns, key=lambda p: -np.linalg.norm(np.array([p.x, p.y, 0]) - cam.C))
    for p in order:
        R = p.radius * 1.1
        pts = np.array(
            [[p.x + sx * R, p.y + sy * R, -hz] for sx in (-1, 1) for sy in (-1, 1) for hz in (0, p.height + 0.05)]
        )
        uv = cam.project(pts)
        x0, y0 = np.floor(uv.min(0)).astype(int) - 2
        x1, y1 = np.ceil(uv.max(0)).astype(int) + 2
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
        if x1 <= x0 or y1 <= y0:
            continue
        col, a = _shade_pawn(cam, p, lights, ambient, (x0, y0, x1, y1), night, glow_level)
        roi = canvas[y0:y1, x0:x1]
        canvas[y0:y1, x0:x1] = roi * (1 - a[..., None]) + col


def pawn_shadows(shade: np.ndarray, ppu: float, e: float, pawns, lights, night: bool) -> None:
    """Darken the board-plane shading map (in place) under and behind each pawn."""
    n = shade.shape[0]
    S, sh = 16, 4
    blur = max(0.6, 0.05 * ppu)
    for p in pawns:
        cx, cy = (p.x + e) * ppu, (p.y + e) * ppu
        ex, ey = cx, cy
        if not night and lights:
            lx, ly, lz = lights[0].pos
            k = p.height / max(-lz - p.height, 0.5)
            ex, ey = (p.x + (p.x - lx) * k + e) * ppu, (p.y + (p.y - ly) * k + e) * ppu
        pad = p.radius * 1.5 * ppu + 4 * blur
        xa, ya = int(max(min(cx, ex) - pad, 0)), int(max(min(cy, ey) - pad, 0))
        xb, yb = int(min(max(cx, ex) + pad, n)), int(min(max(cy, ey) + pad, n))
        if xa >= xb or ya >= yb:
            continue
        mask = np.zeros((yb - ya, xb - xa), np.float32)
        contact = np.zeros_like(mask)
        o = np.array([xa, ya], float)
        cv2.circle(
            contact, (int((cx - xa) * S), int((cy - ya) * S)), int(p.radius * 1.05 * ppu * S), 1.0, -1, cv2.LINE_AA, sh
        )
        if (ex, ey) != (cx, cy):
            d = np.array([ex - cx, ey - cy])
            nrm = np.array([-d[1], d[0]]) / (np.linalg.norm(d) + 1e-6) * p.radius * 0.75 * ppu
            c0, c1 = np.array([cx, cy]) - o, np.array([ex, ey]) - o
            poly = np.array([c0 + nrm, c1 + nrm * 0.5, c1 - nrm * 0.5, c0 - nrm])
            cv2.fillPoly(mask, [(poly * S).astype(np.int32)], 1.0, cv2.LINE_AA, sh)
            cv2.circle(mask, (int(c1[0] * S), int(c1[1] * S)), int(p.head * 1.1 * ppu * S), 1.0, -1, cv2.LINE_AA, sh)
            mask = cv2.GaussianBlur(mask, (0, 0), blur * 1.5)
        contact = cv2.GaussianBlur(contact, (0, 0), blur * 1.2)
        shade[ya:yb, xa:xb] *= (1 - 0.55 * np.clip(mask, 0, 1)) * (1 - 0.6 * np.clip(contact, 0, 1))
