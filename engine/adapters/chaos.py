"""A Duel of Chaos set of the catalogue as the engine plays it: its cards as the fields of
`engine.chaos.cards` (what a batch or a table stores), read back into a box, and the one check
that a set can be played (`chaos_set_resolve`: test batches and Play's tables)."""

from typing import Any

from django.utils.translation import gettext as _

from cards.chaos_selectors import chaos_translated
from cards.models import ChaosCard
from cod_site.errors import DomainError
from engine.chaos.cards import Box, box_from_cards, card_from_fields
from engine.chaos.errors import InputError


def _yes_no(value: bool | None) -> str:
    return "" if value is None else ("yes" if value else "no")


def chaos_set_cards(code: str) -> list[dict[str, Any]]:
    """The cards of set `code`, each as its engine fields (named in English, else French)."""
    cards = ChaosCard.objects.filter(chaos_set__code=code).prefetch_related("translations")
    return [
        {
            "name": chaos_translated(card, "name", "en").text,
            "type": card.card_type,
            "clan": card.clan,
            "cost": "" if card.cost is None else str(card.cost),
            "deck": card.deck,
            "copies": str(card.copies),
            "play": card.play_effect,
            "reaction_on": card.reaction_on,
            "reaction_opponent_turn": _yes_no(card.reaction_opponent_turn),
            "reaction": card.reaction_effect,
            "depth": "" if card.depth is None else str(card.depth),
            "complete": _yes_no(card.complete),
        }
        for card in cards.order_by("position", "slug")
    ]


def chaos_box(cards: list[dict[str, Any]], where: str) -> Box:
    """The box of stored card fields; InputError naming the card and field that is wrong, or
    the incomplete card."""
    return box_from_cards(
        [card_from_fields(fields, f"{where} {fields.get('name')!r}") for fields in cards], where
    )


def chaos_set_resolve(*, set_code: str) -> list[dict[str, Any]]:
    """The cards of set `set_code` as its engine fields (`chaos_set_cards`), once the engine can
    play them as a box (`chaos_box`): 400 `unknown_set` (no card in such a set),
    `set_not_playable` (the engine's reason: a card it cannot read, or an incomplete one);
    `details.set_code` both."""
    cards = chaos_set_cards(set_code)
    if not cards:
        raise DomainError(
            "unknown_set",
            _("There is no Duel of Chaos set %(code)s.") % {"code": set_code},
            {"set_code": set_code},
        )
    try:
        chaos_box(cards, set_code)
    except InputError as exc:
        raise DomainError(
            "set_not_playable",
            _("This set cannot be played yet: %(reason)s") % {"reason": exc},
            {"set_code": set_code},
        ) from exc
    return cards
