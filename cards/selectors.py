"""Reads of the catalogue: cards by name, translated texts with fallback, the current revision,
the card search. Duel of Chaos's catalogue: `cards.chaos_selectors`."""

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, TypeVar

from django.conf import settings
from django.db import connection
from django.db.models import Count, F, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce, Lower
from django.utils.translation import gettext as _

from cards.models import (
    DECKABLE_TYPES,
    Ability,
    AbilityAlias,
    AbilityTranslation,
    Card,
    CardAbility,
    CardTranslation,
    CardType,
    CatalogueRevision,
    Expansion,
    ExpansionTranslation,
    RuleEntry,
)
from cards.search import (
    NUMERIC_KEYS,
    YES_NO,
    And,
    Node,
    Not,
    Or,
    ParsedQuery,
    QueryError,
    Term,
    name_lookup,
    parse,
)
from cards.text import fold
from cod_site.i18n import current_language

FALLBACK_LANGUAGE = settings.LANGUAGE_CODE


class _Translation(Protocol):
    language_code: str


T = TypeVar("T", bound=_Translation)


@dataclass(frozen=True)
class Translated:
    """A text in the asked language, or in English with `is_fallback` set ("not translated yet")."""

    text: str
    language: str
    is_fallback: bool

    def __str__(self) -> str:
        return self.text


def pick_translation(
    translations: Iterable[T], language: str | None = None
) -> tuple[T | None, bool]:
    """The translation in `language` (default: the request's), else the English one.

    Returns (row, is_fallback). Works on prefetched rows: no query.
    """
    language = language or current_language()
    fallback = None
    for row in translations:
        if row.language_code == language:
            return row, False
        if row.language_code == FALLBACK_LANGUAGE:
            fallback = row
    return fallback, fallback is not None and language != FALLBACK_LANGUAGE


def translated(
    obj: Card | Ability | Expansion | RuleEntry, attribute: str, language: str | None = None
) -> Translated:
    """`translated(card, "name", "fr")`: one text of an object, with fallback to English."""
    row, is_fallback = pick_translation(obj.translations.all(), language)
    if row is None:
        return Translated("", FALLBACK_LANGUAGE, True)
    return Translated(getattr(row, attribute), row.language_code, is_fallback)


def card_name(card: Card, language: str | None = None) -> str:
    return translated(card, "name", language).text


def card_prefetches() -> "list[Prefetch[Any] | str]":
    """What showing a card needs: translations of the card, its expansion and its abilities."""
    return [
        "translations",
        "expansion__translations",
        Prefetch(
            "card_abilities",
            queryset=CardAbility.objects.select_related(
                "ability", "ability__rule"
            ).prefetch_related(
                Prefetch("ability__translations", queryset=AbilityTranslation.objects.all())
            ),
        ),
    ]


def cards_with_details(queryset: QuerySet[Card] | None = None) -> QuerySet[Card]:
    queryset = Card.objects.all() if queryset is None else queryset
    return queryset.select_related("expansion").prefetch_related(*card_prefetches())


def card_get(*, slug: str) -> Card:
    """One card with everything its page shows; raises Card.DoesNotExist."""
    return cards_with_details(Card.objects.filter(slug=slug)).get()


def expansions_with_counts() -> QuerySet[Expansion]:
    """Every expansion in catalogue order, with its translations and its count of deckable
    cards (``deckable_count``): the expansions page and the API's list."""
    return (
        Expansion.objects.select_related("game")
        .prefetch_related("translations")
        .annotate(deckable_count=Count("cards", filter=Q(cards__card_type__in=DECKABLE_TYPES)))
        .order_by("game", "position", "code")
    )


def expansion_get(*, slug: str) -> Expansion:
    """One expansion with its translations; raises Expansion.DoesNotExist."""
    return Expansion.objects.prefetch_related("translations").get(slug=slug)


