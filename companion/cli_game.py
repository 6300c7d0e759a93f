"""``labyrinth-companion run``: the main job. For now only ``--sim``, the built-in simulator.

``run --sim``: bots play a whole game through the real rules engine, every
event is journaled to the state directory (resumable, like the real service),
and each turn is printed as a box-drawing board plus the event JSON lines of
FORMATS.md §6. Around the game, :class:`~companion.sim_table.SimTable` runs the
rest of the product on simulated hardware: the simulated camera photographs
the board after each push and move, the board reader reads the photos (the
push is recognised among the legal successors, as the referee does), and the
guidance is painted on the simulated LED strip (terminal and ``leds.png``).
``--no-camera`` plays the rules only (fast). The referee that turns photos
into events on a real board is not part of the simulator yet: here the bots'
events are the truth and vision is checked against them.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from companion.board import EDITIONS, SIZE
from companion.errors import UsageError
from companion.game import Game, GameState
from companion.journal import JOURNAL_NAME, Journal
from companion.rules import GameConfig, Variant
from companion.simulate import SimulatedGame

DEFAULT_MAX_TURNS = 2000  # a safety bound: bots finish classic games in well under 100 turns


def render(state: GameState) -> str:
    """The board in box-drawing text: each square's glyph, then a pawn initial or ``•`` on a treasure tile."""
    lines = ["    " + " ".join(str(c) for c in range(SIZE))]
    by_square: dict[tuple[int, int], list[str]] = {}
    for color, sq in state.board.pawns.items():
        by_square.setdefault(sq, []).append(color.value[0].upper())
    for r in range(SIZE):
        cells = []
        for c in range(SIZE):
            pawns = by_square.get((r, c), [])
            mark = pawns[0] if len(pawns) == 1 else "+" if pawns else "•" if state.treasure_at((r, c)) else " "
            cells.append(state.board.tile((r, c)).glyph + mark)
        lines.append(f" {r}  " + "".join(cells))
    spare_name = state.names[state.spare_id]
    last = f", last push {state.board.last_push}" if state.board.last_push else ""
    named = f" ({spare_name})" if spare_name else ""
    lines.append(f"    spare {state.board.spare.glyph} {state.board.spare}{named}{last}")
    lines.append("    " + state.summary())
    return "\n".join(lines)


def _open_journal(state_dir: Path, out: TextIO) -> tuple[Journal, bool]:
    """The state directory's journal; a finished game there is archived first. Returns (journal, resumed)."""
    path = state_dir / JOURNAL_NAME
    if path.exists():
        journal = Journal.open(path)
        if journal.note:
            print(f"# {journal.note}", file=sys.stderr)
        if not journal.records:  # created, then cut off before the start was written: use it
            return journal, False
        if not journal.game().is_over:
            return journal, True
        journal.close()
        k = 1
        while (state_dir / f"game-{k}.jsonl").exists():
            k += 1
        path.rename(state_dir / f"game-{k}.jsonl")
        print(f"# previous finished game archived as {state_dir / f'game-{k}.jsonl'}", file=out)
    return Journal.open(path), False


