"""A digest of many varied games, to show that two builds of the engine play them identically.

    python -m tests.engine.fingerprint [GAMES]

Random decks from the whole catalogue and the preconstructed ones, with and without Exhaustion
and Champions, greedy, random and lookahead players, the event log and statistics on: every
action, every log line, the statistics and the final position go into the digest.
"""

from __future__ import annotations

import hashlib
import random
import sys

from engine.rules.agents import Agent, GreedyAgent, LookaheadAgent, RandomAgent, play_game
from engine.rules.cards import load_catalogue
from engine.rules.champion import stand_in
from engine.rules.events import render_log
from engine.rules.kingdom import hand_of
from engine.rules.state import Options


def fingerprint(games: int) -> str:
    catalogue = load_catalogue()
    cards = [entry.card for entry in catalogue.cards]
    creatures = [card for card in cards if card.type == "creature"]
    digest = hashlib.sha256()
    for seed in range(games):
        rng = random.Random(seed)
        if seed % 4 == 0:
            decks = [catalogue.precon(1 + seed % 3), catalogue.precon(4 - seed % 3)]
        else:
            decks = [rng.sample(cards, 8), rng.sample(cards, 8)]
        champions = None
        if seed % 3 == 0:
            champions = [
                stand_in(rng.choice([c for c in creatures if c.name not in {d.name for d in deck}]))
                for deck in decks
            ]
        options = Options(
            exhaustion=seed % 2 == 1, log=True, stats=True, champions=champions is not None
        )
        agents: list[Agent] = [
            [GreedyAgent(), RandomAgent(seed), LookaheadAgent(seed, nodes=300)][(seed + p) % 3]
            for p in range(2)
        ]
        result = play_game(decks, seed, agents, options, max_turns=60, champions=champions)
        state = result.state
        # The single winner of a Duel (-1: a draw), as the digest has always recorded it.
        winner = result.returns.index(1) if 1 in result.returns else -1
        digest.update(repr((winner, result.turns, result.actions)).encode())
        assert state.log is not None
        digest.update("\n".join(render_log(state.log, state.setup.names)).encode())
        assert state.stats is not None
        digest.update(
            repr(
                (state.stats.played, state.stats.creature_damage, state.stats.stronghold_damage)
            ).encode()
        )
        hands = [hand_of(state, p) for p in range(len(state.players))]
        digest.update(repr([(k.hand, k.sh, k.fort) for k in hands]).encode())
    return digest.hexdigest()


if __name__ == "__main__":
    print(fingerprint(int(sys.argv[1]) if len(sys.argv) > 1 else 200))
