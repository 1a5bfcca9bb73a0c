"""Writes: decks (every save is a new immutable version), forks, restores, and accounts.

A save locks the deck's row (`select_for_update`) before it numbers the new version, so two
sessions saving the same deck at once are serialised: both versions are kept, in order.
"""

from collections import Counter
from collections.abc import Sequence
from enum import Enum

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from cards.models import Card
from champions.models import Champion
from champions.selectors import champion_visible_to
from cod_site.errors import DomainError
from cod_site.text import check_visible
from decks import deck_code
from decks.models import (
    DESCRIPTION_MAX_LENGTH,
    NAME_MAX_LENGTH,
    Deck,
    DeckCard,
    DeckVersion,
    Format,
    VersionKind,
    Visibility,
)
from decks.selectors.access import (
    champion_visible,
    deck_can_edit,
    deck_can_read,
    deck_champion,
    deck_get,
    deck_not_found,
    unknown_champion,
)
from decks.selectors.codes import deck_code_for
from decks.selectors.lookup import cards_by_slug
from decks.selectors.versions import version_numbered


class Keep(Enum):
    """`deck_update(champion=KEEP)`: leave the Champion as it is (None removes it)."""

    KEEP = "keep"


KEEP = Keep.KEEP


def _check_name(name: str) -> str:
    name = name.strip()
    if not name:
        raise DomainError("invalid_name", _("Give the deck a name."), {"field": "name"})
    if len(name) > NAME_MAX_LENGTH:
        raise DomainError(
            "invalid_name",
            _("A deck name has at most %(max)d characters.") % {"max": NAME_MAX_LENGTH},
            {"field": "name"},
        )
    check_visible(name, field="name")
    return name


def _check_description(description: str) -> str:
    if len(description) > DESCRIPTION_MAX_LENGTH:
        raise DomainError(
            "invalid_description",
            _("A description has at most %(max)d characters.") % {"max": DESCRIPTION_MAX_LENGTH},
            {"field": "description"},
        )
    return description


def _check_cards(cards: Sequence[Card], removed: Sequence[Card]) -> None:
    if len(cards) > deck_code.MAX_CARDS:
        raise DomainError(
            "too_many_cards",
            _("A deck holds at most %(max)d cards.") % {"max": deck_code.MAX_CARDS},
            {"field": "cards"},
        )
    left = Counter(card.pk for card in cards)
    for card in removed:
        if not left[card.pk]:
            raise DomainError(
                "removed_card_not_in_deck",
                _("%(card)s is marked as removed but is not in the deck.") % {"card": card.slug},
                {"field": "removed", "cards": [card.slug]},
            )
        left[card.pk] -= 1


def _check_visibility(visibility: str) -> str:
    if visibility not in Visibility.values:
        raise DomainError(
            "invalid_visibility",
            _("Visibility is one of: %(choices)s.") % {"choices": ", ".join(Visibility.values)},
            {"field": "visibility"},
        )
    return visibility


def _check_champion(champion: Champion | None, owner: User) -> Champion | None:
    """A deck carries only a Champion its owner may see, whoever saves it (staff included)."""
    if champion is not None and not champion_visible_to(champion, owner):
        raise unknown_champion(champion.uid)
    return champion


def _write_cards(deck: Deck, cards: Sequence[Card], removed: Sequence[Card]) -> None:
    to_remove = Counter(card.pk for card in removed)
    rows = []
    for position, card in enumerate(cards, start=1):
        is_removed = to_remove[card.pk] > 0
        if is_removed:
            to_remove[card.pk] -= 1
        rows.append(DeckCard(deck=deck, card=card, position=position, removed=is_removed))
    deck.deck_cards.all().delete()
    DeckCard.objects.bulk_create(rows)


def _record_version(
    deck: Deck,
    *,
    author: User,
    kind: str,
    cards: Sequence[Card],
    removed: Sequence[Card],
    pool: Sequence[Card],
    source_number: int | None = None,
) -> DeckVersion:
    """Number the next version of a deck whose row the caller holds locked."""
    deck.version += 1
    deck.save()
    return DeckVersion.objects.create(
        deck=deck,
        number=deck.version,
        kind=kind,
        source_number=source_number,
        author=author,
        name=deck.name,
        description=deck.description,
        format=deck.format,
        cards=[card.slug for card in cards],
        removed=[card.slug for card in removed],
        pool=sorted(card.slug for card in pool),
        champion=deck.champion.uid if deck.champion else "",
        code=deck_code_for(
            format=deck.format,
            cards=cards,
            removed=removed,
            champion=deck.champion.uid if deck.champion else None,
        ),
    )


