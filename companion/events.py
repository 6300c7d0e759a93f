"""Game events: what happened at the table, one JSON object each.

Two kinds (see :mod:`companion.game` for how they are folded):

* **actions** — what a player (or the referee on their behalf) does:
  :class:`GameStarted`, :class:`TargetChosen`, :class:`Push`, :class:`Move`,
  :class:`FoundClaimed`, :class:`RewardRevealed`;
* **consequences** — what the rules conclude from an action:
  :class:`TreasureFound`, :class:`PhaseChanged`, :class:`GameOver`.

``to_json`` / :func:`event_from_json` round-trip; pushes and moves use the
FORMATS.md §6 shapes. The journal stores exactly these objects.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.board import SIZE, SQUARES, Board, Color, Gate, InvalidStateError, Square, Tile, parse_square
from companion.errors import CompanionError
from companion.rules import GameConfig, Hand, Phase, Variant


def _color(data: Mapping[str, Any], key: str = "player") -> Color:
    if key not in data:
        raise InvalidStateError(f"event {data.get('event')!r} has no {key!r}")
    return Color.parse(data[key])


@dataclass(frozen=True)
class Event:
    """Base of all events; ``kind`` is the JSON ``event`` field, ``action`` tells actions from consequences."""

    kind: ClassVar[str] = ""
    action: ClassVar[bool] = True

    def to_json(self) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def from_json(cls, data: object) -> Event:
        """Parse an event object; on a subclass (``Push.from_json``) it must be of that kind."""
        event = event_from_json(data)
        if not isinstance(event, cls):
            raise InvalidStateError(f"expected a {cls.kind!r} event, got {event.kind!r}")
        return event

    @classmethod
    def _from_json(cls, data: Mapping[str, Any]) -> Event:
        raise NotImplementedError


@dataclass(frozen=True)
class GameStarted(Event):
    """The whole setup: configuration, board with pawns, the treasure on every tile, and the hands.

    ``treasures`` holds 50 entries: the treasure (or ``None``) on each square in
    row-major order, then on the spare. Physical tile identities are the indices
    of this layout (tile ``k`` started on square ``k``; 49 is the first spare).
    """

    kind: ClassVar[str] = "start"
    config: GameConfig
    board: Board
    treasures: tuple[str | None, ...]
    hands: tuple[Hand, ...]

    def to_json(self) -> dict[str, Any]:
        data = self.config.to_json()
        for entry, hand in zip(data["players"], self.hands, strict=True):
            entry["cards"] = list(hand.cards)
            if self.config.variant is Variant.GLOW:
                entry["night"] = list(hand.night)
        return {
            "event": self.kind,
            **data,
            "state": self.board.to_json(),
            "treasures": [list(self.treasures[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)],
            "spare_treasure": self.treasures[SQUARES],
        }

    @classmethod
    def _from_json(cls, data: Mapping[str, Any]) -> GameStarted:
        config = GameConfig.from_json(data)
        rows = data.get("treasures")
        if not isinstance(rows, list) or len(rows) != SIZE or any(not isinstance(r, list) or len(r) != SIZE
                                                                  for r in rows):  # fmt: skip
            raise InvalidStateError("start event: 'treasures' must be 7 rows of 7 names or null")
        treasures = (*(name for row in rows for name in row), data.get("spare_treasure"))
        hands = tuple(
            Hand(Color.parse(p["color"]), tuple(p.get("cards", ())), tuple(p.get("night", ())))
            for p in data.get("players", [])
        )
        return cls(config, Board.from_json(data.get("state")), treasures, hands)


@dataclass(frozen=True)
class TargetChosen(Event):
    """Kids: the player names the card they look for next (before their push)."""

    kind: ClassVar[str] = "target"
    player: Color
    treasure: str

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, "player": str(self.player), "treasure": self.treasure}

    @classmethod
    def _from_json(cls, data: Mapping[str, Any]) -> TargetChosen:
        return cls(_color(data), str(data.get("treasure")))


@dataclass(frozen=True)
class Push(Event):
    """The spare, laid with openings ``spare``, inserted at ``gate``."""

    kind: ClassVar[str] = "push"
    player: Color
    gate: Gate
    spare: Tile

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, "player": str(self.player), "gate": str(self.gate), "spare": str(self.spare),
                "legal": True}  # fmt: skip

    @classmethod
    def _from_json(cls, data: Mapping[str, Any]) -> Push:
        if data.get("legal", True) is not True:
            raise InvalidStateError(f"an illegal push is not a game event: {dict(data)!r}")
        return cls(_color(data), Gate.parse(data.get("gate")), Tile.parse(data.get("spare")))


@dataclass(frozen=True)
class Move(Event):
    """The pawn of ``player`` walks from ``frm`` to ``to`` (equal when it stays); ends the turn."""

    kind: ClassVar[str] = "move"
    player: Color
    frm: Square
    to: Square

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, "player": str(self.player), "from": list(self.frm), "to": list(self.to),
                "legal": True}  # fmt: skip

    @classmethod
    def _from_json(cls, data: Mapping[str, Any]) -> Move:
        if data.get("legal", True) is not True:
            raise InvalidStateError(f"an illegal move is not a game event: {dict(data)!r}")
        return cls(_color(data), parse_square(data.get("from")), parse_square(data.get("to")))


@dataclass(frozen=True)
class RewardRevealed(Event):
    """Glow: the night finisher turned up a reward token worth ``value``."""

    kind: ClassVar[str] = "reward"
    player: Color
    value: int

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, "player": str(self.player), "value": self.value}

    @classmethod
    def _from_json(cls, data: Mapping[str, Any]) -> RewardRevealed:
        value = data.get("value")
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidStateError(f"reward event: 'value' must be a whole number, got {value!r}")
        return cls(_color(data), value)


@dataclass(frozen=True)
class FoundClaimed(Event):
    """The last mover says their move ended on their (secret) card; the tile under the pawn names it."""

    kind: ClassVar[str] = "found"
    player: Color

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, "player": str(self.player)}

    @classmethod
    def _from_json(cls, data: Mapping[str, Any]) -> FoundClaimed:
        return cls(_color(data))


@dataclass(frozen=True)
class TreasureFound(Event):
    """Consequence: the move ended on the tile of a treasure the player was looking for."""

    kind: ClassVar[str] = "treasure"
    action: ClassVar[bool] = False
    player: Color
    treasure: str
    square: Square
    remaining: int

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, "player": str(self.player), "treasure": self.treasure,
                "square": list(self.square), "remaining": self.remaining}  # fmt: skip

    @classmethod
    def _from_json(cls, data: Mapping[str, Any]) -> TreasureFound:
        return cls(_color(data), str(data.get("treasure")), parse_square(data.get("square")),
                   int(data.get("remaining", -1)))  # fmt: skip


@dataclass(frozen=True)
class PhaseChanged(Event):
    """Consequence: ``by`` finished the day (``night`` starts with ``player``) or the night (``reward``)."""

    kind: ClassVar[str] = "phase"
    action: ClassVar[bool] = False
    phase: Phase
    player: Color
    by: Color

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, "phase": self.phase.value, "player": str(self.player), "by": str(self.by)}

    @classmethod
    def _from_json(cls, data: Mapping[str, Any]) -> PhaseChanged:
        return cls(Phase.parse(data.get("phase")), _color(data), _color(data, "by"))


@dataclass(frozen=True)
class GameOver(Event):
    """Consequence: the game ended; ``winners`` (several for a shared win) and every player's score."""

    kind: ClassVar[str] = "game_over"
    action: ClassVar[bool] = False
    winners: tuple[Color, ...]
    scores: tuple[tuple[Color, int], ...]

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, "winners": [str(c) for c in self.winners],
                "scores": {str(c): s for c, s in self.scores}}  # fmt: skip

    @classmethod
    def _from_json(cls, data: Mapping[str, Any]) -> GameOver:
        scores = data.get("scores") or {}
        if not isinstance(scores, Mapping):
            raise InvalidStateError("game_over event: 'scores' must map color to points")
        return cls(tuple(Color.parse(c) for c in data.get("winners", ())),
                   tuple((Color.parse(c), int(s)) for c, s in scores.items()))  # fmt: skip


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (GameStarted, TargetChosen, Push, Move, FoundClaimed, RewardRevealed, TreasureFound, PhaseChanged,
                GameOver)
}


def event_from_json(data: object) -> Event:
    """Parse one event object (the inverse of ``to_json``); malformed input is an :class:`InvalidStateError`."""
    if not isinstance(data, Mapping):
        raise InvalidStateError(f"an event must be a JSON object, got {type(data).__name__}")
    cls = EVENT_TYPES.get(data.get("event"))  # type: ignore[arg-type]
    if cls is None:
        raise InvalidStateError(f"unknown event {data.get('event')!r}: use one of {', '.join(EVENT_TYPES)}")
    try:
        return cls._from_json(data)
    except (InvalidStateError, CompanionError):
        raise
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        raise InvalidStateError(f"malformed {cls.kind!r} event {dict(data)!r}: {exc}") from None
