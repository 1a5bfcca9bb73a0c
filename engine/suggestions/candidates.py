"""The swaps a suggestion search races: which cards may come in, which go out, and why only those.

A deck of 8 cards and a catalogue of some 350 playable cards make about 2,800 single swaps and
millions of pairs: far too many to prove by games. The search narrows them in two steps:

- **the pool**: the cards of the deck's format (its card pool, card types and bans; a Draft or
  Mutation deck: its own pool) that the deck does not hold; a card whose engine definition is
  another's under another name (a reprint) is tried once; at most ``MAX_SCOUTS`` of them, the
  best by the engine's static worth of a card (``engine.rules.agents.card_worth``: stats and
  abilities, the table the greedy agent values cards with);
- **the scouting** (the race's round 0, ``engine.suggestions.search``): each of them in the
  place of the deck's weakest card by that worth, with a few games; only the ``KEEP_IN`` best
  are then tried in the place of every card of the deck, and pairs of the best singles later.

Why not the worth alone: on the 4 preconstructed decks against the 3 others (every one of the
2,752 single swaps per deck, 300 paired greedy games each), the best card to bring in ranks 2nd
to 3rd by worth for decks 2 and 4 but 33rd (Mechanical Druid) and 162nd (Food Summoning, an
Incantation the worth table reads as its damage only) for decks 1 and 3: keeping the 12 best by
worth would miss them, which a few games of each card find (docs/suggestions.md).

Every swap raced is checked by the decks app's legality rules (`decks.legality.check` with the
format's rules, loaded once) and by the engine's own deck rule (8 cards of different names).
"""

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from cards.models import Card
from cards.selectors import cards_with_details
from decks import legality
from decks.models import Deck, Format, PoolKind
from decks.selectors.access import deck_cards, deck_pool, deck_removed_cards
from decks.selectors.checks import format_rules
from decks.selectors.formats import format_get
from engine.adapters.definitions import deck_engine_definitions
from engine.rules import CardDef, InputError, card_worth, validate_deck
from engine.suggestions.search import Swaps

# The most cards of the pool scouted (the best by worth): the catalogue holds about 350.
MAX_SCOUTS = 400
# The catalogue's game mode of the games played (a suggestion search plays Duels).
DUEL = "duel"


@dataclass(frozen=True)
class Pruning:
    """How the candidates were chosen, kept with the search for its page."""

    pool: int  # cards of the format the deck does not hold
    scouted: int  # those tried in the scouting (a reprint once, legal in the slot)
    slot: str  # the deck's card they replace: its weakest by worth
    outgoing: list[str]  # the deck's cards played, lowest worth first
    worth: dict[str, float]  # the worth of every card scouted and of the deck's

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Candidates:
    singles: list[Swaps]
    # The engine definition of every card that may come in, by slug.
    incoming: dict[str, dict[str, Any]]
    pruning: Pruning


def _signature(definition: dict[str, Any]) -> tuple[Any, ...]:
    """A card's engine definition without its names: two cards with one signature play alike."""
    return tuple(
        sorted((key, str(value)) for key, value in definition.items() if "name" not in key)
    )


def _pool(deck: Deck) -> list[Card]:
    """The cards the deck's format lets it hold, but not held yet."""
    fmt = deck.format
    held = {card.pk for card in deck_cards(deck)}
    if fmt.pool_kind == PoolKind.SUPPLIED:
        cards = [card for card in deck_pool(deck) or [] if card.pk not in held]
        return sorted({card.pk: card for card in cards}.values(), key=lambda card: card.slug)
    query = Card.objects.filter(card_type__in=fmt.allowed_card_types).exclude(pk__in=held)
    if fmt.expansion_codes:
        query = query.filter(expansion__code__in=fmt.expansion_codes)
    query = query.exclude(pk__in=fmt.banned_cards.values("pk"))
    return list(cards_with_details(query).order_by("slug"))


