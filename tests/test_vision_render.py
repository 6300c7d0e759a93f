"""The synthetic photo renderer: labels per FORMATS.md §5, geometry that matches the pixels, determinism, options."""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.board import FIXED_TILES, SIZE, START_SQUARES, Board, Color, Tile, random_setup
from companion.cli import main
from vision.render import LOOKS, random_board, random_scene, render_photo, render_scene
from vision.render_camera import CoarseGrid, make_camera

PHOTOS = Path(__file__).resolve().parent / "photos"
LABEL_KEYS = {"tiles", "pawns", "corners", "lighting", "occluded", "treasures"}


def _board(seed: int = 3) -> tuple[Board, list[str | None]]:
    import random

    return random_setup(random.Random(seed), "classic")


def _quad_contains(quad: np.ndarray, point: tuple[float, float]) -> bool:
    return cv2.pointPolygonTest(quad.astype(np.float32), (float(point[0]), float(point[1])), False) >= 0


def check_label(label: dict, width: int, height: int) -> None:
    """Everything FORMATS.md §5 promises, plus the physical inventory of a real board."""
    assert set(label) == LABEL_KEYS
    assert label["lighting"] in ("day", "night")
    assert isinstance(label["occluded"], bool)
    rows = label["tiles"]
    assert len(rows) == SIZE and all(len(r) == SIZE for r in rows)
    tiles = [Tile.parse(t) for row in rows for t in row]
    assert all(str(t) == s for t, s in zip(tiles, (s for row in rows for s in row), strict=True))  # NESW order
    for (r, c), tile in FIXED_TILES.items():
        assert tiles[r * SIZE + c] == tile
    movable = [t for i, t in enumerate(tiles) if divmod(i, SIZE) not in FIXED_TILES]
    assert sum(t.kind == "t" for t in movable) in (5, 6)  # the sixth may be the spare
    for color, sq in label["pawns"].items():
        Color.parse(color)
        assert len(sq) == 2 and all(0 <= v < SIZE for v in sq)
    treasures = {tuple(sq) for sq in label["treasures"]}
    fixed_pictures = {sq for sq in FIXED_TILES if sq not in START_SQUARES}
    assert fixed_pictures <= treasures and len(treasures) in (23, 24)
    for sq in treasures - fixed_pictures:
        assert tiles[sq[0] * SIZE + sq[1]].kind in ("t", "corner")
    corners = np.array(label["corners"], dtype=np.float64)
    assert corners.shape == (4, 2)
    assert np.all(corners[:, 0] >= 0) and np.all(corners[:, 0] <= width - 1)
    assert np.all(corners[:, 1] >= 0) and np.all(corners[:, 1] <= height - 1)
    tl, tr, br, bl = corners
    assert tl[0] < tr[0] and bl[0] < br[0] and tl[1] < bl[1] and tr[1] < br[1]
    assert cv2.contourArea(corners.astype(np.float32), oriented=True) > 0  # clockwise in image coordinates
    side = np.mean([np.hypot(*(tr - tl)), np.hypot(*(br - tr)), np.hypot(*(bl - br)), np.hypot(*(tl - bl))])
    assert 0.3 * min(width, height) < side < 0.95 * min(width, height)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_random_scene_labels_follow_the_format(seed: int) -> None:
    image, label = random_scene(seed, size=(800, 600))
    assert image.shape == (600, 800, 3) and image.dtype == np.uint8
    check_label(label, 800, 600)
    json.dumps(label)  # plain JSON types only


def test_random_board_is_a_physical_setup() -> None:
    for seed in range(20):
        board, names = random_board(seed)
        assert board.inventory_problems() == []
        assert len(names) == 50 and sum(n is not None for n in names) == 24
        assert all(names[r * SIZE + c] is not None for r, c in FIXED_TILES if (r, c) not in START_SQUARES)


def test_label_mirrors_the_board_and_treasures() -> None:
    board, _ = _board()
    board = board.with_pawns({Color.RED: (3, 3), Color.BLUE: (3, 3), Color.GREEN: (0, 6)})
    treasures = {(1, 1): "owl", (0, 2): "crown"}
    res = render_scene(board, seed=5, size=(640, 480), treasures=treasures)
    assert res.label["tiles"] == board.to_json()["tiles"]
    assert res.label["pawns"] == {"red": [3, 3], "green": [0, 6], "blue": [3, 3]}
    assert res.label["treasures"] == [[0, 2], [1, 1]]
    assert res.label["occluded"] is False and res.label["lighting"] == "day"


