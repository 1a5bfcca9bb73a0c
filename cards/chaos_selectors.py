"""Reads of Duel of Chaos's catalogue (its own tables, `Chaos*`): translated texts with the
printed edition's fallback, the card names a table shows, cards, sets, keywords and rules, the
card search and what the export writes."""

from collections.abc import Iterable

from django.db.models import F, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce, Lower
from django.utils.translation import get_language

from cards.chaos_files import (
    CHAOS_CARD_VALUES,
    ChaosCardRow,
    ChaosCatalogue,
    ChaosKeywordRow,
    ChaosRuleRow,
    ChaosSetRow,
)
from cards.chaos_search import CHAOS
from cards.chaos_search import node_q as chaos_node_q
from cards.models import ChaosCard, ChaosCardTranslation, ChaosKeyword, ChaosRuleEntry, ChaosSet
from cards.search import ParsedQuery, parse
from cards.selectors import FALLBACK_LANGUAGE, Translated
from cod_site.i18n import current_language

ChaosTranslated = ChaosCard | ChaosSet | ChaosKeyword | ChaosRuleEntry
# The printed edition is French: a text missing in the asked language and in English is shown in
# French (the rulebook's named cards have only their French names).
CHAOS_FALLBACKS = (FALLBACK_LANGUAGE, "fr")


def chaos_translated(
    obj: ChaosTranslated, attribute: str, language: str | None = None
) -> Translated:
    """One text of a Duel of Chaos row: in `language`, else English, else French."""
    language = language or current_language()
    rows = {row.language_code: row for row in obj.translations.all()}
    for code in (language, *CHAOS_FALLBACKS):
        row = rows.get(code)
        if row is not None and getattr(row, attribute):
            return Translated(getattr(row, attribute), code, code != language)
    return Translated("", language, False)


def chaos_names(*, set_code: str, language: str | None = None) -> dict[str, str]:
    """The engine's card names (English) of the set `set_code` in `language` where the
    catalogue has a translation (else English, else French, as the card pages)."""
    language = language or get_language() or "en"
    cards = ChaosCard.objects.filter(chaos_set__code=set_code).prefetch_related("translations")
    names: dict[str, str] = {}
    for card in cards:
        english = chaos_translated(card, "name", "en").text
        names[english] = chaos_translated(card, "name", language).text or english
    return names


def chaos_cards_with_details(queryset: QuerySet[ChaosCard] | None = None) -> QuerySet[ChaosCard]:
    queryset = ChaosCard.objects.all() if queryset is None else queryset
    return queryset.select_related("chaos_set").prefetch_related(
        "translations", "chaos_set__translations"
    )


def chaos_card_get(*, slug: str) -> ChaosCard:
    return chaos_cards_with_details(ChaosCard.objects.filter(slug=slug)).get()


def _chaos_name_in(language: str) -> Subquery:
    return Subquery(
        ChaosCardTranslation.objects.filter(card=OuterRef("pk"), language_code=language).values(
            "name"
        )[:1]
    )


def chaos_card_search(
    query: str | ParsedQuery, *, language: str | None = None
) -> QuerySet[ChaosCard]:
    """The Duel of Chaos cards a query finds (its own keys, `cards.chaos_search`), sorted as it
    asks; raises QueryError. It reads only this game's cards: never a Clash of Decks one."""
    parsed = parse(query, CHAOS) if isinstance(query, str) else query
    language = language or current_language()
    cards = ChaosCard.objects.all()
    if parsed.node is not None:
        cards = cards.filter(chaos_node_q(parsed.node))
    name = Lower(
        Coalesce(
            _chaos_name_in(language),
            _chaos_name_in(FALLBACK_LANGUAGE),
            _chaos_name_in("fr"),
            F("slug"),
        )
    )
    orders: dict[str, list[Lower | F]] = {
        "name": [name],
        "cost": [F("cost")],
        "set": [F("chaos_set__position"), F("position")],
    }
    sorting = parsed.sorting
    ordering = [
        expression.desc(nulls_last=True) if sorting.descending else expression.asc(nulls_last=True)
        for expression in orders[sorting.order]
    ]
    if sorting.order != "name":
        ordering.append(name.asc())
    return cards.order_by(*ordering, "slug")


def chaos_rules() -> QuerySet[ChaosRuleEntry]:
    return ChaosRuleEntry.objects.prefetch_related("translations", "keywords").order_by("position")


def chaos_keywords() -> QuerySet[ChaosKeyword]:
    return ChaosKeyword.objects.select_related("rule").prefetch_related("translations")


def chaos_sets() -> QuerySet[ChaosSet]:
    return ChaosSet.objects.prefetch_related("translations").order_by("position")


def chaos_catalogue_snapshot(set_codes: Iterable[str] | None = None) -> ChaosCatalogue:
    """What the catalogue holds of Duel of Chaos, as the rows of its data files (the export):
    the sets of `set_codes` (all if None) and their cards, every keyword and rule."""
    wanted = None if set_codes is None else set(set_codes)

    def names(obj: ChaosSet | ChaosKeyword) -> dict[str, str]:
        return {row.language_code: row.name for row in obj.translations.all()}

    sets = [s for s in chaos_sets() if wanted is None or s.code in wanted]
    cards = chaos_cards_with_details(
        ChaosCard.objects.filter(chaos_set__in=sets).order_by("chaos_set__position", "position")
    )
    card_rows = []
    for position, card in enumerate(cards, start=1):
        texts: dict[str, dict[str, str]] = {}
        for row in card.translations.all():
            printed = {"play": row.play_text, "reaction": row.reaction_text}
            printed = {key: text for key, text in printed.items() if text}
            if printed:
                texts[row.language_code] = printed
        card_rows.append(
            ChaosCardRow(
                set_code=card.chaos_set.code,
                identifier=card.identifier,
                slug=card.slug,
                names={row.language_code: row.name for row in card.translations.all()},
                values={name: getattr(card, name) for name in CHAOS_CARD_VALUES},
                keywords=tuple(card.keywords.split()),
                position=position,
                texts=texts,
            )
        )
    return ChaosCatalogue(
        sets=[
            ChaosSetRow(s.code, s.slug, s.kind, names(s), s.card_count, s.position) for s in sets
        ],
        keywords=[
            ChaosKeywordRow(k.code, k.clan, k.rule.rule_id if k.rule else "", names(k), k.position)
            for k in chaos_keywords()
        ],
        cards=card_rows,
        rules=[
            ChaosRuleRow(
                rule_id=entry.rule_id,
                number=entry.number,
                position=entry.position,
                keyword=next((k.code for k in entry.keywords.all()), None),
                titles={row.language_code: row.title for row in entry.translations.all()},
                texts={row.language_code: row.text for row in entry.translations.all()},
            )
            for entry in chaos_rules()
        ],
    )
