"""The rulebook's Draft procedures as data, and a step interface any table can drive.

    draft = new_draft(procedure, pool, seed)   # the pool shuffled into a deck pile by the seed
                                               # (None: the pool is the pile, top card first)
    pending(draft)                             # who picks, among which revealed cards, how many
    pick(draft, seat, cards)                   # one pick; bad input raises IllegalAction
    result(draft)                              # each seat's 8 cards and the AI's pile

A procedure is a table of rounds: each round reveals ``reveal`` cards of the pile and lists its
picks in order (seat, how many); the cards a round leaves go to the AI's pile when the procedure
has one (Solo, Co-op). The rounds repeat in turn until every seat has its 8 cards. A passing
procedure (the Mutation draft) deals the pile instead, ``reveal`` cards to each seat: each seat
takes one card of the hand in front of it and passes the rest to its left-hand neighbour (the
next seat) until the hands are empty, so several seats may pick at once (``pending_picks``) and
a seat waits only for the hand its right-hand neighbour has not passed yet. Cards are named by
their index in the pool (the card ids of the refusals). Every reading of the rulebook behind the
tables is a ruling D1-D7 of ``docs/rulings.md``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from engine.rules.cards import DECK_SIZE, CardDef, Catalogue, fold
from engine.rules.errors import IllegalAction, InputError


@dataclass(frozen=True, slots=True)
class Pick:
    """One step of a round: ``seat`` takes ``count`` of the revealed cards."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class Procedure:
    """One Draft procedure of the rulebook, as a row of :data:`PROCEDURES`."""

    code: str
    rule_id: str
    # Hand players drafting (the AI of Solo and Co-op is not a seat of the draft).
    seats: int
    # The pool: exactly ``pool_size`` cards, or at least it when ``pool_exact`` is False.
    pool_size: int
    pool_exact: bool
    reveal: int
    # The rounds of one cycle; the draft plays them in turn until every seat has its cards.
    rounds: tuple[tuple[Pick, ...], ...]
    # Whether what a round leaves goes to the AI's pile (else nothing is left: D2).
    ai_pile: bool
    # The cards each seat ends with: a deck of 8, or the Mutation draft's 16 to build one from.
    cards: int = DECK_SIZE
    # Whether the pile is dealt into one hand per seat that passes to the left (D7), instead of
    # rounds revealing cards to everyone.
    passing: bool = False


def _rounds(*orders: str) -> tuple[tuple[Pick, ...], ...]:
    """Rounds from the rulebook's picking orders ("ABBA": A, then B, B, then A), a repeated
    letter being one pick of several cards (the French "BCDAADCB": A takes 2)."""
    rounds = []
    for order in orders:
        picks: list[Pick] = []
        for letter in order:
            seat = "ABCD".index(letter)
            if picks and picks[-1].seat == seat:
                picks[-1] = Pick(seat, picks[-1].count + 1)
            else:
                picks.append(Pick(seat, 1))
        rounds.append(tuple(picks))
    return tuple(rounds)


PROCEDURES: Final[MappingProxyType[str, Procedure]] = MappingProxyType(
    {
        # EN 'Draft (intermediate level)': A 1 of 4, B 2 of 3, A the last; swapped each round (D1).
        "duel": Procedure("duel", "format-draft", 2, 16, False, 4, _rounds("ABBA", "BAAB"), False),
        # EN 'Setup of the Draft format' (Solo): keep 1 of 4, the 3 others to the AI (D3).
        "solo": Procedure("solo", "solo-setup", 1, 32, True, 4, _rounds("A"), True),
        # EN/FR 'Specifics of the 4-Player Draft', with FR's step 3 for the later rounds (D4).
        "four_players": Procedure(
            "four_players",
            "multiplayer-draft",
            4,
            32,
            True,
            8,
            _rounds("ABCDDCBA", "BCDAADCB", "CDABBADC", "DABCCBAD"),
            False,
        ),
        # EN/FR 'Specifics Draft in Co-op Mode': A 1 of 8, B 1 of 7 and 6 to the AI; swapped (D5).
        "coop": Procedure("coop", "coop", 2, 64, True, 8, _rounds("AB", "BA"), True),
        # FR 'Format Mutation': 16 of the 64 cards dealt to each player, who keeps one and passes
        # the rest to the left-hand neighbour until the hands are empty (D7). One pass: each seat
        # takes 1 card, in any order the hands allow.
        "mutation": Procedure(
            "mutation", "mutation", 4, 64, True, 16, _rounds("ABCD"), False, cards=16, passing=True
        ),
    }
)