def test_corners_are_where_the_board_is_drawn() -> None:
    """Seams between tiles (projected through the same camera as the label corners) are darker than tile middles."""
    board, _ = _board()
    for seed, look in ((7, "classic"), (8, "bright"), (9, "hedge")):
        res = render_scene(board.with_pawns({}), seed=seed, look=look, size=(1024, 768), leds=0, noise=0.0,
                           blur=0.0, jpeg_quality=None, cards=False, spare=False)  # fmt: skip
        cam, img = res.camera, cv2.cvtColor(res.image, cv2.COLOR_BGR2GRAY).astype(np.float32)
        corners = cam.project_plane(np.array([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]], dtype=float))
        assert np.allclose(corners, res.label["corners"], atol=0.01)
        t = np.linspace(0.2, 6.8, 60)
        seams, middles = [], []
        for k in range(1, SIZE):
            for line in (np.column_stack([np.full_like(t, k), t]), np.column_stack([t, np.full_like(t, k)])):
                seams.append(_sample(img, cam.project_plane(line)))
                middles.append(_sample(img, cam.project_plane(line - [0.5, 0] if line[0, 0] == k else line - [0, 0.5])))
        assert np.median(seams) < np.median(middles) - 15, look


def _sample(img: np.ndarray, pts: np.ndarray) -> float:
    xs = np.clip(np.round(pts[:, 0]).astype(int), 0, img.shape[1] - 1)
    ys = np.clip(np.round(pts[:, 1]).astype(int), 0, img.shape[0] - 1)
    return float(img[ys, xs].mean())


def test_pawns_stand_on_their_labelled_squares() -> None:
    board, _ = _board()
    pawns = {Color.RED: (1, 1), Color.YELLOW: (5, 2), Color.GREEN: (5, 2), Color.BLUE: (3, 6)}
    res = render_scene(board.with_pawns(pawns), seed=21, size=(1024, 768), leds=0, noise=0.0, jpeg_quality=None)
    hsv = cv2.cvtColor(res.image, cv2.COLOR_BGR2HSV)
    expected_hue = {"red": (170, 10), "yellow": (20, 40), "green": (40, 85), "blue": (95, 130)}
    for color, (r, c) in pawns.items():
        quad = res.camera.project_plane(np.array([[c, r], [c + 1, r], [c + 1, r + 1], [c, r + 1]], dtype=float))
        x, y = res.pawn_pixels[str(color)]
        assert _quad_contains(quad, (x, y)), color
        # the camera looks down on the pawn: its body covers its own base point
        h = int(hsv[round(y), round(x), 0])
        lo, hi = expected_hue[str(color)]
        assert (lo <= h <= hi) if lo < hi else (h >= lo or h <= hi), (color, h)
        assert hsv[round(y), round(x), 1] > 80


def test_same_seed_same_pixels_other_seed_other_pixels() -> None:
    a, la = random_scene(11, size=(480, 360))
    b, lb = random_scene(11, size=(480, 360))
    c, _ = random_scene(12, size=(480, 360))
    assert la == lb and np.array_equal(a, b)
    assert not np.array_equal(a, c)


@pytest.mark.parametrize("look", LOOKS)
@pytest.mark.parametrize("size", [(640, 480), (1280, 960), (720, 1080)])
def test_every_look_renders_at_several_sizes(look: str, size: tuple[int, int]) -> None:
    res = render_scene(random_board(4)[0], seed=4, look=look, size=size)
    assert res.look == look and res.style.look == look
    assert res.image.shape == (size[1], size[0], 3)
    check_label(res.label, *size)
    assert 40 < res.image.mean() < 230  # not blank, not burnt out
    assert res.image.std() > 20  # something is drawn


