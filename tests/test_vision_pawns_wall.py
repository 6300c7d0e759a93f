"""Wall artwork is no pawn: a pawn is set down on the path (vision.pawns._in_the_wall)."""

from __future__ import annotations

import numpy as np
import pytest

import vision.pawns as pawns_mod
from companion.board import SIZE, Color, Tile
from companion.observation import TileReading
from vision.pawn_candidates import Candidate
from vision.pawn_model import FEATURES, PawnConfig, PawnModel
from vision.rectify import Rectified

_GLINT = FEATURES.index("glint")
T, M = 48, 36  # tile and margin pixels: tile (r, c) spans x M + c T .. M + (c + 1) T
_TILES = [TileReading(Tile.parse("NS"), 0.9) for _ in range(SIZE * SIZE)]  # corridor down each tile's middle


def _rect() -> Rectified:
    side = SIZE * T + 2 * M
    return Rectified(np.full((side, side, 3), 128, np.uint8), T, M, np.eye(3), np.zeros((4, 2)))


def _board(blobs: list[tuple[Color, tuple[int, int], float]]) -> list[Candidate]:
    """Square blobs 8 px wide, each as (colour, centre (x, y), logit); the base is the centre."""
    side = SIZE * T + 2 * M
    labels = np.zeros((side, side), np.int32)
    out = []
    for i, (color, (x, y), z) in enumerate(blobs, start=1):
        labels[y - 4 : y + 4, x - 4 : x + 4] = i
        row = [0.0] * len(FEATURES)
        row[_GLINT] = z
        out.append(Candidate(color, tuple(row), (float(x), float(y)), (x - 4, y - 4, 8, 8), 0.03, labels, i))
    return out


def _find(monkeypatch: pytest.MonkeyPatch, found: list[Candidate], lighting: str = "day") -> dict[str, tuple]:
    monkeypatch.setattr(pawns_mod, "candidates", lambda *a, **k: list(found))
    monkeypatch.setattr(pawns_mod, "without_pictures", lambda image, t, blobs, among=(): list(blobs))
    monkeypatch.setattr(pawns_mod, "printed_copies", lambda image, blobs: set())
    cfg = PawnConfig(model=PawnModel.from_terms({"glint": ((), (1.0,))}, 0.0))
    dets = pawns_mod.find_pawns(_rect(), _TILES, cfg, lighting=lighting)
    return {d.color.value: d.square for d in dets}


def _x(c: int, offset: float) -> int:
    """A column's pixel ``offset`` tiles from its centre line (the NS corridor's)."""
    return round(M + (c + 0.5 + offset) * T)


def _y(r: int) -> int:
    return round(M + (r + 0.5) * T)


def test_a_lone_blob_standing_in_the_wall_gives_way_to_its_colours_pawn(monkeypatch: pytest.MonkeyPatch) -> None:
    # Green hedge artwork in the wall of (3, 3) (0.4 tile off the corridor's centre line) outscores the green
    # pawn on (1, 1)'s corridor: without the rule the artwork is read as the pawn.
    found = _board([(Color.GREEN, (_x(3, -0.4), _y(3)), 2.0), (Color.GREEN, (_x(1, 0.0), _y(1)), 1.0)])
    assert _find(monkeypatch, found) == {"green": (1, 1)}


def test_a_lone_blob_in_the_wall_is_not_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    found = _board([(Color.GREEN, (_x(3, -0.4), _y(3)), 2.0), (Color.RED, (_x(5, 0.05), _y(5)), 1.5)])
    assert _find(monkeypatch, found) == {"red": (5, 5)}


def test_a_pawn_pushed_into_the_wall_beside_another_stays(monkeypatch: pytest.MonkeyPatch) -> None:
    # Two pawns on one square: one stands in the corridor, the other is pushed aside into the wall.
    found = _board([(Color.RED, (_x(3, -0.4), _y(3)), 2.0), (Color.BLUE, (_x(3, 0.05), _y(3)), 2.0)])
    assert _find(monkeypatch, found) == {"red": (3, 3), "blue": (3, 3)}


def test_a_foot_beside_the_corridor_is_not_the_wall(monkeypatch: pytest.MonkeyPatch) -> None:
    # 0.2 tile off the centre line: between certain corridor (0.12) and certain wall (0.27), a pawn at the
    # corridor's side.
    found = _board([(Color.YELLOW, (_x(2, 0.2), _y(2)), 2.0)])
    assert _find(monkeypatch, found) == {"yellow": (2, 2)}


def test_the_rule_does_not_run_at_night(monkeypatch: pytest.MonkeyPatch) -> None:
    found = _board([(Color.GREEN, (_x(3, -0.4), _y(3)), 8.0)])
    assert _find(monkeypatch, found, lighting="night") == {"green": (3, 3)}


def test_a_pawn_pushed_into_the_wall_against_a_pawn_on_the_next_square_stays(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A crowd over two squares (p59): the red foot stands in the wall of (3, 3), pressed against the blue pawn
    # standing at the corridor's side just over the border on (4, 3). No other pawn's base is on (3, 3), but the
    # two bodies touch: the red is a pawn pushed aside, not wall artwork.
    red = (Color.RED, (_x(3, -0.4), M + round(3.92 * T)), 2.0)
    blue = (Color.BLUE, (_x(3, -0.22), M + round(4.08 * T)), 2.0)
    assert _find(monkeypatch, _board([red, blue])) == {"red": (3, 3), "blue": (4, 3)}
    # The same red blob a few pixels apart from the blue is alone in the wall again.
    apart = (Color.RED, (_x(3, -0.4), M + round(3.8 * T)), 2.0)
    assert _find(monkeypatch, _board([apart, blue])) == {"blue": (4, 3)}
