"""Reads: formats, deck checks, deck codes, who sees which deck, lists, versions and diffs.

A deck's Champion reaches a viewer only through `deck_champion` (and, for the share ids that
versions keep, `versions_seen_by`), which apply the champions app's one visibility rule: for
whoever may not see it, the deck has no Champion at all — no share id, no name, deck codes
without it, test games without it. The README's "Who sees a Champion" says why.
"""

import contextlib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cards.models import Ability, AbilityAlias, AbilityTranslation, Card, CardType, Expansion
from cards.selectors import (
    card_lookup_by_name,
    card_name,
    card_suggestions,
    cards_with_details,
    pick_translation,
    translated,
)
from cards.text import fold
from champions.models import Champion
from champions.selectors import (
    champion_get,
    champion_name,
    champion_visible_to,
    champions_visible_to,
)
from cod_site.errors import DomainError
from cod_site.i18n import current_language
from decks import deck_code, legality, stats, text_io
from decks.models import (
    Deck,
    DeckCard,
    DeckVersion,
    Format,
    GameMode,
    PoolKind,
    Visibility,
)
from engine.rules.abilities.registry import AURA_PREFIX

Viewer = AbstractBaseUser | AnonymousUser
CardRequest = Card | str


# Formats and game modes ---------------------------------------------------------------------


def formats_queryset() -> QuerySet[Format]:
    return Format.objects.prefetch_related(
        "translations", "modes__translations", Prefetch("banned_cards", Card.objects.only("id"))
    )


def format_list() -> list[Format]:
    return list(formats_queryset())


def format_get(*, slug: str, from_path: bool = False) -> Format:
    """The format named `slug`. A missing one is bad input (400 `unknown_format`) when a request
    names it in its body or query, and a missing resource (404 `not_found`) when its URL does."""
    fmt = formats_queryset().filter(slug=slug).first()
    if fmt is None:
        raise DomainError(
            "not_found" if from_path else "unknown_format",
            _("There is no format “%(format)s”.") % {"format": slug},
            {"format": slug, "choices": list(Format.objects.values_list("slug", flat=True))},
            status_code=404 if from_path else 400,
        )
    return fmt


def game_mode_list() -> list[GameMode]:
    return list(GameMode.objects.prefetch_related("translations"))


def game_mode_get(*, slug: str) -> GameMode:
    mode = GameMode.objects.prefetch_related("translations").filter(slug=slug).first()
    if mode is None:
        raise DomainError(
            "unknown_mode",
            _("There is no game mode “%(mode)s”.") % {"mode": slug},
            {"mode": slug, "choices": list(GameMode.objects.values_list("slug", flat=True))},
        )
    return mode


def format_name(fmt: Format, language: str | None = None) -> str:
    row, _fallback = pick_translation(fmt.translations.all(), language)
    return row.name if row else fmt.slug


def format_description(fmt: Format, language: str | None = None) -> str:
    row, _fallback = pick_translation(fmt.translations.all(), language)
    return row.description if row else ""


def mode_name(mode: GameMode, language: str | None = None) -> str:
    row, _fallback = pick_translation(mode.translations.all(), language)
    return row.name if row else mode.slug


# Cards by name or slug ----------------------------------------------------------------------


def cards_resolve(requests: Sequence[CardRequest]) -> list[Card | None]:
    """Each request (a Card, a slug, or a name in any language) as a card with its details."""
    texts = [one.slug if isinstance(one, Card) else str(one).strip() for one in requests]
    wanted = {text.lower() for text in texts}
    by_slug = {card.slug: card for card in cards_with_details(Card.objects.filter(slug__in=wanted))}
    by_name = _cards_named([text for text in texts if text and text.lower() not in by_slug])
    resolved: list[Card | None] = []
    for text in texts:
        card = by_slug.get(text.lower())
        if card is None and text:
            if text not in by_name:
                by_name[text] = card_lookup_by_name(text)
            card = by_name[text]
        resolved.append(card)
    return resolved


def _cards_named(texts: Sequence[str]) -> dict[str, Card]:
    """Cards by exact name (any language, accents and case ignored), in one query for all names.

    The same choice as `cards.selectors.card_lookup_by_name` (deckable cards first, then the
    catalogue's order); names it does not settle fall back to that selector.
    """
    folded = {text: fold(text) for text in texts if fold(text)}
    if not folded:
        return {}
    query = Q()
    for name in set(folded.values()):
        query |= Q(search_text__contains=f"| {name} |")
    candidates = sorted(
        cards_with_details(Card.objects.filter(query)).order_by("expansion__position", "slug"),
        key=lambda card: not card.is_deckable,
    )
    found: dict[str, Card] = {}
    for text, name in folded.items():
        for card in candidates:
            if any(fold(row.name) == name for row in card.translations.all()):
                found[text] = card
                break
    return found


