"""What a table's forms offer to choose from: the saved decks (mine, a search's public ones,
those a Co-op table accepts), the Mutation sessions, and the expansions a Draft table may
draft from."""

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count

from cards.models import Card, Expansion
from cards.selectors import translated
from cod_site.errors import DomainError
from decks.selectors.formats import format_name
from decks.selectors.lists import deck_list
from engine.adapters.play import COOP_AI_CARDS
from mutation.access import Actor
from mutation.selectors import playable_sessions

# How many saved decks a form's select offers (mine, or a search's public ones).
DECK_CHOICES = 50


def draft_pool_choices() -> list[tuple[str, str]]:
    """The expansions a Draft table may draft from (those with cards to put in a deck), as
    (slug, "code · name in the page's language"), in the catalogue's order: the new-table form
    offers them to tick instead of a field of codes to type (issue 29)."""
    expansions = Expansion.objects.filter(
        pk__in=Card.objects.deckable().values("expansion")
    ).prefetch_related("translations")
    return [
        (expansion.slug, f"{expansion.code} · {translated(expansion, 'name').text}")
        for expansion in expansions
    ]


def deck_choices(user: User | AnonymousUser) -> list[tuple[str, str]]:
    """The saved decks `user` may bring to a table, as (share id, "name · format"), newest
    first: the forms offer them instead of a share id to type (issue 29)."""
    if not user.is_authenticated:
        return []
    return [
        (deck.share_id, f"{deck.name} · {format_name(deck.format)}")
        for deck in deck_list(owner=user, sort="updated")[:DECK_CHOICES]
    ]


def coop_ready_decks(user: User | AnonymousUser) -> set[str]:
    """The share ids of `user`'s decks (`deck_choices`) whose expansions hold at least the
    `COOP_AI_CARDS` cards the Co-op AI plays that the deck does not (ruling CO9): the only ones
    the new-table form offers for Co-op (issue 29: the defaults failed after submitting)."""
    if not user.is_authenticated:
        return set()
    decks = list(
        deck_list(owner=user, sort="updated")[:DECK_CHOICES].prefetch_related("deck_cards__card")
    )
    per_expansion = dict(
        Card.objects.deckable()
        .values_list("expansion")
        .annotate(count=Count("pk"))
        .values_list("expansion", "count")
    )
    ready = set()
    for deck in decks:
        cards = {entry.card for entry in deck.deck_cards.all()}
        expansions = {card.expansion_id for card in cards}
        others = sum(per_expansion.get(one, 0) for one in expansions) - len(cards)
        if others >= COOP_AI_CARDS:
            ready.add(deck.share_id)
    return ready


def public_deck_search(query: str) -> list[tuple[str, str]]:
    """Public decks whose name or cards match `query` (`decks.selectors.lists.deck_list`), as
    (share id, "name · author · format"), for the forms' public deck search."""
    if not query.strip():
        return []
    try:
        found = deck_list(q=query, sort="updated")[:DECK_CHOICES]
    except DomainError:
        return []
    return [
        (deck.share_id, f"{deck.name} · {deck.owner} · {format_name(deck.format)}")
        for deck in found
    ]


def mutation_sessions(user: User | AnonymousUser) -> list[tuple[int, str]]:
    """The Mutation sessions whose deck `user` may play at a table, as (id, name)."""
    sessions = playable_sessions(Actor(user=user)).order_by("-created_at", "-id")
    return list(sessions.values_list("pk", "name"))
