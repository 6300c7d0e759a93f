"""Finding the board: corner accuracy on rendered photos, corner order, and clear refusals."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import pytest

from companion.board import SIZE
from vision.locate import BoardNotFoundError, LocateConfig, block_average, find_board, order_corners
from vision.locate_centre import periodic_centre
from vision.locate_lattice import window_lattices
from vision.rectify import rectify
from vision.render import random_scene
from vision.tiles import read_tiles


@cache
def scene(seed: int, look: str, lighting: str = "day", size: tuple[int, int] = (1280, 960)):
    image, label = random_scene(seed, look=look, lighting=lighting, size=size)
    image.setflags(write=False)
    return image, label


def corner_error(found: np.ndarray, label: dict) -> float:
    return float(np.linalg.norm(found - np.array(label["corners"]), axis=1).max())


def few_pixels(size: tuple[int, int]) -> float:
    """'A few pixels' at this resolution: 0.5 % of the width (6 px at 1280, 10 px at 2028).

    Typical errors are 1-2 px (see the mean test below); a wide lens' second-order
    distortion, which the one-term lens model leaves, costs a few more at worst.
    """
    return 0.005 * size[0]


def tiles_right(image: np.ndarray, corners: np.ndarray, label: dict) -> int:
    readings = read_tiles(rectify(image, corners, tile_px=48), exclude={tuple(p) for p in label["pawns"].values()})
    truth = [t for row in label["tiles"] for t in row]
    return sum(str(r.openings) == t for r, t in zip(readings, truth, strict=True))


DAY = [
    (31, "classic", (1280, 960)),
    (32, "dark", (1640, 1232)),
    (33, "hedge", (2028, 1520)),
    (34, "bright", (1280, 960)),
    (35, "wizard", (1640, 1232)),
    (36, "glow", (1280, 960)),
]


@pytest.mark.parametrize(("seed", "look", "size"), DAY)
def test_day_corners_within_a_few_pixels(seed: int, look: str, size: tuple[int, int]) -> None:
    image, label = scene(seed, look, "day", size)
    corners = find_board(image)
    assert corners.shape == (4, 2) and corners.dtype == np.float32
    assert corner_error(corners, label) < few_pixels(size)
    assert tiles_right(image, corners, label) >= 48


def test_day_corners_are_typically_within_two_pixels() -> None:
    errors = [corner_error(find_board(scene(seed, look, "day", size)[0]), scene(seed, look, "day", size)[1])
              for seed, look, size in DAY]  # fmt: skip
    assert float(np.median(errors)) < 2.5


@pytest.mark.parametrize(("seed", "look"), [(41, "classic"), (42, "glow")])
def test_night_corners_close_enough_to_read(seed: int, look: str) -> None:
    image, label = scene(seed, look, "night")
    corners = find_board(image)
    assert corner_error(corners, label) < 10.0
    assert tiles_right(image, corners, label) >= 47


def test_strongly_receding_board() -> None:
    # Seen from a low side (the far edge ~70 % as long as the near one), the tile pitch changes too much
    # across the board for one lattice: the grid search must let it recede.
    image, label = scene(41, "classic")
    h, w = image.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    hom = cv2.getPerspectiveTransform(src, np.float32([[0.22 * w, 0.1 * h], [0.78 * w, 0.1 * h], [w, h], [0, h]]))
    warped = cv2.warpPerspective(image, hom, (w, h), borderMode=cv2.BORDER_REPLICATE)
    truth = cv2.perspectiveTransform(np.float32(label["corners"])[None], hom)[0]
    assert (truth[1, 0] - truth[0, 0]) / (truth[2, 0] - truth[3, 0]) < 0.72
    corners = find_board(warped)
    assert float(np.linalg.norm(corners - truth, axis=1).max()) < few_pixels((w, h))


def test_row_zero_is_the_edge_nearest_the_image_top() -> None:
    # Turned upside down, the photo shows the board turned by 180°: same corner order on screen,
    # and the tiles read are the original ones rotated.
    image, label = scene(31, "classic")
    flipped = np.ascontiguousarray(image[::-1, ::-1])
    corners = find_board(flipped)
    h, w = image.shape[:2]
    expected = (np.array([w - 1, h - 1]) - np.array(label["corners"]))[[2, 3, 0, 1]]
    assert float(np.linalg.norm(corners - expected, axis=1).max()) < 4.0
    assert corners[0, 1] < corners[3, 1] and corners[0, 0] < corners[1, 0]


def test_greyscale_photo() -> None:
    image, label = scene(32, "dark", "day", (1640, 1232))
    corners = find_board(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    assert corner_error(corners, label) < 6.0


def test_order_corners_is_canonical() -> None:
    angle = np.radians(25.0)
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    square = np.array([[0, 0], [100, 0], [100, 100], [0, 100]], dtype=float) @ rot.T + [300, 200]
    rng = np.random.default_rng(0)
    for _ in range(5):
        shuffled = square[rng.permutation(4)]
        np.testing.assert_allclose(order_corners(shuffled), square)
    # Counter-clockwise input comes out clockwise (on screen) too.
    np.testing.assert_allclose(order_corners(square[::-1]), square)


@pytest.mark.parametrize(
    "image",
    [
        np.zeros((480, 640, 3), np.uint8),
        np.full((480, 640), 200, np.uint8),
        np.zeros((30, 40, 3), np.uint8),
        np.random.default_rng(1).integers(0, 255, (480, 640, 3), dtype=np.uint8),
    ],
    ids=["black", "flat-grey", "tiny", "noise"],
)
def test_no_board_is_a_named_error(image: np.ndarray) -> None:
    with pytest.raises(BoardNotFoundError) as info:
        find_board(image)
    assert info.value.reason


def test_table_without_board() -> None:
    # The table with the board cut away: texture, maybe a card, but no 7x7 grid.
    image, label = scene(34, "bright")
    corners = np.array(label["corners"])
    blank = image.copy()
    x0, y0 = np.floor(corners.min(axis=0) - 80).astype(int)
    x1, y1 = np.ceil(corners.max(axis=0) + 80).astype(int)
    blank[max(y0, 0) : y1, max(x0, 0) : x1] = np.median(image[:40, :40].reshape(-1, 3), axis=0)
    with pytest.raises(BoardNotFoundError):
        find_board(blank)


def test_config_is_honoured() -> None:
    image, label = scene(36, "glow")
    coarse_only = find_board(image, LocateConfig(refine_iterations=0))
    refined = find_board(image)
    assert corner_error(refined, label) <= corner_error(coarse_only, label) + 0.5
    assert SIZE == 7


@pytest.mark.parametrize("factor", [1, 2, 3, 4, 6])
def test_block_average_is_the_block_mean(factor: int) -> None:
    # Halvings (even factors) and one INTER_AREA step must both give each block's mean (+-1 for rounding).
    image = np.random.default_rng(factor).integers(0, 256, (97, 131, 3), dtype=np.uint8)
    h, w = image.shape[0] // factor, image.shape[1] // factor
    blocks = image[: h * factor, : w * factor].reshape(h, factor, w, factor, 3).astype(np.float64)
    reduced = block_average(image, factor)
    assert reduced.shape == (h, w, 3)
    assert float(np.abs(reduced - blocks.mean(axis=(1, 3))).max()) <= 1.0


def test_lens_model_round_trip() -> None:
    from vision.locate_refine import _Geometry

    geo = _Geometry(np.eye(3), 0.12, np.array([819.5, 615.5]), 1640.0)
    rng = np.random.default_rng(5)
    pts = rng.uniform([0, 0], [1640, 1232], (50, 2))
    np.testing.assert_allclose(geo.undistort(geo.distort(pts)), pts, atol=1e-3)
    # Points at the centre do not move; a positive k pulls observed points inward.
    np.testing.assert_allclose(geo.distort(geo.centre[None]), geo.centre[None])
    far = np.array([[1600.0, 1200.0]])
    assert np.linalg.norm(geo.distort(far) - geo.centre) < np.linalg.norm(far - geo.centre)


def test_board_on_a_striped_table() -> None:
    """A held-out photo whose striped tablecloth owns the photo's strongest lattice: found once it is notched out."""
    import json
    from pathlib import Path

    folder = Path(__file__).parent / "photos" / "holdout_day"
    image = cv2.imread(str(folder / "0003.jpg"))
    label = json.loads((folder / "0003.json").read_text())
    corners = find_board(image)
    assert corner_error(corners, label) < few_pixels((image.shape[1], image.shape[0]))