@dataclass(frozen=True, slots=True)
class Pending:
    """What the draft waits for: ``seat`` chooses ``count`` of ``revealed`` (pool indices);
    ``gives_rest``: the cards left after this pick go to the AI. A passing draft: ``revealed``
    is the hand in front of the seat (in the order it was dealt), ``round`` the seat's pick
    number (from 0)."""

    seat: int
    revealed: tuple[int, ...]
    count: int
    gives_rest: bool
    round: int


class Draft:
    """A draft in progress (played on in place, like a game)."""

    def __init__(self, procedure: Procedure, pool: Sequence[CardDef], seed: int | None) -> None:
        self.procedure = procedure
        self.pool = tuple(pool)
        self.names = tuple(card.name for card in self.pool)
        order = list(range(len(self.pool)))
        if seed is not None:
            random.Random(seed).shuffle(order)
        # The deck pile, top card first.
        self.pile = order
        self.round = 0
        self.step = 0
        self.revealed: list[int] = []
        self.decks: list[list[int]] = [[] for _ in range(procedure.seats)]
        self.ai_pile: list[int] = []
        # A passing draft: the hand dealt to each seat (its cards nobody has taken yet, in the
        # order dealt); the pile is then empty.
        self.hands: list[list[int]] = []
        if procedure.passing:
            size = procedure.reveal
            self.hands = [
                self.pile[seat * size : (seat + 1) * size] for seat in range(procedure.seats)
            ]
            self.pile = self.pile[size * procedure.seats :]
        else:
            _reveal(self)


def _reveal(draft: Draft) -> None:
    """Reveal the next round's cards, unless every seat has its deck."""
    if all(len(deck) == draft.procedure.cards for deck in draft.decks):
        draft.revealed = []
        return
    reveal = draft.procedure.reveal
    draft.revealed, draft.pile = draft.pile[:reveal], draft.pile[reveal:]


def new_draft(procedure: str | Procedure, pool: Sequence[CardDef], seed: int | None) -> Draft:
    """A draft of ``procedure`` (a code of :data:`PROCEDURES` or a Procedure) from ``pool``,
    its deck pile shuffled by ``seed`` (None: a pile the table stacked, ``pool`` in order, top
    card first: a scenario, or physical cards shuffled by hand); an InputError for an unknown
    procedure or a pool that does not fit it (size, the same card twice: D6)."""
    if isinstance(procedure, str):
        if procedure not in PROCEDURES:
            raise InputError(
                f"unknown draft procedure {procedure!r} (choose from {', '.join(PROCEDURES)})"
            )
        procedure = PROCEDURES[procedure]
    size = len(pool)
    if size != procedure.pool_size and (procedure.pool_exact or size < procedure.pool_size):
        wanted = "" if procedure.pool_exact else "at least "
        raise InputError(
            f"the {procedure.code} draft takes {wanted}{procedure.pool_size} cards, not {size}"
        )
    seen: set[str] = set()
    for card in pool:
        key = fold(card.name)
        if key in seen:
            raise InputError(f"the draft pool holds {card.name} twice")
        seen.add(key)
    return Draft(procedure, pool, seed)