def cards_require(requests: Sequence[CardRequest], field_name: str) -> list[Card]:
    """The cards asked for, all of them known, or DomainError `unknown_card` naming each miss."""
    found, missing = _resolve_field(requests, field_name)
    if missing:
        language = current_language()
        errors = [legality.check_unknown(entry, language) for entry in missing]
        raise DomainError(
            "unknown_card",
            " ".join(error.message for error in errors),
            {"field": field_name, "errors": [error.as_dict() for error in errors]},
        )
    return found


def cards_by_slug(slugs: Sequence[str]) -> dict[str, Card]:
    return {card.slug: card for card in cards_with_details(Card.objects.filter(slug__in=slugs))}


def _card_in_set(name: str, set_code: str) -> Card | None:
    folded = fold(name)
    candidates = cards_with_details(
        Card.objects.filter(
            Q(search_text__contains=f"| {folded} |") | Q(slug=name.strip().lower()),
            expansion__code=set_code,
        )
    )
    return next(iter(candidates), None)


# Checking a deck ----------------------------------------------------------------------------


def preconstructed_decks() -> dict[int, frozenset[int]]:
    decks: dict[int, set[int]] = {}
    for card_id, number in Card.objects.filter(precon_deck__isnull=False).values_list(
        "id", "precon_deck"
    ):
        decks.setdefault(number, set()).add(card_id)
    return {number: frozenset(ids) for number, ids in sorted(decks.items())}


def format_rules(fmt: Format, language: str | None = None) -> legality.Rules:
    expansion_names: tuple[str, ...] = ()
    if fmt.expansion_codes:
        expansions = Expansion.objects.filter(code__in=fmt.expansion_codes).prefetch_related(
            "translations"
        )
        expansion_names = tuple(translated(one, "name", language).text for one in expansions)
    return legality.Rules(
        format=fmt,
        format_name=format_name(fmt, language),
        mode_slugs=frozenset(mode.slug for mode in fmt.modes.all()),
        banned_ids=frozenset(card.pk for card in fmt.banned_cards.all()),
        expansion_names=expansion_names,
        preconstructed=preconstructed_decks() if fmt.pool_kind == PoolKind.PRECONSTRUCTED else {},
    )


@dataclass(frozen=True)
class DeckCheck:
    format: Format
    mode: GameMode | None
    cards: list[Card]
    removed: list[Card]
    pool: list[Card] | None
    champion: str | None
    unresolved: list[legality.Unresolved]
    errors: list[legality.Violation]
    # None while a requested card is unknown, or when the deck is too big for a code.
    code: str | None

    @property
    def legal(self) -> bool:
        return not self.errors


def _resolve_field(
    requests: Sequence[CardRequest], field_name: str
) -> tuple[list[Card], list[legality.Unresolved]]:
    found: list[Card] = []
    missing: list[legality.Unresolved] = []
    for request, card in zip(requests, cards_resolve(requests), strict=True):
        if card is None:
            text = str(request).strip()
            missing.append(
                legality.Unresolved(text, field_name, tuple(card_suggestions(text)) if text else ())
            )
        else:
            found.append(card)
    return found, missing