def test_board_under_a_shadow_band() -> None:
    """A held-out photo (seed 940001) whose shadow band's edges outweigh the shaded tiles' seams.

    The plain gradients' lattice is 12 degrees off the board's there. It once took the
    second opinion on contrast-normalised gradients; since the searches no longer score
    grids whose corners read as corridor, the first search finds it (fallbacks off).
    """
    from tests.support.holdout_render import random_holdout_scene

    image, label = random_holdout_scene(940001)
    corners = find_board(image, LocateConfig(fallbacks=False))
    assert corner_error(corners, label) < few_pixels((image.shape[1], image.shape[0]))


@pytest.mark.parametrize(
    ("seed", "without"),
    [
        # A board on a dotted cloth, a shadow band across both: every search stage's grid is
        # refuted by the refinement; the pitch sweep about the refuted grid finds the board.
        (1320009, LocateConfig(fallbacks=False)),
        # 1640 px, a board tilted 16 degrees under a wide lens: every grid of the 4x work copy's first
        # search is refuted (the best 1.15 tiles off). Which fallback places it depends on OpenCV's build
        # and the CPU's vector paths: the finer look on the 3x copy where the second opinions are refuted
        # too (where the test was written: the chain without the finer look and the cloth last resort
        # said "not found"), a second opinion where they are not (OpenCV 5.0 on an AMD EPYC). Only the
        # chain finds it.
        (2890018, LocateConfig(fallbacks=False)),
    ],
    ids=["second-opinions", "tilted-lens"],
)
def test_a_refused_board_is_found_by_its_fallback(seed: int, without: LocateConfig) -> None:
    """Held-out photos only a fallback finds: without it the frame is "not found" (so this test can fail)."""
    from tests.support.holdout_render import random_holdout_scene

    image, label = random_holdout_scene(seed)
    with pytest.raises(BoardNotFoundError):
        find_board(image, without)
    corners = find_board(image)
    assert corner_error(corners, label) < few_pixels((image.shape[1], image.shape[0]))