def catalogue_pool(catalogue: Catalogue, sets: str) -> list[CardDef]:
    """The creatures and Incantations of the catalogue's expansions ``sets`` ("00" the Initiation
    Pack, "01,02" two expansions for Co-op), in catalogue order."""
    codes = [code.strip() for code in sets.split(",") if code.strip()]
    known = {entry.set_code for entry in catalogue.cards}
    for code in codes:
        if code not in known:
            raise InputError(f"no expansion {code!r} (choose from {', '.join(sorted(known))})")
    if len(set(codes)) != len(codes) or not codes:
        raise InputError(f"name each expansion of the pool once: {sets!r}")
    return [entry.card for code in codes for entry in catalogue.cards if entry.set_code == code]


def pending(draft: Draft) -> Pending | None:
    """The pick the draft waits for (a passing draft: the first seat's that may pick now), or
    None once every seat has its cards."""
    if draft.procedure.passing:
        offers = pending_picks(draft)
        return offers[0] if offers else None
    if not draft.revealed:
        return None
    picks = draft.procedure.rounds[draft.round % len(draft.procedure.rounds)]
    step = picks[draft.step]
    last = draft.step == len(picks) - 1
    return Pending(
        step.seat,
        tuple(draft.revealed),
        step.count,
        last and draft.procedure.ai_pile and len(draft.revealed) > step.count,
        draft.round,
    )


def pending_picks(draft: Draft) -> tuple[Pending, ...]:
    """Every pick the draft waits for now, by seat: one, but in a passing draft each seat whose
    next hand has arrived; none once every seat has its cards."""
    if not draft.procedure.passing:
        waiting = pending(draft)
        return () if waiting is None else (waiting,)
    offers = (pending_for(draft, seat) for seat in range(draft.procedure.seats))
    return tuple(offer for offer in offers if offer is not None)


def pending_for(draft: Draft, seat: int) -> Pending | None:
    """The pick ``seat`` may make now; None when it has all its cards or must wait (a passing
    draft: for the hand its right-hand neighbour has not passed yet)."""
    procedure = draft.procedure
    if not procedure.passing:
        waiting = pending(draft)
        return waiting if waiting is not None and waiting.seat == seat else None
    made = len(draft.decks[seat])
    if made >= procedure.cards or (made and len(draft.decks[right_of(procedure, seat)]) < made):
        return None
    count = next(step.count for step in procedure.rounds[0] if step.seat == seat)
    hand = draft.hands[hand_origin(procedure, seat, made)]
    return Pending(seat, tuple(hand), count, False, made)


def left_of(procedure: Procedure, seat: int) -> int:
    """The seat a passing draft's ``seat`` passes its hands to: its left-hand neighbour."""
    return (seat + 1) % procedure.seats


def right_of(procedure: Procedure, seat: int) -> int:
    """The seat that passes its hands to ``seat``: its right-hand neighbour."""
    return (seat - 1) % procedure.seats


def hand_origin(procedure: Procedure, seat: int, number: int) -> int:
    """The seat dealt the hand that ``seat``'s pick ``number`` (from 0) takes from: its own
    first, then its right-hand neighbour's, and on round the table."""
    return (seat - number) % procedure.seats


