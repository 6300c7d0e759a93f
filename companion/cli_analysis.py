"""``labyrinth-companion analyze`` and ``hint``: board questions answered in JSON.

Both read a board state (FORMATS.md §4) from a file or ``-`` (stdin) and print
one JSON object on stdout. Any 7x7 board of the ten tile shapes is accepted:
analysis never checks the physical inventory. User mistakes raise
:class:`errors.CompanionError` / :class:`board.InvalidStateError`, which the
command line turns into one stderr line and exit code 2.

Output shapes (keys in this order)::

    analyze STATE                      {"legal_pushes": [...], "reachable": {"red": [[r, c], ...], ...}}
    analyze STATE --push G --spare T   {"state": {...after the push...}, "reachable": {...after the push...}}
    hint STATE --player C --target T   {"turns": n, "push": G, "spare": T, "move": [r, c]}  or  {"turns": null}

Colours appear only for pawns on the board, in the order red, yellow, green,
blue; squares are sorted row-major; gates sorted as strings.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.board import Board, Color, Gate, InvalidStateError, Tile, parse_square
from companion.errors import IllegalPushError, UsageError
from companion.hint import DEFAULT_MAX_TURNS, SPARE, Target, hint
from companion.statefile import load_state


def reachable_json(board: Board) -> dict[str, list[list[int]]]:
    """Each pawn's reachable squares (own square included), pawns in canonical colour order."""
    return {str(color): [list(sq) for sq in board.reachable(square)] for color, square in board.pawns.items()}


def analyze(board: Board, push: str | None = None, spare: str | None = None) -> dict[str, Any]:
    """The ``analyze`` answer for ``board``; with ``push``, the board after that push and its reachability."""
    if push is None:
        if spare is not None:
            raise UsageError("--spare needs --push: it says how the spare is laid for that push")
        return {"legal_pushes": [str(g) for g in board.legal_pushes()], "reachable": reachable_json(board)}
    gate = Gate.parse(push)
    if not board.is_legal_push(gate):
        raise IllegalPushError(f"push at {gate} is the reverse of the last push {board.last_push}: not allowed")
    laid = board.spare if spare is None else Tile.parse(spare)
    if laid not in board.spare.rotations():
        raise InvalidStateError(f"--spare {spare!r} is not a rotation of the state's spare {str(board.spare)!r}")
    after = board.push(gate, laid)
    return {"state": after.to_json(), "reachable": reachable_json(after)}


def parse_target(text: str) -> Target:
    """``R,C`` (the tile now on that square) or ``spare``."""
    if text.strip().lower() == SPARE:
        return SPARE
    try:
        return parse_square(text)
    except InvalidStateError as exc:
        raise UsageError(f"--target {text!r}: {exc}; or use 'spare'") from None


def hint_json(board: Board, player: str, target: str, max_turns: int = DEFAULT_MAX_TURNS) -> dict[str, Any]:
    """The ``hint`` answer: ``{"turns": n, "push", "spare", "move"}`` or ``{"turns": null}``."""
    if max_turns < 0:
        raise UsageError(f"--max-turns must be 0 or more, got {max_turns}")
    color = Color.parse(player)
    board.pawn(color)  # a player without a pawn is an error, not "unreachable"
    found = hint(board, color, parse_target(target), max_turns)
    return {"turns": None} if found is None else found.to_json()


def _print(obj: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")


def _run_analyze(args: argparse.Namespace) -> int:
    _print(analyze(load_state(args.state), args.push, args.spare))
    return 0


def _run_hint(args: argparse.Namespace) -> int:
    _print(hint_json(load_state(args.state), args.player, args.target, args.max_turns))
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "analyze",
        help="legal pushes and reachable squares of a board state (JSON)",
        description="Print the legal pushes and each pawn's reachable squares; with --push, the state after it.",
    )
    p.add_argument("state", metavar="STATE.json", help="board state file, or - for stdin")
    p.add_argument("--push", metavar="GATE", help="apply this push (N1 N3 N5 E1 ... W5) first")
    p.add_argument("--spare", metavar="OPENINGS", help="how the spare is laid for --push (a rotation of the spare)")
    p.set_defaults(func=_run_analyze)

    h = subparsers.add_parser(
        "hint",
        help="fewest turns for a player to reach a tile, and the first turn (JSON)",
        description="Search the player's own consecutive turns (push, then move) for the fewest that end a move "
        "on the target tile, followed as pushes move it. Other pawns do not block.",
    )
    h.add_argument("state", metavar="STATE.json", help="board state file, or - for stdin")
    h.add_argument("--player", required=True, metavar="COLOR", help="red, yellow, green or blue")
    h.add_argument("--target", required=True, metavar="R,C|spare", help="the tile now at R,C, or the spare tile")
    h.add_argument(
        "--max-turns",
        type=int,
        default=DEFAULT_MAX_TURNS,
        metavar="N",
        help=f"search at most N turns (default {DEFAULT_MAX_TURNS}); each extra turn costs ~40x",
    )
    h.set_defaults(func=_run_hint)
