"""Classic rules through the event fold: scripted games (tests/data/games/classic-*.game) and properties.

``run_script`` (the scenario runner, also used by the kids and glow tests) reads
the small line format documented in tests/data/games/README.md.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.board import Board, Color, Gate, InvalidStateError, Tile, parse_square
from companion.errors import CompanionError, IllegalMoveError, IllegalPushError
from companion.events import GameStarted, Move, Push, TreasureFound, event_from_json
from companion.game import Game, apply, fold
from companion.rules import GameConfig, Hand, Phase

GAMES = Path(__file__).parent / "data" / "games"


# --------------------------------------------------------------------------- the scenario runner


def _names(text: str) -> tuple[str, ...]:
    return tuple(n.strip() for n in text.split(",") if n.strip())


def _consequence(event_json: dict) -> str:
    """The compact form scripts use: ``treasure crown``, ``phase night yellow``, ``game_over red yellow``."""
    kind = event_json["event"]
    if kind == "treasure":
        return f"treasure {event_json['treasure']}"
    if kind == "phase":
        return f"phase {event_json['phase']} {event_json['player']}"
    if kind == "game_over":
        return "game_over " + " ".join(event_json["winners"])
    raise AssertionError(f"unexpected consequence {event_json}")


def run_script(path: Path) -> Game:
    """Play a scripted game, checking every expectation; returns the game at the end."""
    lines = path.read_text(encoding="utf-8").splitlines()
    setup: dict = {"treasures": {}, "hands": [], "options": {}}
    game: Game | None = None
    i = 0
    while i < len(lines):
        number, raw = i + 1, lines[i].split("#", 1)[0].strip()
        i += 1
        if not raw:
            continue
        where = f"{path.name}:{number}: {raw}"
        word, _, rest = raw.partition(" ")
        if game is None and word in ("variant", "players", "first", "option", "board", "treasure", "hand"):
            if word == "board":
                setup["board"] = Board.from_text("\n".join(lines[i : i + 8]))
                i += 8
            elif word == "treasure":
                square, _, name = rest.partition(" ")
                setup["treasures"]["spare" if square == "spare" else parse_square(square)] = name
            elif word == "hand":
                color, _, cards = rest.partition(" ")
                day, _, night = cards.partition("|")
                setup["hands"].append(Hand(Color.parse(color), _names(day), _names(night)))
            elif word == "option":
                key, _, value = rest.partition(" ")
                setup["options"][key] = [int(v) for v in value.split()] if key == "rewards" else True
            else:
                setup[word] = rest
            continue
        if game is None:
            config = GameConfig.make(setup["variant"], setup["players"].split(), setup.get("first"),
                                     **setup["options"])  # fmt: skip
            game = Game.new(config, random.Random(0), board=setup["board"], treasures=setup["treasures"],
                            hands=setup["hands"])  # fmt: skip
        if word == "expect":
            _expect(game, rest, where)
            continue
        action, _, expected = raw.partition("=>")
        expected = expected.strip()
        before = game.state
        try:
            new = _act(game, action.split())
        except CompanionError as exc:
            assert expected.startswith("error"), f"{where}: refused: {exc}"
            assert getattr(exc, "reason", None) == expected[len("error") :].strip(), f"{where}: {exc}"
            assert game.state == before, f"{where}: a refused action changed the state"
            continue
        assert not expected.startswith("error"), f"{where}: was allowed, events {[e.to_json() for e in new]}"
        got = [_consequence(e.to_json()) for e in new if not e.action]
        want = [part.strip() for part in expected.split(";") if part.strip()]
        assert got == want, f"{where}: consequences {got}, expected {want}"
    assert game is not None, f"{path.name}: no actions"
    assert fold(game.events) == game.state, f"{path.name}: the fold of the events differs from the live state"
    return game


def _act(game: Game, words: list[str]) -> list:
    if words == ["undo"]:
        game.undo()
        return []
    player, verb, *args = words
    color = Color.parse(player)
    if verb == "push":
        return game.push(args[0], args[1], player=color)
    if verb == "move":
        return game.move(args[0], player=color)
    if verb == "target":
        return game.choose_target(" ".join(args), player=color)
    if verb == "found":
        return game.claim_found(player=color)
    if verb == "reward":
        return game.reveal_reward(int(args[0]), player=color)
    raise AssertionError(f"unknown action {words}")


def _expect(game: Game, rest: str, where: str) -> None:
    state = game.state
    what, _, value = rest.partition(" ")
    if what == "current":
        assert str(state.current) == value, f"{where}: current is {state.current}"
    elif what == "phase":
        assert state.phase is Phase(value), f"{where}: phase is {state.phase}"
    elif what == "pushed":
        assert state.pushed == (value == "yes"), f"{where}: pushed is {state.pushed}"
    elif what == "pawn":
        color, square = value.split()
        assert state.board.pawns[Color.parse(color)] == parse_square(square), f"{where}: {dict(state.board.pawns)}"
    elif what == "where":
        name, _, square = value.rpartition(" ")
        got = state.square_of(name)
        assert (got is None and square == "spare") or got == parse_square(square), f"{where}: {name} is at {got}"
    elif what in ("cards", "discarded"):
        color, _, names = value.partition(" ")
        p = state.player(Color.parse(color))
        assert getattr(p, what) == _names(names), f"{where}: {what} {getattr(p, what)}"
    elif what == "scores":
        want = {Color.parse(k): int(v) for k, v in (pair.split("=") for pair in value.split())}
        assert game.scores == want, f"{where}: scores {game.scores}"
    elif what == "winners":
        assert [str(c) for c in game.winners] == value.split(), f"{where}: winners {game.winners}"
    else:
        raise AssertionError(f"{where}: unknown expectation")


def scripts(prefix: str) -> list[Path]:
    found = sorted(GAMES.glob(f"{prefix}-*.game"))
    assert found, f"no {prefix} scenarios in {GAMES}"
    return found


@pytest.mark.parametrize("path", scripts("classic"), ids=lambda p: p.stem)
def test_classic_scenario(path: Path) -> None:
    run_script(path)


# --------------------------------------------------------------------------- errors and checks


def _two_player_game(seed: int = 3) -> Game:
    return Game.new(GameConfig.make("classic", 2), random.Random(seed))


def test_errors_carry_reason_input_and_state() -> None:
    game = _two_player_game()
    game.push("N3")
    with pytest.raises(IllegalPushError) as info:
        game.push("S3")
    assert info.value.reason == "already pushed"
    assert "S3" in str(info.value) and "red" in str(info.value)
    unreachable = next(sq for sq in ((r, c) for r in range(7) for c in range(7)) if sq not in game.state.reachable())
    with pytest.raises(IllegalMoveError) as info2:
        game.move(unreachable)
    assert info2.value.reason == "unreachable"
    assert str(list(unreachable)) in str(info2.value)
    assert isinstance(info2.value, ValueError)  # errors are also the builtin they are


def test_checks_answer_without_raising() -> None:
    game = _two_player_game()
    state = game.state
    assert state.check_push(Gate.N3) is None
    assert state.check_push(Gate.N3, player=Color.YELLOW) == "not your turn"
    assert state.check_move((0, 0)) == "push first"
    game.push("N3")
    assert game.state.check_push(Gate.N1) == "already pushed"
    assert game.state.legal_pushes() == []
    game.move(game.state.board.pawns[Color.RED])
    assert game.state.check_push(Gate.S3) == "reverse"
    assert Gate.S3 not in game.state.legal_pushes() and len(game.state.legal_pushes()) == 11


def test_fold_rejects_a_consequence_the_rules_do_not_give() -> None:
    game = _two_player_game()
    start = game.events[0]
    assert isinstance(start, GameStarted)
    red_card = game.state.player(Color.RED).cards[0]
    state = apply(None, start)
    with pytest.raises(ValueError, match="does not follow"):
        apply(state, TreasureFound(Color.RED, red_card, (0, 0), 11))
    with pytest.raises(ValueError, match="first event"):
        apply(None, Push(Color.RED, Gate.N1, Tile.NS))
    with pytest.raises(ValueError, match="starts once"):
        apply(state, start)


def test_undo_of_the_start_is_refused() -> None:
    game = _two_player_game()
    with pytest.raises(CompanionError, match="nothing to undo"):
        game.undo()


# --------------------------------------------------------------------------- properties


def _random_turns(game: Game, rng: random.Random, turns: int) -> None:
    for _ in range(turns):
        if game.is_over:
            return
        state = game.state
        gate = rng.choice(state.legal_pushes())
        game.push(gate, rng.choice(state.board.spare.rotations()))
        game.move(rng.choice(game.state.reachable()))


@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4), turns=st.integers(1, 25))
def test_undo_restores_exactly_and_events_round_trip(seed: int, players: int, turns: int) -> None:
    rng = random.Random(seed)
    game = Game.new(GameConfig.make("classic", players), random.Random(seed))
    history = [game.state]
    for _ in range(turns):
        if game.is_over:
            break
        _random_turns(game, rng, 1)
        history.append(game.state)
    # every event survives JSON text both ways
    for event in game.events:
        assert event_from_json(json.loads(json.dumps(event.to_json()))) == event
    # undoing a turn (move, then push) walks back through the same states
    while len(history) > 1:
        game.undo()
        assert game.state.pushed, "undoing a move leaves the turn's push in place"
        game.undo()
        history.pop()
        assert game.state == history[-1]


@settings(max_examples=20, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10_000), turns=st.integers(1, 30))
def test_tiles_and_treasures_move_together(seed: int, turns: int) -> None:
    """Identity tracking: the tile under each treasure keeps its shape up to rotation, wherever it goes."""
    rng = random.Random(seed)
    game = Game.new(GameConfig.make("classic", 3), random.Random(seed))
    start = game.state
    shapes = {start.names[i]: start.board.tiles[i] for i in range(49) if start.names[i]}
    _random_turns(game, rng, turns)
    state = game.state
    for name, shape in shapes.items():
        sq = state.square_of(name)
        tile = state.board.spare if sq is None else state.board.tile(sq)
        assert tile in shape.rotations(), f"{name} tile changed shape"
    assert sorted((*state.tile_ids, state.spare_id)) == list(range(50))


def test_treasure_counts_only_at_the_end_of_a_move_on_the_top_card() -> None:
    """Random play: every TreasureFound is the mover's top card on the square their move ended on."""
    rng = random.Random(5)
    for seed in range(6):
        game = Game.new(GameConfig.make("classic", 2), random.Random(seed))
        for _ in range(60):
            if game.is_over:
                break
            state = game.state
            game.push(rng.choice(state.legal_pushes()))
            top = game.state.player(game.state.current).cards[:1]
            events = game.move(rng.choice(game.state.reachable()))
            move = events[0]
            assert isinstance(move, Move)
            found = [e for e in events if isinstance(e, TreasureFound)]
            if found:
                assert found[0].treasure == top[0] and found[0].square == move.to
            elif top:
                assert game.state.treasure_at(move.to) != top[0]