def deck_check(
    *,
    format: Format | str,
    cards: Sequence[CardRequest],
    mode: GameMode | str | None = None,
    pool: Sequence[CardRequest] | None = None,
    removed: Sequence[CardRequest] = (),
    champion: str | None = None,
    language: str | None = None,
) -> DeckCheck:
    """Every violation of the format's rules, in the request language; the deck code if known.

    Other apps call it too: the Mutation session passes the player's 16 drafted cards as `pool`.
    """
    language = language or current_language()
    fmt = format_get(slug=format) if isinstance(format, str) else format
    game_mode = game_mode_get(slug=mode) if isinstance(mode, str) else mode
    deck_cards, unresolved = _resolve_field(cards, "cards")
    removed_cards, unresolved_removed = _resolve_field(removed, "removed")
    pool_cards = None
    unresolved_pool: list[legality.Unresolved] = []
    if pool is not None:
        pool_cards, unresolved_pool = _resolve_field(pool, "pool")
    all_unresolved = unresolved + unresolved_pool + unresolved_removed
    with translation.override(language):
        errors = legality.check(
            rules=format_rules(fmt, language),
            cards=deck_cards,
            unresolved=all_unresolved,
            mode=game_mode.slug if game_mode else None,
            mode_name=mode_name(game_mode, language) if game_mode else "",
            pool=pool_cards,
            removed=removed_cards,
            language=language,
        )
    code = None
    if not unresolved and not unresolved_removed:
        # A deck too big for a code, or removals outside the deck, has no code (its errors say why).
        with contextlib.suppress(ValueError):
            code = deck_code_for(
                format=fmt, cards=deck_cards, removed=removed_cards, champion=champion
            )
    return DeckCheck(
        fmt,
        game_mode,
        deck_cards,
        removed_cards,
        pool_cards,
        champion,
        all_unresolved,
        errors,
        code,
    )


# Deck codes ---------------------------------------------------------------------------------


def deck_code_for(
    *, format: Format, cards: Sequence[Card], removed: Sequence[Card] = (), champion: str | None
) -> str:
    return deck_code.encode(
        deck_code.DeckCodeContent(
            deck_code.format_identity(format.slug),
            tuple(deck_code.card_identity(card.slug) for card in cards),
            tuple(deck_code.card_identity(card.slug) for card in removed),
            champion or None,
        )
    )


def preconstructed_deck_codes() -> list[tuple[int, str]]:
    """Each preconstructed deck of the Initiation Pack as (number, deck code), in number order."""
    fmt = format_get(slug="preconstructed")
    cards_of: dict[int, list[Card]] = {}
    for card in Card.objects.filter(precon_deck__isnull=False).order_by("collector_number"):
        cards_of.setdefault(card.precon_deck, []).append(card)
    return [
        (number, deck_code_for(format=fmt, cards=cards, champion=None))
        for number, cards in sorted(cards_of.items())
    ]


CODE_ERRORS = {
    "empty": gettext_lazy("The deck code is empty."),
    "too_long": gettext_lazy("This is too long to be a deck code."),
    "bad_character": gettext_lazy("A deck code holds only letters, digits, “-” and “_”."),
    "bad_length": gettext_lazy("This deck code has a character too many or too few."),
    "truncated": gettext_lazy("This deck code is cut short."),
    "checksum": gettext_lazy("This deck code is mistyped: its checksum does not match."),
    "unsupported_version": gettext_lazy("This deck code comes from a version we do not know."),
    "not_canonical": gettext_lazy("This deck code is garbled."),
    "unknown_format": gettext_lazy("This deck code names a format we do not have."),
    "unknown_card": gettext_lazy("This deck code names a card we do not have."),
}


def _invalid_code(reason: str) -> DomainError:
    return DomainError("invalid_deck_code", str(CODE_ERRORS[reason]), {"reason": reason})


@dataclass(frozen=True)
class DecodedDeck:
    code: str
    format: Format
    cards: list[Card]
    removed: list[Card]
    champion: str | None


def _by_identity(slugs: Sequence[str]) -> dict[int, str]:
    table: dict[int, str] = {}
    for slug in slugs:
        table.setdefault(deck_code.card_identity(slug), slug)
    return table


def deck_decode(code: str) -> DecodedDeck:
    """The deck behind a code; DomainError `invalid_deck_code` (400) for any bad code."""
    code = code.strip()
    try:
        content = deck_code.decode(code)
    except deck_code.DeckCodeError as error:
        raise _invalid_code(error.reason) from error
    fmt = next(
        (
            one
            for one in formats_queryset()
            if deck_code.format_identity(one.slug) == content.format_id
        ),
        None,
    )
    if fmt is None:
        raise _invalid_code("unknown_format")
    table = _by_identity(list(Card.objects.values_list("slug", flat=True)))
    wanted = [*content.card_ids, *content.removed_ids]
    if any(one not in table for one in wanted):
        raise _invalid_code("unknown_card")
    details = cards_by_slug([table[one] for one in wanted])
    cards = sorted((details[table[one]] for one in content.card_ids), key=_display_order)
    removed = sorted((details[table[one]] for one in content.removed_ids), key=_display_order)
    return DecodedDeck(code, fmt, cards, removed, content.champion)


def _display_order(card: Card) -> tuple[int, str]:
    return (card.mana if card.mana is not None else 99, card.slug)


