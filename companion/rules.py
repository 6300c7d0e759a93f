"""Variant rules: who plays, what is dealt, what ends a turn, a phase and the game, and the score.

The event fold (:mod:`companion.game`) is the mechanics: it applies pushes and
moves and asks this module what they mean. Everything here is a pure function
of plain values, deterministic given a seeded :class:`random.Random`, so the
referee, the simulator and the tests share one definition of each variant.

Variants (DESIGN.md §1):

* ``classic`` — 2–4 players; the edition's 24 cards are dealt evenly (12/8/6)
  and kept secret; a card counts when a move ends on the tile carrying the
  player's *top* card; the first to find all and return to the start square wins.
* ``kids`` — the same deal, all cards open: before each turn the player chooses
  which of their cards to look for next. Optionally (agreed before the game)
  the finish is *leaving the maze*: after the last card, ending a move on an
  edge square whose tile is open toward the outside.
* ``glow`` — day/night. Each player holds classic and glow tokens (4 + 4 with
  2–3 players, 3 + 3 with 4). Day: classic rules with the classic tokens, ending
  when a player has found all and is home; unfound day tokens are discarded.
  Night: the next player in seating order after the day finisher starts; glow
  tokens are face up and found in any order; the player who first has all glow
  tokens and is home turns up one of the reward tokens (1/3/5 by default).
  Score: 1 per day token, 2 per night token, plus the reward; ties go to the
  most tokens, and a remaining tie is a shared win.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.board import EDITIONS, SIZE, Board, Color, Direction, Edition, Square
from companion.errors import UsageError

DECK_SIZE = 24
#: A card the companion cannot see (held secretly on the table): the player says when they found it,
#: and the engine names the treasure from the tile under their pawn.
SECRET = "?"
DEFAULT_REWARDS: tuple[int, ...] = (1, 3, 5)
DAY_POINTS = 1
NIGHT_POINTS = 2


class Variant(enum.Enum):
    """The rule sets the companion referees."""

    CLASSIC = "classic"
    KIDS = "kids"
    GLOW = "glow"

    @classmethod
    def parse(cls, text: object) -> Variant:
        if isinstance(text, Variant):
            return text
        try:
            return cls(str(text).strip().lower())
        except ValueError:
            raise UsageError(f"unknown variant {text!r}: use classic, kids or glow") from None

    def __str__(self) -> str:
        return self.value


class Phase(enum.Enum):
    """Where the game is: ``play`` (classic, kids), ``day`` / ``night`` (glow), then ``reward`` and ``over``."""

    PLAY = "play"
    DAY = "day"
    NIGHT = "night"
    REWARD = "reward"  # glow: the night finisher is to turn up a reward token
    OVER = "over"

    @classmethod
    def parse(cls, text: object) -> Phase:
        try:
            return cls(str(text))
        except ValueError:
            raise UsageError(f"unknown phase {text!r}: use {', '.join(p.value for p in cls)}") from None

    def __str__(self) -> str:
        return self.value

    @property
    def playing(self) -> bool:
        """True while pushes and moves are allowed."""
        return self in (Phase.PLAY, Phase.DAY, Phase.NIGHT)


@dataclass(frozen=True)
class GameConfig:
    """What is agreed before the first push: variant, seating, edition and options.

    ``players`` are the colours in seating order (clockwise); play starts with
    ``first`` and follows that order. ``leave_maze`` is the kids finish option;
    ``rewards`` the values of the glow reward tokens.
    """

    variant: Variant
    players: tuple[Color, ...]
    first: Color
    edition: str = "classic"
    leave_maze: bool = False
    rewards: tuple[int, ...] = DEFAULT_REWARDS

    @classmethod
    def make(
        cls,
        variant: Variant | str = Variant.CLASSIC,
        players: Iterable[Color | str] | int = 2,
        first: Color | str | None = None,
        edition: str = "classic",
        leave_maze: bool = False,
        rewards: Iterable[int] = DEFAULT_REWARDS,
    ) -> GameConfig:
        """Parse and check a configuration; ``players`` may be a count (colours in canonical order)."""
        if isinstance(players, int):
            if not 2 <= players <= 4:
                raise UsageError(f"a game has 2 to 4 players, got {players}")
            colors = tuple(Color)[:players]
        else:
            colors = tuple(Color.parse(p) if not isinstance(p, Color) else p for p in players)
        if not colors:
            raise UsageError("a game has 2 to 4 players, got none")
        config = cls(
            variant=Variant.parse(variant),
            players=colors,
            first=colors[0] if first is None else Color.parse(first),
            edition=edition,
            leave_maze=leave_maze,
            rewards=tuple(rewards),
        )
        config.validate()
        return config

    def validate(self) -> None:
        """Raise :class:`UsageError` naming the first thing that cannot be played."""
        if not 2 <= len(self.players) <= 4:
            raise UsageError(f"a game has 2 to 4 players, got {len(self.players)}: {[str(c) for c in self.players]}")
        if len(set(self.players)) != len(self.players):
            raise UsageError(f"each colour plays once, got {[str(c) for c in self.players]}")
        if self.first not in self.players:
            raise UsageError(f"first player {self.first} is not seated: {[str(c) for c in self.players]}")
        if self.edition not in EDITIONS:
            raise UsageError(f"unknown edition {self.edition!r}: use one of {', '.join(EDITIONS)}")
        if self.leave_maze and self.variant is not Variant.KIDS:
            raise UsageError(f"the leave-the-maze finish is a kids option, not for {self.variant}")
        if not self.rewards or any(not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in self.rewards):
            raise UsageError(f"reward token values must be whole numbers >= 0, got {list(self.rewards)!r}")

    @property
    def edition_profile(self) -> Edition:
        return EDITIONS[self.edition]

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant.value,
            "players": [{"color": str(c)} for c in self.players],
            "first": str(self.first),
            "edition": self.edition,
            "leave_maze": self.leave_maze,
            "rewards": list(self.rewards),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameConfig:
        """Read the shape of :meth:`to_json` (also FORMATS.md §6 ``game.json``: players as objects or names)."""
        players = [p["color"] if isinstance(p, Mapping) else p for p in data.get("players", [])]
        return cls.make(
            variant=data.get("variant", "classic"),
            players=players,
            first=data.get("first"),
            edition=data.get("edition", "classic"),
            leave_maze=bool(data.get("leave_maze", False)),
            rewards=data.get("rewards", DEFAULT_REWARDS),
        )


# --------------------------------------------------------------------------- dealing


def hand_sizes(variant: Variant, players: int) -> tuple[int, int]:
    """(day cards, night tokens) per player: 12/8/6 cards, or glow 4 + 4 (2–3 players) and 3 + 3 (4)."""
    if not 2 <= players <= 4:
        raise UsageError(f"a game has 2 to 4 players, got {players}")
    if variant is Variant.GLOW:
        return (4, 4) if players <= 3 else (3, 3)
    return DECK_SIZE // players, 0


@dataclass(frozen=True)
class Hand:
    """One player's cards: ``cards`` in play order (top first), ``night`` the glow tokens for the night."""

    color: Color
    cards: tuple[str, ...]
    night: tuple[str, ...] = ()


