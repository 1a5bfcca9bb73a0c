"""The fast paths are only shortcuts: with them off, every game comes out identical."""

from __future__ import annotations

import random

import pytest

from engine.rules import fast_paths
from engine.rules.agents import GreedyAgent, RandomAgent, play_game
from engine.rules.state import Options

from .support import catalogue_cards, precon_decks, random_decks, stand_in_champions


def _games() -> list[tuple[list, int]]:
    games = [(precon_decks(a, b), a * 10 + b) for a in range(1, 5) for b in range(1, 5)]
    for seed in range(60):
        games.append((random_decks(random.Random(seed)), seed))
    return games


def _champion_games() -> list[tuple[list, list, int]]:
    """Random decks with a catalogue creature not in the deck as each player's Champion."""
    creatures = catalogue_cards("creature")
    games = []
    for seed in range(20):
        rng = random.Random(seed + 900)
        decks = random_decks(rng, creatures)
        champions = stand_in_champions(rng, decks, creatures)
        games.append((decks, champions, seed))
    return games


def _play_all() -> list:
    out = []
    games = [(decks, None, seed) for decks, seed in _games()] + _champion_games()
    for decks, champions, seed in games:
        options = Options(exhaustion=True, log=True, champions=champions is not None)
        for agents in ([GreedyAgent(), GreedyAgent()], [RandomAgent(seed), RandomAgent(seed + 1)]):
            result = play_game(decks, seed, agents, options, champions=champions)
            out.append((result.actions, result.state.log, result.state))
    return out


def test_same_games_without_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = _play_all()
    monkeypatch.setattr(fast_paths, "ENABLED", False)
    slow = _play_all()
    assert len(fast) == len(slow) == 192
    for (actions, log, state), (actions2, log2, state2) in zip(fast, slow, strict=True):
        assert actions == actions2
        assert log == log2
        assert state == state2
