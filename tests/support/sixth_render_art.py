"""The sixth renderer's printed art: material textures and treasure pictures.

Textures are built from value noise (random grids resized smoothly) and drawn primitives, so
each frame's stone, brick, grass, sand, parchment or flagstone is new. Treasure pictures are
little multi-colour drawings (creatures with eyes, gems, keys, crowns, rings, potions, skulls,
stars, balls), often using the pawn colours red/yellow/green/blue, because real treasure art
does and a reader must not take a printed red dragon for the red pawn.
"""

from __future__ import annotations

import cv2
import numpy as np

Colour = tuple[int, int, int]

#: Pawn-like colours (BGR) the pictures often use.
PAWNISH: tuple[Colour, ...] = ((40, 40, 210), (40, 210, 235), (50, 160, 40), (200, 90, 30))


def noise(rng: np.random.Generator, h: int, w: int, cells: float, octaves: int = 3) -> np.ndarray:
    """Smooth value noise in 0..1, (h, w) float32, the coarsest feature ``cells`` per side."""
    out = np.zeros((h, w), np.float32)
    amp, total = 1.0, 0.0
    c = cells
    for _ in range(octaves):
        gh, gw = max(2, int(h / max(h, w) * c) + 2), max(2, int(w / max(h, w) * c) + 2)
        grid = rng.random((gh, gw)).astype(np.float32)
        out += amp * cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)
        total += amp
        amp *= 0.5
        c *= 2.2
    return np.clip(out / total, 0, 1)


def tint(base: Colour, field: np.ndarray, spread: float) -> np.ndarray:
    """A BGR float image: ``base`` brightened/darkened by ``field`` (0..1) by +-``spread``."""
    f = 1.0 + (field[..., None] - 0.5) * 2 * spread
    return np.clip(np.asarray(base, np.float32) * f, 0, 255)


def _jitter(rng: np.random.Generator, colour: Colour, amount: int = 18) -> Colour:
    return tuple(int(np.clip(v + rng.integers(-amount, amount + 1), 0, 255)) for v in colour)  # type: ignore[return-value]


