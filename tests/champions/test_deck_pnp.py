"""A deck's Print-and-Play sheet: its 8 cards in our frames from the catalogue, and a Champion."""

import io

import pdfplumber
import pytest
from django.test import Client

from cards.models import Card
from cards.selectors import card_name
from champions import services
from decks.models import Format
from decks.services import deck_create
from tests.champions.conftest import design
from tests.champions.test_pnp import A4, CARD_H, CARD_W, card_rects, expected_slots

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]


@pytest.fixture
def deck(owner: object) -> object:
    cards = list(Card.objects.filter(precon_deck=1).order_by("slug"))
    assert len(cards) == 8
    return deck_create(
        owner=owner,
        name="Deck 1",
        format=Format.objects.get(slug="constructed"),
        cards=cards,
        visibility="unlisted",
    )


def test_deck_sheet_holds_its_eight_cards_and_the_champion(
    deck: object, owner: object, client: Client
) -> None:
    champion = services.champion_create(owner=owner, design=design(visibility="unlisted"))
    response = client.get(
        f"/api/v1/decks/{deck.share_id}/pnp.pdf?champion={champion.uid}&lang=fr"  # type: ignore[attr-defined]
    )
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    with pdfplumber.open(io.BytesIO(response.content)) as document:
        assert len(document.pages) == 1
        page = document.pages[0]
        text = page.extract_text()
        assert card_rects(page, CARD_W, CARD_H) == expected_slots(A4[2], A4[3])
        # No official art: each card shows its generated emblem; this Champion has no picture.
        assert len(page.images) == 8
        assert {(round(image["width"]), round(image["height"])) for image in page.images} == {
            (136, 103)
        }
    for card in Card.objects.filter(precon_deck=1):
        assert card_name(card, "fr") in text
    assert "Åsa l'Intrépide" in text
    assert "Créature" in text  # our type line, in the page language


def test_deck_sheet_without_champion_and_privacy(deck: object, other: object) -> None:
    anonymous = Client()
    response = anonymous.get(f"/api/v1/decks/{deck.share_id}/pnp.pdf?paper=letter")  # type: ignore[attr-defined]
    with pdfplumber.open(io.BytesIO(response.content)) as document:
        assert len(card_rects(document.pages[0], CARD_W, CARD_H)) == 8
    private = services.champion_create(owner=deck.owner, design=design())  # type: ignore[attr-defined]
    refused = anonymous.get(f"/api/v1/decks/{deck.share_id}/pnp.pdf?champion={private.uid}")  # type: ignore[attr-defined]
    assert refused.status_code == 404
    assert anonymous.get("/api/v1/decks/nope/pnp.pdf").status_code == 404
