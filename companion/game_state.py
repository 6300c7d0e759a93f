"""A game's state: the board, the players' cards and tokens, the phase and whose turn it is.

The pure value :func:`companion.game.apply` folds events into. Its ``check_*`` methods
say why an action would be refused (or ``None``), without raising, so the referee can
filter candidate pushes and moves inferred from vision with the same reasons the
engine gives when it refuses one. :func:`next_consequence` is here too: what the rules
derive from a state is part of reading it (the checks ask whether it is settled).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion import rules
from companion.board import SIZE, Board, Color, Gate, Square, Tile, same_shape
from companion.errors import UsageError
from companion.events import Event, FoundClaimed, GameOver, Move, PhaseChanged, RewardRevealed, TreasureFound
from companion.rules import SECRET, GameConfig, Phase, Variant


@dataclass(frozen=True)
class PlayerState:
    """One player: ``cards`` still to find this phase (top first), ``night`` glow tokens waiting, what was found."""

    color: Color
    home: Square
    cards: tuple[str, ...]
    night: tuple[str, ...] = ()
    found: tuple[str, ...] = ()
    found_night: tuple[str, ...] = ()
    discarded: tuple[str, ...] = ()
    target: str | None = None  # kids: the chosen card

    @property
    def tokens(self) -> int:
        return len(self.found) + len(self.found_night)


@dataclass(frozen=True)
class GameState:
    """Everything the rules need, rebuilt by :func:`fold`. Immutable; equal states compare equal.

    ``tile_ids`` / ``spare_id`` track which physical tile lies on each square
    (moved with :func:`~companion.board.push_line` like the tiles themselves);
    ``names`` gives each tile's treasure. ``settling`` is the last action whose
    consequences are still being recorded.
    """

    config: GameConfig
    board: Board
    tile_ids: tuple[int, ...]
    spare_id: int
    names: tuple[str | None, ...]
    players: tuple[PlayerState, ...]
    phase: Phase
    current: Color
    pushed: bool = False
    turn: int = 0
    settling: Event | None = None
    finisher: Color | None = None  # glow: who ended the night (and turns up the reward)
    reward: int | None = None
    winners: tuple[Color, ...] = ()

    # ---- queries

    @property
    def variant(self) -> Variant:
        return self.config.variant

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def player(self, color: Color) -> PlayerState:
        for p in self.players:
            if p.color is color:
                return p
        raise UsageError(f"{color} is not playing; seated: {', '.join(str(p.color) for p in self.players)}")

    def treasure_at(self, square: Square) -> str | None:
        return self.names[self.tile_ids[square[0] * SIZE + square[1]]]

    def square_of(self, treasure: str) -> Square | None:
        """Where the tile carrying ``treasure`` lies now; ``None`` when it is the spare (or unknown)."""
        for i, tid in enumerate(self.tile_ids):
            if self.names[tid] == treasure:
                return divmod(i, SIZE)
        return None

    def wanted(self, color: Color) -> tuple[str, ...]:
        """The treasures whose tile would count for ``color`` at the end of a move now (secret cards excluded)."""
        p = self.player(color)
        if not self.phase.playing or not p.cards:
            return ()
        if self.phase is Phase.NIGHT:
            return tuple(c for c in p.cards if c != SECRET)
        if self.variant is Variant.KIDS:
            return (p.target,) if p.target else ()
        return p.cards[:1] if p.cards[0] != SECRET else ()

    def public_targets(self, color: Color) -> list[Square]:
        """Target squares that may be lit: kids cards are open, glow night tokens face up; classic cards are secret."""
        p = self.player(color)
        if self.variant is Variant.KIDS:
            shown = (p.target,) if p.target else p.cards
        elif self.phase is Phase.NIGHT:
            shown = p.cards
        else:
            return []
        return sorted(sq for sq in (self.square_of(t) for t in shown) if sq is not None)

    def reachable(self, color: Color | None = None) -> list[Square]:
        """Squares the pawn of ``color`` (default: the current player) can reach on the board now."""
        return self.board.reachable(self.board.pawn(self.current if color is None else color))

    def legal_pushes(self) -> list[Gate]:
        """Gates the current player may push at now (none when it is not time to push)."""
        return [g for g in self.board.legal_pushes() if self.check_push(g) is None]

    def scores(self) -> dict[Color, int]:
        """Points so far in seating order (cards found; glow: 1 per day, 2 per night token, plus the reward)."""
        out = {}
        for p in self.players:
            reward = self.reward if self.reward is not None and p.color is self.finisher else 0
            out[p.color] = rules.score(self.variant, len(p.found), len(p.found_night), reward)
        return out

    # ---- rule checks: a reason, or None when allowed

    def _turn_violation(self, player: Color | None) -> str | None:
        if self.phase is Phase.OVER:
            return "game over"
        if self.phase is Phase.REWARD:
            return "reward pending"
        if self.settling is not None and next_consequence(self) is not None:
            return "unsettled"
        if player is not None and player is not self.current:
            return "not your turn"
        return None

    def check_target(self, treasure: str, player: Color | None = None) -> str | None:
        if self.variant is not Variant.KIDS:
            return "not kids"
        reason = self._turn_violation(player)
        if reason:
            return reason
        if self.pushed:
            return "already pushed"
        if treasure not in self.player(self.current).cards:
            return "not your card"
        return None

    def check_push(self, gate: Gate, spare: Tile | None = None, player: Color | None = None) -> str | None:
        reason = self._turn_violation(player)
        if reason:
            return reason
        if self.pushed:
            return "already pushed"
        p = self.player(self.current)
        if self.variant is Variant.KIDS and p.cards and p.target is None:
            return "no target"
        if not self.board.is_legal_push(gate):
            return "reverse"
        if spare is not None and not same_shape(self.board.spare, spare):
            return "spare"
        return None

    def check_move(self, to: Square, player: Color | None = None) -> str | None:
        reason = self._turn_violation(player)
        if reason:
            return reason
        if not self.pushed:
            return "push first"
        if not self.board.is_connected(self.board.pawn(self.current), to):
            return "unreachable"
        return None

    def check_claim(self, player: Color) -> str | None:
        """May ``player`` claim a find now: they moved last, hold a secret card that could count, on a treasure?"""
        act = self.settling
        if not self.phase.playing or not isinstance(act, Move) or act.player is not player:
            return "no claim now"
        if next_consequence(self) is not None:
            return "unsettled"
        p = self.player(player)
        if not p.cards:
            return "no cards"
        if SECRET not in (p.cards if self.phase is Phase.NIGHT else p.cards[:1]):
            return "cards known"
        treasure = self.treasure_at(act.to)
        if treasure is None:
            return "no treasure"
        if any(treasure in q.found or treasure in q.found_night for q in self.players):
            return "already found"
        if any(treasure in q.cards or treasure in q.night for q in self.players):
            return "not your card"
        return None

    def check_reward(self, value: int, player: Color | None = None) -> str | None:
        if self.phase is not Phase.REWARD or self.reward is not None:
            return "no reward now"
        if player is not None and player is not self.current:
            return "not your turn"
        if value not in self.config.rewards:
            return "unknown value"
        return None

    def summary(self) -> str:
        """One line: phase, turn, whose turn and each player's cards left."""
        left = " ".join(f"{p.color}:{len(p.cards)}" for p in self.players)
        if self.phase is Phase.OVER:
            return f"over after {self.turn} turns, won by {' and '.join(map(str, self.winners))}; left {left}"
        if self.phase is Phase.REWARD:
            return f"reward: {self.current} turns up a reward token; left {left}"
        return f"{self.phase} turn {self.turn + 1}, {self.current} to {'move' if self.pushed else 'push'}; left {left}"


