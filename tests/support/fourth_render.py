"""A fourth photo renderer, written apart from the reader, to measure it as an outside check would.

Usage::

    python -m tests.support.fourth_render OUT --count N --seed S [--lighting night]
        [--occluded-fraction F] [--size WxH] [--quality Q] [--max-kb K]

Photo ``i`` is rendered from seed ``S + i`` (deterministic), as ``NNNN.jpg`` with
a ``NNNN.json`` label per FORMATS.md §5. Without ``--size`` each photo draws its
size between 1280x960 and 2026x1520 (4:3).

What it varies, and where:

* the board (``fourth_render_style``, ``_tiles``, ``_board``): four editions'
  artwork (classic stone/paving, castle bricks/parchment with footprints,
  hedges or rock with sandy paths, a painted kids' edition with thick outlines),
  corridor width, pictures up to wider than the corridor, printed fixed tiles vs
  loose cardboard movable tiles with seams and jitter, artwork orientation;
* the camera (``_camera``): focal length, in-plane turn up to 30 degrees, tilt up
  to 15 degrees, board size in the picture, barrel or pincushion distortion;
* the scene (``_table``, ``_figures``, ``_hands``): six kinds of table top, the
  spare tile, cards, phone, box lid and cups beside the board, pawns of five
  shapes (chess pawn, cone-and-ball, wizard, peg, meeple) that stand up and cast
  shadows, hands and sleeves reaching in from any side;
* the light (``_light``, ``_sensor``): window gradient, warm lamp, hard shadows,
  LED spots, glare; night: dark room, glowing walls and pictures, dim LED spill;
  then exposure, white balance, vignetting, chromatic aberration, shake or
  defocus, noise, rolling-shutter banding and JPEG.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.board import EDITIONS, SIZE, random_setup
from tests.support.fourth_render_board import draw_board, start_colours
from tests.support.fourth_render_camera import Camera, random_camera
from tests.support.fourth_render_figures import PROFILES, Layer, draw_meeple, draw_revolution
from tests.support.fourth_render_hands import draw_flat, draw_hand
from tests.support.fourth_render_light import Lighting, build_lighting
from tests.support.fourth_render_sensor import add_glare, develop
from tests.support.fourth_render_style import Style, random_style
from tests.support.fourth_render_table import draw_table
from tests.support.fourth_render_tiles import draw_tile

PAWN_RGB = {
    "red": (0.78, 0.08, 0.07),
    "yellow": (0.95, 0.78, 0.08),
    "green": (0.10, 0.55, 0.18),
    "blue": (0.08, 0.22, 0.75),
}
SHAPES = ("chess", "cone", "wizard", "peg", "meeple")
LOW = 4  # the light map is this many times coarser than the table texture


def _pick_pawns(rng: np.random.Generator, style: Style) -> dict[str, tuple[int, int]]:
    colours = list(PAWN_RGB)
    rng.shuffle(colours)
    chosen = colours[: int(rng.choice([1, 2, 3, 4], p=[0.15, 0.3, 0.3, 0.25]))]
    starts = {colour: sq for sq, colour in start_colours(style.orientation).items()}
    pawns: dict[str, tuple[int, int]] = {}
    for colour in chosen:
        u = rng.uniform()
        if u < 0.2:
            sq = starts[colour]
        elif u < 0.35 and pawns:
            sq = list(pawns.values())[int(rng.integers(len(pawns)))]
        else:
            sq = (int(rng.integers(SIZE)), int(rng.integers(SIZE)))
        pawns[colour] = sq
    return pawns


def _draw_pawns(
    rng: np.random.Generator, layer: Layer, cam: Camera, lighting: Lighting, pawns: dict[str, tuple[int, int]]
) -> None:
    shape = str(rng.choice(SHAPES))
    radius = rng.uniform(0.15, 0.22)
    height = rng.uniform(0.55, 0.9) * (1.2 if shape == "wizard" else 1.0)
    by_square: dict[tuple[int, int], list[str]] = {}
    for colour, sq in pawns.items():
        by_square.setdefault(sq, []).append(colour)
    placed = []
    for (r, c), colours in by_square.items():
        n = len(colours)
        spots = (
            [(0.0, 0.0)]
            if n == 1
            else [(0.2 * np.cos(a), 0.2 * np.sin(a)) for a in rng.uniform(0, 2 * np.pi) + np.arange(n) * 2 * np.pi / n]
        )
        for colour, (dx, dy) in zip(colours, spots, strict=True):
            jitter = rng.uniform(-0.12, 0.12, 2) if n == 1 else rng.uniform(-0.03, 0.03, 2)
            placed.append((colour, c + 0.5 + dx + jitter[0], r + 0.5 + dy + jitter[1]))
    placed.sort(key=lambda p: -cam.depth(np.array([p[1], p[2], 0.0])))  # far first
    shadow = lighting.shadow_strength
    for colour, x, y in placed:
        rgb = tuple(float(v) for v in np.clip(np.array(PAWN_RGB[colour]) * rng.uniform(0.85, 1.12, 3), 0, 1))
        if shape == "meeple":
            draw_meeple(layer, cam, x, y, rng.uniform(0, 2 * np.pi), radius * 1.3, height, rgb, lighting.light, shadow)
        else:
            draw_revolution(layer, cam, x, y, PROFILES[shape], radius, height, rgb, lighting.light, shadow)


def _board_mask(cam: Camera, extent: float, dilate: float = 0.0) -> np.ndarray:
    w, h = cam.size
    m = np.zeros((h, w), np.uint8)
    e = extent + dilate
    pts = cam.project(np.array([[-e, -e, 0], [7 + e, -e, 0], [7 + e, 7 + e, 0], [-e, 7 + e, 0]]))
    cv2.fillPoly(m, [np.round(pts).astype(np.int32)], 1)
    return m.astype(bool)


def _outside(rng: np.random.Generator, extent: float) -> np.ndarray:
    """A random table point a little beyond the board's frame."""
    side = int(rng.integers(4))
    along = rng.uniform(-extent - 3, 7 + extent + 3)
    off = rng.uniform(0.5, 4.0) + extent
    return np.array([[along, -off], [7 + off, along], [along, 7 + off], [-off, along]][side])