def deal(config: GameConfig, deck: Sequence[str], rng: random.Random) -> tuple[Hand, ...]:
    """Shuffle ``deck`` and deal each seated player their day cards, then their night tokens.

    Classic and kids deal the whole deck evenly; glow hands out disjoint day and
    night tokens from the same treasures (16 of 24 with 2 players, all 24 with 3 or 4).
    """
    day, night = hand_sizes(config.variant, len(config.players))
    need = (day + night) * len(config.players)
    if len(set(deck)) != len(deck):
        raise UsageError("the deck names a treasure twice")
    if len(deck) < need:
        raise UsageError(f"{config.variant} with {len(config.players)} players needs {need} treasures, got {len(deck)}")
    cards = list(deck)
    rng.shuffle(cards)
    n = len(config.players)
    hands = []
    for k, color in enumerate(config.players):
        mine = cards[k * day : (k + 1) * day]
        theirs = cards[n * day + k * night : n * day + (k + 1) * night]
        hands.append(Hand(color, tuple(mine), tuple(theirs)))
    return tuple(hands)


def secret_hands(config: GameConfig) -> tuple[Hand, ...]:
    """Hands of :data:`SECRET` cards, for a deal made with the physical cards (classic and glow only).

    The engine then knows how many cards each player holds, never which: a find is
    claimed by the player (the "found" button) and checked against the tile.
    """
    if config.variant is Variant.KIDS:
        raise UsageError("kids cards are open: enter them (a secret deal is for classic and glow)")
    day, night = hand_sizes(config.variant, len(config.players))
    return tuple(Hand(color, (SECRET,) * day, (SECRET,) * night) for color in config.players)


