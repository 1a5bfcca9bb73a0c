"""The decks of a batch as the rules engine plays them: a saved deck, a deck code or a
preconstructed deck in, legal for a Duel and readable by the engine, or a DomainError."""

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

from cards.models import DECKABLE_TYPES, Card
from cards.selectors import cards_with_details
from cod_site.errors import DomainError
from decks.models import Deck
from decks.selectors.access import Viewer, champion_for, deck_champion, deck_final_cards, deck_get
from decks.selectors.checks import DeckCheck, deck_check, deck_validate
from decks.selectors.codes import deck_code_for, deck_decode
from decks.selectors.formats import format_get
from engine.adapters.definitions import champion_engine_definition, deck_engine_definitions
from engine.models import DeckSource
from engine.rules import CardDef, InputError, champion_from_json, validate_deck

# The mode of a batch unless it asks for Solo.
MODE = "duel"
SOLO_MODE = "solo"
COOP_MODE = "coop"
# The AI's deck pile in Solo's set-ups (rule solo-setup): 3 preconstructed decks, or the 24 cards
# the Solo Draft gives it out of 32.
SOLO_AI_CARDS = 24
# Co-op's AI: the 48 cards the Co-op Draft leaves it, divided into two deck piles (ruling CO7).
COOP_AI_CARDS = 48
PRECONSTRUCTED_FORMAT = "preconstructed"
PRECONSTRUCTED_NUMBERS = (1, 2, 3, 4)


@dataclass(frozen=True)
class DeckChoice:
    """One side of a batch as asked for: exactly one of a saved deck's share id, a deck code or
    the number of a preconstructed deck."""

    deck: str | None = None
    code: str | None = None
    preconstructed: int | None = None


@dataclass(frozen=True)
class ResolvedDeck:
    source: str
    deck: Deck | None
    code: str
    name: str
    # Engine card JSON of the cards played (those the opponent removed are left out), the
    # catalogue slug of each, and the Champion's definition (None: none, or the module off).
    cards: list[dict[str, Any]]
    slugs: list[str]
    champion: dict[str, Any] | None
    preconstructed: int | None = None


def _side_error(error: DomainError, side: str) -> DomainError:
    return DomainError(
        error.code, error.message, {"side": side, **error.details}, status_code=error.status_code
    )


def _illegal(side: str, check: DeckCheck) -> DomainError:
    return DomainError(
        "illegal_deck",
        _("Deck %(side)s is not legal: %(errors)s")
        % {"side": side.upper(), "errors": " ".join(error.message for error in check.errors)},
        {"side": side, "errors": [error.as_dict() for error in check.errors]},
    )


def _final(cards: list[Card], removed: list[Card]) -> list[Card]:
    """The cards played: the deck's cards minus those the opponent removed (Constructed 2021)."""
    left = Counter(card.pk for card in removed)
    played = []
    for card in cards:
        if left[card.pk]:
            left[card.pk] -= 1
        else:
            played.append(card)
    return played


