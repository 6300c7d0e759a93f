"""Pawns on rendered boards: found on their squares, not invented, colour model from calibration."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from functools import cache

import numpy as np
import pytest

from companion.board import Color, Tile, random_setup
from companion.observation import TileReading
from vision.order_stats import median, percentiles
from vision.pawn_candidates import _light_reference
from vision.pawn_features import group_medians
from vision.pawn_light import light_map, relit
from vision.pawns import (
    FEATURES,
    ColourModel,
    PawnConfig,
    candidates,
    confidence,
    erase,
    find_pawns,
    learn_colour_model,
)
from vision.rectify import Rectified, rectify
from vision.render import render_photo
from vision.tiles import read_tiles

SIZE = (1280, 960)


@cache
def _scene(seed: int, look: str, pawns: tuple[tuple[str, int, int], ...]) -> tuple[Rectified, np.ndarray, dict]:
    board, _ = random_setup(random.Random(seed))
    board = board.with_pawns({Color(c): (r, k) for c, r, k in pawns})
    image, label = render_photo(board, seed=seed, look=look, size=SIZE)
    rect = rectify(image, label["corners"], tile_px=48, margin=0.75)
    camera = rect.to_rect([(image.shape[1] / 2.0, image.shape[0] / 2.0)])[0]
    return rect, camera, label


CASES = [
    (11, "classic", (("red", 0, 0), ("yellow", 0, 6), ("green", 6, 6), ("blue", 6, 0))),
    (12, "hedge", (("green", 3, 3), ("yellow", 1, 4), ("red", 5, 2))),
    (13, "dark", (("blue", 2, 5), ("red", 2, 5), ("yellow", 4, 1))),
    (14, "bright", (("yellow", 3, 1), ("green", 5, 5))),
]


@pytest.mark.parametrize(("seed", "look", "pawns"), CASES)
def test_pawns_found_on_their_squares(seed: int, look: str, pawns: tuple) -> None:
    rect, camera, label = _scene(seed, look, pawns)
    found = find_pawns(rect, read_tiles(rect), camera=camera)
    assert {d.color.value: list(d.square) for d in found} == label["pawns"]
    assert all(PawnConfig().min_confidence <= d.confidence <= 1.0 for d in found)
    assert len({d.color for d in found}) == len(found)  # at most one per colour


@pytest.mark.parametrize(("seed", "look"), [(21, "classic"), (22, "bright"), (23, "hedge")])
def test_no_pawn_invented_on_a_colourful_board(seed: int, look: str) -> None:
    rect, camera, _ = _scene(seed, look, ())
    assert find_pawns(rect, read_tiles(rect), camera=camera) == []


def test_night_reports_only_confident_pawns() -> None:
    rect, camera, _ = _scene(11, "classic", CASES[0][2])
    tiles = read_tiles(rect)
    strict = PawnConfig(night_min_confidence=0.999999)
    day = find_pawns(rect, tiles, strict, camera=camera)
    night = find_pawns(rect, tiles, strict, camera=camera, lighting="night")
    assert len(day) == 4
    assert all(d.confidence >= 0.999999 for d in night) and len(night) <= len(day)


def test_confidence_is_a_probability() -> None:
    for seed, look, pawns in (CASES[1], (22, "bright", ())):
        rect, camera, _ = _scene(seed, look, pawns)
        scores = [confidence(c.features) for c in candidates(rect, read_tiles(rect), camera=camera)]
        assert all(0.0 <= s <= 1.0 for s in scores)
        assert sum(s > 0.9 for s in scores) == len(pawns)  # one sure blob per pawn, none for the pictures


def test_colour_model_from_calibration_and_back() -> None:
    raw = {"pawn_colors": {"red": {"lab": [90, 170, 150]}, "blue": [60, 140, 90], "purple": {"lab": [1, 2, 3]},
                           "green": {"lab": ["x"]}}}  # fmt: skip
    model = ColourModel.from_calibration(raw)
    assert model is not None and set(model.lab) == {Color.RED, Color.BLUE}
    assert ColourModel.from_calibration(model.to_calibration()) == model
    assert ColourModel.from_calibration({}) is None
    assert ColourModel.from_calibration({"pawn_colors": "red"}) is None


def test_learned_colour_model_finds_the_same_pawns() -> None:
    rect, _, label = _scene(11, "classic", CASES[0][2])
    model = learn_colour_model(rect, {Color(c): tuple(sq) for c, sq in label["pawns"].items()})
    assert set(model.lab) == set(Color)
    ranges = model.hue_ranges(PawnConfig().hue_ranges, 12)
    assert all(lo <= hi for spans in ranges.values() for lo, hi in spans)
    # The same table, camera and light later in the game: the pawns have moved.
    other, cam2, label2 = _scene(11, "classic", (("red", 3, 2), ("yellow", 1, 5), ("blue", 5, 3)))
    found = find_pawns(other, read_tiles(other), model=model, camera=cam2)
    assert {d.color.value: list(d.square) for d in found} == label2["pawns"]


def test_erase_paints_the_pawns_out() -> None:
    rect, camera, _ = _scene(12, "hedge", CASES[1][2])
    tiles = read_tiles(rect)
    found = find_pawns(rect, tiles, camera=camera)
    clean = erase(rect, found)
    assert clean.image.shape == rect.image.shape and clean is not rect
    assert find_pawns(clean, tiles, camera=camera) == []
    assert erase(rect, []) is rect


def test_pawns_ignore_a_board_without_tiles_read() -> None:
    rect, camera, label = _scene(13, "dark", CASES[2][2])
    found = find_pawns(rect, None, camera=camera)
    assert {d.color.value for d in found} <= set(label["pawns"])


def _synthetic_board(draw: str) -> Rectified:
    """A plain sand-coloured board (corridor everywhere) with one red object on square (3, 3)."""
    t, m = 48, 36
    side = 2 * m + 7 * t
    image = np.full((side, side, 3), (150, 200, 225), np.uint8)
    cx = cy = m + 3 * t + t // 2
    yy, xx = np.mgrid[0:side, 0:side].astype(np.float64)
    radius = 0.22 * t
    inside = np.hypot(xx - cx, yy - cy) <= radius
    if draw == "print":
        # A flat printed picture: one even red, a dark outline, two dark eyes.
        ring = (np.hypot(xx - cx, yy - cy) <= radius + 1.5) & ~inside
        image[ring] = (30, 30, 40)
        image[inside] = (40, 40, 200)
        for ex in (-4, 4):
            image[np.hypot(xx - cx - ex, yy - cy + 2) <= 1.8] = (20, 20, 20)
    else:
        # A dome lit from the top left, casting a soft shadow to the bottom right.
        shadow = np.hypot(xx - cx - 6, yy - cy - 6) <= radius + 2
        image[shadow & ~inside] = (image[shadow & ~inside] * 0.55).astype(np.uint8)
        nx, ny = (xx - cx) / radius, (yy - cy) / radius
        light = np.clip(0.65 - 0.45 * (nx + ny) / np.sqrt(2), 0.25, 1.0)
        body = np.stack([20 + 30 * light, 20 + 30 * light, 70 + 185 * light], axis=-1)
        image[inside] = body[inside].astype(np.uint8)
    corners = np.array([[m, m], [m + 7 * t, m], [m + 7 * t, m + 7 * t], [m, m + 7 * t]], np.float32)
    return Rectified(image, t, m, np.eye(3), corners)


def test_a_lit_raised_body_outscores_a_flat_printed_picture() -> None:
    """Shading, not saturation: the same red, flat and outlined with eyes, or round and lit with a shadow."""
    scores = {}
    for draw in ("print", "dome"):
        found = [c for c in candidates(_synthetic_board(draw), None) if c.color is Color.RED]
        assert len(found) == 1
        scores[draw] = confidence(found[0].features)
    assert scores["dome"] >= PawnConfig().min_confidence > scores["print"]


def test_fast_percentiles_and_median_equal_numpys_bit_for_bit() -> None:
    """The features' order statistics must be numpy's exactly, or a refit's decisions could shift."""
    rng = np.random.default_rng(7)
    for trial in range(600):
        n = int(rng.integers(1, 200))
        values = rng.integers(0, 256, n).astype(np.float64) if trial % 2 else rng.normal(0.0, 40.0, n)
        for percents in ((5, 95), (10, 90), (95,), (0, 50, 100)):
            assert percentiles(values, percents) == [float(q) for q in np.percentile(values, list(percents))]
        assert median(values) == float(np.median(values))


