"""The sixth renderer's board plane: the printed board, the 33 movable pieces, the spare and the cards.

Everything lying (nearly) flat is drawn top-down on one canvas, ``s`` pixels per tile, and later
seen through the camera: the frame with gate arrows and start marks, the 16 fixed tiles printed
on the board, the movable tiles as separate pieces (a dark gap of board between them, a bevel lit
from the lamp's side, a small drop shadow, a little jitter and rotation), the spare tile and a few
treasure cards on the table beside the board, and the board's own shadow on the table.

Styles follow the real editions (classic: light corridors, stone or earth walls, a blue-ish frame;
Harry Potter: dark castle stone and parchment or flagstone; Pokemon: grass with trees, sand paths)
plus two of our own (a hedge garden with brick paths; an ice board whose corridors are DARKER
than its walls), so nothing may rely on "corridors are light".
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.board import SIZE
from tests.support.sixth_render_art import Colour, noise, texture, treasure

#: Start-corner colours (BGR) as printed marks.
MARK: dict[str, Colour] = {
    "red": (40, 40, 200),
    "yellow": (40, 200, 230),
    "green": (60, 150, 40),
    "blue": (190, 90, 30),
}


@dataclass(frozen=True)
class Style:
    """One edition's look: wall/corridor materials, frame, arrows, corridor width, decorations."""

    name: str
    wall: tuple[str, Colour]
    corridor: tuple[str, Colour]
    frame: Colour
    base: Colour
    arrow: Colour
    width: tuple[float, float] = (0.30, 0.42)  # corridor width as a fraction of the tile
    organic: bool = False
    trees: bool = False
    alternatives: tuple[tuple[str, Colour], ...] = field(default=())  # other wall materials


STYLES: tuple[Style, ...] = (
    Style("classic", ("stone", (70, 105, 140)), ("parchment", (185, 215, 232)), (150, 95, 45), (40, 50, 60),
          (40, 200, 240), alternatives=(("earth", (50, 85, 125)),)),
    Style("harry-potter", ("brick", (72, 74, 80)), ("parchment", (140, 195, 222)), (35, 35, 100), (25, 25, 30),
          (50, 180, 220), alternatives=(("stone", (60, 62, 66)),)),
    Style("harry-potter-flag", ("stone", (55, 58, 64)), ("flagstone", (150, 165, 175)), (40, 45, 50), (20, 20, 25),
          (40, 160, 200)),
    Style("pokemon", ("grass", (50, 150, 70)), ("sand", (135, 195, 228)), (200, 140, 60), (40, 70, 50),
          (240, 240, 240), width=(0.32, 0.45), organic=True, trees=True),
    Style("garden", ("grass", (35, 95, 40)), ("brick", (70, 95, 170)), (40, 70, 90), (25, 35, 30),
          (60, 220, 250), organic=False, trees=True),
    Style("ice", ("stone", (235, 222, 205)), ("plain", (120, 75, 40)), (110, 60, 30), (80, 50, 30),
          (250, 250, 250), width=(0.32, 0.44)),
)  # fmt: skip


@dataclass
class Canvas:
    """The flat scene: albedo (BGR float 0..255), coverage alpha, glow-in-the-dark mask."""

    colour: np.ndarray
    alpha: np.ndarray
    glow: np.ndarray
    s: int  # pixels per tile
    origin: float  # world position (cm) of canvas pixel 0, both axes
    tile_cm: float

    def world_to_px(self, x: np.ndarray) -> np.ndarray:
        return (x - self.origin) / self.tile_cm * self.s


