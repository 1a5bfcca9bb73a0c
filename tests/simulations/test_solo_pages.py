"""The Solo parts of the pages: the deck page's Solo section and difficulty curve, and a Solo
batch's results page."""

from typing import Any

import pytest
from django.test import Client

from decks.models import Deck
from engine import curve_selectors, selectors
from engine.models import DifficultyCurve, SimulationBatch
from tests.decks.conftest import PRECON
from tests.simulations.conftest import InlineExecutor, make_deck

pytestmark = pytest.mark.usefixtures("cards_db")


@pytest.fixture
def solo_deck(owner: Any) -> Deck:
    return make_deck(owner, PRECON[1], name="Solo deck", fmt="preconstructed")


def test_the_deck_page_says_which_formats_solo_takes(
    owner_client: Client, solo_deck: Deck, precon_deck: Deck
) -> None:
    html = owner_client.get(f"/decks/{solo_deck.share_id}/").content.decode()
    assert "Formats that can be played in Solo: Preconstructed, Draft." in html
    assert "This deck's format is one of them." in html
    assert f'hx-get="/simulations/curves/deck/{solo_deck.share_id}/"' in html
    constructed = owner_client.get(f"/decks/{precon_deck.share_id}/").content.decode()
    assert "This deck's format cannot be played in Solo." in constructed
    assert "/simulations/curves/deck/" not in constructed
    french = owner_client.get(f"/fr/decks/{solo_deck.share_id}/").content.decode()
    assert "Formats jouables en Solo : Pré-construit, Draft." in french


