"""The table seen from straight above: table top, board frame, tiles, spare tile and cards.

Everything lying flat on the table is drawn here into one top-down *canvas*
(4 channels: BGR + glow paint) in world tile units; the camera then views it
through a single remap. Objects standing up (pawns, hands) are drawn later in
image space, but their shadows on the table are flat, so they are drawn here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.board import SIZE, is_fixed_square
from vision.render_art import TileArt, draw_picture, fbm
from vision.render_looks import BGR, Style, jitter_color

SHIFT = 4  # sub-pixel bits for cv2 drawing
ONE = 1 << SHIFT


@dataclass
class Canvas:
    """A top-down image of the table: world point ``(X, Y)`` is at pixel ``((X - x0) s - 0.5, (Y - y0) s - 0.5)``."""

    x0: float
    y0: float
    scale: float
    img: np.ndarray  # (h, w, 4) uint8: BGR + glow

    @classmethod
    def covering(cls, box: tuple[float, float, float, float], scale: float) -> Canvas:
        x0, y0, x1, y1 = box
        w = max(8, math.ceil((x1 - x0) * scale))
        h = max(8, math.ceil((y1 - y0) * scale))
        return cls(x0, y0, scale, np.zeros((h, w, 4), np.uint8))

    @property
    def from_world(self) -> np.ndarray:
        s = self.scale
        return np.array([[s, 0, -self.x0 * s - 0.5], [0, s, -self.y0 * s - 0.5], [0, 0, 1]], dtype=np.float64)

    def px(self, xy: np.ndarray) -> np.ndarray:
        xy = np.asarray(xy, dtype=np.float64).reshape(-1, 2)
        return np.column_stack([(xy[:, 0] - self.x0) * self.scale - 0.5, (xy[:, 1] - self.y0) * self.scale - 0.5])

    def ipoly(self, xy: np.ndarray) -> np.ndarray:
        """World polygon -> fixed-point int32 canvas polygon for cv2 with ``shift=SHIFT``."""
        return np.round(self.px(xy) * ONE).astype(np.int32)


def rect(cx: float, cy: float, w: float, h: float, angle: float) -> np.ndarray:
    """Corners of a ``w`` x ``h`` rectangle centred at ``(cx, cy)``, turned by ``angle`` radians."""
    ca, sa = math.cos(angle), math.sin(angle)
    pts = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return pts @ np.array([[ca, sa], [-sa, ca]]) + [cx, cy]


def rounded_rect(x0: float, y0: float, x1: float, y1: float, r: float, n: int = 6) -> np.ndarray:
    """Outline of an axis-aligned rectangle with corners rounded by ``r``."""
    pts = []
    for cx, cy, a0 in ((x1 - r, y0 + r, -90), (x1 - r, y1 - r, 0), (x0 + r, y1 - r, 90), (x0 + r, y0 + r, 180)):
        for k in range(n + 1):
            a = math.radians(a0 + 90 * k / n)
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return np.array(pts)


# --------------------------------------------------------------------------- layers


def draw_table(canvas: Canvas, style: Style, rng: np.random.Generator) -> None:
    """Table top texture, computed at a quarter of the canvas resolution (it is background)."""
    h, w = canvas.img.shape[:2]
    lh, lw = max(4, h // 4), max(4, w // 4)
    ys, xs = np.mgrid[0:lh, 0:lw].astype(np.float32)
    wx = canvas.x0 + (xs + 0.5) * (w / lw) / canvas.scale
    wy = canvas.y0 + (ys + 0.5) * (h / lh) / canvas.scale
    n = fbm(rng, lh, lw, max(lw, lh) / canvas.scale * 4 * 4 / 4)
    if style.table_texture == "wood":
        a = rng.uniform(0, math.pi)
        along = wx * math.cos(a) + wy * math.sin(a)
        across = -wx * math.sin(a) + wy * math.cos(a)
        # grain: bands of irregular width running along the planks, with fine streaks
        lo = float(across.min()) - 1.0
        span = float(across.max()) - lo + 2.0
        bands = np.convolve(rng.random(int(span / 0.05) + 2), np.ones(3) / 3, mode="same")
        pos = (across - lo + 0.15 * n) / 0.05
        grain = np.interp(pos.ravel(), np.arange(len(bands)), bands).reshape(pos.shape)
        streaks = rng.random(int(span / 0.012) + 2).astype(np.float32)
        fine = np.interp(((across - lo) / 0.012).ravel(), np.arange(len(streaks)), streaks).reshape(pos.shape)
        t = np.clip(0.55 * grain + 0.2 * fine + 0.25 * n, 0, 1)
        plank = rng.uniform(1.8, 3.5)
        gap = np.abs(((across / plank) % 1.0) - 0.5) > 0.494
        t = np.where(gap, 1.4, t)
        del along
    elif style.table_texture == "cloth":
        t = n * 0.5
    else:
        t = n * 0.25
    ca = np.array(style.table, np.float32)
    cb = np.array(style.table_accent, np.float32)
    low = ca + (cb - ca) * t[:, :, None]
    low4 = np.zeros((lh, lw, 4), np.uint8)
    low4[:, :, :3] = np.clip(low, 0, 255)
    canvas.img = cv2.resize(low4, (w, h), interpolation=cv2.INTER_LINEAR)


def cast_shadows(
    canvas: Canvas,
    polygons: Sequence[np.ndarray],
    softness: float,
    strength: float,
) -> None:
    """Darken the canvas under world polygons, blurred by ``softness`` tile units (at quarter resolution)."""
    if not polygons:
        return
    h, w = canvas.img.shape[:2]
    q = 4
    small = np.zeros((max(4, h // q), max(4, w // q)), np.float32)
    sx, sy = small.shape[1] / w, small.shape[0] / h
    for poly in polygons:
        p = canvas.px(poly)
        p = np.column_stack([(p[:, 0] + 0.5) * sx - 0.5, (p[:, 1] + 0.5) * sy - 0.5])
        cv2.fillPoly(small, [np.round(p * ONE).astype(np.int32)], 1.0, cv2.LINE_AA, shift=SHIFT)
    sigma = max(0.5, softness * canvas.scale * sx)
    small = cv2.GaussianBlur(small, (0, 0), sigma)
    ys, xs = np.nonzero(small > 0.01)
    if len(xs) == 0:
        return
    # only the shadowed region is brought to full resolution
    sx0, sx1 = max(0, int(xs.min()) - 1), min(small.shape[1], int(xs.max()) + 2)
    sy0, sy1 = max(0, int(ys.min()) - 1), min(small.shape[0], int(ys.max()) + 2)
    x0, x1 = round(sx0 / sx), min(w, round(sx1 / sx))
    y0, y1 = round(sy0 / sy), min(h, round(sy1 / sy))
    if x1 <= x0 or y1 <= y0:
        return
    piece = cv2.resize(small[sy0:sy1, sx0:sx1], (x1 - x0, y1 - y0), interpolation=cv2.INTER_LINEAR)
    keep = np.clip((1.0 - strength * np.clip(piece, 0, 1)) * 255.0, 0, 255).astype(np.uint8)
    keep4 = cv2.merge([keep, keep, keep, np.full_like(keep, 255)])
    roi = canvas.img[y0:y1, x0:x1]
    cv2.multiply(roi, keep4, dst=roi, scale=1 / 255.0)


def board_outline(frame: float) -> np.ndarray:
    """The board's outer edge (frame included) on the table, in tile units."""
    return rounded_rect(-frame, -frame, SIZE + frame, SIZE + frame, frame * 0.35)