# Decks as the rules engine plays them -------------------------------------------------------


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
    return [
        f"{AURA_PREFIX if link.is_aura else ''}{link.ability.code}"
        for link in card.card_abilities.all()
    ]


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
            f"{AURA_PREFIX if row.is_aura else ''}{row.ability.code}"
            for row in champion.abilities.select_related("ability").order_by("position")
        ],
        name_fr=champion_name(champion, "fr"),
    )


# Who sees and edits which deck --------------------------------------------------------------


def deck_can_read(deck: Deck, viewer: Viewer) -> bool:
    if deck.visibility != Visibility.PRIVATE:
        return True
    return bool(viewer.is_authenticated and (viewer.pk == deck.owner_id or viewer.is_staff))


def deck_can_edit(deck: Deck, viewer: Viewer) -> bool:
    """The owner, and staff (moderation), may change or delete a deck."""
    return bool(viewer.is_authenticated and (viewer.pk == deck.owner_id or viewer.is_staff))


def decks_queryset() -> QuerySet[Deck]:
    return Deck.objects.select_related("owner", "parent", "champion").prefetch_related(
        "champion__translations",
        Prefetch("format", formats_queryset()),
        Prefetch(
            "deck_cards",
            DeckCard.objects.order_by("position").prefetch_related(
                Prefetch("card", cards_with_details())
            ),
        ),
        Prefetch("pool", cards_with_details()),
    )


def deck_not_found(share_id: str) -> DomainError:
    return DomainError(
        "not_found", _("There is no deck “%(id)s”.") % {"id": share_id}, status_code=404
    )


def deck_get(*, share_id: str, viewer: Viewer) -> Deck:
    """A deck the viewer may read; a private deck of someone else is "not found" (404), not 403."""
    deck = decks_queryset().filter(share_id=share_id).first()
    if deck is None or not deck_can_read(deck, viewer):
        raise deck_not_found(share_id)
    return deck


def deck_cards(deck: Deck) -> list[Card]:
    return [entry.card for entry in deck.deck_cards.all()]


def deck_removed_cards(deck: Deck) -> list[Card]:
    return [entry.card for entry in deck.deck_cards.all() if entry.removed]


def deck_final_cards(deck: Deck) -> list[Card]:
    """The cards played: all of them but those the opponent removed (Constructed 2021)."""
    return [entry.card for entry in deck.deck_cards.all() if not entry.removed]


def deck_pool(deck: Deck) -> list[Card] | None:
    if deck.format.pool_kind != PoolKind.SUPPLIED:
        return None
    return list(deck.pool.all())


def deck_champion(deck: Deck, viewer: Viewer) -> Champion | None:
    """The deck's Champion as `viewer` knows it: None when it has none, and when it has one the
    viewer may not see (someone's private Champion), so that nothing hints that it exists."""
    champion = deck.champion if deck.champion_id else None
    if champion is None or not champion_visible_to(champion, viewer):
        return None
    return champion


def deck_champion_uid(deck: Deck, viewer: Viewer) -> str | None:
    champion = deck_champion(deck, viewer)
    return champion.uid if champion else None


def deck_validate(deck: Deck, *, viewer: Viewer, mode: GameMode | str | None = None) -> DeckCheck:
    """The deck's check and code as `viewer` sees the deck (its Champion only if visible)."""
    return deck_check(
        format=deck.format,
        cards=deck_cards(deck),
        removed=deck_removed_cards(deck),
        pool=deck_pool(deck),
        mode=mode,
        champion=deck_champion_uid(deck, viewer),
    )


def deck_code_of(deck: Deck, *, viewer: Viewer) -> str:
    return deck_code_for(
        format=deck.format,
        cards=deck_cards(deck),
        removed=deck_removed_cards(deck),
        champion=deck_champion_uid(deck, viewer),
    )


def unknown_champion(uid: str) -> DomainError:
    """The same refusal for a Champion that does not exist and one the user may not see."""
    return DomainError(
        "unknown_champion",
        _("There is no Champion “%(uid)s” you can use.") % {"uid": uid},
        {"field": "champion", "champion": uid},
    )


def champion_for(*, uid: str, viewer: Viewer) -> Champion:
    """The Champion a deck names, if the viewer may see it (the champions app decides)."""
    try:
        return champion_get(uid=uid, user=viewer)
    except DomainError as error:
        raise unknown_champion(uid) from error


