"""Third held-out photo renderer (independent of ``vision/`` and the other two renderers).

Usage::

    python -m tests.support.third_render OUT --count N --seed S [--lighting day|night]
        [--occluded-fraction F] [--size WxH] [--quality Q]

writes ``0000.jpg`` + ``0000.json`` (FORMATS.md §5 labels) per photo; photo ``i``
comes from seed ``S + i`` and is fully deterministic. Only numpy and OpenCV.

Pipeline: ``third_render_scene`` draws everything random (position, artwork style,
pawns, table, light, camera); the board plane and the table are painted top-down
(``third_render_board`` / ``third_render_table``), warped through a real pinhole
camera and lit in linear light (``third_render_camera``); pawns are ray-cast
(``third_render_pawns``); a hand may reach in (``third_render_hands``); the lens and
sensor add distortion, blur, vignetting, noise and JPEG.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

from .third_render_board import board_texture
from .third_render_camera import build_camera, caster_shade, glare, irradiance, lens_and_sensor, plane_points
from .third_render_hands import draw_occluder
from .third_render_pawns import draw_pawns, pawn_shadows
from .third_render_scene import SIZES, sample_scene
from .third_render_table import table_texture

TILE_AREA = np.array([[0, 0, 0], [7, 0, 0], [7, 7, 0], [0, 7, 0]], float)


LINEAR = ((np.arange(256) / 255.0) ** 2.2).astype(np.float32)  # sRGB-ish 8-bit -> linear light


def _u8(img: np.ndarray) -> np.ndarray:
    return cv2.convertScaleAbs(img, alpha=255.0)


def _affine(ppu: float, x0: float, y0: float) -> np.ndarray:
    return np.array([[1 / ppu, 0, x0], [0, 1 / ppu, y0], [0, 0, 1.0]])


def render(
    seed: int,
    lighting: str = "day",
    occluded_fraction: float = 0.0,
    size: tuple[int, int] | None = None,
    quality: int | None = None,
) -> tuple[np.ndarray, dict, int]:
    """(BGR uint8 photo, §5 label, JPEG quality) for one seed."""
    scene = sample_scene(seed, lighting, occluded_fraction, size, quality)
    night = lighting == "night"
    rng = np.random.default_rng(scene.rng_seed + 3)
    cam = build_camera(scene.camera, scene.width, scene.height, scene.frame["width"])
    cw, ch = cam.canvas_size
    uv = cam.project(TILE_AREA)
    tile_px = np.mean([np.linalg.norm(uv[i] - uv[(i + 1) % 4]) for i in range(4)]) / 7
    L0 = scene.lights[0]
    ld = np.array([L0.pos[0] - 3.5, L0.pos[1] - 3.5])
    ld = ld / (np.linalg.norm(ld) + 1e-9) if not night else np.array([0.4, -0.6])
    Hp = cam.plane_homography()

    # board plane (8-bit sRGB textures, warped, then to linear light by a table)
    ppu_b = float(np.clip(1.0 * tile_px, 24, 240))
    albedo, emission, alpha, e = board_texture(scene, ppu_b, (float(ld[0]), float(ld[1])))
    shade = np.ones(alpha.shape, np.float32)
    pawn_shadows(shade, ppu_b, e, scene.pawns, scene.lights, night)
    albedo *= cv2.pow(shade, 1 / 2.2)[..., None]
    board_u8 = cv2.merge([_u8(albedo), _u8(alpha)])
    outer = np.array([[-e, -e, 0], [7 + e, -e, 0], [7 + e, 7 + e, 0], [-e, 7 + e, 0]], float)
    ouv = cam.project(outer)
    bx0, by0 = np.maximum(np.floor(ouv.min(0)).astype(int) - 2, 0)
    bx1, by1 = np.minimum(np.ceil(ouv.max(0)).astype(int) + 2, (cw, ch))
    shift = np.array([[1, 0, -bx0], [0, 1, -by0], [0, 0, 1.0]])
    Hb = shift @ Hp @ _affine(ppu_b, -e, -e)
    warped = cv2.warpPerspective(board_u8, Hb, (bx1 - bx0, by1 - by0), flags=cv2.INTER_LINEAR)
    board_lin = cv2.LUT(np.ascontiguousarray(warped[..., :3]), LINEAR)
    board_a = warped[..., 3].astype(np.float32) / 255

    # table around it
    Hinv = np.linalg.inv(Hp)
    corners = np.array([[0, 0, 1], [cw, 0, 1], [cw, ch, 1], [0, ch, 1]], float) @ Hinv.T
    wxy = corners[:, :2] / corners[:, 2:3]
    x0, y0 = np.maximum(wxy.min(0) - 0.5, -40)
    x1, y1 = np.minimum(wxy.max(0) + 0.5, 47)
    area = max((x1 - x0) * (y1 - y0), 1.0)
    ppu_t = float(np.clip(min(0.6 * tile_px, np.sqrt(1.0e6 / area)), 6, 90))
    table = table_texture(scene, x0, y0, x1, y1, ppu_t, (float(ld[0]), float(ld[1])))
    table_u8 = cv2.warpPerspective(
        _u8(table), Hp @ _affine(ppu_t, x0, y0), (cw, ch), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
    )
    canvas = cv2.LUT(table_u8, LINEAR)
    roi = canvas[by0:by1, bx0:bx1]
    roi[:] = cv2.blendLinear(board_lin, roi, board_a, 1 - board_a)

    # light in linear RGB
    X, Y, (gw, gh) = plane_points(cam, 8)
    irr = irradiance(scene.lights, scene.ambient, X, Y, caster_shade(scene.shadow_caster, X, Y))[..., ::-1]
    irr = cv2.resize(np.ascontiguousarray(irr), (gw * 8, gh * 8), interpolation=cv2.INTER_LINEAR)[:ch, :cw]
    canvas *= irr
    if scene.post["glare"] > 0:
        g = glare(cam, scene.lights[0], scene.post["glare_size"], X, Y)
        g = cv2.resize(g, (gw * 8, gh * 8), interpolation=cv2.INTER_LINEAR)[:ch, :cw][by0:by1, bx0:bx1]
        level = float(np.mean(irr[by0:by1:16, bx0:bx1:16]))
        tint = np.asarray(scene.lights[0].rgb, np.float32)[::-1]
        canvas[by0:by1, bx0:bx1] += (g * board_a * scene.post["glare"] * level)[..., None] * tint
    glow_level = 0.0
    if night:
        t = scene.style["glow_tint"]
        glow_rgb = np.array([t[0] + 0.15, t[1], t[2] * 0.5], np.float32)
        glow_level = 0.03 * scene.style["glow"]
        glow = cv2.warpPerspective(emission, Hb, (bx1 - bx0, by1 - by0), flags=cv2.INTER_LINEAR)
        canvas[by0:by1, bx0:bx1] += (glow * board_a)[..., None] * glow_rgb * glow_level

    draw_pawns(canvas, cam, scene.pawns, scene.lights, scene.ambient, night, glow_level)
    if scene.occluder is not None:
        level = irradiance(scene.lights, scene.ambient, np.array([3.5]), np.array([3.5]))[0, ::-1]
        c = cam.project(np.array([[3.5, 3.5, 0], [3.5 + ld[0], 3.5 + ld[1], 0]]))
        d = c[1] - c[0]
        draw_occluder(canvas, scene.occluder, cam, uv, level + glow_level * 0.3, d / (np.linalg.norm(d) + 1e-9), rng)

    photo = lens_and_sensor(canvas, cam, scene.post, rng, night)
    label = scene.label(cam.distort(uv).tolist())
    return cv2.cvtColor(photo, cv2.COLOR_RGB2BGR), label, scene.post["quality"]


def write_photo(out: Path, index: int, seed: int, **kw) -> None:
    img, label, quality = render(seed, **kw)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    (out / f"{index:04d}.jpg").write_bytes(buf.tobytes())
    (out / f"{index:04d}.json").write_text(json.dumps(label, indent=1) + "\n", encoding="utf-8")


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size {text!r}: write it as WxH, e.g. 1640x1232") from None
    if not (64 <= w <= 8000 and 64 <= h <= 8000):
        raise argparse.ArgumentTypeError(f"size {text!r} out of range")
    return w, h


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.support.third_render", description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--lighting", choices=("day", "night"), default="day")
    ap.add_argument("--occluded-fraction", type=float, default=0.0)
    ap.add_argument("--size", type=_size, default=None, help=f"WxH; default: one of {SIZES}")
    ap.add_argument("--quality", type=int, default=None, help="JPEG quality; default 70..92 per photo")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for i in range(args.count):
        write_photo(
            args.out,
            i,
            args.seed + i,
            lighting=args.lighting,
            occluded_fraction=args.occluded_fraction,
            size=args.size,
            quality=args.quality,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