def _corridor_mask(tile: int, s: int, w: float, rng: np.random.Generator, organic: bool) -> np.ndarray:
    m = np.zeros((s, s), np.float32)
    half = w * s / 2
    c = s / 2
    x0, x1 = round(c - half), round(c + half)
    cv2.rectangle(m, (x0, x0), (x1, x1), 1.0, -1)
    if tile & 1:
        cv2.rectangle(m, (x0, 0), (x1, x1), 1.0, -1)
    if tile & 2:
        cv2.rectangle(m, (x0, x0), (s, x1), 1.0, -1)
    if tile & 4:
        cv2.rectangle(m, (x0, x0), (x1, s), 1.0, -1)
    if tile & 8:
        cv2.rectangle(m, (0, x0), (x1, x1), 1.0, -1)
    if organic:
        soft = cv2.GaussianBlur(m, (0, 0), s * 0.05)
        wobble = (noise(rng, s, s, 4, 2) - 0.5) * 0.5
        m = (soft + wobble > 0.5).astype(np.float32)
        # keep the contract of the tile: corners wall, centre and opening mouths corridor
        q = int(s * 0.2)
        m[:q, :q] = m[:q, -q:] = m[-q:, :q] = m[-q:, -q:] = 0
        cv2.rectangle(
            m, (int(c - half * 0.7), int(c - half * 0.7)), (int(c + half * 0.7), int(c + half * 0.7)), 1.0, -1
        )
    return cv2.GaussianBlur(m, (0, 0), max(0.5, s / 120))