# --------------------------------------------------------------------------- turn order, phases, finish


def next_player(config: GameConfig, color: Color) -> Color:
    """The player seated after ``color`` (clockwise), who plays next."""
    i = config.players.index(color)
    return config.players[(i + 1) % len(config.players)]


def night_starter(config: GameConfig, day_finisher: Color) -> Color:
    """Glow: the player left of the day finisher (next in seating order) opens the night."""
    return next_player(config, day_finisher)


def initial_phase(variant: Variant) -> Phase:
    return Phase.DAY if variant is Variant.GLOW else Phase.PLAY


def home_square(config: GameConfig, color: Color) -> Square:
    """The start corner of ``color`` in the configured edition."""
    for square, c in config.edition_profile.start_colors.items():
        if c is color:
            return square
    raise UsageError(f"edition {config.edition!r} has no start square for {color}")


def exit_sides(square: Square) -> Direction:
    """The sides of ``square`` that face the outside of the board (none for inner squares)."""
    r, c = square
    sides = Direction(0)
    if r == 0:
        sides |= Direction.N
    if r == SIZE - 1:
        sides |= Direction.S
    if c == 0:
        sides |= Direction.W
    if c == SIZE - 1:
        sides |= Direction.E
    return sides


def leaves_maze(board: Board, square: Square) -> bool:
    """Kids finish: ``square`` is on the edge and its tile opens toward the outside."""
    return bool(board.tile(square) & exit_sides(square))


def exit_squares(board: Board) -> list[Square]:
    """Every square from which a pawn could leave the maze now, in row-major order."""
    edge = [(r, c) for r in range(SIZE) for c in range(SIZE) if r in (0, SIZE - 1) or c in (0, SIZE - 1)]
    return [sq for sq in edge if leaves_maze(board, sq)]


def has_finished(config: GameConfig, board: Board, cards_left: int, square: Square, color: Color) -> bool:
    """After a move ending on ``square``: has ``color`` completed the current phase (or the game)?"""
    if cards_left:
        return False
    if config.variant is Variant.KIDS and config.leave_maze:
        return leaves_maze(board, square)
    return square == home_square(config, color)


# --------------------------------------------------------------------------- scoring


def score(variant: Variant, day_found: int, night_found: int, reward: int = 0) -> int:
    """Points: glow counts 1 per day token, 2 per night token and the reward; other variants count cards found."""
    if variant is Variant.GLOW:
        return DAY_POINTS * day_found + NIGHT_POINTS * night_found + reward
    return day_found


def glow_winners(scores: Mapping[Color, int], tokens: Mapping[Color, int], order: Sequence[Color]) -> tuple[Color, ...]:
    """Highest score; a tie goes to the most tokens; a remaining tie is a shared win (seating order)."""
    best = max(scores[c] for c in order)
    leaders = [c for c in order if scores[c] == best]
    most = max(tokens[c] for c in leaders)
    return tuple(c for c in leaders if tokens[c] == most)


def draw_reward(rewards: Sequence[int], rng: random.Random) -> int:
    """The companion turns up one reward token at random (when nobody enters the one on the table)."""
    return rewards[rng.randrange(len(rewards))]
