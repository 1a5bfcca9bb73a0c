"""A Draft batch's pool: an expansion's creatures and Incantations as the rules engine plays
them, checked against the Draft procedure, or a DomainError naming what is wrong."""

from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

from cards.models import Card, Expansion
from cards.selectors import cards_with_details
from cod_site.errors import DomainError
from engine.adapters.definitions import deck_engine_definitions
from engine.rules import InputError
from engine.rules.cards import CardDef
from engine.rules.drafts import new_draft


@dataclass(frozen=True)
class ResolvedPool:
    expansion: str  # the expansion's slug
    cards: list[dict[str, Any]]  # engine card JSON
    slugs: list[str]


def draft_pool_resolve(*, pool: str, procedure: str = "duel") -> ResolvedPool:
    """The deckable cards of expansion ``pool`` (its slug or its code, "00" the Initiation
    Pack), one of each, that ``procedure`` can draft from."""
    expansion = Expansion.objects.filter(Q(slug=pool) | Q(code=pool)).first()
    if expansion is None:
        raise DomainError(
            "unknown_pool",
            _("There is no expansion “%(pool)s” to draft from.") % {"pool": pool},
            {"field": "pool", "pool": pool},
        )
    cards = list(cards_with_details(Card.objects.deckable().filter(expansion=expansion)))
    resolved = ResolvedPool(
        expansion=expansion.slug,
        cards=deck_engine_definitions(cards),
        slugs=[card.slug for card in cards],
    )
    try:
        definitions = [
            CardDef.from_json(card, f"pool card {i}") for i, card in enumerate(resolved.cards)
        ]
        new_draft(procedure, definitions, 0)
    except InputError as error:
        raise DomainError(
            "unplayable_pool",
            _("The rules engine cannot draft from %(pool)s: %(reason)s")
            % {"pool": expansion.slug, "reason": error},
            {"field": "pool", "pool": expansion.slug, "reason": str(error)},
        ) from error
    return resolved