def texture(kind: str, rng: np.random.Generator, h: int, w: int, base: Colour, tile_px: int) -> np.ndarray:
    """A material texture (BGR float32 0..255) of the named kind, ``tile_px`` pixels per tile."""
    cells = max(h, w) / tile_px
    base = _jitter(rng, base)
    if kind == "plain":
        return tint(base, noise(rng, h, w, cells * 2), 0.08)
    if kind in ("sand", "earth", "parchment"):
        fine = rng.random((h, w)).astype(np.float32)
        field = 0.6 * noise(rng, h, w, cells * (1.5 if kind == "parchment" else 4)) + 0.4 * fine * (
            0.2 if kind == "parchment" else 0.6
        )
        return tint(base, field, 0.18 if kind != "parchment" else 0.14)
    if kind == "grass":
        img = tint(base, noise(rng, h, w, cells * 6), 0.25)
        n = int(h * w / (tile_px * tile_px) * 60)
        xs, ys = rng.integers(0, w, n), rng.integers(0, h, n)
        for x, y in zip(xs, ys, strict=True):
            dx, dy = rng.integers(-2, 3), -int(rng.integers(2, max(3, tile_px // 10)))
            shade = float(rng.uniform(0.6, 1.4))
            cv2.line(img, (int(x), int(y)), (int(x + dx), int(y + dy)), tuple(float(v) * shade for v in base), 1)
        return np.clip(img, 0, 255)
    if kind in ("stone", "flagstone", "brick"):
        img = tint(base, noise(rng, h, w, cells * 3), 0.15)
        mortar = tuple(float(v) * rng.uniform(0.45, 0.7) for v in base)
        line = max(1, tile_px // 30)
        if kind == "brick":
            bh = max(4, int(tile_px * rng.uniform(0.14, 0.22)))
            bw = int(bh * rng.uniform(1.8, 2.6))
            for row, y in enumerate(range(0, h, bh)):
                cv2.line(img, (0, y), (w, y), mortar, line)
                off = (bw // 2) * (row % 2)
                for x in range(-off, w, bw):
                    cv2.line(img, (x, y), (x, y + bh), mortar, line)
                    shade = rng.uniform(0.85, 1.12)
                    img[y + line : y + bh, max(0, x + line) : max(0, x + bw)] *= shade
        else:
            size = tile_px * (0.3 if kind == "stone" else 0.45)
            n = int(h * w / (size * size) * 1.3)
            pts = np.stack([rng.uniform(0, w, n), rng.uniform(0, h, n)], 1)
            subdiv = cv2.Subdiv2D((-10, -10, w + 20, h + 20))
            for p in pts:
                subdiv.insert((float(p[0]), float(p[1])))
            facets, _ = subdiv.getVoronoiFacetList([])
            shades = np.ones((h, w), np.float32)
            polys = [np.round(facet).astype(np.int32) for facet in facets]
            for poly in polys:
                cv2.fillConvexPoly(shades, poly, float(rng.uniform(0.8, 1.18)))
            img *= shades[..., None]
            cv2.polylines(img, polys, True, mortar, line, cv2.LINE_AA)
        return np.clip(img, 0, 255)
    raise ValueError(kind)


def _eyes(img: np.ndarray, c: tuple[int, int], r: int, rng: np.random.Generator) -> None:
    off = max(1, r // 3)
    er = max(1, r // 5)
    for sx in (-1, 1):
        p = (c[0] + sx * off, c[1] - off // 2)
        cv2.circle(img, p, er, (250, 250, 250), -1, cv2.LINE_AA)
        cv2.circle(img, p, max(1, er // 2), (15, 15, 15), -1, cv2.LINE_AA)


def treasure(rng: np.random.Generator, size: int, kind: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """A treasure picture ``size`` px square: (BGR uint8, alpha uint8)."""
    img = np.zeros((size, size, 3), np.uint8)
    alpha = np.zeros((size, size), np.uint8)
    c = (size // 2, size // 2)
    r = int(size * 0.36)
    k = int(rng.integers(0, 9)) if kind is None else kind

    def col() -> Colour:
        if rng.random() < 0.45:
            return _jitter(rng, PAWNISH[int(rng.integers(0, 4))], 25)
        return tuple(int(v) for v in rng.integers(20, 245, 3))  # type: ignore[return-value]

    outline = (20, 20, 20) if rng.random() < 0.7 else _jitter(rng, (60, 40, 30))
    lw = max(1, size // 24)
    if k == 0:  # round creature
        body = col()
        cv2.circle(img, c, r, body, -1, cv2.LINE_AA)
        cv2.circle(alpha, c, r, 255, -1, cv2.LINE_AA)
        for sx in (-1, 1):  # ears
            pts = np.array(
                [
                    [c[0] + sx * r // 2, c[1] - r // 2],
                    [c[0] + sx * r, c[1] - r - r // 3],
                    [c[0] + sx * r // 6, c[1] - r],
                ]
            )
            cv2.fillConvexPoly(img, pts, body, cv2.LINE_AA)
            cv2.fillConvexPoly(alpha, pts, 255, cv2.LINE_AA)
        cv2.circle(img, (c[0], c[1] + r // 3), r // 3, col(), -1, cv2.LINE_AA)
        _eyes(img, c, r, rng)
    elif k == 1:  # gem
        pts = np.array(
            [
                [c[0], c[1] - r],
                [c[0] + r, c[1] - r // 4],
                [c[0] + r // 2, c[1] + r],
                [c[0] - r // 2, c[1] + r],
                [c[0] - r, c[1] - r // 4],
            ]
        )
        gem = col()
        cv2.fillConvexPoly(img, pts, gem, cv2.LINE_AA)
        cv2.fillConvexPoly(alpha, pts, 255, cv2.LINE_AA)
        cv2.fillConvexPoly(
            img,
            np.array([[c[0], c[1] - r], [c[0] + r // 3, c[1]], [c[0] - r // 3, c[1]]]),
            tuple(min(255, v + 70) for v in gem),
            cv2.LINE_AA,
        )
        cv2.polylines(img, [pts], True, outline, lw, cv2.LINE_AA)
    elif k == 2:  # key
        metal = _jitter(rng, (40, 170, 210))
        cv2.circle(img, (c[0] - r // 2, c[1]), r // 2, metal, max(2, size // 10), cv2.LINE_AA)
        cv2.line(img, (c[0], c[1]), (c[0] + r, c[1]), metal, max(2, size // 10))
        cv2.line(img, (c[0] + r * 3 // 4, c[1]), (c[0] + r * 3 // 4, c[1] + r // 2), metal, max(2, size // 12))
        alpha[:] = (img.max(axis=2) > 0) * 255
    elif k == 3:  # crown
        gold = _jitter(rng, (30, 190, 230))
        pts = np.array(
            [
                [c[0] - r, c[1] + r // 2],
                [c[0] - r, c[1] - r // 2],
                [c[0] - r // 2, c[1]],
                [c[0], c[1] - r],
                [c[0] + r // 2, c[1]],
                [c[0] + r, c[1] - r // 2],
                [c[0] + r, c[1] + r // 2],
            ]
        )
        cv2.fillPoly(img, [pts], gold, cv2.LINE_AA)
        cv2.fillPoly(alpha, [pts], 255, cv2.LINE_AA)
        for x in (-r // 2, 0, r // 2):
            cv2.circle(img, (c[0] + x, c[1] + r // 4), max(1, r // 7), col(), -1, cv2.LINE_AA)
        cv2.polylines(img, [pts], True, outline, lw, cv2.LINE_AA)
    elif k == 4:  # potion / bottle
        glass = col()
        cv2.circle(img, (c[0], c[1] + r // 3), r * 2 // 3, glass, -1, cv2.LINE_AA)
        cv2.rectangle(img, (c[0] - r // 5, c[1] - r), (c[0] + r // 5, c[1]), glass, -1)
        cv2.rectangle(img, (c[0] - r // 4, c[1] - r - r // 5), (c[0] + r // 4, c[1] - r), (60, 90, 140), -1)
        alpha[:] = (img.max(axis=2) > 0) * 255
        cv2.circle(img, (c[0] - r // 4, c[1] + r // 6), max(1, r // 6), (240, 240, 240), -1, cv2.LINE_AA)
    elif k == 5:  # skull / ghost
        pale = _jitter(rng, (225, 225, 215))
        cv2.ellipse(img, c, (r * 3 // 4, r), 0, 0, 360, pale, -1, cv2.LINE_AA)
        cv2.ellipse(alpha, c, (r * 3 // 4, r), 0, 0, 360, 255, -1, cv2.LINE_AA)
        for sx in (-1, 1):
            cv2.circle(img, (c[0] + sx * r // 3, c[1] - r // 6), max(1, r // 4), (25, 25, 25), -1, cv2.LINE_AA)
        cv2.ellipse(img, (c[0], c[1] + r // 2), (r // 3, r // 6), 0, 0, 360, (40, 40, 40), -1, cv2.LINE_AA)
    elif k == 6:  # star
        ang = np.linspace(-np.pi / 2, 1.5 * np.pi, 11)[:-1]
        rad = np.where(np.arange(10) % 2 == 0, r, r * 0.45)
        pts = np.stack([c[0] + rad * np.cos(ang), c[1] + rad * np.sin(ang)], 1).astype(np.int32)
        cv2.fillPoly(img, [pts], col(), cv2.LINE_AA)
        cv2.fillPoly(alpha, [pts], 255, cv2.LINE_AA)
        cv2.polylines(img, [pts], True, outline, lw, cv2.LINE_AA)
    elif k == 7:  # bug / spider: body + legs
        dark = col()
        for i in range(4):
            for sx in (-1, 1):
                a = (i - 1.5) * 0.5
                end = (int(c[0] + sx * r * np.cos(a)), int(c[1] + r * np.sin(a)))
                cv2.line(img, c, end, (30, 30, 30), max(1, size // 28), cv2.LINE_AA)
                cv2.line(alpha, c, end, 255, max(1, size // 28), cv2.LINE_AA)
        cv2.ellipse(img, c, (r // 2, r * 2 // 3), 0, 0, 360, dark, -1, cv2.LINE_AA)
        cv2.ellipse(alpha, c, (r // 2, r * 2 // 3), 0, 0, 360, 255, -1, cv2.LINE_AA)
        _eyes(img, (c[0], c[1] - r // 3), r // 2, rng)
    else:  # ball / ring / coin with a band
        a, b = col(), col()
        cv2.circle(img, c, r, a, -1, cv2.LINE_AA)
        cv2.circle(alpha, c, r, 255, -1, cv2.LINE_AA)
        cv2.ellipse(img, c, (r, r), 0, 0, 180, b, -1, cv2.LINE_AA)
        cv2.line(img, (c[0] - r, c[1]), (c[0] + r, c[1]), outline, max(1, size // 14))
        cv2.circle(img, c, max(1, r // 3), (240, 240, 240), -1, cv2.LINE_AA)
        cv2.circle(img, c, r, outline, lw, cv2.LINE_AA)
    return img, alpha
