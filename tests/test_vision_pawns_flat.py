"""One flat ink where a picture is printed is a picture; a shaded, glinting, clipped or piled body is judged a pawn.

(vision.pawns._one_flat_ink; vision/notes/pawns.md p64.)
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import vision.pawns as pawns_mod
from companion.board import SIZE, Color, Tile
from companion.observation import TileReading
from vision.pawn_candidates import Candidate
from vision.pawn_model import FEATURES, PawnConfig, PawnModel
from vision.rectify import Rectified

T, M = 48, 36  # tile and margin pixels, as the reader's rectified board
CORRIDOR = (200, 215, 225)  # a pale sand corridor (BGR)
GREEN = (60, 160, 50)
CLIPPED_GREEN = (120, 255, 110)  # a glossy green ball in a strong light: its green channel at the sensor's ceiling
_SATURATION = FEATURES.index("saturation")
_SURFACE = FEATURES.index("surface")
_SMOOTH_RANGE = FEATURES.index("smooth_range")
_GLINT = FEATURES.index("glint")
_SHADOW = FEATURES.index("shadow")
_DARK = FEATURES.index("dark_x")
_TILES = [TileReading(Tile.parse("NS"), 0.9) for _ in range(SIZE * SIZE)]  # corridor down each tile's middle

#: The held-out creatures' shading and glint (p64 census: ``surface`` 0.02-0.13, ``smooth_range`` 0.02-0.10, no
#: glint), a shaded body's (the chosen pawns' median) and a small dome's seen from straight above (the third
#: renderer's: flat inside its rim, but a glint).
FLAT = {"surface": 0.05, "smooth_range": 0.05, "glint": 0.0}
SHADED = {"surface": 0.48, "smooth_range": 0.33, "glint": 0.0}
DOME = {"surface": 0.1, "smooth_range": 0.07, "glint": 0.9}
#: A flat face casting a shadow down-right, where a pawn of each other colour casts its own (the fourth renderer's
#: bricks); and a flat print whose darker surroundings lie up-left.
BLOCK = FLAT | {"shadow": 0.7, "dark_x": 0.7, "dark_y": 0.7}
CASTING = SHADED | {"shadow": 0.7, "dark_x": 0.7, "dark_y": 0.7}
UNDER_A_PRINT = FLAT | {"shadow": 0.7, "dark_x": -0.7, "dark_y": -0.7}


def _disc(image: np.ndarray, centre: tuple[float, float], colour: tuple[int, int, int]) -> np.ndarray:
    """A blob 0.5 tile across at ``centre`` in ``colour``; returns its mask."""
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.circle(mask, (round(centre[0]), round(centre[1])), T // 4, 1, -1)
    image[mask > 0] = colour
    return mask > 0


def _board(
    blobs: list[tuple[Color, tuple[float, float], dict[str, float], float, tuple[int, int, int]]],
) -> tuple[Rectified, list[Candidate]]:
    """A board with each blob drawn: (colour, (row, col) of its centre in tiles, shading, sureness, ink)."""
    side = SIZE * T + 2 * M
    image = np.full((side, side, 3), CORRIDOR, np.uint8)
    labels = np.zeros((side, side), np.int32)
    found = []
    for i, (color, (r, c), shading, sure, ink) in enumerate(blobs, start=1):
        centre = (M + (c + 0.5) * T, M + (r + 0.5) * T)
        mask = _disc(image, centre, ink)
        labels[mask] = i
        ys, xs = np.nonzero(mask)
        box = (int(xs.min()), int(ys.min()), int(xs.max() - xs.min()) + 1, int(ys.max() - ys.min()) + 1)
        row = [0.0] * len(FEATURES)
        row[_SATURATION] = sure
        row[_SURFACE], row[_SMOOTH_RANGE], row[_GLINT] = shading["surface"], shading["smooth_range"], shading["glint"]
        row[_SHADOW], row[_DARK], row[_DARK + 1] = (shading.get(k, 0.0) for k in ("shadow", "dark_x", "dark_y"))
        found.append(Candidate(color, tuple(row), centre, box, 0.05, labels, i))
    return Rectified(image, T, M, np.eye(3), np.zeros((4, 2))), found


def _find(monkeypatch: pytest.MonkeyPatch, rect: Rectified, found: list[Candidate]) -> dict[str, tuple]:
    monkeypatch.setattr(pawns_mod, "candidates", lambda *a, **k: list(found))
    monkeypatch.setattr(pawns_mod, "without_pictures", lambda image, t, blobs, among=(): list(blobs))
    monkeypatch.setattr(pawns_mod, "printed_copies", lambda image, blobs: set())
    # Sureness only (the model's own shading terms left out): the rule alone judges the shading.
    cfg = PawnConfig(model=PawnModel.from_terms({"saturation": ((), (1.0,))}, 0.0))
    return {d.color.value: d.square for d in pawns_mod.find_pawns(rect, _TILES, cfg)}


def test_one_flat_ink_at_a_tiles_centre_of_a_colour_not_in_play_is_not_reported(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rect, found = _board([(Color.GREEN, (3, 3), FLAT, 2.0, GREEN)])
    assert _find(monkeypatch, rect, found) == {}


def test_one_flat_ink_outscoring_the_pawn_gives_way_to_it(monkeypatch: pytest.MonkeyPatch) -> None:
    rect, found = _board([(Color.GREEN, (3, 3), FLAT, 3.0, GREEN), (Color.GREEN, (1, 5), SHADED, 1.0, GREEN)])
    assert _find(monkeypatch, rect, found) == {"green": (1, 5)}


@pytest.mark.parametrize("shading", [SHADED, DOME], ids=["lit-and-shaded", "glint"])
def test_a_shaded_or_glinting_body_at_a_tiles_centre_is_a_pawn(
    monkeypatch: pytest.MonkeyPatch, shading: dict[str, float]
) -> None:
    rect, found = _board([(Color.GREEN, (3, 3), shading, 2.0, GREEN)])
    assert _find(monkeypatch, rect, found) == {"green": (3, 3)}


def test_a_body_the_sensor_clipped_is_not_judged_flat(monkeypatch: pytest.MonkeyPatch) -> None:
    rect, found = _board([(Color.GREEN, (3, 3), FLAT, 2.0, CLIPPED_GREEN)])
    assert _find(monkeypatch, rect, found) == {"green": (3, 3)}


def test_a_flat_blob_off_the_tiles_centre_is_not_judged(monkeypatch: pytest.MonkeyPatch) -> None:
    rect, found = _board([(Color.GREEN, (3.3, 3), FLAT, 2.0, GREEN)])  # 0.3 tile off: no picture there
    assert _find(monkeypatch, rect, found) == {"green": (3, 3)}


def test_a_flat_blob_against_another_pawn_is_a_pile_member(monkeypatch: pytest.MonkeyPatch) -> None:
    # A green fragment at the centre, pressed against a red pawn beside it: its piece's shading is hidden.
    rect, found = _board([(Color.GREEN, (3, 3), FLAT, 2.0, GREEN), (Color.RED, (3, 3.45), SHADED, 2.0, (40, 40, 200))])
    assert _find(monkeypatch, rect, found) == {"green": (3, 3), "red": (3, 3)}


@pytest.mark.parametrize(
    ("shading", "read"), [(BLOCK, {"green": (3, 3)}), (UNDER_A_PRINT, {})], ids=["along", "against"]
)
def test_a_flat_face_casting_its_shadow_where_the_other_pawns_do_is_a_body(
    monkeypatch: pytest.MonkeyPatch, shading: dict[str, float], read: dict[str, tuple[int, int]]
) -> None:
    pawns = [(color, square, CASTING, 3.0, ink) for color, square, ink in
             [(Color.RED, (1, 1), (40, 40, 200)), (Color.BLUE, (5, 5), (200, 90, 40))]]  # fmt: skip
    rect, found = _board([(Color.GREEN, (3, 3), shading, 2.0, GREEN), *pawns])
    assert _find(monkeypatch, rect, found) == read | {"red": (1, 1), "blue": (5, 5)}


def test_a_flat_blob_cut_out_of_a_larger_region_of_its_colour_is_measured_on_a_part(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A green ball against a green hedge: the artwork test kept its lower half, a flat blob whose hue runs on
    # past its upper outline into the hedge (not a candidate).
    rect, found = _board([(Color.GREEN, (3, 3), FLAT, 2.0, GREEN)])
    x, y, w, h = found[0].box
    hedge = rect.image.copy()
    hedge[y - 6 : y + h // 2, x - 6 : x + w + 6][found[0].labels[y - 6 : y + h // 2, x - 6 : x + w + 6] == 0] = (
        40,
        180,
        60,
    )
    rect = Rectified(hedge, T, M, np.eye(3), np.zeros((4, 2)))
    assert _find(monkeypatch, rect, found) == {"green": (3, 3)}
