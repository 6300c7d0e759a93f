"""Rules-engine benchmarks for ``labyrinth-companion bench`` (medians in milliseconds).

* ``analyze_all_pushes_ms``: one turn's whole table as the referee and the
  guidance need it: every legal push x every distinct spare rotation, with the
  reachable squares of one pawn after it, through the public :class:`Board`
  API. Median over seeded physical setups (one push in, so one gate is banned).
* ``hint_ms_d1`` / ``hint_ms_d2`` / ``hint_ms_d3``: :func:`hint.hint` with
  ``max_turns=K`` on seeded positions whose answer is *more* than K turns (or
  none), so every depth up to K is searched in full: the worst case a user
  waits for. Positions are found by scanning seeds in order, so every run
  times the same positions. They are arbitrary 7x7 boards with uniformly
  random tiles and pawn: on physical setups almost every target is reachable
  within three turns, so full depth-3 searches have to come from elsewhere.

Goals (issue 2, on the development machine): all pushes <= 5 ms, d2 <= 30 ms,
d3 <= 1500 ms.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable
from functools import partial

from companion.bench import median_ms
from companion.board import COLORS, GATES, SIZE, Board, Color, Tile, random_setup
from companion.hint import SPARE, Target, hint

#: Positions per benchmark and repeats per position: small enough to keep ``bench`` quick.
_PLAN = {1: (25, 5), 2: (15, 3), 3: (7, 1)}
_SETUPS = 15


def all_pushes(board: Board, color: Color) -> int:
    """Push at every legal gate with every distinct spare rotation; sum of reachable-square counts."""
    total = 0
    for gate in board.legal_pushes():
        for laid in board.spare.rotations():
            after = board.push(gate, laid)
            total += len(after.reachable(after.pawns[color]))
    return total


def _setup(seed: int) -> tuple[Board, Color]:
    rng = random.Random(seed)
    board, _ = random_setup(rng)
    return board.push(rng.choice(GATES)), rng.choice(COLORS)


def bench_all_pushes() -> float:
    times = []
    for seed in range(_SETUPS):
        board, color = _setup(seed)
        times.append(median_ms(partial(all_pushes, board, color), repeat=5))
    return statistics.median(times)


def random_position(seed: int) -> tuple[Board, Target]:
    """A seeded arbitrary board (any of the ten shapes anywhere), a red pawn, a target square or the spare."""
    rng = random.Random(seed)
    tiles = tuple(rng.choice(list(Tile)) for _ in range(SIZE * SIZE))
    pawn = (rng.randrange(SIZE), rng.randrange(SIZE))
    board = Board(tiles, rng.choice(list(Tile)), {Color.RED: pawn}, rng.choice([None, *GATES]))
    target: Target = SPARE if rng.random() < 0.1 else (rng.randrange(SIZE), rng.randrange(SIZE))
    return board, target


def hard_positions(depth: int, count: int) -> list[tuple[Board, Target]]:
    """The first ``count`` seeded positions with no answer within ``depth`` turns."""
    found: list[tuple[Board, Target]] = []
    seed = 0
    while len(found) < count:
        board, target = random_position(seed)
        if hint(board, Color.RED, target, depth) is None:  # cheap when solved early, as most are
            found.append((board, target))
        seed += 1
    return found


def bench_hint(depth: int) -> float:
    count, repeat = _PLAN[depth]
    times = [
        median_ms(partial(hint, board, Color.RED, target, depth), repeat=repeat, warmup=0)
        for board, target in hard_positions(depth, count)
    ]
    return statistics.median(times)


def benchmarks() -> dict[str, Callable[[], float]]:
    return {
        "analyze_all_pushes_ms": bench_all_pushes,
        "hint_ms_d1": lambda: bench_hint(1),
        "hint_ms_d2": lambda: bench_hint(2),
        "hint_ms_d3": lambda: bench_hint(3),
    }
