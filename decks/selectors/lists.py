"""Lists of decks: public ones, or a user's own, with their filters and sorts."""

from collections.abc import Sequence

from django.db.models import Count, QuerySet
from django.utils.translation import gettext as _

from cards.models import Ability, AbilityAlias, AbilityTranslation
from cards.selectors import card_suggestions
from cards.text import fold
from cod_site.errors import DomainError
from decks.models import Deck, Visibility
from decks.selectors.access import Viewer, decks_queryset
from decks.selectors.lookup import cards_resolve

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