class SwapCheck:
    """Whether swaps leave a deck legal: the decks app's rules of its format
    (`decks.legality.check`, with the format's rules loaded once) and the engine's own deck rule
    (8 cards of different names)."""

    def __init__(
        self,
        fmt: Format,
        cards: Sequence[Card],
        removed: Sequence[Card],
        pool: Sequence[Card] | None,
        played: Sequence[Card],
    ) -> None:
        self.rules = format_rules(fmt)
        self.cards, self.removed, self.played = list(cards), list(removed), list(played)
        self.pool = None if pool is None else list(pool)
        self.definitions = dict(
            zip((card.slug for card in played), deck_engine_definitions(played), strict=True)
        )

    @classmethod
    def of(cls, frozen: dict[str, Any], played: Sequence[str]) -> "SwapCheck":
        """From a deck as `frozen_deck` keeps it, and the slugs of the cards it plays."""
        slugs = {*frozen["cards"], *(frozen["pool"] or ())}
        cards = {
            card.slug: card for card in cards_with_details(Card.objects.filter(slug__in=slugs))
        }
        return cls(
            format_get(slug=frozen["format"]),
            [cards[slug] for slug in frozen["cards"]],
            [cards[slug] for slug in frozen["removed"]],
            None if frozen["pool"] is None else [cards[slug] for slug in frozen["pool"]],
            [cards[slug] for slug in played],
        )

    def legal(self, swaps: Swaps, incoming: dict[str, Card], definitions: dict[str, Any]) -> bool:
        """`swaps` (slugs out and in) with the cards in and their engine definitions by slug."""
        into = {out: incoming[slug] for out, slug in swaps}
        swapped = [into.get(card.slug, card) for card in self.cards]
        if legality.check(
            rules=self.rules, cards=swapped, mode=DUEL, pool=self.pool, removed=self.removed
        ):
            return False
        played = [
            definitions[into[card.slug].slug] if card.slug in into else self.definitions[card.slug]
            for card in self.played
        ]
        try:
            validate_deck([CardDef.from_json(data, "card") for data in played], "deck")
        except InputError:
            return False
        return True


def swap_candidates(deck: Deck, played: Sequence[Card]) -> Candidates:
    """The scouts to race for `deck`, whose played cards are `played` (in the order the search
    plays them): each card of its pool in the place of its weakest card; and how they were
    chosen."""
    pool = _pool(deck)
    definitions = dict(
        zip((card.slug for card in pool), deck_engine_definitions(pool), strict=True)
    )
    worth = {slug: card_worth(CardDef.from_json(data, slug)) for slug, data in definitions.items()}
    check = SwapCheck(
        deck.format, deck_cards(deck), deck_removed_cards(deck), deck_pool(deck), played
    )
    own_worth = {
        slug: card_worth(CardDef.from_json(data, slug)) for slug, data in check.definitions.items()
    }
    outgoing = sorted(played, key=lambda card: (own_worth[card.slug], card.slug))
    slot = outgoing[0].slug
    chosen: list[Card] = []
    seen: set[tuple[Any, ...]] = set()
    for card in sorted(pool, key=lambda card: (-worth[card.slug], card.slug)):
        signature = _signature(definitions[card.slug])
        if signature not in seen:
            seen.add(signature)
            chosen.append(card)
    chosen = chosen[:MAX_SCOUTS]
    by_slug = {card.slug: card for card in chosen}
    scouts: list[Swaps] = []
    for card in chosen:
        swaps = ((slot, card.slug),)
        if check.legal(swaps, by_slug, definitions):
            scouts.append(swaps)
    return Candidates(
        singles=scouts,
        incoming={card.slug: definitions[card.slug] for card in chosen},
        pruning=Pruning(
            pool=len(pool),
            scouted=len(scouts),
            slot=slot,
            outgoing=[card.slug for card in outgoing],
            worth={slug: round(worth[slug], 2) for slug in by_slug}
            | {slug: round(value, 2) for slug, value in own_worth.items()},
        ),
    )


def frozen_deck(deck: Deck) -> dict[str, Any]:
    """What checking a swap needs of `deck` as it is now (a later edit changes nothing of a
    search): its format, its cards, those removed by the opponent and its pool, by slug."""
    pool = deck_pool(deck)
    return {
        "format": deck.format.slug,
        "cards": [card.slug for card in deck_cards(deck)],
        "removed": [card.slug for card in deck_removed_cards(deck)],
        "pool": None if pool is None else [card.slug for card in pool],
    }


def legal_swaps(
    frozen: dict[str, Any],
    played: Sequence[str],
    incoming: dict[str, Any],
    proposed: Sequence[Swaps],
) -> list[Swaps]:
    """Those of `proposed` that leave the deck `frozen` (`frozen_deck`), which plays the cards
    `played`, legal, in order; `incoming`: the search's cards to bring in (engine definitions by
    slug)."""
    if not proposed:
        return []
    check = SwapCheck.of(frozen, played)
    slugs = {into for swaps in proposed for _out, into in swaps}
    cards = {card.slug: card for card in cards_with_details(Card.objects.filter(slug__in=slugs))}
    return [swaps for swaps in proposed if check.legal(swaps, cards, incoming)]
