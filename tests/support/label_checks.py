"""Checks a rendered photo's board label must pass, shared by the renderers' tests.

The project's own label parser (:func:`vision.dataset.parse_label`) reads it; these
checks add what a rendered board always is: the printed fixed tiles where they belong,
one to four pawns on the board, and the 23-24 treasure squares, the fixed T tiles' among them.
"""

from __future__ import annotations

from companion.board import FIXED_TILES, SIZE
from vision.dataset import parse_label


def check_board_label(label: dict) -> None:
    """Assert that ``label`` (a photo's JSON label, FORMATS.md §5) describes a real board."""
    parsed = parse_label(label)
    assert parsed.tiles is not None
    assert [str(t) for t in parsed.tiles] == [text for row in label["tiles"] for text in row]
    for (r, c), tile in FIXED_TILES.items():
        assert parsed.tiles[r * SIZE + c] == tile
    assert 1 <= len(parsed.pawns) <= 4
    assert all(0 <= v < SIZE for square in parsed.pawns.values() for v in square)
    assert parsed.treasures is not None and len(parsed.treasures) in (23, 24)  # the spare may carry the 24th
    assert {sq for sq, t in FIXED_TILES.items() if t.kind == "t"} <= parsed.treasures
