"""The check of "Improve this deck" (issue 30): over the 4 preconstructed decks, the best swap a
search proves really raises the deck's win rate in independent batches with another seed."""

import math
from typing import Any

import pytest

from cards.models import Card
from decks.models import Deck
from engine import selectors, services
from engine.adapters.decks import DeckChoice
from engine.models import CandidateStatus
from engine.suggestions import selectors as suggestion_selectors
from engine.suggestions import services as suggestion_services
from tests.decks.conftest import PRECON
from tests.simulations.conftest import make_deck, run_chunks
from tests.simulations.test_suggestions import run

# Games of each independent batch: against each of the 3 other decks, the deck and its swap.
GAMES = 1000
Z = 1.959964


def batch_wins(owner: Any, deck: Deck, agent: str, seed: int, opponents: list[int]) -> int:
    wins = 0
    for number in opponents:
        batch = services.batch_create(
            requested_by=owner,
            seats=[
                selectors.SeatChoice(DeckChoice(deck=deck.share_id), agent),
                selectors.SeatChoice(DeckChoice(preconstructed=number), agent),
            ],
            games=GAMES,
            seed=seed,
        )
        run_chunks(batch)
        batch.refresh_from_db()
        assert batch.totals is not None
        wins += batch.totals["wins"][0]
    return wins


@pytest.mark.slow
@pytest.mark.parametrize("number", [1, 2, 3, 4])
def test_a_proved_swap_raises_the_win_rate_in_an_independent_batch(
    cards_db: None, owner: Any, number: int
) -> None:
    deck = make_deck(owner, PRECON[number], name=f"Deck {number}")
    item = run(
        suggestion_services.search_create(
            requested_by=owner, share_id=deck.share_id, field="preconstructed", seed=number
        )
    )
    best = suggestion_selectors.search_result(item).suggestions[0]
    assert best.status == CandidateStatus.PROVED
    into = {swap.out: swap.into for swap in best.swaps}
    swapped = make_deck(owner, [into.get(slug, slug) for slug in PRECON[number]], name="Swapped")
    assert set(Card.objects.filter(slug__in=into.values()).values_list("slug", flat=True)) == set(
        into.values()
    )
    opponents = [other for other in PRECON if other != number]
    # Another seed than any of the search's games (its streams hash the search's seed).
    seed = 7_000_000 + number
    before = batch_wins(owner, deck, item.agent, seed, opponents)
    after = batch_wins(owner, swapped, item.agent, seed + 1, opponents)
    games = GAMES * len(opponents)
    p, q = before / games, after / games
    half = Z * math.sqrt(p * (1 - p) / games + q * (1 - q) / games)
    assert q - p - half > 0, (number, best.swaps, p, q, half)
