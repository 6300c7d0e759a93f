"""An independent held-out photo renderer: boards the reader was never tuned on.

The reader in ``vision/`` is tuned on the team renderer; this one is written
apart from it (other artwork, table, pawns, camera and light models) so that
measuring the reader here says how it generalises. Nothing in ``vision/`` may
be tuned on these photos.

    python -m tests.support.holdout_render OUT --count N --seed S [--lighting day|night]
        [--occluded-fraction F] [--size WxH] [--quality Q] [--max-kb K]

writes ``0000.jpg`` + ``0000.json`` (FORMATS.md §5) per photo; photo ``i`` is
``random_holdout_scene(S + i, ...)``, so any one can be re-made alone.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.board import (
    EDITIONS,
    FIXED_TILES,
    SIZE,
    START_SQUARES,
    Board,
    Color,
    Tile,
    push_line,
    random_setup,
)
from tests.support.holdout_art import paint_tiles, random_artwork
from tests.support.holdout_board import board_texture, random_frame
from tests.support.holdout_camera import TILE_CORNERS, Camera, random_camera
from tests.support.holdout_light import light_fields, sensor
from tests.support.holdout_props import (
    PAWN_SHAPES,
    Pawn,
    draw_pawns,
    pawn_colour,
    place_occluder,
    place_resting_hand,
)
from tests.support.holdout_table import table_texture

SIZES = ((1280, 960), (1456, 1088), (1640, 1232), (1600, 1200), (2028, 1520))
Pictures = list[list[str | None]]


def random_board(rng: random.Random) -> tuple[Board, Pictures, str | None]:
    """A legal position: a random setup of a random edition, 6–40 random legal pushes, 2–4 pawns anywhere.

    Returns the board, the treasure on each square (tile identities followed
    through the pushes) and the spare's treasure.
    """
    board, treasures = random_setup(rng, rng.choice(list(EDITIONS)))
    names: list[str | None] = list(treasures[:49])
    spare_name = treasures[49]
    for _ in range(rng.randint(6, 40)):
        gate = rng.choice(board.legal_pushes())
        laid = rng.choice(board.spare.rotations())
        names, spare_name = push_line(names, gate, spare_name)
        board = board.push(gate, laid)
    colours = rng.sample(list(Color), rng.randint(2, 4))
    pawns: dict[Color, tuple[int, int]] = {}
    for colour in colours:
        if pawns and rng.random() < 0.3:
            pawns[colour] = rng.choice(list(pawns.values()))
        else:
            pawns[colour] = (rng.randrange(SIZE), rng.randrange(SIZE))
    pictures = [names[r * SIZE : (r + 1) * SIZE] for r in range(SIZE)]
    return board.with_pawns(pawns), pictures, spare_name


def default_pictures(board: Board, rng: random.Random) -> Pictures:
    """Pictures for a board given without tile identities: the 12 fixed T-junctions, then up to 12 movable
    tiles (T-junctions first, then corners), as a physical set would show them."""
    pictures: Pictures = [[None] * SIZE for _ in range(SIZE)]
    count = 0
    for r, c in FIXED_TILES:
        if (r, c) not in START_SQUARES:
            pictures[r][c] = f"fixed {r}{c}"
    movable = [(r, c) for r in range(SIZE) for c in range(SIZE) if (r, c) not in FIXED_TILES]
    rng.shuffle(movable)
    movable.sort(key=lambda sq: {"t": 0, "corner": 1}.get(board.tile(sq).kind, 2))
    for r, c in movable:
        if count < 12 and board.tile((r, c)).kind != "straight":
            pictures[r][c] = f"movable {count}"
            count += 1
    return pictures


def _pawns(rng: random.Random, board: Board) -> list[Pawn]:
    """Pawn bodies: one shape and size family per scene, varied hues; pawns sharing a square stand apart."""
    shape = rng.choice(PAWN_SHAPES)
    radius = rng.uniform(0.16, 0.27)
    height = rng.uniform(0.5, 1.0) if shape != "meeple" else rng.uniform(0.45, 0.7)
    by_square: dict[tuple[int, int], list[Color]] = {}
    for colour, square in board.pawns.items():
        by_square.setdefault(square, []).append(colour)
    out = []
    for (r, c), colours in by_square.items():
        n = len(colours)
        spread = 0.0 if n == 1 else min(0.42 - radius, 0.24)
        start = rng.uniform(0, 2 * math.pi)
        jitter = max(0.0, 0.42 - radius - spread) * 0.6
        for k, colour in enumerate(colours):
            a = start + 2 * math.pi * k / n
            x = c + 0.5 + spread * math.cos(a) + rng.uniform(-jitter, jitter)
            y = r + 0.5 + spread * math.sin(a) + rng.uniform(-jitter, jitter)
            scale = rng.uniform(0.92, 1.08)
            out.append(Pawn(x, y, pawn_colour(rng, str(colour)), shape, radius * scale * (0.8 if n > 2 else 1.0),
                            height * scale, rng.uniform(0, math.pi)))
    return out


def _texture_homography(cam: Camera, origin: tuple[float, float], s: float) -> np.ndarray:
    """Texture pixels (centre of pixel a at world origin + (a + 0.5) / s) to canvas pixels."""
    scale = np.array([[1 / s, 0, origin[0] + 0.5 / s], [0, 1 / s, origin[1] + 0.5 / s], [0, 0, 1]])
    return cam.plane_homography() @ scale


def _visible_region(cam: Camera) -> tuple[float, float, float, float]:
    """The table-plane box the canvas sees (world units), so the table texture covers no more than needed."""
    cw, ch = cam.canvas_size
    inv = np.linalg.inv(cam.plane_homography())
    pts = np.array([[0, 0, 1], [cw, 0, 1], [cw, ch, 1], [0, ch, 1]], float) @ inv.T
    xy = pts[:, :2] / np.maximum(pts[:, 2:3], 1e-6)
    lo = np.clip(xy.min(axis=0) - 0.5, -30, 37)
    hi = np.clip(xy.max(axis=0) + 0.5, -30, 37)
    return float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])


def render_frame(
    board: Board,
    *,
    seed: int,
    lighting: str = "day",
    size: tuple[int, int] = (1280, 960),
    occluded: bool = False,
    pictures: Sequence[Sequence[str | None]] | None = None,
    spare_picture: str | None = None,
) -> tuple[np.ndarray, dict[str, Any], int]:
    """The photo before JPEG, its label and the JPEG quality this shot gets (60–92).

    The pipeline follows a real shot: flat things (table, props, spare, board) are
    painted as table-plane textures and projected with the camera's plane
    homography (``cv2.warpPerspective``); things with height (pawns, hands, held
    objects) are drawn from 3D points on that undistorted canvas; the scene light
    multiplies and adds; the lens then bends everything at once (``cv2.remap``),
    and the sensor adds blur and noise. Tile pictures follow ``pictures`` (tile
    identities); without them a physical-looking set of 24 is chosen.
    """
    if lighting not in ("day", "night"):
        raise ValueError(f"lighting must be 'day' or 'night', got {lighting!r}")
    night = lighting == "night"

    def stream(part: str) -> random.Random:
        # one generator per part of the scene: a photo with and without pawns or an occluder differs only there
        return random.Random(f"holdout-render/{seed}/{lighting}/{part}")

    rng = stream("scene")
    if pictures is None:
        pictures = default_pictures(board, stream("pictures"))
    art = random_artwork(rng)
    frame = random_frame(rng)
    cam = random_camera(rng, size, frame.width)
    az, el = rng.uniform(0, 2 * math.pi), math.radians(rng.uniform(35, 75))
    light = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), -math.sin(el)])
    shadow_dir = (-math.cos(az), -math.sin(az))
    ppu_max = max(cam.pixels_per_unit(p) for p in TILE_CORNERS)
    s = int(min(max(ppu_max * 1.05, 28), 150))
    tiles = [[int(board.tile((r, c))) for c in range(SIZE)] for r in range(SIZE)]
    starts = {sq: str(colour) for sq, colour in EDITIONS["classic"].start_colors.items()}
    b_rgb, b_glow = board_texture(art, frame, tiles, pictures, s, stream("board"), shadow_dir, starts)
    off = round(frame.width * s) / s
    region = _visible_region(cam)
    s_table = max(s * 0.5, 10.0)
    spare = paint_tiles(art, [[int(board.spare)]], [[spare_picture]], max(int(s * 0.6), 12), stream("spare"))
    t_rgb, t_glow = table_texture(stream("table"), region, s_table, frame.width, shadow_dir, spare)
    cw, ch = cam.canvas_size
    canvas4 = cv2.warpPerspective(
        cv2.merge([t_rgb, t_glow]), _texture_homography(cam, region[:2], s_table), (cw, ch),
        flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE,
    )
    cv2.warpPerspective(
        cv2.merge([b_rgb, b_glow]), _texture_homography(cam, (-off, -off), s), (cw, ch), dst=canvas4,
        flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT,
    )
    canvas = canvas4[..., :3].astype(np.float32)
    glow = canvas4[..., 3].astype(np.float32)
    prng = stream("pawns")
    draw_pawns(canvas, glow, cam, _pawns(prng, board), light, 0.15 if night else prng.uniform(0.3, 0.6))
    orng = stream("occluder")
    if occluded:
        place_occluder(orng, cam, canvas, glow, shadow_dir, orng.choice(["arm", "arm", "mug", "card"]))
    elif orng.random() < 0.15:  # a player's hand resting beside the board: in view, hiding nothing
        place_resting_hand(orng, cam, canvas, glow, shadow_dir, frame.width)
    fields = light_fields(stream("light"), cam, night)
    canvas *= fields.gain
    if fields.add is not None:
        canvas += fields.add
    if night:
        canvas += (glow * (1.0 / 255.0))[..., None] * fields.glow
    lit = cv2.convertScaleAbs(canvas)  # saturating; every light term is >= 0
    mx, my = cam.undistort_maps()
    photo = cv2.remap(lit, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    srng = stream("sensor")
    photo = sensor(srng, photo, night)
    corners = cam.project(TILE_CORNERS)
    label: dict[str, Any] = {
        "tiles": [[str(Tile(t)) for t in row] for row in tiles],
        "pawns": {str(colour): list(sq) for colour, sq in board.pawns.items()},
        "corners": [[round(float(x), 2), round(float(y), 2)] for x, y in corners],
        "lighting": lighting,
        "occluded": occluded,
        "treasures": [[r, c] for r in range(SIZE) for c in range(SIZE) if pictures[r][c] is not None],
    }
    return photo, label, srng.randint(60, 92)


def encode(photo: np.ndarray, quality: int) -> bytes:
    ok, data = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return data.tobytes()


def through_jpeg(photo: np.ndarray, quality: int) -> np.ndarray:
    """The photo as a camera app would save and a reader would load it."""
    decoded = cv2.imdecode(np.frombuffer(encode(photo, quality), np.uint8), cv2.IMREAD_COLOR)
    if decoded is None:
        raise RuntimeError("JPEG decoding failed")
    return np.asarray(decoded)


def render(
    board: Board,
    *,
    seed: int,
    lighting: str = "day",
    size: tuple[int, int] = (1280, 960),
    occluded: bool = False,
    pictures: Sequence[Sequence[str | None]] | None = None,
    spare_picture: str | None = None,
) -> tuple[np.ndarray, dict[str, Any]]:
    """A held-out photo of ``board`` (BGR, through JPEG like a saved photo) and its label (FORMATS.md §5)."""
    photo, label, quality = render_frame(board, seed=seed, lighting=lighting, size=size, occluded=occluded,
                                         pictures=pictures, spare_picture=spare_picture)
    return through_jpeg(photo, quality), label


def scene_size(seed: int) -> tuple[int, int]:
    """The photo size a scene gets when none is asked for: one of the supported sensor modes."""
    return random.Random(f"size/{seed}").choice(SIZES)


def _scene(seed: int, lighting: str, size: tuple[int, int] | None, occluded: bool
           ) -> tuple[np.ndarray, dict[str, Any], int]:
    board, pictures, spare_picture = random_board(random.Random(f"holdout-board/{seed}"))
    return render_frame(board, seed=seed, lighting=lighting, size=size or scene_size(seed), occluded=occluded,
                        pictures=pictures, spare_picture=spare_picture)


def random_holdout_scene(
    seed: int, lighting: str = "day", size: tuple[int, int] | None = None, occluded: bool = False
) -> tuple[np.ndarray, dict[str, Any]]:
    """A random legal position rendered as a held-out photo; ``size=None`` picks a sensor mode from the seed."""
    photo, label, quality = _scene(seed, lighting, size, occluded)
    return through_jpeg(photo, quality), label


def _parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must be WxH, e.g. 1280x960, got {text!r}") from None
    if not (64 <= w <= 8000 and 64 <= h <= 8000):
        raise argparse.ArgumentTypeError(f"size {text!r} is out of range (64..8000 each side)")
    return w, h


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.support.holdout_render", description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path, help="folder to write NNNN.jpg + NNNN.json into")
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lighting", choices=("day", "night"), default="day")
    parser.add_argument("--occluded-fraction", type=float, default=0.0,
                        help="share of photos with a hand or held object over the board (0..1)")
    parser.add_argument("--size", type=_parse_size, default=None, help="WxH; default: mixed sensor modes")
    parser.add_argument("--quality", type=int, default=None, help="JPEG quality (default: 60..92 per photo)")
    parser.add_argument("--max-kb", type=float, default=None, help="lower the quality until a JPEG fits")
    args = parser.parse_args(argv)
    if args.count < 0 or not 0.0 <= args.occluded_fraction <= 1.0:
        parser.error("--count must be >= 0 and --occluded-fraction within 0..1")
    args.out.mkdir(parents=True, exist_ok=True)
    for i in range(args.count):
        seed = args.seed + i
        occluded = random.Random(f"occluded/{seed}").random() < args.occluded_fraction
        photo, label, quality = _scene(seed, args.lighting, args.size, occluded)
        quality = args.quality or quality
        data = encode(photo, quality)
        while args.max_kb and len(data) > args.max_kb * 1024 and quality > 30:
            quality -= 4
            data = encode(photo, quality)
        (args.out / f"{i:04d}.jpg").write_bytes(data)
        (args.out / f"{i:04d}.json").write_text(json.dumps(label) + "\n")
        print(f"\r{i + 1}/{args.count}", end="", file=sys.stderr, flush=True)
    if args.count:
        print(file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
