"""The pages: "Test this deck" from a deck page, the batch page with its progress and results,
the replay viewer, in English, French and Swedish."""

import re
from typing import Any

import pytest
from django.test import Client

from decks.models import Deck
from engine import selectors, services
from engine.models import SimulationBatch, Status
from tests.decks.conftest import PRECON
from tests.simulations.conftest import InlineExecutor, create_batch, make_deck, run_chunks

pytestmark = pytest.mark.usefixtures("cards_db")


def _batch(owner: Any, deck: Deck) -> SimulationBatch:
    return create_batch(owner, deck, 30, opponent=4, seed=5)


def test_the_deck_page_offers_to_test_a_legal_deck(
    owner_client: Client, owner: Any, precon_deck: Deck
) -> None:
    html = owner_client.get(f"/decks/{precon_deck.share_id}/").content.decode()
    assert f'href="/simulations/new/?deck={precon_deck.share_id}"' in html
    assert "Test this deck" in html
    illegal = make_deck(owner, PRECON[3][:7], name="Seven")
    html = owner_client.get(f"/decks/{illegal.share_id}/").content.decode()
    assert "Test this deck" not in html


def test_the_form_queues_a_batch_and_shows_it(
    owner_client: Client,
    owner: Any,
    other: Any,
    precon_deck: Deck,
    inline_chunks: InlineExecutor,
    django_capture_on_commit_callbacks: Any,
) -> None:
    public = make_deck(other, PRECON[2], name="Oscar's public", visibility="public")
    page = owner_client.get(f"/simulations/new/?deck={precon_deck.share_id}").content.decode()
    assert f'<option value="{precon_deck.share_id}" selected>' in page
    assert "Oscar&#x27;s public (oscar)" in page
    with django_capture_on_commit_callbacks(execute=True):
        response = owner_client.post(
            f"/simulations/new/?deck={precon_deck.share_id}",
            {
                "deck": precon_deck.share_id,
                "opponent": "public",
                "opponent_public": public.share_id,
                "agent": "random",
                "games": "24",
            },
        )
    batch = SimulationBatch.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/simulations/{batch.pk}/"
    assert (batch.deck_b_id, batch.agent_a, batch.agent_b, batch.games) == (
        public.pk, "random", "random", 24,
    )  # fmt: skip
    html = owner_client.get(response["Location"]).content.decode()
    assert '<progress id="batch-progress-bar" max="24" value="24"' in html
    assert 'id="win-rate-chart"' in html and 'id="length-chart"' in html
    assert "hx-trigger" not in html  # done: the page stops polling
    assert html.count('class="histogram-bar"') == len(
        selectors.simulation.histogram(selectors.batch_summary(batch).turns)  # type: ignore[union-attr]
    )
    assert 'data-card="Troll"' in html and "Cards of deck A" in html
    assert html.count('<tr data-card="') == 16


