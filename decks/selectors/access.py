"""Who sees and edits which deck, and the deck as its viewer may see it.

A deck's Champion reaches a viewer only through `deck_champion` (and, for the share ids that
versions keep, `decks.selectors.versions.versions_seen_by`), which apply the champions app's one
visibility rule: for whoever may not see it, the deck has no Champion at all — no share id, no
name, deck codes without it, test games without it. docs/cards-and-decks.md ("Who sees a
Champion") says why.
"""

from typing import TypeAlias

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext as _

from cards.models import Card
from cards.selectors import cards_with_details
from champions.models import Champion
from champions.selectors import (
    champion_get,
    champion_name,
    champion_visible_to,
    champions_listed_for,
    champions_visible_to,
)
from cod_site.errors import DomainError
from decks.models import Deck, DeckCard, PoolKind, Visibility
from decks.selectors.formats import formats_queryset

Viewer: TypeAlias = User | AnonymousUser


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


# The public Champions a picker offers, newest first: enough to choose from without a page that
# lists the whole gallery (the gallery's search finds the others, and a share id opens any).
PICKER_PUBLIC = 100


def champion_picker(viewer: Viewer, current: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """The Champions a deck of `viewer` may name, as option groups of (share id, name): their own,
    then public ones; the deck's `current` Champion first when it is neither (an unlisted one
    opened by link), so the picker never drops it."""
    mine = list(champions_listed_for(viewer, mine=True).order_by("-created_at"))
    public = champions_listed_for(viewer).exclude(pk__in=[one.pk for one in mine])
    groups = [
        (_("My Champions"), [(one.uid, champion_name(one)) for one in mine]),
        (
            _("Public Champions"),
            [
                (one.uid, champion_name(one))
                for one in public.order_by("-created_at")[:PICKER_PUBLIC]
            ],
        ),
    ]
    offered = {uid for _group, options in groups for uid, _name in options}
    if current and current not in offered:
        champion = champion_visible(current, viewer)
        label = champion_name(champion) if champion else current
        groups.insert(0, (_("This deck's Champion"), [(current, label)]))
    return [(group, options) for group, options in groups if options]
