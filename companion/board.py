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
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
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
_BY_GLYPH = {glyph: tile for tile, glyph in _GLYPHS.items()}


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
_BY_INITIAL = {color.value[0].upper(): color for color in Color}  # the pawn marks of str(board)


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
            raise InvalidStateError(
                f"unknown gate {text!r}: use one of N1 N3 N5 E1 E3 E5 S1 S3 S5 W1 W3 W5"
            ) from None

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


@dataclass(frozen=True)
class Edition:
    """What differs between editions: the movable-tile split, start colours and treasure names.

    ``fixed_treasures`` names the pictures on the 12 fixed T-junctions (row-major
    order of their squares); ``movable_treasures`` the 12 pictures on movable
    tiles (the first 6 on T-junctions, the other 6 on corners).
    """

    name: str
    plain_straights: int
    plain_corners: int
    start_colors: Mapping[Square, Color]
    fixed_treasures: tuple[str, ...]
    movable_treasures: tuple[str, ...]
    treasure_t: int = 6
    treasure_corners: int = 6

    def __post_init__(self) -> None:
        movable = self.plain_straights + self.plain_corners + self.treasure_t + self.treasure_corners
        if movable != 34:
            raise ValueError(f"edition {self.name!r} has {movable} movable tiles, the board needs 34")
        if len(self.fixed_treasures) != 12 or len(self.movable_treasures) != 12:
            raise ValueError(f"edition {self.name!r} needs 12 fixed and 12 movable treasures")

    @property
    def treasures(self) -> tuple[str, ...]:
        return self.fixed_treasures + self.movable_treasures

    def movable_tiles(self) -> list[tuple[Tile, str | None]]:
        """The 34 movable tiles in a canonical orientation, with their treasure (or ``None``)."""
        tiles: list[tuple[Tile, str | None]] = []
        tiles += [(Tile.NES, name) for name in self.movable_treasures[: self.treasure_t]]
        tiles += [(Tile.NE, name) for name in self.movable_treasures[self.treasure_t :]]
        tiles += [(Tile.NS, None)] * self.plain_straights
        tiles += [(Tile.NE, None)] * self.plain_corners
        return tiles


_DEFAULT_STARTS = {(0, 0): Color.RED, (0, 6): Color.YELLOW, (6, 6): Color.GREEN, (6, 0): Color.BLUE}

EDITIONS: dict[str, Edition] = {
    e.name: e
    for e in (
        Edition(
            name="classic",
            plain_straights=12,
            plain_corners=10,
            start_colors=_DEFAULT_STARTS,
            fixed_treasures=(
                "book of spells", "bag of gold", "treasure map", "crown", "keys", "skull",
                "ring", "treasure chest", "emerald", "sword", "candlestick", "helmet",
            ),
            movable_treasures=(
                "bat", "ghost", "dragon", "genie", "sorceress", "troll",
                "owl", "lizard", "spider", "moth", "beetle", "rat",
            ),
        ),
        Edition(
            name="harry-potter",
            plain_straights=13,
            plain_corners=9,
            start_colors=_DEFAULT_STARTS,
            fixed_treasures=(
                "sorting hat", "golden snitch", "marauder's map", "elder wand", "time-turner", "invisibility cloak",
                "philosopher's stone", "goblet of fire", "horcrux locket", "sword of gryffindor", "hogwarts letter",
                "remembrall",
            ),
            movable_treasures=(
                "hedwig", "dobby", "fawkes", "buckbeak", "nagini", "aragog",
                "crookshanks", "scabbers", "fluffy", "norbert", "trevor", "nearly headless nick",
            ),
        ),
        Edition(
            name="pokemon",
            plain_straights=13,
            plain_corners=9,
            start_colors=_DEFAULT_STARTS,
            fixed_treasures=(
                "pikachu", "charmander", "bulbasaur", "squirtle", "eevee", "jigglypuff",
                "meowth", "psyduck", "snorlax", "gengar", "mewtwo", "dragonite",
            ),
            movable_treasures=(
                "pidgey", "zubat", "oddish", "caterpie", "magikarp", "geodude",
                "abra", "machop", "ponyta", "slowpoke", "magnemite", "onix",
            ),
        ),
    )
}  # fmt: skip


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
            if len(glyphs) != SIZE or any(g not in _BY_GLYPH for g in glyphs):
                raise InvalidStateError(f"board text row {r} {line!r}: expected {SIZE} tile glyphs")
            tiles.extend(_BY_GLYPH[g] for g in glyphs)
            for mark in marks.split():
                initial, at, col = mark.partition("@")
                color = _BY_INITIAL.get(initial)
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
        super().__init__(sorted(((Color.parse(k) if not isinstance(k, Color) else k, tuple(v)) for k, v in pairs),
                                key=lambda kv: COLORS.index(kv[0])))

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
