"""The fifth renderer's printed artwork: tile faces, treasure pictures, the board's frame.

Everything here is drawn top-down on flat textures (BGR uint8) that the 3D stage later
lays on planes in the world. Looks are sampled per frame from edition families written
from a description of the real games, not from any other renderer: classic (ochre or
grey stone walls, light corridors, blue frame), a castle look (dark stone, parchment
corridors, house colours), a creature look (grass/rock/water walls that change from
tile to tile, sandy paths) and an "other edition" look with random hues. Night frames
use the glow look: walls and pictures glow faintly green, corridors are dark.

The only invariants kept are the game's: a tile's corners are wall, its centre is
corridor, an opening is a corridor reaching the tile's side.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import cv2
import numpy as np

PAWN_BGR: dict[str, tuple[int, int, int]] = {
    "red": (40, 40, 200), "yellow": (40, 200, 235), "green": (60, 160, 50), "blue": (190, 90, 30),
}  # fmt: skip
# plastic pawns differ between editions and batches: crimson to orange-red, lemon to amber, ...
PAWN_SHADES: dict[str, list[tuple[int, int, int]]] = {
    "red": [(40, 40, 200), (30, 60, 215), (50, 30, 160)],
    "yellow": [(40, 200, 235), (20, 170, 240), (90, 225, 235)],
    "green": [(60, 160, 50), (40, 190, 110), (50, 110, 30)],
    "blue": [(190, 90, 30), (220, 140, 60), (130, 50, 20)],
}
START_COLOURS: dict[tuple[int, int], str] = {(0, 0): "red", (0, 6): "yellow", (6, 6): "green", (6, 0): "blue"}
SIDES = ((1, 0, -1), (2, 1, 0), (4, 0, 1), (8, -1, 0))  # mask bit, dx, dy (texture axes)


@dataclass
class Look:
    """One frame's artwork choices."""

    family: str
    walls: list[tuple[int, int, int]]  # wall colours (creature look: several materials)
    wall_kind: list[str]  # "stone", "grass", "water", "plain" per wall colour
    corridor: tuple[int, int, int]
    frame: tuple[int, int, int]
    arrow: tuple[int, int, int]
    tile_edge: tuple[int, int, int]  # cardboard side of the movable tiles
    gap: tuple[int, int, int]  # the board showing between movable tiles
    half_width: float  # corridor half width as a share of the tile
    rounded: bool
    outline: int  # darkness of a printed wall/corridor border (0 = none)
    bevel: float  # printed shading along wall edges
    night: bool


def _jit(rng: random.Random, colour: tuple[int, int, int], amount: int) -> tuple[int, int, int]:
    return tuple(int(np.clip(c + rng.randint(-amount, amount), 0, 255)) for c in colour)  # type: ignore[return-value]