def test_claims_are_for_secret_cards_only() -> None:
    game = _two_player_game()
    game.push(game.state.legal_pushes()[0])
    game.move(game.state.board.pawns[Color.RED])
    with pytest.raises(CompanionError) as info:
        game.claim_found(Color.RED)
    assert info.value.reason == "cards known"
    assert game.state.check_claim(Color.YELLOW) == "no claim now"


@pytest.mark.parametrize(("variant", "players", "each"), [("classic", 3, 8), ("glow", 4, 3)])
def test_a_secret_deal_knows_only_the_counts(variant: str, players: int, each: int) -> None:
    game = Game.new(GameConfig.make(variant, players), random.Random(1), secret=True)
    for p in game.state.players:
        assert p.cards == ("?",) * each
        assert game.state.wanted(p.color) == () and game.state.public_targets(p.color) == []
    assert event_from_json(json.loads(json.dumps(game.events[0].to_json()))) == game.events[0]
    with pytest.raises(CompanionError, match="open"):
        Game.new(GameConfig.make("kids", 2), random.Random(1), secret=True)


def test_a_given_setup_seats_only_the_players_pawns() -> None:
    rows = [["NS"] * 7 for _ in range(7)]
    board = Board.from_rows(rows, "EW", {"blue": [3, 3], "red": [2, 2]})
    game = Game.new(GameConfig.make("classic", ["red", "yellow"]), random.Random(0), board=board,
                    treasures={}, hands=[Hand(Color.RED, ()), Hand(Color.YELLOW, ())])  # fmt: skip
    assert dict(game.state.board.pawns) == {Color.RED: (2, 2), Color.YELLOW: (0, 6)}
    with pytest.raises(ValueError, match="on no tile"):
        Game.new(GameConfig.make("classic", 2), random.Random(0), board=board, treasures={(1, 1): "crown"},
                 hands=[Hand(Color.RED, ("crown",)), Hand(Color.YELLOW, ("keys",))])  # fmt: skip


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.sampled_from(["red", "N3", "NS", "crown", "night", "?"]),
    lambda inner: st.lists(inner, max_size=7) | st.dictionaries(st.sampled_from(
        ["event", "player", "gate", "spare", "from", "to", "treasure", "square", "value", "phase", "by", "winners",
         "scores", "players", "state", "treasures", "remaining", "legal"]), inner, max_size=6),
    max_leaves=20,
)  # fmt: skip


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    kind=st.sampled_from(["start", "target", "push", "move", "found", "reward", "treasure", "phase", "game_over", "x"]),
    body=st.dictionaries(st.sampled_from(["player", "gate", "spare", "from", "to", "treasure", "square", "value",
                                          "phase", "by", "winners", "scores", "players", "state"]), _JSON),
)  # fmt: skip
def test_malformed_events_are_reported_not_crashed_on(kind: str, body: dict) -> None:
    try:
        event = event_from_json({**body, "event": kind})
    except (ValueError, CompanionError) as exc:
        assert isinstance(exc, (CompanionError, InvalidStateError)), f"{type(exc).__name__}: {exc}"
    else:
        assert event.to_json()["event"] == kind
