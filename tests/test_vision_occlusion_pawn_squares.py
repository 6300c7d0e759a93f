"""By day the tile corners of pawns' own edge squares, the frame beside them clear, are the pawns' (o41).

t27's fresh sixth-renderer day 0022 (a clean board, o41's dev frame): red and yellow pawns on edge
squares (4, 0) and (5, 0), their boxes inside their tiles, under a violet LED spot; the light they throw back and
their shadows made the six corners of their two squares foreign: "hand or object over the board (6 tile corners
covered from its edge)". A hand comes from outside the board and crosses the frame beside the corners it covers.
"""

from __future__ import annotations

from companion.board import FIXED_TILES
from companion.observation import TileReading
from tests.support.lattice_views import paint_corners, wall_lattice
from vision.occlusion import decide, signals
from vision.rectify import Rectified

CORNERS = [(4, 0), (4, 1), (5, 0), (5, 1), (6, 0), (6, 1)]  # the corners of squares (4, 0) and (5, 0)
SHAPE = (2000, 2000)


def _readings() -> list[TileReading]:
    return [TileReading(openings=FIXED_TILES.get(divmod(i, 7), 0b0101), confidence=0.9) for i in range(49)]


def _pawn_frame(points: list[tuple[int, int]]) -> tuple[Rectified, list[tuple[int, int, int, int]]]:
    rect = wall_lattice((40, 150, 60))
    paint_corners(rect, points, (120, 150, 210))
    t, m = rect.tile_px, rect.margin_px
    boxes = [(m + 12, m + 4 * t + 14, 22, 20), (m + 12, m + 5 * t + 14, 22, 20)]  # inside their tiles
    return rect, boxes


def test_the_corners_of_pawns_edge_squares_are_theirs_when_the_frame_beside_is_clear() -> None:
    rect, boxes = _pawn_frame(CORNERS)
    bare = signals(rect, SHAPE, _readings(), 0.99)  # no pawn found there: as before
    assert bare.lattice_from_edge == len(CORNERS)
    assert "hand" in (decide(bare) or "")
    sig = signals(rect, SHAPE, _readings(), 0.99, covered={(4, 0), (5, 0)}, boxes=boxes)
    assert sig.lattice_from_edge == 0
    assert decide(sig) is None


def test_a_hand_crossing_the_frame_to_the_pawns_is_still_caught() -> None:
    rect, boxes = _pawn_frame(CORNERS)
    t, m = rect.tile_px, rect.margin_px
    rect.image[m + 4 * t : m + 6 * t, 0:m] = (120, 150, 210)  # the arm over the left frame beside them
    sig = signals(rect, SHAPE, _readings(), 0.99, covered={(4, 0), (5, 0)}, boxes=boxes)
    assert sig.lattice_from_edge == len(CORNERS)
    assert "hand" in (decide(sig) or "")


def test_a_hand_reaching_past_the_pawns_squares_is_still_caught() -> None:
    rect, boxes = _pawn_frame([*CORNERS, (4, 2), (5, 2)])
    sig = signals(rect, SHAPE, _readings(), 0.99, covered={(4, 0), (5, 0)}, boxes=boxes)
    assert sig.lattice_from_edge == len(CORNERS) + 2
    assert "hand" in (decide(sig) or "")
