"""The pieces of the Labyrinth: sides, tile shapes, squares, colours and gates.

Pure values with no I/O, split from :mod:`companion.board` so the board module holds
only the board itself. Everything here is re-exported by :mod:`companion.board`, which
stays the one import the rest of the project uses.

* A tile is its set of openings, a 4-bit mask (``N=1, E=2, S=4, W=8``), and
  the ten valid shapes are the members of :class:`Tile` (an ``IntEnum``, so a
  tile *is* its mask and bit operations stay cheap).
* A square is ``(row, col)``; internally squares are indexed ``row * 7 + col``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from typing import Any

SIZE = 7
SQUARES = SIZE * SIZE

Square = tuple[int, int]


class InvalidStateError(ValueError):
    """Malformed input: a tile, gate, square, colour or board state that cannot be parsed."""


# --------------------------------------------------------------------------- directions


class Direction(enum.IntFlag):
    """One side of a tile; the values are the tile-mask bits."""

    N = 1
    E = 2
    S = 4
    W = 8

    @property
    def opposite(self) -> Direction:
        return Direction(((self << 2) | (self >> 2)) & 15)

    @property
    def delta(self) -> Square:
        """Row/column step when walking out through this side."""
        return _DELTAS[self]


_DELTAS = {Direction.N: (-1, 0), Direction.E: (0, 1), Direction.S: (1, 0), Direction.W: (0, -1)}
DIRECTIONS: tuple[Direction, ...] = (Direction.N, Direction.E, Direction.S, Direction.W)


# --------------------------------------------------------------------------- tiles


def _mask(letters: str) -> int:
    return sum(Direction[ch] for ch in letters)


class Tile(enum.IntEnum):
    """The ten valid tile shapes, named by their openings in ``NESW`` order."""

    NS = _mask("NS")
    EW = _mask("EW")
    NE = _mask("NE")
    ES = _mask("ES")
    SW = _mask("SW")
    NW = _mask("NW")
    NES = _mask("NES")
    ESW = _mask("ESW")
    NSW = _mask("NSW")
    NEW = _mask("NEW")

    @classmethod
    def parse(cls, text: object) -> Tile:
        """Parse openings in any letter order (``"SN"`` -> ``Tile.NS``)."""
        if not isinstance(text, str):
            raise InvalidStateError(f"tile openings must be a string of N/E/S/W, got {text!r}")
        letters = text.strip().upper()
        if not letters or any(ch not in "NESW" for ch in letters) or len(set(letters)) != len(letters):
            raise InvalidStateError(f"invalid tile openings {text!r}: use letters of NESW, e.g. 'NS', 'ES', 'NES'")
        mask = _mask(letters)
        try:
            return cls(mask)
        except ValueError:
            raise InvalidStateError(
                f"invalid tile openings {text!r}: a tile is a straight, a corner or a T-junction"
            ) from None

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Tile.parse({self.name!r})"

    @property
    def kind(self) -> str:
        """``"straight"``, ``"corner"`` or ``"t"``."""
        if len(self.name) == 3:
            return "t"
        return "straight" if self in (Tile.NS, Tile.EW) else "corner"

    def is_open(self, direction: Direction) -> bool:
        return bool(self & direction)

    def rotated(self, quarter_turns: int = 1) -> Tile:
        """The tile turned clockwise by ``quarter_turns`` (N opening becomes E)."""
        return Tile(rotate_mask(self, quarter_turns))

    def rotations(self) -> tuple[Tile, ...]:
        """Distinct orientations, in clockwise order from this one (2 for straights, 4 otherwise)."""
        return tuple(Tile(m) for m in distinct_rotations(self))

    @property
    def glyph(self) -> str:
        return _GLYPHS[self]


_GLYPHS = {
    Tile.NS: "│", Tile.EW: "─", Tile.NE: "└", Tile.ES: "┌", Tile.SW: "┐", Tile.NW: "┘",
    Tile.NES: "├", Tile.ESW: "┬", Tile.NSW: "┤", Tile.NEW: "┴",
}  # fmt: skip
TILE_BY_GLYPH = {glyph: tile for tile, glyph in _GLYPHS.items()}


def rotate_mask(mask: int, quarter_turns: int = 1) -> int:
    """Rotate a 4-bit opening mask clockwise."""
    k = quarter_turns % 4
    return ((mask << k) | (mask >> (4 - k))) & 15


def distinct_rotations(mask: int) -> tuple[int, ...]:
    """The distinct clockwise rotations of ``mask``, starting with ``mask`` itself."""
    out: list[int] = []
    for k in range(4):
        m = rotate_mask(mask, k)
        if m not in out:
            out.append(m)
    return tuple(out)


def same_shape(a: int, b: int) -> bool:
    """True when tile ``b`` is a rotation of tile ``a``."""
    return b in distinct_rotations(a)


# --------------------------------------------------------------------------- squares


def parse_square(value: object) -> Square:
    """Parse ``[r, c]`` (JSON list/tuple) or ``"r,c"`` into a square."""
    if isinstance(value, str):
        parts = value.replace(" ", "").split(",")
        try:
            value = [int(p) for p in parts]
        except ValueError:
            raise InvalidStateError(f"invalid square {value!r}: write it as ROW,COL with 0..6") from None
    if (
        not isinstance(value, (list, tuple))
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise InvalidStateError(f"invalid square {value!r}: expected [row, col]")
    r, c = value
    if not (0 <= r < SIZE and 0 <= c < SIZE):
        raise InvalidStateError(f"square {list(value)!r} is off the board: row and col are 0..6")
    return (r, c)


def format_square(square: Square) -> str:
    """The ``ROW,COL`` text form that :func:`parse_square` reads back (``"3,4"``)."""
    return f"{square[0]},{square[1]}"


def square_index(square: Square) -> int:
    return square[0] * SIZE + square[1]


def index_square(index: int) -> Square:
    return divmod(index, SIZE)


def mask_squares(bits: int) -> list[Square]:
    """Squares of a 49-bit square set, in row-major (sorted) order."""
    out = []
    while bits:
        low = bits & -bits
        out.append(divmod(low.bit_length() - 1, SIZE))
        bits ^= low
    return out


def squares_mask(squares: Iterable[Square]) -> int:
    bits = 0
    for r, c in squares:
        bits |= 1 << (r * SIZE + c)
    return bits


def is_fixed_square(square: Square) -> bool:
    return square[0] % 2 == 0 and square[1] % 2 == 0


# --------------------------------------------------------------------------- colours


class Color(enum.Enum):
    """Pawn colours, in the canonical order used for output."""

    RED = "red"
    YELLOW = "yellow"
    GREEN = "green"
    BLUE = "blue"

    @classmethod
    def parse(cls, text: object) -> Color:
        try:
            return cls(str(text).strip().lower()) if isinstance(text, str) else cls(text)
        except ValueError:
            raise InvalidStateError(f"unknown color {text!r}: use red, yellow, green or blue") from None

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Color.{self.name}"


COLORS: tuple[Color, ...] = tuple(Color)
COLOR_BY_INITIAL = {color.value[0].upper(): color for color in Color}  # the pawn marks of str(board)


# --------------------------------------------------------------------------- gates


class Gate(enum.Enum):
    """The 12 insertion points: side the spare enters from + row/column index."""

    N1 = "N1"
    N3 = "N3"
    N5 = "N5"
    E1 = "E1"
    E3 = "E3"
    E5 = "E5"
    S1 = "S1"
    S3 = "S3"
    S5 = "S5"
    W1 = "W1"
    W3 = "W3"
    W5 = "W5"

    @classmethod
    def parse(cls, text: object) -> Gate:
        if isinstance(text, Gate):
            return text
        try:
            return cls(str(text).strip().upper()) if isinstance(text, str) else cls(text)
        except ValueError:
            raise InvalidStateError(f"unknown gate {text!r}: use one of N1 N3 N5 E1 E3 E5 S1 S3 S5 W1 W3 W5") from None

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Gate.parse({self.value!r})"

    @property
    def side(self) -> Direction:
        """The board edge the spare enters from."""
        return Direction[self.value[0]]

    @property
    def index(self) -> int:
        """Row (for E/W gates) or column (for N/S gates) that is pushed."""
        return int(self.value[1])

    @property
    def reverse(self) -> Gate:
        """The gate on the opposite edge of the same line (``N3`` <-> ``S3``)."""
        return _REVERSE[self]

    @property
    def line(self) -> tuple[int, ...]:
        """Square indices of the pushed line, from the entry square to the exit square."""
        return _LINES[self]

    @property
    def entry(self) -> Square:
        return index_square(self.line[0])

    @property
    def exit(self) -> Square:
        return index_square(self.line[-1])

    @property
    def push_direction(self) -> Direction:
        """The direction tiles move when pushed from this gate."""
        return self.side.opposite


def _line(gate: Gate) -> tuple[int, ...]:
    i = gate.index
    if gate.side == Direction.N:
        return tuple(r * SIZE + i for r in range(SIZE))
    if gate.side == Direction.S:
        return tuple(r * SIZE + i for r in reversed(range(SIZE)))
    if gate.side == Direction.W:
        return tuple(i * SIZE + c for c in range(SIZE))
    return tuple(i * SIZE + c for c in reversed(range(SIZE)))


_LINES = {g: _line(g) for g in Gate}
_OPPOSITE_SIDE = {"N": "S", "S": "N", "E": "W", "W": "E"}
_REVERSE = {g: Gate(_OPPOSITE_SIDE[g.value[0]] + g.value[1]) for g in Gate}
GATES: tuple[Gate, ...] = tuple(sorted(Gate, key=lambda g: g.value))  # sorted as strings: E1 E3 … W5


def push_line(cells: Sequence[Any], gate: Gate, incoming: Any) -> tuple[list[Any], Any]:
    """Push ``incoming`` into a row-major 49-cell sequence at ``gate``.

    Returns the new cells (a list) and the value pushed out. Used for tiles and
    for anything that rides on tiles (tile identities, treasure ids), so every
    parallel layout moves exactly like the board.
    """
    out = list(cells)
    line = gate.line
    leaving = out[line[-1]]
    for k in range(SIZE - 1, 0, -1):
        out[line[k]] = out[line[k - 1]]
    out[line[0]] = incoming
    return out, leaving


def push_square(square: Square, gate: Gate) -> Square:
    """Where a pawn (or anything riding a tile) on ``square`` ends up after a push at ``gate``."""
    idx = square_index(square)
    line = gate.line
    if idx not in line:
        return square
    k = line.index(idx)
    return index_square(line[0] if k == SIZE - 1 else line[k + 1])


# --------------------------------------------------------------------------- physical inventory

FIXED_TILES: dict[Square, Tile] = {
    (0, 0): Tile.ES, (0, 6): Tile.SW, (6, 6): Tile.NW, (6, 0): Tile.NE,
    (0, 2): Tile.ESW, (0, 4): Tile.ESW, (2, 0): Tile.NES, (4, 0): Tile.NES,
    (2, 6): Tile.NSW, (4, 6): Tile.NSW, (6, 2): Tile.NEW, (6, 4): Tile.NEW,
    (2, 2): Tile.NES, (2, 4): Tile.ESW, (4, 4): Tile.NSW, (4, 2): Tile.NEW,
}  # fmt: skip

START_SQUARES: tuple[Square, ...] = ((0, 0), (0, 6), (6, 6), (6, 0))
FIXED_MASK = squares_mask(FIXED_TILES)
