"""The learned agent (engine.rules.learned): it never reads what its seat cannot see, it plays
legal moves in every mode, and its model file is what the training script makes."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.rules.actions import apply, legal_actions
from engine.rules.agents import AGENTS, GreedyAgent, play_game
from engine.rules.ai_options import AiOptions
from engine.rules.cards import load_catalogue
from engine.rules.corpus import sample, stall_corpus
from engine.rules.evaluation import FEATURE_COUNT, FEATURES, Evaluator, features
from engine.rules.evaluation_model import MODEL_FILE, evaluator, model_weights
from engine.rules.kingdom import AutomatonKingdom, HandKingdom
from engine.rules.learned import LearnedAgent
from engine.rules.play import wilson
from engine.rules.solo import preconstructed
from engine.rules.state import GameState, Options
from engine.rules.train_evaluation import digest, fit, main, play_shard
from engine.rules.turn import new_game

from .support import precon_decks


def _positions(options: Options, decks: list, seeds: range) -> list[GameState]:
    """Positions of greedy games a few turns in, each waiting for a choice among several."""
    found = []
    for seed in seeds:
        state = new_game(decks, seed, options)
        greedy = GreedyAgent()
        while state.outcome is None and state.turn < 40:
            if len(legal_actions(state)) > 2 and state.turn >= 2 + seed % 5:
                found.append(state.copy())
                break
            apply(state, greedy.choose(state))
    return found


def _hide(state: GameState, player: int, shuffle: int) -> GameState:
    """``state`` with what ``player`` cannot see dealt otherwise: the others' hands in another
    order (the Stronghold stays where everyone sees it), the automata's piles reshuffled and the
    game's random stream replaced."""
    trial = state.copy()
    rng = random.Random(shuffle)
    trial.rng.seed(rng.getrandbits(32))
    for p, kingdom in enumerate(trial.players):
        if p == player:
            continue
        if isinstance(kingdom, HandKingdom):
            rng.shuffle(kingdom.hand)
        elif isinstance(kingdom, AutomatonKingdom):
            rng.shuffle(kingdom.pile)
    return trial


@pytest.mark.parametrize("replies", [0, 4])
def test_the_choice_never_depends_on_hidden_cards(replies: int) -> None:
    catalogue = load_catalogue()
    player, pile = preconstructed(catalogue, 2)
    cases = [
        (Options(), precon_decks(1, 3), range(6)),
        (Options(mode="solo", ai=AiOptions(fixed_mana=8)), [player, pile], range(3)),
        (Options(mode="free_for_all"), [catalogue.precon(n) for n in (1, 2, 3, 4)], range(3)),
    ]
    checked = 0
    for options, decks, seeds in cases:
        for state in _positions(options, decks, seeds):
            me = state.active
            choices = {
                LearnedAgent(evaluator(), 7, replies).choose(_hide(state, me, shuffle))
                for shuffle in range(4)
            }
            assert len(choices) == 1, (options.mode, state.turn)
            checked += 1
    assert checked >= 10


def test_the_features_see_another_hand_as_a_whole() -> None:
    state = _positions(Options(), precon_decks(2, 4), range(1))[0]
    values = [float(v) for v in range(len(state.setup.cards))]
    me = state.active
    other = 1 - me
    base = features(state, me, values)
    hidden = state.copy()
    random.Random(5).shuffle(hidden.players[other].hand)  # type: ignore[attr-defined]
    assert features(hidden, me, values) == base
    # A Duel's features are one side's standing minus the other's.
    assert features(state, other, values) == [-value for value in base]


def test_the_learned_agents_play_every_mode_to_the_end() -> None:
    catalogue = load_catalogue()
    player, pile = preconstructed(catalogue, 1)
    four = [catalogue.precon(n) for n in (1, 2, 3, 4)]
    for name in ("learned", "learned_deep"):
        for options, decks in (
            (Options(), precon_decks(1, 2)),
            (Options(mode="solo", ai=AiOptions()), [player, pile]),
            (Options(mode="teams"), four),
        ):
            agents = [AGENTS[name](seat) for seat in range(len(decks))]
            result = play_game(decks, 3, agents, options)
            assert result.state.outcome is not None, (name, options.mode)


def test_learned_beats_greedy() -> None:
    games = 48
    wins = 0
    for seed in range(games):
        seat = seed % 2
        hero = AGENTS["learned"](seed)
        agents = [hero, GreedyAgent()] if seat == 0 else [GreedyAgent(), hero]
        result = play_game(precon_decks(1 + seed % 4, 1 + (seed // 4) % 4), seed, agents)
        wins += result.returns[seat] == 1
    low, _ = wilson(wins, games)
    assert low > 0.5


def test_the_model_file_fits_the_features() -> None:
    data = json.loads(MODEL_FILE.read_text(encoding="utf-8"))
    assert data["features"] == list(FEATURES)
    assert len(model_weights()) == FEATURE_COUNT
    training = data["training"]
    shards = -(-training["games"] // training["shard_games"])
    assert len(training["shard_digests"]) == shards
    with pytest.raises(ValueError):
        Evaluator([0.0] * (FEATURE_COUNT - 1))


def test_the_training_games_are_reproduced_from_the_seed() -> None:
    """The model file's first shard of self-play games, played again from its seed, gives the
    very samples whose digest the file records (``--check`` plays them all)."""
    training = json.loads(MODEL_FILE.read_text(encoding="utf-8"))["training"]
    count = min(training["shard_games"], training["games"])
    samples = play_shard(load_catalogue(), training["seed"], training["nodes"], 0, count)
    assert digest(samples) == training["shard_digests"][0]


def test_a_small_training_run_is_reproducible(tmp_path: Path) -> None:
    def run(work: str, out: str) -> str:
        args = ["--games", "4", "--nodes", "60", "--shard-games", "2", "--seed", "3"]
        assert main([*args, "--work", str(tmp_path / work), "--out", str(tmp_path / out)]) == 0
        return (tmp_path / out).read_text()

    first = run("a", "model.json")
    assert run("b", "again.json") == first
    # A run stopped midway resumes from the shards written: the same file.
    (tmp_path / "a" / "extra").mkdir()
    assert run("a", "resumed.json") == first
    model = json.loads(first)
    assert model["training"]["samples"] > 0
    assert len(model["weights"]) == FEATURE_COUNT


def test_fit_recovers_a_known_direction() -> None:
    rng = random.Random(1)
    rows = []
    for _ in range(400):
        x = [rng.uniform(-1, 1) for _ in range(FEATURE_COUNT)]
        rows.append([*x, 1.0 if 3 * x[0] - 2 * x[1] + rng.gauss(0, 0.3) > 0 else 0.0])
    weights = fit(rows)
    assert weights[0] > 2 * abs(weights[5]) and weights[1] < -2 * abs(weights[5])
    assert fit(rows) == weights


@pytest.mark.parametrize("name", ["learned", "learned_deep"])
def test_the_learned_agents_do_not_stall(name: str) -> None:
    """Ruling A1: their repetition guard ends the games of a sample of the no-stall corpus."""
    for match in sample(stall_corpus(load_catalogue()), 24):
        agents = [AGENTS[name](match.seed * 2 + seat) for seat in (0, 1)]
        result = play_game(match.decks, match.seed, agents, Options())
        assert 1 in result.returns, match.label