def _clutter(
    rng: np.random.Generator, layer: Layer, cam: Camera, lighting: Lighting, style: Style, keep_off: np.ndarray
) -> None:
    """Cards, phone, box lid, cup and sometimes a resting hand beside the board (never over it)."""
    for _ in range(int(rng.integers(0, 5))):
        trial = Layer(cam.size)
        kind = str(rng.choice(["card", "card", "phone", "lid", "cup", "hand"], p=[0.25, 0.2, 0.15, 0.15, 0.15, 0.1]))
        centre = _outside(rng, style.margin)
        if kind == "cup":
            rgb = tuple(float(v) for v in rng.uniform(0.1, 0.95, 3))
            draw_revolution(
                trial,
                cam,
                centre[0],
                centre[1],
                [(0, 0.75), (1, 1.0)],
                rng.uniform(0.6, 0.9),
                rng.uniform(1.4, 2.2),
                rgb,
                lighting.light,
                lighting.shadow_strength,
                top_rgb=(0.12, 0.06, 0.03),
            )
        elif kind == "hand":
            draw_hand(
                trial, cam, rng, centre, centre - np.array([3.5, 3.5]), lighting.light, with_fingers=rng.uniform() < 0.7
            )
        else:
            size = {"card": (1.3, 1.9), "phone": (1.4, 2.8), "lid": (9.0, 9.0)}[kind]
            rgb = rng.uniform(0.1, 0.95, 3).astype(np.float32)
            if kind == "lid":
                centre = centre + (centre - 3.5) / np.linalg.norm(centre - 3.5) * 4.5
            draw_flat(
                trial,
                cam,
                centre,
                size,
                rng.uniform(0, 180),
                0.05 if kind != "lid" else 0.6,
                rgb,
                lighting.light,
                kind,
                rng,
            )
        if (trial.alpha[keep_off] > 0.01).any() or (np.maximum(trial.shadow, trial.soft)[keep_off] > 0.01).any():
            continue  # would touch the board: a photo labelled unoccluded must show all of it
        layer.merge(trial)


def _occlude(rng: np.random.Generator, layer: Layer, cam: Camera, lighting: Lighting) -> None:
    """A hand (or two), a cup or a card that hides at least a tile's worth of the tile area.

    Things held high are seen displaced outward by perspective, so a try that
    hides too little of the tiles is drawn again, aimed nearer the centre.
    """
    tiles = _board_mask(cam, 0.0)
    need = cam.pixels_per_tile() ** 2
    for attempt in range(6):
        trial = Layer(cam.size)
        _occluder(rng, trial, cam, lighting, 0.8 + 0.4 * attempt)
        if float(trial.alpha[tiles].sum()) >= need:
            break
    layer.merge(trial)