def simulation_deck_resolve(
    *, side: str, choice: DeckChoice, viewer: Viewer, champions: bool = False, mode: str = MODE
) -> ResolvedDeck:
    """A deck of a batch, legal for `mode` (a Constructed deck is not for Solo) and playable by
    the engine, or a 400 DomainError:
    `unknown_deck`, `invalid_deck_code`, `illegal_deck` (with the legality errors),
    `unknown_champion` (a deck code naming a Champion the requester may not see: the share id
    is theirs, so the answer is that of an unknown one), `unplayable_deck`; `details.side` says
    which deck by its letter (`a` for the first deck entered, `b`...)."""
    asked = [value for value in (choice.deck, choice.code, choice.preconstructed) if value]
    if len(asked) != 1:
        raise DomainError(
            "deck_required",
            _("Give deck %(side)s as one of: a deck, a deck code or a preconstructed deck.")
            % {"side": side.upper()},
            {"side": side},
        )
    champion = None
    if choice.deck:
        try:
            deck = deck_get(share_id=choice.deck, viewer=viewer)
        except DomainError as error:
            raise DomainError(
                "unknown_deck",
                _("There is no deck “%(id)s” you can use.") % {"id": choice.deck},
                {"side": side, "deck": choice.deck},
            ) from error
        # A Champion the requester may not see is no Champion of this deck for them: the deck
        # plays without it and the batch keeps no trace of it (not even in its code).
        check = deck_validate(deck, viewer=viewer, mode=_game_mode(mode))
        if not check.legal:
            raise _illegal(side, check)
        source, code, name = DeckSource.DECK, check.code or "", deck.name
        played = deck_final_cards(deck)
        if champions:
            champion = deck_champion(deck, viewer)
    elif choice.code:
        deck = None
        try:
            decoded = deck_decode(choice.code)
        except DomainError as error:
            raise _side_error(error, side) from error
        check = deck_check(
            format=decoded.format,
            cards=decoded.cards,
            removed=decoded.removed,
            champion=decoded.champion,
            mode=_game_mode(mode),
        )
        if not check.legal:
            raise _illegal(side, check)
        source, code = DeckSource.CODE, decoded.code
        name = _("Deck code %(code)s…") % {"code": decoded.code[:8]}
        played = _final(decoded.cards, decoded.removed)
        if champions and decoded.champion:
            try:
                champion = champion_for(uid=decoded.champion, viewer=viewer)
            except DomainError as error:
                raise _side_error(error, side) from error
    else:
        deck = None
        number = choice.preconstructed
        played = list(
            cards_with_details(Card.objects.filter(precon_deck=number)).order_by("mana", "slug")
        )
        if number not in PRECONSTRUCTED_NUMBERS or not played:
            raise DomainError(
                "unknown_deck",
                _("There is no preconstructed deck %(number)s (choose 1, 2, 3 or 4).")
                % {"number": number},
                {"side": side, "preconstructed": number},
            )
        source = DeckSource.PRECONSTRUCTED
        code = deck_code_for(
            format=format_get(slug=PRECONSTRUCTED_FORMAT), cards=played, champion=None
        )
        name = _("Preconstructed deck %(number)d") % {"number": number}
    resolved = ResolvedDeck(
        source=source,
        deck=deck,
        code=code,
        name=name,
        cards=deck_engine_definitions(played),
        slugs=[card.slug for card in played],
        champion=champion_engine_definition(champion) if champion else None,
        preconstructed=choice.preconstructed,
    )
    check_playable(side, resolved)
    return resolved


def _game_mode(mode: str) -> str:
    """The catalogue's game mode (`decks.models.GameMode` slug) of an engine mode: the engine's
    "free_for_all" is the catalogue's "free-for-all"."""
    return mode.replace("_", "-")


def check_playable(side: str, resolved: ResolvedDeck) -> None:
    """The engine's own deck rule (8 different cards) and its reading of every card, errors
    naming this side's deck (A or B)."""
    label = side.upper()
    try:
        cards = [
            CardDef.from_json(card, f"deck {label} card {i}")
            for i, card in enumerate(resolved.cards)
        ]
        validate_deck(cards, f"deck {label}")
        if resolved.champion:
            champion_from_json(resolved.champion, f"champion {label}")
    except InputError as error:
        raise DomainError(
            "unplayable_deck",
            _("The rules engine cannot play deck %(side)s: %(reason)s")
            % {"side": side.upper(), "reason": error},
            {"side": side, "reason": str(error)},
        ) from error


def solo_ai_deck_resolve(*, player: ResolvedDeck, seed: int) -> ResolvedDeck:
    """The AI's deck pile against `player` in a Solo test game (rule solo-setup; the choice is
    in docs/rulings.md): a preconstructed deck (asked for by number, or a deck made of exactly
    one preconstructed deck's cards) faces the cards of the 3 others; any other deck faces
    `SOLO_AI_CARDS` cards of its expansions (`_unheld_cards`). 400 `no_solo_opponent` when those
    expansions hold fewer other cards."""
    mine = list(Card.objects.filter(slug__in=player.slugs))
    numbers = {card.precon_deck for card in mine}
    number = player.preconstructed
    if number is None and len(numbers) == 1 and len(mine) == len(player.slugs):
        number = numbers.pop()
    if number is not None:
        pool = Card.objects.filter(precon_deck__isnull=False).exclude(precon_deck=number)
        cards = list(cards_with_details(pool).order_by("precon_deck", "mana", "slug"))
    else:
        cards = _unheld_cards(
            players=[player], count=SOLO_AI_CARDS, seed=seed, error="no_solo_opponent"
        )
    return _ai_deck(cards, _("The Solo AI"))