def pick(draft: Draft, seat: int, cards: Sequence[int]) -> None:
    """``seat`` takes ``cards`` (pool indices) of the revealed ones (a passing draft: of the
    hand in front of it); the draft is unchanged when an IllegalAction says why not (not their
    pick, a hand not passed yet, a card not revealed, the wrong count)."""
    procedure = draft.procedure
    waiting = pending(draft)
    rule = procedure.rule_id
    names = draft.names
    if waiting is None:
        raise IllegalAction("draft_over", names, rule=rule)
    if procedure.passing and 0 <= seat < procedure.seats:
        offer = pending_for(draft, seat)
        if offer is None and len(draft.decks[seat]) >= procedure.cards:
            raise IllegalAction("draft_seat_done", names, rule=rule, player=seat)
        if offer is None:
            raise IllegalAction(
                "draft_hand_not_passed",
                names,
                rule=rule,
                player=seat,
                expected=right_of(procedure, seat),
            )
        waiting = offer
    if seat != waiting.seat:
        raise IllegalAction(
            "draft_not_your_pick", names, rule=rule, expected=waiting.seat, player=seat
        )
    if len(cards) != waiting.count:
        raise IllegalAction(
            "draft_wrong_count", names, rule=rule, count=waiting.count, given=len(cards)
        )
    chosen: set[int] = set()
    for card in cards:
        if card not in waiting.revealed:
            raise IllegalAction("draft_not_revealed", names, rule=rule, card=card)
        if card in chosen:
            raise IllegalAction("draft_same_card", names, rule=rule, card=card)
        chosen.add(card)
    draft.decks[seat].extend(cards)
    if procedure.passing:
        # The rest of the hand stays where it is until the seat's left-hand neighbour takes it.
        origin = hand_origin(procedure, seat, waiting.round)
        draft.hands[origin] = [card for card in draft.hands[origin] if card not in chosen]
        return
    draft.revealed = [card for card in draft.revealed if card not in chosen]
    draft.step += 1
    picks = procedure.rounds[draft.round % len(procedure.rounds)]
    if draft.step == len(picks):
        # What the round leaves goes to the AI (Solo, Co-op); the other procedures leave nothing.
        draft.ai_pile.extend(draft.revealed)
        draft.round += 1
        draft.step = 0
        _reveal(draft)


def restore(draft: Draft, decks: Sequence[Sequence[int]]) -> None:
    """A passing draft just dealt, brought to where a table that checked every pick with
    :func:`pick` when it was made stands: each seat's picks ``decks`` (pool indices, in the
    order taken), which leave the hands they were dealt in. An InputError for picks no draft
    could hold (a card outside the pool or taken twice, too many for a seat)."""
    procedure = draft.procedure
    if not procedure.passing or any(draft.decks):
        raise InputError("only a passing draft just dealt is restored from its picks")
    if len(decks) != procedure.seats:
        raise InputError(f"the {procedure.code} draft has {procedure.seats} seats")
    taken: set[int] = set()
    for seat, deck in enumerate(decks):
        if len(deck) > procedure.cards:
            raise InputError(f"seat {seat} holds more than {procedure.cards} cards")
        for card in deck:
            if not 0 <= card < len(draft.pool) or card in taken:
                raise InputError(f"card {card} is outside the pool or taken twice")
            taken.add(card)
        draft.decks[seat] = list(deck)
    draft.hands = [[card for card in hand if card not in taken] for hand in draft.hands]


@dataclass(frozen=True, slots=True)
class DraftResult:
    # Each seat's cards (8; the Mutation draft's 16, which its player builds a deck of 8 from).
    decks: tuple[tuple[CardDef, ...], ...]
    # The AI's pile (Solo: 24 cards, Co-op: 48), in the order it received them.
    ai_pile: tuple[CardDef, ...]
    # The cards never revealed (a Draft format pool larger than 16).
    unused: tuple[CardDef, ...]


def result(draft: Draft) -> DraftResult:
    """Each seat's cards and the AI's pile; an InputError while picks are still pending."""
    if pending(draft) is not None:
        raise InputError("the draft is not over yet")
    pool = draft.pool
    return DraftResult(
        tuple(tuple(pool[card] for card in deck) for deck in draft.decks),
        tuple(pool[card] for card in draft.ai_pile),
        tuple(pool[card] for card in draft.pile),
    )


__all__ = [
    "PROCEDURES",
    "Draft",
    "DraftResult",
    "Pending",
    "Pick",
    "Procedure",
    "catalogue_pool",
    "hand_origin",
    "left_of",
    "new_draft",
    "pending",
    "pending_for",
    "pending_picks",
    "pick",
    "restore",
    "result",
    "right_of",
]
