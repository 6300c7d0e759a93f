"""Printed artwork for the renderer: textures, tile faces and treasure pictures.

Every tile face is a 4-channel patch: BGR plus a *glow* channel that says how
much glow-in-the-dark paint the spot carries (walls and pictures), used by the
night lighting. Textures come from per-scene sheets twice the tile size, each
tile cropping a random window (flipped or transposed), so neighbouring tiles
never repeat exactly while the whole scene costs only a few sheet draws.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass

import cv2
import numpy as np

from companion.board import EDITIONS
from vision.render_looks import BGR, Style, jitter_color

# --------------------------------------------------------------------------- noise and sheets


def value_noise(rng: np.random.Generator, h: int, w: int, cells: float) -> np.ndarray:
    """Smooth noise in 0..1 with about ``cells`` bumps across the longer side."""
    n = max(2, int(cells))
    gh = max(2, round(n * h / max(h, w)) + 1)
    gw = max(2, round(n * w / max(h, w)) + 1)
    small = rng.random((gh, gw), dtype=np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def fbm(rng: np.random.Generator, h: int, w: int, cells: float, octaves: int = 3) -> np.ndarray:
    """A few octaves of value noise, normalised to 0..1."""
    total = np.zeros((h, w), np.float32)
    amp, norm = 1.0, 0.0
    for k in range(octaves):
        total += amp * value_noise(rng, h, w, cells * 2**k)
        norm += amp
        amp *= 0.5
    total /= norm
    lo, hi = float(total.min()), float(total.max())
    return (total - lo) / max(hi - lo, 1e-6)


def _mix(a: BGR, b: BGR, t: np.ndarray) -> np.ndarray:
    """Blend two colours by a 0..1 field into a float32 BGR image."""
    ca = np.array(a, np.float32)
    cb = np.array(b, np.float32)
    return ca + (cb - ca) * t[:, :, None]


def _shade(rng: np.random.Generator, color: BGR, spread: float) -> tuple[float, float, float]:
    k = rng.uniform(1 - spread, 1 + spread)
    return tuple(float(min(c * k, 255)) for c in color)  # type: ignore[return-value]


def stone_cells(rng: np.random.Generator, size: int, cell: float, base: BGR, mortar: BGR,
                spread: float = 0.15) -> np.ndarray:
    """Irregular stones (Voronoi cells around random seeds) with rounded, shaded edges and mortar joints."""
    n = max(4, int((size / max(cell, 2.0)) ** 2))
    seeds = np.ones((size, size), np.uint8)
    pts = rng.integers(0, size, (n, 2))
    seeds[pts[:, 1], pts[:, 0]] = 0
    _, labels = cv2.distanceTransformWithLabels(seeds, cv2.DIST_L2, 5, labelType=cv2.DIST_LABEL_PIXEL)
    edge = np.zeros((size, size), np.uint8)
    edge[:, :-1] |= (labels[:, :-1] != labels[:, 1:]).astype(np.uint8)
    edge[:-1, :] |= (labels[:-1, :] != labels[1:, :]).astype(np.uint8)
    joint = max(1, int(cell * 0.08))
    joints: np.ndarray = cv2.dilate(edge, np.ones((joint, joint), np.uint8))
    inside = cv2.distanceTransform(1 - joints, cv2.DIST_L2, 3)
    bevel = np.clip(inside / max(cell * 0.18, 1.0), 0, 1)
    tone = rng.uniform(1 - spread, 1 + spread, labels.max() + 1).astype(np.float32)[labels]
    stones = np.array(base, np.float32) * (tone * (0.72 + 0.28 * bevel))[:, :, None]
    gaps = np.broadcast_to(np.array(mortar, np.float32), stones.shape)
    return np.where(joints[:, :, None] > 0, gaps, stones).astype(np.float32)


def wall_sheet(style: Style, rng: np.random.Generator, size: int, tile_px: int) -> np.ndarray:
    """A float32 BGR texture of wall material, ``size`` pixels square."""
    kind = style.wall_texture
    t = float(tile_px)
    if kind == "stones":
        img = stone_cells(rng, size, t * rng.uniform(0.16, 0.26), style.wall, style.wall_accent)
        img *= (0.88 + 0.24 * fbm(rng, size, size, size / t * 6))[:, :, None]
    elif kind == "bricks":
        img = np.zeros((size, size, 3), np.float32)
        img[:] = style.wall_accent
        bh = max(3, int(t * rng.uniform(0.09, 0.14)))
        bw = int(bh * rng.uniform(1.8, 2.6))
        mortar = max(1, bh // 6)
        for row, y in enumerate(range(0, size, bh)):
            off = (bw // 2) * (row % 2)
            for x in range(-off, size, bw):
                cv2.rectangle(img, (x + mortar, y + mortar), (x + bw - mortar, y + bh - mortar),
                              _shade(rng, style.wall, 0.1), -1)  # fmt: skip
        img *= (0.85 + 0.3 * fbm(rng, size, size, size / t * 5))[:, :, None]
    elif kind == "hedge":
        img = _mix(style.wall_accent, style.wall, fbm(rng, size, size, size / t * 3))
        for _ in range(int(500 * (size / t) ** 2 / 4)):
            c = (int(rng.uniform(0, size)), int(rng.uniform(0, size)))
            r = max(1, int(rng.uniform(0.015, 0.04) * t))
            tone = rng.uniform(0.6, 1.35)
            cv2.circle(img, c, r, tuple(float(min(v * tone, 255)) for v in style.wall), -1, cv2.LINE_AA)
    elif kind == "grass":
        img = _mix(style.wall, jitter_color(rng, style.wall, val=0.2), fbm(rng, size, size, size / t * 2))
        for _ in range(int(260 * (size / t) ** 2 / 4)):
            x, y = rng.uniform(0, size, 2)
            ang = rng.uniform(-0.5, 0.5) - math.pi / 2
            ln = rng.uniform(0.03, 0.07) * t
            col = _shade(rng, style.wall, 0.25)
            cv2.line(img, (int(x), int(y)), (int(x + ln * math.cos(ang)), int(y + ln * math.sin(ang))), col, 1,
                     cv2.LINE_AA)  # fmt: skip
        for _ in range(int(12 * (size / t) ** 2 / 4)):
            c = (int(rng.uniform(0, size)), int(rng.uniform(0, size)))
            cv2.circle(img, c, max(1, int(0.025 * t)), style.wall_accent, -1, cv2.LINE_AA)
    elif kind == "paint":
        img = _mix(style.wall, style.wall_accent, fbm(rng, size, size, size / t * 4) * 0.7)
        streak = cv2.resize(rng.random((size // 8 + 2, 3), dtype=np.float32), (size, size))
        img *= (0.94 + 0.1 * streak)[:, :, None]
    else:  # rock
        n = fbm(rng, size, size, size / t * 3, octaves=4)
        img = stone_cells(rng, size, t * rng.uniform(0.3, 0.5), style.wall, style.wall_accent, spread=0.25)
        img *= (0.75 + 0.5 * n)[:, :, None]
        for _ in range(int(10 * (size / t) ** 2 / 4)):
            pts = np.cumsum(rng.normal(0, 0.06 * t, (5, 2)), axis=0) + rng.uniform(0, size, 2)
            cv2.polylines(img, [pts.astype(np.int32)], False, _shade(rng, style.wall_accent, 0.2), 1, cv2.LINE_AA)
    return img


def corridor_sheet(style: Style, rng: np.random.Generator, size: int, tile_px: int) -> np.ndarray:
    """A float32 BGR texture of corridor floor, ``size`` pixels square."""
    kind = style.corridor_texture
    t = float(tile_px)
    base = _mix(style.corridor, style.corridor_accent, fbm(rng, size, size, size / t * 2) * 0.5)
    if kind == "gravel":
        speck: np.ndarray = cv2.GaussianBlur(rng.random((size, size), dtype=np.float32), (0, 0), max(0.6, t / 120))
        base *= (0.8 + 0.4 * (speck - speck.min()) / max(float(np.ptp(speck)), 1e-6))[:, :, None]
    elif kind == "planks":
        pw = max(4, int(t * rng.uniform(0.12, 0.2)))
        grain = value_noise(rng, size, size, size / t * 8)
        base = _mix(style.corridor, style.corridor_accent, grain * 0.6)
        for x in range(0, size, pw):
            cv2.line(base, (x, 0), (x, size), style.corridor_accent, max(1, pw // 10))
    elif kind == "sand":
        base *= (0.9 + 0.2 * fbm(rng, size, size, size / t * 10, octaves=2))[:, :, None]
    elif kind == "flagstones":
        cells = stone_cells(rng, size, t * rng.uniform(0.2, 0.3), style.corridor, style.corridor_accent, 0.08)
        base = cells * (0.92 + 0.16 * fbm(rng, size, size, size / t * 6))[:, :, None]
    else:  # smooth
        base *= (0.97 + 0.06 * fbm(rng, size, size, size / t * 5))[:, :, None]
    return base


# --------------------------------------------------------------------------- corridor shapes


def corridor_mask(openings: int, px: int, width: float, rounded: bool) -> np.ndarray:
    """Float32 0..1 mask of the corridor of a tile ``px`` pixels square (row 0 = north)."""
    m = np.zeros((px, px), np.uint8)
    half = width * px / 2.0
    c = (px - 1) / 2.0
    lo, hi = round(c - half), round(c + half)
    cv2.rectangle(m, (lo, lo), (hi, hi), 255, -1)
    if openings & 1:
        cv2.rectangle(m, (lo, 0), (hi, hi), 255, -1)
    if openings & 2:
        cv2.rectangle(m, (lo, lo), (px - 1, hi), 255, -1)
    if openings & 4:
        cv2.rectangle(m, (lo, lo), (hi, px - 1), 255, -1)
    if openings & 8:
        cv2.rectangle(m, (0, lo), (hi, hi), 255, -1)
    mf = m.astype(np.float32) / 255.0
    if rounded:
        # round the inner corners, keep the ends at the tile sides square
        blurred = cv2.GaussianBlur(mf, (0, 0), px * 0.05)
        mf = np.clip((blurred - 0.5) * 6 + 0.5, 0, 1)
        edge = max(2, int(px * 0.12))
        for bit, sl in ((1, np.s_[:edge, :]), (4, np.s_[-edge:, :]), (8, np.s_[:, :edge]), (2, np.s_[:, -edge:])):
            if openings & bit:
                mf[sl] = np.maximum(mf[sl], m[sl].astype(np.float32) / 255.0)
    else:
        mf = np.asarray(cv2.GaussianBlur(mf, (3, 3), 0.6), dtype=np.float32)
    return mf


# --------------------------------------------------------------------------- treasure pictures

PICTURE_COLORS: tuple[BGR, ...] = (
    (45, 45, 205), (30, 135, 240), (35, 205, 235), (50, 195, 120), (60, 130, 30), (160, 150, 25),
    (225, 185, 40), (185, 75, 25), (150, 40, 120), (185, 60, 215), (40, 70, 125), (45, 40, 40),
)  # fmt: skip
SHAPES: tuple[str, ...] = (
    "circle", "square", "triangle", "diamond", "star", "cross",
    "heart", "crescent", "hexagon", "ring", "arrow", "bolt",
)  # fmt: skip

_TREASURE_INDEX: dict[str, int] = {
    name: i for edition in EDITIONS.values() for i, name in enumerate(edition.treasures)
}


def treasure_index(name: str) -> int:
    """0..23: the picture used for a treasure (its index in its edition, else a stable hash)."""
    if name in _TREASURE_INDEX:
        return _TREASURE_INDEX[name]
    return zlib.crc32(name.encode()) % 24


def picture_design(index: int) -> tuple[str, BGR]:
    """Shape and colour of picture ``index``: all 24 pairs differ (same shape -> far colours)."""
    shape = SHAPES[index % 12]
    color = PICTURE_COLORS[(index + (index // 12) * 6) % 12]
    return shape, color


def _polygon(shape: str) -> np.ndarray | None:
    """Unit-radius outline of a shape, or None for shapes drawn with circles."""
    ang = lambda n, off=0.0: np.linspace(0, 2 * math.pi, n, endpoint=False) + off  # noqa: E731
    if shape == "square":
        a = ang(4, math.pi / 4)
        return np.column_stack([np.cos(a), np.sin(a)]) * 0.95
    if shape == "triangle":
        a = ang(3, -math.pi / 2)
        return np.column_stack([np.cos(a), np.sin(a)]) * 1.05 + [0, 0.1]
    if shape == "diamond":
        return np.array([[0, -1.05], [0.62, 0], [0, 1.05], [-0.62, 0]])
    if shape == "hexagon":
        a = ang(6)
        return np.column_stack([np.cos(a), np.sin(a)])
    if shape == "star":
        a = ang(10, -math.pi / 2)
        r = np.where(np.arange(10) % 2 == 0, 1.05, 0.45)
        return np.column_stack([np.cos(a) * r, np.sin(a) * r])
    if shape == "cross":
        w = 0.32
        return np.array([[-w, -1], [w, -1], [w, -w], [1, -w], [1, w], [w, w], [w, 1], [-w, 1], [-w, w], [-1, w],
                         [-1, -w], [-w, -w]])  # fmt: skip
    if shape == "heart":
        t = np.linspace(0, 2 * math.pi, 40, endpoint=False)
        x = 16 * np.sin(t) ** 3
        y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))
        return np.column_stack([x, y]) / 16.5
    if shape == "arrow":
        return np.array([[0, -1], [0.75, -0.1], [0.3, -0.1], [0.3, 1], [-0.3, 1], [-0.3, -0.1], [-0.75, -0.1]])
    if shape == "bolt":
        return np.array([[0.15, -1], [0.6, -1], [0.2, -0.15], [0.6, -0.15], [-0.3, 1], [-0.05, 0.1], [-0.5, 0.1]])
    return None


def draw_picture(
    patch: np.ndarray,
    center: tuple[float, float],
    radius: float,
    index: int,
    style: Style,
    angle: float,
    glow: float,
) -> None:
    """Draw treasure picture ``index`` onto a 4-channel float32 patch (BGR + glow)."""
    shape, color = picture_design(index)
    dark = (25.0, 25.0, 30.0)
    cx, cy = center
    g = float(np.clip(glow * 255, 0, 255))
    lw = max(1, round(radius * 0.08))
    if style.plaque is not None:
        cv2.circle(patch, (round(cx), round(cy)), round(radius), (*style.plaque, g * 0.6), -1,
                   cv2.LINE_AA)  # fmt: skip
        cv2.circle(patch, (round(cx), round(cy)), round(radius), (*dark, g * 0.6), lw, cv2.LINE_AA)
    r = radius * (0.68 if style.plaque is not None else 0.9)
    fill = (*color, g)
    line = (*dark, g)
    ci = (round(cx), round(cy))
    if shape in ("circle", "ring", "crescent"):
        cv2.circle(patch, ci, round(r * 0.9), fill, -1, cv2.LINE_AA)
        cv2.circle(patch, ci, round(r * 0.9), line, lw, cv2.LINE_AA)
        if shape == "ring":
            inner = (*(style.plaque or style.corridor), g * 0.6)
            cv2.circle(patch, ci, round(r * 0.45), inner, -1, cv2.LINE_AA)
            cv2.circle(patch, ci, round(r * 0.45), line, lw, cv2.LINE_AA)
        elif shape == "crescent":
            off = (round(cx + r * 0.45 * math.cos(angle)), round(cy + r * 0.45 * math.sin(angle)))
            cv2.circle(patch, off, round(r * 0.72), (*(style.plaque or style.corridor), g * 0.6), -1,
                       cv2.LINE_AA)  # fmt: skip
        return
    poly = _polygon(shape)
    assert poly is not None
    ca, sa = math.cos(angle), math.sin(angle)
    rot = np.array([[ca, -sa], [sa, ca]])
    pts = (poly @ rot.T) * r + [cx, cy]
    pts_i = np.round(pts * 4).astype(np.int32)
    cv2.fillPoly(patch, [pts_i], fill, cv2.LINE_AA, shift=2)
    cv2.polylines(patch, [pts_i], True, line, lw, cv2.LINE_AA, shift=2)


# --------------------------------------------------------------------------- tile faces


@dataclass
class TileArt:
    """Per-scene tile painter: textures are drawn once, each tile crops them."""

    style: Style
    rng: np.random.Generator
    px: int
    light_dir: tuple[float, float]

    def __post_init__(self) -> None:
        size = 2 * self.px
        self.walls = wall_sheet(self.style, self.rng, size, self.px)
        self.floors = corridor_sheet(self.style, self.rng, size, self.px)
        self._masks: dict[int, tuple] = {}

    def _crop(self, sheet: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        p = self.px
        y, x = rng.integers(0, sheet.shape[0] - p + 1, 2)
        crop = sheet[y : y + p, x : x + p]
        k = int(rng.integers(0, 4))
        return np.rot90(crop, k)

    def mask(self, openings: int) -> np.ndarray:
        return self._layers(openings)[0]

    def _layers(self, openings: int) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, np.ndarray, np.ndarray | None]:
        """Per-shape layers, computed once a scene: mask, floor shading, outline weight, glow paint, wall relief."""
        if openings not in self._masks:
            st, p = self.style, self.px
            m = corridor_mask(openings, p, st.corridor_width, st.rounded)
            # printed relief: walls shade the corridor beside them, more on the side away from the light
            lx, ly = self.light_dir
            shift = np.array([[1, 0, lx * p * 0.05], [0, 1, ly * p * 0.05]], dtype=np.float32)
            walls = cv2.warpAffine(1.0 - m, shift, (p, p), borderMode=cv2.BORDER_REPLICATE)
            shade = cv2.GaussianBlur(walls, (0, 0), p * 0.05)
            floor_k = (1.0 - st.wall_shade * shade)[:, :, None]
            edge = None
            if st.outline is not None:
                w = max(1, round(st.outline_width * p))
                e = cv2.morphologyEx((m > 0.5).astype(np.uint8), cv2.MORPH_GRADIENT, np.ones((w + 1, w + 1), np.uint8))
                edge = cv2.GaussianBlur(e.astype(np.float32), (3, 3), 0.7)[:, :, None]
            glow = (1.0 - m) * (st.glow_walls * 255.0)
            wall_k = None
            if st.relief > 0:
                # raised walls: the face looking south (toward the viewer) shows below each block's top
                band = max(1, round(p * 0.07))
                below = np.zeros_like(m)
                below[:-band] = m[band:]  # corridor within `band` pixels south of this point
                face = np.clip((1.0 - m) * below, 0, 1)
                face = cv2.GaussianBlur(face, (3, 3), 0.6)
                wall_k = (1.0 - st.relief * face)[:, :, None]
            self._masks[openings] = (m[:, :, None], floor_k, edge, glow, wall_k)
        return self._masks[openings]

    def face(
        self,
        openings: int,
        picture: int | None = None,
        ring: BGR | None = None,
        rng: np.random.Generator | None = None,
    ) -> np.ndarray:
        """A 4-channel uint8 tile face (BGR + glow), north up.

        ``rng`` picks this piece's texture crop, tint and picture angle; the
        renderer keys it by square and tile so an unchanged square renders the
        same in every frame of a game.
        """
        st, p = self.style, self.px
        rng = self.rng if rng is None else rng
        m, floor_k, edge, glow, wall_k = self._layers(openings)
        wall = self._crop(self.walls, rng)
        if wall_k is not None:
            wall = wall * wall_k
        floor = self._crop(self.floors, rng) * floor_k
        patch = np.empty((p, p, 4), np.float32)
        rgb = patch[:, :, :3]
        np.multiply(floor - wall, m, out=rgb)
        rgb += wall
        if edge is not None:
            rgb += (np.array(st.outline, np.float32) - rgb) * edge
        rgb *= float(rng.uniform(0.95, 1.05))
        patch[:, :, 3] = glow * float(rng.uniform(0.8, 1.15))  # unevenly charged glow paint
        c = (p - 1) / 2.0
        if ring is not None:
            rr = round(p * st.corridor_width * 0.42)
            cv2.circle(patch, (round(c), round(c)), rr, (*ring, 0.0), max(2, int(p * 0.035)), cv2.LINE_AA)
        if picture is not None:
            angle = float(rng.integers(0, 4)) * math.pi / 2 + rng.normal(0, 0.05)
            draw_picture(patch, (c, c), p * st.picture_scale / 2, picture, st, angle, st.glow_pictures)
        self._bevel(patch)
        return np.clip(patch, 0, 255).astype(np.uint8)

    def _bevel(self, patch: np.ndarray) -> None:
        """Light the tile's edges facing the light and darken the others (a raised piece)."""
        p = self.px
        b = max(1, round(p * 0.025))
        lx, ly = self.light_dir
        # shadows fall along light_dir, so edges facing against it are lit
        lit_left, lit_top = lx > 0, ly > 0
        for sl, lit in (
            (np.s_[:, :b], lit_left), (np.s_[:, -b:], not lit_left),
            (np.s_[:b, :], lit_top), (np.s_[-b:, :], not lit_top),
        ):  # fmt: skip
            patch[(*sl, slice(0, 3))] *= 1.18 if lit else 0.72