@transaction.atomic
def deck_create(
    *,
    owner: User,
    name: str,
    format: Format,
    cards: Sequence[Card],
    removed: Sequence[Card] = (),
    pool: Sequence[Card] = (),
    description: str = "",
    visibility: str = Visibility.PRIVATE,
    champion: Champion | None = None,
    parent: Deck | None = None,
    kind: str = VersionKind.CREATED,
    source_number: int | None = None,
) -> Deck:
    if not owner.is_authenticated:
        raise DomainError("not_authenticated", _("Log in to save a deck."), status_code=403)
    _check_cards(cards, removed)
    deck = Deck.objects.create(
        owner=owner,
        name=_check_name(name),
        description=_check_description(description),
        format=format,
        visibility=_check_visibility(visibility),
        champion=_check_champion(champion, owner),
        parent=parent,
    )
    deck.pool.set(pool)
    _write_cards(deck, cards, removed)
    _record_version(
        deck,
        author=owner,
        kind=kind,
        cards=cards,
        removed=removed,
        pool=pool,
        source_number=source_number,
    )
    return deck


def _locked(deck: Deck, actor: User) -> Deck:
    locked = Deck.objects.select_for_update().filter(pk=deck.pk).first()
    if locked is None or not deck_can_read(locked, actor):
        raise deck_not_found(deck.share_id)
    if not deck_can_edit(locked, actor):
        raise DomainError(
            "permission_denied", _("Only the deck's owner may change it."), status_code=403
        )
    return locked


def _current_cards(deck: Deck) -> tuple[list[Card], list[Card]]:
    rows = list(deck.deck_cards.select_related("card").order_by("position"))
    return [row.card for row in rows], [row.card for row in rows if row.removed]


@transaction.atomic
def deck_update(
    *,
    deck: Deck,
    actor: User,
    name: str | None = None,
    description: str | None = None,
    format: Format | None = None,
    cards: Sequence[Card] | None = None,
    removed: Sequence[Card] | None = None,
    pool: Sequence[Card] | None = None,
    visibility: str | None = None,
    champion: Champion | Keep | None = KEEP,
) -> Deck:
    """Change what is given (None = keep; for the Champion, KEEP) and record a new version."""
    locked = _locked(deck, actor)
    current_cards, current_removed = _current_cards(locked)
    new_cards = list(cards) if cards is not None else current_cards
    # New cards without a word about removals: the removals of the old list no longer apply.
    new_removed = (
        list(removed) if removed is not None else (current_removed if cards is None else [])
    )
    _check_cards(new_cards, new_removed)
    if name is not None:
        locked.name = _check_name(name)
    if description is not None:
        locked.description = _check_description(description)
    if format is not None:
        locked.format = format
    if visibility is not None:
        locked.visibility = _check_visibility(visibility)
    if champion is not KEEP:
        locked.champion = _check_champion(champion, locked.owner)
    if pool is not None:
        locked.pool.set(pool)
    _write_cards(locked, new_cards, new_removed)
    _record_version(
        locked,
        author=actor,
        kind=VersionKind.EDITED,
        cards=new_cards,
        removed=new_removed,
        pool=list(locked.pool.all()),
    )
    return locked


@transaction.atomic
def deck_delete(*, deck: Deck, actor: User) -> None:
    _locked(deck, actor).delete()


@transaction.atomic
def deck_version_restore(*, deck: Deck, actor: User, number: int) -> Deck:
    """Bring an old version back as the newest one: history only grows."""
    locked = _locked(deck, actor)
    version = version_numbered(locked.versions.all(), number)
    known = cards_by_slug([*version.cards, *version.pool])
    missing = [slug for slug in [*version.cards, *version.pool] if slug not in known]
    if missing:
        raise DomainError(
            "card_missing",
            _("Version %(number)d holds cards the catalogue no longer has: %(cards)s.")
            % {"number": number, "cards": ", ".join(missing)},
            {"cards": missing},
            status_code=409,
        )
    cards = [known[slug] for slug in version.cards]
    removed = [known[slug] for slug in version.removed]
    pool = [known[slug] for slug in version.pool]
    locked.name = version.name
    locked.description = version.description
    locked.format = version.format
    # A Champion deleted since then, or one the owner may no longer use (made private by its
    # own owner), stays out; its share id remains in the old version.
    locked.champion = champion_visible(version.champion or None, locked.owner)
    locked.pool.set(pool)
    _write_cards(locked, cards, removed)
    _record_version(
        locked,
        author=actor,
        kind=VersionKind.RESTORED,
        cards=cards,
        removed=removed,
        pool=pool,
        source_number=number,
    )
    return locked


@transaction.atomic
def _fork_name(name: str) -> str:
    """ "Teeth (copy)": a fork is told from its source in "My decks" (cut to fit the field)."""
    suffix = " " + _("(copy)")
    return name[: NAME_MAX_LENGTH - len(suffix)] + suffix


def deck_fork(*, deck: Deck, owner: User, name: str | None = None) -> Deck:
    """A copy owned by `owner`, private, remembering where it came from."""
    source = deck_get(share_id=deck.share_id, viewer=owner)
    rows = list(source.deck_cards.all())
    return deck_create(
        owner=owner,
        name=name if name and name.strip() else _fork_name(source.name),
        format=source.format,
        cards=[row.card for row in rows],
        removed=[row.card for row in rows if row.removed],
        pool=list(source.pool.all()),
        description=source.description,
        visibility=Visibility.PRIVATE,
        # The Champion comes along if the new owner may see it (not someone's private one).
        champion=deck_champion(source, owner),
        parent=source,
        kind=VersionKind.FORKED,
        source_number=source.version,
    )
