"""Messages and card names in the request's language: API (?lang=, Accept-Language) and pages."""

from datetime import timedelta
from html import unescape

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from cards.models import Card
from decks.models import Deck, Format
from decks.selectors.checks import deck_check
from decks.services import deck_create
from tests.decks.conftest import CONSTRUCTED, PRECON

pytestmark = pytest.mark.usefixtures("cards_db")

DECK = ["Dragon émeraude", "Dragon émeraude", "bridge-initiation", "Gr"]


def _validate(**extra: object) -> dict:
    response = APIClient().post(
        "/api/v1/decks/validate/" + extra.pop("query", ""),  # type: ignore[operator]
        {"format": "constructed", "cards": DECK, "mode": "solo"},
        format="json",
        **extra,
    )
    assert response.status_code == 200
    return response.json()


def test_validation_in_french() -> None:
    body = _validate(query="?lang=fr")
    assert [(e["code"], e["message"]) for e in body["errors"]] == [
        ("unknown_card", "Aucune carte ne s'appelle « Gr ». Vouliez-vous dire : Ogre, Grrr, "
                         "Goinfre, Désintégration, Grogneur ?"),
        ("deck_size", "Un Deck Construit compte exactement 8 cartes ; celui-ci en compte 4."),
        ("duplicate_card", "Dragon émeraude est 2 fois dans le Deck : un Deck ne contient que des "
                           "cartes différentes."),
        ("card_type_not_allowed", "Pont est une carte Pont ; un Deck Construit n'accepte que : "
                                  "Créatures, Incantations."),
        ("format_not_allowed_in_mode", "Le format Construit ne se joue pas en mode Solo."),
    ]  # fmt: skip
    assert [card["name"] for card in body["cards"]] == [
        "Dragon émeraude",
        "Dragon émeraude",
        "Pont",
    ]


def test_validation_in_swedish_from_accept_language() -> None:
    body = _validate(HTTP_ACCEPT_LANGUAGE="sv")
    assert [e["message"] for e in body["errors"]][1:] == [
        "En lek i formatet Konstruerat har exakt 8 kort; den här har 4.",
        # No Swedish name for this card yet: the English one stands in.
        "Emerald dragon finns 2 gånger i leken: en lek har bara olika kort.",
        # The type's name comes from the catalogue's translations (cards app), which win.
        "Bridge är ett kort av typen Bro; en lek i formatet Konstruerat tillåter bara: Varelser, "
        "Incantations.",
        "Formatet Konstruerat kan inte spelas i spelvarianten Ensamvariant.",
    ]  # fmt: skip


def test_lang_parameter_wins_and_english_is_the_default() -> None:
    assert _validate(query="?lang=en", HTTP_ACCEPT_LANGUAGE="fr")["errors"][4]["message"] == (
        "The Constructed format cannot be played in Solo mode."
    )
    assert _validate()["errors"][1]["message"] == (
        "A Constructed deck holds exactly 8 cards; this one holds 4."
    )


def test_preconstructed_and_legacy_messages_in_french() -> None:
    check = deck_check(format="preconstructed", cards=[*PRECON[1][:7], "alpha"], language="fr")
    assert [e.message for e in check.errors] == [
        "Un Deck Pré-construit est exactement l'un des 4 Decks pré-construits du Pack "
        "d'initiation. Le plus proche est le Deck 1, qui a 7 de ses 8 cartes en commun avec "
        "celui-ci."
    ]
    legacy = deck_check(
        format="constructed-2021", cards=[*PRECON[1], "alpha", "emerald-dragon"], language="fr"
    )
    assert [e.message for e in legacy.errors] == [
        "Dragon émeraude (Submersion) ne fait pas partie des cartes du format Construit 2021 "
        "(ancienne règle) : Pack d'initiation."
    ]


def test_deck_code_errors_in_the_request_language() -> None:
    response = APIClient().get("/api/v1/decks/decode/?code=AAAA&lang=sv")
    assert response.status_code == 400
    assert response.json()["message"] == "Den här lekkoden är avkortad."


def test_builder_page_in_french_and_swedish(client: Client) -> None:
    french = client.get("/fr/decks/new/").content.decode()
    assert "<h1>Constructeur de Deck</h1>" in french
    assert '<option value="constructed" selected>Construit</option>' in french
    assert 'hx-post="/fr/decks/builder/panel/"' in french
    panel = client.post(
        "/sv/decks/builder/panel/", {"format": "constructed", "card": CONSTRUCTED[:7]}
    ).content.decode()
    assert "En lek i formatet Konstruerat har exakt 8 kort; den här har 7." in panel
    assert "<figcaption>Manakurva</figcaption>" in panel
    # Decimal commas stay out of the SVG geometry.
    assert (
        'x="4.0"'
        in client.post(
            "/fr/decks/builder/panel/", {"format": "constructed", "card": CONSTRUCTED}
        ).content.decode()
    )


def test_code_page_in_swedish(client: Client) -> None:
    code = deck_check(format="constructed", cards=CONSTRUCTED).code
    html = client.get(f"/sv/d/{code}").content.decode()
    assert "<h1>En lek i formatet Konstruerat</h1>" in html
    assert "Giltig lek i formatet Konstruerat" in html


def test_a_deck_saved_a_moment_ago_reads_just_now(client: Client, owner: object) -> None:
    deck = deck_create(
        owner=owner,
        name="Teeth",
        format=Format.objects.get(slug="constructed"),
        cards=list(Card.objects.filter(slug__in=CONSTRUCTED)),
        visibility="public",
    )
    assert "modifié à l'instant" in unescape(client.get(f"/fr/decks/{deck.share_id}/").text)
    assert "ändrad nyss" in client.get("/sv/decks/").text
    Deck.objects.filter(pk=deck.pk).update(updated_at=timezone.now() - timedelta(hours=2))
    assert "modifié il y a 2\xa0heures" in unescape(client.get(f"/fr/decks/{deck.share_id}/").text)