def abilities_with_counts() -> QuerySet[Ability]:
    """Every ability in catalogue order, with its rule, translations and aliases, and how many
    cards bear it (``card_count``) and give it as an Aura (``aura_count``): the abilities page
    and the API's list."""
    return (
        Ability.objects.select_related("rule")
        .prefetch_related("translations", "aliases")
        .annotate(
            card_count=Count("card_abilities", filter=Q(card_abilities__is_aura=False)),
            aura_count=Count("card_abilities", filter=Q(card_abilities__is_aura=True)),
        )
        .order_by("position", "code")
    )


def ability_get(*, code: str) -> Ability:
    """One ability with its rule, translations and aliases; raises Ability.DoesNotExist."""
    return (
        Ability.objects.select_related("rule")
        .prefetch_related("translations", "aliases")
        .get(code=code)
    )


def rule_entries() -> QuerySet[RuleEntry]:
    """The rules reference's entries in order, with their translations and the ability each
    one defines (its code only)."""
    return RuleEntry.objects.prefetch_related(
        "translations",
        Prefetch("abilities", queryset=Ability.objects.only("id", "code", "rule_id")),
    )


def card_lookup_by_name(name: str, language: str | None = None) -> Card | None:
    """The card whose name (in `language`, or in any language) is `name`, ignoring accents/case.

    A slug is accepted too. Deckable cards win over Strongholds/Bridges of the same name.
    """
    folded = fold(name)
    if not folded:
        return None
    candidates = cards_with_details(
        Card.objects.filter(search_text__contains=f"| {folded} |")
    ).order_by("expansion__position", "slug")
    matches = [
        card
        for card in candidates
        if any(
            fold(row.name) == folded
            for row in card.translations.all()
            if language is None or row.language_code == language
        )
        or (language is None and card.slug == fold(name).replace(" ", "-"))
    ]
    if not matches:
        by_slug = cards_with_details(Card.objects.filter(slug=name.strip().lower())).first()
        return by_slug
    matches.sort(key=lambda card: not card.is_deckable)
    return matches[0]


def card_suggestions(name: str, limit: int = 5) -> list[Card]:
    """The deckable cards whose names (any language) are closest to `name`, best first."""
    folded = fold(name)
    names: dict[str, int] = {}
    for card_id, card_text in Card.objects.deckable().values_list("id", "search_text"):
        for one in card_text.split("|"):
            if one.strip():
                names.setdefault(one.strip(), card_id)
    close = difflib.get_close_matches(folded, list(names), n=limit * 3, cutoff=0.5)
    # Substring matches ("drag" → "dragon emeraude") are suggestions too, after the close ones.
    close += [one for one in names if folded and folded in one and one not in close]
    ordered_ids = list(dict.fromkeys(names[one] for one in close))[:limit]
    cards = {card.pk: card for card in cards_with_details(Card.objects.filter(pk__in=ordered_ids))}
    return [cards[card_id] for card_id in ordered_ids]


def ability_texts_in(language: str) -> dict[str, tuple[str, str]]:
    """Each ability's code → (name, rules text) in `language` (English when not translated):
    what a card offered at a table says of its abilities."""
    abilities = Ability.objects.prefetch_related("translations")
    return {
        ability.code: (
            translated(ability, "name", language).text or ability.code,
            translated(ability, "rules_text", language).text,
        )
        for ability in abilities
    }


def ability_names_in(language: str) -> dict[str, str]:
    """Each ability's code → its name in `language` (English when not translated): what a board
    says of the abilities a creature is given (an Aura's, Custom Play's)."""
    return {code: name for code, (name, _rules) in ability_texts_in(language).items()}


def card_names_in(language: str) -> dict[str, str]:
    """Each catalogue card's English name (the engine's name of a card) → its name in
    `language`, for the cards translated into it: a table names its cards as the card pages do
    (issue 29: "Sapphire dragon" at a French table). One query; none in English."""
    if language == FALLBACK_LANGUAGE:
        return {}
    english = CardTranslation.objects.filter(card=OuterRef("card"), language_code=FALLBACK_LANGUAGE)
    rows = (
        CardTranslation.objects.filter(language_code=language)
        .annotate(english=Subquery(english.values("name")[:1]))
        .exclude(english=None)
        .values_list("english", "name")
    )
    return {english_name: name for english_name, name in rows if name}


