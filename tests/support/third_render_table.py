"""Third held-out renderer: the table around the board and what lies on it.

``table_texture`` draws, top-down in world units, the table surface (wood, cloth,
a patterned cloth or a plain top) over a given world rectangle, with cards, the
game's box lid and dice lying next to the board, plus the board's own soft drop
shadow. Returns an RGB albedo (sRGB 0..1).
"""

from __future__ import annotations

import cv2
import numpy as np

from .third_render_texture import noise, wood


def _surface(rng, kind, h, w, ppu, c1, c2, scale, angle):
    c1, c2 = np.asarray(c1, np.float32), np.asarray(c2, np.float32)
    if kind == "wood":
        n = max(h, w)
        tones = [(0.62, 0.42, 0.24), (0.48, 0.30, 0.16), (0.75, 0.60, 0.42), (0.36, 0.22, 0.12), (0.80, 0.70, 0.55)]
        light = np.asarray(tones[int(rng.integers(len(tones)))], np.float32) * rng.uniform(0.85, 1.1)
        img = wood(rng, n, light, light * rng.uniform(0.6, 0.8), freq=n / ppu * rng.uniform(3, 8))
        M = cv2.getRotationMatrix2D((n / 2, n / 2), angle, 1.0)
        img = cv2.warpAffine(img, M, (n, n), borderMode=cv2.BORDER_REFLECT)[:h, :w]
        y = np.arange(h)[:, None]
        seam = (np.abs(((y / ppu) % (2.5 * scale + 4)) - 0.03) < 0.03).astype(np.float32)
        return img * (1 - 0.35 * seam[..., None])
    if kind == "cloth":
        y, x = np.mgrid[:h, :w].astype(np.float32)
        weave = 0.06 * np.sin(x * 2.1) * np.sin(y * 2.1)
        folds = 0.12 * noise(rng, h, w, ppu * 3 * scale, 2)
        fuzz = 0.05 * rng.standard_normal((h, w)).astype(np.float32)
        return c1 * (1 + weave + folds + fuzz)[..., None]
    if kind == "pattern":
        y, x = np.mgrid[:h, :w].astype(np.float32) / (ppu * scale)
        a = np.radians(angle)
        u, v = x * np.cos(a) + y * np.sin(a), -x * np.sin(a) + y * np.cos(a)
        check = ((np.floor(u) + np.floor(v)) % 2).astype(np.float32)
        stripes = (np.abs((u * 3) % 1 - 0.5) < 0.08).astype(np.float32)
        t = cv2.GaussianBlur(np.clip(check * 0.8 + stripes * 0.5, 0, 1), (0, 0), 0.8)
        img = c1 * (1 - t[..., None]) + c2 * t[..., None]
        return img * (1 + 0.05 * noise(rng, h, w, ppu, 2))[..., None]
    return (
        c1
        * (1 + 0.04 * noise(rng, h, w, ppu * 2, 3) + 0.02 * rng.standard_normal((h, w)).astype(np.float32))[..., None]
    )