def test_the_curve_panel_offers_a_curve_then_draws_it(
    owner_client: Client,
    solo_deck: Deck,
    inline_chunks: InlineExecutor,
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from engine import services

    monkeypatch.setattr(services.secrets, "randbits", lambda bits: 2026)
    panel = f"/simulations/curves/deck/{solo_deck.share_id}/"
    empty = owner_client.get(panel).content.decode()
    assert 'action="/simulations/curves/new/"' in empty
    assert "difficulty-curve-chart" not in empty
    with django_capture_on_commit_callbacks(execute=True):
        response = owner_client.post(
            "/simulations/curves/new/", {"deck": solo_deck.share_id, "games": 8}
        )
    assert response.status_code == 302
    assert response["Location"] == f"/decks/{solo_deck.share_id}/#difficulty-curve"
    curve = DifficultyCurve.objects.get()
    assert (curve.deck, curve.games_per_level) == (solo_deck, 8)
    html = owner_client.get(panel).content.decode()
    assert html.count('class="rate-row"') == 10
    assert 'id="difficulty-curve-chart"' in html
    # No agent asked: the batch rule's default for 8 Solo games, lookahead (issue 28).
    assert "8 games per level, the deck played by the AI “Lookahead (slow)”." in html
    assert 'hx-trigger="every 2s"' not in html
    assert (
        '<p class="curve-verdict" data-level="1">This deck beats the AI up to level 1 half of the '
        "time.</p>" in html
    )
    # Levels 1-10 (engine 0017): 5, 3, 4, 5, 3, 2 wins in 8 games, then none.
    assert html.count('data-rate="0.625"') == 2
    assert html.count('data-rate="0.375"') == 2
    assert html.count('data-rate="0.5"') == 1
    assert html.count('data-rate="0.25"') == 1
    assert html.count('data-rate="0.0"') == 4
    french = owner_client.get(f"/fr{panel}").content.decode()
    assert "parties par niveau" in french


def test_the_curve_sentence_in_french_and_swedish(
    owner_client: Client, solo_deck: Deck, monkeypatch: pytest.MonkeyPatch
) -> None:
    DifficultyCurve.objects.create(
        requested_by=solo_deck.owner, deck=solo_deck, games_per_level=4, seed=1
    )
    monkeypatch.setattr(curve_selectors, "curve_level_beaten", lambda points: 3)
    panel = f"/simulations/curves/deck/{solo_deck.share_id}/"
    assert "This deck beats the AI up to level 3 half of the time." in (
        owner_client.get(panel).content.decode()
    )
    assert "Ce deck bat l'IA jusqu'au niveau 3 une fois sur deux." in (
        owner_client.get(f"/fr{panel}").content.decode()
    )
    assert "Den här leken slår AI:n upp till nivå 3 hälften av gångerna." in (
        owner_client.get(f"/sv{panel}").content.decode()
    )


def test_a_bad_curve_request_is_a_message_and_queues_nothing(
    owner_client: Client, solo_deck: Deck
) -> None:
    response = owner_client.post(
        "/simulations/curves/new/", {"deck": solo_deck.share_id, "games": 0}, follow=True
    )
    assert "Ask for 1 to 10000 games per level." in response.content.decode()
    assert not SimulationBatch.objects.exists()
    assert owner_client.post("/simulations/curves/new/", {"deck": "nope"}).status_code == 404


def test_anonymous_visitors_are_asked_to_sign_in(client: Client, owner: Any) -> None:
    deck = make_deck(owner, PRECON[2], fmt="preconstructed", visibility="public")
    html = client.get(f"/simulations/curves/deck/{deck.share_id}/").content.decode()
    assert "Sign in to play this deck against the levels of the Solo AI." in html
    assert "<form" not in html


def test_a_solo_batch_page_shows_the_ai_and_how_games_ended(
    owner_client: Client,
    solo_deck: Deck,
    inline_chunks: InlineExecutor,
    django_capture_on_commit_callbacks: Any,
) -> None:
    body = {
        "mode": "solo",
        "seats": [{"deck": solo_deck.share_id, "agent": "greedy"}],
        "ai": {"level": 2},
        "games": 20,
        "seed": 4,
    }
    with django_capture_on_commit_callbacks(execute=True):
        created = owner_client.post("/api/v1/simulations/", body, content_type="application/json")
    batch = SimulationBatch.objects.get()
    html = owner_client.get(created.json()["page_url"]).content.decode()
    assert "Solo against the AI of level 2" in html
    assert (batch.totals["ends"]["deck_pile_emptied"], batch.totals["ends"]["fort_destroyed"]) == (
        5, 15,
    )  # fmt: skip
    assert (
        '<li data-end="deck_pile_emptied">The AI\'s deck pile emptied with its Fort revealed (the '
        "player won): 5 games</li>"
    ) in html
    assert "cannot be replayed" not in html
    assert f'<a href="/simulations/{batch.pk}/games/' in html


def test_the_panel_polls_its_results_while_the_levels_play(
    owner_client: Client,
    solo_deck: Deck,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    from engine import services

    monkeypatch.setattr(services, "_dispatch", lambda batch_id, chunks: None)
    with django_capture_on_commit_callbacks(execute=True):
        owner_client.post("/simulations/curves/new/", {"deck": solo_deck.share_id, "games": 4})
    html = owner_client.get(f"/simulations/curves/deck/{solo_deck.share_id}/").content.decode()
    assert "0 of 40 games played against the levels of the Solo AI" in html
    assert 'hx-trigger="every 2s" hx-select="#difficulty-curve-results"' in html
    assert "curve-verdict" not in html
    # The form stays outside the polled part.
    assert html.index('id="curve-games"') > html.index("</progress>")


def test_the_test_form_plays_a_deck_against_the_solo_ai(
    owner_client: Client,
    solo_deck: Deck,
    precon_deck: Deck,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    from engine import services

    monkeypatch.setattr(services, "_dispatch", lambda batch_id, chunks: None)
    url = f"/simulations/new/?deck={solo_deck.share_id}"
    form = {"deck": solo_deck.share_id, "opponent": "solo", "agent": "random", "games": "6"}
    page = owner_client.get(url).content.decode()
    assert '<option value="0" selected>Quick Play</option>' in page
    assert "Solo AI level" in page
    with django_capture_on_commit_callbacks(execute=True):
        level = owner_client.post(url, {**form, "opponent_solo": "7"})
        quick = owner_client.post(url, {**form, "opponent_solo": "0"})
    assert (level.status_code, quick.status_code) == (302, 302)
    played = SimulationBatch.objects.order_by("pk")
    assert [(batch.mode, batch.ai_level, batch.seats.count()) for batch in played] == [
        ("solo", 7, 2), ("solo", 0, 2),
    ]  # fmt: skip
    # A Constructed deck cannot face the Solo AI: the form says why and queues nothing.
    with django_capture_on_commit_callbacks(execute=True):
        refused = owner_client.post(
            f"/simulations/new/?deck={precon_deck.share_id}",
            {**form, "deck": precon_deck.share_id, "opponent_solo": "2"},
        )
    assert refused.status_code == 400
    assert SimulationBatch.objects.count() == 2


def test_a_solo_game_replays_with_the_ai_piles_and_its_turn_in_steps(
    owner_client: Client,
    solo_deck: Deck,
    inline_chunks: InlineExecutor,
    django_capture_on_commit_callbacks: Any,
) -> None:
    body = {
        "mode": "solo",
        "seats": [{"deck": solo_deck.share_id, "agent": "greedy"}],
        "ai": {"level": 2},
        "games": 4,
        "seed": 4,
    }
    with django_capture_on_commit_callbacks(execute=True):
        owner_client.post("/api/v1/simulations/", body, content_type="application/json")
    batch = SimulationBatch.objects.get()
    game = selectors.batch_game(batch, 0)
    ai_turn = game.frames[1]
    assert ai_turn.active == 1
    first_reveal = ai_turn.actions[0]
    assert first_reveal["line"] == "top"
    response = owner_client.get(f"/simulations/{batch.pk}/games/0/?turn=2&step=1")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<h3 class="board-seat-title">Deck B · The Solo AI ' in html
    assert f"The AI reveals {first_reveal['reveal']} onto the top line" in html
    assert 'aria-current="step">The AI reveals' in html
    assert ai_turn.steps[0].seats[1].pile_count == 23
    assert 'data-pile="23">Deck pile: 23 cards face down' in html
    assert "Bastion under the pile" in html
    assert 'aria-label="Discard pile, top card first" data-discard="0"' in html
    # The player keeps a hand with its Stronghold; the AI shows none.
    assert html.count('aria-label="Hand, left to right"') == 1
    french = owner_client.get(f"/fr/simulations/{batch.pk}/games/0/?turn=2&step=1")
    assert "Pile de pioche : 23 cartes face cachée" in french.content.decode()