def card_slugs_by_engine_name() -> dict[str, str]:
    """Each catalogue card's engine name (its English name, else its slug:
    `engine.adapters.definitions`) → its slug: a table links the cards it shows to their pages
    and their faces (issue 29). One query; a name two cards share goes to the first loaded."""
    english = CardTranslation.objects.filter(card=OuterRef("pk"), language_code=FALLBACK_LANGUAGE)
    rows = (
        Card.objects.annotate(english=Subquery(english.values("name")[:1]))
        .order_by("pk")
        .values_list("english", "slug")
    )
    slugs: dict[str, str] = {}
    for name, slug in rows:
        slugs.setdefault(name or slug, slug)
    return slugs


@dataclass(frozen=True)
class Revision:
    number: int
    modified: datetime | None


_revision_dates: dict[int, datetime | None] = {}


def catalogue_revision() -> Revision:
    """The catalogue's latest change, read from the database so every process agrees at once.

    One small query per call; a revision's date never changes, so it is read once per process.
    """
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT MAX(id) FROM {CatalogueRevision._meta.db_table}")
        (number,) = cursor.fetchone()
    if number is None:
        return Revision(0, None)
    if number not in _revision_dates:
        _revision_dates[number] = (
            CatalogueRevision.objects.filter(pk=number).values_list("created_at", flat=True).first()
        )
    return Revision(number, _revision_dates[number])


# --- search -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class NameIndex:
    """Folded names → ids, for `ab:`, `aura:` and `set:`; rebuilt when the catalogue changes."""

    revision: int
    abilities: dict[str, frozenset[int]]
    expansions: dict[str, frozenset[int]]


_index_cache: dict[str, NameIndex] = {}


def _add(index: dict[str, set[int]], name: str, pk: int) -> None:
    folded = fold(name)
    if folded:
        index.setdefault(folded, set()).add(pk)


def name_index(revision: int | None = None) -> NameIndex:
    """Every name of every ability and expansion; cached in the process per catalogue revision."""
    revision = catalogue_revision().number if revision is None else revision
    cached = _index_cache.get("index")
    if cached is not None and cached.revision == revision:
        return cached
    abilities: dict[str, set[int]] = {}
    for pk, code in Ability.objects.values_list("id", "code"):
        _add(abilities, code, pk)
    for pk, name in AbilityTranslation.objects.values_list("ability_id", "name"):
        _add(abilities, name, pk)
    for pk, name in AbilityAlias.objects.values_list("ability_id", "name"):
        _add(abilities, name, pk)
    expansions: dict[str, set[int]] = {}
    for pk, code, slug in Expansion.objects.values_list("id", "code", "slug"):
        expansions.setdefault(code.lower(), set()).add(pk)
        _add(expansions, slug, pk)
    for pk, name in ExpansionTranslation.objects.values_list("expansion_id", "name"):
        _add(expansions, name, pk)
    index = NameIndex(
        revision,
        {name: frozenset(ids) for name, ids in abilities.items()},
        {name: frozenset(ids) for name, ids in expansions.items()},
    )
    _index_cache["index"] = index
    return index


TYPE_NAMES: dict[str, str] = {
    "creature": CardType.CREATURE,
    "creatures": CardType.CREATURE,
    "varelse": CardType.CREATURE,
    "incantation": CardType.INCANTATION,
    "incantations": CardType.INCANTATION,
    "stronghold": CardType.STRONGHOLD,
    "forteresse": CardType.STRONGHOLD,
    "bridge": CardType.BRIDGE,
    "pont": CardType.BRIDGE,
}
PRODUCT_TYPES = {CardType.STRONGHOLD, CardType.BRIDGE}


def _lookup(names: dict[str, frozenset[int]], term: Term, what: str) -> frozenset[int]:
    """Exact folded name, else a unique prefix ("ab:perfo"), else a 400 with suggestions."""
    missing = (
        _("No ability called '%(name)s'.")
        if what == "ability"
        else _("No expansion called '%(name)s'.")
    ) % {"name": term.value}
    return frozenset(name_lookup(names, fold(term.value), term, missing))


