"""Kids variant: open cards, a target chosen before each turn, and the optional leave-the-maze finish."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_game_classic import run_script, scripts

from companion.board import Color
from companion.events import GameOver, Move, TargetChosen, TreasureFound
from companion.game import Game
from companion.rules import GameConfig, leaves_maze
from companion.simulate import SimulatedGame


@pytest.mark.parametrize("path", scripts("kids"), ids=lambda p: p.stem)
def test_kids_scenario(path: Path) -> None:
    run_script(path)


def test_every_card_is_public_and_any_may_be_chosen() -> None:
    game = Game.new(GameConfig.make("kids", 3), random.Random(4))
    red = game.state.player(Color.RED)
    assert len(red.cards) == 8
    # before a choice every card's square may be lit; after it, the chosen one only
    assert len(game.state.public_targets(Color.RED)) == sum(1 for c in red.cards if game.state.square_of(c))
    last = red.cards[-1]
    game.choose_target(last)
    assert game.state.player(Color.RED).target == last
    assert game.state.public_targets(Color.RED) in ([], [game.state.square_of(last)])
    assert game.state.wanted(Color.RED) == (last,)


@pytest.mark.parametrize("leave", [False, True])
@pytest.mark.parametrize("seed", [1, 2])
def test_simulated_kids_games_follow_the_rules(seed: int, leave: bool) -> None:
    sim = SimulatedGame.new(GameConfig.make("kids", 3, leave_maze=leave), seed, max_turns=400)
    for record in sim.turns():
        found = [e for e in record.events if isinstance(e, TreasureFound)]
        if found:
            # a find is always the target this player chose before the turn's push
            log = sim.game.events
            before = log[: log.index(found[0])]
            targets = [e for e in before if isinstance(e, TargetChosen) and e.player is found[0].player]
            assert targets[-1].treasure == found[0].treasure
    assert sim.game.is_over
    over = sim.game.events[-1]
    assert isinstance(over, GameOver) and len(over.winners) == 1
    winner = over.winners[0]
    last_move = next(e for e in reversed(sim.game.events) if isinstance(e, Move))
    assert last_move.player is winner and not sim.game.state.player(winner).cards
    if leave:
        assert leaves_maze(sim.game.state.board, last_move.to)
    else:
        assert last_move.to == sim.game.state.player(winner).home