class BoardPainter:
    """Paints tiles of one style; the wall/corridor materials are shared big textures cropped per tile."""

    def __init__(self, style: Style, rng: np.random.Generator, s: int) -> None:
        self.style, self.rng, self.s = style, rng, s
        wall = style.wall
        if style.alternatives and rng.random() < 0.4:
            wall = style.alternatives[int(rng.integers(0, len(style.alternatives)))]
        big = 4 * s
        self.wall_tex = texture(wall[0], rng, big, big, wall[1], s)
        self.corr_tex = texture(style.corridor[0], rng, big, big, style.corridor[1], s)
        self.width = float(rng.uniform(*style.width))
        self.edge_line = rng.random() < 0.5
        self.plaque = rng.random() < 0.4
        self.pic_scale = float(rng.uniform(0.42, 0.56))

    def _crop(self, tex: np.ndarray) -> np.ndarray:
        s = self.s
        y, x = self.rng.integers(0, tex.shape[0] - s, 2)
        return tex[y : y + s, x : x + s]

    def tile(self, tile: int, has_treasure: bool, mark: str | None) -> tuple[np.ndarray, np.ndarray]:
        """One tile's picture: (BGR float s x s, glow mask s x s: walls and picture)."""
        s, rng, st = self.s, self.rng, self.style
        m = _corridor_mask(tile, s, self.width, rng, st.organic)
        img = self._crop(self.wall_tex) * (1 - m[..., None]) + self._crop(self.corr_tex) * m[..., None]
        glow = 1.0 - m
        if st.trees:
            for _ in range(int(rng.integers(3, 8))):
                x, y = (int(v) for v in rng.integers(0, s, 2))
                r = int(s * rng.uniform(0.06, 0.12))
                if m[max(0, y - r) : y + r + 1, max(0, x - r) : x + r + 1].max() > 0.05:
                    continue
                green = np.array(st.wall[1], np.float32) * rng.uniform(0.45, 0.7)
                cv2.circle(img, (x + r // 4, y + r // 4), r, (20, 30, 20), -1, cv2.LINE_AA)
                cv2.circle(img, (x, y), r, tuple(float(v) for v in green), -1, cv2.LINE_AA)
                cv2.circle(
                    img, (x - r // 3, y - r // 3), max(1, r // 3), tuple(float(v) * 1.5 for v in green), -1, cv2.LINE_AA
                )
        if self.edge_line:  # printed wall edge: a dark line along the corridor's border
            edge = cv2.morphologyEx((m > 0.5).astype(np.uint8), cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
            edge = cv2.GaussianBlur(edge.astype(np.float32), (0, 0), max(0.6, s / 90))
            img *= 1 - 0.45 * np.clip(edge, 0, 1)[..., None]
        if has_treasure:
            size = int(s * self.pic_scale)
            pic, pa = treasure(rng, size)
            y0 = x0 = (s - size) // 2
            a = pa.astype(np.float32)[..., None] / 255
            if self.plaque:
                plate = np.zeros((s, s), np.float32)
                cv2.circle(plate, (s // 2, s // 2), int(size * 0.52), 1.0, -1, cv2.LINE_AA)
                img = img * (1 - plate[..., None]) + plate[..., None] * np.array(
                    [float(v) for v in rng.integers(150, 250, 3)], np.float32
                )
            region = img[y0 : y0 + size, x0 : x0 + size]
            img[y0 : y0 + size, x0 : x0 + size] = region * (1 - a) + pic.astype(np.float32) * a
            glow[y0 : y0 + size, x0 : x0 + size] = np.maximum(glow[y0 : y0 + size, x0 : x0 + size], a[..., 0] * 0.8)
        if mark is not None:
            colour = MARK[mark]
            r = int(s * self.width * 0.42)
            if rng.random() < 0.5:
                cv2.circle(img, (s // 2, s // 2), r, colour, -1, cv2.LINE_AA)
                cv2.circle(img, (s // 2, s // 2), r, (30, 30, 30), max(1, s // 40), cv2.LINE_AA)
            else:
                cv2.circle(img, (s // 2, s // 2), r, colour, max(2, s // 14), cv2.LINE_AA)
        return img.astype(np.float32), glow.astype(np.float32)


def _piece(img: np.ndarray, glow: np.ndarray, light_xy: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A movable piece's bevel: edges facing the light brighter, the others darker."""
    s = img.shape[0]
    b = max(2, int(s * rng.uniform(0.03, 0.06)))
    ramp = np.clip(1 - np.arange(s, dtype=np.float32) / b, 0, 1)
    top, left = ramp[:, None] * np.ones((1, s), np.float32), ramp[None, :] * np.ones((s, 1), np.float32)
    bottom, right = top[::-1], left[:, ::-1]
    lx, ly = light_xy  # horizontal direction TO the light, canvas axes
    shade = 1 + 0.35 * (top * (-ly) + bottom * ly + left * (-lx) + right * lx)
    shade *= 1 - 0.15 * np.maximum(np.maximum(top, bottom), np.maximum(left, right)) ** 2  # rounded edge
    return img * shade[..., None]


def _paste(
    canvas: Canvas,
    img: np.ndarray,
    glow: np.ndarray | None,
    cx: float,
    cy: float,
    angle: float,
    size: float,
    shadow: tuple[float, float, float] | None = None,
) -> None:
    """Paste a square picture centred at canvas (cx, cy), turned ``angle`` degrees, ``size`` px wide."""
    n = img.shape[0]
    half = int(size * 0.75) + 4
    x0, y0 = int(cx) - half, int(cy) - half
    w = 2 * half
    mat = cv2.getRotationMatrix2D((n / 2, n / 2), angle, size / n)
    mat[0, 2] += (cx - x0) - n / 2
    mat[1, 2] += (cy - y0) - n / 2
    ones = np.ones((n, n), np.float32)
    a = cv2.warpAffine(ones, mat, (w, w), flags=cv2.INTER_LINEAR, borderValue=0)
    col = cv2.warpAffine(img, mat, (w, w), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    H, W = canvas.alpha.shape
    ys, xs = slice(max(0, y0), min(H, y0 + w)), slice(max(0, x0), min(W, x0 + w))
    sy, sx = slice(ys.start - y0, ys.stop - y0), slice(xs.start - x0, xs.stop - x0)
    if shadow is not None:
        dx, dy, blur = shadow
        sm = np.float32([[1, 0, dx], [0, 1, dy]])
        sa = cv2.GaussianBlur(cv2.warpAffine(a, sm, (w, w)), (0, 0), max(0.5, blur))[sy, sx] * 0.55
        canvas.colour[ys, xs] *= (1 - sa)[..., None]
        canvas.alpha[ys, xs] = np.maximum(canvas.alpha[ys, xs], sa)
    a = a[sy, sx]
    canvas.colour[ys, xs] = canvas.colour[ys, xs] * (1 - a[..., None]) + col[sy, sx] * a[..., None]
    canvas.alpha[ys, xs] = np.maximum(canvas.alpha[ys, xs], a)
    if glow is not None:
        g = cv2.warpAffine(glow, mat, (w, w), flags=cv2.INTER_LINEAR, borderValue=0)[sy, sx]
        canvas.glow[ys, xs] = canvas.glow[ys, xs] * (1 - a) + g * a


def _arrow(
    img: np.ndarray, tip: tuple[float, float], direction: tuple[float, float], size: float, colour: Colour
) -> None:
    dx, dy = direction
    px, py = -dy, dx
    tx, ty = tip
    pts = np.array(
        [
            [tx, ty],
            [tx - dx * size + px * size * 0.6, ty - dy * size + py * size * 0.6],
            [tx - dx * size - px * size * 0.6, ty - dy * size - py * size * 0.6],
        ]
    )
    cv2.fillConvexPoly(img, np.round(pts).astype(np.int32), colour, cv2.LINE_AA)
    cv2.polylines(img, [np.round(pts).astype(np.int32)], True, (25, 25, 25), max(1, int(size / 12)), cv2.LINE_AA)


def paint_board(
    style: Style,
    tiles: list[int],
    treasures: list[bool],
    spare: int,
    spare_treasure: bool,
    marks: dict[tuple[int, int], str],
    s: int,
    tile_cm: float,
    light_xy: np.ndarray,
    rng: np.random.Generator,
) -> Canvas:
    """The whole flat scene for one frame (see the module docstring)."""
    frame_t = float(rng.uniform(0.5, 0.85))
    margin = 2.8
    side = round((SIZE + 2 * (frame_t + margin)) * s)
    off = (frame_t + margin) * s  # canvas px of tile-area corner (0, 0)
    canvas = Canvas(
        np.zeros((side, side, 3), np.float32),
        np.zeros((side, side), np.float32),
        np.zeros((side, side), np.float32),
        s,
        -(frame_t + margin) * tile_cm,
        tile_cm,
    )
    b0, b1 = int(off - frame_t * s), int(off + (SIZE + frame_t) * s)
    # the board's shadow on the table, then the board (frame colour, base under the pieces)
    sh = np.zeros((side, side), np.float32)
    cv2.rectangle(sh, (b0, b0), (b1, b1), 1.0, -1)
    sh = cv2.GaussianBlur(sh, (0, 0), s * 0.12)
    shift = np.float32([[1, 0, -light_xy[0] * s * 0.12], [0, 1, -light_xy[1] * s * 0.12]])
    canvas.alpha[:] = cv2.warpAffine(sh, shift, (side, side)) * 0.5
    frame_tex = texture("plain", rng, b1 - b0, b1 - b0, style.frame, s)
    canvas.colour[b0:b1, b0:b1] = frame_tex
    canvas.alpha[b0:b1, b0:b1] = 1.0
    inner = int(frame_t * s * rng.uniform(0.15, 0.3))
    cv2.rectangle(
        canvas.colour,
        (b0 + inner, b0 + inner),
        (b1 - inner, b1 - inner),
        tuple(float(v) * 0.6 for v in style.frame),
        max(1, s // 30),
        cv2.LINE_AA,
    )
    t0, t1 = int(off), int(off + SIZE * s)
    canvas.colour[t0:t1, t0:t1] = np.asarray(style.base, np.float32)
    # gate arrows on the frame, pointing inward, at rows/cols 1, 3, 5
    asize = frame_t * s * rng.uniform(0.45, 0.7)
    for k in (1, 3, 5):
        mid = off + (k + 0.5) * s
        gap = frame_t * s * 0.15
        _arrow(canvas.colour, (mid, off - gap), (0, 1), asize, style.arrow)
        _arrow(canvas.colour, (mid, off + SIZE * s + gap), (0, -1), asize, style.arrow)
        _arrow(canvas.colour, (off - gap, mid), (1, 0), asize, style.arrow)
        _arrow(canvas.colour, (off + SIZE * s + gap, mid), (-1, 0), asize, style.arrow)
    if rng.random() < 0.6:  # start colours also printed on the frame corners
        board_view = canvas.colour[b0:b1, b0:b1]  # drawn clipped to the board, not onto the table
        for (r, c), colour in marks.items():
            cx, cy = (b1 - b0) * (c / 6), (b1 - b0) * (r / 6)
            cv2.circle(board_view, (int(cx), int(cy)), int(frame_t * s * 0.9), MARK[colour], -1, cv2.LINE_AA)
        canvas.colour[t0:t1, t0:t1] = np.asarray(style.base, np.float32)
    painter = BoardPainter(style, rng, s)
    gap = float(rng.uniform(0.03, 0.07))
    for i, tile in enumerate(tiles):
        r, c = divmod(i, SIZE)
        img, glow = painter.tile(tile, treasures[i], marks.get((r, c)))
        cx, cy = off + (c + 0.5) * s, off + (r + 0.5) * s
        if r % 2 == 0 and c % 2 == 0:  # printed on the board
            _paste(canvas, img, glow, cx, cy, 0.0, s * (1 - gap * 0.3))
        else:
            img = _piece(img, glow, light_xy, rng)
            jx, jy = rng.normal(0, 0.012 * s, 2)
            ang = float(rng.normal(0, 1.0))
            _paste(
                canvas,
                img,
                glow,
                cx + jx,
                cy + jy,
                ang,
                s * (1 - gap),
                shadow=(-light_xy[0] * s * 0.04, -light_xy[1] * s * 0.04, s * 0.02),
            )
    # the spare tile and cards on the table beside the board
    sides = [
        (off + SIZE * s / 2, off - frame_t * s - margin * s / 2),
        (off + SIZE * s / 2, off + (SIZE + frame_t) * s + margin * s / 2),
        (off - frame_t * s - margin * s / 2, off + SIZE * s / 2),
        (off + (SIZE + frame_t) * s + margin * s / 2, off + SIZE * s / 2),
    ]
    order = rng.permutation(4)
    sx, sy = sides[order[0]]
    img, glow = painter.tile(spare, spare_treasure, None)
    img = _piece(img, glow, light_xy, rng)
    along = rng.uniform(-2.5, 2.5) * s
    _paste(
        canvas,
        img,
        glow,
        sx + (along if order[0] < 2 else 0),
        sy + (along if order[0] >= 2 else 0),
        float(rng.uniform(0, 360)),
        s * 0.95,
        shadow=(-light_xy[0] * s * 0.05, -light_xy[1] * s * 0.05, s * 0.03),
    )
    for k in order[1 : 1 + int(rng.integers(0, 3))]:
        cx, cy = sides[k]
        card = _card(rng, s)
        for _j in range(int(rng.integers(1, 4))):
            _paste(
                canvas,
                card,
                None,
                cx + rng.normal(0, 0.05 * s),
                cy + rng.normal(0, 0.05 * s),
                float(rng.uniform(-40, 40)),
                s * 1.35,
                shadow=(-light_xy[0] * s * 0.03, -light_xy[1] * s * 0.03, s * 0.02),
            )
    return canvas


def _card(rng: np.random.Generator, s: int) -> np.ndarray:
    """A treasure card (square picture, the card's white border inside it)."""
    n = s
    img = np.full((n, n, 3), [float(v) for v in rng.integers(200, 250, 3)], np.float32)
    inner = np.full((n - n // 5, n - n // 3, 3), [float(v) for v in rng.integers(30, 220, 3)], np.float32)
    y0, x0 = n // 10, n // 6
    img[y0 : y0 + inner.shape[0], x0 : x0 + inner.shape[1]] = inner
    size = int(n * 0.5)
    pic, pa = treasure(rng, size)
    a = pa.astype(np.float32)[..., None] / 255
    y, x = (n - size) // 2, (n - size) // 2
    img[y : y + size, x : x + size] = img[y : y + size, x : x + size] * (1 - a) + pic * a
    return img
