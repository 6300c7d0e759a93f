"""Third held-out renderer: what one photo shows (position, artwork style, props, light, camera).

Everything random about a photo is drawn here from one seed, so a photo is a pure
function of (seed, options). World coordinates: the board plane is ``Z = 0``; ``X``
grows toward column 6 and ``Y`` toward row 6 of the *image-oriented* board, one
unit is one tile pitch, the 7x7 tile area spans ``[0, 7] x [0, 7]``. ``Z`` points
down into the table, so things above the table have negative ``Z``.

Written independently of ``vision/`` and of the other two renderers.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np

from companion.board import COLORS, EDITIONS, GATES, SIZE, Color, Tile, push_line, random_setup

SIZES = ((1280, 960), (1456, 1088), (1640, 1232), (1600, 1200), (2028, 1520))
STYLES = ("stone_grass", "photo_noise", "wood_slate", "pale_print", "cartoon", "night_castle", "hedge")
PAWN_BASE = {  # BGR in 0..1 (sRGB), varied per photo
    "red": (0.12, 0.10, 0.78),
    "yellow": (0.10, 0.80, 0.92),
    "green": (0.22, 0.62, 0.12),
    "blue": (0.78, 0.32, 0.08),
}


@dataclass
class Pawn:
    color: str
    square: tuple[int, int]
    x: float  # world position of the base centre
    y: float
    shape: str  # cone | cylinder | figure
    radius: float
    height: float
    head: float
    rgb: tuple[float, float, float]  # BGR albedo (sRGB 0..1)
    gloss: float  # 0 matte wood .. 1 glossy plastic


@dataclass
class Light:
    pos: tuple[float, float, float]  # world, Z negative = above the table
    rgb: tuple[float, float, float]  # BGR tint (linear)
    power: float


@dataclass
class Scene:
    seed: int
    width: int
    height: int
    lighting: str
    occluded: bool
    edition: str
    tiles: list[list[str]]  # image orientation, row 0 at the top
    treasures: list[list[int]]
    start_colors: dict[tuple[int, int], str]  # corner square -> printed circle colour
    treasure_names: dict[tuple[int, int], str]
    tile_jitter: dict[tuple[int, int], tuple[float, float, float]]  # dx, dy (units), angle (deg)
    pawns: list[Pawn]
    style: dict
    frame: dict
    table: dict
    camera: dict
    lights: list[Light]
    ambient: float
    post: dict
    occluder: dict | None
    shadow_caster: dict | None
    rng_seed: int = 0
    extra: dict = field(default_factory=dict)

    def label(self, corners: list[list[float]]) -> dict:
        pawns = {p.color: list(p.square) for p in sorted(self.pawns, key=lambda p: COLORS.index(Color(p.color)))}
        return {
            "tiles": self.tiles,
            "pawns": pawns,
            "corners": [[round(float(x), 2), round(float(y), 2)] for x, y in corners],
            "lighting": self.lighting,
            "occluded": self.occluded,
            "treasures": self.treasures,
        }


# --------------------------------------------------------------------------- position


def _rotate_state(tiles, names, starts, k):
    """Turn the physical board k quarter turns clockwise (as it lies in the photo)."""
    for _ in range(k):
        tiles = [[Tile.parse(tiles[SIZE - 1 - c][r]).rotated(1).name for c in range(SIZE)] for r in range(SIZE)]
        names = [[names[SIZE - 1 - c][r] for c in range(SIZE)] for r in range(SIZE)]
        starts = {(c, SIZE - 1 - r): col for (r, c), col in starts.items()}
    return tiles, names, starts


def sample_position(rng: np.random.Generator, seed: int):
    edition = str(rng.choice(list(EDITIONS)))
    board, names = random_setup(random.Random(seed), edition)
    cells = list(names[:49])
    spare_name = names[49]
    for _ in range(int(rng.integers(0, 9))):
        gate = GATES[int(rng.integers(len(GATES)))]
        if not board.is_legal_push(gate):
            continue
        laid = board.spare.rotated(int(rng.integers(4)))
        board = board.push(gate, laid)
        cells, spare_name = push_line(cells, gate, spare_name)
    tiles = [[board.tiles[r * SIZE + c].name for c in range(SIZE)] for r in range(SIZE)]
    grid = [[cells[r * SIZE + c] for c in range(SIZE)] for r in range(SIZE)]
    starts = {sq: col.value for sq, col in EDITIONS[edition].start_colors.items()}
    k = int(rng.integers(4)) if rng.random() < 0.5 else 0
    tiles, grid, starts = _rotate_state(tiles, grid, starts, k)
    treasure_names = {(r, c): grid[r][c] for r in range(SIZE) for c in range(SIZE) if grid[r][c]}
    return edition, tiles, treasure_names, starts


def sample_pawns(rng: np.random.Generator, lighting: str) -> list[Pawn]:
    n = int(rng.integers(1, 5))
    colors = list(rng.permutation([c.value for c in COLORS])[:n])
    squares: list[tuple[int, int]] = []
    for _ in colors:
        if squares and rng.random() < 0.22:
            squares.append(squares[int(rng.integers(len(squares)))])
        else:
            squares.append((int(rng.integers(SIZE)), int(rng.integers(SIZE))))
    shape = str(rng.choice(["cone", "cylinder", "figure", "cone"]))
    radius = float(rng.uniform(0.17, 0.25))
    height = float(rng.uniform(0.55, 0.95))
    head = float(rng.uniform(0.55, 0.8)) * radius
    gloss = float(rng.choice([0.0, 0.35, 0.8, 1.0]))
    pawns = []
    for color, sq in zip(colors, squares, strict=False):
        mates = [i for i, s in enumerate(squares) if s == sq]
        k, m = mates.index(len(pawns)), len(mates)
        if m == 1:
            ox, oy = rng.uniform(-0.13, 0.13, 2)
        else:
            a = 2 * np.pi * k / m + rng.uniform(0, 0.6)
            ox, oy = 0.24 * np.cos(a), 0.24 * np.sin(a)
        base = np.array(PAWN_BASE[color])
        hsv_jitter = rng.uniform(0.82, 1.12, 3)
        rgb = np.clip(base * hsv_jitter + rng.uniform(-0.05, 0.05), 0.02, 0.98)
        pawns.append(
            Pawn(
                color,
                sq,
                sq[1] + 0.5 + float(ox),
                sq[0] + 0.5 + float(oy),
                shape,
                radius * float(rng.uniform(0.95, 1.05)),
                height,
                head,
                tuple(float(v) for v in rgb),
                gloss,
            )
        )
    return pawns


# --------------------------------------------------------------------------- look


def kelvin_bgr(kelvin: float) -> tuple[float, float, float]:
    """Approximate black-body colour (sRGB 0..1), returned as BGR."""
    t = kelvin / 100.0
    r = 255.0 if t <= 66 else 329.7 * (t - 60) ** -0.1332
    g = 99.47 * np.log(t) - 161.12 if t <= 66 else 288.12 * (t - 60) ** -0.0755
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.52 * np.log(t - 10) - 305.04)
    rgb = np.clip(np.array([r, g, b]) / 255.0, 0, 1)
    return (float(rgb[2]), float(rgb[1]), float(rgb[0]))


def sample_style(rng: np.random.Generator, lighting: str) -> dict:
    name = str(rng.choice(STYLES))
    style = {
        "name": name,
        "corridor_width": float(rng.uniform(0.3, 0.5)),
        "rounded": bool(rng.random() < 0.5),
        "outline": float(rng.choice([0.0, 0.0, 0.012, 0.025, 0.04])),
        "gap": float(rng.uniform(0.015, 0.05)),
        "bevel": float(rng.uniform(0.012, 0.035)),
        "treasure_size": float(rng.uniform(0.26, 0.46)),
        "treasure_offset": float(rng.uniform(0.0, 0.08)),
        "hue_shift": float(rng.uniform(-12, 12)),
        "glow": float(rng.uniform(0.5, 1.0)),
        "glow_tint": tuple(float(v) for v in rng.uniform([0.25, 0.85, 0.55], [0.45, 1.0, 0.8])),
        "base": tuple(float(v) for v in rng.uniform(0.05, 0.25, 3)),
    }
    if name == "cartoon":
        style["outline"] = float(rng.uniform(0.025, 0.05))
    if name == "pale_print":
        style["outline"] = float(rng.choice([0.0, 0.01]))
    return style


def sample_frame(rng: np.random.Generator) -> dict:
    wide = rng.random() < 0.55
    return {
        "width": float(rng.uniform(0.55, 1.3) if wide else rng.uniform(0.18, 0.4)),
        "arrows": bool(rng.random() < 0.8),
        "deco": str(rng.choice(["none", "dashes", "dots", "band", "corners"])),
        "color": tuple(float(v) for v in rng.uniform(0.05, 0.75, 3)),
        "arrow_color": tuple(float(v) for v in rng.uniform(0.1, 0.95, 3)),
        "texture": float(rng.uniform(0.0, 0.12)),
    }


TABLE_COLORS = (  # BGR-agnostic RGB tones of real table tops and cloths
    (0.85, 0.83, 0.78),
    (0.92, 0.92, 0.90),
    (0.15, 0.15, 0.16),
    (0.45, 0.45, 0.47),
    (0.62, 0.55, 0.45),
    (0.12, 0.32, 0.18),
    (0.16, 0.20, 0.38),
    (0.55, 0.18, 0.16),
    (0.70, 0.62, 0.40),
    (0.35, 0.28, 0.24),
    (0.58, 0.66, 0.72),
    (0.80, 0.72, 0.62),
)


def sample_table(rng: np.random.Generator) -> dict:
    kind = str(rng.choice(["wood", "cloth", "pattern", "plain", "wood"]))
    c1 = np.array(TABLE_COLORS[int(rng.integers(len(TABLE_COLORS)))]) * rng.uniform(0.85, 1.1, 3)
    c2 = np.array(TABLE_COLORS[int(rng.integers(len(TABLE_COLORS)))]) * rng.uniform(0.85, 1.1, 3)
    return {
        "kind": kind,
        "color": tuple(float(v) for v in np.clip(c1, 0, 1)),
        "color2": tuple(float(v) for v in np.clip(c2, 0, 1)),
        "scale": float(rng.uniform(0.3, 1.5)),
        "angle": float(rng.uniform(0, 180)),
        "cards": int(rng.integers(0, 6)),
        "lid": bool(rng.random() < 0.4),
        "dice": int(rng.integers(0, 3)),
    }


def sample_lights(rng: np.random.Generator, lighting: str, pawns: list[Pawn]) -> tuple[list[Light], float, dict | None]:
    lights: list[Light] = []
    if lighting == "day":
        close = rng.random() < 0.35  # a desk lamp near the board: strong falloff across it
        for i in range(int(rng.integers(1, 3))):
            az = rng.uniform(0, 2 * np.pi)
            dist = rng.uniform(1.5, 7) if close and i == 0 else rng.uniform(4, 16)
            h = rng.uniform(4, 8) if close and i == 0 else rng.uniform(8, 22)
            pos = (3.5 + dist * np.cos(az), 3.5 + dist * np.sin(az), -h)
            kel = float(rng.uniform(2700, 6500))
            tint = np.array(kelvin_bgr(kel)) ** 2.2
            tint = tint / tint.mean()
            tint = tint ** rng.uniform(0.25, 0.6)  # the camera's white balance takes most of it out
            lights.append(
                Light(
                    tuple(float(v) for v in pos),
                    tuple(float(v) for v in tint / tint.mean()),
                    1.0 if i == 0 else float(rng.uniform(0.2, 0.6)),
                )
            )
        ambient = float(rng.uniform(0.15, 0.4))
        caster = None
        if rng.random() < 0.45:
            caster = {
                "angle": float(rng.uniform(0, 2 * np.pi)),
                "depth": float(rng.uniform(0.5, 3.5)),
                "soft": float(rng.uniform(0.15, 0.8)),
                "strength": float(rng.uniform(0.35, 0.75)),
                "kind": str(rng.choice(["edge", "bar", "blob"])),
            }
        return lights, ambient, caster
    # night: very little ambient light, a few dim LED spots over squares
    for _ in range(int(rng.integers(1, 5))):
        r, c = int(rng.integers(SIZE)), int(rng.integers(SIZE))
        if pawns and rng.random() < 0.35:
            p = pawns[int(rng.integers(len(pawns)))]
            r, c = p.square
        red = rng.random() < 0.55
        rgb = (0.08, 0.12, 1.0) if red else (1.0, 0.95, 0.85)
        lights.append(Light((c + 0.5, r + 0.5, -float(rng.uniform(0.7, 1.6))), rgb, float(rng.uniform(0.04, 0.14))))
    return lights, float(rng.uniform(0.0003, 0.003)), None


def sample_camera(rng: np.random.Generator, width: int, height: int) -> dict:
    return {
        "tilt": float(np.radians(rng.uniform(0, 15) if rng.random() < 0.8 else rng.uniform(0, 4))),
        "azimuth": float(rng.uniform(0, 2 * np.pi)),
        "roll": float(np.radians(rng.uniform(-30, 30) if rng.random() < 0.6 else rng.uniform(-6, 6))),
        "distance": float(rng.uniform(14, 26)),
        "coverage": float(rng.uniform(0.4, 0.9)),
        "place": tuple(float(v) for v in rng.uniform(-1, 1, 2)),
        "barrel": float(rng.uniform(0.0, 0.06) if rng.random() < 0.5 else 0.0),
    }


def sample_post(rng: np.random.Generator, lighting: str, quality: int | None) -> dict:
    night = lighting == "night"
    return {
        "vignette": float(rng.uniform(0.1, 0.45)),
        "blur": float(rng.uniform(0.0, 1.2)),
        "noise": float(rng.uniform(0.025, 0.06) if night else rng.uniform(0.004, 0.018)),
        "exposure": float(rng.uniform(0.85, 1.15)),
        "quality": int(quality if quality is not None else rng.integers(70, 93)),
        "gamma": float(rng.uniform(0.9, 1.1)),
        "wb": tuple(float(v) for v in rng.uniform(0.9, 1.1, 3)),
        "saturation": float(rng.uniform(0.75, 1.2)),
        "glare": 0.0 if night or rng.random() < 0.55 else float(rng.uniform(0.05, 0.3)),
        "glare_size": float(rng.uniform(0.6, 2.2)),
    }


def sample_occluder(rng: np.random.Generator) -> dict:
    return {
        "kind": str(rng.choice(["hand", "hand", "phone", "cup"])),
        "skin": tuple(
            float(v)
            for v in np.array(
                rng.choice(
                    [
                        (0.62, 0.72, 0.92),
                        (0.50, 0.62, 0.85),
                        (0.36, 0.48, 0.70),
                        (0.22, 0.32, 0.50),
                        (0.14, 0.20, 0.33),
                    ]
                )
            )
            * rng.uniform(0.9, 1.08)
        ),
        "sleeve": tuple(float(v) for v in rng.uniform(0.05, 0.85, 3)),
        "side": int(rng.integers(4)),
        "reach": float(rng.uniform(0.3, 0.75)),
        "along": float(rng.uniform(0.15, 0.85)),
        "tilt": float(rng.uniform(-0.6, 0.6)),
        "scale": float(rng.uniform(0.85, 1.25)),
        "lift": float(rng.uniform(1.5, 5.0)),
    }


def sample_scene(
    seed: int,
    lighting: str = "day",
    occluded_fraction: float = 0.0,
    size: tuple[int, int] | None = None,
    quality: int | None = None,
) -> Scene:
    rng = np.random.default_rng(seed)
    width, height = size if size else SIZES[int(rng.integers(len(SIZES)))]
    edition, tiles, names, starts = sample_position(rng, seed)
    pawns = sample_pawns(rng, lighting)
    jitter = {
        (r, c): (float(rng.uniform(-0.03, 0.03)), float(rng.uniform(-0.03, 0.03)), float(rng.uniform(-2, 2)))
        for r in range(SIZE)
        for c in range(SIZE)
    }
    style = sample_style(rng, lighting)
    lights, ambient, caster = sample_lights(rng, lighting, pawns)
    occluded = bool(rng.random() < occluded_fraction)
    return Scene(
        seed=seed,
        width=int(width),
        height=int(height),
        lighting=lighting,
        occluded=occluded,
        edition=edition,
        tiles=tiles,
        treasures=[list(sq) for sq in sorted(names)],
        start_colors=starts,
        treasure_names=names,
        tile_jitter=jitter,
        pawns=pawns,
        style=style,
        frame=sample_frame(rng),
        table=sample_table(rng),
        camera=sample_camera(rng, width, height),
        lights=lights,
        ambient=ambient,
        post=sample_post(rng, lighting, quality),
        occluder=sample_occluder(rng) if occluded else None,
        shadow_caster=caster,
        rng_seed=int(rng.integers(2**31)),
    )