def next_consequence(state: GameState) -> Event | None:
    """The next event the rules derive from the last action, or ``None`` when it is settled."""
    act = state.settling
    if isinstance(act, RewardRevealed):
        return None if state.is_over else _game_over(state, state.current)
    if isinstance(act, FoundClaimed):
        p = state.player(act.player)
        square = state.board.pawns[act.player]
        treasure = state.treasure_at(square)
        if treasure is None or treasure in p.found or treasure in p.found_night:
            return None
        return TreasureFound(p.color, treasure, square, len(p.cards) - 1)
    if not isinstance(act, Move) or not state.phase.playing:
        return None
    p = state.player(act.player)
    treasure = state.treasure_at(act.to)
    if treasure is not None and treasure in state.wanted(p.color):
        return TreasureFound(p.color, treasure, act.to, len(p.cards) - 1)
    if rules.has_finished(state.config, state.board, len(p.cards), act.to, p.color):
        if state.phase is Phase.DAY:
            return PhaseChanged(Phase.NIGHT, rules.night_starter(state.config, p.color), p.color)
        if state.phase is Phase.NIGHT:
            return PhaseChanged(Phase.REWARD, p.color, p.color)
        return _game_over(state, p.color)
    return None


def _game_over(state: GameState, finisher: Color) -> GameOver:
    scores = state.scores()
    if state.variant is Variant.GLOW:
        tokens = {p.color: p.tokens for p in state.players}
        winners = rules.glow_winners(scores, tokens, state.config.players)
    else:
        winners = (finisher,)
    return GameOver(winners, tuple(scores.items()))
