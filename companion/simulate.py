"""A simulated game: simple bots play a whole game through the real rules engine and journal.

This is the rules-only stand-in for the main job until the simulated camera and
LED strip land. The seam for them is :class:`SimulatedGame`: it plays one turn
at a time (:meth:`SimulatedGame.play_turn`, or iterate :meth:`SimulatedGame.turns`)
and hands back each turn's events and resulting state, so a caller can render a
camera frame of the board after every push/move, feed the frames to the
referee, or paint the guidance, while the bots keep deciding what to do.

The bot is greedy and quick: for every legal push and distinct spare rotation
it floods the pawn's reachable squares once; it walks onto a wanted tile when
one is reachable, else onto the reachable square nearest (Manhattan) to one,
breaking ties with the seeded random generator. Kids bots pick the card their
chosen push makes reachable (or the nearest) as their target, before pushing.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

from companion import rules
from companion.board import SIZE, Board, Color, Gate, Square, Tile, mask_squares, push_square, squares_mask
from companion.events import Event
from companion.game import Game, GameState
from companion.rules import GameConfig, Phase, Variant


@dataclass(frozen=True)
class TurnRecord:
    """One played turn: its number (1-based), the player, every event it appended, and the state after it."""

    number: int
    player: Color
    events: tuple[Event, ...]
    state: GameState


@dataclass(frozen=True)
class Plan:
    """A bot's turn: the target card (kids), the push and the square to walk to."""

    gate: Gate
    spare: Tile
    to: Square
    target: str | None = None


def _goals(state: GameState, color: Color) -> dict[str, Square | None]:
    """Treasure name (or ``""`` for the finish) -> square now (``None`` when the tile is the spare)."""
    p = state.player(color)
    if p.cards:
        names = p.cards if state.phase is Phase.NIGHT or state.variant is Variant.KIDS else p.cards[:1]
        return {name: state.square_of(name) for name in names}
    return {"": p.home}


def plan_turn(state: GameState, rng: random.Random) -> Plan:
    """The greedy bot's push and move for the current player."""
    color = state.current
    board = state.board
    goals = _goals(state, color)
    leave = state.variant is Variant.KIDS and state.config.leave_maze and not state.player(color).cards
    best: list[Plan] = []
    best_key: tuple[int, float] = (SIZE * 4, 0.0)
    for gate in board.legal_pushes():
        # where every goal lies once this push is made (a tile on the spare enters at the gate)
        moved = {name: (gate.entry if sq is None else push_square(sq, gate)) for name, sq in goals.items()}
        for spare in board.spare.rotations():
            after = board.push(gate, spare)
            reach = after.reachable_mask(after.pawn(color))
            targets = _exits(after) if leave else moved
            hit = reach & squares_mask(targets.values())
            if hit:
                to = rng.choice(mask_squares(hit))
                name, dist = next((n for n, sq in targets.items() if sq == to), ""), 0
            else:
                to, name, dist = _nearest(reach, targets, rng)
            plan, key = Plan(gate, spare, to, name or None), (dist, rng.random())
            if key < best_key:
                best_key, best = key, [plan]
            elif key == best_key:
                best.append(plan)
    return rng.choice(best)


def _exits(board: Board) -> dict[str, Square]:
    """Kids leave-the-maze goals: the open edge squares (every edge square when none is open)."""
    squares = rules.exit_squares(board) or [
        (r, c) for r in range(SIZE) for c in range(SIZE) if r in (0, SIZE - 1) or c in (0, SIZE - 1)
    ]
    return {f"exit {r},{c}": (r, c) for r, c in squares}


def _nearest(reach: int, goals: dict[str, Square], rng: random.Random) -> tuple[Square, str, int]:
    """The reachable square closest (Manhattan) to any goal, that goal's name and the distance."""
    best_d, choices = SIZE * 4, []
    for sq in mask_squares(reach):
        for name, g in goals.items():
            d = abs(sq[0] - g[0]) + abs(sq[1] - g[1])
            if d < best_d:
                best_d, choices = d, [(sq, name)]
            elif d == best_d:
                choices.append((sq, name))
    to, name = rng.choice(choices)
    return to, name, best_d


class TableObserver(Protocol):
    """What happens at the table around the bots' turns (camera, vision, LEDs: see ``companion.sim_table``)."""

    def before_turn(self, state: GameState) -> None: ...

    def after_push(self, before: Board, state: GameState) -> None: ...

    def after_move(self, player: Color, state: GameState) -> None: ...


class SimulatedGame:
    """Bots playing a :class:`~companion.game.Game` turn by turn (the game may be resumed or journaled).

    ``max_turns`` bounds the game (``None``: play until someone wins).
    """

    def __init__(
        self, game: Game, seed: int = 0, max_turns: int | None = None, table: TableObserver | None = None
    ) -> None:
        self.game = game
        self.table = table
        self.rng = random.Random(seed)
        self.max_turns = max_turns
        self.played = 0

    @classmethod
    def new(cls, config: GameConfig, seed: int = 0, listener: object = None, max_turns: int | None = None,
            table: TableObserver | None = None) -> SimulatedGame:  # fmt: skip
        """A fresh random setup and deal from ``seed`` (``listener``: e.g. a journal's ``record``)."""
        game = Game.new(config, random.Random(seed), listener=listener)
        return cls(game, seed, max_turns, table)

    @property
    def finished(self) -> bool:
        return self.game.is_over or (self.max_turns is not None and self.played >= self.max_turns)

    def play_turn(self) -> TurnRecord:
        """Play the current player's whole turn (or the glow reward draw) and return what happened."""
        game = self.game
        state = game.state
        player = state.current
        events: list[Event] = []
        if state.phase is Phase.REWARD:
            events += game.reveal_reward(None, self.rng)
        else:
            if state.pushed:  # resumed between a push and its move: finish the turn
                plan = None
            else:
                if self.table is not None:
                    self.table.before_turn(state)
                plan = plan_turn(state, self.rng)
                if state.variant is Variant.KIDS and state.player(player).cards:
                    cards = state.player(player).cards
                    target = plan.target if plan.target in cards else state.player(player).target or cards[0]
                    if target != state.player(player).target:
                        events += game.choose_target(target)
                events += game.push(plan.gate, plan.spare)
                if self.table is not None:
                    self.table.after_push(state.board, game.state)
            to = plan.to if plan is not None else self._best_square()
            events += game.move(to)
            if self.table is not None:
                self.table.after_move(player, game.state)
        self.played += 1
        return TurnRecord(self.played, player, tuple(events), game.state)

    def _best_square(self) -> Square:
        state = self.game.state
        reach = state.board.reachable_mask(state.board.pawn(state.current))
        goals = {n: sq for n, sq in _goals(state, state.current).items() if sq is not None}
        hit = reach & squares_mask(goals.values())
        if hit:
            return mask_squares(hit)[0]
        return _nearest(reach, goals or {"": state.player(state.current).home}, self.rng)[0]

    def turns(self) -> Iterator[TurnRecord]:
        """Play until the game is over or ``max_turns`` turns have been played."""
        while not self.finished:
            yield self.play_turn()
