"""The metagame: a round robin of the most popular public decks, refreshed when they change
(only the pairs of a changed deck are played again), its standings, page, API and the deck
page's link to a deck's place."""

from typing import Any

import pytest
from django.test import Client

from cards.models import Card
from decks.models import Deck
from decks.services import deck_fork, deck_update
from engine.metagame import selectors, services
from engine.models import MetagamePairing, MetagameRefresh, Status
from tests.decks.conftest import CONSTRUCTED, PRECON
from tests.simulations.conftest import create_batch, make_deck

GAMES = 40


@pytest.fixture(autouse=True)
def _few_games(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "GAMES_PER_PAIR", GAMES)


@pytest.fixture
def public(cards_db: None, owner: Any, other: Any) -> list[Deck]:
    """Three public decks: the first forked twice, the second played by two accounts, the last
    played once; and a private deck, which the metagame never ranks."""
    decks = [
        make_deck(owner, PRECON[2], name="Twice forked", visibility="public"),
        make_deck(owner, PRECON[3], name="Played by two", visibility="public"),
        make_deck(other, CONSTRUCTED, name="Played once", visibility="public"),
    ]
    make_deck(other, PRECON[4], name="Private")
    deck_fork(deck=decks[0], owner=other)
    deck_fork(deck=decks[0], owner=owner)
    create_batch(owner, decks[1], 10)
    create_batch(other, decks[1], 10)
    create_batch(other, decks[2], 10)
    return decks


def refresh_played() -> MetagameRefresh:
    refresh = services.metagame_refresh()
    assert refresh is not None
    services.play_unplayed(refresh)
    refresh.refresh_from_db()
    return refresh


def test_the_most_popular_public_decks_meet_in_a_round_robin(public: list[Deck]) -> None:
    ranked = list(
        selectors.popular_public_decks().values_list("name", "fork_count", "player_count")
    )
    assert ranked[:3] == [("Played by two", 0, 2), ("Twice forked", 2, 0), ("Played once", 0, 1)]
    refresh = refresh_played()
    assert refresh.status == Status.DONE
    assert [entry["name"] for entry in refresh.entries] == [
        "Played by two", "Twice forked", "Played once",
    ]  # fmt: skip
    assert refresh.pairings.count() == 3
    standings = selectors.standings(refresh)
    assert sorted(one.name for one in standings) == ["Played by two", "Played once", "Twice forked"]
    assert [one.rank for one in standings] == [1, 2, 3]
    assert standings[0].elo >= standings[1].elo >= standings[2].elo
    assert sum(one.elo for one in standings) == pytest.approx(3 * 1500, abs=0.5)
    for one in standings:
        assert one.low < one.elo < one.high
        assert one.score.games == 2 * GAMES
        assert one.best is not None and one.worst is not None
        assert one.best.rate.value >= one.worst.rate.value  # type: ignore[operator]
    # Each pair's games are the deck A's wins, the deck B's and the draws.
    for pairing in MetagamePairing.objects.all():
        assert pairing.wins_a + pairing.wins_b + pairing.draws == GAMES


def test_a_refresh_plays_again_only_the_pairs_of_a_changed_deck(
    public: list[Deck], owner: Any
) -> None:
    first = refresh_played()
    assert services.metagame_refresh() == first  # nothing changed: nothing to play
    assert MetagamePairing.objects.count() == 3
    changed = public[0]
    deck_update(
        deck=changed,
        actor=owner,
        cards=list(Card.objects.filter(slug__in=[*PRECON[2][:7], "dryad"])),
    )
    second = services.metagame_refresh()
    assert second is not None and second != first
    unplayed = second.pairings.exclude(status=Status.DONE)
    assert unplayed.count() == 2
    assert all(changed.pk in (one.deck_a_id, one.deck_b_id) for one in unplayed)
    assert MetagamePairing.objects.count() == 5
    services.play_unplayed(second)
    second.refresh_from_db()
    assert second.status == Status.DONE
    assert selectors.latest_refresh() == second


def test_fewer_than_two_decks_make_no_metagame(cards_db: None, owner: Any) -> None:
    make_deck(owner, PRECON[2], name="Alone", visibility="public")
    assert services.metagame_refresh() is None
    assert selectors.latest_refresh() is None


def test_the_page_the_api_and_the_deck_page(public: list[Deck], owner_client: Client) -> None:
    empty = Client().get("/api/v1/metagame/").json()
    assert empty["decks"] == [] and empty["refreshed_at"] is None
    refresh_played()
    body = Client().get("/api/v1/metagame/").json()
    assert [one["rank"] for one in body["decks"]] == [1, 2, 3]
    first = body["decks"][0]
    assert set(first) >= {"deck", "elo", "elo_low", "elo_high", "best", "worst", "score"}
    assert body["games_per_pair"] == GAMES and body["refreshing"] is None
    place = Client().get(first["url"]).json()
    assert place["standing"]["deck"] == first["deck"] and place["decks"] == 3
    assert len(place["matchups"]) == 2
    missing = Client().get("/api/v1/metagame/decks/nope/")
    assert (missing.status_code, missing.json()["code"]) == (404, "not_in_metagame")
    page = Client().get("/simulations/metagame/")
    assert page.status_code == 200
    assert f'id="deck-{first["deck"]}"' in page.content.decode()
    slot = Client().get(f"/simulations/metagame/deck/{first['deck']}/").content.decode()
    assert "Ranked 1 of 3 in the metagame" in slot
    assert f"/simulations/metagame/#deck-{first['deck']}" in slot
    deck_page = owner_client.get(f"/decks/{first['deck']}/").content.decode()
    assert f'hx-get="/simulations/metagame/deck/{first["deck"]}/"' in deck_page
    assert f'href="/simulations/suggestions/deck/{first["deck"]}/"' in deck_page


def test_the_command_plays_the_round_robin_without_workers(public: list[Deck]) -> None:
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("metagame_refresh", "--wait", stdout=out)
    refresh = selectors.latest_refresh()
    assert refresh is not None
    assert out.getvalue() == (
        f"Metagame refresh #{refresh.pk}: 3 decks, 3 of 3 pairs played (3 here).\n"
    )
