"""Pawn candidates and placement: the light's colour divided out; a pawn whose foot another hides."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

import vision.pawns as pawns
from companion.board import Color
from vision.pawn_candidates import Candidate, _along_ray, _slender_box
from vision.pawn_features import FEATURES
from vision.pawn_geometry import hidden_bases
from vision.pawn_light import colour_cast, neutral
from vision.pawns import SIZE_DEVIATION


def _two_materials(side: int = 160) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A board of dark wall stripes and light corridor (BGR uint8), with each material's mask."""
    _, xx = np.mgrid[0:side, 0:side]
    wall = (xx // 16) % 2 == 0
    image = np.where(wall[..., None], np.array([70, 110, 90], np.float64), np.array([190, 205, 215], np.float64))
    return image, wall, ~wall


def _chromaticity_spread(image: np.ndarray, mask: np.ndarray) -> float:
    """How much one material's (b, g) shares of B+G+R vary over the board (their std, summed)."""
    pixels = image[mask].astype(np.float64)
    shares = pixels / np.maximum(pixels.sum(axis=1, keepdims=True), 1.0)
    return float(shares[:, :2].std(axis=0).sum())


def test_a_coloured_light_pool_is_measured_on_the_materials_and_divided_out() -> None:
    image, wall, corridor = _two_materials()
    side = image.shape[0]
    # Greenish light rising to the right: green gains up to 1.3, blue and red fall to 0.8.
    ramp = np.linspace(0.0, 1.0, side)[None, :]
    gains = np.stack([1.0 - 0.2 * ramp, 1.0 + 0.3 * ramp, 1.0 - 0.2 * ramp], axis=-1)
    lit = np.clip(image * gains, 0, 255).astype(np.uint8)
    cast = colour_cast(lit, [wall, corridor], sigma=12.0)
    assert cast is not None and cast.shape == lit.shape
    inner = (slice(16, -16), slice(16, -16))
    assert float(cast[inner][:, -20:, 1].mean()) > float(cast[inner][:, :20, 1].mean()) + 0.15
    np.testing.assert_allclose(cast.mean(axis=-1), 1.0, atol=1e-4)  # a colour, not a brightness
    neutral = np.clip(lit / cast, 0, 255)
    for mask in (wall, corridor):
        assert _chromaticity_spread(neutral[inner], mask[inner]) < 0.3 * _chromaticity_spread(lit[inner], mask[inner])


def test_light_of_one_colour_has_no_cast_whatever_its_brightness() -> None:
    """A shadow or a white light pool changes how much light falls, not its colour: nothing to divide out."""
    image, wall, corridor = _two_materials()
    ramp = np.linspace(0.5, 1.2, image.shape[0])[None, :, None]
    shaded = np.clip(image * ramp, 0, 255).astype(np.uint8)
    assert colour_cast(shaded, [wall, corridor], sigma=12.0) is None
    # Without a material to read the light from there is no measure either.
    assert colour_cast(shaded, [np.zeros(wall.shape, bool)], sigma=12.0) is None


def test_a_hand_over_the_board_is_not_taken_for_a_coloured_light() -> None:
    """A light scales both materials alike; skin over them makes the dark wall brighter and the corridor darker."""
    image, wall, corridor = _two_materials()
    side = image.shape[0]
    patch = (slice(0, side), slice(3 * side // 4, side))  # a quarter: the materials' usual colour is the rest's
    covered = image.copy()
    covered[patch] = (80, 120, 190)  # skin, the same colour over wall and corridor alike
    tinted = image.copy()
    tinted[patch] = image[patch] * np.array([0.8, 1.0, 1.25])  # the same hue shift as a warm light
    lit = colour_cast(np.clip(tinted, 0, 255).astype(np.uint8), [wall, corridor], sigma=12.0)
    hand = colour_cast(covered.astype(np.uint8), [wall, corridor], sigma=12.0)
    assert lit is not None
    inner = (slice(16, -16), slice(3 * side // 4 + 16, -8))
    lit_shift = float(np.abs(lit[inner] - 1.0).mean())
    hand_shift = 0.0 if hand is None else float(np.abs(hand[inner] - 1.0).mean())
    assert lit_shift > 0.08
    assert hand_shift < 0.5 * lit_shift


def test_neutral_divides_the_image_by_the_cast_and_leaves_an_even_light_alone() -> None:
    image, wall, corridor = _two_materials()
    ramp = np.linspace(0.0, 1.0, image.shape[0])[None, :]
    gains = np.stack([1.0 - 0.2 * ramp, 1.0 + 0.3 * ramp, 1.0 - 0.2 * ramp], axis=-1)
    lit = np.clip(image * gains, 0, 255).astype(np.uint8)
    cast = colour_cast(lit, [wall, corridor], sigma=12.0)
    judged = neutral(lit, [wall, corridor], sigma=12.0)
    assert cast is not None and judged is not None and judged.dtype == np.uint8
    # The gains are inverted before they are interpolated: the same image to within rounding.
    assert int(np.abs(judged.astype(int) - np.clip(np.rint(lit / cast), 0, 255).astype(int)).max()) <= 2
    even = np.clip(image * np.linspace(0.5, 1.2, image.shape[0])[None, :, None], 0, 255).astype(np.uint8)
    assert neutral(even, [wall, corridor], sigma=12.0) is None


def _bar(x0: int, x1: int, y0: int = 40, y1: int = 52) -> tuple[tuple[int, int, int, int], np.ndarray]:
    """A blob filling columns x0..x1-1 and rows y0..y1-1, as (box, pixels in the box)."""
    return (x0, y0, x1 - x0, y1 - y0), np.ones((y1 - y0, x1 - x0), dtype=bool)


def test_a_pawn_whose_foot_a_pawn_in_front_hides_is_placed_from_its_top() -> None:
    # Nadir at x = 0; pawns lean along +x. The front pawn's blob spans 100..130 (foot at
    # ~106, its top's projection 24 px beyond); the pawn behind shows only 131..150, its
    # lower part hidden: placed alone its base would be ~137.
    nadir = np.array([0.0, 46.0])
    front, behind = _bar(100, 131), _bar(131, 151)
    moved = hidden_bases([front, behind], [(106.0, 46.0), (137.0, 46.0)], lambda: nadir)
    assert moved[0] == (106.0, 46.0)  # the front pawn hides nothing of its own
    assert 120.0 < moved[1][0] < 130.0  # its top (~149) minus the front pawn's reach (~24)
    assert abs(moved[1][1] - 46.0) < 1.0
    # Apart, or with the nadir on the other side (the "hidden" one now in front), nothing moves.
    apart = [_bar(100, 131), _bar(140, 160)]
    assert hidden_bases(apart, [(106.0, 46.0), (146.0, 46.0)], lambda: nadir) == [(106.0, 46.0), (146.0, 46.0)]
    other_side = np.array([300.0, 46.0])
    assert hidden_bases([front, behind], [(124.0, 46.0), (145.0, 46.0)], lambda: other_side)[1] == (145.0, 46.0)


def test_a_fragment_touching_another_colours_sure_pawn_is_not_judged_by_size(monkeypatch: pytest.MonkeyPatch) -> None:
    # Three blobs: a sure green pawn, a small red fragment touching it (the pawn behind,
    # partly hidden), and a small red print far away. Only the fragment loses its set-size
    # penalty; a blob touching a pawn of its own colour would not either.
    labels = np.zeros((100, 200), np.int32)
    labels[40:60, 40:60] = 1  # green pawn
    labels[45:55, 61:70] = 2  # red fragment, one pixel from it
    labels[45:55, 150:160] = 3  # red print, far
    found = [
        Candidate(Color.GREEN, (), (50.0, 50.0), (40, 40, 20, 20), 0.16, labels, 1),
        Candidate(Color.RED, (), (65.0, 50.0), (61, 45, 9, 10), 0.04, labels, 2),
        Candidate(Color.RED, (), (155.0, 50.0), (150, 45, 10, 10), 0.04, labels, 3),
    ]
    row = [0.0] * len(FEATURES)
    row[SIZE_DEVIATION] = 0.8
    rows = [tuple(row)] * 3
    monkeypatch.setattr(pawns, "sure_pawns", lambda rows, model: [True, False, False])
    out = pawns._hidden_sizes(found, rows, pawns.PAWN_MODEL)
    assert [r[SIZE_DEVIATION] for r in out] == [0.8, 0.0, 0.8]
    same = [replace(found[0], color=Color.RED), found[1], found[2]]
    assert [r[SIZE_DEVIATION] for r in pawns._hidden_sizes(same, rows, pawns.PAWN_MODEL)] == [0.8, 0.8, 0.8]


def test_a_piled_fragment_keeps_no_consensus_against_it_and_only_the_colours_pawn_piles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A red fragment touching a sure green blob: its sides said "against the light"
    # (the green pawn's body and shadow beside it), which no longer counts; a side that
    # agrees still does. But when another green blob is surer on its own evidence, the
    # touched one is not the green pawn: the consensus stays (its size would still go).
    labels = np.zeros((100, 200), np.int32)
    labels[40:60, 40:60] = 1  # green blob
    labels[45:55, 61:70] = 2  # red fragment, one pixel from it
    labels[45:55, 150:160] = 3  # another green blob, far
    found = [
        Candidate(Color.GREEN, (), (50.0, 50.0), (40, 40, 20, 20), 0.16, labels, 1),
        Candidate(Color.RED, (), (65.0, 50.0), (61, 45, 9, 10), 0.04, labels, 2),
        Candidate(Color.GREEN, (), (155.0, 50.0), (150, 45, 10, 10), 0.04, labels, 3),
    ]
    lit, dark = FEATURES.index("lit_consensus"), FEATURES.index("dark_consensus")
    solidity = FEATURES.index("solidity")
    row = [0.0] * len(FEATURES)
    row[lit], row[dark] = -0.9, 0.6
    weak, strong = list(row), list(row)
    weak[solidity], strong[solidity] = 0.2, 1.0  # own evidence: solidity counts for a pawn
    monkeypatch.setattr(pawns, "sure_pawns", lambda rows, model: [True, False, True])
    rows = [tuple(strong), tuple(row), tuple(weak)]
    out = pawns._hidden_sizes(found, rows, pawns.PAWN_MODEL)
    assert (out[1][lit], out[1][dark]) == (0.0, 0.6)
    assert out[0] == rows[0] and out[2] == rows[2]
    row[SIZE_DEVIATION] = 0.8
    rows = [tuple(weak), tuple(row), tuple(strong)]
    out = pawns._hidden_sizes(found, rows, pawns.PAWN_MODEL)
    assert (out[1][SIZE_DEVIATION], out[1][lit], out[1][dark]) == (0.0, -0.9, 0.6)


@pytest.mark.parametrize(
    ("centre", "angle", "nadir", "expected"),
    [
        ((130.0, 130.0), 45.0, (40.0, 40.0), True),  # along the ray from the nadir: a body seen from its side
        ((130.0, 130.0), -45.0, (40.0, 40.0), False),  # across the ray: a stroke of artwork
        ((130.0, 90.0), 0.0, (40.0, 40.0), False),  # a horizontal line, the ray ~29 degrees off it
        ((230.0, 48.0), 0.0, (0.0, 48.0), False),  # along the ray but on a lattice line (y = 48): a tile's edge
        ((230.0, 72.0), 0.0, (0.0, 72.0), True),  # along the same kind of ray in the middle of a tile row
    ],
)
def test_a_slender_blob_is_a_body_only_along_the_ray_from_the_nadir_and_off_the_lattice(
    centre: tuple[float, float], angle: float, nadir: tuple[float, float], expected: bool
) -> None:
    labels = np.zeros((300, 300), np.int32)
    cv2.fillConvexPoly(labels, cv2.boxPoints((centre, (24.0, 6.0), angle)).astype(np.int32), 1)
    box = cv2.boundingRect((labels == 1).astype(np.uint8))
    assert _along_ray(labels, 1, box, np.array(nadir), 48, 0) is expected


def test_only_a_blob_whose_box_allows_a_slender_body_is_asked_if_it_is_one() -> None:
    """A round foot is not asked (the common board pays nothing); a stick upright or diagonal is."""
    min_width = 7.2  # 0.15 tile of 48 pixels
    assert not _slender_box(0.785 * 12 * 12, 12, 12, min_width)  # a disc 12 pixels across
    assert _slender_box(5.0 * 22, 5, 22, min_width)  # an upright stick 5 x 22
    assert _slender_box(5.0 * 22, 19, 19, min_width)  # the same stick at 45 degrees
    assert not _slender_box(20.0 * 22, 20, 22, min_width)  # a wide blob
