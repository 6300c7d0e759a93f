"""The held-out renderer: labels that are true to the picture, legal boards, determinism, the CLI."""

from __future__ import annotations

import json
import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.board import FIXED_TILES, SIZE, Board, Color
from tests.support import holdout_camera
from tests.support.holdout_art import STYLES, paint_tiles, random_artwork
from tests.support.holdout_camera import TILE_CORNERS, random_camera
from tests.support.holdout_props import place_resting_hand
from tests.support.holdout_render import (
    _texture_homography,
    main,
    random_board,
    random_holdout_scene,
    render,
    render_frame,
)

SMALL = (640, 480)


def _square_polygon(corners: np.ndarray, r: int, c: int, grow: float = 0.0) -> np.ndarray:
    """The square's outline from the labelled corners (bilinear: close enough for a grown square)."""
    lo, hi = -grow, 1 + grow
    pts = []
    for u, v in ((c + lo, r + lo), (c + hi, r + lo), (c + hi, r + hi), (c + lo, r + hi)):
        a, b = u / 7.0, v / 7.0
        top = (1 - a) * corners[0] + a * corners[1]
        bottom = (1 - a) * corners[3] + a * corners[2]
        pts.append((1 - b) * top + b * bottom)
    return np.array(pts, np.float32)


def _inside(poly: np.ndarray, point: np.ndarray) -> bool:
    return cv2.pointPolygonTest(poly.reshape(-1, 1, 2), (float(point[0]), float(point[1])), False) >= 0


def _changed(a: np.ndarray, b: np.ndarray, level: int = 25) -> np.ndarray:
    return cv2.absdiff(a, b).max(axis=2) > level


@pytest.mark.parametrize("seed", range(6))
def test_random_boards_are_legal_physical_positions(seed: int) -> None:
    board, pictures, spare_picture = random_board(random.Random(seed))
    assert board.inventory_problems() == []
    assert 2 <= len(board.pawns) <= 4
    named = [name for row in pictures for name in row if name is not None] + [spare_picture]
    assert len([n for n in named if n is not None]) == 24  # every treasure is somewhere
    for square in FIXED_TILES:
        if square not in ((0, 0), (0, 6), (6, 6), (6, 0)):
            assert pictures[square[0]][square[1]] is not None


@pytest.mark.parametrize(("seed", "lighting", "occluded"), [(1, "day", False), (2, "night", False), (3, "day", True)])
def test_label_follows_the_photo_format(seed: int, lighting: str, occluded: bool) -> None:
    photo, label = random_holdout_scene(seed, lighting, SMALL, occluded)
    assert photo.shape == (480, 640, 3) and photo.dtype == np.uint8
    board = Board.from_rows(label["tiles"], "NS", label["pawns"])
    for square, tile in FIXED_TILES.items():
        assert board.tile(square) is tile
    assert label["lighting"] == lighting and label["occluded"] is occluded
    corners = np.array(label["corners"])
    assert corners.shape == (4, 2)
    assert np.all(corners >= 0) and np.all(corners[:, 0] < 640) and np.all(corners[:, 1] < 480)
    # TL TR BR BL: clockwise in the image, row 0 along the top
    area = sum(corners[i, 0] * corners[(i + 1) % 4, 1] - corners[(i + 1) % 4, 0] * corners[i, 1] for i in range(4))
    assert area > 0
    assert corners[:2, 1].mean() < corners[2:, 1].mean()
    treasures = {tuple(sq) for sq in label["treasures"]}
    assert 23 <= len(treasures) <= 24 and all(0 <= r < SIZE and 0 <= c < SIZE for r, c in treasures)


def test_same_seed_same_photo_and_other_seed_other_photo() -> None:
    a, la = random_holdout_scene(7, "day", SMALL)
    b, lb = random_holdout_scene(7, "day", SMALL)
    c, lc = random_holdout_scene(8, "day", SMALL)
    assert np.array_equal(a, b) and la == lb
    assert la != lc and not np.array_equal(a, c)


@pytest.mark.parametrize("seed", range(4))
def test_corner_labels_are_where_the_lens_puts_the_tile_area_corners(seed: int) -> None:
    """Dots painted at the tile-area corners on the table plane, sent through the renderer's own
    warp + lens path, land on the labelled corner pixels."""
    cam = random_camera(random.Random(seed), SMALL, 0.5)
    s = 40.0
    texture = np.zeros((400, 400), np.uint8)
    origin = (-1.5, -1.5)
    for x, y, _ in TILE_CORNERS:
        centre = (int(((x - origin[0]) * s - 0.5) * 16), int(((y - origin[1]) * s - 0.5) * 16))
        cv2.circle(texture, centre, 3 * 16, 255, -1, cv2.LINE_AA, 4)
    cw, ch = cam.canvas_size
    canvas = cv2.warpPerspective(texture, _texture_homography(cam, origin, s), (cw, ch), flags=cv2.INTER_LINEAR)
    mx, my = cam.undistort_maps()
    photo = cv2.remap(canvas, mx, my, cv2.INTER_LINEAR).astype(np.float32)
    expected = cam.project(TILE_CORNERS)
    for point in expected:
        x0, y0 = int(point[0]) - 12, int(point[1]) - 12
        win = photo[max(y0, 0) : y0 + 25, max(x0, 0) : x0 + 25]
        assert win.sum() > 0, "the corner dot is missing"
        ys, xs = np.mgrid[0 : win.shape[0], 0 : win.shape[1]]
        found = np.array([(xs * win).sum() / win.sum() + max(x0, 0), (ys * win).sum() / win.sum() + max(y0, 0)])
        assert np.linalg.norm(found - point) < 0.75