def sample_look(rng: random.Random, night: bool) -> Look:
    family = rng.choice(["classic", "classic", "castle", "creature", "creature", "other"])
    if family == "classic":
        walls = [_jit(rng, rng.choice([(60, 135, 190), (95, 120, 150), (80, 110, 135)]), 18)]
        kinds = ["stone"]
        corridor = _jit(rng, (200, 225, 238), 15)
        frame = _jit(rng, (150, 85, 30), 25)
        edge = _jit(rng, (170, 180, 185), 20)
    elif family == "castle":
        walls = [_jit(rng, (62, 64, 74), 12)]
        kinds = ["stone"]
        corridor = _jit(rng, (150, 196, 222), 15)
        frame = _jit(rng, rng.choice([(40, 30, 110), (40, 90, 30), (120, 60, 20), (30, 120, 160)]), 20)
        edge = _jit(rng, (60, 60, 65), 15)
    elif family == "creature":
        walls = [_jit(rng, (60, 165, 85), 20), _jit(rng, (105, 120, 135), 15), _jit(rng, (205, 150, 70), 20)]
        kinds = ["grass", "stone", "water"]
        corridor = _jit(rng, (140, 195, 225), 18)
        frame = _jit(rng, rng.choice([(40, 40, 200), (50, 200, 240), (200, 120, 40)]), 25)
        edge = _jit(rng, (215, 215, 215), 15)
    else:
        hue = rng.randrange(180)
        wall_hsv = np.uint8([[[hue, rng.randint(90, 220), rng.randint(70, 160)]]])
        cor_hsv = np.uint8([[[(hue + rng.randint(20, 160)) % 180, rng.randint(20, 90), rng.randint(190, 245)]]])
        walls = [tuple(int(v) for v in cv2.cvtColor(wall_hsv, cv2.COLOR_HSV2BGR)[0, 0])]  # type: ignore[misc]
        kinds = [rng.choice(["plain", "stone", "grass"])]
        corridor = tuple(int(v) for v in cv2.cvtColor(cor_hsv, cv2.COLOR_HSV2BGR)[0, 0])  # type: ignore[assignment]
        frame = _jit(rng, (rng.randint(20, 200), rng.randint(20, 200), rng.randint(20, 200)), 0)
        edge = _jit(rng, (190, 195, 200), 30)
    if night:
        strength = rng.uniform(0.4, 1.0)  # glow paint fades through the evening
        glow = tuple(int(v * strength) for v in _jit(rng, (45, 115, 55), 15))
        walls = [glow for _ in walls]
        corridor = _jit(rng, (16, 18, 16), 6)
        frame = tuple(int(c * 0.12) for c in frame)  # type: ignore[assignment]
    arrow = tuple(int(min(255, c * 0.5 + 120)) for c in frame) if not night else (20, 60, 25)
    gap = tuple(int(c * 0.45) for c in frame) if rng.random() < 0.5 else _jit(rng, (70, 70, 70), 20)
    if night:
        gap = (12, 14, 12)
    return Look(
        family=family, walls=walls, wall_kind=kinds, corridor=corridor, frame=frame,  # type: ignore[arg-type]
        arrow=arrow, tile_edge=edge, gap=gap, half_width=rng.uniform(0.15, 0.21),  # type: ignore[arg-type]
        rounded=rng.random() < 0.5, outline=rng.choice([0, 0, 60, 110]), bevel=rng.uniform(0.0, 0.3),
        night=night,
    )


# --------------------------------------------------------------------------- tiles


