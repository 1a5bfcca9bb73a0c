"""A Duel of Chaos card entered in the admin: checked by the engine's validator, one message per
problem on its field; a good one is saved with its canonical effects and derived keywords."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from cards.admin import ChaosCardForm
from cards.models import CatalogueRevision, ChaosCard, ChaosSet

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]


def _data(**changes: Any) -> dict[str, Any]:
    data = {
        "chaos_set": ChaosSet.objects.get(code="EX").pk,
        "identifier": "EX-99",
        "slug": "tide-oracle",
        "card_type": "domain",
        "clan": "evine",
        "cost": "3",
        "deck": "",
        "copies": "2",
        "play_effect": "CALL 2->DRAW 1",
        "reaction_on": "",
        "reaction_opponent_turn": "",
        "reaction_effect": "",
        "depth": "",
        "complete": "on",
        "note": "",
        "position": "99",
    }
    return {**data, **changes}


def test_one_message_per_problem_on_its_field() -> None:
    form = ChaosCardForm(
        data=_data(card_type="emissary", cost="3", play_effect="call 2 -> drow 1", depth="4")
    )
    assert not form.is_valid()
    assert form.errors == {
        "cost": ["an Emissary costs 0"],
        "deck": ["an Emissary belongs to the deck 1, 2 or both"],
        "play_effect": ["unknown step 'drow'; did you mean 'draw'? (column 11 of the effect)"],
        "depth": ["only an Intervention is placed in the Domain pile"],
    }


def test_a_good_card_is_saved_canonical_with_its_keywords() -> None:
    admin = User.objects.create_superuser("admin", "admin@example.com", "pw")
    client = Client()
    client.force_login(admin)
    revisions = CatalogueRevision.objects.count()
    post = {
        **_data(),
        "translations-TOTAL_FORMS": "1",
        "translations-INITIAL_FORMS": "0",
        "translations-MIN_NUM_FORMS": "0",
        "translations-MAX_NUM_FORMS": "1000",
        "translations-0-language_code": "en",
        "translations-0-name": "Tide Oracle",
        "translations-0-play_text": "CALL 2; if it hits, draw a card.",
        "translations-0-reaction_text": "",
    }
    response = client.post("/admin/cards/chaoscard/add/", post)
    assert response.status_code == 302, response.content.decode()[:2000]
    card = ChaosCard.objects.get(slug="tide-oracle")
    assert card.play_effect == "call 2 -> draw 1"
    assert card.keywords == " call "
    assert card.search_text == "| tide oracle |"
    assert CatalogueRevision.objects.count() > revisions
    found = client.get("/chaos/cards/?q=kw:appel+cost:3")
    assert b"Tide Oracle" in found.content
