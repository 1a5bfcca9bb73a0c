"""No stalls: every agent ends its games before the turn limit (ruling A1 of docs/rulings.md).

The full corpus (the 16 preconstructed pairs 4 times each and 200 random Constructed decks) is
played by the fast agents here and by every agent in ``make bench`` (bench/agents_bench.py); the
search agents play an even sample of it here.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.rules.actions import ASSAULT_ACTION, apply
from engine.rules.agents import (
    Agent,
    GreedyAgent,
    LookaheadAgent,
    RandomAgent,
    StrongAgent,
    play_game,
    position_key,
)
from engine.rules.cards import load_catalogue
from engine.rules.corpus import Match, sample, stall_corpus
from engine.rules.state import Options
from engine.rules.turn import new_game

from .support import precon_decks


def _draws(matches: list[Match], make: Callable[[int], Agent], exhaustion: bool) -> list[str]:
    """The matches still running at the 200-turn limit, each played by two ``make`` agents."""
    draws = []
    for match in matches:
        agents = [make(match.seed * 2), make(match.seed * 2 + 1)]
        result = play_game(match.decks, match.seed, agents, Options(exhaustion=exhaustion))
        if 1 not in result.returns:
            draws.append(f"{match.label} seed {match.seed}")
    return draws


def test_the_corpus_is_seeded() -> None:
    catalogue = load_catalogue()
    corpus = stall_corpus(catalogue)
    assert len(corpus) == 264
    assert [m.label for m in corpus[:3]] == ["1-1", "1-2", "1-3"]
    assert corpus == stall_corpus(catalogue)
    assert corpus != stall_corpus(catalogue, seed=1)
    for match in corpus:
        for deck in match.decks:
            assert len({card.name for card in deck}) == 8


@pytest.mark.parametrize("exhaustion", [False, True])
@pytest.mark.parametrize("name", ["greedy", "random"])
def test_fast_agents_finish_the_whole_corpus(name: str, exhaustion: bool) -> None:
    make: Callable[[int], Agent] = (lambda seed: GreedyAgent()) if name == "greedy" else RandomAgent
    corpus = stall_corpus(load_catalogue())
    draws = _draws(corpus, make, exhaustion)
    # At most 0.5% of the 264 games: one.
    assert len(draws) <= 1, draws


@pytest.mark.parametrize("exhaustion", [False, True])
def test_lookahead_finishes_a_sample(exhaustion: bool) -> None:
    corpus = sample(stall_corpus(load_catalogue()), 24)
    assert _draws(corpus, lambda seed: LookaheadAgent(seed, nodes=600), exhaustion) == []


@pytest.mark.parametrize("label", ["random-11", "random-12", "random-75"])
def test_lookahead_does_not_loop_within_a_turn(label: str) -> None:
    # These decks hold Cycle of life (0 Mana, 0 Damage): cast, it goes back to the hand, and the
    # lookahead agent once cast it on the same creature until the game's action limit.
    [match] = [m for m in stall_corpus(load_catalogue()) if m.label == label]
    assert _draws([match], lambda seed: LookaheadAgent(seed), exhaustion=False) == []


@pytest.mark.parametrize("label", ["random-11", "random-12", "random-75"])
def test_strong_rollouts_do_not_loop_within_a_turn(label: str) -> None:
    # The strong agent's rollout policy keeps no repetition guard: on these decks it once cast
    # Cycle of life for ever inside a rollout, and its first choice of the game never returned.
    [match] = [m for m in stall_corpus(load_catalogue()) if m.label == label]
    assert _draws([match], lambda seed: StrongAgent(seed, nodes=1500), exhaustion=False) == []


def test_greedy_never_begins_a_turn_the_same_way_from_a_repeated_position() -> None:
    """Preconstructed 3 against 1 with this seed never ends without the guard: the position at
    the start of a turn comes back again and again."""
    decks = precon_decks(3, 1)
    unguarded = play_game(decks, 62, [GreedyAgent(guard=False), GreedyAgent(guard=False)])
    assert unguarded.returns == (0, 0)
    assert unguarded.turns == 201
    greedy = GreedyAgent()
    result = play_game(decks, 62, [greedy, greedy])
    assert result.returns == (1, -1)
    # Replayed: no position begins two turns with the same action, and some began several.
    state = new_game(decks, 62)
    first: dict[tuple[object, ...], set[tuple[int, int, int]]] = {}
    turn = -1
    for action in result.actions:
        if state.turn != turn:
            turn = state.turn
            tried = first.setdefault(position_key(state, state.active), set())
            assert action not in tried
            tried.add(action)
        apply(state, action)
    assert max(len(actions) for actions in first.values()) >= 2


def test_position_key_ignores_the_turn_number() -> None:
    state = new_game(precon_decks(1, 2), 5)
    before = position_key(state, 0)
    apply(state, ASSAULT_ACTION)
    assert position_key(state, 0) != before
    later = new_game(precon_decks(1, 2), 5)
    later.turn += 40
    later.players[0].turns += 20
    assert position_key(later, 0) == before
