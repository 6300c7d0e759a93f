"""The sixth renderer's pawns, hands and occluding objects, as solids (see ``sixth_render_sdf``).

Pawns vary in shape (cone with a ball head, figure on a round base, flat meeple, chess pawn,
domed token), size (1.8-3.3 cm tall on ~3.3 cm tiles), colour shade (bright, dull or dark
versions of red/yellow/green/blue) and finish (glossy with sharp highlights, or matte).
Hands are forearm + palm + fingers (skin, often a sleeve), reaching in from beyond the board
toward a point over it; objects are a mug, a book or a phone lying on or standing over tiles.
"""

from __future__ import annotations

import numpy as np

from tests.support.sixth_render_sdf import Solid, box, capsule, cylinder, round_cone, slab, sphere, union

#: Pawn colours, BGR 0..1: (bright, dull, dark) for each.
PAWN_SHADES: dict[str, tuple[tuple[float, float, float], ...]] = {  # linear light: gamma desaturates them
    "red": ((0.05, 0.04, 0.7), (0.1, 0.08, 0.45), (0.03, 0.02, 0.22)),
    "yellow": ((0.03, 0.6, 0.8), (0.08, 0.42, 0.55), (0.02, 0.25, 0.35)),
    "green": ((0.08, 0.5, 0.06), (0.15, 0.38, 0.12), (0.04, 0.2, 0.04)),
    "blue": ((0.65, 0.18, 0.03), (0.5, 0.22, 0.1), (0.3, 0.07, 0.02)),
}
SHAPES = ("cone", "figure", "meeple", "chess", "token")


def pawn(color: str, x: float, y: float, z: float, rng: np.random.Generator, shape: str | None = None) -> Solid:
    """A pawn of ``color`` standing at world (x, y) on the surface at height ``z``."""
    shape = shape or str(rng.choice(SHAPES))
    h = float(rng.uniform(1.8, 3.3))
    rb = float(rng.uniform(0.45, 0.72))
    parts = []
    if shape == "cone":
        head = rb * rng.uniform(0.5, 0.75)
        parts = [
            round_cone((x, y, z + rb * 0.3), rb * 0.95, rb * 0.25, h - head * 1.7 - rb * 0.3),
            sphere((x, y, z + h - head), head),
        ]
        top = h
        k = 0.1
    elif shape == "figure":
        base_h = h * 0.1
        head = rb * 0.55
        parts = [
            cylinder((x, y, z), rb, base_h, base_h * 0.3),
            round_cone((x, y, z + base_h + rb * 0.5), rb * 0.6, rb * 0.35, h - base_h - head * 2 - rb * 0.4),
            sphere((x, y, z + h - head), head),
        ]
        top = h
        k = 0.12
    elif shape == "chess":
        base_h = h * 0.15
        head = rb * 0.62
        parts = [
            cylinder((x, y, z), rb, base_h, base_h * 0.4),
            round_cone((x, y, z + base_h), rb * 0.7, rb * 0.28, h * 0.55),
            cylinder((x, y, z + base_h + h * 0.5), rb * 0.55, h * 0.06, h * 0.02),
            sphere((x, y, z + h - head), head),
        ]
        top = h
        k = 0.08
    elif shape == "token":
        h = h * 0.6
        parts = [cylinder((x, y, z), rb, h * 0.7, rb * 0.15), sphere((x, y, z + h * 0.7 - rb * 0.3), rb * 0.85)]
        top = h * 0.7 - rb * 0.3 + rb * 0.85
        k = 0.15
    else:  # meeple: a flat figure, arms out
        yaw = float(rng.uniform(0, np.pi))
        cs, sn = np.cos(yaw), np.sin(yaw)
        w = rb * 1.3
        leg = w * 0.45

        def at(u: float, zz: float) -> tuple[float, float, float]:
            return (x + u * cs, y + u * sn, z + zz)

        limb = w * 0.3
        inner = union(
            [
                capsule(at(-leg, limb), at(-leg * 0.4, h * 0.45), limb),
                capsule(at(leg, limb), at(leg * 0.4, h * 0.45), limb),
                capsule(at(0, h * 0.35), at(0, h * 0.62), w * 0.42),
                capsule(at(-w, h * 0.52), at(w, h * 0.52), limb * 0.95),
                sphere(at(0, h * 0.82), w * 0.36),
            ],
            k=w * 0.25,
        )
        parts = [slab(inner, (x, y, z), yaw, rb * 0.38)]
        top = h * 0.82 + w * 0.36
        rb = w + limb
        k = 0.0
    sdf = union(parts, k=k * rb) if len(parts) > 1 else parts[0]
    shade = int(rng.choice(3, p=[0.55, 0.25, 0.2]))
    albedo = np.array(PAWN_SHADES[color][shade]) * rng.uniform(0.85, 1.15, 3)
    glossy = rng.random() < 0.55
    lo = np.array([x - rb * 1.3, y - rb * 1.3, z - 0.05], np.float32)
    hi = np.array([x + rb * 1.3, y + rb * 1.3, z + top + 0.1], np.float32)
    return Solid(
        sdf,
        lo,
        hi,
        np.clip(albedo, 0, 1),
        float(rng.uniform(0.25, 0.6)) if glossy else 0.05,
        float(rng.uniform(40, 160)) if glossy else 6.0,
        info={
            "color": color,
            "shape": shape,
            "shade": ("bright", "dull", "dark")[shade],
            "glossy": glossy,
            "height_cm": round(top, 2),
        },
    )