def run_sim(args: argparse.Namespace, out: TextIO | None = None, sleep: Callable[[float], None] = time.sleep) -> int:
    """Play and print a simulated game; returns the exit code (0 whether or not the turn limit stopped it)."""
    out = sys.stdout if out is None else out
    if args.players is not None and not 2 <= args.players <= 4:
        raise UsageError(f"--players must be 2, 3 or 4, got {args.players}")
    if args.turns is not None and args.turns < 1:
        raise UsageError(f"--turns must be at least 1, got {args.turns}")
    if args.delay < 0:
        raise UsageError(f"--delay must be >= 0 seconds, got {args.delay}")
    config = GameConfig.make(Variant.parse(args.variant), args.players or 2, edition=args.edition,
                             leave_maze=args.leave_maze)  # fmt: skip
    state_dir = Path(args.state_dir) if args.state_dir else Path(tempfile.mkdtemp(prefix="labyrinth-sim-"))
    journal, resumed = _open_journal(state_dir, out)
    table = None
    if not args.no_camera:
        from companion.sim_table import SimTable

        table = SimTable(state_dir, seed=args.seed, show_leds=not args.json)
    with journal:
        max_turns = args.turns if args.turns is not None else DEFAULT_MAX_TURNS
        if resumed:
            sim = SimulatedGame(journal.game(), args.seed, max_turns, table)
        else:
            sim = SimulatedGame.new(config, args.seed, journal.record, max_turns, table)
        game = sim.game
        emit = _printer(out)
        if not args.json:
            cfg = game.state.config
            parts = "rules only" if table is None else "simulated camera, board reader and LED strip"
            print(f"# labyrinth-companion simulator ({parts})\n"
                  f"# {cfg.variant}, {len(cfg.players)} players ({', '.join(map(str, cfg.players))}), "
                  f"edition {cfg.edition}, seed {args.seed}; journal {journal.path}"
                  + (" (resumed)" if resumed else ""), file=out)  # fmt: skip
            _print_hands(game, out)
        if not resumed:
            emit(game.events[0].to_json() if args.json else None)
        for record in sim.turns():
            if not args.json:
                print(f"\n## turn {record.number}: {record.player}", file=out)
            for event in record.events:
                emit(event.to_json())
            if table is not None:
                for line in table.drain():
                    print(line, file=sys.stderr if args.json else out)
            if not args.json:
                print(render(record.state), file=out)
            if args.delay:
                sleep(args.delay)
        if not args.json:
            if game.is_over:
                scores = ", ".join(f"{c} {s}" for c, s in game.scores.items())
                print(f"\n# game over after {sim.played} turns: winner {' and '.join(map(str, game.winners))} "
                      f"({scores}); journal {journal.path}", file=out)  # fmt: skip
            else:
                print(f"\n# stopped after {sim.played} turns without a winner (--turns); resume with "
                      f"--state-dir {state_dir}", file=out)  # fmt: skip
            if table is not None:
                print(f"# {table.summary()}", file=out)
    if table is not None:
        table.close()
    return 0


def _printer(out: TextIO) -> Callable[[dict[str, object] | None], None]:
    def emit(obj: dict[str, object] | None) -> None:
        if obj is None:
            return
        print(json.dumps(obj, ensure_ascii=False), file=out)
        out.flush()

    return emit


def _print_hands(game: Game, out: TextIO) -> None:
    for p in game.state.players:
        night = f" | night: {', '.join(p.night)}" if p.night else ""
        print(f"# {p.color} (home {list(p.home)}): {', '.join(p.cards)}{night}", file=out)
    print(render(game.state), file=out)


def run(args: argparse.Namespace) -> int:
    if not args.sim:
        raise UsageError("only the simulator is available so far: use 'labyrinth-companion run --sim'")
    return run_sim(args)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("run", help="run the companion (--sim: the built-in simulator)")
    p.add_argument("--sim", action="store_true", help="play a simulated game with bots instead of a real board")
    p.add_argument("--seed", type=int, default=1, help="random seed of the setup, deal and bots (default 1)")
    p.add_argument("--players", type=int, default=None, help="number of players, 2-4 (default 2)")
    p.add_argument("--variant", choices=[v.value for v in Variant], default="classic", help="rules (default classic)")
    p.add_argument("--edition", choices=sorted(EDITIONS), default="classic", help="edition profile (default classic)")
    p.add_argument("--leave-maze", action="store_true", help="kids: finish by leaving the maze instead of going home")
    p.add_argument("--turns", type=int, default=None, help=f"stop after N turns (default {DEFAULT_MAX_TURNS})")
    p.add_argument("--delay", type=float, default=0.0, help="seconds to wait between turns (default 0)")
    p.add_argument("--state-dir", default=None, help="where the journal goes (default: a new temporary directory); "
                   "an unfinished game there is resumed")  # fmt: skip
    p.add_argument("--json", action="store_true", help="print only the event JSON lines")
    p.add_argument("--no-camera", action="store_true",
                   help="rules only: no simulated photos, vision or LEDs (much faster)")  # fmt: skip
    p.set_defaults(func=run)
