"""Hint search: the fewest turns for a player to reach a tile, and the first turn to play.

The question (FORMATS.md / issue 2): the target is a *tile* (the one now at a
square, or the spare), followed as pushes move it. A turn is a push then a
move of the player's own pawn; the player takes consecutive turns with no
other pushes in between, and within that chain the reverse ban applies to the
chain's previous push (the state's ``last_push`` for the first). Reaching
means the move ends on the square holding the target tile, so a target that
is the spare cannot be reached while it is the spare. Other pawns never block.

Why the search looks the way it does
------------------------------------
A depth-3 search visits about 44**3 push sequences (11 legal gates x up to 4
spare rotations per turn), so the inner loop must be a handful of integer
operations:

* :class:`Packed` stores the board as four 49-bit masks, one per direction
  (bit ``r*7+c`` set when that tile is open that way). A push is a few
  shifts and ands per mask, and the corridors are ``E & W>>1`` and
  ``S & N>>7``, so reachability is the bit-parallel :func:`board.flood`.
* The search is multi-source: it carries the *set* of squares the pawn can
  stand on after each turn (pushed, then flooded), not one search per square.
  Moves never change the board, so that set is exact for a push sequence.
* Duplicate spare rotations (straights have two) are skipped.
* The last turn only asks "is the target's square reachable after this push?":
  per gate it first floods with the entering tile open on all four sides, an
  upper bound for every rotation, and tries the rotations only when that hits.
* The first turn's move is recovered afterwards by walking the found push
  sequence backwards (:func:`_first_move`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from companion.board import (
    GATES,
    SIZE,
    SQUARES,
    Board,
    Color,
    Gate,
    Square,
    Tile,
    distinct_rotations,
    flood,
    index_square,
    square_index,
)

FULL = (1 << SQUARES) - 1
_LAST_COL = sum(1 << (r * SIZE + SIZE - 1) for r in range(SIZE))
_NOT_LAST_COL = FULL & ~_LAST_COL

#: The target is either a square (the tile now there) or the spare tile.
SPARE: Literal["spare"] = "spare"
Target = Square | Literal["spare"]

DEFAULT_MAX_TURNS = 3


@dataclass(frozen=True, slots=True)
class _GateOp:
    """Everything a push at one gate needs, precomputed as bit masks."""

    keep: int  # squares off the pushed line
    move: int  # squares of the line except the exit, which shift one step
    entry: int  # bit of the square the spare enters
    exit: int  # bit of the square whose tile leaves
    shift: int  # how far bits move along the line
    left: bool  # True when bits move toward higher indices (N and W gates)
    reverse: int  # index of the reverse gate in GATES


def _gate_op(gate: Gate) -> _GateOp:
    line = gate.line
    line_bits = sum(1 << i for i in line)
    step = line[1] - line[0]
    return _GateOp(
        keep=FULL & ~line_bits,
        move=line_bits & ~(1 << line[-1]),
        entry=1 << line[0],
        exit=1 << line[-1],
        shift=abs(step),
        left=step > 0,
        reverse=GATES.index(gate.reverse),
    )


#: Gate operations in the order of :data:`board.GATES` (sorted as strings).
_OPS: tuple[_GateOp, ...] = tuple(_gate_op(g) for g in GATES)
_NO_GATE = -1


def _push_set(bits: int, op: _GateOp) -> int:
    """Move a set of squares (pawns, anything riding tiles) by a push; the exit wraps to the entry."""
    moved = (bits & op.move) << op.shift if op.left else (bits & op.move) >> op.shift
    return (bits & op.keep) | moved | (op.entry if bits & op.exit else 0)


def _unpush_set(bits: int, op: _GateOp) -> int:
    """Inverse of :func:`_push_set` for the same gate."""
    line = op.move | op.exit
    back_move = line & ~op.entry
    moved = (bits & back_move) >> op.shift if op.left else (bits & back_move) << op.shift
    return (bits & op.keep) | moved | (op.exit if bits & op.entry else 0)


def _push_target(tbit: int, op: _GateOp) -> int:
    """The target's bit after a push; 0 stands for "the target is the spare"."""
    if not tbit:
        return op.entry  # the spare (our target) is the tile that enters
    if tbit & op.exit:
        return 0
    return _push_set(tbit, op)


def _push_masks(n: int, e: int, s: int, w: int, spare: int, op: _GateOp) -> tuple[int, int, int, int, int]:
    """Push the spare (openings ``spare``) at ``op``: the new direction masks and the new spare."""
    keep, move, entry, ex, k = op.keep, op.move, op.entry, op.exit, op.shift
    if op.left:
        n2 = (n & keep) | ((n & move) << k)
        e2 = (e & keep) | ((e & move) << k)
        s2 = (s & keep) | ((s & move) << k)
        w2 = (w & keep) | ((w & move) << k)
    else:
        n2 = (n & keep) | ((n & move) >> k)
        e2 = (e & keep) | ((e & move) >> k)
        s2 = (s & keep) | ((s & move) >> k)
        w2 = (w & keep) | ((w & move) >> k)
    if spare & 1:
        n2 |= entry
    if spare & 2:
        e2 |= entry
    if spare & 4:
        s2 |= entry
    if spare & 8:
        w2 |= entry
    leaving = (1 if n & ex else 0) | (2 if e & ex else 0) | (4 if s & ex else 0) | (8 if w & ex else 0)
    return n2, e2, s2, w2, leaving