def coop_ai_deck_resolve(*, players: Sequence[ResolvedDeck], seed: int) -> ResolvedDeck:
    """The AI's 48 cards against the two players' decks of a Co-op test game of constructed
    decks (ruling CO9): `COOP_AI_CARDS` cards of the expansions the decks come from that
    neither deck holds (`_unheld_cards`). 400 `no_coop_opponent` when there are fewer."""
    cards = _unheld_cards(players=players, count=COOP_AI_CARDS, seed=seed, error="no_coop_opponent")
    return _ai_deck(cards, _("The Co-op AI"), DeckSource.COOP_AI)


def coop_invited_partner_check(*, player: ResolvedDeck) -> None:
    """A Preconstructed Co-op table whose partner is invited: whatever preconstructed deck the
    partner brings, its cards come from the preconstructed decks' expansions, so the AI's
    cards are at most those of the expansions of `player`'s deck and of the preconstructed
    decks that `player` does not hold (the partner may bring the same deck). Fewer than
    `COOP_AI_CARDS`: the table could never start, and is refused now with a 400
    `no_coop_opponent` (it was created, then every join failed: issue 29)."""
    held = set(player.slugs)
    expansions = set(
        Card.objects.filter(Q(slug__in=held) | Q(precon_deck__isnull=False)).values_list(
            "expansion_id", flat=True
        )
    )
    count = (
        Card.objects.filter(expansion__in=expansions, card_type__in=DECKABLE_TYPES)
        .exclude(slug__in=held)
        .count()
    )
    if count < COOP_AI_CARDS:
        raise DomainError(
            "no_coop_opponent",
            _(
                "The preconstructed decks' expansions hold %(count)d other cards: the Co-op AI "
                "needs %(needed)d, so this table could never start. Play Co-op as a Draft, or "
                "with Constructed decks from larger expansions."
            )
            % {"count": count, "needed": COOP_AI_CARDS},
            {"field": "seats", "count": count, "needed": COOP_AI_CARDS},
        )


def _unheld_cards(
    *, players: Sequence[ResolvedDeck], count: int, seed: int, error: str
) -> list[Card]:
    """`count` cards of the expansions the `players`' cards come from that no player holds, as
    if a Draft had given them to the AI, drawn with the batch's `seed`; a 400 `error` when there
    are fewer."""
    held = {slug for player in players for slug in player.slugs}
    expansions = set(Card.objects.filter(slug__in=held).values_list("expansion_id", flat=True))
    pool = Card.objects.filter(expansion__in=expansions, card_type__in=DECKABLE_TYPES).exclude(
        slug__in=held
    )
    candidates = list(cards_with_details(pool).order_by("slug"))
    if len(candidates) < count:
        raise DomainError(
            error,
            (
                _(
                    "The expansions of this deck hold %(count)d other cards: the Solo AI needs "
                    "%(needed)d."
                )
                if len(players) == 1
                else _(
                    "The expansions of these decks hold %(count)d other cards: the Co-op AI "
                    "needs %(needed)d."
                )
            )
            % {"count": len(candidates), "needed": count},
            {"field": "seats", "count": len(candidates), "needed": count},
        )
    return random.Random(seed).sample(candidates, count)


def _ai_deck(cards: list[Card], name: str, source: str = DeckSource.SOLO_AI) -> ResolvedDeck:
    return ResolvedDeck(
        source=source,
        deck=None,
        code="",
        name=name,
        cards=deck_engine_definitions(cards),
        slugs=[card.slug for card in cards],
        champion=None,
    )