def champion_visible(uid: str | None, viewer: Viewer) -> Champion | None:
    """The Champion of a deck code to show the viewer, or None (unknown, or someone's private)."""
    if not uid:
        return None
    return champions_visible_to(viewer).filter(uid=uid).prefetch_related("translations").first()


# Lists --------------------------------------------------------------------------------------

SORTS: dict[str, tuple[str, ...]] = {
    "updated": ("-updated_at", "-id"),
    "created": ("-created_at", "-id"),
    "name": ("name", "id"),
    "forks": ("-fork_count", "-updated_at", "-id"),
}


def _ability_code(text: str) -> str:
    """An ability by code, or by name in any language or edition."""
    text = text.strip()
    if Ability.objects.filter(code=text.lower()).exists():
        return text.lower()
    folded = fold(text)
    for ability_id, name in [
        *AbilityTranslation.objects.values_list("ability_id", "name"),
        *AbilityAlias.objects.values_list("ability_id", "name"),
    ]:
        if fold(name) == folded:
            return Ability.objects.get(pk=ability_id).code
    raise DomainError(
        "unknown_ability",
        _("There is no ability “%(ability)s”.") % {"ability": text},
        {"ability": text},
    )


def deck_list(
    *,
    owner: Viewer | None = None,
    q: str = "",
    cards: Sequence[str] = (),
    ability: str = "",
    format: str = "",
    author: str = "",
    sort: str = "updated",
) -> QuerySet[Deck]:
    """Public decks (or all decks of `owner`) matching every filter given, sorted."""
    decks = decks_queryset().annotate(fork_count=Count("forks", distinct=True))
    if owner is not None:
        decks = decks.filter(owner=owner) if owner.is_authenticated else decks.none()
    else:
        decks = decks.filter(visibility=Visibility.PUBLIC)
    if q.strip():
        decks = decks.filter(name__icontains=q.strip())
    for request, card in zip(cards, cards_resolve(cards), strict=True):
        if card is None:
            raise DomainError(
                "unknown_card",
                _("No card is named “%(input)s”.") % {"input": request},
                {"input": request, "suggestions": [one.slug for one in card_suggestions(request)]},
            )
        decks = decks.filter(deck_cards__card=card)
    if ability.strip():
        decks = decks.filter(deck_cards__card__card_abilities__ability__code=_ability_code(ability))
    if format.strip():
        decks = decks.filter(format__slug=format.strip())
    if author.strip():
        decks = decks.filter(owner__username__iexact=author.strip())
    return decks.distinct().order_by(*SORTS.get(sort, SORTS["updated"]))


# Versions -----------------------------------------------------------------------------------


def deck_versions(deck: Deck) -> QuerySet[DeckVersion]:
    """The versions as stored; shown to someone only through `versions_seen_by`."""
    return deck.versions.select_related("author").prefetch_related(
        Prefetch("format", formats_queryset())
    )


def versions_seen_by(versions: Iterable[DeckVersion], viewer: Viewer) -> list[DeckVersion]:
    """The versions as `viewer` may see them: one whose Champion they may not see (private, or
    deleted since) shows none, in its share id and in its deck code. Only these in-memory copies
    change; the stored history keeps the share id."""
    versions = list(versions)
    named = {version.champion for version in versions if version.champion}
    visible = set(champions_visible_to(viewer).filter(uid__in=named).values_list("uid", flat=True))
    for version in versions:
        if version.champion and version.champion not in visible:
            version.champion = ""
            version.code = deck_code.encode(replace(deck_code.decode(version.code), champion=None))
    return versions


def deck_version_get(deck: Deck, number: int, *, viewer: Viewer) -> DeckVersion:
    version = deck_versions(deck).filter(number=number).first()
    if version is None:
        raise DomainError(
            "not_found",
            _("This deck has no version %(number)d.") % {"number": number},
            {"version": number},
            status_code=404,
        )
    return versions_seen_by([version], viewer)[0]


@dataclass(frozen=True)
class Change:
    field: str
    label: str
    old: str
    new: str


@dataclass(frozen=True)
class VersionDiff:
    old: DeckVersion
    new: DeckVersion
    added: list[str]  # card slugs in the new version only (one per extra copy)
    dropped: list[str]  # card slugs in the old version only
    kept: list[str]
    changes: list[Change]
    cards: dict[str, Card] = field(default_factory=dict)  # the catalogue's cards by slug


