"""A fifth, independent photo renderer: the board as a true 3D scene under a pinhole camera.

Why another one: the reader was tuned on four renderers; an outside check uses one we
have never seen. This renderer was written without looking at the reader or at the
other renderers, from a description of the real games, so its figures say how the reader
does on looks it was not fitted to. What it does differently is geometry: the scene is
built in centimetres (tiles ~3 cm, movable tiles ~2 mm thick slabs with gaps, jitter and
visible edges, pawns 2.5-3.5 cm solids, hands as arm/palm/finger solids) and seen by a
pinhole camera 45-80 cm up, tilted up to 15 degrees, rolled up to 30, off-centre, with
radial distortion. Pawns hide what is behind them and cast shadows from the same lights
that shade them and the board.

Labels follow FORMATS.md §5; ``corners`` are the tile area's outer corners projected
through the same camera and lens.

    python -m tests.support.fifth_render OUT --count N --seed S [--lighting night]
        [--occluded-fraction F] [--size WxH]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.board import EDITIONS, FIXED_TILES, random_setup
from tests.support import fifth_render_art as art
from tests.support.fifth_render_camera import Camera, sample_camera
from tests.support.fifth_render_light import glare_point, irradiance, sample_lighting, sensor, surface_field
from tests.support.fifth_render_props import TABLE_CM, cup, draw_flat, flat_clutter, hand, table_texture
from tests.support.fifth_render_solids import Mesh, draw_meshes, pawn_mesh, shadow_mask

SUPERSAMPLE = 1.5
META_FILE = "fifth_meta.jsonl"  # not an image label: the folder loader ignores it
COLOURS = ("red", "yellow", "green", "blue")


@dataclass
class Scene:
    """The sampled physical set-up of one frame (world cm)."""

    pitch: float  # tile pitch
    frame: float  # frame width around the tile area
    thickness: float  # movable tile thickness
    board_depth: float  # board thickness above the table
    tiles: list[int]
    treasures: list[str | None]
    pawns: dict[str, tuple[int, int]]
    spare: int
    spare_treasure: bool

    @property
    def centre(self) -> np.ndarray:
        return np.array([3.5 * self.pitch, -3.5 * self.pitch, 0.0])

    def tile_area(self) -> np.ndarray:
        s = 7 * self.pitch
        return np.array([[0, 0, 0], [s, 0, 0], [s, -s, 0], [0, -s, 0]], np.float64)

    def outline(self, z: float = 0.0) -> np.ndarray:
        f, s = self.frame, 7 * self.pitch
        return np.array([[-f, f, z], [s + f, f, z], [s + f, -s - f, z], [-f, -s - f, z]], np.float64)

    def square_centre(self, r: int, c: int) -> np.ndarray:
        return np.array([(c + 0.5) * self.pitch, -(r + 0.5) * self.pitch, 0.0])


def sample_scene(rng: random.Random) -> Scene:
    edition = rng.choice(sorted(EDITIONS))
    board, treasures = random_setup(rng, edition)
    count = rng.choice([2, 3, 4, 4, 4])
    colours = rng.sample(COLOURS, count)
    starts = {"red": (0, 0), "yellow": (0, 6), "green": (6, 6), "blue": (6, 0)}
    pawns: dict[str, tuple[int, int]] = {}
    for colour in colours:
        if rng.random() < 0.2:
            pawns[colour] = starts[colour]
        elif pawns and rng.random() < 0.25:  # share a square with another pawn
            pawns[colour] = rng.choice(list(pawns.values()))
        else:
            pawns[colour] = (rng.randrange(7), rng.randrange(7))
    return Scene(pitch=rng.uniform(2.8, 3.3), frame=rng.uniform(1.8, 3.5), thickness=rng.uniform(0.15, 0.25),
                 board_depth=rng.uniform(0.2, 0.4), tiles=[int(t) for t in board.tiles], treasures=treasures[:49],
                 pawns=pawns, spare=int(board.spare), spare_treasure=treasures[49] is not None)


# --------------------------------------------------------------------------- drawing helpers


def _warp_into(canvas: np.ndarray, texture: np.ndarray, hom: np.ndarray, emit: np.ndarray | None) -> None:
    """Warp a texture through ``hom`` into the canvas, alpha-blended at its anti-aliased border."""
    h, w = texture.shape[:2]
    corners = cv2.perspectiveTransform(np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float64), hom)[0]
    x0, y0 = np.floor(corners.min(0)).astype(int) - 2
    x1, y1 = np.ceil(corners.max(0)).astype(int) + 2
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, canvas.shape[1]), min(y1, canvas.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1.0]]) @ hom
    size = (x1 - x0, y1 - y0)
    patch = cv2.warpPerspective(texture, shift, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    ones = np.zeros((h + 2, w + 2), np.float32)
    ones[1:-1, 1:-1] = 1.0
    alpha = cv2.warpPerspective(ones, np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1.0]]) @ shift @
                                np.array([[1, 0, -1], [0, 1, -1], [0, 0, 1.0]]), size, flags=cv2.INTER_LINEAR)
    roi = canvas[y0:y1, x0:x1]
    roi[:] = roi * (1 - alpha[..., None]) + patch.astype(np.float32) * alpha[..., None]
    if emit is not None:
        e = emit[y0:y1, x0:x1]
        e[:] = np.maximum(e, alpha)


def _project(kc: np.ndarray, cam: Camera, pts: np.ndarray) -> np.ndarray:
    pc = (pts - cam.C) @ cam.R.T
    return np.stack([kc[0, 0] * pc[:, 0] / pc[:, 2] + kc[0, 2], kc[1, 1] * pc[:, 1] / pc[:, 2] + kc[1, 2]], 1)


def _slab_sides(canvas: np.ndarray, kc: np.ndarray, cam: Camera, top: np.ndarray, depth: float,
                colour: np.ndarray, light_ratio: Callable[[np.ndarray, np.ndarray], float]) -> None:
    """The visible side faces of a slab whose top face is ``top`` (4, 3, counter-clockwise from above)."""
    for i in range(4):
        a, b = top[i], top[(i + 1) % 4]
        face = np.array([a, b, b - [0, 0, depth], a - [0, 0, depth]])
        mid = face.mean(0)
        edge = b - a
        normal = np.array([edge[1], -edge[0], 0.0])
        normal /= np.linalg.norm(normal)
        if normal @ (cam.C - mid) <= 0:
            continue
        shade = colour * light_ratio(mid, normal)
        cv2.fillPoly(canvas, [np.round(_project(kc, cam, face) * 16).astype(np.int32)],
                     tuple(float(v) for v in shade), cv2.LINE_AA, 4)


def _spare_tile(rng: random.Random, scene: Scene, look: art.Look, cam: Camera, kc: np.ndarray,
                canvas: np.ndarray, z_table: float, tile_px: int, side: float, edge: np.ndarray,
                ratio: Callable[[np.ndarray, np.ndarray], float]) -> tuple[np.ndarray, np.ndarray]:
    """The spare tile lying on the table in front of a gate, outside the frame; its sides drawn now."""
    k = rng.choice([1, 3, 5])
    gate = rng.randrange(4)
    off = 3.5 * scene.pitch + scene.frame + side / 2 + rng.uniform(0.3, 3.0)
    along = (k + 0.5) * scene.pitch - 3.5 * scene.pitch + rng.uniform(-0.4, 0.4)
    dx, dy = [(along, off), (off, -along), (along, -off), (-off, along)][gate]
    ctr = scene.centre + np.array([dx, dy, 0.0])
    ang = math.radians(rng.uniform(-12, 12))
    ca, sa = math.cos(ang), math.sin(ang)
    local = np.array([[-1, 1], [1, 1], [1, -1], [-1, -1]]) * side / 2
    xy = local @ np.array([[ca, sa], [-sa, ca]]) + ctr[:2]
    quad = np.column_stack([xy, np.full(4, z_table + scene.thickness)])
    _slab_sides(canvas, kc, cam, quad[[3, 2, 1, 0]], scene.thickness, edge, ratio)
    face = art.draw_tile(rng, look, scene.spare, tile_px)
    if scene.spare_treasure:
        art.draw_picture(face, rng, (tile_px / 2, tile_px / 2), tile_px * rng.uniform(0.2, 0.27), look.night)
    return quad, face


def _reaching_hand(rng: random.Random, scene: Scene) -> list[Mesh]:
    """A hand over the tiles: anywhere, or (sometimes) just reaching in over an edge row."""
    if rng.random() < 0.3:
        side = rng.randrange(4)
        k = rng.randrange(7)
        sq = [(0, k), (k, 6), (6, k), (k, 0)][side]
        ang = [math.pi / 2, 0.0, -math.pi / 2, math.pi][side] + rng.uniform(-0.5, 0.5)
        return hand(rng, scene.square_centre(*sq), scene.thickness, ang)
    return hand(rng, scene.square_centre(rng.randrange(7), rng.randrange(7)), scene.thickness)


def _resting_hand(rng: random.Random, scene: Scene, cam: Camera, z_table: float) -> list[Mesh]:
    """A hand lying on the table beside the board, pointing at it but hiding no tile (else none)."""
    ang = rng.uniform(0, 2 * math.pi)
    away = np.array([math.cos(ang), math.sin(ang), 0.0])
    reach = 3.5 * scene.pitch + scene.frame + rng.uniform(10.0, 16.0)
    meshes = hand(rng, scene.centre + away * reach, z_table, ang, lift=(1.2, 2.0))
    pts = np.concatenate([m.quads.reshape(-1, 3) for m in meshes])
    pix = cam.project(pts)
    area = cam.project(scene.outline()).astype(np.float32)
    if any(cv2.pointPolygonTest(area, (float(x), float(y)), False) >= 0 for x, y in pix[::7]):
        return []
    return meshes


# --------------------------------------------------------------------------- one frame


def render(seed: int | str, night: bool = False, occluded: bool = False,
           size: tuple[int, int] | None = None, meta: dict | None = None) -> tuple[np.ndarray, dict]:
    """One photo (uint8 BGR) and its label dict, fully determined by the arguments.

    ``meta``, when given, is filled with what was sampled (look, pawn shape, lights, camera),
    so errors can be broken down by scene factor; it does not change the frame.
    """
    rng = random.Random(f"fifth:{seed}:{night}:{occluded}")
    if size is None:
        w = rng.randint(1280, 2028)
        size = (w, round(w * 0.75))
    width, height = size
    scene = sample_scene(rng)
    look = art.sample_look(rng, night)
    cam = sample_camera(rng, size, scene.centre, scene.outline(), scene.tile_area())
    light = sample_lighting(rng, scene.centre, night)

    # canvas: undistorted, supersampled, with a margin so the lens warp never reads outside it
    border = np.array([[x, y] for x in np.linspace(0, width, 9) for y in (0, height)]
                      + [[x, y] for y in np.linspace(0, height, 7) for x in (0, width)], np.float64)
    und = cam.undistort_pixels(border)
    margin = int(math.ceil(max(0.0, -und.min(), (und[:, 0] - width).max(), (und[:, 1] - height).max()))) + 4  # noqa: RUF046
    ss = SUPERSAMPLE
    kc = cam.scaled(ss, (margin, margin))
    cw, ch = int((width + 2 * margin) * ss), int((height + 2 * margin) * ss)
    canvas = np.zeros((ch, cw, 3), np.float32)
    emit = np.zeros((ch, cw), np.float32) if night else None
    ppc_canvas = kc[0, 0] / float(np.linalg.norm(cam.C - scene.centre))

    table, tppc = table_texture(rng, night)
    z_table = -scene.board_depth
    origin = (scene.centre[0] - TABLE_CM / 2, scene.centre[1] + TABLE_CM / 2)
    canvas[:] = cv2.warpPerspective(table, cam.plane_homography(z_table, origin, tppc, kc), (cw, ch),
                                    flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    half = 3.5 * scene.pitch + scene.frame
    for poly, colour in flat_clutter(rng, half, scene.centre, z_table):
        draw_flat(canvas, kc, cam, poly, colour)

    def ratio(point: np.ndarray, normal: np.ndarray) -> float:
        up = irradiance(light, point[None], np.array([0.0, 0.0, 1.0]), scene.centre)[0].mean()
        side = irradiance(light, point[None], normal, scene.centre)[0].mean()
        return float(np.clip(side / max(up, 1e-6), 0.3, 1.6))

    # the board: its sides, the printed top, then the movable tiles (sides first, tops over them)
    top = scene.outline(0.0)[[3, 2, 1, 0]]  # counter-clockwise seen from above
    _slab_sides(canvas, kc, cam, top, scene.board_depth, np.array(look.frame, np.float64) * 0.7, ratio)
    ppc = float(np.clip(ppc_canvas, 24.0, 56.0))
    tile_px = round(scene.pitch * ppc)
    frame_px = round(scene.frame * ppc)
    ppc = tile_px / scene.pitch
    board_img = art.draw_board(rng, look, scene.tiles, scene.treasures, tile_px, frame_px)
    board_origin = (-frame_px / ppc, frame_px / ppc)
    _warp_into(canvas, board_img, cam.plane_homography(0.0, board_origin, ppc, kc), emit)

    tops: list[tuple[np.ndarray, np.ndarray]] = []
    gap = rng.uniform(0.03, 0.15)
    side = scene.pitch - gap
    edge = np.array(look.tile_edge, np.float64) * (0.35 if night else 1.0)
    for r in range(7):
        for c in range(7):
            if (r, c) in FIXED_TILES:
                continue
            ctr = scene.square_centre(r, c) + np.array([rng.gauss(0, 0.03), rng.gauss(0, 0.03), 0.0])
            ang = math.radians(rng.gauss(0, 0.7))
            ca, sa = math.cos(ang), math.sin(ang)
            local = np.array([[-1, 1], [1, 1], [1, -1], [-1, -1]]) * side / 2  # TL TR BR BL (texture order)
            xy = local @ np.array([[ca, sa], [-sa, ca]]) + ctr[:2]
            quad = np.column_stack([xy, np.full(4, scene.thickness)])
            _slab_sides(canvas, kc, cam, quad[[3, 2, 1, 0]], scene.thickness, edge, ratio)
            face = art.draw_tile(rng, look, scene.tiles[r * 7 + c], tile_px)
            if scene.treasures[r * 7 + c] is not None:
                art.draw_picture(face, rng, (tile_px / 2, tile_px / 2), tile_px * rng.uniform(0.2, 0.27), night)
            tops.append((quad, face))
    tops.append(_spare_tile(rng, scene, look, cam, kc, canvas, z_table, tile_px, side, edge, ratio))
    for quad, face in tops:
        src = np.array([[0, 0], [tile_px, 0], [tile_px, tile_px], [0, tile_px]], np.float32)
        dst = _project(kc, cam, quad).astype(np.float32)
        _warp_into(canvas, face, cv2.getPerspectiveTransform(src, dst), emit)

    # light on the flat scene, then shadows of the solids
    field = surface_field(light, cam, kc, (ch, cw), 0.0, scene.centre)
    if emit is not None:
        e = emit[..., None]
        canvas = canvas * (1 - e) * field + e * (canvas * rng.uniform(0.8, 1.2) + field * 60.0)
    else:
        canvas *= field

    meshes: list[Mesh] = []
    occupants: dict[tuple[int, int], list[str]] = {}
    for colour, sq in scene.pawns.items():
        occupants.setdefault(sq, []).append(colour)
    kind = rng.choice(["cone", "cone", "chess", "cylinder", "meeple"])
    shades = {name: rng.choice(art.PAWN_SHADES[name]) for name in COLOURS}
    pawn_h = rng.uniform(2.5, 3.5)
    radius = rng.uniform(0.24, 0.32) * pawn_h
    for sq, names in occupants.items():
        base_z = 0.0 if sq in FIXED_TILES else scene.thickness
        # pawns sharing a square stand side by side (touching at most), overhanging it if they must
        spread = 0.0 if len(names) == 1 else (radius + 0.05) / math.sin(math.pi / len(names))
        turn = rng.uniform(0, 2 * math.pi)
        for i, name in enumerate(names):
            a = turn + 2 * math.pi * i / len(names)
            wobble = 0.15 if len(names) == 1 else 0.0
            pos = scene.square_centre(*sq) + np.array([spread * math.cos(a) + rng.gauss(0, wobble),
                                                       spread * math.sin(a) + rng.gauss(0, wobble), base_z])
            base = np.array(shades[name], np.float64) * rng.uniform(0.9, 1.08)
            meshes.append(pawn_mesh(rng, kind, tuple(base), pos, pawn_h * rng.uniform(0.97, 1.03), radius))
    if rng.random() < 0.35:
        meshes.append(cup(rng, half, scene.centre, z_table))
    resting: list[Mesh] = []
    if occluded:
        meshes += _reaching_hand(rng, scene)
    elif rng.random() < 0.15:
        resting = _resting_hand(rng, scene, cam, z_table)
        meshes += resting
    if not night:
        total = irradiance(light, scene.centre[None], np.array([0.0, 0.0, 1.0]), scene.centre)[0]
        for src in light.lights:
            mask = shadow_mask((ch, cw), kc, cam, meshes, src, ppc_canvas)
            direct = irradiance(type(light)(np.zeros(3), [src], light.window_axis, light.window_drop, None, 0, False),
                                scene.centre[None], np.array([0.0, 0.0, 1.0]), scene.centre)[0]
            share = np.clip(direct / np.maximum(total, 1e-6), 0, 0.85).astype(np.float32)
            canvas *= 1.0 - mask[..., None] * share
    draw_meshes(canvas, kc, cam, meshes, light.lights, light.ambient, emit)

    # lens: supersampled canvas -> output-resolution canvas -> distorted photo
    small = cv2.resize(canvas, (width + 2 * margin, height + 2 * margin), interpolation=cv2.INTER_AREA)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float64)
    src = cam.undistort_pixels(np.stack([xs, ys], -1)) + margin
    photo = np.empty((height, width, 3), np.float32)
    aberration = rng.uniform(0.0, 0.0015)  # lateral chromatic aberration: red a bit larger than blue
    centre = np.array([cam.K[0, 2], cam.K[1, 2]]) + margin
    for ch, scale in enumerate((1.0 - aberration, 1.0, 1.0 + aberration)):
        at = (src - centre) / scale + centre
        photo[..., ch] = cv2.remap(small[..., ch], at[..., 0].astype(np.float32), at[..., 1].astype(np.float32),
                                   cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    gp = glare_point(light, cam)
    gpx = cam.image_points(gp[None])[0] if gp is not None else None
    image = sensor(rng, photo, night, gpx, light.glare)

    names = ["N", "E", "S", "W"]
    rows = [["".join(n for k, n in enumerate(names) if scene.tiles[r * 7 + c] & (1 << k)) for c in range(7)]
            for r in range(7)]
    label = {
        "tiles": rows,
        "pawns": {name: list(scene.pawns[name]) for name in COLOURS if name in scene.pawns},
        "corners": [[round(float(x), 2), round(float(y), 2)] for x, y in cam.image_points(scene.tile_area())],
        "lighting": "night" if night else "day",
        "occluded": bool(occluded),
        "treasures": [[i // 7, i % 7] for i in range(49) if scene.treasures[i] is not None],
    }
    if meta is not None:
        axis = cam.R[2]
        tl, tr = label["corners"][0], label["corners"][1]
        shared = len(set(scene.pawns.values())) < len(scene.pawns)
        meta.update(
            family=look.family, pawn_shape=kind, pawns=len(scene.pawns), shared_square=shared,
            lamp=any(src.position is not None for src in light.lights),
            window=any(src.position is None for src in light.lights) and not night,
            hard_shadow=light.hard_shadow is not None, glare=round(float(light.glare), 2),
            camera_cm=round(float(cam.C[2]), 1), tilt_deg=round(math.degrees(math.acos(min(1.0, -axis[2]))), 1),
            roll_deg=round(math.degrees(math.atan2(tr[1] - tl[1], tr[0] - tl[0])), 1),
            k1=round(cam.k1, 3), width=width, resting_hand=bool(resting),
            tile_px=round(float(np.linalg.norm(np.subtract(tr, tl))) / 7, 1),
        )
    return image, label


# --------------------------------------------------------------------------- CLI


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.support.fifth_render", description=__doc__.split("\n")[0])
    parser.add_argument("out")
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lighting", choices=("day", "night"), default="day")
    parser.add_argument("--occluded-fraction", type=float, default=0.0)
    parser.add_argument("--size", default=None, help="WxH (default: drawn between 1280x960 and 2028x1520)")
    parser.add_argument("--meta", action="store_true",
                        help=f"also write {META_FILE} (what each frame sampled, one JSON line per image)")
    args = parser.parse_args(argv)
    size = None
    if args.size:
        try:
            w, h = (int(v) for v in args.size.lower().split("x"))
        except ValueError:
            print(f"--size must be WxH, got {args.size!r}", file=sys.stderr)
            return 2
        size = (w, h)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    meta_lines = []
    for i in range(args.count):
        seed = args.seed + i
        pick = random.Random(f"fifth-occluded:{seed}")
        occluded = pick.random() < args.occluded_fraction
        meta: dict = {"image": f"{i:04d}.jpg", "seed": seed}
        image, label = render(seed, night=args.lighting == "night", occluded=occluded, size=size, meta=meta)
        meta_lines.append(json.dumps(meta))
        quality = random.Random(f"fifth-jpeg:{seed}").randint(72, 95)
        cv2.imwrite(str(out / f"{i:04d}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        (out / f"{i:04d}.json").write_text(json.dumps(label) + "\n")
    if args.meta:
        (out / META_FILE).write_text("\n".join(meta_lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