def test_looks_differ_and_vary_within_a_look() -> None:
    board = random_board(2)[0]
    means = {look: render_scene(board, seed=2, look=look, size=(320, 240)).style.wall for look in LOOKS}
    assert len({tuple(round(v) for v in m) for m in means.values()}) == len(LOOKS)
    walls = {render_scene(board, seed=s, look="classic", size=(320, 240)).style.wall for s in range(4)}
    assert len(walls) == 4


def test_random_look_comes_from_the_seed() -> None:
    looks = {render_scene(random_board(s)[0], seed=s, size=(160, 120)).look for s in range(12)}
    assert len(looks) >= 3 and looks <= set(LOOKS)


def test_night_is_dark_with_green_glowing_walls() -> None:
    board = random_board(6)[0]
    day = render_scene(board, seed=6, look="classic", size=(800, 600))
    night = render_scene(board, seed=6, look="classic", lighting="night", size=(800, 600))
    assert night.label["lighting"] == "night"
    check_label(night.label, 800, 600)
    assert night.image.mean() < 0.5 * day.image.mean()
    quad = np.array(night.label["corners"], dtype=np.int32)
    mask = np.zeros(night.image.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, quad, 1)
    b, g, r = (night.image[:, :, k][mask > 0].mean() for k in range(3))
    assert g > r and g > b  # the glow paint shines green


def test_occlusion_puts_a_hand_over_the_board() -> None:
    board = random_board(8)[0]
    for seed in range(5):
        res = render_scene(board, seed=seed, size=(800, 600), occlusion=True)
        assert res.label["occluded"] is True
        check_label(res.label, 800, 600)
        assert res.hand_mask is not None
        quad = np.zeros(res.image.shape[:2], np.uint8)
        cv2.fillConvexPoly(quad, np.array(res.label["corners"], dtype=np.int32), 1)
        covered = (res.hand_mask > 127) & (quad > 0)
        tile_px = quad.sum() / 49
        assert covered.sum() > 1.5 * tile_px  # more than a tile's worth of the board is hidden
        # the arm comes in from an image edge
        edge = np.concatenate([res.hand_mask[0], res.hand_mask[-1], res.hand_mask[:, 0], res.hand_mask[:, -1]])
        assert (edge > 127).any()
    clear = render_scene(board, seed=0, size=(800, 600), idle_hands=0.0)
    assert clear.hand_mask is None and clear.label["occluded"] is False


def test_idle_hands_beside_the_board_hide_nothing() -> None:
    board = random_board(8)[0]
    drawn = 0
    for seed in range(8):
        res = render_scene(board, seed=seed, size=(640, 480), idle_hands=1.0, fill=(0.45, 0.6))
        assert res.label["occluded"] is False
        if res.hand_mask is None or not (res.hand_mask > 127).any():
            continue
        drawn += 1
        quad = np.zeros(res.image.shape[:2], np.uint8)
        cv2.fillConvexPoly(quad, np.round(res.label["corners"]).astype(np.int32), 1)
        assert not ((res.hand_mask > 5) & (quad > 0)).any()
    assert drawn >= 2


def test_led_spill_and_options() -> None:
    board = random_board(9)[0]
    lit = render_scene(board, seed=9, size=(640, 480), leds=8)
    assert len(lit.lighting.leds) == 8
    dark = render_scene(board, seed=9, size=(640, 480), leds=0)
    assert dark.lighting.leds == []
    night = render_scene(board, seed=9, size=(640, 480), leds=5, lighting="night")
    assert all(s.color[2] >= max(s.color[:2]) for s in night.lighting.leds)  # red/amber at night


def test_bad_arguments_are_refused() -> None:
    board = random_board(1)[0]
    with pytest.raises(ValueError, match="unknown look"):
        render_photo(board, seed=1, look="psychedelic")
    with pytest.raises(ValueError, match="lighting"):
        render_photo(board, seed=1, lighting="dusk")
    with pytest.raises(TypeError, match="unknown render option"):
        render_photo(board, seed=1, colour="red")
    with pytest.raises(ValueError, match="too small"):
        render_photo(board, seed=1, size=(20, 10))