def test_contrast_normalised_gradients_weigh_every_neighbourhood_alike() -> None:
    """A strong step (a shadow's edge) and faint periodic seams end up with comparable local energy."""
    from vision.locate_grid import _contrast_normalised

    yy, xx = np.mgrid[0:120, 0:240].astype(np.float32)
    image = np.where(xx < 120, 20.0, 200.0) + 3.0 * (np.sin(2 * np.pi * xx / 10) + np.sin(2 * np.pi * yy / 10))
    gx = cv2.Sobel(image.astype(np.float32), cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(image.astype(np.float32), cv2.CV_32F, 0, 1, ksize=3)
    nx, ny = _contrast_normalised(gx, gy, 21)

    def energy(x: np.ndarray, y: np.ndarray, cols: slice) -> float:
        return float((x[20:100, cols] ** 2 + y[20:100, cols] ** 2).sum())

    edge, seams = slice(115, 125), slice(180, 190)  # equal widths: the step's and the seams' own
    raw = energy(gx, gy, edge) / energy(gx, gy, seams)
    normalised = energy(nx, ny, edge) / energy(nx, ny, seams)
    assert raw > 100  # raw: the step outweighs the seams by orders of magnitude
    assert normalised < 10  # normalised: within the step's share of one window (~21 / 3 columns)


def test_pitch_sweep_recovers_a_grid_a_third_too_large() -> None:
    """A refuted grid a third too large about the board's centre (a patterned table's chance grid): the sweep
    along its own axes places the tiles' grid."""
    from vision.locate_grid import quad_frame, swept_quad

    image, label = scene(31, "classic")
    factor = 3
    work = block_average(image, factor)
    truth = (np.array(label["corners"]) + 0.5) / factor - 0.5
    centre = truth.mean(axis=0)
    wrong = centre + 1.33 * (truth - centre)
    result = swept_quad(work, [quad_frame(wrong)], LocateConfig())
    assert result is not None
    pitch = float(np.linalg.norm(truth[1] - truth[0])) / 7
    assert float(np.abs(order_corners(result[1]) - truth).max()) < 0.25 * pitch


def _held_out_table_without_board(seed: int) -> np.ndarray:
    """A held-out photo with the board (and a quarter board around it) painted over in the table's colour."""
    from tests.support.holdout_render import random_holdout_scene

    image, label = random_holdout_scene(seed)
    corners = np.array(label["corners"])
    margin = 0.25 * float(np.ptp(corners[:, 0]))
    x0, y0 = np.floor(corners.min(axis=0) - margin).astype(int)
    x1, y1 = np.ceil(corners.max(axis=0) + margin).astype(int)
    blank = image.copy()
    blank[max(y0, 0) : y1, max(x0, 0) : x1] = np.median(image[:40, :40].reshape(-1, 3), axis=0)
    return blank


def test_dotted_table_without_board_passes_no_second_opinion() -> None:
    """A dotted tablecloth (held-out seed 940009) with the board cut away: the second opinions try
    ~20000 more grids, and there one reached a refined separation of 2.6, which once took a bar of
    their own (3.0). Its corners read as corridor, so it is no board at the first answer's bar."""
    config = LocateConfig()
    assert config.second_opinion_separation <= 2.6
    with pytest.raises(BoardNotFoundError):
        find_board(_held_out_table_without_board(940009), config)


def test_rectify_lens_matches_the_refinement_model() -> None:
    """The reader's Lens is the refinement's model: the same distortion both ways, and a view through it
    maps its points back and forth consistently."""
    from vision.locate_refine import _Geometry
    from vision.rectify import Lens

    lens = Lens.for_image(0.15, (1232, 1640, 3))
    geo = _Geometry(np.eye(3), 0.15, np.array(lens.centre), lens.scale)
    pts = np.random.default_rng(7).uniform([0, 0], [1640, 1232], (40, 2))
    np.testing.assert_allclose(lens.distort(pts), geo.distort(pts), atol=1e-9)
    np.testing.assert_allclose(lens.undistort(pts), geo.undistort(pts), atol=1e-9)
    image, label = scene(34, "bright")
    rect = rectify(image, label["corners"], tile_px=24, margin=0.5, lens=lens)
    view_pts = np.array([[10.0, 12.0], [100.0, 50.0], [170.0, 180.0]])
    np.testing.assert_allclose(rect.to_rect(rect.to_image(view_pts)), view_pts, atol=1e-3)
    # The corners stay where the label puts them (the lens bends only what lies between).
    m, t = rect.margin_px, rect.tile_px
    ends = np.array([[m - 0.5, m - 0.5], [m + 7 * t - 0.5, m + 7 * t - 0.5]])
    np.testing.assert_allclose(rect.to_image(ends), np.array(label["corners"])[[0, 2]], atol=1e-3)
    # No lens (or k = 0) is the plain homography.
    plain = rectify(image, label["corners"], tile_px=24, margin=0.5)
    flat = rectify(image, label["corners"], tile_px=24, margin=0.5, lens=Lens.for_image(0.0, image.shape))
    assert np.array_equal(flat.image, plain.image)


def test_rectify_reuses_a_pose_only_while_its_corners_and_lens_stay() -> None:
    """The lens maps are kept for the last pose: the same corners and lens give the same view, and a
    corner moved by a fraction of a pixel, or another lens, gives the view computed afresh."""
    from vision import rectify as rect_mod
    from vision.rectify import Lens

    image, label = scene(34, "bright")
    corners = np.array(label["corners"], dtype=np.float64)
    lens, other = Lens.for_image(0.15, image.shape), Lens.for_image(0.1, image.shape)
    moved = corners + np.array([[0.3, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]])

    def fresh(quad: np.ndarray, with_lens: Lens) -> np.ndarray:
        rect_mod.forget_maps()
        return rectify(image, quad, tile_px=24, margin=0.5, lens=with_lens).image

    first, shifted, bent = fresh(corners, lens), fresh(moved, lens), fresh(corners, other)
    assert not np.array_equal(first, shifted) and not np.array_equal(first, bent)
    for quad, with_lens, expected in [(corners, lens, first), (corners, lens, first), (moved, lens, shifted),
                                      (corners, other, bent), (corners, lens, first)]:
        assert np.array_equal(rectify(image, quad, tile_px=24, margin=0.5, lens=with_lens).image, expected)


def test_legal_share_tells_tiles_from_a_uniform_pattern() -> None:
    """Movable tiles read as straights, corners and Ts on a board; a pattern whose cells all read alike
    (all open, all closed) is no board, whatever its fixed-tile separation."""
    from vision.locate_refine import legal_share, refine_corners

    assert legal_share(np.full((7, 7, 4), 0.9)) == 0.0
    assert legal_share(np.full((7, 7, 4), 0.1)) == 0.0
    image, label = scene(34, "bright")
    refined = refine_corners(image, np.array(label["corners"]), LocateConfig())
    assert refined.legal >= 0.9
    assert refined.separation >= LocateConfig().min_separation


def test_table_grid_whose_corners_read_as_corridor_is_never_placed() -> None:
    """A dotted tablecloth (held-out seed 1020002) with the board cut away. Before the searches scored
    only grids whose fixed-tile discriminant reads the tiles' corners as wall, the pitch sweep placed
    a grid there whose fixed tiles separated by 3.5; only the refined checks (legal share, corner side)
    refused it, and with both off it was taken for a board. Now no such grid is placed at all."""
    with pytest.raises(BoardNotFoundError):
        find_board(_held_out_table_without_board(1020002), LocateConfig(min_legal=0.0, max_corner_side=np.inf))


def test_corner_side_of_a_board_and_of_a_table_pattern() -> None:
    """On a board the closed sides score like the tiles' corners (both are wall): near 0. A model whose
    open class sits on the corners' level (a table pattern's) gives ~1; no class gap gives 1."""
    from vision.locate_refine import corner_side, refine_corners
    from vision.tile_model import TileModel

    image, label = scene(34, "bright")
    refined = refine_corners(image, np.array(label["corners"]), LocateConfig())
    assert abs(refined.corner_side) < 0.2
    weights = np.ones(8)
    assert corner_side(TileModel(weights, mean_open=5.0, mean_closed=0.2, spread=1.0)) == pytest.approx(-0.2 / 4.8)
    assert corner_side(TileModel(weights, mean_open=0.1, mean_closed=-3.0, spread=1.0)) > 0.9
    assert corner_side(TileModel(weights, mean_open=1.0, mean_closed=1.0, spread=1.0)) == 1.0


def test_grid_scores_need_the_corners_to_read_as_wall() -> None:
    """The searches' fixed-tile score: a grid whose closed edges look like the corners (features ~0, the
    features being relative to the corners) scores its separation; the same edges with the classes
    swapped (the open ones at the corners' level, as on a table pattern) score 0."""
    from vision.locate_score import _CLOSED_MEAN, _FIXED_OPEN, _N_CLOSED, _N_OPEN, _OPEN_MEAN, fisher

    rng = np.random.default_rng(3)
    noise = rng.normal(0.0, 1.0, (3, 1, 64))
    board = noise + np.where(_FIXED_OPEN, 6.0, 0.0)[None, None]  # open edges differ from the corners
    table = noise + np.where(_FIXED_OPEN, 0.0, 6.0)[None, None]  # closed edges differ from the corners
    assert fisher(board, _OPEN_MEAN, _CLOSED_MEAN, _N_OPEN, _N_CLOSED, corner_wall=True)[0] > 3.0
    assert fisher(table, _OPEN_MEAN, _CLOSED_MEAN, _N_OPEN, _N_CLOSED)[0] > 3.0
    assert fisher(table, _OPEN_MEAN, _CLOSED_MEAN, _N_OPEN, _N_CLOSED, corner_wall=True)[0] == 0.0


def test_lattices_whose_axes_nearly_meet_are_no_boards() -> None:
    """Two peaks of a diagonal pattern 4 degrees apart (a lattice no board shows, whose canonical frame
    is thousands of pixels square) are refused; a square lattice and a strongly sheared one are kept."""
    from vision.locate_lattice import _square_enough

    assert not _square_enough(np.array([5.6, 5.2]), np.array([5.2, 5.5]))
    assert _square_enough(np.array([10.0, 0.0]), np.array([0.0, 10.0]))
    assert _square_enough(np.array([10.0, -2.0]), np.array([3.0, 10.0]))  # ~72 degrees


def test_a_window_lattice_is_also_centred_on_the_whole_board() -> None:
    """A window holding part of a board measures its lattice, but its own gradients pull the grid's centre
    toward the window (here 4 tiles off); the same lattice is also offered in the whole photo's frame."""
    h = w = 240
    pitch, x0, y0 = 14, 110, 110
    ys, xs = np.mgrid[0:h, 0:w]
    board = (ys >= y0) & (ys < y0 + SIZE * pitch) & (xs >= x0) & (xs < x0 + SIZE * pitch)
    walls = board & ((((ys - y0) % pitch) < 4) | (((xs - x0) % pitch) < 4))
    image = np.full((h, w), 60, np.float32)
    image[board], image[walls] = 40, 200
    image = cv2.GaussianBlur(image, (0, 0), 0.7)
    gx, gy = cv2.Sobel(image, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(image, cv2.CV_32F, 0, 1, ksize=3)
    centre = np.array([x0, y0]) + SIZE * pitch / 2
    offsets: dict[tuple[float, ...], list[float]] = {}
    for a_vec, b_vec, (affine, gu, gv) in window_lattices(gx, gy, 5, 30):
        size = 0.5 * (np.linalg.norm(a_vec) + np.linalg.norm(b_vec))
        if abs(size - pitch) > 0.05 * pitch:
            continue  # a half-pitch echo
        inv = cv2.invertAffineTransform(affine)
        found = periodic_centre(gu, gv, size)
        assert found is not None
        key = tuple(np.round(np.concatenate([a_vec, b_vec]), 2))
        offsets.setdefault(key, []).append(float(np.linalg.norm(inv[:, :2] @ found + inv[:, 2] - centre)) / pitch)
    assert offsets
    assert max(max(off) for off in offsets.values()) > 2.0  # some window's own frame misplaces the board
    assert all(min(off) < 0.5 for off in offsets.values())  # but each lattice is also offered centred on it


def test_arm_centre_ignores_corridor_reaching_in_past_the_tile_wall() -> None:
    """An arm is a run of corridor between two walls. A second run that reaches the measuring window's
    end comes from past the tile's wall (a light board frame beside an outer tile, a neighbour's
    corridor) and is left out; a run split by a gap inside the walls (a pawn on the arm) counts whole,
    and a lone run is kept even at an end (a grid far off still has something to follow)."""
    from vision.locate_refine import _own_runs

    coords = np.arange(10, dtype=np.float64)
    arm = np.array([0, 0, 0, 1, 1, 1, 0, 0, 0, 0], dtype=np.float64)  # centred on 4
    frame = arm.copy()
    frame[:2] = 1.0  # light frame reaching in from the left
    split = np.array([0, 0, 0, 1, 0, 1, 1, 0, 0, 0], dtype=np.float64)
    lone = np.array([1, 1, 1, 0, 0, 0, 0, 0, 0, 0], dtype=np.float64)
    mass, moment = _own_runs(np.stack([arm, frame, split, lone]), coords)
    centres = moment / mass
    np.testing.assert_allclose(mass, [3.0, 3.0, 3.0, 3.0])
    np.testing.assert_allclose(centres, [4.0, 4.0, (3 + 5 + 6) / 3, 1.0])
    # Summing the whole profile (the coarse grid's first pass does) is what the frame used to bias.
    assert (frame * coords).sum() / frame.sum() < 3.0
    # With ``counted``, the positions those runs cover: their span's ends, whatever the weights inside.
    _, _, cover = _own_runs(np.stack([arm, frame, split, lone]), coords, counted=True)
    np.testing.assert_array_equal(cover, np.stack([arm, arm, split, lone]) > 0)


def _flat_board_arms(bias: float) -> tuple:
    """Arm centres of a flat (k = 0) board of 1640 x 1232, exact but for the bottom-left corner tile's
    N arm, pulled ``bias`` tile toward the board's edge (a pawn's shadow across its far side)."""
    from vision.locate_grid import BOARD_CORNERS
    from vision.locate_refine import _Geometry
    from vision.rectify import quad_homography

    w, h = 1640, 1232
    quad = np.float64([[430, 150], [1230, 160], [1240, 1080], [420, 1070]])
    geo = _Geometry(quad_homography(quad, BOARD_CORNERS), 0.0, np.array([(w - 1) / 2.0, (h - 1) / 2.0]), float(w))
    points, axis, expected = [], [], []
    for r in range(SIZE):
        for c in range(SIZE):
            for along in (0.155, 0.845):
                points += [(c + 0.5, r + along), (c + along, r + 0.5)]
                axis += [0, 1]
                expected += [c + 0.5, r + 0.5]
    measured = np.array(points)
    lone = int(np.flatnonzero(np.all(np.isclose(measured, [0.5, 6.155]), axis=1))[0])
    measured[lone, 0] -= bias
    return geo, quad, geo.to_image(measured), np.array(axis), np.array(expected, dtype=np.float64), lone


def test_one_uneven_arm_does_not_choose_the_lens() -> None:
    """k is chosen at unit weights, so one biased arm at a board corner (where a lens moves points
    most) can bend a flat board's fit (team day scene 35: a pawn's shadow across the corner tile's arm,
    k -0.1 for a camera of about -0.02). When that arm brings most of the lens' gain and its own profile
    is uneven (its centre off its span's middle), k is chosen without it; an even arm is kept."""
    from vision.locate_refine import _fit_geometry

    geo, quad, observed, axis, expected, lone = _flat_board_arms(0.2)
    uneven = np.zeros(len(axis), dtype=bool)
    uneven[lone] = True
    for span in (None, 0.08):
        bent = _fit_geometry(geo, observed, axis, expected, fit_k=True, k_span=span)
        assert bent is not None and bent.k < -0.025
        assert float(np.abs(bent.corners() - quad).max()) > 1.0
        guarded = _fit_geometry(geo, observed, axis, expected, fit_k=True, k_span=span, uneven=uneven)
        assert guarded is not None and abs(guarded.k) < 0.005
        assert float(np.abs(guarded.corners() - quad).max()) < 0.1
        even = _fit_geometry(geo, observed, axis, expected, fit_k=True, k_span=span, uneven=~uneven)
        assert even is not None and even.k == bent.k


def test_a_refuted_tablecloth_grid_does_not_end_the_search() -> None:
    """A third-renderer photo (seed 2132008, as its JPEG): a board turned 22 degrees on a checked
    tablecloth. The cloth's lattice places a grid 8-9 tiles off that clears the coarse bar and is
    refuted by the refinement; the table-masked lattices (stage 2) then place the board (12). When a
    grid clearing that bar ended the search the frame was "not found" (fallbacks off, as here, and on).
    The cloth's chance grid polishes to 2.9 with OpenCV 5.0 but 2.2 with 4.14 (their renders of the photo
    differ by a hair at every edge), either side of the default bar (2.5): the bar is set under both here,
    so the search's first answer is that cloth grid on both."""
    from tests.support.third_render import render
    from vision.locate_grid import coarse_answers

    image, label, quality = render(2132008)
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    assert ok
    image = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    truth = np.array(label["corners"])
    pitch = float(np.linalg.norm(truth[1] - truth[0])) / 7
    config = LocateConfig(fallbacks=False, coarse_separation=1.5)
    factor = 4  # 1640 px wide at work_px 420
    score, first = next(coarse_answers(block_average(image, factor), config))
    assert score > config.coarse_separation  # the cloth's grid clears the bar...
    assert float(np.abs(order_corners(first * factor) - truth).max()) > 3 * pitch  # ...tiles off the board
    corners = find_board(image, config)
    assert corner_error(corners, label) < few_pixels((image.shape[1], image.shape[0]))


@pytest.mark.parametrize("rest", [1, 37])
def test_grid_scores_in_chunks_are_those_of_one_pass(rest: int) -> None:
    """The searches' big batches (4900 grids in the tilt search) are scored in chunks for speed: every grid
    must get the score one pass gives it (the reports must not change), a one-grid rest included (BLAS takes
    another path for a one-row matrix). To the bit with numpy 2's OpenBLAS; other BLAS builds block rows
    differently and may differ in the last bit, so the check is to rounding (1e-12), far under a decision's
    margin and far over BLAS's reordering (1e-15)."""
    from vision.locate_score import _CHUNK, _separation, separation

    image, label = scene(31, "classic")
    work = block_average(image, 3)
    lab = cv2.blur(cv2.cvtColor(work, cv2.COLOR_BGR2Lab).astype(np.float32), (3, 3))
    rng = np.random.default_rng(5)
    quads = (np.array(label["corners"]) / 3.0)[None] + rng.normal(0.0, 2.0, (2 * _CHUNK + rest, 4, 2))
    scores = separation(lab, quads)
    np.testing.assert_allclose(scores, _separation(lab, quads), rtol=1e-12, atol=0.0)
    assert scores.max() > 2.0  # grids near the board's: real scores, not all zero


def test_converged_grids_are_those_within_a_quarter_tile() -> None:
    """Two refined grids agree when no corner moves a quarter tile (pitch 10 px here); one alone never does."""
    from vision.locate import _converged

    grid = np.array([[100.0, 100.0], [170.0, 100.0], [170.0, 170.0], [100.0, 170.0]])
    assert not _converged([grid])
    assert _converged([grid, grid + 2.0, grid + 40.0])
    assert not _converged([grid, grid + np.array([0.0, 3.0])])  # one corner coordinate 0.3 tile off
    assert not _converged([grid, grid + 20.0])


def test_a_hand_over_the_board_skips_the_finer_look(monkeypatch: pytest.MonkeyPatch) -> None:
    """A committed held-out photo of a hand over the board: every answer refines to the same grid (the
    search agrees where the board is) whose covered fixed tiles refuse it. The finer look would place
    that grid again, so its block average is never made; the frame stays refused."""
    from pathlib import Path

    import vision.locate as locate_mod
    from vision.dataset import decode_image

    factors: list[int] = []
    plain = locate_mod.block_average

    def spy(image: np.ndarray, factor: int) -> np.ndarray:
        factors.append(factor)
        return plain(image, factor)

    monkeypatch.setattr(locate_mod, "block_average", spy)
    image = decode_image(Path(__file__).parent / "photos" / "holdout_occluded" / "0002.jpg")[0]
    with pytest.raises(BoardNotFoundError):
        find_board(image)
    assert factors == [3]


def test_runners_up_are_new_clear_grids_once_every_answer_was_refuted() -> None:
    """After the refuted answers, the placements whose polished grid clears the bar and lies half a tile or
    more from every answer are asked, best raw d' first, at most two (the polish is cached: not redone)."""
    from vision.locate_grid import _runners_up

    square = np.array([[0.0, 0.0], [70.0, 0.0], [70.0, 70.0], [0.0, 70.0]])
    pitch = 10.0
    found = [(2.9, square, pitch), (2.5, square + 3, pitch), (2.4, square + 40, pitch), (2.3, square + 80, pitch),
             (2.2, square + 120, pitch), (2.1, square + 160, pitch)]  # fmt: skip
    polished = {0: (3.1, square), 1: (3.0, square + 3), 2: (2.0, square + 40), 3: (2.6, square + 80),
                4: (2.7, square + 120), 5: (2.9, square + 160)}  # fmt: skip
    given = [square.copy()]
    answers = list(_runners_up(np.zeros((1, 1, 3), np.float32), {}, found, polished, given, LocateConfig()))
    # 1 lies within half a tile of the answer, 2 polishes under the bar; 3 and 4 by raw d', 5 beyond the limit
    assert [score for score, _ in answers] == [2.6, 2.7]
    assert np.array_equal(answers[0][1], square + 80) and len(given) == 3


@pytest.mark.parametrize("seed", [5400017, 5410127])
def test_a_board_under_a_strong_wide_lens_is_placed_on_the_straightened_copy(seed: int) -> None:
    """Held-out boards under a strong wide lens (fitted k 0.29 and 0.23; stripes, a shadow band), which every
    straight-line stage missed with OpenCV 5.0 (l24): on the work copy straightened through the guessed
    lenses (``LocateConfig.lens_last``) an answer refines onto the board, and it is the most separating one
    (on 5410127 a lens near the board's places another grid that refines 0.3 tile off above the bar)."""
    from tests.support.holdout_render import random_holdout_scene
    from vision.locate import _lens_quads
    from vision.locate_refine import refine_corners

    image, label = random_holdout_scene(seed)
    cfg = LocateConfig()
    factor = max(1, int(max(image.shape[:2]) / cfg.work_px + 0.5))
    work = block_average(image, factor)
    quads = _lens_quads(image, work, factor, cfg)
    best = max((refine_corners(image, order_corners(q), cfg, (factor, work)) for q in quads), key=lambda r: r[1])
    truth = np.array(label["corners"], dtype=np.float64)
    pitch = float(np.mean(np.linalg.norm(truth - np.roll(truth, 1, axis=0), axis=1))) / 7.0
    assert corner_error(order_corners(best.corners), label) < 0.1 * pitch
    assert best.separation >= cfg.second_opinion_separation and best.k > 0.15