def _occluder(rng: np.random.Generator, layer: Layer, cam: Camera, lighting: Lighting, inset: float) -> None:
    kind = str(rng.choice(["hand", "hands", "cup", "card"], p=[0.6, 0.15, 0.13, 0.12]))
    target = rng.uniform(inset, 7 - inset, 2)
    if kind in ("hand", "hands"):
        for i in range(1 if kind == "hand" else 2):
            t = target if i == 0 else rng.uniform(inset, 7 - inset, 2)
            angle = rng.uniform(0, 2 * np.pi)
            draw_hand(
                layer,
                cam,
                rng,
                t,
                np.array([np.cos(angle), np.sin(angle)]),
                lighting.light,
                with_fingers=rng.uniform() < 0.9,
            )
    elif kind == "cup":
        rgb = tuple(float(v) for v in rng.uniform(0.1, 0.95, 3))
        draw_revolution(
            layer,
            cam,
            target[0],
            target[1],
            [(0, 0.75), (1, 1.0)],
            rng.uniform(0.7, 0.95),
            rng.uniform(1.4, 2.2),
            rgb,
            lighting.light,
            lighting.shadow_strength,
            top_rgb=(0.12, 0.06, 0.03),
        )
    else:
        draw_flat(
            layer,
            cam,
            target,
            (2.2, 3.2),
            rng.uniform(0, 180),
            0.08,
            rng.uniform(0.1, 0.95, 3).astype(np.float32),
            lighting.light,
            "card",
            rng,
        )


def default_size(rng: np.random.Generator) -> tuple[int, int]:
    """A 4:3 photo size between 1280x960 and 2026x1520 (drawn even when a size is given: same stream)."""
    w = int(rng.integers(1280, 2027))
    return w, round(w * 0.75)


