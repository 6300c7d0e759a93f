"""A pawn's outline mirrors itself about its ray from the nadir; a picture's about the lattice axis it is drawn on.

(vision.pawn_pictures.drawn_across_its_lean, vision.pawns._across_its_lean; vision/notes/pawns.md p63.)
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

import vision.pawns as pawns_mod
from companion.board import SIZE, Color, Tile
from companion.observation import TileReading
from vision.pawn_candidates import Candidate
from vision.pawn_model import FEATURES, PawnConfig, PawnModel
from vision.pawn_pictures import drawn_across_its_lean, mirror_on_the_lattice
from vision.rectify import Rectified

T, M = 48, 36  # tile and margin pixels, as the reader's rectified board
CORRIDOR = (200, 215, 225)  # a pale sand corridor (BGR)
RED = np.array((40, 40, 200), np.float64)
_GLINT = FEATURES.index("glint")
_TILES = [TileReading(Tile.parse("NS"), 0.9) for _ in range(SIZE * SIZE)]


def _half_disc(radius: float = 8.0) -> np.ndarray:
    """A two-tone ball's colour half as the colour gate keeps it: the disc's top half, over the ball's bar."""
    yy, xx = np.mgrid[-10:11, -10:11].astype(np.float64)
    return (xx * xx + yy * yy <= radius * radius) & (yy <= -1.0)


def _egg(degrees: float) -> np.ndarray:
    """A standing pawn's outline seen obliquely: its base and its leaning top, wider at the top, drawn out
    along its ray (``degrees``, image axes), so it mirrors itself about the ray and not across it."""
    yy, xx = np.mgrid[-14:15, -14:15].astype(np.float64)
    th = np.radians(degrees)
    along = xx * np.cos(th) + yy * np.sin(th)
    across = -xx * np.sin(th) + yy * np.cos(th)
    half_width = 6.0 * np.sqrt(np.clip(1.0 - (along / 10.0) ** 2, 0.0, None)) * (1.0 + 0.35 * along / 10.0)
    return (np.abs(along) <= 10.0) & (np.abs(across) <= half_width)


def test_a_balls_half_in_the_nadirs_row_is_drawn_across_its_lean() -> None:
    # Dev sixth 7200030: the yellow half of a two-tone ball, 6 tiles along the nadir's row (ray 0 degrees):
    # its outline mirrors itself about its column, not about its row (the ray), so no lean drew it out.
    assert drawn_across_its_lean(_half_disc(), 0.0, 5.0)


@pytest.mark.parametrize("ray", [0.0, 30.0, 90.0])
def test_a_pawn_mirrors_itself_about_its_ray_whatever_the_ray(ray: float) -> None:
    assert not drawn_across_its_lean(_egg(ray), ray, 5.0)


def test_a_round_top_seen_from_above_is_not_judged() -> None:
    yy, xx = np.mgrid[-9:10, -9:10]
    assert not drawn_across_its_lean(xx * xx + yy * yy <= 64, 30.0, 5.0)


def test_where_the_nadir_is_too_uncertain_the_lean_could_be_the_pictures_axis() -> None:
    # The half disc's mirror axis is its column (90 degrees); a ray at 75 degrees known to 20 could be it.
    assert not drawn_across_its_lean(_half_disc(), 75.0, 20.0)
    assert drawn_across_its_lean(_half_disc(), 75.0, 5.0)


@pytest.mark.parametrize(("ray", "cone"), [(math.nan, 5.0), (0.0, math.nan), (0.0, math.inf)])
def test_a_view_with_no_nadir_judges_nothing(ray: float, cone: float) -> None:
    assert not drawn_across_its_lean(_half_disc(), ray, cone)


def _board(
    blobs: list[tuple[np.ndarray, Color, tuple[int, int], float, tuple[float, float]]],
) -> tuple[Rectified, list[Candidate]]:
    """Each blob (mask, colour, (row, col), logit, its light: a unit vector) painted red at a tile's centre,
    brighter toward the light, and blurred as a camera does (a pixel-sharp outline mirrors itself about a
    lattice axis as no photo's does)."""
    side = SIZE * T + 2 * M
    image = np.full((side, side, 3), CORRIDOR, np.uint8)
    labels = np.zeros((side, side), np.int32)
    found = []
    for i, (mask, color, (r, c), z, light) in enumerate(blobs, start=1):
        h, w = mask.shape
        x, y = M + c * T + (T - w) // 2, M + r * T + (T - h) // 2
        yy, xx = np.mgrid[:h, :w].astype(np.float64)
        toward = ((xx - w / 2.0) * light[0] + (yy - h / 2.0) * light[1]) / max(w, h)
        paint = np.clip(RED[None, None, :] * (0.75 + 1.2 * toward)[..., None], 0, 255).astype(np.uint8)
        image[y : y + h, x : x + w][mask] = paint[mask]
        labels[y : y + h, x : x + w][mask] = i
        ys, xs = np.nonzero(mask)
        box = (x + int(xs.min()), y + int(ys.min()), int(xs.max() - xs.min()) + 1, int(ys.max() - ys.min()) + 1)
        row = [0.0] * len(FEATURES)
        row[_GLINT] = z
        found.append(Candidate(color, tuple(row), (x + w / 2.0, y + h / 2.0), box, 0.03, labels, i))
    return Rectified(cv2.GaussianBlur(image, (0, 0), 0.7), T, M, np.eye(3), np.zeros((4, 2))), found


def _find(monkeypatch: pytest.MonkeyPatch, rect: Rectified, found: list[Candidate]) -> dict[str, tuple]:
    monkeypatch.setattr(pawns_mod, "candidates", lambda *a, **k: list(found))
    monkeypatch.setattr(pawns_mod, "without_pictures", lambda image, t, blobs, among=(): list(blobs))
    monkeypatch.setattr(pawns_mod, "printed_copies", lambda image, blobs: set())
    # The nadir (the board's centre on this flat test view) known to a quarter of a tile.
    monkeypatch.setattr(pawns_mod, "nadir_spread", lambda rect: 0.25 * T)
    cfg = PawnConfig(model=PawnModel.from_terms({"glint": ((), (1.0,))}, 0.0))
    return {d.color.value: d.square for d in pawns_mod.find_pawns(rect, _TILES, cfg)}


def test_a_balls_half_outscoring_the_pawn_gives_way_to_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # The half (more sure) on (3, 5), in the nadir's row, its drawn shading lit from the left: its colours
    # mirror themselves about no lattice axis (p57's cue is blind to it), its outline about its column.
    rect, found = _board(
        [(_half_disc(), Color.RED, (3, 5), 2.0, (-1.0, 0.0)), (_egg(-135.0), Color.RED, (1, 1), 1.0, (-1.0, 0.0))]
    )
    x, y, w, h = found[0].box
    assert not mirror_on_the_lattice(rect.image, found[0].box, found[0].labels[y : y + h, x : x + w] == 1)
    assert _find(monkeypatch, rect, found) == {"red": (1, 1)}
