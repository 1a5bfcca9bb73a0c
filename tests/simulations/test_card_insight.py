"""Per-card insight on a card's page: the card's figures in the latest test batch of each public
deck that plays it (issue 14)."""

from typing import Any

import pytest
from django.test import Client

from engine import selectors, simulation
from engine.models import SimulationBatch
from tests.decks.conftest import PRECON
from tests.simulations.conftest import InlineExecutor, create_batch, make_deck

pytestmark = pytest.mark.usefixtures("cards_db")


def test_the_card_page_shows_the_card_in_the_public_decks_tests(
    owner: Any,
    client: Client,
    inline_chunks: InlineExecutor,
    django_capture_on_commit_callbacks: Any,
) -> None:
    slug = PRECON[1][0]
    public = make_deck(owner, PRECON[1], name="Public one", visibility="public")
    private = make_deck(owner, PRECON[1], name="Private one")
    with django_capture_on_commit_callbacks(execute=True):
        older = create_batch(owner, public, 20, seed=1)
        latest = create_batch(owner, public, 30, seed=2, control=True)
        create_batch(owner, private, 20, seed=3)
    latest.refresh_from_db()
    assert latest.control is not None and older.pk < latest.pk
    # The latest batch of the public deck only: not the older one, the control or the private deck.
    (insight,) = selectors.card_insight(slug)
    seat = latest.seats.get(index=0)
    name = seat.cards[seat.slugs.index(slug)]["name"]
    totals = simulation.Totals.from_json(latest.totals)
    expected = simulation.card_stats(name, totals.cards[0][name], 30, totals.wins[0])
    assert (insight.deck, insight.agent, insight.games, insight.card) == (
        public, "greedy", 30, expected,
    )  # fmt: skip
    assert insight.card.games_played + insight.card.win_rate_when_not_played.games == 30
    html = client.get(f"/simulations/cards/{slug}/").content.decode()
    assert f'<tr data-deck="{public.share_id}">' in html
    assert "Public one" in html and "Private one" not in html
    assert html.count("<td data-games=") == 4
    page = client.get(f"/cards/{slug}/").content.decode()
    assert f'hx-get="/simulations/cards/{slug}/"' in page
    SimulationBatch.objects.all().delete()
    html = client.get(f"/fr/simulations/cards/{slug}/").content.decode()
    assert "Aucun deck public jouant cette carte n’a encore été testé." in html
