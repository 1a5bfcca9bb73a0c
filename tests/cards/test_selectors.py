import pytest

from cards.models import Card, Expansion
from cards.selectors import (
    ability_names_in,
    card_lookup_by_name,
    card_name,
    card_slugs_by_engine_name,
    card_suggestions,
    translated,
)
from cards.text import fold, search_text

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]


@pytest.mark.parametrize(
    ("name", "language", "slug"),
    [
        ("EMERALD DRAGON", None, "emerald-dragon"),
        ("dragon emeraude", None, "emerald-dragon"),
        ("Dragon Émeraude", "fr", "emerald-dragon"),
        ("emerald-dragon", None, "emerald-dragon"),
        ("boom", None, "boom"),
        ("Grrr", "sv", "grrr"),
    ],
)
def test_lookup_by_name(name: str, language: str | None, slug: str) -> None:
    card = card_lookup_by_name(name, language)
    assert card is not None and card.slug == slug


def test_lookup_respects_the_language_and_misses() -> None:
    assert card_lookup_by_name("Dragon émeraude", "en") is None
    assert card_lookup_by_name("dragon") is None
    assert card_lookup_by_name("") is None


def test_suggestions_are_the_closest_names() -> None:
    suggestions = card_suggestions("grr", limit=2)
    assert len(suggestions) == 2 and suggestions[0].slug == "grrr"
    assert "emerald-dragon" in [card.slug for card in card_suggestions("emerald dragn")]
    assert all(card.is_deckable for card in card_suggestions("stronghold"))


def test_translated_falls_back_to_english_with_a_flag() -> None:
    card = Card.objects.get(slug="emerald-dragon")
    assert card_name(card, "fr") == "Dragon émeraude"
    fallback = translated(card, "name", "sv")
    assert (fallback.text, fallback.language, fallback.is_fallback) == (
        "Emerald dragon",
        "en",
        True,
    )
    initiation = Expansion.objects.get(code="00")
    assert translated(initiation, "name", "sv").text == "Starter Kit"


def test_fold_and_search_text() -> None:
    assert fold("Dragon Émeraude!") == "dragon emeraude"
    assert fold("Œil-de-bœuf") == "oeil de boeuf"
    assert search_text(["Boom!", "boom", "Bôom"]) == "| boom |"


def test_ability_names_in_a_language_fall_back_to_english() -> None:
    """What a board names the abilities a creature is given (an Aura's, Custom Play's)."""
    french = ability_names_in("fr")
    assert (french["price_of_blood"], french["aquatic"]) == ("Prix du sang", "Aquatique")
    assert ability_names_in("en")["price_of_blood"] == "Price of Blood"
    assert ability_names_in("sv")["aquatic"] == "Aquatic"


def test_every_card_is_linked_by_its_engine_name() -> None:
    slugs = card_slugs_by_engine_name()
    assert slugs["Emerald dragon"] == "emerald-dragon"
    assert slugs["Parasite"] == "parasite"
    # Every card by its English name (the engine's name of a catalogue card).
    assert len(slugs) == len({card_name(card, "en") or card.slug for card in Card.objects.all()})
