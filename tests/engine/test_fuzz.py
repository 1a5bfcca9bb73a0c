"""Random-play fuzzing: thousands of seeded games, invariants checked after every action.

A failing game is saved under tests/engine/replays/ (see support.play_checked) and replayed by
test_replay.py::test_regression_replays from then on.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.rules.abilities.registry import REGISTRY
from engine.rules.actions import PLAY, PLAY_ONTO, Action
from engine.rules.agents import GreedyAgent, RandomAgent
from engine.rules.cards import CardDef
from engine.rules.champion import stand_in
from engine.rules.replay import load
from engine.rules.state import GameState, Options

from .support import catalogue_cards, play_checked, precon_decks, random_decks

PRECON = [1, 2, 3, 4]
PAIRS = [(a, b) for a in PRECON for b in PRECON]


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_precon_greedy_vs_greedy(a: int, b: int) -> None:
    greedy = GreedyAgent()
    for seed in range(25):
        options = Options(exhaustion=seed % 2 == 1)
        play_checked(precon_decks(a, b), seed, [greedy, greedy], options, f"greedy-{a}{b}")


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_precon_random_vs_random(a: int, b: int) -> None:
    for seed in range(40):
        agents = [RandomAgent(seed), RandomAgent(seed + 1000)]
        options = Options(exhaustion=seed % 3 == 0)
        play_checked(precon_decks(a, b), seed, agents, options, f"random-{a}{b}")


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_precon_greedy_vs_random(a: int, b: int) -> None:
    for seed in range(15):
        agents = (
            [GreedyAgent(), RandomAgent(seed)] if seed % 2 else [RandomAgent(seed), GreedyAgent()]
        )
        play_checked(precon_decks(a, b), seed, agents, Options(), f"mixed-{a}{b}")


@pytest.mark.parametrize("block", range(10))
def test_catalogue_decks_random_play(block: int) -> None:
    for seed in range(block * 60, block * 60 + 60):
        agents = [RandomAgent(seed), RandomAgent(seed + 7)]
        options = Options(exhaustion=seed % 2 == 0)
        play_checked(random_decks(random.Random(seed)), seed, agents, options, "catalogue-random")


@pytest.mark.parametrize("block", range(10))
def test_catalogue_decks_greedy_play(block: int) -> None:
    greedy = GreedyAgent()
    for seed in range(block * 40, block * 40 + 40):
        agents = [greedy, RandomAgent(seed)] if seed % 3 == 0 else [greedy, greedy]
        options = Options(exhaustion=seed % 2 == 1)
        play_checked(random_decks(random.Random(seed)), seed, agents, options, "catalogue-greedy")


def _champions(rng: random.Random, decks: list) -> list[CardDef]:
    """One Champion per player: a catalogue creature that is not in the player's deck (the
    rulebook's stand-in), or a custom Champion with up to 3 abilities and maybe an Aura."""
    creatures = catalogue_cards("creature")
    codes = sorted(REGISTRY)
    champions = []
    for p, deck in enumerate(decks):
        names = {card.name for card in deck}
        if rng.random() < 0.5:
            champions.append(stand_in(rng.choice([c for c in creatures if c.name not in names])))
            continue
        abilities = rng.sample(codes, rng.randint(0, 3))
        if rng.random() < 0.4:
            abilities.append("aura:" + rng.choice([c for c in codes if c != "symbiote"]))
        champions.append(
            CardDef(
                f"Champion {'AB'[p]}",
                "champion",
                rng.randint(0, 8),
                rng.randint(0, 6),
                rng.randint(1, 6),
                tuple(abilities),
            )
        )
    return champions


def _champion_plays(state: GameState, actions: list[Action]) -> int:
    owner = state.setup.champion_owner
    return sum(1 for kind, card, _ in actions if kind in (PLAY, PLAY_ONTO) and owner[card] >= 0)


@pytest.mark.parametrize("block", range(6))
def test_champion_games_random_play(block: int) -> None:
    """Random decks, one Champion each; every invariant (Champion in exactly one place, exhausted
    only outside the Kingdoms) holds after every action."""
    plays = 0
    for seed in range(block * 40, block * 40 + 40):
        decks = random_decks(random.Random(seed))
        champions = _champions(random.Random(seed), decks)
        agents = [RandomAgent(seed), RandomAgent(seed + 7)]
        options = Options(exhaustion=seed % 2 == 0, champions=True)
        state, actions = play_checked(
            decks, seed, agents, options, "champions-random", champions=champions
        )
        plays += _champion_plays(state, actions)
    assert plays >= 40


@pytest.mark.parametrize("block", range(4))
def test_champion_games_greedy_play(block: int) -> None:
    greedy = GreedyAgent()
    plays = 0
    for seed in range(block * 30, block * 30 + 30):
        decks = random_decks(random.Random(seed + 5000))
        champions = _champions(random.Random(seed), decks)
        agents = [greedy, RandomAgent(seed)] if seed % 3 == 0 else [greedy, greedy]
        options = Options(exhaustion=seed % 2 == 1, champions=True)
        state, actions = play_checked(
            decks, seed, agents, options, "champions-greedy", champions=champions
        )
        plays += _champion_plays(state, actions)
    assert plays >= 30


class _Cheater:
    """Plays greedily for 5 actions, then tries a play that is not legal."""

    name = "cheater"

    def __init__(self) -> None:
        self.greedy = GreedyAgent()
        self.moves = 0

    def choose(self, state: GameState) -> Action:
        self.moves += 1
        if self.moves > 5:
            return (2, 15, 0)
        return self.greedy.choose(state)


def test_a_failing_game_is_saved_as_a_replay(tmp_path: Path) -> None:
    cheater = _Cheater()
    with pytest.raises(AssertionError, match="agent chose an illegal action"):
        play_checked(
            precon_decks(1, 2), 3, [cheater, cheater], Options(), "cheat", replays=tmp_path
        )
    saved = load(tmp_path / "fuzz-cheat-3.json")
    assert (saved.seed, len(saved.actions)) == (3, 5)
    assert saved.decks == tuple(tuple(d) for d in precon_decks(1, 2))