def table_texture(scene, x0: float, y0: float, x1: float, y1: float, ppu: float, light_dir):
    """Albedo of the table over the world rectangle [x0, x1] x [y0, y1]."""
    rng = np.random.default_rng(scene.rng_seed + 29)
    t = scene.table
    w, h = int(np.ceil((x1 - x0) * ppu)), int(np.ceil((y1 - y0) * ppu))
    img = _surface(rng, t["kind"], h, w, ppu, t["color"], t["color2"], t["scale"], t["angle"])
    u8 = (np.clip(img, 0, 1) * 255).astype(np.uint8)
    S, sh = 16, 4

    def px(x, y):
        return [int((x - x0) * ppu * S), int((y - y0) * ppu * S)]

    fw = scene.frame["width"]
    lo, hi = -fw - 0.2, 7 + fw + 0.2

    def free_spot(size):
        for _ in range(40):
            cx, cy = rng.uniform(x0, x1), rng.uniform(y0, y1)
            if cx + size < lo or cx - size > hi or cy + size < lo or cy - size > hi:
                return cx, cy
        return None

    def quad(cx, cy, w_, h_, ang):
        c, s = np.cos(ang), np.sin(ang)
        return np.array(
            [
                [cx + c * dx - s * dy, cy + s * dx + c * dy]
                for dx, dy in ((-w_ / 2, -h_ / 2), (w_ / 2, -h_ / 2), (w_ / 2, h_ / 2), (-w_ / 2, h_ / 2))
            ]
        )

    def paint(poly, col, shadow=0.35):
        pts = np.array([px(x, y) for x, y in poly], np.int32)
        off = np.array([-light_dir[0], -light_dir[1]]) * 0.06 * ppu * S
        blur = max(1.0, 0.05 * ppu)
        sp = (pts + off) / S
        pad = int(4 * blur) + 2
        xa, ya = np.maximum(np.floor(sp.min(0)).astype(int) - pad, 0)
        xb, yb = np.minimum(np.ceil(sp.max(0)).astype(int) + pad, (w, h))
        if xa < xb and ya < yb:
            layer = np.zeros((yb - ya, xb - xa), np.uint8)
            cv2.fillPoly(layer, [(pts + off - np.array([xa, ya]) * S).astype(np.int32)], 255, cv2.LINE_AA, sh)
            k = cv2.GaussianBlur(layer, (0, 0), blur).astype(np.float32) / 255
            roi = u8[ya:yb, xa:xb]
            roi[:] = (roi * (1 - shadow * k[..., None])).astype(np.uint8)
        cv2.fillPoly(u8, [pts], col, cv2.LINE_AA, sh)
        return pts

    if t["lid"]:
        spot = free_spot(3.0)
        if spot:
            q = quad(*spot, rng.uniform(5, 9), rng.uniform(5, 9), rng.uniform(0, np.pi))
            col = tuple(int(v) for v in rng.integers(30, 230, 3))
            pts = paint(q, col, 0.5)
            inner = (pts - pts.mean(0)) * 0.8 + pts.mean(0)
            cv2.fillPoly(u8, [inner.astype(np.int32)], tuple(int(v * 0.75) for v in col), cv2.LINE_AA, sh)
            for _ in range(6):  # printed title / picture blocks
                cx, cy = spot[0] + rng.uniform(-2, 2), spot[1] + rng.uniform(-2, 2)
                cv2.circle(
                    u8,
                    tuple(px(cx, cy)),
                    int(rng.uniform(0.2, 0.9) * ppu * S),
                    tuple(int(v) for v in rng.integers(0, 255, 3)),
                    -1,
                    cv2.LINE_AA,
                    sh,
                )
    for _ in range(t["cards"]):
        spot = free_spot(0.8)
        if spot is None:
            continue
        back = tuple(int(v) for v in rng.integers(20, 240, 3))
        pts = paint(quad(*spot, 1.6, 2.3, rng.uniform(0, np.pi)), (235, 232, 225), 0.3)
        inner = (pts - pts.mean(0)) * 0.86 + pts.mean(0)
        cv2.fillPoly(u8, [inner.astype(np.int32)], back, cv2.LINE_AA, sh)
        cv2.circle(u8, tuple(pts.mean(0).astype(int)), int(0.35 * ppu * S), (245, 240, 200), -1, cv2.LINE_AA, sh)
    for _ in range(t["dice"]):
        spot = free_spot(0.4)
        if spot is None:
            continue
        s = rng.uniform(0.35, 0.5)
        col = tuple(int(v) for v in rng.choice([(240, 240, 235), (200, 30, 30), (30, 30, 30)]))
        pip = (20, 20, 20) if sum(col) > 400 else (240, 240, 240)
        ang = rng.uniform(0, np.pi)
        paint(quad(*spot, s, s, ang), col, 0.55)
        c, si = np.cos(ang), np.sin(ang)
        k = int(rng.integers(1, 7))
        layout = {
            1: [(0, 0)],
            2: [(-1, -1), (1, 1)],
            3: [(-1, -1), (0, 0), (1, 1)],
            4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
            5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
            6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
        }[k]
        for dx, dy in layout:
            ox, oy = dx * s * 0.28, dy * s * 0.28
            cv2.circle(
                u8,
                tuple(px(spot[0] + c * ox - si * oy, spot[1] + si * ox + c * oy)),
                int(s * 0.08 * ppu * S),
                pip,
                -1,
                cv2.LINE_AA,
                sh,
            )
    img = u8.astype(np.float32) / 255
    # the board's soft drop shadow (it stands a few millimetres proud of the table)
    m = np.zeros((h, w), np.float32)
    a, b = -fw, 7 + fw
    off = np.array(light_dir) * -0.08
    p0 = px(a + off[0], a + off[1])
    p1 = px(b + off[0], b + off[1])
    cv2.rectangle(m, (p0[0] // S, p0[1] // S), (p1[0] // S, p1[1] // S), 1.0, -1)
    m = cv2.GaussianBlur(m, (0, 0), max(1.0, 0.12 * ppu))
    return img * (1 - 0.45 * m[..., None])
