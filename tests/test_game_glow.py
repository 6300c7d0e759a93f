"""Glow variant: token counts, day → night, the night starter, scoring with the reward, ties."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_game_classic import run_script, scripts

from companion.board import Color
from companion.events import GameOver, PhaseChanged, RewardRevealed, TreasureFound
from companion.game import Game
from companion.rules import GameConfig, Phase, next_player
from companion.simulate import SimulatedGame


@pytest.mark.parametrize("path", scripts("glow"), ids=lambda p: p.stem)
def test_glow_scenario(path: Path) -> None:
    run_script(path)


@pytest.mark.parametrize(("players", "each"), [(2, 4), (3, 4), (4, 3)])
def test_tokens_per_player(players: int, each: int) -> None:
    state = Game.new(GameConfig.make("glow", players), random.Random(players)).state
    names = []
    for p in state.players:
        assert len(p.cards) == each and len(p.night) == each
        names += p.cards + p.night
    assert len(set(names)) == len(names) == 2 * each * players
    assert all(state.square_of(n) is not None or state.names[state.spare_id] == n for n in names)


def test_day_tokens_are_secret_night_tokens_face_up() -> None:
    game = Game.new(GameConfig.make("glow", 2), random.Random(8))
    assert game.state.public_targets(Color.RED) == []
    assert game.state.wanted(Color.RED) == game.state.player(Color.RED).cards[:1]


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("players", [2, 4])
def test_simulated_glow_games(seed: int, players: int) -> None:
    sim = SimulatedGame.new(GameConfig.make("glow", players), seed, max_turns=400)
    nights = 0
    for record in sim.turns():
        for event in record.events:
            if isinstance(event, PhaseChanged) and event.phase is Phase.NIGHT:
                # the player left of the day finisher opens the night
                assert event.player is next_player(sim.game.state.config, event.by)
                assert record.state.current is event.player
                nights += 1
            if isinstance(event, TreasureFound) and nights:
                # night finds are glow tokens, worth two points each
                assert event.treasure in record.state.player(event.player).found_night
    assert nights == 1
    events = sim.game.events
    assert sim.game.is_over
    reward = next(e for e in events if isinstance(e, RewardRevealed))
    assert reward.value in (1, 3, 5)
    night_end = next(e for e in events if isinstance(e, PhaseChanged) and e.phase is Phase.REWARD)
    assert reward.player is night_end.by
    over = events[-1]
    assert isinstance(over, GameOver)
    state = sim.game.state
    # scores recomputed from what each player found
    for p in state.players:
        bonus = reward.value if p.color is reward.player else 0
        assert dict(over.scores)[p.color] == len(p.found) + 2 * len(p.found_night) + bonus
        assert not set(p.found) & set(p.discarded)
    best = max(s for _, s in over.scores)
    leaders = [c for c, s in over.scores if s == best]
    most = max(state.player(c).tokens for c in leaders)
    assert list(over.winners) == [c for c in leaders if state.player(c).tokens == most]


def test_companion_draws_the_reward_deterministically() -> None:
    def finish(seed: int) -> int:
        sim = SimulatedGame.new(GameConfig.make("glow", 2, rewards=(2, 4, 6)), seed, max_turns=400)
        for _ in sim.turns():
            pass
        return next(e.value for e in sim.game.events if isinstance(e, RewardRevealed))

    assert finish(5) == finish(5)
    assert {finish(s) for s in range(6)} <= {2, 4, 6}
