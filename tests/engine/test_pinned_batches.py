"""One seeded test batch per mode, pinned to its exact results (issue 27, "Must not change").

A refactoring of how a game is set up, played and ended (the engine's game object, the seeding,
the seat rotation, the turn cap) must leave every batch's games as they were: the same wins per
deck, the same turns, the same actions. Each batch below is played twice, as a batch plays it
(``engine.simulation.play_games``: the wins, draws, first players and turns a batch stores) and
as the replay viewer replays it (``replay_game``: each game's action list, hashed).

The expected values are in ``EXPECTED``, apart from the code. A change meant to alter games
(a rule, an agent, the seeding) re-derives them:

    COD_ENGINE=native .venv/bin/python -m tests.engine.test_pinned_batches

prints a new ``EXPECTED`` to paste over the one below (with ``COD_ENGINE=python`` after an
edit of ``engine/rules/`` not yet compiled). Say in the commit why the games changed.
"""

from __future__ import annotations

import hashlib
import json
import sys
from typing import Any

import pytest

from engine.rules.ai_options import AiOptions
from engine.rules.cards import CardDef, load_catalogue
from engine.rules.drafts import catalogue_pool
from engine.rules.solo import preconstructed
from engine.simulation import AUTOMATON, BatchSpec, DraftSpec, play_games, replay_game

# Expected values (generated: see the docstring) ---------------------------------------------
# Per batch: the Totals a batch stores (wins per deck, draws, games each deck played first and
# won, {turns: games}) and per game (turns, sha256 of its action list, first 16 hex digits).
EXPECTED: dict[str, dict[str, Any]] = {
    "duel": {
        "wins": [4, 0],
        "draws": 0,
        "first_games": [2, 2],
        "first_wins": [2, 0],
        "turns": {6: 1, 7: 1, 9: 1, 10: 1},
        "ends": {"fort_destroyed": 4},
        "games": [
            [9, "e4711e0655f98bf7"],
            [10, "e1c06fc6e1501a0c"],
            [7, "b8bfc451427f691d"],
            [6, "9df6915158f14296"],
        ],
    },
    "solo": {
        "wins": [1, 3],
        "draws": 0,
        "first_games": [4, 0],
        "first_wins": [1, 0],
        "turns": {6: 1, 10: 2, 14: 1},
        "ends": {"fort_destroyed": 3, "deck_pile_emptied": 1},
        "games": [
            [14, "117253c9eb3c0444"],
            [6, "5efb62ec644ab91e"],
            [10, "f043c7e596f24bf8"],
            [10, "87ff5ceb7efa1b0c"],
        ],
    },
    "coop": {
        "wins": [0, 4, 0, 4],
        "draws": 0,
        "first_games": [4, 0, 0, 0],
        "first_wins": [0, 0, 0, 0],
        "turns": {14: 2, 16: 2},
        "ends": {"fort_destroyed": 4},
        "games": [
            [16, "faf0be2bfa4e5bc1"],
            [14, "cf2abde24fd91f67"],
            [16, "6d28ffc5ad3707e7"],
            [14, "c9545880d4c84b53"],
        ],
    },
    "free_for_all": {
        "wins": [2, 0, 2, 0],
        "draws": 0,
        "first_games": [1, 1, 1, 1],
        "first_wins": [0, 0, 1, 0],
        "turns": {13: 1, 16: 1, 18: 1, 19: 1},
        "ends": {"fort_destroyed": 4},
        "games": [
            [19, "ab04a21e15a27ba6"],
            [16, "3974117954c26d80"],
            [13, "a6994adb5de989ad"],
            [18, "265217abc777a5bc"],
        ],
    },
    "teams": {
        "wins": [4, 0, 4, 0],
        "draws": 0,
        "first_games": [1, 1, 1, 1],
        "first_wins": [1, 0, 1, 0],
        "turns": {12: 1, 13: 1, 17: 1, 18: 1},
        "ends": {"fort_destroyed": 4},
        "games": [
            [17, "a4274fc0a1213b9b"],
            [12, "8eba02e22a54454c"],
            [13, "61b9e5ba530e34b5"],
            [18, "1d9ba730bde18b4e"],
        ],
    },
    "duel_draft": {
        "wins": [4, 0],
        "draws": 0,
        "first_games": [2, 2],
        "first_wins": [2, 0],
        "turns": {5: 1, 6: 2, 13: 1},
        "ends": {"fort_destroyed": 4},
        "games": [
            [13, "be54d26b0cfec514"],
            [6, "75c14f66ca45b8d3"],
            [5, "0c5d4fdb7a047ba7"],
            [6, "faec74fa3ee9ab9b"],
        ],
    },
}
# --------------------------------------------------------------------------------------------