def _group_medians_lexsort(values: np.ndarray, groups: np.ndarray) -> list[float]:
    ordered = values[np.lexsort((values, groups))]
    sizes = np.bincount(groups, minlength=8)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    return [
        float(ordered[a + (k - 1) // 2] + ordered[a + k // 2]) / 2.0 for a, k in zip(starts, sizes, strict=True) if k
    ]


def test_sector_medians_of_8_bit_values_equal_the_general_path() -> None:
    """The integer-key sort for 8-bit values must give the lexsort's per-group medians exactly."""
    rng = np.random.default_rng(11)
    for _ in range(300):
        n = int(rng.integers(1, 300))
        values = rng.integers(0, 256, n).astype(np.uint8)
        groups = rng.integers(0, 8, n)
        expected = [float(np.median(values[groups == g])) for g in range(8) if np.any(groups == g)]
        assert group_medians(values, groups, 8) == expected
        assert group_medians(values.astype(np.float64), groups, 8) == expected
        relit = (values / rng.uniform(0.15, 4.0, n)).astype(np.float32)  # the relit brightness path
        assert group_medians(relit, groups, 8) == _group_medians_lexsort(relit, groups)


def test_a_print_under_a_shadow_edge_is_judged_against_the_boards_light() -> None:
    """A light gradient across the board shades a flat picture like a pawn; the board's light map divides it out."""
    rect = _synthetic_board("print")
    side = rect.image.shape[0]
    # A broad shadow edge running across the board, steep enough that the picture's range
    # stands well above one grey level of its channel-mean brightness (~75 here): the median
    # range is measured on 8-bit brightness, so one level (~0.013) is its floor.
    ramp = np.linspace(0.3, 1.1, side)[None, :, None]
    shaded = replace(rect, image=np.clip(rect.image * ramp, 0, 255).astype(np.uint8))
    tiles = [TileReading(Tile.NES, 1.0)] * 49  # corridor arms and wall corners on every tile
    features = {}
    for sigma in (0.0, 0.5):
        cfg = PawnConfig(light_sigma=sigma)
        found = [c for c in candidates(shaded, tiles, cfg) if c.color is Color.RED]
        assert len(found) == 1
        features[sigma] = dict(zip(FEATURES, found[0].features, strict=True))
    assert features[0.5]["smooth_range"] < 0.5 * features[0.0]["smooth_range"]
    assert features[0.5]["surface"] < 0.5 * features[0.0]["surface"]


def test_light_map_recovers_a_ramp_from_the_reference_material() -> None:
    value = np.tile(np.linspace(60, 180, 200).astype(np.uint8), (200, 1))
    reference = np.zeros(value.shape, bool)
    reference[::3, ::3] = True
    light = light_map(value, [reference], sigma=8.0)
    assert light is not None and light.shape == value.shape
    flat = relit(value, light)[20:-20, 20:-20].astype(np.float64)
    assert flat.std() < 0.1 * value[20:-20, 20:-20].std()
    assert light_map(value, [np.zeros(value.shape, bool)], sigma=8.0) is None
    assert relit(value, None) is value


def test_the_refit_keeps_each_weight_within_its_physical_sign() -> None:
    """tests/support/fit_pawns.py: a feature whose sign is fixed cannot learn the opposite from the data."""
    from tests.support.fit_pawns import SIGNS, fit, knots_of

    rng = np.random.default_rng(3)
    n = 600
    x = rng.normal(0.0, 1.0, (n, len(FEATURES)))
    y = x[:, FEATURES.index("smooth_range")] - 2.0 * x[:, FEATURES.index("glint")] > 0  # glint "against" here
    for knots in (None, knots_of(x, y)):
        terms = fit(x, y, l2=0.001, knots=knots).as_terms()
        assert max(terms["smooth_range"][1]) > 0
        assert "glint" not in terms  # bounded at >= 0: it may not speak against a pawn
        assert not any(SIGNS[name] == 0 for name in terms)
        assert all(max(slopes) <= 0.0 for name, (_, slopes) in terms.items() if SIGNS[name] == -1)
        assert all(min(slopes) >= 0.0 for name, (_, slopes) in terms.items() if SIGNS[name] == +1)


def test_the_segmented_model_is_monotone_and_its_two_paths_agree() -> None:
    """Each term only rises (or only falls) with its feature; the per-blob and the batch logits are the same."""
    from vision.pawn_model import PAWN_MODEL, PawnModel

    rng = np.random.default_rng(5)
    rows = rng.uniform(-1.0, 3.0, (200, len(FEATURES)))
    batch = PAWN_MODEL.columns(rows) @ np.asarray(PAWN_MODEL.weights[:-1]) + PAWN_MODEL.weights[-1]
    assert np.allclose(batch, [PAWN_MODEL.logit(row) for row in rows])
    for i, name in enumerate(FEATURES):
        values = [PAWN_MODEL.term(i, x) for x in np.linspace(-1.0, 3.0, 81)]
        steps = np.diff(values)
        assert np.all(steps >= -1e-12) or np.all(steps <= 1e-12), name
    assert PawnModel.from_terms(PAWN_MODEL.as_terms(), PAWN_MODEL.weights[-1]) == PAWN_MODEL
    with pytest.raises(ValueError):
        PawnModel.from_terms({"no_such_feature": ((), (1.0,))}, 0.0)


def test_a_blob_unlike_the_pawn_sets_size_is_marked() -> None:
    """The four pawns are one set: a blob far from the sure blobs' median size gets a deviation, they do not."""
    from vision.pawn_model import SET_TOLERANCE, PawnModel, set_size_deviation

    area = FEATURES.index("log_area")
    sure = PawnModel.linear([0.0] * len(FEATURES) + [10.0])  # every blob sure without the size term
    rows = [[0.0] * len(FEATURES) for _ in range(4)]
    for row, log_area in zip(rows, (0.0, 0.05, -0.05, 1.0), strict=True):
        row[area] = log_area
    devs = set_size_deviation(rows, sure)
    assert devs[:3] == [0.0, 0.0, 0.0]
    assert devs[3] == pytest.approx(1.0 - 0.025 - SET_TOLERANCE)  # the set: the median of all four sure blobs
    unsure = PawnModel.linear([0.0] * len(FEATURES) + [-10.0])  # no sure blob: no set, no deviation
    assert set_size_deviation(rows, unsure) == [0.0] * 4


def test_a_blob_lit_against_the_other_pawns_light_is_marked() -> None:
    """One light for all: a blob's lit and dark sides are compared with the OTHER colours' sure pawns' only."""
    from vision.pawn_consensus import consensus
    from vision.pawn_features import DARK, LIT

    def blob(lit: tuple[float, float], dark: tuple[float, float], shading: float = 1.0) -> list[float]:
        row = [0.0] * len(FEATURES)
        row[LIT], row[LIT + 1], row[DARK], row[DARK + 1] = (*lit, *dark)
        row[FEATURES.index("surface")] = row[FEATURES.index("shadow")] = shading
        return row

    lit_west = blob((-30.0, 0.0), (0.4, 0.0))  # bright toward -x, shadow toward +x
    rows = [lit_west, lit_west, lit_west, blob((30.0, 0.0), (-0.4, 0.0)), blob((0.0, 5.0), (0.0, 0.0))]
    colours = ["red", "green", "blue", "yellow", "yellow"]
    sure = [True, True, True, False, False]
    out = consensus(rows, colours, sure)
    assert out[3] == pytest.approx((-1.0, -1.0))  # a print "lit" from the other side
    assert out[4] == pytest.approx((0.0, 0.0))  # no slope, no dark side: says nothing
    assert out[0] == pytest.approx((1.0, 1.0))  # the two other sure pawns agree with it
    # A rival of its own colour does not vote, nor does the blob itself: red and one more sure colour
    # are too few (MIN_OTHERS) for the blue blob.
    few = consensus(rows[:3], ["red", "blue", "blue"], [True, True, True])
    assert few[1] == (0.0, 0.0)
    assert few[0] == pytest.approx((1.0, 1.0))
    # A flipped rival of another colour, sure as well, pulls the consensus of the others apart.
    rows[3] = blob((30.0, 0.0), (-0.4, 0.0))
    mixed = consensus(rows, colours, [True, True, True, True, False])
    assert mixed[0][0] == pytest.approx(1.0 / 1.0)  # green + blue west, yellow east: sum points west
    assert mixed[3] == pytest.approx((-1.0, -1.0))
    # A blob with hardly any shading or shadow of its own: its directions are noise and say less.
    rows[3] = blob((30.0, 0.0), (-0.4, 0.0), shading=0.1)
    faint = consensus(rows, colours, sure)
    assert -1.0 < faint[3][0] < -0.2 and -1.0 < faint[3][1] < -0.2


def test_the_camera_nadir_is_recovered_from_the_boards_homography() -> None:
    """A camera placed over the board (focal, position known): the board's corners alone give back where it stands."""
    from vision.pawn_geometry import camera_position, nadir

    t, m, side = 48, 12, 360
    focal, width, height = 1400.0, 1640, 1232
    for cam in ((100.0, -250.0, 800.0), (300.0, 200.0, 600.0), (-80.0, 500.0, 1500.0)):
        centre = np.array(cam)
        look = np.array([side / 2.0, side / 2.0, 0.0]) - centre  # looking at the board's middle
        z = look / np.linalg.norm(look)
        x = np.cross([0.0, 1.0, 0.0], z)
        x /= np.linalg.norm(x)
        rot = np.stack([x, np.cross(z, x), z])  # world -> camera
        k = np.array([[focal, 0, width / 2.0], [0, focal, height / 2.0], [0, 0, 1]])
        board_to_image = k @ np.column_stack([rot[:, 0], rot[:, 1], -rot @ centre])
        rect = Rectified(
            np.zeros((side, side, 3), np.uint8), t, m, np.linalg.inv(board_to_image), np.zeros((4, 2)), (height, width)
        )
        found = camera_position(rect)
        assert found is not None
        assert np.allclose(found, (cam[0], cam[1], -cam[2]) if cam[2] < 0 else cam, rtol=1e-6, atol=1e-6)
        assert np.allclose(nadir(rect, np.zeros(2)), cam[:2])
    flat = Rectified(np.zeros((side, side, 3), np.uint8), t, m, np.eye(3), np.zeros((4, 2)))
    assert np.array_equal(nadir(flat, np.array([1.0, 2.0])), [1.0, 2.0])  # no photo size: the fallback


def test_a_printed_ring_is_a_stroke_not_a_body() -> None:
    """A start square's ring in a pawn colour: as wide as a pawn, but a stroke - gated out; the disc it rings is not."""
    t, m = 48, 36
    side = 2 * m + 7 * t
    yy, xx = np.mgrid[0:side, 0:side].astype(np.float64)
    cx = cy = m + 3 * t + t // 2
    r = np.hypot(xx - cx, yy - cy)
    corners = np.array([[m, m], [m + 7 * t, m], [m + 7 * t, m + 7 * t], [m, m + 7 * t]], np.float32)

    def reds(mask: np.ndarray) -> list:
        image = np.full((side, side, 3), (150, 200, 225), np.uint8)
        image[mask] = (40, 40, 200)
        return [c for c in candidates(Rectified(image, t, m, np.eye(3), corners), None) if c.color is Color.RED]

    ring = reds((r <= 0.25 * t) & (r > 0.17 * t))
    disc = reds(r <= 0.25 * t)
    assert ring == [] and len(disc) == 1
    assert disc[0].features[FEATURES.index("thickness")] >= PawnConfig().min_thickness


def test_a_pawn_coloured_material_still_measures_the_light() -> None:
    """A green hedge wall is green all over: its own pixels are the light meter, not its few dark seams."""
    zone = np.zeros((40, 40), dtype=bool)
    zone[:, :20] = True
    coloured = zone.copy()
    coloured[::7, :20] = False  # the seams between the hedge's leaves
    assert np.array_equal(_light_reference(zone, coloured), zone)
    some = zone & ~np.eye(40, dtype=bool)  # a pawn standing on a plain material: left out
    assert np.array_equal(_light_reference(zone, ~some), zone & some)


def test_a_cast_shadow_is_the_board_darker_than_its_own_material() -> None:
    """Dark wall beside light corridor around a flat print is artwork; a darkened patch of corridor is a shadow."""
    from vision.pawn_features import _surroundings

    t, side = 48, 96
    yy, xx = np.mgrid[0:side, 0:side]
    labels = (np.hypot(xx - 48, yy - 48) < 10).astype(np.int32)
    wall, corridor = xx < 48, xx >= 48
    value = np.where(wall, 60.0, 200.0).astype(np.float32)
    box, centroid = (38, 38, 21, 21), np.array([48.0, 48.0])
    material = (wall & (labels == 0), corridor & (labels == 0), 60.0, 200.0)
    raw_print, _, _ = _surroundings(labels, 1, value, box, centroid, t)
    print_shadow, _, _ = _surroundings(labels, 1, value, box, centroid, t, material)
    assert raw_print > 0.6  # the old measure took the artwork's contrast for a shadow
    assert print_shadow < 0.05
    shaded = value.copy()
    shaded[(yy > 48) & corridor] = 110.0  # the corridor below-right of the body in its shadow
    cast, _, _ = _surroundings(labels, 1, shaded, box, centroid, t, material)
    assert cast > 0.4


def test_a_cast_shadow_is_looked_for_past_the_rim_that_hugs_a_tall_pawn(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tall pawn's shadow falls past its foot: one lying 0.13 tile and more beyond the blob's edge counts.

    A dark rim 3 pixels wide hugs the blob all round (a tall pawn's shaded side the colour
    test cut off, or a print's drawn outline): even, so no shadow. The cast shadow lies
    beyond it on one side only: the ring reaching :data:`SHADOW_REACH` sees that side
    darker (and points its dark side there); the former 0.14-tile ring saw only the rim.
    """
    import vision.pawn_features as pf

    t, side = 48, 120
    yy, xx = np.mgrid[0:side, 0:side]
    radius = np.hypot(xx - 60, yy - 60)
    labels = (radius < 10).astype(np.int32)
    value = np.full((side, side), 200.0, np.float32)
    value[(radius >= 10) & (radius < 13)] = 120.0  # the rim, all round
    shaded = value.copy()
    shaded[(radius >= 10 + 0.13 * t) & (xx > 60)] = 90.0  # the cast shadow, to the right, past the rim
    corridor = labels == 0
    material = (np.zeros_like(corridor), corridor, 60.0, 200.0)
    box, centroid = (50, 50, 21, 21), np.array([60.0, 60.0])
    rim_only, _, _ = pf._surroundings(labels, 1, value, box, centroid, t, material)
    cast, _, (dark_x, _) = pf._surroundings(labels, 1, shaded, box, centroid, t, material)
    assert rim_only < 0.05
    assert cast > 0.3
    assert dark_x > 0.5  # the dark side is the shadow's
    monkeypatch.setattr(pf, "SHADOW_REACH", 0.14)
    narrow, _, _ = pf._surroundings(labels, 1, shaded, box, centroid, t, material)
    assert narrow < 0.05



def one_blob_folder(name: str, right: bool) -> dict[str, np.ndarray]:
    """A cached folder of one image with one red blob scoring 4 (on the red pawn's square or not)."""
    features = np.zeros((1, len(FEATURES)))
    features[0, 0] = 4.0
    return {
        "features": features,
        "pawn": np.array([right]),
        "image": np.zeros(1, dtype=np.int64),
        "colour": np.array(["red"]),
        "square": np.array([(1, 1) if right else (5, 5)]),
        "night": np.zeros(1, dtype=bool),
        "truths": np.array([json.dumps({"folder": name, "pawns": {"red": [1, 1]}})]),
    }


def test_leave_one_renderer_out_never_fits_on_the_renderer_it_scores(monkeypatch: pytest.MonkeyPatch) -> None:
    """tests/support/fit_pawns.py --loro: folders grouped by renderer; each renderer is scored by a model
    fitted on every other renderer's folders and none of its own."""
    from tests.support import fit_pawns
    from vision.pawn_model import PawnModel

    assert fit_pawns.renderer_of("/tmp/P/sets/ho_a") == ("ho", "/tmp/P/sets/ho_a")
    assert fit_pawns.renderer_of("f5=/tmp/lead/f5/day") == ("f5", "/tmp/lead/f5/day")
    renderers = ["ho", "ho", "tr", "f5", "tr", "f5", "f5"]
    splits = fit_pawns.loro_splits(renderers)
    assert [held for held, _, _ in splits] == ["ho", "tr", "f5"]
    for held, train, test in splits:
        assert sorted(train + test) == list(range(len(renderers)))
        assert {renderers[i] for i in test} == {held} and held not in {renderers[i] for i in train}

    data = [one_blob_folder(f"{r}_{i}", right=r != "f5") for i, r in enumerate(renderers)]
    fitted_on: list[set[str]] = []

    def spy(train: list[dict], variant: object) -> PawnModel:
        fitted_on.append({json.loads(str(d["truths"][0]))["folder"].split("_")[0] for d in train})
        return PawnModel.linear([1.0] + [0.0] * len(FEATURES))

    monkeypatch.setattr(fit_pawns, "fit_model", spy)
    results = fit_pawns.loro(data, renderers, fit_pawns.Variant(), PawnConfig())
    assert fitted_on == [{"tr", "f5"}, {"ho", "f5"}, {"ho", "tr"}]
    assert results == {"ho": (2, 2), "tr": (2, 2), "f5": (0, 3)}
    assert "worst 0.000 mean 0.667" in fit_pawns.loro_table(results)


def test_a_capped_board_term_cannot_outvote_a_blobs_own_evidence() -> None:
    """fit_pawns --board-cap: however well the set-size term separates the fit's blobs, its term moves the
    logit by at most the cap over its whole range."""
    from tests.support.fit_pawns import BOARD_RANGES, fit

    rng = np.random.default_rng(7)
    n = 800
    x = rng.normal(0.0, 1.0, (n, len(FEATURES)))
    size = FEATURES.index("size_deviation")
    x[:, size] = rng.uniform(0.0, 2.0, n)
    y = x[:, size] < 0.5  # the board term alone decides here
    lo, hi = BOARD_RANGES["size_deviation"]
    free = fit(x, y, l2=0.0001)
    capped = fit(x, y, l2=0.0001, board_cap=1.5)
    assert free.term(size, lo) - free.term(size, hi) > 3.0
    assert 0.0 < capped.term(size, lo) - capped.term(size, hi) <= 1.5 + 1e-3


def test_each_pawn_miss_is_put_down_to_one_cause() -> None:
    """tests/support/fit_pawns.py --misses: one labelled image, one mistake of each kind (and one pawn right)."""
    from tests.support.fit_pawns_score import miss_causes
    from vision.pawn_model import PawnConfig, PawnModel

    model = PawnModel.linear([1.0] + [0.0] * len(FEATURES))  # the first feature is the blob's logit
    blobs = [  # (colour, square, touches the labelled square, logit)
        ("red", (1, 1), True, 4.0),  # right
        ("blue", (2, 2), True, -2.0),  # below threshold
        ("green", (3, 3), True, 1.0),  # beaten by the green print below
        ("green", (5, 0), False, 3.0),
        ("yellow", (0, 0), True, 2.0),  # the pawn's blob, its base on the wrong square
        ("red", (6, 6), False, 1.0),  # lower than the red pawn: not reported
    ]
    truth = {"red": [1, 1], "blue": [2, 2], "green": [3, 3], "yellow": [0, 1]}
    features = np.zeros((len(blobs), len(FEATURES)))
    features[:, 0] = [b[3] for b in blobs]
    data = {
        "features": features,
        "pawn": np.array([b[2] for b in blobs]),
        "image": np.zeros(len(blobs), dtype=np.int64),
        "colour": np.array([b[0] for b in blobs]),
        "square": np.array([b[1] for b in blobs]),
        "night": np.zeros(len(blobs), dtype=bool),
        "truths": np.array([json.dumps({"folder": "f", "pawns": truth})]),
    }
    causes = miss_causes(data, model, PawnConfig())
    assert causes == {
        "no candidate": 0,
        "scored below threshold": 1,
        "beaten by another blob": 1,
        "base on a wrong square": 1,
        "false report": 0,
    }
    truth.pop("green")
    data["truths"] = np.array([json.dumps({"folder": "f", "pawns": {**truth, "blue": [4, 4]}})])
    data["pawn"][1] = False  # the blue blob no longer touches the (moved) blue pawn's square
    causes = miss_causes(data, model, PawnConfig())
    assert causes["no candidate"] == 1 and causes["false report"] == 1  # the green print reported, no green pawn


@pytest.mark.parametrize("threshold", [PawnConfig().min_confidence, 0.1])
def test_early_exit_drops_only_blobs_that_cannot_reach_the_threshold(threshold: float) -> None:
    """The exit before the late features (after the early ones, again after the marks) is a true bound.

    Every blob it gives up on, measured in full, stays under the threshold even with the
    board-level terms at their best for it (consensus cosines of 1, no size deviation);
    every blob it keeps is measured exactly as without the exit. Low thresholds put
    more blobs near the bound.
    """
    from vision.pawn_features import DARK_CONSENSUS, LIT_CONSENSUS, dark_say, lit_say

    cfg = PawnConfig()
    dropped = 0
    for seed, look, pawns in [CASES[0], CASES[1], (21, "classic", ()), (22, "bright", ())]:
        rect, camera, _ = _scene(seed, look, pawns)
        tiles = read_tiles(rect)
        full = candidates(rect, tiles, cfg, camera=camera)
        early = candidates(rect, tiles, cfg, camera=camera, min_confidence=threshold)
        kept = {(c.color, c.box): c.features for c in early}
        assert len(kept) == len(early)
        for c in full:
            if (c.color, c.box) in kept:
                assert kept.pop((c.color, c.box)) == c.features
                continue
            dropped += 1
            best = list(c.features)
            best[FEATURES.index("size_deviation")] = 0.0
            best[LIT_CONSENSUS] = lit_say(best[FEATURES.index("surface")])
            best[DARK_CONSENSUS] = dark_say(best[FEATURES.index("shadow")])
            assert confidence(best, cfg.model) < threshold
        assert not kept  # the exit invents no blob
    assert dropped >= 2  # it has work to do on these boards


@pytest.mark.parametrize("lighting", ["day", "night"])
def test_pawn_confidences_are_those_without_the_early_exit(lighting: str) -> None:
    """The exit keeps every blob that could be a sure pawn too (a voter in the board-level terms),
    so even at night's high threshold each pawn's confidence is the one every blob measured gives."""
    from vision.pawn_model import with_set_size
    from vision.pawns import _hidden_sizes

    cfg = PawnConfig(night_min_confidence=0.99)
    threshold = cfg.night_min_confidence if lighting == "night" else cfg.min_confidence
    reported = 0
    for seed, look, pawns in CASES:
        rect, camera, _ = _scene(seed, look, pawns)
        tiles = read_tiles(rect)
        full = candidates(rect, tiles, cfg, camera=camera)
        rows = with_set_size([c.features for c in full], cfg.model, [c.color for c in full])
        rows = _hidden_sizes(full, rows, cfg.model)
        expected: dict[Color, float] = {}
        for cand, row in zip(full, rows, strict=True):
            p = confidence(row, cfg.model)
            if p >= threshold and p > expected.get(cand.color, 0.0):
                expected[cand.color] = p
        found = find_pawns(rect, tiles, cfg, camera=camera, lighting=lighting)
        assert {d.color: d.confidence for d in found} == expected
        reported += len(found)
    assert reported >= 5


def test_an_averaged_bag_is_one_monotone_model_with_the_members_mean_logit() -> None:
    """vision.pawn_model.average_models: the bag's logit is the mean of its members' logits on any blob, and
    every term keeps its members' direction (members of one sign per feature, as the fit's signs make them)."""
    from vision.pawn_model import PAWN_MODEL, PawnModel, average_models

    rng = np.random.default_rng(5)
    signs = rng.choice([-1.0, 1.0], len(FEATURES))

    def member() -> PawnModel:
        """Random knots (0-3 per feature) and slopes of the feature's one sign."""
        knots = [tuple(sorted(np.round(rng.uniform(-1, 1, rng.integers(0, 4)), 3))) for _ in FEATURES]
        slopes = [s * rng.uniform(0, 2) for s, k in zip(signs, knots, strict=True) for _ in range(len(k) + 1)]
        return PawnModel(tuple(knots), (*slopes, float(rng.normal())))

    members = [member() for _ in range(3)]
    bag = average_models(members)
    assert average_models([PAWN_MODEL]).logit([0.3] * len(FEATURES)) == pytest.approx(
        PAWN_MODEL.logit([0.3] * len(FEATURES))
    )
    rows = rng.uniform(-2, 2, (300, len(FEATURES)))
    for row in rows:
        assert bag.logit(row) == pytest.approx(np.mean([m.logit(row) for m in members]), abs=1e-9)
    grid = np.linspace(-2, 2, 81)
    for i, sign in enumerate(signs):
        steps = np.diff([bag.term(i, float(x)) for x in grid])
        assert np.all(sign * steps >= -1e-12)
        assert bag.slope_sign(i) == int(sign)


def test_a_bag_draws_one_folder_per_renderer() -> None:
    """fit_pawns.draws: draw k fits each renderer's k-th folder; a renderer with one folder is in every draw."""
    from tests.support.fit_pawns import draws

    renderers = ["ho", "ho", "tr", "tr", "fo", "f5", "f5"]
    assert draws(renderers, [0, 1, 2, 3, 4]) == [[0, 2, 4], [1, 3, 4]]
    assert draws(renderers, [4, 5, 6]) == [[4, 5], [4, 6]]


def test_a_blob_a_shaded_side_away_from_another_colours_sure_pawn_is_piled(monkeypatch: pytest.MonkeyPatch) -> None:
    """vision.pawns._hidden_sizes: piled pawns' blobs are parted by the front body's shaded side and rim
    (not in the colour mask), so a blob within PILE_GAP of another colour's sure pawn loses its set-size
    term, while one farther than that keeps it (sixth renderer 0031: a red token 6 px from the pile)."""
    import vision.pawns as pawns
    from vision.pawn_candidates import Candidate
    from vision.pawn_geometry import PILE_GAP, TOUCH_GAP

    assert TOUCH_GAP < 6 <= PILE_GAP
    size = FEATURES.index("size_deviation")
    labels = np.zeros((100, 200), np.int32)
    labels[40:60, 40:60] = 1  # green pawn (sure)
    near_x = 65  # five empty columns between the blobs (6 px apart, as in 0031): piled
    labels[45:55, near_x : near_x + 9] = 2  # red, beyond TOUCH_GAP
    far_x = 160 + PILE_GAP  # PILE_GAP empty columns after the blue blob: apart
    labels[40:60, 140:160] = 3  # blue pawn (sure)
    labels[45:55, far_x : far_x + 9] = 4  # yellow, farther than PILE_GAP
    found = [
        Candidate(Color.GREEN, (), (50.0, 50.0), (40, 40, 20, 20), 0.16, labels, 1),
        Candidate(Color.RED, (), (near_x + 4.0, 50.0), (near_x, 45, 9, 10), 0.04, labels, 2),
        Candidate(Color.BLUE, (), (150.0, 50.0), (140, 40, 20, 20), 0.16, labels, 3),
        Candidate(Color.YELLOW, (), (far_x + 4.0, 50.0), (far_x, 45, 9, 10), 0.04, labels, 4),
    ]
    row = [0.0] * len(FEATURES)
    row[size] = 0.8
    rows = [tuple(row)] * 4
    monkeypatch.setattr(pawns, "sure_pawns", lambda rows, model: [True, False, True, False])
    out = pawns._hidden_sizes(found, rows, pawns.PAWN_MODEL)
    assert [r[size] for r in out] == [0.8, 0.0, 0.8, 0.8]
