"""The game object (engine.rules.game, issue 27 item 1): one set-up of every mode, one end of a
game, one loop that plays the computer seats, the automaton's steps as actions of its seat."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from engine.rules.actions import ASSAULT, CAST, END_TURN, PLAY, Action, apply, playable_cards
from engine.rules.agents import GreedyAgent, RandomAgent, play_game
from engine.rules.ai_options import AiOptions
from engine.rules.cards import CardDef, load_catalogue
from engine.rules.corpus import constructed_decks
from engine.rules.errors import IllegalAction
from engine.rules.game import REVEAL, Game, table_decks
from engine.rules.kingdom import HandKingdom
from engine.rules.modes import MODES, TURN_LIMIT
from engine.rules.solo import preconstructed
from engine.rules.state import SUMMONING, GameState, Options

ROOT = Path(__file__).resolve().parents[2]
# The project's own code (the Duel of Chaos, engine/chaos and its Play tables play/chaos_*, is
# another game with its own engine).
SOURCES = ("engine", "play", "grimoire", "cod_site", "cards", "decks", "champions", "mutation")
# Loops that play actions an agent chose without being a game: the searches' rollouts, which
# play on to a horizon inside one decision.
ROLLOUTS = {
    ("engine/rules/agents.py", "LookaheadAgent._rollout"),
    ("engine/rules/agents.py", "StrongAgent._rollout"),
    ("engine/rules/learned.py", "LearnedAgent._play_turn"),
}


def _loops_that_play_agents() -> set[tuple[str, str]]:
    """(file, function) of every loop of the project's Clash of Decks code that both asks for
    a choice and applies an action."""
    found: set[tuple[str, str]] = set()

    def visit(node: ast.AST, path: str, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = where
            if isinstance(child, ast.FunctionDef | ast.ClassDef):
                inner = f"{where}.{child.name}" if where else child.name
            if isinstance(child, ast.While | ast.For):
                calls = {
                    call.func.attr if isinstance(call.func, ast.Attribute) else call.func.id
                    for call in ast.walk(child)
                    if isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Attribute | ast.Name)
                }
                if "choose" in calls and "apply" in calls:
                    found.add((path, inner))
            visit(child, path, inner)

    for source in SOURCES:
        for file in sorted((ROOT / source).rglob("*.py")):
            path = file.relative_to(ROOT).as_posix()
            if "migrations" in file.parts or path.startswith(("engine/chaos/", "play/chaos_")):
                continue
            visit(ast.parse(file.read_text()), path, "")
    return found


def test_one_loop_advances_a_game_to_its_end() -> None:
    """Test batches, their replays, Play, the ladder, the command line and the training games
    all call Game.advance; before issue 27 the loop was written in four places."""
    assert _loops_that_play_agents() - ROLLOUTS == {("engine/rules/game.py", "Game.advance")}


# What engine.rules.game gives those that play games.
GAME_OBJECT = ("Game", "DRAFT_PROCEDURES", "table_decks", "drafted_table")


@pytest.mark.parametrize(
    "path",
    [
        "engine/simulation.py",
        "engine/batches/seeding.py",
        "engine/batches/replay.py",
        "engine/rules/agents.py",
        "engine/rules/train_evaluation.py",
        "play/services.py",
    ],
)
def test_what_plays_games_calls_the_game_object(path: str) -> None:
    """Inside engine.rules from its module, elsewhere through the public API (engine.rules)."""
    imported = {
        alias.name
        for node in ast.walk(ast.parse((ROOT / path).read_text()))
        if isinstance(node, ast.ImportFrom) and node.module in {"engine.rules", "engine.rules.game"}
        for alias in node.names
    }
    assert imported & set(GAME_OBJECT), imported


def test_the_turn_limit_is_one_parameter_of_every_mode() -> None:
    assert {name: mode.turn_limit for name, mode in MODES.items()} == dict.fromkeys(MODES, 200)
    assert TURN_LIMIT == 200
    # Nowhere else a constant of its own (the batches', the agents', Play's setting were).
    names = set()
    for source in SOURCES:
        for file in (ROOT / source).rglob("*.py"):
            if "migrations" in file.parts or "chaos" in file.parts:
                continue
            for node in ast.walk(ast.parse(file.read_text())):
                if isinstance(node, ast.Assign):
                    names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    assert {name for name in names if "MAX_TURNS" in name} == set()


def test_a_game_past_its_turn_limit_is_over_as_a_draw() -> None:
    decks = [load_catalogue().precon(1), load_catalogue().precon(2)]
    game = Game.start(decks, 3, Options(), turn_limit=4)
    assert not game.over
    chosen = game.advance([GreedyAgent(), GreedyAgent()])
    state = game.state
    assert (state.turn, state.outcome, game.over, state.returns()) == (5, None, True, (0, 0))
    # Nothing more to play: the game is over.
    assert game.advance([GreedyAgent(), GreedyAgent()]) == 0
    assert chosen > 0


def test_a_person_s_seat_stops_the_computers() -> None:
    decks = [load_catalogue().precon(1), load_catalogue().precon(2)]
    game = Game.start(decks, 3, Options(first_player=0))
    assert game.advance([None, GreedyAgent()]) == 0
    assert (game.state.turn, game.state.active) == (1, 0)
    # The computer plays its whole turn, then waits for the person.
    apply(game.state, (END_TURN, -1, -1))
    assert game.advance([None, GreedyAgent()]) > 0
    assert (game.state.turn, game.state.active) == (3, 0)


def _ai_cards() -> list[CardDef]:
    held = {card.name for number in (1, 2) for card in load_catalogue().precon(number)}
    cards = sorted(
        (entry.card for entry in load_catalogue().cards if entry.card.name not in held),
        key=lambda card: card.name,
    )
    return cards[:48]


def _automaton_games() -> list[tuple[list[list[CardDef]], Options]]:
    catalogue = load_catalogue()
    player, ai = preconstructed(catalogue, 1)
    solo = [player, ai]
    coop = table_decks(
        "coop", [catalogue.precon(1), _ai_cards(), catalogue.precon(2), _ai_cards()], 11
    )
    return [
        (solo, Options(mode="solo", ai=AiOptions(), log=True, stats=True)),
        (solo, Options(mode="solo", ai=AiOptions(ai_first=True), log=True, stats=True)),
        (coop, Options(mode="coop", ai=AiOptions(), log=True, stats=True)),
    ]


@pytest.mark.parametrize("game", range(3))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_automaton_s_steps_as_actions_play_the_game_apply_plays(game: int, seed: int) -> None:
    """Played step by step (the replay viewer), the automaton's turns give the very position,
    log and statistics that ``apply`` gives when it plays them at once (a batch)."""
    decks, options = _automaton_games()[game]
    seats = len(decks)
    at_once = Game.start(decks, seed, options)
    at_once.advance([GreedyAgent() for _ in range(seats)])
    stepwise = Game.start(decks, seed, options)
    steps: list[tuple[int, Action]] = []
    stepwise.advance(
        [GreedyAgent() for _ in range(seats)],
        stepwise=True,
        after=lambda state, seat, action: steps.append((seat, action)),
    )
    one, other = at_once.state, stepwise.state
    assert (other.turn, other.returns(), other.active) == (one.turn, one.returns(), one.active)
    assert [(e.code, e.args) for e in other.log or []] == [(e.code, e.args) for e in one.log or []]
    assert other.stats is not None and one.stats is not None
    assert other.stats.played == one.stats.played
    # The automata's seats played reveals, their Assault and their end of turn.
    controllers = other.setup.controllers
    ai_kinds = {action[0] for seat, action in steps if controllers[seat] == 1}
    assert ai_kinds == {REVEAL, ASSAULT, END_TURN}


def _positions(count: int) -> list[GameState]:
    """Positions of random games between random Constructed decks of the catalogue."""
    decks = constructed_decks(load_catalogue(), 40, 5)
    rng = random.Random(5)
    positions: list[GameState] = []
    while len(positions) < count:
        state = Game.start(rng.sample(decks, 2), rng.randrange(1000), Options()).state
        agents = [RandomAgent(rng.randrange(1000)) for _ in range(2)]
        while state.outcome is None and state.turn < 30:
            positions.append(state.copy())
            apply(state, agents[state.active].choose(state))
    return positions


def test_the_cards_listed_playable_are_those_apply_accepts() -> None:
    """playable_cards (and so legal_actions) and the checks of apply state the availability and
    Price of Blood rules once: a card of the hand is listed exactly when apply takes a play of it
    past those checks."""
    for state in _positions(400):
        if state.setup.controllers[state.active] != 0 or state.phase != SUMMONING:
            continue
        kingdom = state.players[state.active]
        assert isinstance(kingdom, HandKingdom)
        listed = set(playable_cards(state))
        for index, card in enumerate(kingdom.hand):
            kind = PLAY if state.setup.creature[card] else CAST
            try:
                apply(state.copy(), (kind, card, 0))
                taken = True
            except IllegalAction as refusal:
                # Refused for what playable_cards states, or for a later reason (a target).
                taken = refusal.code not in ("not_available", "blackmailed", "too_expensive")
            assert taken == (index in listed), (state.turn, index, card)


def test_play_game_plays_to_the_mode_s_limit() -> None:
    decks = [load_catalogue().precon(1), load_catalogue().precon(2)]
    result = play_game(decks, 9, [GreedyAgent(), GreedyAgent()], max_turns=2)
    assert (result.turns, result.returns) == (3, (0, 0))