def test_lens_inverse_matches_forward_model() -> None:
    cam = random_camera(random.Random(5), (800, 600), 0.4)
    cam.k1 = -0.15
    mx, my = cam.undistort_maps()
    for x, y in ((10, 10), (790, 20), (400, 300), (700, 590)):
        canvas_px = np.array([[mx[y, x], my[y, x]]], np.float64)
        assert np.allclose(cam.distort(canvas_px)[0], (x, y), atol=0.05)
    assert cam.margin > 0


@pytest.mark.parametrize(("seed", "square"), [(11, (1, 5)), (12, (5, 2)), (13, (3, 6)), (14, (6, 0))])
def test_pawns_are_drawn_on_their_labelled_squares(seed: int, square: tuple[int, int]) -> None:
    """Squares off the diagonal, so a row/column mix-up cannot pass."""
    board, pictures, spare_picture = random_board(random.Random(seed))
    with_pawn, label = render(board.with_pawns({Color.RED: square}), seed=seed, size=SMALL, pictures=pictures,
                              spare_picture=spare_picture)
    without, _ = render(board.with_pawns({}), seed=seed, size=SMALL, pictures=pictures, spare_picture=spare_picture)
    assert label["pawns"] == {"red": list(square)}
    changed = _changed(with_pawn, without)
    assert changed.sum() > 20
    ys, xs = np.nonzero(changed)
    corners = np.array(label["corners"])
    # the base sits in its square; the body leans out and the shadow falls aside, so allow some margin
    assert _inside(_square_polygon(corners, *square, grow=0.6), np.array([np.median(xs), np.median(ys)]))


@pytest.mark.parametrize("seed", [21, 22])
def test_tile_art_changes_only_on_its_square(seed: int) -> None:
    board, pictures, spare_picture = random_board(random.Random(seed))
    board = board.with_pawns({})
    square = (1, 3)
    tiles = list(board.tiles)
    current = tiles[1 * SIZE + 3]
    tiles[1 * SIZE + 3] = current.rotated(1)
    other = Board(tuple(tiles), board.spare, {})
    a, label = render(board, seed=seed, size=SMALL, pictures=pictures, spare_picture=spare_picture)
    b, _ = render(other, seed=seed, size=SMALL, pictures=pictures, spare_picture=spare_picture)
    changed = _changed(a, b, 40)
    assert changed.sum() > 30
    ys, xs = np.nonzero(changed)
    poly = _square_polygon(np.array(label["corners"]), *square, grow=0.15)
    inside = sum(_inside(poly, np.array([x, y])) for x, y in zip(xs[::7], ys[::7], strict=True))
    assert inside / len(xs[::7]) > 0.95


@pytest.mark.parametrize("seed", [31, 32, 33, 34])
def test_occluders_hide_part_of_the_tile_area(seed: int) -> None:
    board, pictures, spare_picture = random_board(random.Random(seed))
    clear, label = render(board, seed=seed, size=SMALL, pictures=pictures, spare_picture=spare_picture)
    hidden, hlabel = render(board, seed=seed, size=SMALL, occluded=True, pictures=pictures,
                            spare_picture=spare_picture)
    assert hlabel["occluded"] is True and label["occluded"] is False
    corners = np.array(label["corners"], np.float32)
    inside = np.zeros(clear.shape[:2], np.uint8)
    cv2.fillPoly(inside, [np.round(corners).astype(np.int32)], 1)
    changed = _changed(clear, hidden, 40) & (inside > 0)
    tile_area = cv2.contourArea(corners) / 49.0
    assert changed.sum() > 1.0 * tile_area


def test_night_is_dark_with_glowing_walls() -> None:
    day, _ = random_holdout_scene(41, "day", SMALL)
    night, label = random_holdout_scene(41, "night", SMALL)
    assert night.mean() < 0.6 * day.mean()
    inside = np.zeros(night.shape[:2], np.uint8)
    cv2.fillPoly(inside, [np.round(np.array(label["corners"])).astype(np.int32)], 1)
    board = night[inside > 0].astype(np.float32)
    # glow paint shines green: the board is greener than it is blue
    assert board[:, 1].mean() > board[:, 0].mean()


def test_every_style_is_used_and_unknown_style_is_refused() -> None:
    rng = random.Random(3)
    assert {random_artwork(rng).style for _ in range(60)} == set(STYLES)
    with pytest.raises(ValueError, match="unknown artwork style"):
        random_artwork(rng, "classic")


