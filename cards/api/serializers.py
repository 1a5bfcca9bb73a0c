"""Catalogue output. Representations are built by hand from prefetched rows: no query per item."""

from typing import Any

from django.urls import reverse
from rest_framework import serializers

from cards.models import Ability, Card, Expansion, RuleEntry
from cards.selectors import pick_translation, translated

LANGUAGES = ("en", "fr", "sv")


class TranslatedTextField(serializers.Serializer):
    text = serializers.CharField()
    language = serializers.CharField(help_text="Language of `text`: the asked one, or en.")
    is_fallback = serializers.BooleanField(help_text="True: not translated yet, English shown.")


class ExpansionRefSerializer(serializers.Serializer):
    code = serializers.CharField()
    slug = serializers.CharField()
    name = serializers.CharField()


class CardAbilitySerializer(serializers.Serializer):
    position = serializers.IntegerField()
    code = serializers.CharField()
    name = serializers.CharField()
    is_aura = serializers.BooleanField(
        help_text="An Aura grants the ability to adjacent creatures."
    )
    is_malus = serializers.BooleanField()
    rule_id = serializers.CharField(allow_null=True)


def _expansion_ref(expansion: Expansion, language: str | None) -> dict[str, Any]:
    return {
        "code": expansion.code,
        "slug": expansion.slug,
        "name": translated(expansion, "name", language).text,
    }


def card_abilities(card: Card, language: str | None) -> list[dict[str, Any]]:
    return [
        {
            "position": link.position,
            "code": link.ability.code,
            "name": translated(link.ability, "name", language).text,
            "is_aura": link.is_aura,
            "is_malus": link.ability.is_malus,
            "rule_id": link.ability.rule.rule_id if link.ability.rule else None,
        }
        for link in card.card_abilities.all()
    ]


class CardSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    url = serializers.CharField(help_text="This card in the API.")
    name = serializers.CharField()
    name_language = serializers.CharField()
    name_is_fallback = serializers.BooleanField(
        help_text="True: not translated yet, English shown."
    )
    names = serializers.DictField(child=serializers.CharField(), help_text="Name per language.")
    type = serializers.ChoiceField(choices=["creature", "incantation", "stronghold", "bridge"])
    expansion = ExpansionRefSerializer()
    collector_number = serializers.IntegerField(allow_null=True)
    mana = serializers.IntegerField(allow_null=True)
    attack = serializers.IntegerField(allow_null=True)
    hp = serializers.IntegerField(allow_null=True)
    abilities = CardAbilitySerializer(many=True)
    precon_deck = serializers.IntegerField(allow_null=True)
    checked_against_card_image = serializers.BooleanField()
    copies = serializers.IntegerField()
    note = serializers.CharField(allow_blank=True)

    def to_representation(self, card: Card) -> dict[str, Any]:
        language = self.context.get("language")
        name = translated(card, "name", language)
        return {
            "slug": card.slug,
            "url": reverse("api:card-detail", args=[card.slug]),
            "name": name.text,
            "name_language": name.language,
            "name_is_fallback": name.is_fallback,
            "names": {row.language_code: row.name for row in card.translations.all()},
            "type": card.card_type,
            "expansion": _expansion_ref(card.expansion, language),
            "collector_number": card.collector_number,
            "mana": card.mana,
            "attack": card.attack,
            "hp": card.hp,
            "abilities": card_abilities(card, language),
            "precon_deck": card.precon_deck,
            "checked_against_card_image": card.checked_against_card_image,
            "copies": card.copies,
            "note": card.note,
        }


class ExpansionSerializer(serializers.Serializer):
    code = serializers.CharField()
    slug = serializers.SlugField()
    name = serializers.CharField()
    name_is_fallback = serializers.BooleanField()
    names = serializers.DictField(child=serializers.CharField())
    game = serializers.CharField()
    season = serializers.IntegerField(allow_null=True)
    card_count = serializers.IntegerField(
        help_text="Cards in the product, Strongholds and Bridges included."
    )
    deckable_count = serializers.IntegerField(help_text="Creatures and incantations.")

    def to_representation(self, expansion: Expansion) -> dict[str, Any]:
        name = translated(expansion, "name", self.context.get("language"))
        return {
            "code": expansion.code,
            "slug": expansion.slug,
            "name": name.text,
            "name_is_fallback": name.is_fallback,
            "names": {row.language_code: row.name for row in expansion.translations.all()},
            "game": expansion.game.code,
            "season": expansion.season,
            "card_count": expansion.card_count,
            "deckable_count": expansion.deckable_count,  # type: ignore[attr-defined]
        }


class AbilitySerializer(serializers.Serializer):
    code = serializers.CharField()
    name = serializers.CharField()
    name_is_fallback = serializers.BooleanField()
    rules_text = serializers.CharField(allow_blank=True)
    rules_text_is_fallback = serializers.BooleanField()
    names = serializers.DictField(child=serializers.CharField())
    aliases = serializers.ListField(child=serializers.CharField())
    is_malus = serializers.BooleanField()
    creature_cost = serializers.DecimalField(max_digits=4, decimal_places=1, allow_null=True)
    incantation_cost = serializers.DecimalField(max_digits=4, decimal_places=1, allow_null=True)
    can_be_aura = serializers.BooleanField()
    cost_source = serializers.CharField(allow_blank=True)
    rule_id = serializers.CharField(allow_null=True)
    card_count = serializers.IntegerField(help_text="Cards bearing it (Auras not counted).")

    def to_representation(self, ability: Ability) -> dict[str, Any]:
        language = self.context.get("language")
        row, is_fallback = pick_translation(ability.translations.all(), language)
        return {
            "code": ability.code,
            "name": row.name if row else ability.code,
            "name_is_fallback": is_fallback,
            "rules_text": row.rules_text if row else "",
            "rules_text_is_fallback": is_fallback,
            "names": {tr.language_code: tr.name for tr in ability.translations.all()},
            "aliases": [alias.name for alias in ability.aliases.all()],
            "is_malus": ability.is_malus,
            "creature_cost": None if ability.creature_cost is None else str(ability.creature_cost),
            "incantation_cost": (
                None if ability.incantation_cost is None else str(ability.incantation_cost)
            ),
            "can_be_aura": ability.can_be_aura,
            "cost_source": ability.cost_source,
            "rule_id": ability.rule.rule_id if ability.rule else None,
            "card_count": ability.card_count,  # type: ignore[attr-defined]
        }


class RuleEntrySerializer(serializers.Serializer):
    id = serializers.CharField(help_text="Stable id, cited by the rules engine's errors.")
    number = serializers.CharField()
    title = serializers.CharField()
    text = serializers.CharField()
    language = serializers.CharField()
    is_fallback = serializers.BooleanField()
    ability = serializers.CharField(allow_null=True, help_text="Code of the ability it describes.")
    page_url = serializers.CharField(help_text="The entry in the rules reference page.")

    def to_representation(self, entry: RuleEntry) -> dict[str, Any]:
        language = self.context.get("language")
        row, is_fallback = pick_translation(entry.translations.all(), language)
        abilities = list(entry.abilities.all())
        return {
            "id": entry.rule_id,
            "number": entry.number,
            "title": row.title if row else "",
            "text": row.text if row else "",
            "language": row.language_code if row else "en",
            "is_fallback": is_fallback,
            "ability": abilities[0].code if abilities else None,
            "page_url": f"{reverse('cards:rules')}#{entry.rule_id}",
        }
