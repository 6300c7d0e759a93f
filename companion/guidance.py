"""What the lights should show now: a plain, frozen value type.

The referee produces a :class:`Guidance` after every event; ``hardware.painter``
turns it into LED frames over time. Nothing here knows about LEDs, colours in
RGB, timing or hardware: it says *what* to show, the painter decides *how*.
Keeping it a plain value means the referee, the web page and the tests can
build one without touching hardware, and two equal guidances always paint the
same frames.

Fields
------
``player``
    Whose turn it is (``None`` before a game starts or after it ends).
``phase``
    :attr:`TurnPhase.BEFORE_PUSH`: the painter shows the current player's pawn
    square, so everyone sees whose turn it is. :attr:`TurnPhase.AFTER_PUSH`:
    it shows every square the player can reach (their own included).
``pawn``
    The current player's pawn square (shown before the push).
``reachable``
    Squares the current player can reach after the push (public knowledge).
``illegal_gate``
    The gate of an illegal push, blinking until the push is undone.
``illegal_pawn``
    The square of a pawn that moved where it may not go, blinking until fixed.
``public_targets``
    Target squares everybody may see (kids variant, glow night tokens); a
    secret target must never be put here (DESIGN.md §3).
``pushed_gate`` / ``push_serial``
    The gate of the last accepted push, and a counter the referee bumps on
    every accepted push. The painter flashes the gate briefly when it sees a
    new ``push_serial`` (two pushes at the same gate are still two flashes).
``night``
    Glow night phase: dim red/amber only.
``out_of_sync``
    The referee lost track of the board (needs a resync): an unmistakable
    pattern instead of guidance that could be wrong.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from companion.board import Board, Color, Gate, InvalidStateError, Square, parse_square


class TurnPhase(enum.Enum):
    """Where the current turn is: before or after the push."""

    BEFORE_PUSH = "before_push"
    AFTER_PUSH = "after_push"

    def __str__(self) -> str:
        return self.value


def _squares(values: Iterable[Any]) -> frozenset[Square]:
    return frozenset(parse_square(list(v) if isinstance(v, tuple) else v) for v in values)


@dataclass(frozen=True)
class Guidance:
    """What the LEDs should show now (see the module docstring for each field)."""

    player: Color | None = None
    phase: TurnPhase = TurnPhase.BEFORE_PUSH
    pawn: Square | None = None
    reachable: frozenset[Square] = field(default_factory=frozenset)
    illegal_gate: Gate | None = None
    illegal_pawn: Square | None = None
    public_targets: frozenset[Square] = field(default_factory=frozenset)
    pushed_gate: Gate | None = None
    push_serial: int = 0
    night: bool = False
    out_of_sync: bool = False

    def __post_init__(self) -> None:
        # Normalise so that equal meanings compare equal (lists -> frozensets, strings -> enums).
        if self.player is not None and not isinstance(self.player, Color):
            object.__setattr__(self, "player", Color.parse(self.player))
        if not isinstance(self.phase, TurnPhase):
            try:
                object.__setattr__(self, "phase", TurnPhase(self.phase))
            except ValueError:
                raise InvalidStateError(f"unknown phase {self.phase!r}: use before_push or after_push") from None
        for name in ("illegal_gate", "pushed_gate"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, Gate):
                object.__setattr__(self, name, Gate.parse(value))
        for name in ("pawn", "illegal_pawn"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, parse_square(list(value) if isinstance(value, tuple) else value))
        for name in ("reachable", "public_targets"):
            value = getattr(self, name)
            if not isinstance(value, frozenset):
                object.__setattr__(self, name, _squares(value))

    # ---- construction

    @classmethod
    def after_push(
        cls,
        board: Board,
        player: Color | str,
        *,
        illegal_gate: Gate | str | None = None,
        night: bool = False,
        **extra: Any,
    ) -> Guidance:
        """The guidance right after ``player`` pushed: their reachable squares on ``board``.

        Raises :class:`InvalidStateError` when the player has no pawn on the board.
        """
        color = Color.parse(player) if not isinstance(player, Color) else player
        pawn = board.pawn(color)
        return cls(
            player=color,
            phase=TurnPhase.AFTER_PUSH,
            pawn=pawn,
            reachable=frozenset(board.reachable(pawn)),
            illegal_gate=None if illegal_gate is None else Gate.parse(illegal_gate),
            night=night,
            **extra,
        )

    @classmethod
    def before_push(cls, board: Board, player: Color | str, *, night: bool = False, **extra: Any) -> Guidance:
        """The guidance at the start of ``player``'s turn: their pawn square."""
        color = Color.parse(player) if not isinstance(player, Color) else player
        return cls(player=color, phase=TurnPhase.BEFORE_PUSH, pawn=board.pawn(color), night=night, **extra)

    def with_(self, **changes: Any) -> Guidance:
        """A copy with some fields changed (a frozen dataclass ``replace``)."""
        return replace(self, **changes)

    # ---- conversion (logs, the web page, tests)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict; squares sorted, enums as their strings."""
        return {
            "player": None if self.player is None else str(self.player),
            "phase": str(self.phase),
            "pawn": None if self.pawn is None else list(self.pawn),
            "reachable": [list(sq) for sq in sorted(self.reachable)],
            "illegal_gate": None if self.illegal_gate is None else str(self.illegal_gate),
            "illegal_pawn": None if self.illegal_pawn is None else list(self.illegal_pawn),
            "public_targets": [list(sq) for sq in sorted(self.public_targets)],
            "pushed_gate": None if self.pushed_gate is None else str(self.pushed_gate),
            "push_serial": self.push_serial,
            "night": self.night,
            "out_of_sync": self.out_of_sync,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Guidance:
        """Parse :meth:`to_json` output; unknown keys are an error (typos must not pass silently)."""
        if not isinstance(data, Mapping):
            raise InvalidStateError(f"guidance must be a JSON object, got {type(data).__name__}")
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidStateError(f"unknown guidance field {unknown[0]!r}; known: {', '.join(sorted(known))}")
        return cls(**{k: v for k, v in data.items() if v is not None})


#: Nothing to show (no game running).
IDLE = Guidance()

__all__ = ["IDLE", "Guidance", "TurnPhase"]
