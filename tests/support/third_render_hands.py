"""Third held-out renderer: a hand and forearm (bare, holding a phone or a cup) over the board.

Drawn in canvas pixels: the arm enters from one photo edge, the hand hangs a few
centimetres above the board (so it looks larger than the tiles under it and throws
a soft shadow displaced away from the light). Shading comes from a height field
built from the silhouette's distance transform.
"""

from __future__ import annotations

import cv2
import numpy as np

S, SH = 16, 4


def _capsule(mask, p, q, r, val=1.0):
    cv2.line(
        mask, (int(p[0] * S), int(p[1] * S)), (int(q[0] * S), int(q[1] * S)), val, max(1, int(2 * r)), cv2.LINE_AA, SH
    )
    for c in (p, q):
        cv2.circle(mask, (int(c[0] * S), int(c[1] * S)), int(r * S), val, -1, cv2.LINE_AA, SH)


def _height(mask: np.ndarray, scale: float) -> np.ndarray:
    dt = cv2.distanceTransform((mask > 0.5).astype(np.uint8), cv2.DIST_L2, cv2.DIST_MASK_PRECISE)
    t = np.clip(dt / max(scale, 1), 0, 1)
    h = np.sqrt(t * (2 - t))
    return _soft(h.astype(np.float32), max(1.5, scale * 0.12))


def _shade(h: np.ndarray, light: np.ndarray, scale: float) -> np.ndarray:
    gx = cv2.Sobel(h, cv2.CV_32F, 1, 0, ksize=3) * scale * 0.25
    gy = cv2.Sobel(h, cv2.CV_32F, 0, 1, ksize=3) * scale * 0.25
    inv = 1.0 / np.sqrt(gx * gx + gy * gy + 1.0)
    return np.clip((-gx * light[0] - gy * light[1] + light[2]) * inv, 0, 1)


def draw_occluder(canvas, occ, cam, board_uv, light_level, light_dir, rng, q: float = 0.5):
    """Paint the occluder onto the linear RGB canvas (in place); shaded at ``q`` of full resolution."""
    H, W = canvas.shape[:2]
    out = _layers(
        occ, -cam.C[2], np.asarray(board_uv) * q, light_level, light_dir, rng, int(np.ceil(W * q)), int(np.ceil(H * q))
    )
    if out is None:
        return
    (x0, y0, x1, y1), shadow, layers = out
    X0, Y0, X1, Y1 = int(x0 / q), int(y0 / q), min(int(x1 / q), W), min(int(y1 / q), H)
    size = (X1 - X0, Y1 - Y0)
    roi = canvas[Y0:Y1, X0:X1]
    roi *= cv2.resize(1 - 0.6 * shadow, size, interpolation=cv2.INTER_LINEAR)[..., None]
    for alpha, img in layers:
        a = cv2.resize(np.clip(alpha, 0, 1), size, interpolation=cv2.INTER_LINEAR)
        roi[:] = cv2.blendLinear(cv2.resize(img, size, interpolation=cv2.INTER_LINEAR), roi, a, 1 - a)


def _soft(img: np.ndarray, sigma: float) -> np.ndarray:
    """Gaussian blur; large ones on a shrunken copy."""
    if sigma < 6:
        return cv2.GaussianBlur(img, (0, 0), sigma)
    f = sigma / 3.0
    h, w = img.shape[:2]
    small = cv2.resize(img, (max(1, int(w / f)), max(1, int(h / f))), interpolation=cv2.INTER_AREA)
    return cv2.resize(cv2.GaussianBlur(small, (0, 0), 3.0), (w, h), interpolation=cv2.INTER_LINEAR)