def _multiset_minus(left: Sequence[str], right: Sequence[str]) -> list[str]:
    rest = Counter(right)
    out = []
    for slug in left:
        if rest[slug]:
            rest[slug] -= 1
        else:
            out.append(slug)
    return out


def deck_version_diff(
    deck: Deck, old_number: int, new_number: int, *, viewer: Viewer
) -> VersionDiff:
    old = deck_version_get(deck, old_number, viewer=viewer)
    new = deck_version_get(deck, new_number, viewer=viewer)
    cards = cards_by_slug([*old.cards, *new.cards, *old.pool, *new.pool])
    champions = {
        one.uid: one
        for one in champions_visible_to(viewer)
        .filter(uid__in=[old.champion, new.champion])
        .prefetch_related("translations")
    }

    def champion(uid: str) -> str:
        one = champions.get(uid)
        return f"{champion_name(one)} ({uid})" if one else "—"

    def names(slugs: Sequence[str]) -> str:
        return ", ".join(card_name(cards[s]) if s in cards else s for s in slugs) or "—"

    changes = []
    for name, label, before, after in [
        ("name", _("Name"), old.name, new.name),
        ("format", _("Format"), format_name(old.format), format_name(new.format)),
        ("description", _("Description"), old.description, new.description),
        ("removed", _("Removed by the opponent"), names(old.removed), names(new.removed)),
        ("pool", _("Pool"), names(sorted(old.pool)), names(sorted(new.pool))),
        ("champion", _("Champion"), champion(old.champion), champion(new.champion)),
    ]:
        if before != after:
            changes.append(Change(name, label, before, after))
    return VersionDiff(
        old,
        new,
        added=_multiset_minus(new.cards, old.cards),
        dropped=_multiset_minus(old.cards, new.cards),
        kept=_multiset_minus(new.cards, _multiset_minus(new.cards, old.cards)),
        changes=changes,
        cards=cards,
    )


# Figures, text ------------------------------------------------------------------------------


@dataclass(frozen=True)
class DeckFigures:
    curve: list[stats.Bar]
    types: list[stats.Bar]
    abilities: list[stats.Bar]
    odds: stats.HandOdds | None
    hand: list[stats.HandCard]
    seed: int


def deck_figures(cards: Sequence[Card], *, seed: int) -> DeckFigures:
    return DeckFigures(
        curve=stats.mana_curve(cards),
        types=stats.type_split(
            cards, {kind: str(label) for kind, label in legality.TYPE_PLURALS.items()}
        ),
        abilities=stats.ability_counts(cards, _("Aura: %(ability)s")),
        odds=stats.hand_odds(cards),
        hand=stats.opening_hand(cards, seed),
        seed=seed,
    )


@dataclass(frozen=True)
class ImportedLine:
    number: int
    text: str
    card: Card | None
    # Why the line matched no card: "unknown", or "not_in_set" when the set code disagrees.
    problem: str | None
    set_code: str | None
    suggestions: tuple[Card, ...] = ()


def deck_import_text(text: str) -> list[ImportedLine]:
    """One answer per card line (a line "2x Grrr" answers twice): nothing is silently dropped."""
    parsed = text_io.parse(text)
    resolved = cards_resolve([line.name for line in parsed])
    answers = []
    for line, card in zip(parsed, resolved, strict=True):
        problem = None
        if card is not None and line.set_code and card.expansion.code != line.set_code:
            card = _card_in_set(line.name, line.set_code)
            problem = None if card else "not_in_set"
        elif card is None:
            problem = "unknown"
        suggestions = tuple(card_suggestions(line.name)) if problem else ()
        answers += [
            ImportedLine(line.number, line.text, card, problem, line.set_code, suggestions)
        ] * line.copies
    return answers


def deck_text(
    *,
    name: str,
    format: Format,
    cards: Sequence[Card],
    removed: Sequence[Card],
    code: str,
    language: str | None = None,
) -> str:
    """The deck as text: re-importable (names in `language`, set codes), details as comments."""
    footer = []
    if removed:
        footer.append(
            _("Removed by the opponent: %(cards)s")
            % {"cards": ", ".join(card_name(card, language) for card in removed)}
        )
    return text_io.export(
        title=name,
        header=[
            _("Format: %(format)s") % {"format": format_name(format, language)},
            _("Deck code: %(code)s") % {"code": code},
        ],
        lines=[(card_name(card, language), card.expansion.code) for card in cards],
        footer=footer,
    )