GAMES = 4


def _precon(number: int) -> tuple[CardDef, ...]:
    return tuple(load_catalogue().precon(number))


def _coop_ai_cards() -> tuple[CardDef, ...]:
    """48 cards of the catalogue that neither player's deck holds (the Co-op AI's cards)."""
    held = {card.name for card in (*_precon(1), *_precon(2))}
    cards = sorted(
        (entry.card for entry in load_catalogue().cards if entry.card.name not in held),
        key=lambda card: card.name,
    )
    return tuple(cards[:48])


def batch(name: str) -> BatchSpec:
    """The pinned batch of ``name``: small, fast agents, every mode's own set-up."""
    if name == "duel":
        return BatchSpec(seed=27, decks=(_precon(1), _precon(2)), agents=("greedy", "random"))
    if name == "solo":
        player, pile = preconstructed(load_catalogue(), 2)
        return BatchSpec(
            seed=27,
            decks=(tuple(player), tuple(pile)),
            agents=("greedy", AUTOMATON),
            mode="solo",
            ai=AiOptions(),
        )
    if name == "coop":
        ai = _coop_ai_cards()
        return BatchSpec(
            seed=27,
            decks=(_precon(1), ai, _precon(2), ai),
            agents=("greedy", AUTOMATON, "random", AUTOMATON),
            mode="coop",
            ai=AiOptions(),
        )
    if name in ("free_for_all", "teams"):
        return BatchSpec(
            seed=27,
            decks=tuple(_precon(number) for number in range(1, 5)),
            agents=("greedy", "random", "greedy", "random"),
            mode=name,
        )
    if name == "duel_draft":
        pool = tuple(catalogue_pool(load_catalogue(), "01"))
        return BatchSpec(
            seed=27,
            decks=(),
            agents=("greedy", "random"),
            draft=DraftSpec(pool, ("price", "price"), "duel"),
        )
    raise KeyError(name)


BATCHES = ("duel", "solo", "coop", "free_for_all", "teams", "duel_draft")


def results(name: str) -> dict[str, Any]:
    """What the pin compares: the batch's stored totals and each game's replayed actions."""
    spec = batch(name)
    totals = play_games(spec, 0, GAMES)
    games = []
    for index in range(GAMES):
        replayed = replay_game(spec, index)
        actions = json.dumps(replayed.replay["actions"], sort_keys=True).encode()
        games.append([replayed.outcome.turns, hashlib.sha256(actions).hexdigest()[:16]])
    return {
        "wins": totals.wins,
        "draws": totals.draws,
        "first_games": totals.first_games,
        "first_wins": totals.first_wins,
        "turns": dict(sorted(totals.turns.items())),
        "ends": {end: count for end, count in totals.ends.items() if count},
        "games": games,
    }


@pytest.mark.parametrize("name", BATCHES)
def test_a_seeded_batch_plays_exactly_the_pinned_games(name: str) -> None:
    got = results(name)
    assert got == EXPECTED[name]
    # Each game replayed as the viewer does ends where the batch's counted game ended.
    assert sorted(turns for turns, _ in got["games"]) == sorted(
        turns for turns, count in got["turns"].items() for _ in range(count)
    )


if __name__ == "__main__":
    print("EXPECTED: dict[str, dict[str, Any]] = {")
    for name in BATCHES:
        print(f"    {name!r}: {results(name)!r},")
    print("}")
    sys.exit(0)
