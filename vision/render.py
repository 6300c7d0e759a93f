"""Synthetic overhead-camera photos of a Labyrinth board, with their labels.

The renderer feeds the simulated camera and the vision tests. A scene is built
in four passes, each cheap enough that a 1640x1232 frame renders in a few
tenths of a second:

1. everything lying flat (table, board frame, tile pieces with seams and
   jitter, treasure pictures, the spare tile and cards, flat shadows) is drawn
   top-down into a canvas in table coordinates (``vision.render_board``);
2. the canvas is viewed through the camera (pose, tilt, lens distortion) with
   one ``cv2.remap`` (``vision.render_camera``);
3. pawns and hands, which stand above the table, are drawn in image space
   through the same camera (``vision.render_objects``);
4. light (room gradient, colour cast, shadows, LED spill, night glow) and the
   sensor (blur, noise, JPEG) finish the photo (``vision.render_light``).

The label follows FORMATS.md §5 exactly; ``corners`` are where the outer
corners of the 7x7 tile area really appear in the image (after distortion).
All randomness flows from ``seed``: the same arguments give the same pixels.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
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
    Square,
    Tile,
    index_square,
    is_fixed_square,
    push_line,
    random_setup,
)
from vision import render_board as rb
from vision.render_art import TileArt, treasure_index
from vision.render_camera import Camera, CoarseGrid, optics, plane_maps, random_camera, sensor
from vision.render_hands import draw_hands
from vision.render_light import Lighting, draw_emitters, glare_field, led_field, light_field, random_lighting
from vision.render_looks import LOOKS, Style, jitter_color, make_style
from vision.render_objects import PAWN_COLORS, PAWN_KINDS, Pawn, draw_pawns, pawn_positions, pawn_shadow

__all__ = ["LIGHTINGS", "LOOKS", "RenderResult", "random_board", "random_scene", "render_photo", "render_scene"]

LIGHTINGS: tuple[str, ...] = ("day", "night")

_OPTIONS = {
    "edition", "jpeg_quality", "hands", "leds", "spare_treasure", "treasure_names", "fill", "max_rotation",
    "max_tilt", "noise", "blur", "cards", "spare", "markers", "idle_hands",
}  # fmt: skip


@dataclass
class RenderResult:
    """A rendered photo, its label, and ground truth a label cannot carry (for tests and debugging)."""

    image: np.ndarray
    label: dict[str, Any]
    look: str
    style: Style
    camera: Camera
    lighting: Lighting
    pawn_pixels: dict[str, tuple[float, float]]
    hand_mask: np.ndarray | None
    pictures: dict[Square, int]  # square -> picture index (0..23)


def _rngs(seed: int, n: int) -> list[np.random.Generator]:
    """Independent streams, so that one option (e.g. hands) does not reshuffle everything else."""
    return [np.random.default_rng(s) for s in np.random.SeedSequence(abs(int(seed))).spawn(n)]


def _default_treasures(board: Board, rng: np.random.Generator) -> dict[Square, str]:
    """Plausible pictures when the caller gives none: 12 fixed T-junctions + 6 T + 6 corner movable tiles."""
    ed = EDITIONS["classic"]
    fixed = [sq for sq in sorted(FIXED_TILES) if sq not in START_SQUARES]
    out = {sq: name for sq, name in zip(fixed, ed.fixed_treasures, strict=True)}
    movable = [index_square(i) for i in range(SIZE * SIZE) if not is_fixed_square(index_square(i))]
    ts = [sq for sq in movable if board.tile(sq).kind == "t"]
    corners = [sq for sq in movable if board.tile(sq).kind == "corner"]
    rng.shuffle(ts)
    rng.shuffle(corners)
    names = iter(ed.movable_treasures)
    for sq in ts[:6] + corners[:6]:
        out[sq] = next(names)
    return out


def _treasure_map(board: Board, treasures: Iterable[Square] | Mapping[Square, str] | None,
                  names: list[str | None] | None, rng: np.random.Generator) -> dict[Square, int]:
    """Square -> picture index, from whichever treasure description the caller gave."""
    if names is not None:
        return {index_square(i): treasure_index(n) for i, n in enumerate(names[: SIZE * SIZE]) if n}
    if treasures is None:
        return {sq: treasure_index(n) for sq, n in _default_treasures(board, rng).items()}
    if isinstance(treasures, Mapping):
        return {tuple(sq): treasure_index(str(n)) for sq, n in treasures.items()}  # type: ignore[misc]
    out: dict[Square, int] = {}
    fixed_order = [sq for sq in sorted(FIXED_TILES) if sq not in START_SQUARES]
    k = 12
    for sq in treasures:
        sq = (int(sq[0]), int(sq[1]))
        if sq in fixed_order:
            out[sq] = fixed_order.index(sq)
        else:
            out[sq] = k % 24
            k += 1
    return out


def render_scene(
    board: Board,
    *,
    seed: int,
    look: str | None = None,
    lighting: str = "day",
    size: tuple[int, int] = (1640, 1232),
    occlusion: bool = False,
    treasures: Iterable[Square] | Mapping[Square, str] | None = None,
    **options: Any,
) -> RenderResult:
    """Render ``board`` as a camera photo; see :func:`render_photo` for the arguments.

    Extra options: ``edition`` (unused by the art, kept for callers),
    ``treasure_names`` (49/50 names per square as from ``random_setup``),
    ``spare_treasure``, ``jpeg_quality`` (None: no JPEG round trip),
    ``hands`` (arms when ``occlusion``), ``idle_hands`` (chance of a hand on the
    table beside the board when not ``occlusion``, default 0.1), ``leds`` (number of lit squares),
    ``fill`` (range of the board's share of the short side), ``max_rotation``,
    ``max_tilt`` (degrees), ``noise`` and ``blur`` (scale factors),
    ``cards`` (show cards and other things on the table), ``spare`` (show the spare tile), ``markers``
    (ArUco 4x4_50 markers 0..3 on the frame corners TL TR BR BL).
    """
    unknown = set(options) - _OPTIONS
    if unknown:
        raise TypeError(f"unknown render option(s): {', '.join(sorted(unknown))}")
    if lighting not in LIGHTINGS:
        raise ValueError(f"lighting must be 'day' or 'night', got {lighting!r}")
    width, height = int(size[0]), int(size[1])
    if width < 64 or height < 48:
        raise ValueError(f"image size {width}x{height} is too small to show a board")
    r_style, r_cam, r_art, r_layout, r_light, r_pawn, r_hand, r_sensor, r_treas = _rngs(seed, 9)
    look = look if look is not None else str(r_style.choice(LOOKS))
    style = make_style(look, r_style)
    night = lighting == "night"
    cam = random_camera(
        r_cam, width, height,
        fill=tuple(options.get("fill", (0.45, 0.9))),
        max_rotation=float(options.get("max_rotation", 30.0)),
        max_tilt=float(options.get("max_tilt", 15.0)),
    )  # fmt: skip
    lt = random_lighting(r_light, night, options.get("leds"))
    pictures = _treasure_map(board, treasures, options.get("treasure_names"), r_treas)

    # 1. everything lying flat, top-down; 2. through the lens
    canvas, frame, pawns = _flat_scene(board, int(seed), style, cam, lt, pictures, r_art, r_layout, r_pawn, options)
    grid = CoarseGrid(width, height, 8)
    map_x, map_y, world = plane_maps(cam, grid, canvas.from_world)
    img = cv2.remap(canvas.img, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    # 3. standing objects
    pawn_px = draw_pawns(img, cam, pawns, lt.light_dir)
    hand_mask = _hands(img, cam, lt, frame, occlusion, r_hand, options)
    # 4. lens, light and sensor
    out = _finish(img, cam, grid, world, style, lt, hand_mask, r_sensor, options)

    corners = cam.project_plane(np.array([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]], dtype=np.float64))
    label: dict[str, Any] = {
        "tiles": [[str(board.tile((r, c))) for c in range(SIZE)] for r in range(SIZE)],
        "pawns": {str(c): list(sq) for c, sq in board.pawns.items()},
        "corners": [[round(float(x), 2), round(float(y), 2)] for x, y in corners],
        "lighting": lighting,
        "occluded": bool(occlusion),
        "treasures": [list(sq) for sq in sorted(pictures)],
    }
    return RenderResult(out, label, look, style, cam, lt, pawn_px, hand_mask, dict(pictures))


def _flat_scene(
    board: Board,
    seed: int,
    style: Style,
    cam: Camera,
    lt: Lighting,
    pictures: Mapping[Square, int],
    r_art: np.random.Generator,
    r_layout: np.random.Generator,
    r_pawn: np.random.Generator,
    options: Mapping[str, Any],
) -> tuple[rb.Canvas, float, list[Pawn]]:
    """The top-down canvas of the table and board (with flat shadows), the frame width and the pawns to stand up."""
    width, height = cam.width, cam.height
    border = np.concatenate([
        np.column_stack([np.linspace(0, width - 1, 24), np.zeros(24)]),
        np.column_stack([np.linspace(0, width - 1, 24), np.full(24, height - 1.0)]),
        np.column_stack([np.zeros(24), np.linspace(0, height - 1, 24)]),
        np.column_stack([np.full(24, width - 1.0), np.linspace(0, height - 1, 24)]),
    ])  # fmt: skip
    seen = cam.image_to_plane(border)
    lo = np.clip(seen.min(axis=0) - 0.3, -14.0, 20.0)
    hi = np.clip(seen.max(axis=0) + 0.3, -14.0, 21.0)
    # a little finer than the photo at the board, capped for huge frames
    scale = cam.pixels_per_unit() * 1.05
    area = (hi[0] - lo[0]) * (hi[1] - lo[1]) * scale * scale
    scale = min(scale, math.sqrt(9e6 / area) * scale) if area > 9e6 else scale
    canvas = rb.Canvas.covering((float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])), scale)

    frame = r_layout.uniform(0.3, 0.8)
    gap = r_layout.uniform(0.012, 0.05)
    light = np.array(lt.light_dir)
    rb.draw_table(canvas, style, r_layout)
    flat_shadows = [rb.board_outline(frame) + light * 0.12]
    art = TileArt(style, r_art, max(8, round(scale * (1 - gap))), lt.light_dir)
    pict_idx = {sq[0] * SIZE + sq[1]: p for sq, p in pictures.items()}
    rings = {}
    if style.start_rings:
        for sq, color in EDITIONS["classic"].start_colors.items():
            rings[sq[0] * SIZE + sq[1]] = jitter_color(r_layout, PAWN_COLORS[color.value], val=0.1)

    # the spare tile, cards and other things beside the board
    spare_at = rb.table_spot(r_layout, frame, 1.2, 0.35)
    spare_angle = r_layout.uniform(-0.4, 0.4) + r_layout.integers(0, 4) * math.pi / 2
    cards = []
    if options.get("cards", True):
        for _ in range(int(r_layout.integers(1, 4))):
            cards.append((rb.table_spot(r_layout, frame, 2.0, 1.2), r_layout.uniform(0, math.pi),
                          int(r_layout.integers(1, 6)), r_layout.random() < 0.35))  # fmt: skip
    show_spare = options.get("spare", True)
    if show_spare:
        flat_shadows.append(rb.rect(*spare_at, 1 - gap, 1 - gap, spare_angle) + light * 0.05)
    for (cx, cy), ang, n, _ in cards:
        flat_shadows.append(rb.rect(cx, cy, 1.3, 1.9, ang) + light * 0.03 * n)
    clutter = rb.random_clutter(r_layout, frame) if options.get("cards", True) else []
    for item in clutter:
        flat_shadows.append(item.outline() + light * {"cup": 1.5, "phone": 0.1, "lid": 0.6}[item.kind])
    rb.cast_shadows(canvas, flat_shadows, 0.08, 0.45)
    for item in clutter:
        item.draw(canvas)
    rb.draw_frame(canvas, style, r_layout, frame, gap * 0.7)
    if options.get("markers", False):
        rb.draw_markers(canvas, frame)
    tiles = [int(t) for t in board.tiles]
    rb.draw_tiles(canvas, art, tiles, pict_idx, rings,
                  lambda i: np.random.default_rng([abs(seed), 5, i, tiles[i], pict_idx.get(i, 99)]), gap)
    if show_spare:
        spare_name = options.get("spare_treasure")
        spare_face = art.face(int(board.spare), treasure_index(spare_name) if spare_name else None)
        rb.place_patch(canvas, spare_face, spare_at, 1 - gap, spare_angle)
    for (cx, cy), ang, n, face_up in cards:
        for k in range(n):
            pic = int(r_layout.integers(0, 24)) if face_up and k == n - 1 else None
            rb.draw_card(canvas, style, r_layout, (cx + 0.015 * k, cy - 0.02 * k), ang + r_layout.normal(0, 0.03), pic)

    pawn_size = r_pawn.uniform(0.9, 1.15)
    pawn_kind = str(r_pawn.choice(PAWN_KINDS, p=[0.4, 0.45, 0.15]))
    spots = pawn_positions({str(c): sq for c, sq in board.pawns.items()}, seed)
    pawns = [Pawn(c, x, y, jitter_color(r_pawn, PAWN_COLORS[c], hue=0.015, sat=0.12, val=0.12), pawn_size, pawn_kind)
             for c, (x, y) in spots.items()]  # fmt: skip
    rb.cast_shadows(canvas, [pawn_shadow(p, lt.light_dir) for p in pawns], 0.04, 0.5)
    return canvas, frame, pawns


def _hands(img: np.ndarray, cam: Camera, lt: Lighting, frame: float, occlusion: bool, r_hand: np.random.Generator,
           options: Mapping[str, Any]) -> np.ndarray | None:
    """Arms over the board when ``occlusion``; otherwise now and then a hand resting beside it. Returns their mask."""
    if occlusion:
        area = cam.project_plane(np.array([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]], dtype=np.float64))
        arms = int(options.get("hands", 1 + (r_hand.random() < 0.2)))
        mask = draw_hands(img, cam, r_hand, lt.light_dir, arms, board=area)
        if not (mask > 127).any():  # every reach fell short: take one as it comes
            mask = draw_hands(img, cam, r_hand, lt.light_dir, 1)
        return mask
    if r_hand.random() < float(options.get("idle_hands", 0.1)):
        # a player's hand resting on the table beside the board: in view, but hiding nothing
        clear = cam.project_plane(rb.board_outline(frame))
        return draw_hands(img, cam, r_hand, lt.light_dir, 1, keep_clear=clear)
    return None


def _finish(img: np.ndarray, cam: Camera, grid: CoarseGrid, world: np.ndarray, style: Style, lt: Lighting,
            hand_mask: np.ndarray | None, r_sensor: np.random.Generator, options: Mapping[str, Any]) -> np.ndarray:
    """Lens blur, light (room, LEDs, glow, glare, visible LEDs), then the sensor: the final 8-bit photo."""
    night = lt.night
    px_scale = cam.width / 1640.0
    noise_k = float(options.get("noise", 1.0))
    blur_k = float(options.get("blur", 1.0))
    if night:
        noise, grain = r_sensor.uniform(2.0, 5.0), r_sensor.uniform(4.0, 9.0)
        chroma, blur = r_sensor.uniform(2.0, 6.0), r_sensor.uniform(0.6, 1.4)
    else:
        noise, grain = r_sensor.uniform(0.8, 3.0), r_sensor.uniform(0.0, 2.5)
        chroma, blur = r_sensor.uniform(0.5, 2.5), r_sensor.uniform(0.2, 1.2)
    motion = (r_sensor.uniform(1.5, 5.0) * px_scale, r_sensor.uniform(0, 180)) if r_sensor.random() < 0.15 else None
    quality = options.get("jpeg_quality", int(r_sensor.integers(70, 94)))
    sharpen = r_sensor.uniform(0.3, 1.0) if r_sensor.random() < 0.4 else 0.0
    img = optics(img, blur_sigma=blur * blur_k * px_scale, motion=motion)

    room = light_field(lt, world, grid.u, grid.v, cam.width, cam.height)
    leds = led_field(lt, world)
    if leds is None:
        light = grid.upsample(room)
    elif hand_mask is None:
        light = grid.upsample(room + leds)
    else:  # the LED pools lie on the table, not on the hands above it
        light = grid.upsample(room)
        light += grid.upsample(leds) * (1.0 - 0.85 * hand_mask.astype(np.float32) / 255.0)[:, :, None]
    photo = img[:, :, :3].astype(np.float32)
    photo *= light
    if night:
        # exposure set for the dark: walls reach about the same brightness whatever the paint strength
        gain = 0.75 / max(style.glow_walls, 0.4)
        photo += img[:, :, 3:4].astype(np.float32) * (np.array(lt.glow, np.float32) * (gain / 255.0))
    glare = glare_field(lt, world)
    if glare is not None:
        sheen = grid.upsample(glare)
        if hand_mask is not None:
            sheen *= 1.0 - hand_mask.astype(np.float32) / 255.0
        photo += sheen[:, :, None]
    draw_emitters(photo, cam, lt, hand_mask)
    return sensor(photo, r_sensor, noise_sigma=noise * noise_k, chroma_noise=chroma * noise_k, jpeg_quality=quality,
                  sharpen=sharpen, grain=grain * noise_k)  # fmt: skip


def render_photo(
    board: Board,
    *,
    seed: int,
    look: str | None = None,
    lighting: str = "day",
    size: tuple[int, int] = (1640, 1232),
    occlusion: bool = False,
    treasures: Iterable[Square] | Mapping[Square, str] | None = None,
    **options: Any,
) -> tuple[np.ndarray, dict[str, Any]]:
    """Render ``board`` as an overhead camera photo; return the BGR image and its label (FORMATS.md §5).

    ``look`` picks the artwork (one of :data:`LOOKS`; None: chosen from the seed),
    ``lighting`` is ``"day"`` or ``"night"``, ``size`` is (width, height),
    ``occlusion`` puts hands over the board (label ``occluded: true``), and
    ``treasures`` gives the squares showing a picture (a mapping square -> name
    keeps pictures recognisable across frames; None: a plausible default).
    """
    res = render_scene(board, seed=seed, look=look, lighting=lighting, size=size, occlusion=occlusion,
                       treasures=treasures, **options)  # fmt: skip
    return res.image, res.label


def random_board(seed: int, edition: str | None = None) -> tuple[Board, list[str | None]]:
    """A random physical position: a setup, some pushes, pawns scattered (some sharing squares).

    Returns the board and the treasure name on each of the 49 squares plus the spare.
    """
    rng = random.Random(seed)
    ed = edition or rng.choice(sorted(EDITIONS))
    players = rng.choice([1, 2, 2, 3, 3, 4, 4, 4])
    colors = rng.sample(list(Color), players)
    board, names = random_setup(rng, ed, colors)
    cells: list[str | None] = list(names[:49])
    spare_name = names[49]
    for _ in range(rng.randrange(0, 30)):
        gate = rng.choice(board.legal_pushes())
        laid = Tile(rng.choice(board.spare.rotations()))
        cells, spare_name = push_line(cells, gate, spare_name)
        board = board.push(gate, laid)
    pawns: dict[Color, Square] = {}
    for color in board.pawns:
        if rng.random() < 0.8:
            pawns[color] = (rng.randrange(SIZE), rng.randrange(SIZE))
        else:
            pawns[color] = board.pawns[color]
    if len(pawns) >= 2 and rng.random() < 0.25:
        a, b = rng.sample(list(pawns), 2)
        pawns[b] = pawns[a]
    return board.with_pawns(pawns), [*cells, spare_name]


def random_scene(seed: int, **options: Any) -> tuple[np.ndarray, dict[str, Any]]:
    """A random physical setup with random pawns, rendered with :func:`render_photo`'s options."""
    board, names = random_board(seed, options.pop("edition", None))
    options.setdefault("treasure_names", names[:49])
    options.setdefault("spare_treasure", names[49])
    return render_photo(board, seed=seed, **options)