def draw_frame(canvas: Canvas, style: Style, rng: np.random.Generator, frame: float, gap: float) -> None:
    """The board: its frame with gate arrows, and the dark base under the tiles."""
    outer = board_outline(frame)
    cv2.fillPoly(canvas.img, [canvas.ipoly(outer)], (*style.frame, 0), cv2.LINE_AA, shift=SHIFT)
    # frame texture: gentle mottling
    p = canvas.px(np.array([[-frame, -frame], [SIZE + frame, SIZE + frame]]))
    x0, y0 = (max(0, int(v)) for v in p[0])
    x1, y1 = int(min(canvas.img.shape[1], p[1][0] + 1)), int(min(canvas.img.shape[0], p[1][1] + 1))
    if x1 > x0 + 4 and y1 > y0 + 4:
        # (the table showing at the rounded corners gets the same gentle mottling: harmless)
        n = fbm(rng, max(4, (y1 - y0) // 8), max(4, (x1 - x0) // 8), 12)
        k = cv2.resize(((0.9 + 0.2 * n) * 200.0).astype(np.uint8), (x1 - x0, y1 - y0))
        roi = canvas.img[y0:y1, x0:x1]
        cv2.multiply(roi, cv2.merge([k, k, k, np.full_like(k, 200)]), dst=roi, scale=1 / 200.0)
    # trim line around the tile area and the outer edge
    lip = 0.06
    inner = np.array([[-lip, -lip], [SIZE + lip, -lip], [SIZE + lip, SIZE + lip], [-lip, SIZE + lip]])
    trim = max(1, int(canvas.scale * 0.025))
    cv2.polylines(canvas.img, [canvas.ipoly(inner)], True, (*style.frame_accent, 0), trim, cv2.LINE_AA, shift=SHIFT)
    cv2.polylines(canvas.img, [canvas.ipoly(outer)], True, (*jitter_color(rng, style.frame, val=0.4), 0), trim,
                  cv2.LINE_AA, shift=SHIFT)  # fmt: skip
    base = np.array([[-gap, -gap], [SIZE + gap, -gap], [SIZE + gap, SIZE + gap], [-gap, SIZE + gap]])
    cv2.fillPoly(canvas.img, [canvas.ipoly(base)], (*style.seam, 0), cv2.LINE_AA, shift=SHIFT)
    # gate arrows pointing into the board
    depth = min(frame * 0.6, 0.35)
    for i in (1, 3, 5):
        m = i + 0.5
        d = frame * 0.5
        for tip, back, half in (
            ((m, -d + depth / 2), (m, -d - depth / 2), (0.22, 0)),
            ((m, SIZE + d - depth / 2), (m, SIZE + d + depth / 2), (0.22, 0)),
            ((-d + depth / 2, m), (-d - depth / 2, m), (0, 0.22)),
            ((SIZE + d - depth / 2, m), (SIZE + d + depth / 2, m), (0, 0.22)),
        ):
            tri = np.array([tip, (back[0] - half[0], back[1] - half[1]), (back[0] + half[0], back[1] + half[1])])
            cv2.fillPoly(canvas.img, [canvas.ipoly(tri)], (*style.frame_accent, 0), cv2.LINE_AA, shift=SHIFT)


def place_patch(canvas: Canvas, patch: np.ndarray, center: tuple[float, float], size: float, angle: float) -> None:
    """Paste a square patch (side ``size`` tile units) centred at a world point, rotated by ``angle``."""
    p = patch.shape[0]
    c = canvas.px(np.array(center))[0]
    k = size * canvas.scale / p
    ca, sa = math.cos(angle) * k, math.sin(angle) * k
    half = (p - 1) / 2.0
    reach = math.ceil(p * k * 0.75) + 2
    x0, y0 = math.floor(c[0]) - reach, math.floor(c[1]) - reach
    h, w = canvas.img.shape[:2]
    rx0, ry0, rx1, ry1 = max(0, x0), max(0, y0), min(w, x0 + 2 * reach), min(h, y0 + 2 * reach)
    if rx1 <= rx0 or ry1 <= ry0:
        return
    # patch (u, v) -> roi: rotate about the patch centre, scale, move to c
    m = np.array([
        [ca, -sa, c[0] - rx0 - (ca * half - sa * half)],
        [sa, ca, c[1] - ry0 - (sa * half + ca * half)],
    ])  # fmt: skip
    roi = canvas.img[ry0:ry1, rx0:rx1]
    cv2.warpAffine(patch, m, (rx1 - rx0, ry1 - ry0), dst=roi, flags=cv2.INTER_LINEAR,
                   borderMode=cv2.BORDER_TRANSPARENT)  # fmt: skip


def draw_tiles(
    canvas: Canvas,
    art: TileArt,
    tiles: Sequence[int],
    pictures: Mapping[int, int],
    rings: Mapping[int, BGR],
    piece_rng: Callable[[int], np.random.Generator],
    gap: float,
) -> None:
    """The 49 tile pieces: fixed ones printed in place, movable ones slightly jittered.

    ``piece_rng(i)`` gives square ``i``'s own random stream (texture and jitter),
    so squares whose tile did not change render identically frame after frame.
    """
    size = 1.0 - gap
    for i, openings in enumerate(tiles):
        r, c = divmod(i, SIZE)
        rng = piece_rng(i)
        face = art.face(openings, pictures.get(i), rings.get(i), rng)
        if is_fixed_square((r, c)):
            dx = dy = ang = 0.0
        else:
            dx, dy = np.clip(rng.normal(0, 0.012, 2), -gap * 0.9, gap * 0.9)
            ang = float(np.clip(rng.normal(0, math.radians(0.6)), -math.radians(1.5), math.radians(1.5)))
        place_patch(canvas, face, (c + 0.5 + dx, r + 0.5 + dy), size, ang)


def draw_card(canvas: Canvas, style: Style, rng: np.random.Generator, center: tuple[float, float], angle: float,
              picture: int | None) -> np.ndarray:
    """One playing card (face down with a pattern, or face up with a picture); returns its outline."""
    w, h = 1.25, 1.85
    outline = rect(center[0], center[1], w, h, angle)
    px = max(16, int(canvas.scale * w))
    py = int(px * h / w)
    card = np.zeros((py, px, 4), np.float32)
    if picture is None:
        back = jitter_color(rng, (120, 50, 40) if rng.random() < 0.5 else (40, 40, 130), hue=0.1, val=0.3)
        card[:] = (*back, 0)
        b = int(px * 0.08)
        cv2.rectangle(card, (b, b), (px - b, py - b), (230, 225, 215, 0), max(1, px // 40))
        for k in range(1, 6):
            y = b + k * (py - 2 * b) // 6
            cv2.line(card, (b, y), (px - b, y), (*jitter_color(rng, back, val=0.4), 0), max(1, px // 60))
    else:
        card[:] = (235, 240, 242, 0)
        cv2.rectangle(card, (2, 2), (px - 3, py - 3), (90, 90, 90, 0), max(1, px // 50))
        draw_picture(card, ((px - 1) / 2, (py - 1) / 2), px * 0.35, picture, style, 0.0, 0.0)
    # paste via an affine warp of the card image
    src = np.array([[0, 0], [px - 1, 0], [px - 1, py - 1]], dtype=np.float32)
    dst = canvas.px(outline[:3]).astype(np.float32)
    m = cv2.getAffineTransform(src, dst)
    x0, y0 = np.floor(canvas.px(outline).min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(canvas.px(outline).max(axis=0)).astype(int) + 2
    hh, ww = canvas.img.shape[:2]
    rx0, ry0, rx1, ry1 = max(0, x0), max(0, y0), min(ww, x1), min(hh, y1)
    if rx1 > rx0 and ry1 > ry0:
        m[:, 2] -= (rx0, ry0)
        cv2.warpAffine(np.clip(card, 0, 255).astype(np.uint8), m, (rx1 - rx0, ry1 - ry0),
                       dst=canvas.img[ry0:ry1, rx0:rx1], flags=cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_TRANSPARENT)  # fmt: skip
    return outline


def table_spot(rng: np.random.Generator, frame: float, extent: float, clearance: float) -> tuple[float, float]:
    """A random point on the table beside the board (not on it)."""
    side = int(rng.integers(0, 4))
    out = frame + clearance + rng.uniform(0, extent)
    along = rng.uniform(-0.5, SIZE + 0.5)
    if side == 0:
        return (along, -out)
    if side == 1:
        return (SIZE + out, along)
    if side == 2:
        return (along, SIZE + out)
    return (-out, along)


def draw_markers(canvas: Canvas, frame: float) -> list[np.ndarray]:
    """ArUco 4x4_50 markers 0..3 on the frame corners (TL TR BR BL), for rigs that use them; returns their centres."""
    aruco = cv2.aruco
    dictionary = aruco.getPredefinedDictionary(aruco.DICT_4X4_50)
    side = frame * 0.8
    px = max(24, round(side * canvas.scale))
    centres = []
    for marker, (cx, cy) in enumerate(((-frame / 2, -frame / 2), (SIZE + frame / 2, -frame / 2),
                                        (SIZE + frame / 2, SIZE + frame / 2), (-frame / 2, SIZE + frame / 2))):
        code = aruco.generateImageMarker(dictionary, marker, px)
        # a white quiet zone of one module around the 6x6-module marker
        quiet = px // 6
        img = cv2.copyMakeBorder(code, quiet, quiet, quiet, quiet, cv2.BORDER_CONSTANT, value=255)
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
        patch = np.dstack([img, np.zeros(img.shape[:2], np.uint8)])
        patch = cv2.resize(patch, (px, px), interpolation=cv2.INTER_AREA)
        place_patch(canvas, patch, (cx, cy), side, 0.0)
        centres.append(np.array([cx, cy]))
    return centres


@dataclass(frozen=True)
class Clutter:
    """Something else on the table: a cup, a phone or the game box's lid (a distractor for board finding)."""

    kind: str  # cup | phone | lid
    x: float
    y: float
    angle: float
    color: BGR

    @property
    def size(self) -> tuple[float, float]:
        return {"cup": (1.8, 1.8), "phone": (1.7, 3.4), "lid": (9.0, 9.0)}[self.kind]

    def outline(self) -> np.ndarray:
        w, h = self.size
        if self.kind == "cup":
            a = np.linspace(0, 2 * math.pi, 32, endpoint=False)
            return np.column_stack([self.x + w / 2 * np.cos(a), self.y + h / 2 * np.sin(a)])
        return rect(self.x, self.y, w, h, self.angle)

    def draw(self, canvas: Canvas) -> None:
        if self.kind == "cup":
            r = self.size[0] / 2
            rim = canvas.ipoly(self.outline())
            cv2.fillPoly(canvas.img, [rim], (*self.color, 0), cv2.LINE_AA, shift=SHIFT)
            inner = canvas.ipoly(_circle(self.x, self.y, r * 0.82))
            cv2.fillPoly(canvas.img, [inner], (*(v * 0.75 for v in self.color), 0), cv2.LINE_AA, shift=SHIFT)
            drink = canvas.ipoly(_circle(self.x + 0.05, self.y + 0.05, r * 0.72))
            cv2.fillPoly(canvas.img, [drink], (20, 45, 70, 0), cv2.LINE_AA, shift=SHIFT)
            ca, sa = math.cos(self.angle), math.sin(self.angle)
            handle = rect(self.x + ca * r * 1.15, self.y + sa * r * 1.15, 0.5, 0.22, self.angle)
            cv2.fillPoly(canvas.img, [canvas.ipoly(handle)], (*self.color, 0), cv2.LINE_AA, shift=SHIFT)
        elif self.kind == "phone":
            cv2.fillPoly(canvas.img, [canvas.ipoly(self.outline())], (30, 30, 32, 0), cv2.LINE_AA, shift=SHIFT)
            w, h = self.size
            screen = rect(self.x, self.y, w * 0.88, h * 0.9, self.angle)
            cv2.fillPoly(canvas.img, [canvas.ipoly(screen)], (*self.color, 0), cv2.LINE_AA, shift=SHIFT)
        else:
            cv2.fillPoly(canvas.img, [canvas.ipoly(self.outline())], (*self.color, 0), cv2.LINE_AA, shift=SHIFT)
            w, h = self.size
            band = rect(self.x, self.y, w * 0.9, h * 0.25, self.angle)
            cv2.fillPoly(canvas.img, [canvas.ipoly(band)], (*(min(255.0, v * 1.5 + 40) for v in self.color), 0),
                         cv2.LINE_AA, shift=SHIFT)  # fmt: skip


def _circle(x: float, y: float, r: float) -> np.ndarray:
    a = np.linspace(0, 2 * math.pi, 32, endpoint=False)
    return np.column_stack([x + r * np.cos(a), y + r * np.sin(a)])


def random_clutter(rng: np.random.Generator, frame: float) -> list[Clutter]:
    """Zero to two objects lying beside the board, clear of it."""
    items = []
    for _ in range(int(rng.choice([0, 0, 1, 1, 2]))):
        kind = str(rng.choice(["cup", "phone", "lid"], p=[0.45, 0.35, 0.2]))
        clearance = {"cup": 1.3, "phone": 2.0, "lid": 5.2}[kind]
        x, y = table_spot(rng, frame, 2.5, clearance)
        color = jitter_color(rng, tuple(float(v) for v in rng.uniform(40, 230, 3)), sat=0.3)  # type: ignore[arg-type]
        items.append(Clutter(kind, x, y, float(rng.uniform(0, math.pi)), color))
    return items
