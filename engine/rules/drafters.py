"""Computer drafters: who picks what when a draft (engine.rules.drafts) waits for a seat.

- ``price``: the revealed cards by the engine's static worth of a card (``agents.card_worth``,
  the table the greedy agent values cards with), best first.
- ``simulated``: each revealed card by a few fast greedy Duels of the deck it would make (the
  seat's picks, the card, the rest filled by worth from the cards nobody holds yet) against the
  deck the next seat is drafting (Solo: the best of the AI's pile), completed the same way; then
  by worth. Measured (2,000 Draft-format games each on the Initiation Pack and on Treachery,
  greedy agents): it wins 49.7% and 50.0% against the price drafter, so two games per card add
  no strength over the worth table; 16 games per card gave 52.4% (800 games, 95% CI 48.9-55.8%).

Both are deterministic from their seed (ties are broken by it). A drafter knows the pool's
contents (it is a published product) but never the order of the face-down pile.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final, Protocol

from engine.rules.agents import AGENTS, card_worth, play_game
from engine.rules.cards import DECK_SIZE, CardDef
from engine.rules.drafts import (
    Draft,
    DraftResult,
    Pending,
    Procedure,
    new_draft,
    pending,
    pick,
    result,
)
from engine.rules.errors import InputError
from engine.rules.state import Options


class Drafter(Protocol):
    name: str

    def choose(self, draft: Draft, waiting: Pending) -> list[int]: ...


class PriceDrafter:
    name = "price"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, draft: Draft, waiting: Pending) -> list[int]:
        tie = {card: self.rng.random() for card in waiting.revealed}
        ranked = sorted(
            waiting.revealed, key=lambda card: (-card_worth(draft.pool[card]), tie[card])
        )
        return ranked[: waiting.count]


class SimulatedDrafter:
    name = "simulated"

    def __init__(self, seed: int = 0, games: int = 2, max_turns: int = 60) -> None:
        self.rng = random.Random(seed)
        self.games = games
        self.max_turns = max_turns
        # What its picks cost so far (bench/drafts_bench.py prints it).
        self.games_played = 0

    def choose(self, draft: Draft, waiting: Pending) -> list[int]:
        revealed = waiting.revealed
        if waiting.count >= len(revealed):
            return list(revealed)
        worth = [card_worth(card) for card in draft.pool]
        held = {card for deck in draft.decks for card in deck} | set(draft.ai_pile)
        # Whatever nobody holds, best first: what the seat may still hope to complete its deck with.
        free = sorted(
            (card for card in range(len(draft.pool)) if card not in held),
            key=lambda card: -worth[card],
        )
        mine = draft.decks[waiting.seat]
        seeds = [self.rng.randrange(2**62) for _ in range(self.games)]
        scores: dict[int, float] = {}
        for candidate in revealed:
            fill = [card for card in free if card != candidate][: DECK_SIZE - len(mine) - 1]
            deck = [*mine, candidate, *fill]
            scores[candidate] = self._score(
                draft, deck, _opponent(draft, waiting.seat, deck, free), seeds
            )
        tie = {card: self.rng.random() for card in revealed}
        ranked = sorted(revealed, key=lambda c: (-scores[c], -worth[c], tie[c]))
        return ranked[: waiting.count]

    def _score(
        self, draft: Draft, deck: list[int], reference: list[int], seeds: list[int]
    ) -> float:
        """The deck's total returns over the games, in both seats in turn."""
        cards = [draft.pool[card] for card in deck]
        other = [draft.pool[card] for card in reference]
        total = 0.0
        for game, seed in enumerate(seeds):
            seat = game % 2
            decks = [cards, other] if seat == 0 else [other, cards]
            agents = [AGENTS["greedy"](seed), AGENTS["greedy"](seed + 1)]
            played = play_game(decks, seed, agents, Options(), max_turns=self.max_turns)
            total += played.returns[seat]
        self.games_played += len(seeds)
        return total


def _opponent(draft: Draft, seat: int, deck: list[int], free: list[int]) -> list[int]:
    """The deck the seat's would meet: the next seat's picks (Solo: the best of the AI's pile
    by worth) completed with the best cards nobody holds, ``free`` being sorted by worth."""
    if draft.procedure.seats > 1:
        base = draft.decks[(seat + 1) % draft.procedure.seats]
    else:
        base = sorted(draft.ai_pile, key=lambda card: -card_worth(draft.pool[card]))[:DECK_SIZE]
    taken = set(deck)
    fill = [card for card in free if card not in taken][: DECK_SIZE - len(base)]
    return [*base, *fill]


DRAFTERS: Final[dict[str, Callable[[int], Drafter]]] = {
    "price": lambda seed: PriceDrafter(seed),
    "simulated": lambda seed: SimulatedDrafter(seed),
}


def run_draft(
    procedure: str | Procedure,
    pool: Sequence[CardDef],
    seed: int,
    drafters: Sequence[Drafter],
) -> DraftResult:
    """A whole draft from ``seed`` with drafter i picking for seat i."""
    draft = new_draft(procedure, pool, seed)
    if len(drafters) != draft.procedure.seats:
        raise InputError(
            f"the {draft.procedure.code} draft has {draft.procedure.seats} seat(s), "
            f"not {len(drafters)} drafters"
        )
    waiting = pending(draft)
    while waiting is not None:
        pick(draft, waiting.seat, drafters[waiting.seat].choose(draft, waiting))
        waiting = pending(draft)
    return result(draft)