def _corridors(n: int, e: int, s: int, w: int) -> tuple[int, int]:
    """(east, south): squares joined to their east / south neighbour (both tiles open toward each other)."""
    return e & (w >> 1) & _NOT_LAST_COL, s & (n >> SIZE)


def _flood_hits(reach: int, east: int, south: int, goal: int) -> bool:
    """True when the flood from ``reach`` touches ``goal``; stops as soon as it does."""
    while not reach & goal:
        grown = (
            reach
            | ((reach & east) << 1)
            | ((reach >> 1) & east)
            | ((reach & south) << SIZE)
            | ((reach >> SIZE) & south)
        )
        if grown == reach:
            return False
        reach = grown
    return True


@dataclass(frozen=True, slots=True)
class Packed:
    """A board's tiles and spare as four 49-bit direction masks and a 4-bit spare mask.

    The compact twin of :class:`board.Board` used by searches; pawns are kept
    outside, as square sets. ``Packed.from_board(b).push(g, t)`` matches
    ``b.push(g, t)`` (tested against it).
    """

    n: int
    e: int
    s: int
    w: int
    spare: int

    @classmethod
    def from_board(cls, board: Board) -> Packed:
        n = e = s = w = 0
        for i, t in enumerate(board.tiles):
            bit = 1 << i
            if t & 1:
                n |= bit
            if t & 2:
                e |= bit
            if t & 4:
                s |= bit
            if t & 8:
                w |= bit
        return cls(n, e, s, w, int(board.spare))

    def tile(self, index: int) -> int:
        """Opening mask of the tile on square ``index`` (``row * 7 + col``)."""
        n, e, s, w = (m >> index & 1 for m in (self.n, self.e, self.s, self.w))
        return n | e << 1 | s << 2 | w << 3

    def tiles(self) -> tuple[int, ...]:
        return tuple(self.tile(i) for i in range(SQUARES))

    def push(self, gate: Gate, spare: int | None = None) -> Packed:
        """Mechanical push, like :meth:`Board.push` (any gate; ``spare`` is the laid rotation)."""
        laid = self.spare if spare is None else spare
        return Packed(*_push_masks(self.n, self.e, self.s, self.w, laid, _OPS[GATES.index(gate)]))

    def corridors(self) -> tuple[int, int]:
        return _corridors(self.n, self.e, self.s, self.w)

    def reachable_mask(self, start: int) -> int:
        """Squares reachable from the square set ``start`` (a 49-bit mask)."""
        return flood(start, *self.corridors())


def push_square_set(bits: int, gate: Gate) -> int:
    """Where every square of the set ``bits`` goes when ``gate`` is pushed (pawns ride their tiles)."""
    return _push_set(bits, _OPS[GATES.index(gate)])


# --------------------------------------------------------------------------- all pushes at once


def push_outcomes(board: Board, start: Square) -> Iterator[tuple[Gate, Tile, int]]:
    """For every legal gate and distinct spare rotation: the squares a pawn on ``start`` can reach.

    Yields ``(gate, laid spare, 49-bit reachable mask)``; the pawn rides its tile
    through the push (wrapping to the entry when pushed out). This is the
    "what can I do this turn" table behind hints and push guidance.
    """
    p = Packed.from_board(board)
    pawn = 1 << square_index(start)
    banned = _NO_GATE if board.last_push is None else GATES.index(board.last_push.reverse)
    rotations = distinct_rotations(p.spare)
    for gi, op in enumerate(_OPS):
        if gi == banned:
            continue
        moved = _push_set(pawn, op)
        for rot in rotations:
            n, e, s, w, _ = _push_masks(p.n, p.e, p.s, p.w, rot, op)
            yield GATES[gi], Tile(rot), flood(moved, *_corridors(n, e, s, w))


# --------------------------------------------------------------------------- the hint search


@dataclass(frozen=True)
class Hint:
    """The answer: fewest turns, and the first turn's push, spare rotation and move."""

    turns: int
    push: Gate
    spare: Tile
    move: Square

    def to_json(self) -> dict[str, Any]:
        return {"turns": self.turns, "push": str(self.push), "spare": str(self.spare), "move": list(self.move)}


_Step = tuple[int, int]  # (gate index, laid spare mask)


