"""A deck's versions, as a viewer may see them, and the difference between two."""

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext as _

from cards.models import Card
from cards.selectors import card_name
from champions.selectors import champion_name, champions_visible_to
from cod_site.errors import DomainError
from decks import deck_code
from decks.models import Deck, DeckVersion
from decks.selectors.access import Viewer
from decks.selectors.formats import format_name, formats_queryset
from decks.selectors.lookup import cards_by_slug


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


def version_numbered(versions: QuerySet[DeckVersion], number: int) -> DeckVersion:
    """Version `number` among a deck's `versions`, or a 404 `not_found`."""
    version = versions.filter(number=number).first()
    if version is None:
        raise DomainError(
            "not_found",
            _("This deck has no version %(number)d.") % {"number": number},
            {"version": number},
            status_code=404,
        )
    return version


def deck_version_get(deck: Deck, number: int, *, viewer: Viewer) -> DeckVersion:
    return versions_seen_by([version_numbered(deck_versions(deck), number)], viewer)[0]


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