SKIN = ((0.55, 0.65, 0.85), (0.4, 0.52, 0.75), (0.25, 0.35, 0.55), (0.15, 0.22, 0.38))


def hand(target: np.ndarray, board_side: float, z: float, rng: np.random.Generator) -> list[Solid]:
    """A hand reaching from beyond the board's edge to ``target`` (world x, y), with forearm and maybe a sleeve."""
    centre = np.array([board_side / 2, board_side / 2])
    ang = rng.uniform(0, 2 * np.pi)
    out = centre + np.array([np.cos(ang), np.sin(ang)]) * board_side * 1.3
    tip = np.array([target[0], target[1]])
    d = tip - out
    d /= np.linalg.norm(d)
    side = np.array([-d[1], d[0]])
    hover = float(rng.uniform(0.6, 4.0))
    wrist = np.append(tip - d * rng.uniform(8, 10), z + hover + rng.uniform(2, 5))
    elbow = np.append(out - d * 10, z + rng.uniform(12, 25))
    skin = np.array(SKIN[int(rng.integers(0, len(SKIN)))]) * rng.uniform(0.9, 1.1, 3)
    palm_c = wrist + np.append(d * 4.0, -1.0)
    yaw = float(np.arctan2(d[1], d[0]))
    parts = [
        capsule(tuple(elbow), tuple(wrist), float(rng.uniform(2.6, 3.4))),
        box(tuple(palm_c), (4.2, 4.0, 1.2), yaw, 1.0),
    ]
    spread = rng.uniform(0.1, 0.35)
    for i, off in enumerate((-2.7, -0.9, 0.9, 2.7)):
        base = palm_c + np.append(d * 3.6 + side * off, 0.0)
        length = 6.5 - abs(off) * 0.5
        fd = d + side * off / 2.7 * spread
        fd /= np.linalg.norm(fd)
        end = base + np.append(fd * length, -(palm_c[2] - z) * rng.uniform(0.5, 0.95) + 0.9)
        parts.append(capsule(tuple(base), tuple(end), 0.85 - 0.05 * i))
    thumb_side = 1 if rng.random() < 0.5 else -1
    tb = palm_c + np.append(-d * 1.5 + side * thumb_side * 3.6, 0.0)
    parts.append(capsule(tuple(tb), tuple(tb + np.append(d * 3.5 + side * thumb_side * 2.0, -1.0)), 0.95))
    pts = np.array([elbow, wrist, palm_c + np.append(d * 11, 0)])
    lo = np.minimum(pts.min(axis=0) - 4.5, np.array([-1e3, -1e3, z - 0.1]))
    lo = np.maximum(lo, pts.min(axis=0) - 4.5)
    lo[2] = z - 0.1
    hi = pts.max(axis=0) + 4.5
    solids = [Solid(union(parts, k=0.6), lo, hi, np.clip(skin, 0, 1), 0.15, 12.0, "hand")]
    if rng.random() < 0.6:
        cuff = wrist - np.append(d * rng.uniform(3, 8), -0.5)
        sleeve = np.clip(rng.uniform(0.05, 0.8, 3), 0, 1)
        r = float(rng.uniform(3.6, 4.5))
        spts = np.array([elbow, cuff])
        solids.append(
            Solid(
                capsule(tuple(elbow), tuple(cuff), r),
                spts.min(axis=0) - r,
                spts.max(axis=0) + r,
                sleeve,
                0.05,
                4.0,
                "sleeve",
            )
        )
    return solids


def thing(target: np.ndarray, z: float, rng: np.random.Generator) -> Solid:
    """An object on the board: a mug, a book or a phone."""
    x, y = float(target[0]), float(target[1])
    kind = int(rng.integers(0, 3))
    colour = np.clip(rng.uniform(0.05, 0.9, 3), 0, 1)
    yaw = float(rng.uniform(0, np.pi))
    if kind == 0:
        r, h = float(rng.uniform(3.5, 4.5)), float(rng.uniform(8, 10))
        sdf = union(
            [
                cylinder((x, y, z), r, h, 0.4),
                capsule(
                    (x + r * np.cos(yaw), y + r * np.sin(yaw), z + h * 0.3),
                    (x + r * np.cos(yaw), y + r * np.sin(yaw), z + h * 0.75),
                    1.1,
                ),
            ],
            k=0.3,
        )
        return Solid(
            sdf,
            np.array([x - r - 2, y - r - 2, z - 0.1]),
            np.array([x + r + 2, y + r + 2, z + h + 0.1]),
            colour,
            0.6,
            60.0,
            "mug",
        )
    half = (
        (float(rng.uniform(7, 10)), float(rng.uniform(5, 7.5)), float(rng.uniform(1.0, 1.8)))
        if kind == 1
        else (7.5, 3.6, 0.45)
    )
    if kind == 2:
        colour = np.array([0.06, 0.06, 0.07])
    c = (x, y, z + half[2] + 0.01)
    ext = np.hypot(half[0], half[1]) + 0.5
    return Solid(
        box(c, half, yaw, 0.3),
        np.array([x - ext, y - ext, z - 0.1]),
        np.array([x + ext, y + ext, z + 2 * half[2] + 0.2]),
        colour,
        0.7 if kind == 2 else 0.1,
        80.0 if kind == 2 else 8.0,
        "object",
    )
