"""Cards and Champions as the rules engine's card definitions (`engine.rules.cards.CardDef`).

The Mutation app calls `engine_card_definition` with a mutated card's values.
"""

from collections.abc import Sequence
from typing import Any

from cards.models import Card, CardType
from cards.selectors import card_name
from champions.models import Champion
from champions.selectors import champion_name
from engine.rules import AURA_PREFIX


def engine_card_definition(
    *,
    name: str,
    type: str,
    cost: int,
    attack: int,
    hp: int | None,
    abilities: Sequence[str],
    name_fr: str = "",
) -> dict[str, Any]:
    """One card in the engine's card JSON form (`engine.rules.cards.CardDef.from_json`): printed
    or mutated values, abilities as codes, an Aura as `aura:CODE`."""
    definition: dict[str, Any] = {"name": name, "type": type, "cost": cost, "attack": attack}
    if type != CardType.INCANTATION:
        definition["hp"] = hp or 0
    if abilities:
        definition["abilities"] = list(abilities)
    if name_fr and name_fr != name:
        definition["name_fr"] = name_fr
    return definition


def card_ability_codes(card: Card) -> list[str]:
    """A catalogue card's abilities in print order, `aura:CODE` for an Aura."""
    return [_ability_code(link.ability.code, link.is_aura) for link in card.card_abilities.all()]


def deck_engine_definitions(cards: Sequence[Card]) -> list[dict[str, Any]]:
    """Catalogue cards (with their details prefetched) as the engine's card definitions; the
    English name identifies a card in the engine, the French one rides along for replays."""
    return [
        engine_card_definition(
            name=card_name(card, "en") or card.slug,
            type=card.card_type,
            cost=card.mana or 0,
            attack=card.attack or 0,
            hp=card.hp,
            abilities=card_ability_codes(card),
            name_fr=card_name(card, "fr"),
        )
        for card in cards
    ]


def champion_engine_definition(champion: Champion) -> dict[str, Any]:
    """A Champion as the engine's Champion module plays it (type `champion`)."""
    return engine_card_definition(
        name=champion_name(champion, "en"),
        type="champion",
        cost=champion.mana,
        attack=champion.attack,
        hp=champion.hp,
        abilities=[
            _ability_code(row.ability.code, row.is_aura)
            for row in champion.abilities.select_related("ability").order_by("position")
        ],
        name_fr=champion_name(champion, "fr"),
    )


def _ability_code(code: str, is_aura: bool) -> str:
    """An ability as the engine reads it: its code, behind `aura:` when it is an Aura."""
    return f"{AURA_PREFIX}{code}" if is_aura else code
