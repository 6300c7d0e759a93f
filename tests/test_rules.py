"""Variant definitions: configuration, dealing, turn order, finishes and scoring (pure functions)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.board import EDITIONS, Board, Color, Direction, Tile
from companion.errors import UsageError
from companion.rules import (
    GameConfig,
    Phase,
    Variant,
    deal,
    draw_reward,
    exit_sides,
    exit_squares,
    glow_winners,
    hand_sizes,
    home_square,
    initial_phase,
    leaves_maze,
    next_player,
    night_starter,
    score,
)

R, Y, G, B = Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE


@pytest.mark.parametrize(
    ("variant", "players", "sizes"),
    [
        ("classic", 2, (12, 0)), ("classic", 3, (8, 0)), ("classic", 4, (6, 0)),
        ("kids", 2, (12, 0)), ("kids", 3, (8, 0)), ("kids", 4, (6, 0)),
        ("glow", 2, (4, 4)), ("glow", 3, (4, 4)), ("glow", 4, (3, 3)),
    ],
)  # fmt: skip
def test_hand_sizes(variant: str, players: int, sizes: tuple[int, int]) -> None:
    assert hand_sizes(Variant.parse(variant), players) == sizes


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    variant=st.sampled_from(list(Variant)),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    edition=st.sampled_from(sorted(EDITIONS)),
)
def test_deal_is_even_disjoint_and_seeded(variant: Variant, players: int, seed: int, edition: str) -> None:
    config = GameConfig.make(variant, players, edition=edition)
    deck = EDITIONS[edition].treasures
    hands = deal(config, deck, random.Random(seed))
    day, night = hand_sizes(variant, players)
    assert [h.color for h in hands] == list(config.players)
    cards = [c for h in hands for c in h.cards + h.night]
    assert all(len(h.cards) == day and len(h.night) == night for h in hands)
    assert len(set(cards)) == len(cards) and set(cards) <= set(deck)
    if variant is not Variant.GLOW:
        assert sorted(cards) == sorted(deck)  # the whole deck is dealt: 12/8/6
    assert deal(config, deck, random.Random(seed)) == hands


def test_deal_refuses_a_short_or_repeated_deck() -> None:
    config = GameConfig.make("classic", 2)
    with pytest.raises(UsageError, match="needs 24"):
        deal(config, ["a", "b"], random.Random(0))
    with pytest.raises(UsageError, match="twice"):
        deal(config, ["a"] * 24, random.Random(0))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 1}, "2 to 4"),
        ({"players": 5}, "2 to 4"),
        ({"players": ["red", "red"]}, "once"),
        ({"players": ["red", "blue"], "first": "green"}, "not seated"),
        ({"edition": "chess"}, "unknown edition"),
        ({"variant": "go"}, "unknown variant"),
        ({"variant": "classic", "leave_maze": True}, "kids option"),
        ({"variant": "glow", "rewards": ()}, "reward"),
        ({"variant": "glow", "rewards": (1, -3)}, "reward"),
    ],
)
def test_config_errors_name_the_problem(kwargs: dict, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        GameConfig.make(**kwargs)


def test_config_round_trip_and_game_json_shape() -> None:
    config = GameConfig.make("kids", ["blue", "red", "green"], first="red", edition="pokemon", leave_maze=True)
    assert GameConfig.from_json(config.to_json()) == config
    # FORMATS.md §6 game.json: players as objects, first by name
    plain = GameConfig.from_json({"variant": "glow", "players": [{"color": "red"}, {"color": "blue"}], "first": "blue"})
    assert plain.players == (R, B) and plain.first is B and plain.rewards == (1, 3, 5)


def test_turn_order_follows_seating_from_any_player() -> None:
    config = GameConfig.make("classic", [B, R, G], first=R)
    assert [next_player(config, c) for c in (B, R, G)] == [R, G, B]
    assert night_starter(config, G) is B
    assert initial_phase(Variant.GLOW) is Phase.DAY and initial_phase(Variant.KIDS) is Phase.PLAY


def test_homes_are_the_edition_start_corners() -> None:
    config = GameConfig.make("classic", 4)
    assert [home_square(config, c) for c in (R, Y, G, B)] == [(0, 0), (0, 6), (6, 6), (6, 0)]


def test_exit_sides_and_leaving_the_maze() -> None:
    assert exit_sides((0, 3)) == Direction.N
    assert exit_sides((6, 6)) == Direction.S | Direction.E
    assert exit_sides((3, 3)) == Direction(0)
    rows = [["NS"] * 7 for _ in range(7)]
    rows[0][3] = "NEW"  # open north: an exit
    rows[3][0] = "ES"  # closed west: no exit
    rows[3][6] = "EW"  # open east: an exit
    board = Board.from_rows(rows, "NS")
    # straights NS on rows 0 and 6 open to the outside too
    assert leaves_maze(board, (0, 3)) and leaves_maze(board, (3, 6)) and not leaves_maze(board, (3, 0))
    assert not leaves_maze(board, (3, 3))
    exits = exit_squares(board)
    assert (0, 3) in exits and (3, 6) in exits and (3, 0) not in exits and (6, 1) in exits
    assert all(board.tile(sq) & exit_sides(sq) for sq in exits)
    assert Tile.NS & exit_sides((0, 1))


@pytest.mark.parametrize(
    ("variant", "day", "night", "reward", "points"),
    [("glow", 3, 2, 5, 12), ("glow", 0, 0, 1, 1), ("glow", 4, 0, 0, 4), ("classic", 7, 0, 0, 7), ("kids", 5, 0, 0, 5)],
)
def test_score(variant: str, day: int, night: int, reward: int, points: int) -> None:
    assert score(Variant.parse(variant), day, night, reward) == points


@pytest.mark.parametrize(
    ("scores", "tokens", "winners"),
    [
        ({R: 9, Y: 7}, {R: 5, Y: 6}, (R,)),  # more points win, whatever the tokens
        ({R: 8, Y: 8}, {R: 5, Y: 6}, (Y,)),  # tie on points: most tokens
        ({R: 8, Y: 8, G: 8}, {R: 6, Y: 5, G: 6}, (R, G)),  # still tied: shared win, seating order
        ({R: 3, Y: 8, G: 8}, {R: 9, Y: 4, G: 4}, (Y, G)),  # tokens only break ties among the leaders
    ],
)
def test_glow_winners(scores: dict, tokens: dict, winners: tuple) -> None:
    assert glow_winners(scores, tokens, list(scores)) == winners


def test_reward_draw_is_seeded_and_from_the_values() -> None:
    draws = [draw_reward((1, 3, 5), random.Random(s)) for s in range(30)]
    assert set(draws) == {1, 3, 5}
    assert draws == [draw_reward((1, 3, 5), random.Random(s)) for s in range(30)]