def _layers(occ, depth, board_uv, light_level, light_dir, rng, Wc, Hc):
    """(box, shadow, [(alpha, linear RGB)] bottom to top) of the occluder on a Wc x Hc canvas."""
    centre = board_uv.mean(0)
    tile = np.mean([np.linalg.norm(board_uv[i] - board_uv[(i + 1) % 4]) for i in range(4)]) / 7
    k = occ["scale"] * depth / max(depth - occ["lift"], 1.0)  # closer to the lens: larger
    side = occ["side"]
    edge_pts = {
        0: (np.array([Wc * occ["along"], -tile * 3]), np.array([0, 1.0])),
        1: (np.array([Wc + tile * 3, Hc * occ["along"]]), np.array([-1.0, 0])),
        2: (np.array([Wc * occ["along"], Hc + tile * 3]), np.array([0, -1.0])),
        3: (np.array([-tile * 3, Hc * occ["along"]]), np.array([1.0, 0])),
    }
    start, inward = edge_pts[side]
    # fingertips somewhere over the board
    span = np.linalg.norm(board_uv[0] - board_uv[2]) / np.sqrt(2)
    target = centre + (np.array(inward) * -0.5 + np.array([occ["tilt"], -occ["tilt"]]) * 0.5) * span * 0.5
    target = target + inward * span * (occ["reach"] - 0.5)
    axis = target - start
    axis /= np.linalg.norm(axis)
    perp = np.array([-axis[1], axis[0]])
    palm_len, palm_w = 2.6 * tile * k, 2.3 * tile * k
    finger_len = 1.9 * tile * k
    tip_base = target - axis * finger_len * 0.9
    wrist = tip_base - axis * palm_len
    skin = np.zeros((Hc, Wc), np.float32)
    sleeve = np.zeros((Hc, Wc), np.float32)
    obj = np.zeros((Hc, Wc), np.float32)
    arm_r = 0.85 * tile * k
    _capsule(skin, start - axis * tile * 3, wrist, arm_r)
    cuff = wrist - axis * rng.uniform(1.5, 5) * tile * k
    _capsule(sleeve, start - axis * tile * 5, cuff, arm_r * 1.25)
    palm_c = wrist + axis * palm_len * 0.5
    ang = np.degrees(np.arctan2(axis[1], axis[0]))
    cv2.ellipse(
        skin,
        (int(palm_c[0] * S), int(palm_c[1] * S)),
        (int(palm_len * 0.55 * S), int(palm_w * 0.5 * S)),
        ang,
        0,
        360,
        1.0,
        -1,
        cv2.LINE_AA,
        SH,
    )
    kind = occ["kind"]
    curl = 0.55 if kind in ("phone", "cup") else rng.uniform(0.75, 1.0)
    spread = rng.uniform(0.05, 0.22)
    fingers = []
    for i, off in enumerate((-0.36, -0.12, 0.12, 0.36)):
        base = tip_base + perp * off * palm_w - axis * palm_len * 0.05
        a = off * spread * 3
        d = axis * np.cos(a) + perp * np.sin(a)
        ln = finger_len * (0.82 if i in (0, 3) else 1.0) * curl
        fingers.append((base, base + d * ln, 0.26 * tile * k))
    side_sign = 1 if rng.random() < 0.5 else -1
    tb = wrist + axis * palm_len * 0.3 + perp * palm_w * 0.42 * side_sign
    a = np.radians(rng.uniform(25, 55)) * side_sign
    thumb_dir = axis * np.cos(a) + perp * np.sin(a)
    fingers.append((tb, tb + thumb_dir * finger_len * 0.7, 0.3 * tile * k))
    if kind == "phone":
        pc = tip_base + axis * finger_len * 0.2
        w_, h_ = 2.2 * tile * k, 4.4 * tile * k
        box = cv2.boxPoints(((float(pc[0]), float(pc[1])), (h_, w_), ang))
        cv2.fillPoly(obj, [(box * S).astype(np.int32)], 1.0, cv2.LINE_AA, SH)
    elif kind == "cup":
        pc = tip_base + axis * finger_len * 0.5
        cv2.circle(obj, (int(pc[0] * S), int(pc[1] * S)), int(1.05 * tile * k * S), 1.0, -1, cv2.LINE_AA, SH)
        hd = pc + perp * 1.2 * tile * k
        cv2.ellipse(
            obj,
            (int(hd[0] * S), int(hd[1] * S)),
            (int(0.45 * tile * k * S), int(0.22 * tile * k * S)),
            ang + 90,
            0,
            360,
            1.0,
            -1,
            cv2.LINE_AA,
            SH,
        )
    for base, tip, r in fingers:  # tapering toward the tip
        mid = base + (tip - base) * 0.5
        _capsule(skin, base, mid, r)
        _capsule(skin, mid, tip, r * 0.82)
    full = np.clip(skin + sleeve + obj, 0, 1)
    shift = -np.array(light_dir[:2]) * tile * occ["lift"] * 0.6
    blur = tile * (0.25 + 0.12 * occ["lift"])
    # work only in the box the occluder and its shadow can touch
    bx, by, bw, bh = cv2.boundingRect((full > 0.01).astype(np.uint8))
    if bw == 0 or bh == 0:
        return
    pad = int(np.abs(shift).max() + 3 * blur) + 4
    x0, y0 = max(bx - pad, 0), max(by - pad, 0)
    x1, y1 = min(bx + bw + pad, Wc), min(by + bh + pad, Hc)
    skin, sleeve, obj, full = (m[y0:y1, x0:x1] for m in (skin, sleeve, obj, full))
    Hc, Wc = y1 - y0, x1 - x0
    off = np.array([x0, y0], float)
    fingers = [(b - off, t - off, r) for b, t, r in fingers]
    # shadow on the board, displaced away from the light
    M = np.float32([[1, 0, shift[0]], [0, 1, shift[1]]])
    shadow = cv2.warpAffine(full, M, (Wc, Hc))
    shadow = _soft(shadow, blur)
    lvec = np.array([light_dir[0], light_dir[1], 1.2], np.float32)
    lvec /= np.linalg.norm(lvec)
    light_rgb = np.asarray(light_level, np.float32)
    skin_lin = np.asarray(occ["skin"], np.float32)[::-1] ** 2.2
    hs = _height(skin, arm_r)
    lit = 0.35 + 0.65 * _shade(hs, lvec, arm_r)
    mott = 1 + 0.06 * cv2.GaussianBlur(rng.standard_normal((Hc // 8 + 1, Wc // 8 + 1)).astype(np.float32), (0, 0), 1)
    mott = cv2.resize(mott, (Wc, Hc))
    skin_img = skin_lin * (lit * mott)[..., None] * light_rgb
    # knuckle creases and nails
    crease = np.zeros((Hc, Wc), np.float32)
    for base, tip, r in fingers[:4]:
        for t in (0.35, 0.65):
            p = base + (tip - base) * t
            q1, q2 = p + perp * r * 0.7, p - perp * r * 0.7
            cv2.line(
                crease, (int(q1[0] * S), int(q1[1] * S)), (int(q2[0] * S), int(q2[1] * S)), 1.0, 1, cv2.LINE_AA, SH
            )
    skin_img *= (1 - 0.25 * crease)[..., None]
    nails = np.zeros((Hc, Wc), np.float32)
    for base, tip, r in fingers:
        d = (tip - base) / (np.linalg.norm(tip - base) + 1e-6)
        c = tip - d * r * 0.35
        cv2.ellipse(
            nails,
            (int(c[0] * S), int(c[1] * S)),
            (int(r * 0.6 * S), int(r * 0.5 * S)),
            float(np.degrees(np.arctan2(d[1], d[0]))),
            0,
            360,
            1.0,
            -1,
            cv2.LINE_AA,
            SH,
        )
    nails = cv2.GaussianBlur(nails, (0, 0), 1.0)[..., None]
    skin_img = skin_img * (1 + 0.45 * nails * np.array([1.0, 0.85, 0.85], np.float32))
    sl_lin = np.asarray(occ["sleeve"], np.float32)[::-1] ** 2.2
    hsl = _height(sleeve, arm_r * 1.25)
    weave = 1 + 0.08 * rng.standard_normal((Hc, Wc)).astype(np.float32)
    sleeve_img = sl_lin * ((0.3 + 0.7 * _shade(hsl, lvec, arm_r)) * weave)[..., None] * light_rgb
    if kind == "phone":
        inner = cv2.erode(obj, np.ones((int(tile * k * 0.3) | 1,) * 2, np.uint8))
        glare = np.clip(_height(obj, tile * k * 2) * 0.25, 0, 1)
        obj_img = (np.array([0.01, 0.012, 0.02], np.float32) + (inner * glare)[..., None] * 0.3) * light_rgb
    elif kind == "cup":
        cup_col = (
            np.asarray(rng.choice([(0.9, 0.9, 0.88), (0.7, 0.1, 0.1), (0.1, 0.3, 0.6), (0.9, 0.8, 0.2)]), np.float32)
            ** 2.2
        )
        inner = cv2.erode(obj, np.ones((int(tile * k * 0.35) | 1,) * 2, np.uint8))[..., None]
        body = cup_col * (0.6 + 0.4 * _shade(_height(obj, tile), lvec, tile))[..., None]
        obj_img = (body * (1 - inner) + np.array([0.05, 0.025, 0.012], np.float32) * inner) * light_rgb
    else:
        obj_img = np.zeros((Hc, Wc, 3), np.float32)
    # object, then skin over it, then the sleeve over the arm
    layers = [(obj, obj_img), (skin, skin_img), (sleeve, sleeve_img)]
    return (x0, y0, x1, y1), shadow, [(a.astype(np.float32), np.ascontiguousarray(i, np.float32)) for a, i in layers]
