"""The Labyrinth board: tiles, gates, pushes and reachability.

Pure, immutable values with no I/O. Everything else in the project (rules,
referee, vision, hint search, LED guidance) builds on this module, so it is
kept small, exact and fast.

Representation
--------------
* A tile is its set of openings, a 4-bit mask (``N=1, E=2, S=4, W=8``), and
  the ten valid shapes are the members of :class:`Tile` (an ``IntEnum``, so a
  tile *is* its mask and bit operations stay cheap).
* A square is ``(row, col)``; internally squares are indexed ``row * 7 + col``.
* A :class:`Board` holds the 49 tiles row by row, the spare, the pawns and the
  last push. Reachability is a bit-parallel flood fill over a 49-bit integer.

The pieces (sides, tile shapes, squares, colours, gates) live in
:mod:`companion.pieces` and the editions in :mod:`companion.editions`; both are
re-exported here, so ``companion.board`` stays the one import the project uses.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.editions import EDITIONS, Edition
from companion.pieces import (
    COLOR_BY_INITIAL,
    COLORS,
    DIRECTIONS,
    FIXED_MASK,
    FIXED_TILES,
    GATES,
    SIZE,
    SQUARES,
    START_SQUARES,
    TILE_BY_GLYPH,
    Color,
    Direction,
    Gate,
    InvalidStateError,
    Square,
    Tile,
    distinct_rotations,
    format_square,
    index_square,
    is_fixed_square,
    mask_squares,
    parse_square,
    push_line,
    push_square,
    rotate_mask,
    same_shape,
    square_index,
    squares_mask,
)

__all__ = [
    "COLORS",
    "COLOR_BY_INITIAL",
    "DIRECTIONS",
    "EDITIONS",
    "FIXED_MASK",
    "FIXED_TILES",
    "GATES",
    "SIZE",
    "SQUARES",
    "START_SQUARES",
    "TILE_BY_GLYPH",
    "Board",
    "Color",
    "Direction",
    "Edition",
    "Gate",
    "InvalidStateError",
    "Square",
    "Tile",
    "distinct_rotations",
    "flood",
    "format_square",
    "index_square",
    "is_fixed_square",
    "mask_squares",
    "parse_square",
    "push_line",
    "push_square",
    "random_setup",
    "rotate_mask",
    "same_shape",
    "square_index",
    "squares_mask",
]


# --------------------------------------------------------------------------- the board


def _neighbour_masks(tiles: Sequence[int]) -> tuple[int, int]:
    """Bit sets of squares connected to their east / south neighbour."""
    east = south = 0
    for i, t in enumerate(tiles):
        if t & 2 and i % SIZE != SIZE - 1 and tiles[i + 1] & 8:
            east |= 1 << i
        if t & 4 and i < SQUARES - SIZE and tiles[i + SIZE] & 1:
            south |= 1 << i
    return east, south


def flood(start: int, east: int, south: int) -> int:
    """Bit-parallel flood fill: every square connected to any square of ``start``."""
    reach = start
    while True:
        grown = (
            reach
            | ((reach & east) << 1)
            | ((reach >> 1) & east)
            | ((reach & south) << SIZE)
            | ((reach >> SIZE) & south)
        )
        if grown == reach:
            return reach
        reach = grown


@dataclass(frozen=True)
class Board:
    """The 7x7 tiles (row-major), the spare, the pawns and the last push.

    Immutable and hashable; every change returns a new board.
    ``pawns`` maps colours to squares for the pawns on the board.
    """

    tiles: tuple[Tile, ...]
    spare: Tile
    pawns: Mapping[Color, Square] = field(default_factory=dict)
    last_push: Gate | None = None

    def __post_init__(self) -> None:
        if len(self.tiles) != SQUARES:
            raise InvalidStateError(f"a board has {SQUARES} tiles, got {len(self.tiles)}")
        # canonical, immutable pawn mapping in colour order
        object.__setattr__(self, "pawns", _FrozenPawns(self.pawns))

    # ---- construction / conversion

    @classmethod
    def from_rows(
        cls,
        rows: Sequence[Sequence[object]],
        spare: object,
        pawns: Mapping[Any, Any] | None = None,
        last_push: object = None,
    ) -> Board:
        """Build from 7 rows of 7 opening strings (or tiles), parsing everything."""
        if not isinstance(rows, (list, tuple)) or len(rows) != SIZE:
            raise InvalidStateError(f"'tiles' must be {SIZE} rows, got {_describe(rows)}")
        tiles: list[Tile] = []
        for r, row in enumerate(rows):
            if not isinstance(row, (list, tuple)) or len(row) != SIZE:
                raise InvalidStateError(f"'tiles' row {r} must hold {SIZE} tiles, got {_describe(row)}")
            for c, t in enumerate(row):
                try:
                    tiles.append(t if isinstance(t, Tile) else Tile.parse(t))
                except InvalidStateError as exc:
                    raise InvalidStateError(f"tile at [{r},{c}]: {exc}") from None
        try:
            spare_tile = spare if isinstance(spare, Tile) else Tile.parse(spare)
        except InvalidStateError as exc:
            raise InvalidStateError(f"spare: {exc}") from None
        parsed_pawns: dict[Color, Square] = {}
        if pawns is not None:
            if not isinstance(pawns, Mapping):
                raise InvalidStateError(f"'pawns' must map color to [row, col], got {_describe(pawns)}")
            for color, square in pawns.items():
                col = Color.parse(color)
                try:
                    parsed_pawns[col] = parse_square(square)
                except InvalidStateError as exc:
                    raise InvalidStateError(f"pawn {col}: {exc}") from None
        gate = None if last_push is None else Gate.parse(last_push)
        return cls(tuple(tiles), spare_tile, parsed_pawns, gate)

    @classmethod
    def from_json(cls, data: object) -> Board:
        """Parse a board state (FORMATS.md §4)."""
        if not isinstance(data, Mapping):
            raise InvalidStateError(f"a board state must be a JSON object, got {_describe(data)}")
        for key in ("tiles", "spare"):
            if key not in data:
                raise InvalidStateError(f"board state has no {key!r}")
        return cls.from_rows(data["tiles"], data["spare"], data.get("pawns"), data.get("last_push"))

    def to_json(self) -> dict[str, Any]:
        return {
            "tiles": [[str(self.tiles[r * SIZE + c]) for c in range(SIZE)] for r in range(SIZE)],
            "spare": str(self.spare),
            "pawns": {str(color): list(sq) for color, sq in self.pawns.items()},
            "last_push": None if self.last_push is None else str(self.last_push),
        }

    # ---- access

    def tile(self, square: Square) -> Tile:
        return self.tiles[square[0] * SIZE + square[1]]

    def rows(self) -> list[list[Tile]]:
        return [list(self.tiles[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)]

    def pawn(self, color: Color) -> Square:
        try:
            return self.pawns[color]
        except KeyError:
            raise InvalidStateError(f"player {color} has no pawn on the board") from None

    # ---- rules mechanics

    def legal_pushes(self) -> list[Gate]:
        """Every gate except the reverse of the last push, sorted as strings."""
        banned = None if self.last_push is None else self.last_push.reverse
        return [g for g in GATES if g is not banned]

    def is_legal_push(self, gate: Gate) -> bool:
        return self.last_push is None or gate is not self.last_push.reverse

    def push(self, gate: Gate, spare: Tile | None = None) -> Board:
        """Insert the spare (laid as ``spare``, a rotation of it) at ``gate``.

        Mechanical: any gate works; legality (the reverse ban) is :meth:`legal_pushes`.
        """
        gate = Gate.parse(gate)
        laid = self.spare if spare is None else spare if isinstance(spare, Tile) else Tile.parse(spare)
        if not same_shape(self.spare, laid):
            raise InvalidStateError(f"spare {str(laid)!r} is not a rotation of the spare {str(self.spare)!r}")
        tiles, leaving = push_line(self.tiles, gate, laid)
        pawns = {color: push_square(sq, gate) for color, sq in self.pawns.items()}
        return Board(tuple(tiles), leaving, pawns, gate)

    def connectivity(self) -> tuple[int, int]:
        """(east, south) bit sets of squares joined to their east/south neighbour.

        Cached on the (immutable) board: the referee and the LED guidance ask for
        several pawns' reachable squares on the same board.
        """
        cached: tuple[int, int] | None = self.__dict__.get("_connectivity")
        if cached is None:
            cached = _neighbour_masks(self.tiles)
            object.__setattr__(self, "_connectivity", cached)
        return cached

    def reachable_mask(self, start: Square | Iterable[Square]) -> int:
        """49-bit set of squares reachable from ``start`` (one square or several)."""
        if isinstance(start, tuple) and len(start) == 2 and isinstance(start[0], int):
            bits = 1 << (start[0] * SIZE + start[1])
        else:
            bits = squares_mask(start)  # type: ignore[arg-type]
        east, south = self.connectivity()
        return flood(bits, east, south)

    def reachable(self, start: Square) -> list[Square]:
        """Squares reachable from ``start`` along open corridors, sorted, ``start`` included."""
        return mask_squares(self.reachable_mask(start))

    def is_connected(self, a: Square, b: Square) -> bool:
        return bool(self.reachable_mask(a) >> square_index(b) & 1)

    def with_pawns(self, pawns: Mapping[Color, Square]) -> Board:
        return Board(self.tiles, self.spare, pawns, self.last_push)

    def inventory_problems(self) -> list[str]:
        """How this board differs from a physical setup (fixed tiles, tile counts); empty when it fits."""
        problems = [
            f"fixed square {list(sq)} holds {self.tile(sq)}, expected {tile}"
            for sq, tile in FIXED_TILES.items()
            if self.tile(sq) != tile
        ]
        movable = [t for i, t in enumerate(self.tiles) if not FIXED_MASK >> i & 1] + [self.spare]
        counts = {kind: sum(1 for t in movable if t.kind == kind) for kind in ("straight", "corner", "t")}
        if counts["t"] != 6:
            problems.append(f"{counts['t']} movable T-junctions, expected 6")
        if counts["straight"] + counts["corner"] != 28:
            problems.append(f"{counts['straight'] + counts['corner']} movable straights and corners, expected 28")
        return problems

    # ---- display

    def __str__(self) -> str:
        lines = []
        for r in range(SIZE):
            row = "".join(self.tiles[r * SIZE + c].glyph for c in range(SIZE))
            marks = " ".join(f"{col.value[0].upper()}@{c}" for col, (pr, c) in self.pawns.items() if pr == r)
            lines.append(row + ("  " + marks if marks else ""))
        last = f" last={self.last_push}" if self.last_push else ""
        lines.append(f"spare {self.spare.glyph} ({self.spare}){last}")
        return "\n".join(lines)

    @classmethod
    def from_text(cls, text: str) -> Board:
        """Parse the text form that ``str(board)`` prints (logs, doctests, fixtures).

        Seven rows of seven glyphs, each optionally followed by pawn marks such as
        ``R@0 Y@6`` (colour initial @ column), then ``spare <glyph> (<openings>)``
        and an optional `` last=<gate>``.
        """
        lines = [line.rstrip() for line in text.strip("\n").splitlines() if line.strip()]
        if len(lines) != SIZE + 1:
            raise InvalidStateError(f"a board text has {SIZE} rows and a spare line, got {len(lines)} lines")
        tiles: list[Tile] = []
        pawns: dict[Color, Square] = {}
        for r, line in enumerate(lines[:SIZE]):
            glyphs, _, marks = line.partition(" ")
            if len(glyphs) != SIZE or any(g not in TILE_BY_GLYPH for g in glyphs):
                raise InvalidStateError(f"board text row {r} {line!r}: expected {SIZE} tile glyphs")
            tiles.extend(TILE_BY_GLYPH[g] for g in glyphs)
            for mark in marks.split():
                initial, at, col = mark.partition("@")
                color = COLOR_BY_INITIAL.get(initial)
                if color is None or not at or not col.isdigit() or int(col) >= SIZE:
                    raise InvalidStateError(f"board text row {r}: bad pawn mark {mark!r}, expected e.g. 'R@3'")
                pawns[color] = (r, int(col))
        words = lines[SIZE].split()
        if len(words) not in (3, 4) or words[0] != "spare" or not (words[2].startswith("(") and words[2].endswith(")")):
            raise InvalidStateError(f"board text spare line {lines[SIZE]!r}: expected 'spare ┬ (ESW) [last=N3]'")
        spare = Tile.parse(words[2][1:-1])
        if words[1] != spare.glyph:
            raise InvalidStateError(f"board text spare line {lines[SIZE]!r}: glyph {words[1]!r} is not {spare}")
        last = None
        if len(words) == 4:
            if not words[3].startswith("last="):
                raise InvalidStateError(f"board text spare line {lines[SIZE]!r}: expected 'last=<gate>' at the end")
            last = Gate.parse(words[3][len("last=") :])
        return cls(tuple(tiles), spare, pawns, last)

    def __repr__(self) -> str:
        return f"Board.from_json({self.to_json()!r})"


class _FrozenPawns(dict):  # type: ignore[type-arg]
    """A read-only, hashable colour -> square mapping kept in colour order."""

    def __init__(self, pawns: Mapping[Color, Square] | Iterable[tuple[Color, Square]] = ()) -> None:
        pairs = pawns.items() if isinstance(pawns, Mapping) else pawns
        super().__init__(
            sorted(
                ((Color.parse(k) if not isinstance(k, Color) else k, tuple(v)) for k, v in pairs),
                key=lambda kv: COLORS.index(kv[0]),
            )
        )

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(self.items()))

    def __reduce__(self) -> tuple[type, tuple[dict[Color, Square]]]:
        # pickle/copy would otherwise rebuild the dict item by item through the blocked __setitem__
        return (_FrozenPawns, (dict(self),))

    def _readonly(self, *args: object, **kwargs: object) -> None:
        raise TypeError("board pawns are immutable; use Board.with_pawns")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _readonly  # type: ignore[assignment]


def _describe(value: object) -> str:
    if isinstance(value, (list, tuple)):
        return f"{type(value).__name__} of length {len(value)}"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def random_setup(
    rng: random.Random,
    edition: Edition | str = "classic",
    colors: Iterable[Color] | None = None,
) -> tuple[Board, list[str | None]]:
    """A random physical setup: fixed tiles, shuffled movable tiles at random rotations.

    Returns the board (pawns on their start corners) and the treasure on each of the
    49 squares plus the spare (index 49), so a caller can track tile identities.
    """
    ed = EDITIONS[edition] if isinstance(edition, str) else edition
    movable = ed.movable_tiles()
    rng.shuffle(movable)
    tiles: list[Tile] = []
    treasures: list[str | None] = []
    fixed_names = iter(ed.fixed_treasures)
    for i in range(SQUARES):
        sq = index_square(i)
        if sq in FIXED_TILES:
            tiles.append(FIXED_TILES[sq])
            treasures.append(None if sq in START_SQUARES else next(fixed_names))
        else:
            tile, name = movable.pop()
            tiles.append(tile.rotated(rng.randrange(4)))
            treasures.append(name)
    spare, spare_name = movable.pop()
    treasures.append(spare_name)
    chosen = list(colors) if colors is not None else list(ed.start_colors.values())
    pawns = {color: sq for sq, color in ed.start_colors.items() if color in chosen}
    return Board(tuple(tiles), spare.rotated(rng.randrange(4)), pawns), treasures
