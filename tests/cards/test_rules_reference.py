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


def test_every_entry_has_swedish_in_the_swedish_editions_words() -> None:
    entries = RuleEntry.objects.prefetch_related("translations")
    missing = [
        entry.rule_id
        for entry in entries
        if "sv" not in {t.language_code for t in entry.translations.all()}
    ]
    assert missing == []
    swedish = RuleEntryTranslation.objects.filter(language_code="sv")
    texts = " ".join(f"{t.title} {t.text}" for t in swedish)
    # The 2021 edition's words: "lek", "varelse", "väg", "Livspoäng", "Bastion/Fort"; the
    # card names read as Swedish compounds ("Bastion/Fort-kortet"), never quoted.
    assert '"Bastion' not in texts and '"Bridge' not in texts and '"Fort' not in texts
    assert texts.count("Bastion/Fort-kort") == 20
    mutation = swedish.get(entry__rule_id="mutation-phase")
    assert mutation.title == "Mutationsfas"
    assert mutation.text.startswith("Före varje spel har varje spelare 2,5 Mutationspoäng")


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


def test_rules_page_is_swedish_throughout(client: Client) -> None:
    html = client.get("/sv/rules/").content.decode()
    assert "Fas 1 – Manapåfyllning" in html
    section = html[html.index('id="mutation-phase"') :][:3000]
    assert "Mutationsfas" in section and "Mutation Phase" not in section
    assert 'class="untranslated"' not in html


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