def _wall_texture(rng: random.Random, size: int, colour: tuple[int, int, int], kind: str) -> np.ndarray:
    img = np.empty((size, size, 3), np.float32)
    img[:] = colour
    nrng = np.random.default_rng(rng.randrange(1 << 30))
    if kind == "stone":
        step = max(6, size // rng.randint(5, 8))
        for y in range(0, size, step):
            off = (y // step % 2) * step // 2
            cv2.line(img, (0, y), (size, y), tuple(c * 0.72 for c in colour), max(1, size // 90))
            for x in range(-off, size, step * 2):
                cv2.line(img, (x, y), (x, y + step), tuple(c * 0.72 for c in colour), max(1, size // 90))
        img += nrng.normal(0, 9, (size // 8 + 1, size // 8 + 1, 1)).repeat(8, 0).repeat(8, 1)[:size, :size]
    elif kind == "grass":
        for _ in range(size // 2):
            x, y = rng.randrange(size), rng.randrange(size)
            shade = rng.uniform(0.7, 1.25)
            cv2.line(img, (x, y), (x + rng.randint(-3, 3), y - rng.randint(3, 9)),
                     tuple(min(255, c * shade) for c in colour), 1)
    elif kind == "water":
        for y in range(0, size, max(5, size // 10)):
            pts = np.array([[x, y + 3 * math.sin(x / 7 + y)] for x in range(0, size, 4)], np.int32)
            cv2.polylines(img, [pts], False, tuple(min(255, c * 1.25) for c in colour), 1)
    img += nrng.normal(0, 5, (size, size, 1))
    return img


def draw_tile(rng: random.Random, look: Look, mask: int, size: int) -> np.ndarray:
    """The printed face of one tile (uint8 BGR, ``size`` square), N at the top."""
    wi = rng.randrange(len(look.walls))
    walls = _wall_texture(rng, size, look.walls[wi], look.wall_kind[wi])
    corridor_mask = np.zeros((size, size), np.uint8)
    c = size / 2
    hw = look.half_width * size
    s = 16  # fixed-point shift for sub-pixel polygons
    def box(x0: float, y0: float, x1: float, y1: float) -> None:
        pts = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]) * s
        cv2.fillPoly(corridor_mask, [pts.astype(np.int32)], 255, cv2.LINE_AA, 4)
    if look.rounded:
        # round-capped arms: the corridor's corners are soft, its centre still open
        for bit, dx, dy in SIDES:
            if mask & bit:
                end = (int((c + dx * size * 0.6) * s), int((c + dy * size * 0.6) * s))
                cv2.line(corridor_mask, (int(c * s), int(c * s)), end, 255, round(2 * hw), cv2.LINE_AA, 4)
        cv2.circle(corridor_mask, (int(c * s), int(c * s)), int(hw * s), 255, -1, cv2.LINE_AA, 4)
    else:
        box(c - hw, c - hw, c + hw, c + hw)
        corridor_mask = cv2.bitwise_or(corridor_mask, _arms(size, mask, hw))
    corridor = np.empty_like(walls)
    corridor[:] = look.corridor
    corridor += np.random.default_rng(rng.randrange(1 << 30)).normal(0, 4, (size, size, 1))
    alpha = (corridor_mask.astype(np.float32) / 255.0)[..., None]
    out = walls * (1 - alpha) + corridor * alpha
    if look.bevel > 0 or look.outline:
        edge = cv2.morphologyEx(corridor_mask, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
        k = max(1, size // 40)
        edge = cv2.dilate(edge, np.ones((k, k), np.uint8)).astype(np.float32)[..., None] / 255.0
        dark = 1.0 - (look.outline / 255.0 if look.outline else look.bevel)
        out = out * (1 - edge * (1 - dark))
    return np.clip(out, 0, 255).astype(np.uint8)


def _arms(size: int, mask: int, hw: float) -> np.ndarray:
    m = np.zeros((size, size), np.uint8)
    c = size / 2
    for bit, dx, dy in SIDES:
        if mask & bit:
            x0, x1 = (c - hw, c + hw) if dx == 0 else sorted((c, c + dx * (size / 2 + 2)))
            y0, y1 = (c - hw, c + hw) if dy == 0 else sorted((c, c + dy * (size / 2 + 2)))
            pts = (np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]) * 16).astype(np.int32)
            cv2.fillPoly(m, [pts], 255, cv2.LINE_AA, 4)
    return m


# --------------------------------------------------------------------------- pictures


def draw_picture(img: np.ndarray, rng: random.Random, centre: tuple[float, float], radius: float,
                 night: bool) -> None:
    """A treasure picture: a random icon or creature, often colourful, some shaded."""
    s = 16
    cx, cy = centre
    palette = [*PAWN_BGR.values(), (30, 30, 30), (230, 230, 230), (40, 120, 200), (160, 60, 160),
               (20, 180, 180), (90, 60, 140), (200, 200, 60)]
    main = rng.choice(palette)
    second = rng.choice(palette)
    if night:
        main = (40, rng.randint(100, 150), 50)
        second = (20, 60, 25)
    kind = rng.choice(["disc", "gem", "star", "creature", "ring", "crown"])
    p = lambda x, y: (int((cx + x * radius) * s), int((cy + y * radius) * s))  # noqa: E731
    if rng.random() < 0.5 and not night:  # a picture plate behind the icon
        plate = rng.choice([(235, 240, 240), (180, 215, 230), (60, 60, 60)])
        cv2.circle(img, p(0, 0), int(radius * 1.1 * s), plate, -1, cv2.LINE_AA, 4)
    if kind == "disc" or kind == "creature":
        axes = (int(radius * 0.85 * s), int(radius * rng.uniform(0.6, 0.9) * s))
        cv2.ellipse(img, p(0, 0.1), axes, 0, 0, 360, main, -1, cv2.LINE_AA, 4)
        if rng.random() < 0.6:  # printed shading: a lighter spot toward the top-left
            light = tuple(min(255, int(c * 1.4 + 40)) for c in main)
            cv2.circle(img, p(-0.3, -0.2), int(radius * 0.3 * s), light, -1, cv2.LINE_AA, 4)
        if kind == "creature":
            for ex in (-0.3, 0.3):
                cv2.circle(img, p(ex, -0.05), int(radius * 0.14 * s), (250, 250, 250), -1, cv2.LINE_AA, 4)
                cv2.circle(img, p(ex, -0.05), int(radius * 0.07 * s), (10, 10, 10), -1, cv2.LINE_AA, 4)
            for ex in (-0.55, 0.55):
                ear = np.array([p(ex - 0.2, -0.4), p(ex + 0.2, -0.4), p(ex * 1.2, -1.0)], np.int32)
                cv2.fillPoly(img, [ear], second, cv2.LINE_AA, 4)
    elif kind == "gem":
        n = rng.randint(5, 8)
        pts = np.array([p(math.cos(2 * math.pi * i / n) * 0.85, math.sin(2 * math.pi * i / n) * 0.85)
                        for i in range(n)], np.int32)
        cv2.fillPoly(img, [pts], main, cv2.LINE_AA, 4)
        cv2.polylines(img, [pts], True, second, max(1, int(radius / 10)), cv2.LINE_AA, 4)
        cv2.line(img, p(-0.85, 0), p(0.85, 0), tuple(min(255, c + 60) for c in main), 2, cv2.LINE_AA, 4)
    elif kind == "star":
        pts = np.array([p(math.cos(math.pi * i / 5 - math.pi / 2) * (0.9 if i % 2 == 0 else 0.4),
                          math.sin(math.pi * i / 5 - math.pi / 2) * (0.9 if i % 2 == 0 else 0.4))
                        for i in range(10)], np.int32)
        cv2.fillPoly(img, [pts], main, cv2.LINE_AA, 4)
    elif kind == "ring":
        cv2.circle(img, p(0, 0.1), int(radius * 0.6 * s), main, max(2, int(radius * 0.25)), cv2.LINE_AA, 4)
        cv2.circle(img, p(0, -0.6), int(radius * 0.22 * s), second, -1, cv2.LINE_AA, 4)
    else:
        pts = np.array([p(-0.8, 0.6), p(-0.8, -0.5), p(-0.4, -0.1), p(0, -0.7), p(0.4, -0.1), p(0.8, -0.5),
                        p(0.8, 0.6)], np.int32)
        cv2.fillPoly(img, [pts], main, cv2.LINE_AA, 4)
        cv2.circle(img, p(0, 0.25), int(radius * 0.15 * s), second, -1, cv2.LINE_AA, 4)
    if rng.random() < 0.6:
        outline = (15, 15, 15) if not night else (30, 90, 40)
        cv2.circle(img, p(0, 0), int(radius * 1.1 * s), outline, 1, cv2.LINE_AA, 4)


# --------------------------------------------------------------------------- the board


def draw_board(rng: random.Random, look: Look, tiles: list[int], treasures: list[str | None], tile_px: int,
               frame_px: int) -> np.ndarray:
    """The printed board top: frame with push arrows, start marks, fixed tiles, grid under movable ones."""
    size = 7 * tile_px + 2 * frame_px
    board = np.empty((size, size, 3), np.float32)
    board[:] = look.frame
    board += np.random.default_rng(rng.randrange(1 << 30)).normal(0, 3, (size, size, 1))
    board = np.clip(board, 0, 255).astype(np.uint8)
    inner = (frame_px, frame_px, frame_px + 7 * tile_px, frame_px + 7 * tile_px)
    cv2.rectangle(board, inner[:2], inner[2:], look.gap, -1)
    if rng.random() < 0.6:  # a printed border line around the tile area
        cv2.rectangle(board, (inner[0] - frame_px // 6, inner[1] - frame_px // 6),
                      (inner[2] + frame_px // 6, inner[3] + frame_px // 6), look.arrow, max(2, frame_px // 25))
    for k in (1, 3, 5):
        mid = frame_px + int((k + 0.5) * tile_px)
        a = frame_px * 0.3
        for side in range(4):
            pts = [(mid - a, frame_px * 0.2), (mid + a, frame_px * 0.2), (mid, frame_px * 0.85)]
            arr = np.array(pts, np.float64)
            centre = size / 2
            ang = side * math.pi / 2
            rot = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]])
            arr = (arr - centre) @ rot.T + centre
            cv2.fillPoly(board, [(arr * 16).astype(np.int32)], look.arrow, cv2.LINE_AA, 4)
    for r in range(7):
        for c in range(7):
            if r % 2 or c % 2:
                continue
            face = draw_tile(rng, look, tiles[r * 7 + c], tile_px)
            name = treasures[r * 7 + c]
            if name is not None:
                draw_picture(face, rng, (tile_px / 2, tile_px / 2), tile_px * rng.uniform(0.2, 0.28), look.night)
            if (r, c) in START_COLOURS:
                colour = PAWN_BGR[START_COLOURS[(r, c)]]
                if look.night:
                    colour = tuple(int(v * 0.25) for v in colour)
                ring = rng.random() < 0.5
                cv2.circle(face, (tile_px // 2, tile_px // 2), int(tile_px * 0.17), colour,
                           max(2, tile_px // 25) if ring else -1, cv2.LINE_AA)
            y0, x0 = frame_px + r * tile_px, frame_px + c * tile_px
            board[y0:y0 + tile_px, x0:x0 + tile_px] = face
    return board
