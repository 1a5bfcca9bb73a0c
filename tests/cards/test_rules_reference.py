import re

import pytest
from django.test import Client

from cards.models import Ability, RuleEntry, RuleEntryTranslation
from engine.rules.rule_ids import RULES, ability_rule_id

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]


def test_every_rule_id_of_the_engine_is_in_the_rules_reference() -> None:
    published = set(RuleEntry.objects.values_list("rule_id", flat=True))
    assert sorted(set(RULES) - published) == []


def test_every_ability_links_to_its_rule_entry_under_the_engine_id() -> None:
    for ability in Ability.objects.select_related("rule"):
        assert ability.rule is not None, ability.code
        assert ability.rule.rule_id == ability_rule_id(ability.code)


def test_every_entry_has_english_and_french_and_a_unique_number() -> None:
    entries = RuleEntry.objects.prefetch_related("translations")
    numbers = [entry.number for entry in entries]
    assert len(numbers) == len(set(numbers))
    for entry in entries:
        languages = {t.language_code for t in entry.translations.all()}
        assert {"en", "fr"} <= languages, entry.rule_id
        for translation in entry.translations.all():
            assert translation.title.strip() and len(translation.text) > 20, entry.rule_id


def test_swedish_covers_what_the_swedish_edition_covers() -> None:
    swedish = set(
        RuleEntryTranslation.objects.filter(language_code="sv").values_list(
            "entry__rule_id", flat=True
        )
    )
    # The 2021 Swedish rules cover the core turn, the Stronghold, seven abilities and the Aura...
    assert {
        "setup",
        "phase-1-mana",
        "phase-2-summoning",
        "phase-3-assault",
        "attacking-a-creature",
        "stronghold",
        "game-end",
        "ability-splash",
        "ability-perforation",
        "ability-rage",
        "ability-protection",
        "ability-indestructible",
        "ability-berserk",
        "ability-sprint",
        "ability-aura",
    } <= swedish
    # ...but not Mutation, the Champions or the abilities that came later.
    assert not swedish & {"mutation", "champion", "ability-backlash", "ability-symbiote"}


def test_ability_rules_text_comes_from_its_entry() -> None:
    splash = Ability.objects.get(code="splash")
    entry_text = splash.rule.translations.get(language_code="fr").text
    assert splash.translations.get(language_code="fr").rules_text == entry_text
    assert "ligne voisine" in entry_text


def test_rules_page_has_an_anchor_per_engine_rule(client: Client) -> None:
    html = client.get("/fr/rules/").content.decode()
    for rule_id in RULES:
        assert f'id="{rule_id}"' in html, rule_id
    assert "Régénération du Mana" in html


def test_rules_page_marks_english_fallback_in_swedish(client: Client) -> None:
    html = client.get("/sv/rules/").content.decode()
    assert "Fas 1 – Manapåfyllning" in html
    # Mutation has no Swedish text: English is shown with the marker.
    section = html[html.index('id="mutation-phase"') :][:3000]
    assert "Mutation Phase" in section
    assert 'class="untranslated"' in section


def test_french_texts_give_the_owner_its_article() -> None:
    """ "Possesseur inflige…" reads as a slip: "Le possesseur inflige…", "du possesseur"."""
    texts = RuleEntryTranslation.objects.filter(language_code="fr").values_list("text", flat=True)
    bare = [
        match.group(0)
        for text in texts
        for match in re.finditer(r"(?:\S+\s+)?(?<!le )(?<!Le )(?<!du )(?<!au )possesseur", text)
    ]
    assert bare == []
    assert sum(text.count("possesseur") for text in texts) == 49
