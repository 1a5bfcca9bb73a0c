"""A card as every board draws it: its name in the page's language, its generated emblem and its
printed values, from the engine's definition of the card or from an observation's card."""

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.utils.safestring import SafeString, mark_safe

from cards.emblems import card_emblem, emblem_svg
from engine.rules import CardSeen

# Letters of the longest word that fit a board card's name line (4.8rem at .66rem, bold).
LONG_WORD = 10
# No translation: the engine's (English) names.
ENGLISH: Mapping[str, str] = {}
# No card linked to the catalogue (`cards.selectors.card_slugs_by_engine_name` links them).
UNLINKED: Mapping[str, str] = {}


@dataclass(frozen=True)
class CardFace:
    """What a card shows wherever it lies: its name in the page's language, its generated
    emblem (an inline SVG) and its printed values."""

    name: str
    emblem: SafeString
    cost: int
    attack: int
    hp: int | None  # None: an incantation
    # The catalogue card's slug: its page, and its face shown on demand at a table ("": none,
    # a Champion, or a page that links no card).
    slug: str = ""

    @property
    def long_name(self) -> bool:
        """A word of the name too long for a board card's width at the normal size
        ("Annihilation"): the card draws its name smaller rather than break the word."""
        return max(map(len, self.name.split()), default=0) > LONG_WORD


def card_face(
    *,
    name: str,
    label: str,
    slug: str,
    expansion_code: str,
    definition: Mapping[str, object],
    page: str = "",
) -> CardFace:
    """The face of a card from its engine definition (`engine.adapters.definitions`): the
    catalogue's emblem for a catalogue card (same slug, same picture), an emblem of its played
    values for a Champion or a mutated card; `page` the slug of the catalogue card it links to."""
    card_type = str(definition.get("type", "creature"))
    cost = _number(definition.get("cost"))
    attack = _number(definition.get("attack"))
    hp = None if card_type != "creature" else _number(definition.get("hp"))
    abilities = definition.get("abilities")
    codes = tuple(str(code) for code in abilities) if isinstance(abilities, list | tuple) else ()
    return CardFace(
        name=label,
        emblem=_board_emblem(slug or name, expansion_code, card_type, cost, attack, hp, codes),
        cost=cost,
        attack=attack,
        hp=hp,
        slug=page,
    )


# A board draws every card's emblem again at each board a page asks for (a played-out turn:
# one board per step); the same card with the same values draws the same picture, so the
# picture is drawn once per process. A Duel's board with 4 actions played out (12 steps),
# CPU of the request through the test client: 50 -> 38 ms (a board alone: 24-30 ms).
@lru_cache(maxsize=4096)
def _board_emblem(
    slug: str,
    expansion_code: str,
    card_type: str,
    mana: int,
    attack: int,
    hp: int | None,
    abilities: tuple[str, ...],
) -> SafeString:
    emblem = card_emblem(
        slug=slug,
        expansion_code=expansion_code,
        card_type=card_type,
        mana=mana,
        attack=attack,
        hp=hp,
        abilities=abilities,
    )
    return mark_safe(emblem_svg(emblem, "board-emblem"))


def _number(value: object) -> int:
    return value if isinstance(value, int) else 0


def definition_face(
    definition: Mapping[str, Any],
    local: Mapping[str, str] = ENGLISH,
    slugs: Mapping[str, str] = UNLINKED,
) -> CardFace:
    """A card as the engine defines it (a seat's stored deck or Champion) as the board draws
    it: named in the page's language when `local` knows its engine name (a Champion, a mutated
    card keep theirs), its emblem drawn from its engine name and played values (the same
    picture in every language), linked to its catalogue card when `slugs` knows its engine name."""
    name = str(definition["name"])
    label = local.get(name, name)
    return card_face(
        name=name,
        label=label,
        slug=name,
        expansion_code="",
        definition=definition,
        page=slugs.get(name, ""),
    )


def seen_face(
    card: CardSeen, local: Mapping[str, str] = ENGLISH, slugs: Mapping[str, str] = UNLINKED
) -> CardFace:
    """A card of an observation as the board draws it (its emblem from its played values),
    named in the page's language by `local` (`cards.selectors.card_names_in`), linked to its
    catalogue card by `slugs`."""
    return definition_face(
        {
            "name": card.name,
            "type": "creature" if card.creature else "incantation",
            "cost": card.cost,
            "attack": card.attack,
            "hp": card.hp,
            "abilities": list(card.abilities),
        },
        local,
        slugs,
    )