def test_form_errors_are_shown_and_nothing_is_queued(
    owner_client: Client, precon_deck: Deck
) -> None:
    response = owner_client.post(
        "/simulations/new/",
        {"deck": precon_deck.share_id, "opponent": "code", "opponent_code": "AQAB!!",
         "agent": "greedy", "games": "10"},
    )  # fmt: skip
    assert response.status_code == 400
    assert "A deck code holds only letters, digits" in response.content.decode()
    response = owner_client.post(
        "/simulations/new/",
        {"deck": precon_deck.share_id, "opponent": "code", "agent": "greedy", "games": "0"},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Choose the opponent" in html
    assert "Ensure this value is greater than or equal to 1." in html
    assert not SimulationBatch.objects.exists()


def test_the_progress_part_polls_until_the_batch_is_over(
    owner_client: Client, owner: Any, precon_deck: Deck
) -> None:
    batch = _batch(owner, precon_deck)
    services.chunk_run(batch_id=batch.pk, index=0)
    part = owner_client.get(f"/simulations/{batch.pk}/progress/").content.decode()
    assert 'hx-trigger="every 1s"' in part
    assert '<progress id="batch-progress-bar" max="30" value="10"' in part
    assert "10 of 30 games played" in part and "33.3 %" in part
    assert "win-rate-chart" not in part
    run_chunks(batch)
    part = owner_client.get(f"/simulations/{batch.pk}/progress/").content.decode()
    assert "hx-trigger" not in part and "win-rate-chart" in part


def test_cancel_from_the_page(owner_client: Client, owner: Any, precon_deck: Deck) -> None:
    batch = _batch(owner, precon_deck)
    response = owner_client.post(f"/simulations/{batch.pk}/cancel/")
    assert response.status_code == 302
    batch.refresh_from_db()
    assert batch.status == Status.CANCELLED
    html = owner_client.get(f"/simulations/{batch.pk}/").content.decode()
    assert "No game was played." in html


def test_the_batch_list(owner_client: Client, owner: Any, precon_deck: Deck) -> None:
    batch = _batch(owner, precon_deck)
    html = owner_client.get("/simulations/").content.decode()
    assert f'href="/simulations/{batch.pk}/"' in html
    assert "Olga&#x27;s deck 1 against Preconstructed deck 4" in html


def test_the_replay_viewer_steps_through_the_turns(
    owner_client: Client, owner: Any, precon_deck: Deck
) -> None:
    batch = _batch(owner, precon_deck)
    game = selectors.batch_game(batch, 2)
    html = owner_client.get(f"/simulations/{batch.pk}/games/2/").content.decode()
    assert "Turn 1" in html and 'rel="next"' in html and 'rel="prev"' not in html
    assert html.count('class="replay-player') == 2
    assert html.count('<li class="hand-stronghold">Bastion</li>') == 2
    hand = re.findall(r'<li class="hand-card[^"]*">([^<]+)</li>', html)
    assert len(hand) == 16
    assert 'data-seat="A"' in html and 'data-seat="B"' in html
    last = len(game.frames) - 1
    html = owner_client.get(f"/simulations/{batch.pk}/games/2/?turn={last}").content.decode()
    assert "End of the game" in html and 'rel="next"' not in html
    picked = owner_client.get(f"/simulations/{batch.pk}/games/?index=7")
    assert picked["Location"] == f"/simulations/{batch.pk}/games/7/"
    assert owner_client.get(f"/simulations/{batch.pk}/games/30/").status_code == 404


def test_pages_are_private_and_need_an_account(
    owner_client: Client, owner: Any, other: Any, precon_deck: Deck
) -> None:
    batch = _batch(owner, precon_deck)
    assert Client().get("/simulations/new/")["Location"].startswith("/accounts/login/")
    stranger = Client()
    stranger.force_login(other)
    assert stranger.get(f"/simulations/{batch.pk}/").status_code == 404
    assert stranger.get(f"/simulations/{batch.pk}/games/0/").status_code == 404


@pytest.mark.parametrize(
    ("prefix", "texts"),
    [
        ("/fr", ["Tester ce deck", "Adversaire", "Nombre de parties"]),
        ("/sv", ["Testa leken", "Motståndare", "Antal partier"]),
    ],
)
def test_pages_in_french_and_swedish(
    owner_client: Client, precon_deck: Deck, prefix: str, texts: list[str]
) -> None:
    html = owner_client.get(f"{prefix}/simulations/new/?deck={precon_deck.share_id}").content
    for text in texts:
        assert text in html.decode()


def test_a_batch_page_in_french(owner_client: Client, owner: Any, precon_deck: Deck) -> None:
    batch = _batch(owner, precon_deck)
    run_chunks(batch)
    html = owner_client.get(f"/fr/simulations/{batch.pk}/").content.decode()
    assert "Olga&#x27;s deck 1 contre Deck pré-construit 4" in html
    assert "30 parties jouées sur 30" in html and "Résultats" in html
    assert "Cartes du Deck A · Olga&#x27;s deck 1" in html
    api = owner_client.get(f"/api/v1/simulations/{batch.pk}/?lang=sv").json()
    assert api["deck_b"]["name"] == "Förkonstruerad lek 4"


def test_the_admin_shows_batches_read_only(
    owner: Any, precon_deck: Deck, django_user_model: Any
) -> None:
    batch = _batch(owner, precon_deck)
    services.chunk_run(batch_id=batch.pk, index=0)
    admin = Client()
    admin.force_login(django_user_model.objects.create_superuser("root", password="pw-root-1234"))
    listing = admin.get("/admin/engine/simulationbatch/").content.decode()
    assert "Olga&#x27;s deck 1" in listing
    page = admin.get(f"/admin/engine/simulationbatch/{batch.pk}/change/")
    assert page.status_code == 200
    assert "Save" not in page.content.decode()
    assert admin.get("/admin/engine/simulationbatch/add/").status_code == 403