def test_camera_projection_and_distortion_round_trip() -> None:
    cam = make_camera(1640, 1232, hfov_deg=62, rotation_deg=20, tilt_deg=12, tilt_azimuth_deg=40, distance=14,
                      target=(3.5, 3.5), k1=0.1, k2=0.02)  # fmt: skip
    pts = np.array([[0, 0], [7, 0], [7, 7], [0, 7], [3.5, 3.5], [1.2, 5.3]], dtype=float)
    px = cam.project_plane(pts)
    assert np.allclose(cam.image_to_plane(px), pts, atol=1e-6)
    assert np.allclose(cam.undistort(cam.distort(px)), px, atol=1e-6)
    # rotated by +20 degrees: the top edge of the board runs down to the right
    assert px[1, 1] > px[0, 1]
    # an exact bilinear upsampling of smooth fields
    grid = CoarseGrid(100, 60, 8)
    full = grid.upsample(grid.u * 2.0 + grid.v)
    ys, xs = np.mgrid[0:60, 0:100]
    assert np.allclose(full, xs * 2.0 + ys, atol=1e-3)


def test_pawns_lean_away_from_the_image_centre() -> None:
    """Seen from above, a pawn's head is farther from the image centre than its base (perspective)."""
    board, _ = _board()
    res = render_scene(board.with_pawns({Color.RED: (0, 0)}), seed=3, size=(800, 600), max_tilt=0.0)
    cam = res.camera
    x, y = res.pawn_pixels["red"]
    top = cam.project(np.array([[0.5, 0.5, -0.6]]))[0]
    centre = np.array([cam.cx, cam.cy])
    assert np.hypot(*(top - centre)) > np.hypot(x - centre[0], y - centre[1]) + 2


def test_render_photos_command_writes_labelled_pairs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "set"
    code = main(["render-photos", str(out), "--count", "3", "--seed", "40", "--size", "400x300",
                 "--occluded-fraction", "0.34", "--quality", "70", "--look", "hedge"])  # fmt: skip
    assert code == 0
    jpgs = sorted(out.glob("*.jpg"))
    assert [p.name for p in jpgs] == ["0000.jpg", "0001.jpg", "0002.jpg"]
    occluded = 0
    for jpg in jpgs:
        img = cv2.imread(str(jpg))
        assert img.shape == (300, 400, 3)
        label = json.loads(jpg.with_suffix(".json").read_text())
        check_label(label, 400, 300)
        occluded += label["occluded"]
    assert occluded == 1
    assert "wrote 3" in capsys.readouterr().out
    # the same command writes the same files
    again = tmp_path / "again"
    main(["render-photos", str(again), "--count", "3", "--seed", "40", "--size", "400x300",
          "--occluded-fraction", "0.34", "--quality", "70", "--look", "hedge", "--quiet"])  # fmt: skip
    for name in ("0000.jpg", "0001.json", "0002.jpg"):
        assert (again / name).read_bytes() == (out / name).read_bytes()


