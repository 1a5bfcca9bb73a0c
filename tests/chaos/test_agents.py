"""The computer players: legal, deterministic by seed, ordered by strength (bounds, not counts)."""

from __future__ import annotations

from engine.chaos.actions import apply, legal_actions
from engine.chaos.agents import AGENTS, GreedyAgent, SearchAgent, card_worth, play_game
from engine.chaos.cards import example_box
from engine.chaos.state import OVER, Options
from engine.chaos.turn import new_game

BOX = example_box()


def test_every_agent_only_plays_legal_actions() -> None:
    for name, make in AGENTS.items():
        state = new_game(BOX, 3)
        agents = [make(1), make(2)]
        while state.phase != OVER:
            action = agents[state.to_move].choose(state)
            assert action in legal_actions(state), name
            apply(state, action)


def test_agents_are_deterministic_by_seed() -> None:
    first = play_game(BOX, 9, [AGENTS["search"](1), AGENTS["random"](2)])
    again = play_game(BOX, 9, [AGENTS["search"](1), AGENTS["random"](2)])
    assert first == again


def test_card_worth_reads_the_effects() -> None:
    by_name = {card.name: card for card in BOX.domain}
    assert card_worth(by_name["Ashen Marshal"]) == 2.0
    assert card_worth(by_name["Leviathan Voice"]) > card_worth(by_name["Reef Caller"])


def test_greedy_beats_random() -> None:
    wins = sum(
        play_game(
            BOX, seed, [GreedyAgent(), AGENTS["random"](seed)], Options(first_player=seed % 2)
        ).winner
        == 0
        for seed in range(200)
    )
    # 95% Wilson lower bound above 90% (it wins ~99.5%).
    assert wins >= 190


def test_search_beats_random() -> None:
    wins = sum(
        play_game(
            BOX, seed, [SearchAgent(seed), AGENTS["random"](seed)], Options(first_player=seed % 2)
        ).winner
        == 0
        for seed in range(8)
    )
    assert wins == 8