def _abilities_q(ability_ids: frozenset[int], *, is_aura: bool) -> Q:
    links = CardAbility.objects.filter(ability_id__in=ability_ids, is_aura=is_aura)
    return Q(pk__in=links.values("card_id"))


def _term_q(term: Term, index: NameIndex) -> Q:
    key, op = term.key, term.operator
    if key is None:
        folded = fold(term.value)
        if not folded:
            raise QueryError(_("A search word needs letters or digits"), term.text, term.position)
        return Q(search_text__contains=folded)
    if key in NUMERIC_KEYS:
        field_name, number = NUMERIC_KEYS[key], int(term.value)
        if op == "!=":
            return Q(**{f"{field_name}__isnull": False}) & ~Q(**{field_name: number})
        lookup = {":": "exact", "=": "exact", "<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}[op]
        return Q(**{f"{field_name}__{lookup}": number})
    value = term.value.lower()
    if key == "type":
        card_type = TYPE_NAMES.get(fold(value))
        if card_type is None:
            raise QueryError(
                _("'type' takes creature, incantation, stronghold or bridge"),
                term.text,
                term.position,
            )
        q = Q(card_type=card_type)
    elif key == "set":
        q = Q(expansion_id__in=_lookup(index.expansions, term, "expansion"))
    elif key in ("ab", "aura"):
        q = _abilities_q(_lookup(index.abilities, term, "ability"), is_aura=key == "aura")
    elif key == "malus":
        malus = CardAbility.objects.filter(ability__is_malus=True).values("card_id")
        q = Q(pk__in=malus) if YES_NO[value] else ~Q(pk__in=malus)
    elif key == "deck":
        q = Q(precon_deck=int(value))
    else:  # checked
        q = Q(checked_against_card_image=YES_NO[value])
    return ~q if op == "!=" else q


def _node_q(node: Node, index: NameIndex) -> Q:
    if isinstance(node, Term):
        return _term_q(node, index)
    if isinstance(node, Not):
        return ~_node_q(node.node, index)
    combined = Q()
    for child in node.nodes:
        child_q = _node_q(child, index)
        combined = (combined | child_q) if isinstance(node, Or) and combined else combined & child_q
    return combined


def _mentions_product_cards(node: Node | None) -> bool:
    if isinstance(node, Term):
        return node.key == "type" and TYPE_NAMES.get(fold(node.value)) in PRODUCT_TYPES
    if isinstance(node, Not):
        return _mentions_product_cards(node.node)
    if isinstance(node, And | Or):
        return any(_mentions_product_cards(child) for child in node.nodes)
    return False


def _name_in(language: str) -> Subquery:
    return Subquery(
        CardTranslation.objects.filter(card=OuterRef("pk"), language_code=language).values("name")[
            :1
        ]
    )


def card_search(
    query: str | ParsedQuery, *, language: str | None = None, revision: int | None = None
) -> QuerySet[Card]:
    """The cards a search query finds, sorted as it asks; raises QueryError.

    Strongholds and Bridges are only searched when the query names their type.
    """
    parsed = parse(query) if isinstance(query, str) else query
    language = language or current_language()
    cards = Card.objects.all()
    if not _mentions_product_cards(parsed.node):
        cards = cards.filter(card_type__in=DECKABLE_TYPES)
    if parsed.node is not None:
        cards = cards.filter(_node_q(parsed.node, name_index(revision)))
    sorting = parsed.sorting
    name = Lower(Coalesce(_name_in(language), _name_in(FALLBACK_LANGUAGE), F("slug")))
    orders: dict[str, list[Lower | F]] = {
        "name": [name],
        "cost": [F("mana")],
        "atk": [F("attack")],
        "hp": [F("hp")],
        "set": [F("expansion__position"), F("collector_number")],
    }
    primary = orders[sorting.order]
    ordering = [
        expression.desc(nulls_last=True) if sorting.descending else expression.asc(nulls_last=True)
        for expression in primary
    ]
    if sorting.order != "name":
        ordering.append(name.asc())
    return cards.order_by(*ordering, "slug")