def test_camera_keeps_the_board_in_view_and_fills_the_asked_range() -> None:
    sides = []
    for seed in range(25):
        size = (1280, 960) if seed % 2 else (2028, 1520)
        cam = random_camera(random.Random(seed), size, 0.6)
        px = cam.project(holdout_camera._outline(0.6))
        assert px.min() >= 0 and px[:, 0].max() < size[0] and px[:, 1].max() < size[1]
        side = holdout_camera.board_side(cam, 0.6) / min(size)
        assert 0.39 <= side <= 0.96
        sides.append(side)
    assert min(sides) < 0.55 and max(sides) > 0.75  # the whole range is used


def test_render_refuses_an_unknown_lighting() -> None:
    board, _, _ = random_board(random.Random(1))
    with pytest.raises(ValueError, match="lighting"):
        render_frame(board, seed=1, lighting="dusk", size=SMALL)


def test_cli_writes_labelled_photos_the_project_can_load(tmp_path, capsys) -> None:
    from vision.dataset import load_folder

    assert main([str(tmp_path), "--count", "3", "--seed", "5", "--size", "640x480", "--occluded-fraction", "1",
                 "--max-kb", "60"]) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["0000.jpg", "0000.json", "0001.jpg", "0001.json", "0002.jpg", "0002.json"]
    dataset = load_folder(tmp_path)
    assert len(dataset.samples) == 3 and not dataset.skipped
    for i in range(3):
        assert (tmp_path / f"{i:04d}.jpg").stat().st_size <= 60 * 1024
        label = json.loads((tmp_path / f"{i:04d}.json").read_text())
        assert label["occluded"] is True
        assert label == random_holdout_scene(5 + i, "day", (640, 480), True)[1]
    with pytest.raises(SystemExit):
        main([str(tmp_path), "--size", "big"])


@pytest.mark.parametrize("seed", range(5))
def test_a_resting_hand_stays_off_the_board(seed: int) -> None:
    cam = random_camera(random.Random(seed), (800, 600), 0.5)
    cw, ch = cam.canvas_size
    canvas = np.zeros((ch, cw, 3), np.float32)
    glow = np.ones((ch, cw), np.float32)
    if not place_resting_hand(random.Random(seed), cam, canvas, glow, (0.6, 0.8), 0.5):
        return  # no room beside this board: nothing drawn, which is also right
    drawn = canvas.max(axis=2) > 1.0
    assert drawn.sum() > 100
    outline = cam.project_canvas(np.array([[-0.5, -0.5, 0], [7.5, -0.5, 0], [7.5, 7.5, 0], [-0.5, 7.5, 0]], float))
    board = np.zeros(drawn.shape, np.uint8)
    cv2.fillPoly(board, [np.round(outline).astype(np.int32)], 1)
    assert not np.any(drawn & (board > 0))


def test_committed_holdout_set_matches_its_commands() -> None:
    """The committed photos' labels are what the README's commands make (a renderer change shows here)."""
    root = Path(__file__).parent / "photos"
    folders = {
        "holdout_day": (500, "day", False), "holdout_night": (600, "night", False),
        "holdout_occluded": (700, "day", True),
    }  # fmt: skip
    for name, (seed, lighting, occluded) in folders.items():
        labels = sorted((root / name).glob("*.json"))
        assert labels, f"no photos in {name}"
        for i, path in enumerate(labels):
            expected = random_holdout_scene(seed + i, lighting, (1280, 960), occluded)[1]
            assert json.loads(path.read_text()) == expected, path
            assert path.with_suffix(".jpg").stat().st_size <= 150_000


@pytest.mark.parametrize("style", STYLES)
def test_painted_corridors_open_exactly_where_the_tiles_do(style: str) -> None:
    """Straight above each tile edge's midpoint the art is corridor when that side is open, wall when closed
    (read from the glow layer, which marks wall paint); tile centres are corridor, tile corners wall."""
    rng = random.Random(style)
    board, _, _ = random_board(rng)
    s = 48
    tiles = [[int(board.tile((r, c))) for c in range(SIZE)] for r in range(SIZE)]
    for _ in range(3):
        art = random_artwork(rng, style)
        _, glow = paint_tiles(art, tiles, [[None] * SIZE for _ in range(SIZE)], s, rng)
        wall = glow > art.wall_glow * 255 * 0.5
        inset = 3
        for r in range(SIZE):
            for c in range(SIZE):
                y, x = r * s, c * s
                mid = s // 2
                probes = {1: (y + inset, x + mid), 2: (y + mid, x + s - 1 - inset), 4: (y + s - 1 - inset, x + mid),
                          8: (y + mid, x + inset)}
                for bit, (py, px) in probes.items():
                    assert wall[py, px] != bool(tiles[r][c] & bit), (style, r, c, bit)
                assert not wall[y + mid, x + mid]
                assert wall[y + inset, x + inset] and wall[y + s - 1 - inset, x + s - 1 - inset]