def _within(masks: tuple[int, int, int, int, int], tbit: int, pawns: int, last: int, turns: int) -> list[_Step] | None:
    """A push sequence of at most ``turns`` turns after which the pawn can end a move on the target.

    ``masks`` = (n, e, s, w, spare); ``tbit`` the target's bit (0 = it is the
    spare); ``pawns`` the squares the pawn may stand on before this turn's push;
    ``last`` the index of the previous push (its reverse is banned).
    """
    n, e, s, w, spare = masks
    banned = _OPS[last].reverse if last != _NO_GATE else _NO_GATE
    rotations = distinct_rotations(spare)
    if turns == 1:
        return _last_turn(n, e, s, w, rotations, tbit, pawns, banned)
    for gi, op in enumerate(_OPS):
        if gi == banned:
            continue
        moved = _push_set(pawns, op)
        t2 = _push_target(tbit, op)
        for rot in rotations:
            child = _push_masks(n, e, s, w, rot, op)
            reach = flood(moved, *_corridors(child[0], child[1], child[2], child[3]))
            if reach & t2:
                return [(gi, rot)]
            rest = _within(child, t2, reach, gi, turns - 1)
            if rest is not None:
                return [(gi, rot), *rest]
    return None


def _last_turn(
    n: int, e: int, s: int, w: int, rotations: tuple[int, ...], tbit: int, pawns: int, banned: int
) -> list[_Step] | None:
    """The final turn: only "is the target's square reachable right after some push?"."""
    for gi, op in enumerate(_OPS):
        if gi == banned:
            continue
        t2 = _push_target(tbit, op)
        if not t2:
            continue  # the target leaves the board: it is the spare now, so not reachable this turn
        moved = _push_set(pawns, op)
        # The board after the push with nothing entering; rotations only add entry bits.
        n0, e0, s0, w0, _ = _push_masks(n, e, s, w, 0, op)
        entry = op.entry
        east, south = _corridors(n0 | entry, e0 | entry, s0 | entry, w0 | entry)
        if not _flood_hits(moved, east, south, t2):
            continue  # not even an all-open entering tile connects: no rotation can
        for rot in rotations:
            east, south = _corridors(
                n0 | (entry if rot & 1 else 0),
                e0 | (entry if rot & 2 else 0),
                s0 | (entry if rot & 4 else 0),
                w0 | (entry if rot & 8 else 0),
            )
            if _flood_hits(moved, east, south, t2):
                return [(gi, rot)]
    return None


def _first_move(packed: Packed, tbit: int, start: int, steps: list[_Step]) -> Square:
    """A first-turn move from which the found push sequence still reaches the target.

    Replays the sequence forward, then walks back: ``goal`` is the set of squares
    (just after push k) from which turns k.. reach the target, so the first move
    may end on any square reachable after push 1 whose image under push 2 is in
    the goal of turn 2. The lowest such square (row-major) is returned.
    """
    if len(steps) == 1:
        tbit = _push_target(tbit, _OPS[steps[0][0]])
        return index_square(tbit.bit_length() - 1)  # one turn: the move ends on the target itself
    masks = (packed.n, packed.e, packed.s, packed.w, packed.spare)
    corridors = []
    for gi, rot in steps:
        op = _OPS[gi]
        masks = _push_masks(*masks[:4], rot, op)
        tbit = _push_target(tbit, op)
        corridors.append(_corridors(*masks[:4]))
    first = flood(_push_set(start, _OPS[steps[0][0]]), *corridors[0])
    goal = flood(tbit, *corridors[-1])  # the target's corridor system on the last turn
    for k in range(len(steps) - 1, 0, -1):
        before = _unpush_set(goal, _OPS[steps[k][0]])  # squares that push k+1 carries into the goal
        goal = before & first if k == 1 else flood(before, *corridors[k - 1])
    return index_square((goal & -goal).bit_length() - 1)


def hint(board: Board, player: Color, target: Target, max_turns: int = DEFAULT_MAX_TURNS) -> Hint | None:
    """The fewest turns (1..``max_turns``) for ``player`` to end a move on the target tile.

    ``target`` is a square (the tile now on it, followed through pushes) or
    :data:`SPARE`. Returns ``None`` when no chain of ``max_turns`` turns gets there.
    Raises :class:`board.InvalidStateError` when ``player`` has no pawn on the board.
    """
    start = 1 << square_index(board.pawn(player))
    tbit = 0 if target == SPARE else 1 << square_index(target)  # type: ignore[arg-type]
    packed = Packed.from_board(board)
    masks = (packed.n, packed.e, packed.s, packed.w, packed.spare)
    last = _NO_GATE if board.last_push is None else GATES.index(board.last_push)
    for turns in range(1, max_turns + 1):  # iterative deepening: the first hit is the fewest turns
        steps = _within(masks, tbit, start, last, turns)
        if steps is not None:
            gi, rot = steps[0]
            return Hint(len(steps), GATES[gi], Tile(rot), _first_move(packed, tbit, start, steps))
    return None
