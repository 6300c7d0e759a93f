"""Third held-out renderer: the board artwork, drawn top-down in world units.

``board_texture`` returns an RGB albedo (sRGB 0..1), a glow emission image and an
alpha for the square ``[-e, 7 + e]^2`` of the board plane (``e`` = frame width plus a
small margin), at ``ppu`` pixels per tile pitch. Tiles are separate square pieces with
gaps, a little shift and rotation, bevel shading, corridors, treasure pictures and the
printed start circles; the frame has gate arrows and decorations.
"""

from __future__ import annotations

import functools
import zlib

import cv2
import numpy as np

from companion.board import Tile

from .third_render_texture import noise, style_atlases
from .third_render_treasures import draw_treasure

START_RGB = {
    "red": (0.85, 0.12, 0.10),
    "yellow": (0.95, 0.80, 0.10),
    "green": (0.15, 0.65, 0.22),
    "blue": (0.12, 0.30, 0.82),
}


@functools.lru_cache(maxsize=64)
def corridor_mask(tile: str, n: int, width: float, rounded: bool) -> np.ndarray:
    """Anti-aliased 0..1 mask of a tile's corridors in an n x n tile image (cached: do not modify)."""
    s = 3  # supersample
    N = n * s
    m = np.zeros((N, N), np.uint8)
    a, b = int(N * (1 - width) / 2), int(N * (1 + width) / 2)
    m[a:b, a:b] = 255
    openings = Tile.parse(tile).name
    if "N" in openings:
        m[:b, a:b] = 255
    if "S" in openings:
        m[a:, a:b] = 255
    if "W" in openings:
        m[a:b, :b] = 255
    if "E" in openings:
        m[a:b, a:] = 255
    out = cv2.resize(m, (n, n), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    if rounded:  # blur and re-threshold: rounds inner and outer corners alike
        sigma = max(1.0, n * width * 0.17)
        blurred = cv2.GaussianBlur(out, (0, 0), sigma)
        out = np.clip((blurred - 0.5) * max(2.5, sigma * 2.2) + 0.5, 0, 1)
        e = max(2, int(n * 0.1))
        a1, b1 = int(n * (1 - width) / 2), int(np.ceil(n * (1 + width) / 2))
        keep = {
            "N": (slice(0, e), slice(a1, b1)),
            "S": (slice(n - e, n), slice(a1, b1)),
            "W": (slice(a1, b1), slice(0, e)),
            "E": (slice(a1, b1), slice(n - e, n)),
        }
        sharp = cv2.resize(m, (n, n), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
        for side, sl in keep.items():
            if side in openings:
                out[sl] = np.maximum(out[sl], sharp[sl])
    return out


def _crop(rng, atlas, n):
    y, x = (int(v) for v in rng.integers(0, atlas.shape[0] - n, 2))
    patch = atlas[y : y + n, x : x + n]
    return np.rot90(patch, int(rng.integers(4))).copy()


# --------------------------------------------------------------------------- tiles


def tile_image(rng, tile, n, style, wall_atlas, corr_atlas, line_rgb, treasure, start, salt, light_dir, night):
    """(albedo RGB, emission weight) of one tile piece, n x n."""
    m = corridor_mask(tile, n, style["corridor_width"], style["rounded"])
    wall = _crop(rng, wall_atlas, n)
    corr = _crop(rng, corr_atlas, n)
    img = wall * (1 - m[..., None]) + corr * m[..., None]
    if style["outline"] > 0:
        k = max(1, round(style["outline"] * n))
        ring = cv2.dilate(m, np.ones((2 * k + 1, 2 * k + 1), np.uint8)) - cv2.erode(m, np.ones((3, 3), np.uint8))
        ring = np.clip(cv2.GaussianBlur(ring, (0, 0), 0.6), 0, 1)[..., None]
        img = img * (1 - ring) + np.asarray(line_rgb, np.float32) * ring
    glow = (1 - m) * (0.85 + 0.15 * noise(rng, n, n, n / 3, 2))
    u8 = (np.clip(img, 0, 1) * 255).astype(np.uint8)
    before = u8.copy() if night else None
    if start is not None:
        col = tuple(int(v * 255) for v in START_RGB[start])
        c = n / 2.0
        rad = n * min(style["corridor_width"], 0.42) * 0.55
        S = 16
        if rng.random() < 0.5:
            cv2.circle(u8, (int(c * S), int(c * S)), int(rad * S), col, -1, cv2.LINE_AA, 4)
        else:
            cv2.circle(u8, (int(c * S), int(c * S)), int(rad * 0.8 * S), col, max(2, int(rad * 0.35)), cv2.LINE_AA, 4)
    if treasure is not None:
        off = style["treasure_offset"] * n
        cx = n / 2 + rng.uniform(-off, off)
        cy = n / 2 + rng.uniform(-off, off)
        draw_treasure(u8, treasure, salt, cx, cy, style["treasure_size"] * n * rng.uniform(0.9, 1.1))
    img = u8.astype(np.float32) / 255
    if night and before is not None:  # pictures are printed in glow paint too
        changed = (np.abs(u8.astype(np.int16) - before).sum(-1) > 30).astype(np.float32)
        glow = np.maximum(glow, changed * 0.8)
    # bevel: edges facing the light brighter, the others darker; a thin dark rim
    b = max(1.5, style["bevel"] * n)
    x = np.arange(n, dtype=np.float32) + 0.5
    ramp_lo = np.clip(1 - x / b, 0, 1)
    ramp_hi = ramp_lo[::-1]
    lx, ly = light_dir
    shade = 1 + 0.35 * ((ramp_hi * lx - ramp_lo * lx)[None, :] + (ramp_hi * ly - ramp_lo * ly)[:, None])
    rim = 1 - 0.35 * np.maximum(
        np.clip(1 - x / 1.2, 0, 1)[None, :] + np.clip(1 - x / 1.2, 0, 1)[::-1][None, :],
        np.clip(1 - x / 1.2, 0, 1)[:, None] + np.clip(1 - x / 1.2, 0, 1)[::-1][:, None],
    )
    img = img * (shade * rim)[..., None]
    return img, glow.astype(np.float32)


def _blend(dst, src, alpha, x0, y0):
    h, w = src.shape[:2]
    H, W = dst.shape[:2]
    xa, ya, xb, yb = max(x0, 0), max(y0, 0), min(x0 + w, W), min(y0 + h, H)
    if xa >= xb or ya >= yb:
        return
    s = src[ya - y0 : yb - y0, xa - x0 : xb - x0]
    a = alpha[ya - y0 : yb - y0, xa - x0 : xb - x0]
    if s.ndim == 3:
        a = a[..., None]
    dst[ya:yb, xa:xb] = dst[ya:yb, xa:xb] * (1 - a) + s * a


# --------------------------------------------------------------------------- frame


def _frame(rng, albedo, ppu, e, frame, style):
    fw = frame["width"]
    n = albedo.shape[0]

    def px(v):
        return (v + e) * ppu

    col = np.asarray(frame["color"], np.float32)
    tex = 1 + frame["texture"] * noise(rng, n, n, ppu * 0.5, 3)[..., None]
    u8 = np.zeros((n, n, 3), np.uint8)
    a0, a1 = int(px(-fw)), int(px(7 + fw))
    u8[a0:a1, a0:a1] = (np.clip(col, 0, 1) * 255).astype(np.uint8)
    acol = tuple(int(v * 255) for v in frame["arrow_color"])
    S, sh = 16, 4
    mid = fw / 2
    if frame["deco"] == "band" and fw > 0.3:
        for t in (0.25, 0.75):
            o = -fw * t
            cv2.rectangle(
                u8,
                (int(px(o) * S), int(px(o) * S)),
                (int(px(7 - o) * S), int(px(7 - o) * S)),
                acol,
                max(1, int(ppu * 0.03)),
                cv2.LINE_AA,
                sh,
            )
    elif frame["deco"] in ("dashes", "dots") and fw > 0.3:
        for k in range(int(7 / 0.35) + 1):
            t = k * 0.35
            for x, y in ((t, -mid), (t, 7 + mid), (-mid, t), (7 + mid, t)):
                if frame["deco"] == "dots":
                    cv2.circle(u8, (int(px(x) * S), int(px(y) * S)), int(ppu * 0.04 * S), acol, -1, cv2.LINE_AA, sh)
                elif k % 2 == 0:
                    horiz = y in (-mid, 7 + mid)
                    d = (0.12, 0) if horiz else (0, 0.12)
                    cv2.line(
                        u8,
                        (int(px(x - d[0]) * S), int(px(y - d[1]) * S)),
                        (int(px(x + d[0]) * S), int(px(y + d[1]) * S)),
                        acol,
                        max(1, int(ppu * 0.03)),
                        cv2.LINE_AA,
                        sh,
                    )
    elif frame["deco"] == "corners":
        for x, y in ((-mid, -mid), (7 + mid, -mid), (7 + mid, 7 + mid), (-mid, 7 + mid)):
            cv2.circle(u8, (int(px(x) * S), int(px(y) * S)), int(ppu * fw * 0.35 * S), acol, -1, cv2.LINE_AA, sh)
    if frame["arrows"]:
        size = min(0.8 * fw, 0.45)
        for i in (1, 3, 5):
            c = i + 0.5
            for tip, base_y in ((0.0, -size * 1.1), (7.0, 7 + size * 1.1)):
                pts = [
                    (c, tip - (size * 0.1 if tip == 0 else -size * 0.1)),
                    (c - size / 2, base_y),
                    (c + size / 2, base_y),
                ]
                cv2.fillPoly(
                    u8, [(np.array([[px(x), px(y)] for x, y in pts]) * S).astype(np.int32)], acol, cv2.LINE_AA, sh
                )
            for tip, base_x in ((0.0, -size * 1.1), (7.0, 7 + size * 1.1)):
                pts = [
                    (tip - (size * 0.1 if tip == 0 else -size * 0.1), c),
                    (base_x, c - size / 2),
                    (base_x, c + size / 2),
                ]
                cv2.fillPoly(
                    u8, [(np.array([[px(x), px(y)] for x, y in pts]) * S).astype(np.int32)], acol, cv2.LINE_AA, sh
                )
    img = u8.astype(np.float32) / 255 * tex
    # rounded outer edge and a darker rim
    alpha = np.zeros((n, n), np.float32)
    rad = int(ppu * min(0.25, fw * 0.5))
    cv2.rectangle(alpha, (a0 + rad, a0), (a1 - rad, a1), 1.0, -1)
    cv2.rectangle(alpha, (a0, a0 + rad), (a1, a1 - rad), 1.0, -1)
    for x, y in ((a0 + rad, a0 + rad), (a1 - rad, a0 + rad), (a1 - rad, a1 - rad), (a0 + rad, a1 - rad)):
        cv2.circle(alpha, (x, y), rad, 1.0, -1)
    alpha = cv2.GaussianBlur(alpha, (0, 0), 0.8)
    rim = cv2.erode(alpha, np.ones((max(3, int(ppu * 0.03)),) * 2, np.uint8))
    img *= (0.55 + 0.45 * rim)[..., None]
    return img, alpha


def board_texture(scene, ppu: float, light_dir: tuple[float, float]):
    """(albedo RGB, emission (H,W) weight, alpha, margin e) of the board plane."""
    rng = np.random.default_rng(scene.rng_seed + 11)
    night = scene.lighting == "night"
    style, frame = scene.style, scene.frame
    e = frame["width"] + 0.3
    n = round((7 + 2 * e) * ppu)
    albedo = np.zeros((n, n, 3), np.float32)
    emission = np.zeros((n, n), np.float32)
    fimg, alpha = _frame(rng, albedo, ppu, e, frame, style)
    albedo[:] = fimg
    a0, a1 = int(e * ppu), int((7 + e) * ppu)
    base = np.asarray(style["base"], np.float32)
    albedo[a0:a1, a0:a1] = base * (1 + 0.1 * noise(rng, a1 - a0, a1 - a0, ppu * 0.3, 2))[..., None]
    tn = round((1 - style["gap"]) * ppu)
    atlas_n = int(tn * 2.5)
    wall_atlas, corr_atlas, line = style_atlases(rng, style, atlas_n, night)
    salt = zlib.crc32(f"{scene.edition}:{scene.rng_seed % 7}".encode())
    for (r, c), (dx, dy, ang) in scene.tile_jitter.items():
        tile = scene.tiles[r][c]
        img, glow = tile_image(
            rng,
            tile,
            tn,
            style,
            wall_atlas,
            corr_atlas,
            line,
            scene.treasure_names.get((r, c)),
            scene.start_colors.get((r, c)),
            salt,
            light_dir,
            night,
        )
        pad = int(tn * 0.06) + 2
        size = tn + 2 * pad
        cxw, cyw = (c + 0.5 + dx + e) * ppu, (r + 0.5 + dy + e) * ppu
        x0, y0 = int(np.floor(cxw - size / 2)), int(np.floor(cyw - size / 2))
        M = cv2.getRotationMatrix2D((tn / 2, tn / 2), ang, 1.0)
        M[:, 2] += (cxw - x0 - tn / 2, cyw - y0 - tn / 2)
        warped = cv2.warpAffine(img, M, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        a = cv2.warpAffine(np.ones((tn, tn), np.float32), M, (size, size), flags=cv2.INTER_LINEAR)
        # the tile's thickness throws a thin shadow into the gap, away from the light
        sh = np.roll(np.roll(a, round(-light_dir[1] * 2), 0), round(-light_dir[0] * 2), 1)
        _blend(albedo, np.zeros((size, size, 3), np.float32), cv2.GaussianBlur(sh, (0, 0), 1.2) * 0.5, x0, y0)
        _blend(albedo, warped, a, x0, y0)
        if night:
            _blend(emission, cv2.warpAffine(glow, M, (size, size), flags=cv2.INTER_LINEAR), a, x0, y0)
    return albedo, emission, alpha, e