@pytest.mark.parametrize(
    "argv",
    [["--size", "big"], ["--size", "10x10"], ["--count", "-1"], ["--occluded-fraction", "2"], ["--quality", "0"],
     ["--look", "neon"], ["--look", "classic,neon"], ["--max-kb", "0"]],
)
def test_render_photos_rejects_bad_options(tmp_path: Path, argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render-photos", str(tmp_path / "x"), *argv]) == 2
    assert "error" in capsys.readouterr().err


def _fixture_folders() -> list[Path]:
    return sorted(p for p in PHOTOS.iterdir() if p.is_dir()) if PHOTOS.is_dir() else []


@pytest.mark.parametrize("folder", _fixture_folders(), ids=lambda p: p.name)
def test_committed_fixture_folders_are_valid(folder: Path) -> None:
    jpgs = sorted(folder.glob("*.jpg"))
    assert jpgs, folder
    for jpg in jpgs:
        assert jpg.stat().st_size <= 150_000, jpg.name
        img = cv2.imread(str(jpg))
        assert img is not None
        label = json.loads(jpg.with_suffix(".json").read_text())
        check_label(label, img.shape[1], img.shape[0])
        if folder.name.startswith("night"):
            assert label["lighting"] == "night"
    if folder.name.startswith("occluded"):
        flags = {json.loads(p.read_text())["occluded"] for p in folder.glob("*.json")}
        assert flags == {True, False}


def test_pixels_per_unit_matches_the_label() -> None:
    res = render_scene(random_board(5)[0], seed=5, size=(800, 600))
    c = np.array(res.label["corners"])
    side = np.mean([np.hypot(*(c[1] - c[0])), np.hypot(*(c[2] - c[1]))]) / 7
    assert math.isclose(res.camera.pixels_per_unit(), side, rel_tol=0.2)


def test_aruco_markers_option_marks_the_frame_corners() -> None:
    res = render_scene(random_board(12)[0], seed=12, size=(1024, 768), markers=True, max_rotation=10.0)
    aruco = cv2.aruco
    detector = aruco.ArucoDetector(aruco.getPredefinedDictionary(aruco.DICT_4X4_50), aruco.DetectorParameters())
    found, ids, _ = detector.detectMarkers(cv2.cvtColor(res.image, cv2.COLOR_BGR2GRAY))
    assert ids is not None and sorted(ids.ravel().tolist()) == [0, 1, 2, 3]
    corners = np.array(res.label["corners"])
    for quad, marker in zip(found, ids.ravel(), strict=True):
        # each marker sits just outside its corner of the tile area, diagonally outward
        centre = quad.reshape(4, 2).mean(axis=0)
        assert np.hypot(*(centre - corners[int(marker)])) < 0.12 * np.hypot(*(corners[2] - corners[0]))
    plain = render_scene(random_board(12)[0], seed=12, size=(1024, 768), max_rotation=10.0)
    # OpenCV 4 answers no markers with None, OpenCV 5 with an empty array.
    none = detector.detectMarkers(cv2.cvtColor(plain.image, cv2.COLOR_BGR2GRAY))[1]
    assert none is None or none.size == 0


def test_jpeg_size_budget_lowers_the_quality_only_when_needed() -> None:
    from vision.cli_render import encode_jpeg

    image, _ = random_scene(30, size=(640, 480), jpeg_quality=None)
    full, q_full = encode_jpeg(image, 95, None)
    assert q_full == 95
    small, q_small = encode_jpeg(image, 95, len(full) / 1000 * 0.6)
    assert q_small < 95 and len(small) <= len(full) * 0.6
    same, q_same = encode_jpeg(image, 95, len(full) / 1000 + 1)
    assert q_same == 95 and same == full
    decoded = cv2.imdecode(np.frombuffer(small, np.uint8), cv2.IMREAD_COLOR)
    assert decoded.shape == image.shape


def test_a_push_changes_only_the_pushed_line_between_frames() -> None:
    """Frames of a game share the seed: squares whose tile did not move render identically."""
    from companion.board import Gate, push_line

    board, names = random_board(5)
    pushed, _ = push_line(names[:49], Gate.N1, names[49])  # the pictures ride their tiles
    before = render_scene(board, seed=9, size=(800, 600), jpeg_quality=None, noise=0.0, treasure_names=names[:49])
    after = render_scene(board.push(Gate.N1).with_pawns(board.pawns), seed=9, size=(800, 600), jpeg_quality=None,
                         noise=0.0, treasure_names=pushed)  # fmt: skip
    diff = np.abs(before.image.astype(int) - after.image.astype(int)).max(axis=2)
    ys, xs = np.nonzero(diff > 40)
    assert len(xs) > 1000  # the column really changed
    world = before.camera.image_to_plane(np.column_stack([xs, ys]))
    on_board = (world[:, 0] > 0) & (world[:, 0] < SIZE) & (world[:, 1] > 0) & (world[:, 1] < SIZE)
    in_column = (world[:, 0] > 0.9) & (world[:, 0] < 2.1)
    assert np.mean(in_column[on_board]) > 0.98


def test_render_photos_picks_from_a_list_of_looks(tmp_path: Path) -> None:
    from vision.cli_render import parse_looks

    assert parse_looks(None) is None and parse_looks("mixed") is None
    assert parse_looks("Hedge, glow") == ["hedge", "glow"]
    out = tmp_path / "held_out"
    argv = ["render-photos", str(out), "--count", "4", "--size", "160x120", "--look", "hedge,glow", "--quiet"]
    assert main(argv) == 0
    assert len(list(out.glob("*.json"))) == 4
