"""A picture drawn upright on its tile mirrors itself about a lattice axis and no other; a pawn does not.

(vision.pawn_pictures.mirror_on_the_lattice, vision.pawns._drawn_upright; vision/notes/pawn_pictures.md p57.)
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
from vision.pawn_pictures import mirror_on_the_lattice
from vision.rectify import Rectified

T, M = 48, 36  # tile and margin pixels, as the reader's rectified board
CORRIDOR = (200, 215, 225)  # a pale sand corridor (BGR)
RED = (40, 40, 200)
_GLINT = FEATURES.index("glint")
_TILES = [TileReading(Tile.parse("NS"), 0.9) for _ in range(SIZE * SIZE)]  # corridor down each tile's middle


def _gem(image: np.ndarray, centre: tuple[float, float], radius: float, degrees: float = 0.0) -> np.ndarray:
    """The sixth renderer's printed gem: a pentagon pointing up, a paler top facet, a dark outline; turned by
    ``degrees``. Returns its fill (the blob the colour gate keeps)."""
    r = radius
    outline = np.array([[0, -r], [r, -r / 4], [r / 2, r], [-r / 2, r], [-r, -r / 4]], np.float64)
    facet = np.array([[0, -r], [r / 3, 0], [-r / 3, 0]], np.float64)
    th = np.radians(degrees)
    turn = np.array([[np.cos(th), -np.sin(th)], [np.sin(th), np.cos(th)]])

    def place(points: np.ndarray) -> np.ndarray:
        return np.round((points @ turn.T + np.array(centre)) * 16).astype(np.int32)

    fill = np.zeros(image.shape[:2], np.uint8)
    cv2.fillConvexPoly(fill, place(outline), 1, cv2.LINE_8, 4)
    cv2.fillConvexPoly(image, place(outline), RED, cv2.LINE_AA, 4)
    cv2.fillConvexPoly(image, place(facet), (110, 110, 255), cv2.LINE_AA, 4)
    cv2.polylines(image, [place(outline)], True, (20, 20, 20), 1, cv2.LINE_AA, 4)
    return cv2.erode(fill, np.ones((3, 3), np.uint8)).astype(bool)  # inside the outline


def _body(image: np.ndarray, centre: tuple[float, float], radius: float, light: tuple[float, float]) -> np.ndarray:
    """A round red body seen from above, lit from ``light`` (a unit vector in the image): brighter toward it."""
    yy, xx = np.mgrid[: image.shape[0], : image.shape[1]].astype(np.float64)
    dx, dy = (xx - centre[0]) / radius, (yy - centre[1]) / radius
    inside = dx * dx + dy * dy <= 1.0
    facing = 0.65 + 0.35 * np.clip(-(dx * light[0] + dy * light[1]), -1.0, 1.0)
    lit = np.array(RED, np.float64)[None, None, :] * facing[..., None]
    image[inside] = np.clip(lit[inside], 0, 255).astype(np.uint8)
    return inside


def _camera(image: np.ndarray) -> np.ndarray:
    """The camera's blur (a photo's edges are never pixel-sharp: a pixel-sharp round body lit along a row
    has staircase edges that no other axis mirrors, and would pass for a picture)."""
    return cv2.GaussianBlur(image, (0, 0), 0.7)


def _box(mask: np.ndarray) -> tuple[tuple[int, int, int, int], np.ndarray]:
    ys, xs = np.nonzero(mask)
    x, y = int(xs.min()), int(ys.min())
    w, h = int(xs.max()) - x + 1, int(ys.max()) - y + 1
    return (x, y, w, h), mask[y : y + h, x : x + w]


def _judge(draw: object, *args: object) -> bool:
    image = np.full((80, 80, 3), CORRIDOR, np.uint8)
    mask = draw(image, (40.3, 39.6), *args)  # type: ignore[operator]
    return mirror_on_the_lattice(_camera(image), *_box(mask))


@pytest.mark.parametrize("turn", [0.0, 90.0, 180.0])
def test_a_gem_drawn_upright_on_a_tile_turned_in_quarter_turns_is_a_picture(turn: float) -> None:
    assert _judge(_gem, 9.0, turn)


def test_a_gem_turned_off_the_lattice_is_not_judged_a_picture() -> None:
    assert not _judge(_gem, 9.0, 30.0)


def test_a_round_body_lit_from_a_diagonal_is_no_picture() -> None:
    assert not _judge(_body, 9.0, (-0.7071, -0.7071))


def test_a_round_body_lit_along_a_row_is_as_symmetric_about_other_axes() -> None:
    # Lit from the left: it mirrors itself about its row, but a smooth round body nearly as well about the
    # axes beside it, which a picture's sharp outline and facets do not.
    assert not _judge(_body, 9.0, (-1.0, 0.0))


def _rect_and_blobs(
    blobs: list[tuple[object, Color, tuple[int, int], float, tuple]],
) -> tuple[Rectified, list[Candidate]]:
    """A board with each blob drawn at a tile's centre: (draw, colour, (row, col), logit, draw's arguments)."""
    side = SIZE * T + 2 * M
    image = np.full((side, side, 3), CORRIDOR, np.uint8)
    labels = np.zeros((side, side), np.int32)
    found = []
    for i, (draw, color, (r, c), z, args) in enumerate(blobs, start=1):
        centre = (M + (c + 0.5) * T, M + (r + 0.5) * T)
        mask = draw(image, centre, *args)  # type: ignore[operator]
        labels[mask] = i
        box, _ = _box(mask)
        row = [0.0] * len(FEATURES)
        row[_GLINT] = z
        found.append(Candidate(color, tuple(row), centre, box, 0.03, labels, i))
    return Rectified(_camera(image), T, M, np.eye(3), np.zeros((4, 2))), found


def _find(monkeypatch: pytest.MonkeyPatch, rect: Rectified, found: list[Candidate]) -> dict[str, tuple]:
    monkeypatch.setattr(pawns_mod, "candidates", lambda *a, **k: list(found))
    monkeypatch.setattr(pawns_mod, "without_pictures", lambda image, t, blobs, among=(): list(blobs))
    monkeypatch.setattr(pawns_mod, "printed_copies", lambda image, blobs: set())
    cfg = PawnConfig(model=PawnModel.from_terms({"glint": ((), (1.0,))}, 0.0))
    return {d.color.value: d.square for d in pawns_mod.find_pawns(rect, _TILES, cfg)}


def test_an_upright_gem_outscoring_the_pawn_gives_way_to_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # Without the rule the red gem on (3, 3) (more sure) is read as the red pawn.
    rect, found = _rect_and_blobs(
        [(_gem, Color.RED, (3, 3), 2.0, (9.0,)), (_body, Color.RED, (1, 1), 1.0, (9.0, (-0.7071, -0.7071)))]
    )
    assert _find(monkeypatch, rect, found) == {"red": (1, 1)}


def test_an_upright_gem_of_a_colour_not_in_play_is_not_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    rect, found = _rect_and_blobs([(_gem, Color.RED, (3, 3), 2.0, (9.0,))])
    assert _find(monkeypatch, rect, found) == {}


def _lying(image: np.ndarray, centre: tuple[float, float], half_length: float) -> np.ndarray:
    """A red pawn lying on its side along a row, lit from above the board's top edge: brighter toward the top,
    so it mirrors itself about its column axis (its two ends alike) and about no axis beside it."""
    yy, xx = np.mgrid[: image.shape[0], : image.shape[1]].astype(np.float64)
    dx, dy = (xx - centre[0]) / half_length, (yy - centre[1]) / 6.0
    inside = dx * dx + dy * dy <= 1.0
    lit = np.array(RED, np.float64)[None, None, :] * (0.7 - 0.3 * np.clip(dy, -1.0, 1.0))[..., None]
    image[inside] = np.clip(lit[inside], 0, 255).astype(np.uint8)
    return inside


def test_a_pawn_lying_along_a_row_mirrors_itself_but_is_longer_than_a_picture(monkeypatch: pytest.MonkeyPatch) -> None:
    rect, found = _rect_and_blobs([(_lying, Color.RED, (2, 4), 2.0, (14.0,))])  # 0.6 tile long
    x, y, w, h = found[0].box
    assert mirror_on_the_lattice(rect.image, found[0].box, found[0].labels[y : y + h, x : x + w] == 1)
    assert _find(monkeypatch, rect, found) == {"red": (2, 4)}


def test_a_symmetric_blob_off_the_tiles_centre_is_not_judged(monkeypatch: pytest.MonkeyPatch) -> None:
    # A pile member stands about 0.22 tile off its square's centre, where no picture is printed.
    rect, found = _rect_and_blobs([(_gem, Color.RED, (3, 3), 2.0, (9.0,))])
    shifted = np.roll(rect.image, 11, axis=1)
    labels = np.roll(found[0].labels, 11, axis=1)
    x, y, w, h = found[0].box
    moved = Candidate(
        Color.RED, found[0].features, (found[0].base[0] + 11, found[0].base[1]), (x + 11, y, w, h), 0.03, labels, 1
    )
    assert mirror_on_the_lattice(shifted, moved.box, labels[y : y + h, x + 11 : x + 11 + w] == 1)
    rect = Rectified(shifted, T, M, np.eye(3), np.zeros((4, 2)))
    assert _find(monkeypatch, rect, [moved]) == {"red": (3, 3)}
