"""A game as a fold over events (event sourcing), in the manner of python-chess's move stack.

The journal stores events; :func:`fold` rebuilds the :class:`GameState` from
them with the pure :func:`apply`, so a restart, a replay and an undo all go
through the same code. Two kinds of event:

* **actions** — what a player (or the referee on their behalf) does:
  :class:`GameStarted`, :class:`TargetChosen`, :class:`Push`, :class:`Move`,
  :class:`FoundClaimed` (a find of a secret card, see below), :class:`RewardRevealed`;
* **consequences** — what the rules conclude from an action:
  :class:`TreasureFound`, :class:`PhaseChanged`, :class:`GameOver`. They are
  recorded so a log reads like the game, but :func:`apply` accepts one only
  when it is exactly what :func:`next_consequence` derives, so a journal can
  never disagree with the rules.

:class:`Game` appends an action and then its consequences; ``undo`` drops the
last action together with its consequences (back to the state before that
action). Every rule violation raises :class:`~companion.errors.IllegalPushError`,
:class:`~companion.errors.IllegalMoveError` or :class:`~companion.errors.UsageError`
carrying a short ``reason`` (``"reverse"``, ``"not your turn"``, ...); the
``check_*`` methods return the same reason without raising, for the referee,
which filters candidate pushes and moves inferred from vision.

Cards are known (dealt by the companion, or entered) or :data:`~companion.rules.SECRET`
(held on the table): a known card is found automatically when a move ends on
its tile; for a secret card the player who just moved claims the find (the
``found`` button) and the engine names the treasure from the tile under the
pawn, after checking the claim can be right.

Events serialise to one JSON object each (``to_json`` / :func:`event_from_json`
round-trip); pushes and moves use the FORMATS.md §6 shapes. The state value and
:func:`next_consequence` live in :mod:`companion.game_state`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion import rules
from companion.board import (
    SIZE,
    SQUARES,
    Board,
    Color,
    Gate,
    InvalidStateError,
    Square,
    Tile,
    parse_square,
    push_line,
    random_setup,
)
from companion.errors import CompanionError, IllegalMoveError, IllegalPushError, UsageError
from companion.events import (
    Event,
    FoundClaimed,
    GameOver,
    GameStarted,
    Move,
    PhaseChanged,
    Push,
    RewardRevealed,
    TargetChosen,
    TreasureFound,
)
from companion.game_state import GameState, PlayerState, next_consequence
from companion.rules import SECRET, GameConfig, Hand, Phase, Variant

# --------------------------------------------------------------------------- the fold


def _start(event: GameStarted) -> GameState:
    config, board = event.config, event.board
    if len(event.treasures) != SQUARES + 1:
        raise InvalidStateError(f"start: {len(event.treasures)} treasure slots, need {SQUARES + 1}")
    named = [t for t in event.treasures if t is not None]
    if len(set(named)) != len(named):
        raise InvalidStateError("start: a treasure lies on two tiles")
    if tuple(h.color for h in event.hands) != config.players:
        raise InvalidStateError("start: hands must be listed for the seated players, in seating order")
    players = []
    for hand in event.hands:
        if SECRET in hand.cards + hand.night and config.variant is Variant.KIDS:
            raise InvalidStateError(f"start: kids cards are open, {hand.color}'s must be named")
        missing = [t for t in hand.cards + hand.night if t not in named and t != SECRET]
        if missing:
            raise InvalidStateError(f"start: {hand.color}'s cards {missing!r} are on no tile")
        home = rules.home_square(config, hand.color)
        if board.pawns.get(hand.color) is None:
            raise InvalidStateError(f"start: {hand.color} has no pawn on the board")
        players.append(PlayerState(hand.color, home, hand.cards, hand.night))
    return GameState(config, board, tuple(range(SQUARES)), SQUARES, tuple(event.treasures), tuple(players),
                     rules.initial_phase(config.variant), config.first)  # fmt: skip


def _with_player(state: GameState, new: PlayerState) -> tuple[PlayerState, ...]:
    return tuple(new if p.color is new.color else p for p in state.players)


def _action_error(event: Event, reason: str, state: GameState) -> CompanionError:
    """The typed error for a refused action, with its reason and the state that refused it."""
    cls: type[CompanionError]
    if isinstance(event, Push):
        cls, what = IllegalPushError, f"push at {event.gate} (spare {event.spare}) by {event.player}"
    elif isinstance(event, Move):
        cls, what = IllegalMoveError, f"move by {event.player} from {list(event.frm)} to {list(event.to)}"
    elif isinstance(event, TargetChosen):
        cls, what = UsageError, f"target {event.treasure!r} for {event.player}"
    elif isinstance(event, FoundClaimed):
        cls, what = UsageError, f"found claimed by {event.player}"
    else:
        cls, what = UsageError, f"{event.kind} event {event.to_json()}"
    detail = {
        "reverse": f"it reverses the previous push {state.board.last_push}",
        "not your turn": f"it is {state.current}'s turn",
        "already pushed": f"{state.current} has pushed this turn; move (or stay) next",
        "push first": f"{state.current} must push before moving",
        "unreachable": f"no open corridor from {list(state.board.pawns.get(state.current, ()))} "
        f"(reachable: {[list(s) for s in state.reachable()] if state.current in state.board.pawns else []})",
        "spare": f"the spare is {state.board.spare}",
        "no target": f"{state.current} must choose a target card first",
        "not your card": f"{state.current}'s cards: {list(state.player(state.current).cards)}",
        "game over": f"the game is over (winners: {', '.join(map(str, state.winners))})",
        "reward pending": f"{state.current} must turn up a reward token",
        "unsettled": "the previous action's consequences are not recorded yet",
        "wrong start": f"the pawn stands on {list(state.board.pawns.get(state.current, ()))}",
        "not kids": f"targets are chosen in the kids variant, this game is {state.variant}",
        "no reward now": "no reward token is due",
        "no claim now": "a find is claimed by the player who just moved, before the next push",
        "cards known": "the companion knows this card and decides itself",
        "no treasure": "the tile under the pawn carries no treasure",
        "already found": "that treasure was found already",
        "no cards": "every card is found already",
        "unknown value": f"reward tokens are worth {list(state.config.rewards)}",
    }.get(reason, reason)
    err: CompanionError = cls(f"illegal {what}: {reason} — {detail} [{state.summary()}]")
    err.reason = reason  # type: ignore[attr-defined]
    return err


def apply(state: GameState | None, event: Event) -> GameState:
    """The state after ``event``; raises the typed error of a refused action (never changes ``state``)."""
    if isinstance(event, GameStarted):
        if state is not None:
            raise InvalidStateError("a game starts once: 'start' must be the first event only")
        return _start(event)
    if state is None:
        raise InvalidStateError(f"the first event must be 'start', got {event.kind!r}")
    if not event.action:
        expected = next_consequence(state)
        if event != expected:
            raise InvalidStateError(
                f"event {event.to_json()} does not follow from the game: the rules give "
                f"{expected.to_json() if expected else 'nothing'} [{state.summary()}]"
            )
        return _apply_consequence(state, event)
    reason = _check_action(state, event)
    if reason:
        raise _action_error(event, reason, state)
    if isinstance(event, TargetChosen):
        p = state.player(event.player)
        return replace(state, players=_with_player(state, replace(p, target=event.treasure)), settling=None)
    if isinstance(event, Push):
        tile_ids, spare_id = push_line(state.tile_ids, event.gate, state.spare_id)
        return replace(state, board=state.board.push(event.gate, event.spare), tile_ids=tuple(tile_ids),
                       spare_id=spare_id, pushed=True, settling=None)  # fmt: skip
    if isinstance(event, Move):
        pawns = dict(state.board.pawns)
        pawns[event.player] = event.to
        return replace(state, board=state.board.with_pawns(pawns), pushed=False, turn=state.turn + 1,
                       current=rules.next_player(state.config, event.player), settling=event)  # fmt: skip
    if isinstance(event, RewardRevealed):
        return replace(state, reward=event.value, settling=event)
    if isinstance(event, FoundClaimed):
        return replace(state, settling=event)
    raise InvalidStateError(f"cannot apply {type(event).__name__}")


def _check_action(state: GameState, event: Event) -> str | None:
    if isinstance(event, TargetChosen):
        return state.check_target(event.treasure, event.player)
    if isinstance(event, Push):
        return state.check_push(event.gate, event.spare, event.player)
    if isinstance(event, Move):
        reason = state.check_move(event.to, event.player)
        if reason is None and state.board.pawns.get(event.player) != event.frm:
            return "wrong start"
        return reason
    if isinstance(event, RewardRevealed):
        return state.check_reward(event.value, event.player)
    if isinstance(event, FoundClaimed):
        return state.check_claim(event.player)
    return None


def _apply_consequence(state: GameState, event: Event) -> GameState:
    if isinstance(event, TreasureFound):
        p = state.player(event.player)
        k = p.cards.index(event.treasure if event.treasure in p.cards else SECRET)
        cards = p.cards[:k] + p.cards[k + 1 :]
        if state.phase is Phase.NIGHT:
            p = replace(p, cards=cards, found_night=(*p.found_night, event.treasure))
        else:
            p = replace(p, cards=cards, found=(*p.found, event.treasure), target=None)
        return replace(state, players=_with_player(state, p))
    if isinstance(event, PhaseChanged):
        if event.phase is Phase.NIGHT:
            players = tuple(replace(p, discarded=p.cards, cards=p.night, night=(), target=None) for p in state.players)
            return replace(state, players=players, phase=Phase.NIGHT, current=event.player, pushed=False,
                           settling=None)  # fmt: skip
        return replace(state, phase=Phase.REWARD, current=event.player, finisher=event.by, pushed=False,
                       settling=None)  # fmt: skip
    if isinstance(event, GameOver):
        return replace(state, phase=Phase.OVER, winners=event.winners, settling=None)
    raise InvalidStateError(f"cannot apply {type(event).__name__}")


def fold(events: Iterable[Event]) -> GameState:
    """Replay ``events`` from the start; the first must be :class:`GameStarted`."""
    state: GameState | None = None
    for event in events:
        state = apply(state, event)
    if state is None:
        raise InvalidStateError("no events: a game begins with a 'start' event")
    return state


def refusal_json(action: Push | Move, reason: str) -> dict[str, Any]:
    """The FORMATS.md §6 line for a refused push or move: its event JSON with ``legal: false`` and the reason."""
    return {**action.to_json(), "legal": False, "reason": reason}


def undo_point(events: Sequence[Event]) -> int:
    """Index of the last action (after which come only its consequences): ``events[:i]`` is the undone list."""
    i = len(events) - 1
    while i >= 0 and not events[i].action:
        i -= 1
    if i <= 0:
        raise UsageError("nothing to undo: the game has just started")
    return i


# --------------------------------------------------------------------------- setup


def new_game_event(
    config: GameConfig,
    rng: random.Random,
    board: Board | None = None,
    treasures: Mapping[Square | str, str] | Sequence[str | None] | None = None,
    hands: Sequence[Hand] | None = None,
    secret: bool = False,
) -> GameStarted:
    """The start event of a new game: a random setup, or a given ``board`` with its ``treasures``.

    ``treasures`` maps squares (and ``"spare"``) to names, or is the 50-slot
    layout. Without ``hands`` the edition's deck is dealt with ``rng``
    (every card must then lie on some tile); ``secret`` deals :data:`~companion.rules.SECRET`
    cards instead, for a game played with the physical cards (finds are claimed).
    """
    if board is None:
        board, layout = random_setup(rng, config.edition, config.players)
    else:
        layout = _layout(treasures or {})
        # the seated players' pawns, where the board shows them or else on their start squares
        pawns = {c: board.pawns.get(c) or rules.home_square(config, c) for c in config.players}
        if pawns != dict(board.pawns):
            board = board.with_pawns(pawns)
    if hands is None:
        hands = rules.secret_hands(config) if secret else rules.deal(config, config.edition_profile.treasures, rng)
    return GameStarted(config, board, tuple(layout), tuple(hands))


def _layout(treasures: Mapping[Square | str, str] | Sequence[str | None]) -> list[str | None]:
    if not isinstance(treasures, Mapping):
        if len(treasures) != SQUARES + 1:
            raise UsageError(f"a treasure layout has {SQUARES + 1} slots (49 squares + spare), got {len(treasures)}")
        return list(treasures)
    layout: list[str | None] = [None] * (SQUARES + 1)
    for where, name in treasures.items():
        if where == "spare":
            layout[SQUARES] = name
        else:
            r, c = parse_square(where)
            layout[r * SIZE + c] = name
    return layout


# --------------------------------------------------------------------------- the game object


class Game:
    """The events of one game and the states after each; actions append events, ``undo`` drops them.

    ``listener`` (e.g. :meth:`companion.journal.Journal.record`) is called with
    the new events of every action *before* they are committed in memory, and
    with ``None`` for an undo, so a journal that cannot write stops the game
    instead of silently diverging from it.
    """

    def __init__(self, events: Iterable[Event], listener: Any = None) -> None:
        self._events: list[Event] = []
        self._states: list[GameState] = []
        state: GameState | None = None
        for event in events:
            state = apply(state, event)
            self._events.append(event)
            self._states.append(state)
        if state is None:
            raise InvalidStateError("no events: a game begins with a 'start' event")
        self.listener = listener

    @classmethod
    def new(cls, config: GameConfig, rng: random.Random | None = None, listener: Any = None, **setup: Any) -> Game:
        """Start a game (random setup unless ``board=``/``treasures=``/``hands=`` are given)."""
        start = new_game_event(config, rng or random.Random(), **setup)
        if listener is not None:
            listener([start])
        return cls([start], listener)

    # ---- reading

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    @property
    def state(self) -> GameState:
        return self._states[-1]

    @property
    def winners(self) -> tuple[Color, ...]:
        return self.state.winners

    @property
    def scores(self) -> dict[Color, int]:
        return self.state.scores()

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    # ---- actions

    def _play(self, action: Event) -> list[Event]:
        new = [action]
        state = apply(self.state, action)
        states = [state]
        while (follow := next_consequence(state)) is not None:
            state = apply(state, follow)
            new.append(follow)
            states.append(state)
        if self.listener is not None:
            self.listener(new)
        self._events += new
        self._states += states
        return new

    def choose_target(self, treasure: str, player: Color | None = None) -> list[Event]:
        """Kids: ``player`` (default: whose turn it is) will look for ``treasure`` next."""
        return self._play(TargetChosen(player or self.state.current, treasure))

    def push(self, gate: Gate | str, spare: Tile | str | None = None, player: Color | None = None) -> list[Event]:
        """Insert the spare at ``gate``, laid as ``spare`` (a rotation of it; default as it lies)."""
        laid = self.state.board.spare if spare is None else spare if isinstance(spare, Tile) else Tile.parse(spare)
        return self._play(Push(player or self.state.current, Gate.parse(gate), laid))

    def move(self, to: Square | Sequence[int] | str, player: Color | None = None) -> list[Event]:
        """Walk the pawn to ``to`` (its own square to stay); ends the turn and records what it found."""
        color = player or self.state.current
        square = parse_square(to if isinstance(to, str) else list(to))
        frm = self.state.board.pawns.get(color, square)
        return self._play(Move(color, frm, square))

    def claim_found(self, player: Color | None = None) -> list[Event]:
        """Secret cards: the player who just moved (default) found their card on the tile under their pawn."""
        act = self.state.settling
        color = player or (act.player if isinstance(act, Move) else self.state.current)
        return self._play(FoundClaimed(color))

    def reveal_reward(
        self, value: int | None = None, rng: random.Random | None = None, player: Color | None = None
    ) -> list[Event]:
        """Glow: the reward token the night finisher turned up (``None``: the companion draws one with ``rng``)."""
        if value is None:
            value = rules.draw_reward(self.state.config.rewards, rng or random.Random())
        return self._play(RewardRevealed(player or self.state.current, value))

    def undo(self) -> list[Event]:
        """Drop the last action and its consequences; returns the dropped events."""
        i = undo_point(self._events)
        if self.listener is not None:
            self.listener(None)
        dropped = self._events[i:]
        del self._events[i:]
        del self._states[i:]
        return dropped

    def __repr__(self) -> str:
        return f"<Game {self.state.variant} {len(self._events)} events: {self.state.summary()}>"
