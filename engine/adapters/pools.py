"""A Draft batch's pool: the creatures and Incantations of one or more expansions as the rules
engine plays them, checked against the Draft procedure, or a DomainError naming what is wrong."""

from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

from cards.models import Card, Expansion
from cards.selectors import cards_with_details
from cod_site.errors import DomainError
from engine.adapters.definitions import deck_engine_definitions
from engine.rules import CardDef, InputError, new_draft

# The most expansions one pool mixes: the Co-op Draft's 64 cards take two; their slugs, joined
# by commas, fit the batch's `draft_expansion`.
MAX_POOL_EXPANSIONS = 4


@dataclass(frozen=True)
class ResolvedPool:
    expansion: str  # the expansions' slugs, joined by commas in the order asked for
    cards: list[dict[str, Any]]  # engine card JSON
    slugs: list[str]


def draft_pool_resolve(*, pool: str, procedure: str = "duel") -> ResolvedPool:
    """The deckable cards of the expansions of ``pool`` (their slugs or codes separated by
    commas, "00" the Initiation Pack), one of each, that ``procedure`` can draft from (400
    `unknown_pool`, `unplayable_pool`: too few cards, or one card twice)."""
    asked = list(dict.fromkeys(part.strip() for part in pool.split(",")))
    if len(asked) > MAX_POOL_EXPANSIONS:
        raise DomainError(
            "unknown_pool",
            _("A Draft pool mixes at most %(max)d expansions.") % {"max": MAX_POOL_EXPANSIONS},
            {"field": "pool", "pool": pool},
        )
    expansions = []
    for part in asked:
        expansion = Expansion.objects.filter(Q(slug=part) | Q(code=part)).first() if part else None
        if expansion is None:
            raise DomainError(
                "unknown_pool",
                _("There is no expansion “%(pool)s” to draft from.") % {"pool": part},
                {"field": "pool", "pool": part},
            )
        expansions.append(expansion)
    # "00,initiation" names one expansion: its cards once.
    expansions = list({expansion.pk: expansion for expansion in expansions}.values())
    cards = [
        card
        for expansion in expansions
        for card in cards_with_details(Card.objects.deckable().filter(expansion=expansion))
    ]
    resolved = ResolvedPool(
        expansion=",".join(expansion.slug for expansion in expansions),
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
            % {"pool": resolved.expansion, "reason": error},
            {"field": "pool", "pool": resolved.expansion, "reason": str(error)},
        ) from error
    return resolved