def render(
    seed: int,
    size: tuple[int, int] | None = None,
    lighting: str = "day",
    occluded_fraction: float = 0.0,
    quality: int | None = None,
) -> tuple[np.ndarray, dict[str, Any], int]:
    """One photo: (BGR image, FORMATS.md §5 label, JPEG quality to save it with)."""
    rng = np.random.default_rng(seed)
    drawn = default_size(rng)
    size = size or drawn
    night = lighting == "night"
    occluded = bool(rng.uniform() < occluded_fraction)
    style = random_style(rng)
    board, names = random_setup(
        random.Random(seed), EDITIONS["classic" if style.edition == "painted" else style.edition]
    )
    tiles = [int(t) for t in board.tiles]
    pictures = {divmod(i, SIZE) for i, name in enumerate(names[: SIZE * SIZE]) if name}
    cam = random_camera(rng, size, style.margin + 0.1)
    ppt = int(np.clip(round(cam.pixels_per_tile() * 1.2), 40, 260))
    art = draw_board(rng, style, tiles, pictures, ppt)
    extent = art.origin / ppt  # frame width in tiles

    # the table plane texture: everything the camera sees, at ppt pixels per tile
    foot = cam.footprint()
    lo = np.maximum(foot.min(0) - 2, -40)
    hi = np.minimum(foot.max(0) + 2, 47)
    k0 = np.ceil((-extent - lo) * ppt).astype(int)
    gx0, gy0 = -extent - k0[0] / ppt, -extent - k0[1] / ppt
    tw, th = int(np.ceil((hi[0] - gx0) * ppt)), int(np.ceil((hi[1] - gy0) * ppt))
    table = draw_table(rng, (th, tw), ppt)
    glow = np.zeros((th, tw), np.float32)
    low_shape = (th // LOW + 1, tw // LOW + 1)
    xs = gx0 + (np.arange(low_shape[1]) * LOW + LOW / 2) / ppt
    ys = gy0 + (np.arange(low_shape[0]) * LOW + LOW / 2) / ppt
    gx, gy = np.meshgrid(xs.astype(np.float32), ys.astype(np.float32))
    light = build_lighting(rng, night, gx, gy, cam.pixels_per_tile() / LOW)
    # the board's own shadow on the table (it is a few mm thick)
    side = art.albedo.shape[0]
    push = -light.light.direction[:2] / max(light.light.direction[2], 0.2) * 0.12 * ppt
    drop = np.zeros((th, tw), np.float32)
    x0, y0 = int(k0[0] + push[0]), int(k0[1] + push[1])
    cv2.rectangle(drop, (x0, y0), (x0 + side, y0 + side), 1.0, -1)
    drop = cv2.GaussianBlur(drop, (0, 0), 0.08 * ppt)
    table *= (1 - 0.5 * drop)[..., None]
    table[k0[1] : k0[1] + side, k0[0] : k0[0] + side] = art.albedo
    glow[k0[1] : k0[1] + side, k0[0] : k0[0] + side] = art.glow
    _spare(rng, style, board.spare, table, glow, ppt, (gx0, gy0), extent)

    hp = cam.plane_homography()
    tex_to_world = np.array([[1 / ppt, 0, gx0 + 0.5 / ppt], [0, 1 / ppt, gy0 + 0.5 / ppt], [0, 0, 1]])
    h_tex = hp @ tex_to_world
    w, h = size
    warp = lambda img, hm: cv2.warpPerspective(img, hm, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)  # noqa: E731
    albedo = warp(cv2.GaussianBlur(table, (0, 0), 0.5), h_tex)
    glow_img = warp(glow, h_tex)
    low_to_tex = np.array([[LOW, 0, LOW / 2 - 0.5], [0, LOW, LOW / 2 - 0.5], [0, 0, 1]])
    illum = warp(light.illum, h_tex @ low_to_tex)

    layer = Layer(size)
    keep_off = _board_mask(cam, extent, 0.15)
    if not occluded:
        _clutter(rng, layer, cam, light, style, keep_off)
    pawns = _pick_pawns(rng, style)
    _draw_pawns(rng, layer, cam, light, pawns)
    if occluded:
        _occlude(rng, layer, cam, light)

    px = cam.pixels_per_tile()
    shade = (
        1
        - cv2.GaussianBlur(layer.shadow, (0, 0), max(0.7, 0.03 * px))
        - cv2.GaussianBlur(layer.soft, (0, 0), max(1.0, 0.2 * px))
    )
    ground = albedo * illum * np.clip(shade, 0.05, 1)[..., None]
    if night:
        glow_rgb = np.array(style.glow, np.float32) * light.glow_strength
        ground = ground + cv2.GaussianBlur(glow_img, (0, 0), max(0.6, 0.02 * px))[..., None] * glow_rgb
    img = ground * (1 - layer.alpha[..., None]) + layer.rgb * illum
    corners = cam.distort_points(cam.project(np.array([[0, 0, 0], [7, 0, 0], [7, 7, 0], [0, 7, 0]], np.float64)))
    if not night and rng.uniform() < 0.25:
        img = add_glare(rng, img, corners)
    out = develop(rng, img.astype(np.float32), cam, night)
    label: dict[str, Any] = {
        "tiles": [[str(board.tiles[r * SIZE + c]) for c in range(SIZE)] for r in range(SIZE)],
        "pawns": {colour: list(sq) for colour, sq in pawns.items()},
        "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in corners],
        "lighting": "night" if night else "day",
        "occluded": occluded,
        "treasures": sorted([list(sq) for sq in pictures]),
    }
    q = quality if quality is not None else int(rng.integers(62, 93))
    return out, label, q


def _spare(
    rng: np.random.Generator,
    style: Style,
    spare: int,
    table: np.ndarray,
    glow: np.ndarray,
    ppt: int,
    origin: tuple[float, float],
    extent: float,
) -> None:
    """The spare tile lying on the table beside a gate, turned a little."""
    art, tile_glow = draw_tile(rng, style, int(spare), ppt, bool(rng.uniform() < 0.35))
    gate = float(rng.choice([1.5, 3.5, 5.5]))
    off = extent + rng.uniform(0.8, 2.0)
    cx, cy = [(gate, -off), (7 + off, gate), (gate, 7 + off), (-off, gate)][int(rng.integers(4))]
    m = cv2.getRotationMatrix2D((ppt / 2, ppt / 2), rng.uniform(-25, 25), 1.0)
    m[:, 2] += [(cx - origin[0]) * ppt - ppt / 2, (cy - origin[1]) * ppt - ppt / 2]
    th, tw = glow.shape
    alpha = cv2.warpAffine(np.ones((ppt, ppt), np.float32), m, (tw, th))
    table[:] = table * (1 - alpha[..., None]) + cv2.warpAffine(art, m, (tw, th)) * alpha[..., None]
    glow[:] = glow * (1 - alpha) + cv2.warpAffine(tile_glow, m, (tw, th)) * alpha


def write_photo(path: Path, image: np.ndarray, quality: int, max_kb: int | None) -> None:
    """Save as JPEG, lowering the quality until the file fits ``max_kb`` (when given)."""
    while True:
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if not ok:
            raise RuntimeError(f"could not encode {path}")
        if max_kb is None or len(data) <= max_kb * 1000 or quality <= 30:
            break
        quality -= 4
    path.write_bytes(data.tobytes())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.support.fourth_render", description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lighting", choices=("day", "night"), default="day")
    parser.add_argument("--occluded-fraction", type=float, default=0.0)
    parser.add_argument("--size", type=str, default=None, help="WxH; default: drawn per photo, 1280x960 to 2026x1520")
    parser.add_argument("--quality", type=int, default=None, help="JPEG quality; default: drawn per photo, 62-92")
    parser.add_argument("--max-kb", type=int, default=None)
    args = parser.parse_args(argv)
    size = tuple(int(v) for v in args.size.lower().split("x")) if args.size else None
    args.out.mkdir(parents=True, exist_ok=True)
    for i in range(args.count):
        image, label, quality = render(args.seed + i, size, args.lighting, args.occluded_fraction, args.quality)  # type: ignore[arg-type]
        write_photo(args.out / f"{i:04d}.jpg", image, quality, args.max_kb)
        (args.out / f"{i:04d}.json").write_text(json.dumps(label, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
