"""A digest of many varied Solo games, to show that two builds of the engine play them identically.

    python -m tests.engine.solo_fingerprint [GAMES]

The Duel's digest (tests/engine/fingerprint.py) stays as it was; this one covers the automaton:
random player decks from the whole catalogue against random AI piles of 24, or the
Preconstructed set-up, Quick and Custom Play parameters, greedy, random and lookahead players, the
event log and statistics on.
"""

from __future__ import annotations

import hashlib
import random
import sys

from engine.rules.agents import Agent, GreedyAgent, LookaheadAgent, RandomAgent, play_game
from engine.rules.ai_options import (
    EDITION_2021,
    EDITION_2021_ABILITIES,
    GIVEN_ABILITIES,
    AiOptions,
)
from engine.rules.cards import load_catalogue
from engine.rules.events import render_log
from engine.rules.kingdom import AutomatonKingdom, HandKingdom
from engine.rules.solo import preconstructed
from engine.rules.state import Options


def solo_fingerprint(games: int) -> str:
    catalogue = load_catalogue()
    cards = [entry.card for entry in catalogue.cards]
    digest = hashlib.sha256()
    for seed in range(games):
        rng = random.Random(seed)
        if seed % 4 == 0:
            player, ai_cards = preconstructed(catalogue, 1 + seed % 4)
        else:
            chosen = rng.sample(cards, 32)
            player, ai_cards = chosen[:8], chosen[8:]
        ai = AiOptions()
        if seed % 2:
            ai = AiOptions(
                fixed_mana=rng.randint(6, 10),
                mana_per_creature=rng.choice((1, 2)),
                ai_first=rng.random() < 0.5,
                resistance=rng.random() < 0.5,
                abilities=tuple(
                    rng.sample(GIVEN_ABILITIES + EDITION_2021_ABILITIES, rng.randint(0, 2))
                ),
                bastion=rng.random() < 0.8,
                # The labelled 2021 variant: Berserk and the AI without a Bastion too.
                edition=EDITION_2021,
            )
        options = Options(exhaustion=seed % 3 == 1, log=True, stats=True, mode="solo", ai=ai)
        agent: Agent = [GreedyAgent(), RandomAgent(seed), LookaheadAgent(seed, nodes=200)][seed % 3]
        result = play_game([player, ai_cards], seed, [agent, agent], options, max_turns=60)
        state = result.state
        digest.update(repr((result.returns, result.turns, result.actions)).encode())
        assert state.log is not None and state.stats is not None
        digest.update("\n".join(render_log(state.log, state.setup.names)).encode())
        digest.update(
            repr(
                (state.stats.played, state.stats.creature_damage, state.stats.stronghold_damage)
            ).encode()
        )
        hand, automaton = state.players
        assert isinstance(hand, HandKingdom) and isinstance(automaton, AutomatonKingdom)
        digest.update(
            repr((hand.hand, hand.sh, hand.fort, automaton.pile, automaton.discard)).encode()
        )
    return digest.hexdigest()


if __name__ == "__main__":
    print(solo_fingerprint(int(sys.argv[1]) if len(sys.argv) > 1 else 200))
