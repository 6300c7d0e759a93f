"""A sixth, independent photo renderer: Labyrinth boards seen by a phone camera, with labels.

Written from the description of the real games only (not from the reader or the other
renderers), so no model or threshold of the project was fitted to it. A frame is built as:

* the flat scene on one canvas (``sixth_render_board``): frame with gate arrows and start marks,
  fixed tiles printed on the board, 33 movable pieces with gaps, bevels and jitter, treasure
  pictures, the spare tile and cards on the table beside the board;
* seen through a pinhole camera with lens distortion (``sixth_render_camera``), 45-70 cm away,
  rolled up to 30 and tilted up to 15 degrees, over a table (``sixth_render_light.table``);
* lit by a lamp / window / mixed / ceiling set-up, with glare, coloured LED squares, soft or
  hard shadows of pawns and hands traced against the solids (``sixth_render_sdf``);
* pawns (2-4, varied shapes, shades and finishes, sometimes several on a square) and, on
  occluded frames, a hand or an object (``sixth_render_props``) as sphere-traced solids;
* then the sensor: auto exposure, defocus, white balance, vignetting, noise, gamma,
  sharpening, JPEG 4:2:0.

Night frames: a dark room, walls and pictures glowing faintly green, dim red LED spill, heavy
noise; all pawns are labelled anyway. Labels follow FORMATS.md §5; ``corners`` are the tile
area's outer corners projected through the same camera.

Usage: ``python -m tests.support.sixth_render OUT --count N --seed S [--lighting night]
[--occluded-fraction F] [--size WxH]``.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import cv2
import numpy as np

from companion.board import COLORS, EDITIONS, SIZE, random_setup
from tests.support.sixth_render_board import STYLES, paint_board
from tests.support.sixth_render_camera import Camera, jpeg, make_camera, sensor
from tests.support.sixth_render_light import glare, leds, lights_for, plane_light, table
from tests.support.sixth_render_props import hand, pawn, thing
from tests.support.sixth_render_sdf import Light, Solid, normals, ray_box, shade, soft_shadow, trace

SIZES = ((1280, 960), (1600, 1200), (1640, 1232), (2028, 1520))
STYLE_BY_EDITION = {
    "classic": ("classic",),
    "harry-potter": ("harry-potter", "harry-potter-flag"),
    "pokemon": ("pokemon",),
}
_LINEAR = ((np.arange(256) / 255.0) ** 2.2).astype(np.float32)
GLOW = np.array([0.3, 1.0, 0.5], np.float32)  # BGR of glow-in-the-dark print


def _window(cam: Camera, lo: np.ndarray, hi: np.ndarray, pad: int = 3) -> tuple[int, int, int, int] | None:
    """Image window (x0, y0, x1, y1) covering a world box, or ``None`` when out of view."""
    corners = np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])])
    rel = (corners - cam.pos) @ cam.fwd
    if (rel <= 1).any():
        return 0, 0, cam.width, cam.height
    px = cam.project(corners)
    x0, y0 = np.floor(px.min(axis=0)).astype(int) - pad
    x1, y1 = np.ceil(px.max(axis=0)).astype(int) + pad
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(cam.width, x1), min(cam.height, y1)
    if x0 >= x1 or y0 >= y1:
        return None
    return int(x0), int(y0), int(x1), int(y1)


def _shadow_box(solid: Solid, light: Light, z: float, reach: float) -> tuple[np.ndarray, np.ndarray]:
    """World box on the plane that ``solid`` can shade from ``light``."""
    pts = np.array(
        [
            [x, y, zz]
            for x in (solid.lo[0], solid.hi[0])
            for y in (solid.lo[1], solid.hi[1])
            for zz in (solid.lo[2], solid.hi[2])
        ],
        np.float32,
    )
    if light.pos is None:
        d = light.direction / np.linalg.norm(light.direction)
        t = (pts[:, 2] - z) / max(d[2], 0.15)
        proj = pts[:, :2] - t[:, None] * d[:2]
    else:
        h = np.maximum(light.pos[2] - pts[:, 2], 1.0)
        t = (pts[:, 2] - z) / h
        proj = pts[:, :2] + t[:, None] * (pts[:, :2] - light.pos[:2])
    allp = np.vstack([proj, pts[:, :2]])
    near = pts[:, :2].mean(axis=0)  # long shadows of a low light: only the part near the solid matters
    lo = np.maximum(allp.min(axis=0) - 0.5, near - reach)
    hi = np.minimum(allp.max(axis=0) + 0.5, near + reach)
    return np.append(lo, z - 0.01), np.append(hi, z + 0.01)


_GRIDS: dict[tuple[tuple[int, int], int], tuple[np.ndarray, np.ndarray]] = {}


def _upsample(a: np.ndarray, size: tuple[int, int], q: int) -> np.ndarray:
    """A smooth per-pixel quantity computed at pixels ``(i*q, j*q)``, resized to the full image exactly."""
    if (size, q) not in _GRIDS:
        w, h = size
        _GRIDS.clear()
        _GRIDS[(size, q)] = (
            np.tile(np.arange(w, dtype=np.float32) / q, (h, 1)),
            np.tile((np.arange(h, dtype=np.float32) / q)[:, None], (1, w)),
        )
    mx, my = _GRIDS[(size, q)]
    return cv2.remap(a, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _composite_solid(
    solid: Solid, cam: Camera, img: np.ndarray, zbuf: np.ndarray, lights: list[Light], ambient: np.ndarray, step: int
) -> None:
    win = _window(cam, solid.lo, solid.hi)
    if win is None:
        return
    x0, y0, x1, y1 = win
    d = cam.rays(step, x0, y0, x1 - x0, y1 - y0)
    hh, ww = d.shape[:2]
    flat = d.reshape(-1, 3)
    t0, t1 = ray_box(cam.pos.astype(np.float32), flat, solid.lo, solid.hi)
    cand = np.nonzero(t0 < t1)[0]
    if cand.size == 0:
        return
    hit, t = trace(solid.sdf, cam.pos.astype(np.float32), flat[cand], t0[cand], t1[cand])
    idx = cand[hit]
    if idx.size == 0:
        return
    p = cam.pos.astype(np.float32) + t[hit, None] * flat[idx]
    n = normals(solid.sdf, p)
    col = shade(solid, p, n, -flat[idx], lights, ambient)
    cov = np.zeros(hh * ww, np.float32)
    cov[idx] = 1
    colour = np.zeros((hh * ww, 3), np.float32)
    colour[idx] = col
    depth = np.full(hh * ww, np.inf, np.float32)
    depth[idx] = t[hit]
    cov, colour, depth = cov.reshape(hh, ww), colour.reshape(hh, ww, 3), depth.reshape(hh, ww)
    if step > 1:
        size = (x1 - x0, y1 - y0)
        cov = cv2.resize(cov, size, interpolation=cv2.INTER_LINEAR)
        colour = cv2.resize(colour, size, interpolation=cv2.INTER_LINEAR) / np.maximum(cov, 1e-3)[..., None]
        depth = cv2.resize(
            np.where(np.isinf(depth), 1e6, depth).astype(np.float32), size, interpolation=cv2.INTER_NEAREST
        )
    front = depth < zbuf[y0:y1, x0:x1]
    a = (cov * front)[..., None]
    img[y0:y1, x0:x1] = img[y0:y1, x0:x1] * (1 - a) + colour * a
    zbuf[y0:y1, x0:x1] = np.where(front & (cov > 0.5), depth, zbuf[y0:y1, x0:x1])


def _place_pawns(rng: np.random.Generator) -> dict[str, tuple[int, int]]:
    n = int(rng.integers(2, 5))
    colours = [str(c) for c in rng.permutation([str(c) for c in COLORS])[:n]]
    squares = {c: (int(rng.integers(0, SIZE)), int(rng.integers(0, SIZE))) for c in colours}
    if n >= 2 and rng.random() < 0.25:  # several pawns on one square
        squares[colours[1]] = squares[colours[0]]
        if n >= 3 and rng.random() < 0.4:
            squares[colours[2]] = squares[colours[0]]
    return squares


def render_frame(
    seed: int,
    night: bool = False,
    occluded: bool = False,
    size: tuple[int, int] | None = None,
    meta: dict | None = None,
) -> tuple[np.ndarray, dict]:
    """One photo (BGR uint8, before JPEG) and its label; ``meta`` (if given) receives what was sampled."""
    meta = {} if meta is None else meta
    rng = np.random.default_rng(seed)
    edition = str(rng.choice(list(EDITIONS)))
    names = STYLE_BY_EDITION.get(edition, ("classic",))
    if rng.random() < 0.25:
        names = ("garden", "ice")
    chosen = str(rng.choice(names))
    style = next(s for s in STYLES if s.name == chosen)
    board, treasure_names = random_setup(random.Random(seed), edition)
    tiles = [int(t) for t in board.tiles]
    width, height = size or SIZES[int(rng.integers(0, len(SIZES)))]
    tile_cm = float(rng.uniform(3.1, 3.6))
    side = SIZE * tile_cm
    z = float(rng.uniform(0.3, 0.6))
    cam = make_camera(rng, side, width, height, z)
    centre = np.array([side / 2, side / 2, z])
    lights, ambient, setup = lights_for(rng, centre, night)
    meta.update(edition=edition, style=style.name, setup=setup, size=[width, height], glare=False, leds=False)
    key = lights[0]
    lxy = (key.pos[:2] - centre[:2]) if key.pos is not None else key.direction[:2]
    lxy = lxy / max(1e-6, float(np.linalg.norm(lxy)))
    step_px = cam.project(np.array([centre, centre + np.array([tile_cm, 0.0, 0.0])]))
    ppt = float(np.linalg.norm(step_px[1] - step_px[0]))  # pixels per tile near the centre
    s = int(np.clip(ppt * 1.2, 36, 120))
    start_marks = {sq: str(c) for sq, c in EDITIONS[edition].start_colors.items()}
    canvas = paint_board(
        style,
        tiles,
        [n is not None for n in treasure_names[:49]],
        int(board.spare),
        treasure_names[49] is not None,
        start_marks,
        s,
        tile_cm,
        lxy,
        rng,
    )

    # where each pixel's ray meets the board plane and the table: smooth, so computed on a coarse grid
    q = 4
    rays = cam.rays(q)
    dz = np.where(np.abs(rays[..., 2]) < 1e-6, -1e-6, rays[..., 2])
    full = (width, height)

    def on_plane(height_cm: float, limit: float) -> tuple[np.ndarray, np.ndarray]:
        t = (height_cm - cam.pos[2]) / dz
        px = np.clip(cam.pos[0] + t * rays[..., 0], -limit, limit).astype(np.float32)
        py = np.clip(cam.pos[1] + t * rays[..., 1], -limit, limit).astype(np.float32)
        return _upsample(px, full, q), _upsample(py, full, q)

    X, Y = on_plane(z, 1000.0)
    X0, Y0 = on_plane(0.0, 500.0)
    mx, my = canvas.world_to_px(X), canvas.world_to_px(Y)
    board_col = cv2.remap(canvas.colour, mx, my, cv2.INTER_LINEAR, borderValue=(0, 0, 0))
    alpha = cv2.remap(canvas.alpha, mx, my, cv2.INTER_LINEAR, borderValue=0)[..., None]
    desk = _upsample(table(rng, X0[::2, ::2], Y0[::2, ::2]), full, 2)  # background: half resolution is plenty
    albedo = desk * (1 - alpha) + board_col * alpha
    albedo = _LINEAR[np.clip(albedo, 0, 255).astype(np.uint8)]

    # irradiance on the plane: smooth part at low resolution, shadows of solids at full resolution
    step = 8
    pts = np.stack([X[::step, ::step], Y[::step, ::step], np.full_like(X[::step, ::step], z)], -1)
    irr_small = plane_light(lights, ambient, pts.reshape(-1, 3)).reshape(pts.shape)
    irr = cv2.resize(irr_small, (width, height), interpolation=cv2.INTER_LINEAR)

    solids: list[Solid] = []
    pawns = _place_pawns(rng)
    groups: dict[tuple[int, int], list[str]] = {}
    for colour, sq in pawns.items():
        groups.setdefault(sq, []).append(colour)
    for (r, c), colours in groups.items():
        for k, colour in enumerate(colours):
            off = (
                np.zeros(2)
                if len(colours) == 1
                else 0.22
                * tile_cm
                * np.array([np.cos(2 * np.pi * k / len(colours) + 0.7), np.sin(2 * np.pi * k / len(colours) + 0.7)])
            )
            jit = rng.normal(0, 0.05 * tile_cm, 2)
            solids.append(
                pawn(
                    colour, (c + 0.5) * tile_cm + off[0] + jit[0], (r + 0.5) * tile_cm + off[1] + jit[1], z + 0.15, rng
                )
            )
    if occluded:
        target = rng.uniform(0.8, 6.2, 2) * tile_cm
        if rng.random() < 0.65:
            solids += hand(target, side, z, rng)
        else:
            solids.append(thing(target, z, rng))
    for solid in solids:
        fine = 2 if solid.kind == "pawn" else 4  # shadows at half (quarter) resolution, bilinear up
        for li, light in enumerate(lights):
            lo, hi = _shadow_box(solid, light, z, 12.0 if solid.kind == "pawn" else 40.0)
            win = _window(cam, lo, hi)
            if win is None:
                continue
            x0, y0, x1, y1 = win
            sx, sy = X[y0:y1:fine, x0:x1:fine], Y[y0:y1:fine, x0:x1:fine]
            p = np.stack([sx, sy, np.full_like(sx, z)], -1).reshape(-1, 3)
            vis = soft_shadow(solid.sdf, p, light).reshape(sx.shape)
            if li == 0:  # contact darkening near the foot, once per solid
                ao = np.clip(solid.sdf(p + np.array([0, 0, 0.3], np.float32)) / 0.3, 0, 1).reshape(sx.shape)
                vis_ao = 0.5 + 0.5 * ao
            else:
                vis_ao = None
            if fine > 1:
                vis = cv2.resize(vis, (x1 - x0, y1 - y0), interpolation=cv2.INTER_LINEAR)
                vis_ao = (
                    None if vis_ao is None else cv2.resize(vis_ao, (x1 - x0, y1 - y0), interpolation=cv2.INTER_LINEAR)
                )
            pl = plane_light(
                [light],
                np.zeros(3, np.float32),
                np.stack([X[y0:y1, x0:x1], Y[y0:y1, x0:x1], np.full((y1 - y0, x1 - x0), z, np.float32)], -1).reshape(
                    -1, 3
                ),
            )
            irr[y0:y1, x0:x1] -= pl.reshape(y1 - y0, x1 - x0, 3) * (1 - vis)[..., None]
            if vis_ao is not None:
                irr[y0:y1, x0:x1] *= vis_ao[..., None]
    img = albedo * np.maximum(irr, 0)
    if night:
        glow = cv2.remap(canvas.glow, mx, my, cv2.INTER_LINEAR, borderValue=0)
        grain = 0.75 + 0.25 * albedo.mean(axis=2) / max(1e-3, float(albedo.mean()) * 2)  # uneven glow paint
        img += (glow * np.minimum(grain, 1.2) * float(rng.uniform(0.02, 0.05)))[..., None] * GLOW
    else:
        for light in lights:
            blob = glare(light, cam.pos, z, X[::q, ::q], Y[::q, ::q], rng)
            if blob is not None:
                meta["glare"] = True
                img += _upsample(blob, full, q) * alpha
    led = leds(rng, tile_cm, X[::q, ::q], Y[::q, ::q], night)
    if led is not None:
        meta["leds"] = True
        img += _upsample(led, full, q) * alpha

    meta["pawns"] = [solid.info for solid in solids if solid.kind == "pawn"]
    meta["occluder"] = sorted({solid.kind for solid in solids if solid.kind != "pawn"})
    zbuf = np.full((height, width), np.inf, np.float32)
    for solid in solids:
        _composite_solid(solid, cam, img, zbuf, lights, ambient, 1 if solid.kind == "pawn" else 3)

    # auto exposure on the board, then the lens (a touch of defocus) and the sensor
    corners = np.array([[0, 0, z], [side, 0, z], [side, side, z], [0, side, z]])
    px = cam.project(corners)
    mask = np.zeros((height, width), np.uint8)
    cv2.fillConvexPoly(mask, np.round(px).astype(np.int32), 1)
    lum = img.mean(axis=2)[mask > 0]
    target = rng.uniform(0.55, 0.85) if not night else rng.uniform(0.25, 0.5)
    img *= np.float32(target / max(1e-4, float(np.percentile(lum, 97))))
    img = cv2.GaussianBlur(img.astype(np.float32), (0, 0), float(rng.uniform(0.3, 1.1)))
    out = sensor(img, rng, night)
    treasures = [[i // SIZE, i % SIZE] for i, n in enumerate(treasure_names[:49]) if n is not None]
    label = {
        "tiles": [[str(board.tiles[r * SIZE + c]) for c in range(SIZE)] for r in range(SIZE)],
        "pawns": {c: [sq[0], sq[1]] for c, sq in pawns.items()},
        "corners": [[round(float(x), 2), round(float(y), 2)] for x, y in px],
        "lighting": "night" if night else "day",
        "occluded": occluded,
        "treasures": treasures,
    }
    return out, label


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--lighting", choices=("day", "night"), default="day")
    ap.add_argument("--occluded-fraction", type=float, default=0.0)
    ap.add_argument("--size", default=None, help="WxH, e.g. 1640x1232 (default: varied)")
    ap.add_argument("--meta", action="store_true", help="also write meta.jsonl: what each frame sampled")
    args = ap.parse_args(argv)
    size = tuple(int(v) for v in args.size.lower().split("x")) if args.size else None
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for i in range(args.count):
        seed = args.seed + i
        frame_rng = np.random.default_rng([seed, 6])
        occluded = bool(frame_rng.random() < args.occluded_fraction)
        meta: dict = {"image": f"{i:04d}.jpg", "seed": seed}
        img, label = render_frame(seed, args.lighting == "night", occluded, size, meta)  # type: ignore[arg-type]
        (out / f"{i:04d}.jpg").write_bytes(jpeg(img, frame_rng))
        (out / f"{i:04d}.json").write_text(json.dumps(label) + "\n")
        if args.meta:
            with (out / "meta.jsonl").open("a") as fh:
                fh.write(json.dumps(meta) + "\n")


if __name__ == "__main__":
    main()
