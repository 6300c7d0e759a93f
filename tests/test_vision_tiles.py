"""Rectification and tile openings: geometry conventions, decoding, and real accuracy on rendered photos."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import pytest

from companion.board import FIXED_TILES, SIZE, Tile
from vision.rectify import Rectified, rectify, rectify_homography
from vision.render import random_scene
from vision.tiles import (
    GOOD_GRID_QUALITY,
    TilesConfig,
    decode,
    grid_quality,
    read_tiles,
    sharper_where_typical,
    tiles_for_lighting,
    view_bands,
)


@cache
def scene(seed: int, look: str, lighting: str = "day", size: tuple[int, int] = (1280, 960)):
    image, label = random_scene(seed, look=look, lighting=lighting, size=size)
    image.setflags(write=False)
    return image, label


def truth(label: dict) -> list[str]:
    return [t for row in label["tiles"] for t in row]


def pawn_squares(label: dict) -> set[tuple[int, int]]:
    return {tuple(sq) for sq in label["pawns"].values()}


def wrong(readings, label) -> list[tuple[int, int, str, str]]:
    return [
        (i // SIZE, i % SIZE, str(r.openings), t)
        for i, (r, t) in enumerate(zip(readings, truth(label), strict=True))
        if str(r.openings) != t
    ]


# --------------------------------------------------------------------------- rectify


def test_rectify_maps_corners_onto_the_tile_area_boundary() -> None:
    image = np.zeros((400, 500, 3), np.uint8)
    corners = [[100.0, 50.0], [400.0, 60.0], [390.0, 360.0], [90.0, 350.0]]
    rect = rectify(image, corners, tile_px=32, margin=0.25)
    assert rect.margin_px == 8
    assert rect.image.shape == (7 * 32 + 16, 7 * 32 + 16, 3)
    lo, hi = 8 - 0.5, 8 + 7 * 32 - 0.5
    np.testing.assert_allclose(rect.to_rect(corners), [[lo, lo], [hi, lo], [hi, hi], [lo, hi]], atol=1e-9)
    pts = np.array([[17.25, 40.5], [200.0, 199.0]])
    np.testing.assert_allclose(rect.to_rect(rect.to_image(pts)), pts, atol=1e-9)
    assert rect.tile_box(0, 0) == (8, 8, 40, 40)
    assert rect.tile_box(6, 6) == (8 + 192, 8 + 192, 8 + 224, 8 + 224)
    assert rect.tiles_array().shape == (7, 7, 32, 32, 3)
    assert rect.image_shape == (400, 500)


def test_rectify_samples_the_right_pixels() -> None:
    # An image whose pixel value is its x coordinate: the view must sample exactly where the homography says.
    image = np.tile(np.arange(256, dtype=np.uint8), (200, 1))
    corners = [[30.0, 20.0], [230.0, 25.0], [225.0, 180.0], [35.0, 175.0]]
    rect = rectify(image, corners, tile_px=16, margin=0.0)
    ys, xs = np.mgrid[0 : rect.size : 9, 0 : rect.size : 9]
    src = rect.to_image(np.column_stack([xs.ravel(), ys.ravel()]).astype(float))
    np.testing.assert_allclose(rect.image[ys.ravel(), xs.ravel()], src[:, 0], atol=1.0)


def test_rectify_rejects_bad_input() -> None:
    image = np.zeros((50, 50, 3), np.uint8)
    with pytest.raises(ValueError):
        rectify(image, [[0, 0], [1, 1], [2, 2]])
    with pytest.raises(ValueError):
        rectify(image, [[0, 0], [10, 0], [10, np.nan], [0, 10]])
    with pytest.raises(ValueError):
        rectify_homography([[0, 0], [10, 0], [10, 10], [0, 10]], tile_px=1)
    with pytest.raises(ValueError):
        rectify(image, [[0, 0], [10, 0], [10, 10], [0, 10]]).tile_box(7, 0)


# --------------------------------------------------------------------------- decoding


def test_decode_only_returns_valid_shapes() -> None:
    rng = np.random.default_rng(3)
    prob = rng.uniform(0, 1, (500, 4))
    prob[:50] = 0.99  # all four sides look open: still a valid shape (a T)
    prob[50:100] = 0.01  # nothing open: a valid shape too
    shapes, conf = decode(prob)
    valid = {int(t) for t in Tile}
    assert all(int(s) in valid for s in shapes)
    assert np.all((conf > 0) & (conf <= 1))


def test_decode_follows_clear_evidence() -> None:
    for tile in Tile:
        prob = np.array([0.97 if tile & bit else 0.03 for bit in (1, 2, 4, 8)])
        shapes, conf = decode(prob)
        assert int(shapes) == int(tile)
        assert conf > 0.8


def test_the_shape_follows_the_less_closed_side_past_the_published_floor() -> None:
    # North clearly open; east closed-looking but far less so than south and west. Both
    # are past the published edges' floor; the shape is chosen on the lower floor, so the
    # tile is the corner N+E, not the straight N+S that the inventory prior would prefer.
    from vision.tile_decode import shape_prior
    from vision.tiles import DEFAULT_CONFIG, _side_probabilities

    logit = np.full((SIZE, SIZE, 4), -20.0)
    logit[..., 0], logit[..., 1] = 10.0, -6.0
    none = np.zeros((SIZE, SIZE), dtype=bool)
    published = _side_probabilities(logit, none, DEFAULT_CONFIG.prob_floor, DEFAULT_CONFIG)
    assert published[1, 1, 1] == published[1, 1, 2]  # the published edges cannot tell them apart
    fine = _side_probabilities(logit, none, DEFAULT_CONFIG.decode_floor, DEFAULT_CONFIG)
    shapes, _ = decode(fine, shape_prior(DEFAULT_CONFIG.fixed_prior))
    assert shapes[1, 1] == Tile.parse("NE")


def test_sides_past_the_old_floor_but_within_the_band_limit_keep_their_order() -> None:
    # West closed at -7 (a doubtful band), south at -10 (the band limit): both once tied
    # at the decode floor (log-odds 6.9) and the inventory prior chose the straight N+S.
    from vision.tile_decode import shape_prior
    from vision.tiles import DEFAULT_CONFIG, _side_probabilities

    logit = np.full((SIZE, SIZE, 4), -10.0)
    logit[..., 0], logit[..., 3] = 10.0, -7.0
    none = np.zeros((SIZE, SIZE), dtype=bool)
    fine = _side_probabilities(logit, none, DEFAULT_CONFIG.decode_floor, DEFAULT_CONFIG)
    shapes, _ = decode(fine, shape_prior(DEFAULT_CONFIG.fixed_prior))
    assert shapes[1, 1] == Tile.parse("NW")


# --------------------------------------------------------------------------- rendered photos

DAY = [(11, "classic"), (12, "dark"), (13, "hedge"), (14, "bright"), (15, "wizard"), (16, "glow")]


@pytest.mark.parametrize(("seed", "look"), DAY)
def test_all_tiles_right_on_day_photos_at_the_labelled_corners(seed: int, look: str) -> None:
    image, label = scene(seed, look)
    rect = rectify(image, label["corners"], tile_px=48)
    pawns = pawn_squares(label)
    readings = read_tiles(rect, exclude=pawns)
    assert len(readings) == 49
    errors = wrong(readings, label)
    assert [e for e in errors if (e[0], e[1]) not in pawns] == []
    assert len(errors) <= 1  # a pawn (or two) can hide a side completely
    # Fixed squares decode to their known shapes and the rest are confident.
    for (r, c), tile in FIXED_TILES.items():
        assert readings[r * SIZE + c].openings == tile
    assert np.median([t.confidence for t in readings]) > 0.9


@pytest.mark.parametrize(("seed", "look"), [(21, "classic"), (22, "glow"), (23, "hedge")])
def test_night_photos_read_nearly_all_tiles(seed: int, look: str) -> None:
    image, label = scene(seed, look, "night")
    rect = rectify(image, label["corners"], tile_px=48)
    readings = read_tiles(rect, exclude=pawn_squares(label))
    assert len(wrong(readings, label)) <= 1


def test_the_model_is_learned_not_assumed() -> None:
    # Negate and permute the colours: corridors become dark, walls bright, hues change.
    # A model learned from the fixed tiles reads the same board.
    image, label = scene(11, "classic")
    flipped = np.ascontiguousarray(255 - image[:, :, ::-1])
    rect = rectify(flipped, label["corners"], tile_px=48)
    assert wrong(read_tiles(rect, exclude=pawn_squares(label)), label) == []


def _shadow_bands(image: np.ndarray, period: float, width: float, depth: float, angle: float) -> np.ndarray:
    """The photo under soft-edged stripes of shadow (a window frame's, a lamp arm's): light times 1 - depth."""
    h, w = image.shape[:2]
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    band = (np.mod(x * np.cos(angle) + y * np.sin(angle), period) < width).astype(np.float32)
    gain = 1.0 - depth * cv2.GaussianBlur(band, (0, 0), 3)
    return np.clip(image.astype(np.float32) * gain[..., None], 0, 255).astype(np.uint8)


def test_shadow_bands_across_tiles_do_not_change_the_reading() -> None:
    # Dark corridors on a light board: a shadow edge across a wall makes it as dark as
    # corridor; its colour (chroma over lightness) stays the wall's. (Without the
    # shade-free chroma features this frame had 3 tiles wrong.)
    image, label = scene(12, "dark")
    shaded = _shadow_bands(image, period=170, width=60, depth=0.55, angle=0.6)
    rect = rectify(shaded, label["corners"], tile_px=48)
    pawns = pawn_squares(label)
    assert [e for e in wrong(read_tiles(rect, exclude=pawns), label) if (e[0], e[1]) not in pawns] == []


def test_grid_quality_separates_right_and_wrong_geometry() -> None:
    image, label = scene(12, "dark")
    corners = np.array(label["corners"])
    good = grid_quality(rectify(image, corners))
    pitch = np.linalg.norm(corners[1] - corners[0]) / 7
    half = grid_quality(rectify(image, corners + np.array([0.5, 0.5]) * pitch))
    one = grid_quality(rectify(image, corners + np.array([1.0, 0.0]) * pitch))
    assert good > GOOD_GRID_QUALITY
    assert half < 0.8 < GOOD_GRID_QUALITY
    assert one < 0.8


def test_shared_band_features_give_the_same_readings_and_quality() -> None:
    # The reader computes a view's features once for its tile read and its grid quality.
    image, label = scene(13, "hedge")
    corners = np.array(label["corners"])
    cfg = TilesConfig(edge_hi=0.2)
    for rect in (rectify(image, corners), rectify(image, corners + 9.0)):
        for config in (None, cfg):
            bands = view_bands(rect, config)
            exclude = {(1, 1), (3, 4)}
            assert read_tiles(rect, config, exclude, bands=bands) == read_tiles(rect, config, exclude)
            assert grid_quality(rect, config, bands=bands) == grid_quality(rect, config)
    other = view_bands(rect, cfg)
    assert not np.array_equal(other.usual, view_bands(rect).usual)  # the config does place the bands


def test_excluded_squares_do_not_teach_the_model() -> None:
    # Paint over four fixed tiles; excluded, they cannot spoil what the others teach.
    image, label = scene(13, "hedge")
    rect = rectify(image, label["corners"], tile_px=48)
    painted = rect.image.copy()
    covered = {(0, 0), (2, 2), (4, 4), (6, 6)}
    for r, c in covered:
        x0, y0, x1, y1 = rect.tile_box(r, c)
        painted[y0:y1, x0:x1] = (30, 200, 250)
    spoiled = Rectified(painted, rect.tile_px, rect.margin_px, rect.homography, rect.corners, rect.image_shape)
    readings = read_tiles(spoiled, exclude=covered | pawn_squares(label))
    assert len([w for w in wrong(readings, label) if (w[0], w[1]) not in covered]) <= 1
    # Their own evidence is weak: no side of a painted square is called with certainty.
    for r, c in covered:
        assert max(abs(p - 0.5) for p in readings[r * SIZE + c].edges) < 0.5


def test_greyscale_and_small_views_still_read() -> None:
    # Grey keeps what brightness tells (the classic look's white corridors); colour-only
    # differences (green hedges on yellow sand) need the colour photo.
    image, label = scene(11, "classic")
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    rect = rectify(grey, label["corners"], tile_px=32)
    assert len(wrong(read_tiles(rect, TilesConfig(), exclude=pawn_squares(label)), label)) <= 2


def test_grid_quality_folds_are_the_leave_one_tile_out_models() -> None:
    # The closed-form folds give exactly what fitting 16 models one by one gives.
    from dataclasses import replace

    from vision.tile_features import FIXED_EDGES, FIXED_OPEN
    from vision.tile_model import held_out
    from vision.tiles import DEFAULT_CONFIG, edge_features, fit_model

    image, label = scene(16, "glow")
    corners = np.array(label["corners"])
    for offset in (0.0, 0.3):
        rect = rectify(image, corners + offset * np.linalg.norm(corners[1] - corners[0]) / 7)
        known = edge_features(rect, shade_free=True)[FIXED_EDGES[:, 0], FIXED_EDGES[:, 1], FIXED_EDGES[:, 2]]
        logits, _ = held_out(known, replace(DEFAULT_CONFIG, band_logit_limit=np.inf))
        expected = []
        for tile in range(16):
            held = np.arange(64) // 4 == tile
            model = fit_model(known[~held], FIXED_OPEN[~held])
            mid = 0.5 * (model.mean_open + model.mean_closed)
            gain = (model.mean_open - model.mean_closed) / model.spread**2
            expected.extend(gain * (known[held] @ model.weights - mid))
        np.testing.assert_allclose(logits, expected, rtol=1e-6, atol=1e-6)


def _with(rect: Rectified, image: np.ndarray) -> Rectified:
    return Rectified(image, rect.tile_px, rect.margin_px, rect.homography, rect.corners, rect.image_shape)


def test_large_pictures_give_way_to_the_border_band() -> None:
    # Pictures 0.75 of a tile across hide the usual edge regions (a colour that is neither corridor nor
    # wall): the band along the border still shows which, and the tiles still read.
    image, label = scene(14, "bright")
    rect = rectify(image, label["corners"], tile_px=48)
    painted = rect.image.copy()
    t = rect.tile_px
    squares = [(1, 1), (1, 3), (3, 1), (3, 5), (5, 3), (5, 5), (2, 4), (4, 2)]
    for r, c in squares:
        x0, y0, _, _ = rect.tile_box(r, c)
        cv2.circle(painted, (x0 + t // 2, y0 + t // 2), round(0.75 * t / 2), (200, 40, 220), -1)
    readings = read_tiles(_with(rect, painted), exclude=pawn_squares(label))
    assert [w for w in wrong(readings, label) if (w[0], w[1]) in squares] == []


def test_large_pictures_on_fixed_tiles_keep_a_right_grid_good() -> None:
    # The twelve fixed tiles with treasures get pictures reaching into the usual edge regions.
    image, label = scene(14, "bright")
    rect = rectify(image, label["corners"], tile_px=48)
    painted = rect.image.copy()
    t = rect.tile_px
    for r, c in [(0, 2), (0, 4), (2, 0), (2, 2), (2, 4), (2, 6), (4, 0), (4, 2), (4, 4), (4, 6), (6, 2), (6, 4)]:
        x0, y0, _, _ = rect.tile_box(r, c)
        cv2.circle(painted, (x0 + t // 2, y0 + t // 2), round(0.75 * t / 2), (200, 40, 220), -1)
    assert grid_quality(_with(rect, painted)) > GOOD_GRID_QUALITY


def test_the_sharper_of_two_typical_bands_judges_a_known_edge() -> None:
    # A shadow flattening the usual band (+0.5) or a picture's rim making it wrong (-3.3) against a
    # sharp border band: the border band decides; where either band looks like neither class, the
    # combined read stands. The choice never looks at the known side.
    from vision.tile_model import Band, TileModel

    model = TileModel(np.zeros(1), 1.0, 0.0, 1.0)
    usual = Band(model, np.array([-3.3, 0.5, -6.0, 1.0, 4.0]), np.array([0.9, 0.9, 0.9, 0.2, 0.6]))
    outer = Band(model, np.array([8.7, 2.8, -4.0, -5.0, -2.0]), np.array([0.8, 0.9, 0.3, 0.9, 0.5]))
    combined = np.full(5, -1.0)
    assert sharper_where_typical(usual, outer, combined).tolist() == [8.7, 2.8, -1.0, -1.0, 4.0]


def test_an_object_over_both_bands_of_fixed_tiles_still_fails_the_grid() -> None:
    # A flat grey object over four fixed tiles covers both bands: the sharper band is as wrong.
    image, label = scene(13, "hedge")
    rect = rectify(image, label["corners"], tile_px=48)
    covered = rect.image.copy()
    for r, c in [(0, 0), (0, 2), (2, 0), (2, 2)]:
        x0, y0, x1, y1 = rect.tile_box(r, c)
        covered[y0:y1, x0:x1] = (150, 170, 190)
    assert grid_quality(rect) > GOOD_GRID_QUALITY
    assert grid_quality(_with(rect, covered)) < 0.8


def test_grid_quality_honours_the_readers_tile_settings() -> None:
    # A published floor of 0.2 caps every known edge's agreement at 0.8: the reader's grid
    # quality must come out under that, which it cannot with the default settings.
    from vision.reader import BoardReader, ReaderConfig

    image, label = scene(11, "classic")
    default = BoardReader().read_detailed(image, corners=label["corners"]).grid_quality
    assert default is not None and default > GOOD_GRID_QUALITY
    floored = ReaderConfig(tiles=TilesConfig(prob_floor=0.2))
    quality = BoardReader(floored).read_detailed(image, corners=label["corners"]).grid_quality
    assert quality is not None and quality <= 0.8 + 1e-9


def test_self_training_keeps_every_tile_on_a_clean_photo_and_fixes_some_elsewhere() -> None:
    # The second pass learns from the movable tiles the first read is sure of: on a clean
    # rendered board it must not break a tile the fixed tiles alone read right.
    image, label = scene(13, "hedge")
    rect = rectify(image, label["corners"], tile_px=48)
    pawns = pawn_squares(label)
    once = read_tiles(rect, TilesConfig(self_train_confidence=0.0), exclude=pawns)
    twice = read_tiles(rect, exclude=pawns)
    assert len(wrong(twice, label)) <= len(wrong(once, label))
    assert len(wrong(twice, label)) <= 1


def _pictures_toward_an_open_side(rect: Rectified, label: dict, offset: float, radius: float) -> np.ndarray:
    """The view with a magenta disc on every movable tile, pushed from the centre toward its first open side."""
    painted = rect.image.copy()
    t = rect.tile_px
    for r in range(SIZE):
        for c in range(SIZE):
            if (r, c) in FIXED_TILES:
                continue
            dx, dy = [(0, -1), (1, 0), (0, 1), (-1, 0)]["NESW".index(label["tiles"][r][c][0])]
            x0, y0, _, _ = rect.tile_box(r, c)
            centre = (round(x0 + t / 2 + dx * offset * t), round(y0 + t / 2 + dy * offset * t))
            cv2.circle(painted, centre, round(radius * t), (200, 40, 220), -1)
    return painted


def test_pixels_unlike_wall_and_corridor_are_left_out_of_the_sides() -> None:
    # The board mask learns wall and corridor from the fixed tiles: a magenta picture is
    # not board, the unpainted board nearly all is (wood grain, speckles and shading included).
    # Nearly all: 0.97-0.99 of the judged pixels; the wizard scene's glare spots (chroma washed out) are left
    # out too, 2.8 % of them with OpenCV 5.0 and 3.1 % with 4.14 (their renders' edges differ by a hair), so
    # the bar sits under that; a mask too tight to keep the board (foreign_sigma halved: 0.89-0.90 on the
    # hedge and wizard scenes; learned from the walls alone: 0.67) still fails it.
    from vision.tile_features import DEFAULT_CONFIG, _board_mask, _sampled_pixels, _tiles_lab

    for seed, look in [(12, "dark"), (13, "hedge"), (15, "wizard")]:
        image, label = scene(seed, look)
        rect = rectify(image, label["corners"], tile_px=48)
        painted = _pictures_toward_an_open_side(rect, label, 0.25, 0.15)
        view = _with(rect, painted)
        judged = _sampled_pixels(rect.tile_px, rect.margin_px, painted.shape[1], DEFAULT_CONFIG)[0]  # box pixels
        mask = _board_mask(_tiles_lab(view), view, DEFAULT_CONFIG).ravel()[judged].astype(bool)
        picture = np.all(painted == (200, 40, 220), axis=2).ravel()[judged]
        clean = _board_mask(_tiles_lab(rect), rect, DEFAULT_CONFIG).ravel()[judged].astype(bool)
        assert picture.sum() > 1000
        assert (~mask[picture]).mean() > 0.95
        assert clean.mean() > 0.96


def test_pictures_reaching_into_a_side_do_not_close_it() -> None:
    image, label = scene(12, "dark")
    rect = rectify(image, label["corners"], tile_px=48)
    view = _with(rect, _pictures_toward_an_open_side(rect, label, 0.25, 0.15))
    pawns = pawn_squares(label)
    assert wrong(read_tiles(view, exclude=pawns, bands=view_bands(view)), label) == []


def _movable_ts_without_pawns(label: dict) -> list[tuple[int, int, str]]:
    """(row, column, openings) of every movable T-shaped tile no labelled pawn stands on."""
    pawns = pawn_squares(label)
    return [
        (r, c, label["tiles"][r][c])
        for r in range(SIZE)
        for c in range(SIZE)
        if (r, c) not in FIXED_TILES and len(label["tiles"][r][c]) == 3 and (r, c) not in pawns
    ]


def _cast_shadows(rect: Rectified, label: dict, depth: float) -> tuple[Rectified, list[tuple[int, int]]]:
    """The view with a soft dark disc (a pawn's cast shadow) over the first open arm of every movable T."""
    t, m = rect.tile_px, rect.margin_px
    gain = np.ones(rect.image.shape[:2], np.float32)
    squares = []
    for r, c, shape in _movable_ts_without_pawns(label):
        dx, dy = [(0, -1), (1, 0), (0, 1), (-1, 0)]["NESW".index(shape[0])]
        centre = (int(m + (c + 0.5 + 0.3 * dx) * t), int(m + (r + 0.5 + 0.3 * dy) * t))
        cv2.circle(gain, centre, int(0.3 * t), 1.0 - depth, -1)
        squares.append((r, c))
    gain = cv2.GaussianBlur(gain, (0, 0), 2)
    return _with(rect, np.clip(rect.image * gain[..., None], 0, 255).astype(np.uint8)), squares


def test_a_pawns_cast_shadow_does_not_close_an_open_side() -> None:
    # A shadow over a T's open arm makes the corridor darker than the wall: read on the
    # full features it closes; near the pawns that stood there (``pawns_on``) the side is
    # read on the shadow-invariant chroma and stays open. (The inventory check is left out:
    # a board whose every movable T lost an arm has too few Ts, which it alone would mend.)
    image, label = scene(16, "classic")
    view, squares = _cast_shadows(rectify(image, label["corners"], tile_px=48), label, 0.55)
    cfg = TilesConfig(inventory=False)
    shadowed = {(r, c) for r, c, *_ in wrong(read_tiles(view, cfg), label)} & set(squares)
    assert len(shadowed) >= 3  # the frame does show the problem
    fixed = {(r, c) for r, c, *_ in wrong(read_tiles(view, cfg, pawns_on=squares), label)} & set(squares)
    assert len(fixed) <= 1


@pytest.mark.parametrize("look", ["classic", "bright"])
def test_a_shadow_darkening_a_corridor_to_the_walls_lightness_does_not_close_it(look: str) -> None:
    # A lighter shadow leaves the arm no darker than the wall, so the darkness gate keeps the
    # full read, which calls it wall; the chroma of both bands still says corridor, and only
    # a shadow makes corridor look like wall (it darkens, never lightens).
    image, label = scene(16, look)
    view, squares = _cast_shadows(rectify(image, label["corners"], tile_px=48), label, 0.35)
    # (Without the inventory check, which alone would mend a board whose every T lost an arm.)
    gate_only = TilesConfig(shadow_explains=False, inventory=False)
    closed = {(r, c) for r, c, *_ in wrong(read_tiles(view, gate_only, pawns_on=squares), label)} & set(squares)
    assert len(closed) >= 3  # the frame does show the problem
    assert wrong(read_tiles(view, TilesConfig(inventory=False), pawns_on=squares), label) == []


def test_band_votes_far_past_the_cap_keep_their_order() -> None:
    # Two closed-looking sides far past the band cap: both votes stay within the cap, but
    # the farther one stays the more closed (a hard clip made them equal).
    from vision.tile_features import FIXED_EDGES, FIXED_OPEN
    from vision.tile_model import read_band

    rng = np.random.default_rng(3)
    feats = rng.normal(0.0, 1.0, (SIZE, SIZE, 4, 2))
    feats[FIXED_EDGES[:, 0], FIXED_EDGES[:, 1], FIXED_EDGES[:, 2], 0] += np.where(FIXED_OPEN, 10.0, 0.0)
    feats[1, 1, 2, 0], feats[1, 1, 3, 0] = -30.0, -60.0
    band = read_band(feats, np.zeros((SIZE, SIZE), dtype=bool), TilesConfig())
    limit = TilesConfig().band_logit_limit
    assert -limit <= band.logit[1, 1, 3] < band.logit[1, 1, 2] < -0.9 * limit


def test_the_covered_share_has_no_jump_at_zero() -> None:
    # Three sides open under a picture and a fourth just past either way: the same tile, the
    # same down-weighting of its usual band (a yes/no rule at 0 flipped between 1 and 0).
    from vision.tiles import covered_share

    logit = np.full((SIZE, SIZE, 4), -9.0)
    logit[0, 0] = (9.0, 9.0, 9.0, 0.4)
    logit[0, 1] = (9.0, 9.0, 9.0, -0.4)
    logit[0, 2] = (9.0, 9.0, 9.0, 9.0)
    share = covered_share(logit)
    assert abs(share[0, 0] - share[0, 1]) < 0.25
    assert share[0, 2] > 0.99 and share[1, 1] < 1e-6


def test_a_washed_out_region_is_read_against_its_own_classes() -> None:
    # Columns 4-6 under glare: an open side stands only 3 above a wall there, 10 elsewhere.
    # The board-wide midpoint closes many of them; the classes learned near them do not.
    from vision.tile_features import FIXED_EDGES, FIXED_OPEN
    from vision.tile_model import read_band

    rng = np.random.default_rng(5)
    is_open = rng.random((SIZE, SIZE, 4)) < 0.55
    is_open[FIXED_EDGES[:, 0], FIXED_EDGES[:, 1], FIXED_EDGES[:, 2]] = FIXED_OPEN
    contrast = np.where(np.arange(SIZE) >= 4, 3.0, 10.0)[None, :, None]
    feats = rng.normal(0.0, 0.4, (SIZE, SIZE, 4, 2))
    feats[..., 0] += is_open * contrast
    none = np.zeros((SIZE, SIZE), dtype=bool)
    washed = np.zeros((SIZE, SIZE, 4), dtype=bool)
    washed[:, 4:] = True

    def right(cfg: TilesConfig) -> float:
        band = read_band(feats, none, cfg)
        return float(((band.logit > 0) == is_open)[washed].mean())

    assert right(TilesConfig()) > 0.9
    assert right(TilesConfig(local_sigma=0.0)) < 0.8


def test_a_tile_whose_four_sides_look_closed_is_read_against_itself() -> None:
    # Glare flattens a T: its three openings at -1, -1.5, -2 and its wall at -6. Every side
    # looks closed; read against each other, the three least closed are the openings.
    from vision.tiles import _washed_out_relative

    logit = np.full((SIZE, SIZE, 4), -9.0)
    logit[..., 0] = 9.0
    logit[1, 1] = (-1.0, -1.5, -2.0, -6.0)
    logit[1, 3] = (-1.0, -1.5, -5.5, -6.0)
    none = np.zeros((SIZE, SIZE), dtype=bool)
    choose = _washed_out_relative(logit, none)
    assert (choose[1, 1] > 0).tolist() == [True, True, True, False]
    assert (choose[1, 3] > 0).tolist() == [True, True, False, False]
    assert np.array_equal(choose[2, 2], logit[2, 2])  # a tile with an open-looking side is left as it is


def test_a_gap_along_a_tiles_border_does_not_open_its_side() -> None:
    # Displaced tiles leave gaps along their borders; where the corridor is the darker surface
    # a dark gap looks like corridor to the band hugging the border. Painted along the whole
    # border of closed sides, it darkens the wall at that side's ends too, and the sides stay closed.
    image, label = scene(12, "glow")  # glowing walls, dark corridors
    rect = rectify(image, label["corners"], tile_px=48)
    t, m = rect.tile_px, rect.margin_px
    painted = rect.image.copy()
    # the corridor's colour: the open east side of the fixed corner tile at (0, 0)
    gap = rect.image[m + t // 2 - 3 : m + t // 2 + 3, m + t - 8 : m + t - 3].reshape(-1, 3).mean(axis=0)
    closed = [(r, c) for r in range(1, SIZE - 1) for c in range(1, SIZE - 1)
              if (r, c) not in FIXED_TILES and "W" not in truth(label)[r * SIZE + c]][:8]
    assert len(closed) >= 5
    for r, c in closed:
        x0, y0, _, _ = rect.tile_box(r, c)
        painted[y0 : y0 + t, x0 : x0 + 4] = gap
    view = _with(rect, painted)

    def west(cfg: TilesConfig) -> np.ndarray:
        readings = read_tiles(view, cfg, exclude=pawn_squares(label))
        return np.array([readings[r * SIZE + c].edges[3] for r, c in closed])

    assert west(tiles_for_lighting(None, "night")).max() < 0.1
    # Against the corner boxes (by day) the colours are in doubt; the line structure (tile_lines),
    # read in a frame with doubtful tiles, sees no arm's edges there and keeps them closed too.
    assert west(TilesConfig(line_weight=0.0)).mean() > 0.3
    assert west(TilesConfig()).max() < 0.1


def _outline_board(label: dict, fill_step: float, seed: int) -> Rectified:
    """A pale outline edition under glare: corridor and wall almost one colour, the corridors' borders drawn."""
    t, m = 48, 12
    size = 2 * m + SIZE * t
    corridor = np.zeros((size, size), dtype=np.uint8)
    a, b = t // 3, t - t // 3
    for i, shape in enumerate(truth(label)):
        x0, y0 = m + (i % SIZE) * t, m + (i // SIZE) * t
        corridor[y0 + a : y0 + b, x0 + a : x0 + b] = 1
        arms = {"N": (a, 0, b, b), "E": (a, a, t, b), "S": (a, a, b, t), "W": (0, a, b, b)}
        for side in shape:
            ax0, ay0, ax1, ay1 = arms[side]
            corridor[y0 + ay0 : y0 + ay1, x0 + ax0 : x0 + ax1] = 1
    rng = np.random.default_rng(seed)
    grey = 215.0 + fill_step * corridor + rng.normal(0.0, 4.0, corridor.shape)
    line = cv2.dilate(corridor, np.ones((3, 3), np.uint8)) - corridor  # a drawn line just outside the corridor
    grey[line > 0] = 150.0
    image = cv2.cvtColor(np.clip(grey, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)
    image[:m] = image[-m:] = image[:, :m] = image[:, -m:] = 0
    return Rectified(image, t, m, np.eye(3), np.zeros((4, 2)))


def test_outline_artwork_under_glare_reads_on_its_drawn_lines() -> None:
    # Glare flattens the fills of an outline edition (corridor 0.5 levels above the wall, noise 4):
    # the colour bands alone lose many tiles (20-26); the arms' drawn borders still tell them.
    _, label = scene(21, "classic")
    view = _outline_board(label, 0.5, 3)
    with_lines = wrong(read_tiles(view, TilesConfig()), label)
    without = wrong(read_tiles(view, TilesConfig(line_weight=0.0)), label)
    assert len(without) >= 10
    assert len(with_lines) <= 1


def _wall_smears(rect: Rectified, label: dict) -> tuple[Rectified, np.ndarray, list[tuple[int, int]]]:
    """The view with the tile's wall colour painted over the inner part (0.10-0.25 of a tile from
    the border) of every movable T's first open arm, as inpainting smears wall over a pawn-hidden arm;
    and the painted pixels (the pawn that stood there) and the squares."""
    t, m = rect.tile_px, rect.margin_px
    image = rect.image.copy()
    hidden = np.zeros(image.shape[:2], dtype=bool)
    squares = []
    for r, c, shape in _movable_ts_without_pawns(label):
        x0, y0 = m + c * t, m + r * t
        wall = np.median(image[y0 + 4 : y0 + 10, x0 + 4 : x0 + 10].reshape(-1, 3), axis=0)
        a, b, lo, hi = int(0.3 * t), int(0.7 * t), int(0.1 * t), int(0.25 * t)
        boxes = [(a, lo, b, hi), (t - hi, a, t - lo, b), (a, t - hi, b, t - lo), (lo, a, hi, b)]
        bx0, by0, bx1, by1 = boxes["NESW".index(shape[0])]
        image[y0 + by0 : y0 + by1, x0 + bx0 : x0 + bx1] = wall
        hidden[y0 + by0 : y0 + by1, x0 + bx0 : x0 + bx1] = True
        squares.append((r, c))
    return _with(rect, image), hidden, squares


def _covering(hidden: np.ndarray) -> list:
    from companion.board import Color
    from vision.pawns import PawnDetection

    h, w = hidden.shape
    return [PawnDetection(Color.RED, (0, 0), 1.0, (0.0, 0.0), (0, 0, w, h), float(hidden.sum()), hidden)]


def test_visible_shares_are_the_uncovered_part_of_each_sides_boxes() -> None:
    from vision.tile_features import DEFAULT_CONFIG
    from vision.tile_hidden import visible_shares

    image, label = scene(11, "classic")
    rect = rectify(image, label["corners"], tile_px=48)
    t, m = rect.tile_px, rect.margin_px
    hidden = np.zeros(rect.image.shape[:2], dtype=bool)
    hidden[m + 3 * t : m + 3 * t + t // 2, m + 2 * t : m + 3 * t] = True  # the top half of tile (3, 2)
    usual, outer = visible_shares(rect, _covering(hidden), DEFAULT_CONFIG)
    for share in (usual, outer):
        assert share.shape == (SIZE, SIZE, 4)
        assert share[3, 2, 0] == 0.0  # N: under the pawn
        assert share[3, 2, 2] == 1.0  # S: seen
        assert 0.2 < share[3, 2, 1] < 0.8 and 0.2 < share[3, 2, 3] < 0.8  # E, W: half way along
        untouched = np.ones((SIZE, SIZE), dtype=bool)
        untouched[3, 2] = False
        assert (share[untouched] == 1.0).all()


def test_sides_a_pawn_covered_rest_on_what_was_seen() -> None:
    # Inpainting smears wall over the inner part of an arm a tall pawn hid: read as seen it
    # closes; with the pawn's pixels counting little, the strip along the border still seen
    # (and the tile's other sides) keep it open.
    from vision.tile_features import DEFAULT_CONFIG
    from vision.tile_hidden import visible_shares

    # (Without the inventory check, which alone would mend a board whose every T lost an arm.)
    image, label = scene(11, "classic")
    view, hidden, squares = _wall_smears(rectify(image, label["corners"], tile_px=48), label)
    bands = view_bands(view)
    cfg = TilesConfig(inventory=False)
    closed = {(r, c) for r, c, *_ in wrong(read_tiles(view, cfg, bands=bands), label)} & set(squares)
    assert len(closed) >= 3  # the frame does show the problem
    visible = visible_shares(view, _covering(hidden), DEFAULT_CONFIG)
    kept = {(r, c) for r, c, *_ in wrong(read_tiles(view, cfg, bands=bands, visible=visible), label)} & set(squares)
    assert len(kept) <= 1
    # Nothing covered: the same reading as without.
    seen = (np.ones((SIZE, SIZE, 4)), np.ones((SIZE, SIZE, 4)))
    assert read_tiles(view, bands=bands, visible=seen) == read_tiles(view, bands=bands)
