"""A deck's figures: mana curve, types, abilities, opening hands."""

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from cards.models import Card
from decks import legality, stats


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
