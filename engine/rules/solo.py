"""Solo mode: the set-up of the rulebook's automaton and its automatic turn.

The player (seat 0, "A") plays as in the Duel; the AI (seat 1, "AI") has an
:class:`~engine.rules.kingdom.AutomatonKingdom` (a deck pile over its Stronghold, a discard pile)
and makes no choice: its Phase 1 is a fixed plus a variable Mana (rule solo-mana), its Phase 2
reveals the top card of its pile onto its lines, upper then lower, until the value summoned
reaches its Mana (rule solo-summoning), its Phase 3 is the Duel's. The AI's exceptions to the
special abilities are variants registered per controller kind in the hook tables (here), or the
automaton Kingdom's own Stronghold methods where the AI is the one receiving a card or an attack
(engine.rules.kingdom). The readings of the rulebook are in docs/rulings.md ("Solo mode").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, cast

from engine.rules.abilities.costs import PAYMENT
from engine.rules.abilities.registry import (
    COUNTER_ORDER,
    PRICE_OF_BLOOD,
    SYMBIOTE,
    handler,
)
from engine.rules.cards import CardDef, Catalogue, validate_deck
from engine.rules.damage import Resolution
from engine.rules.errors import EngineLoop, InputError
from engine.rules.events import emit
from engine.rules.kingdom import AutomatonKingdom
from engine.rules.modes import AUTOMATON, Mode
from engine.rules.state import Creature, GameSetup, GameState, Options
from engine.rules.summoning import enter_play

# The seats of the Solo mode (engine.rules.modes.SOLO_MODE).
PLAYER: Final = 0
AI: Final = 1
PRECONSTRUCTED_DECKS: Final = 4
# Far above any real Phase 2 (each reveal takes a card off a pile of at most the game's cards);
# reaching it is an engine bug, never a rule.
MAX_REVEALS_PER_TURN: Final = 10_000


def validate_pile(deck: Sequence[CardDef], label: str) -> list[CardDef]:
    """The AI's cards (rule solo-setup): different cards, at least one (24 in the rulebook's
    set-ups; a scenario may give fewer)."""
    cards = list(deck)
    if not cards:
        raise InputError(f"{label}: the AI's deck pile needs at least one card")
    return validate_deck(cards, label, size=len(cards))


def check_solo(options: Options, champions: Sequence[CardDef | None] | None, mode: Mode) -> None:
    """What a Solo or Co-op game refuses before its set-up: a coin toss (the players begin unless
    ``ai.ai_first``), a Champion for an AI, a Champion in Quick Play (rule champion: "all game
    modes except solo mode - quick game": ``ai.champion`` says the players play one)."""
    ai = options.ai_options()
    label = "Solo" if mode.name == "solo" else "Co-op"
    if options.first_player is not None:
        raise InputError(
            f"options.first_player: in {label} the player begins, or the AI with ai.ai_first"
        )
    seats = mode.seats
    if champions is None or isinstance(champions, (str, bytes)) or len(champions) != len(seats):
        has_champion = False
    else:
        for seat, champion in zip(seats, champions, strict=True):
            if seat.controller == AUTOMATON and champion is not None:
                raise InputError("champions: the AI has no Champion (give None for it)")
        has_champion = any(champion is not None for champion in champions)
    if has_champion and not ai.champion:
        raise InputError(
            f"champions: a Champion in {label} is a Custom Play parameter (set ai.champion)"
        )
    if ai.champion and not has_champion:
        raise InputError("options.ai.champion: the player's Champion is missing (champions)")


def automaton_kingdom(setup: GameSetup, seat: int, pile: list[int], lanes: int) -> AutomatonKingdom:
    """The AI's Kingdom at set-up: the shuffled ``pile`` face down over its Stronghold, Bastion
    side up (the 2021 edition's Bastion-less AI: Fort side up), with its Custom Play Mana."""
    ai = setup.options.ai_options()
    kingdom = AutomatonKingdom(seat, pile, lanes)
    kingdom.fixed_mana = ai.fixed_mana
    kingdom.mana_per_enemy = ai.mana_per_creature
    kingdom.resistance = ai.resistance
    kingdom.fort = not ai.bastion
    return kingdom


def first_player(options: Options) -> int:
    """The player is the first player (rule solo-setup), unless Custom Play makes it the AI."""
    return AI if options.ai_options().ai_first else PLAYER


def preconstructed(catalogue: Catalogue, number: int) -> tuple[list[CardDef], list[CardDef]]:
    """Solo's Preconstructed set-up (rule solo-setup): the player's preconstructed deck
    ``number`` (1-4), and the cards of the 3 other preconstructed decks as the AI's 24 cards
    (shuffled into its pile by ``new_game``)."""
    if type(number) is not int or not 1 <= number <= PRECONSTRUCTED_DECKS:
        raise InputError(
            f"preconstructed deck: expected 1 to {PRECONSTRUCTED_DECKS}, not {number!r}"
        )
    others = [catalogue.precon(n) for n in range(1, PRECONSTRUCTED_DECKS + 1) if n != number]
    return catalogue.precon(number), [card for deck in others for card in deck]


def automaton_of(state: GameState, player: int) -> AutomatonKingdom:
    """``player``'s Kingdom, which the caller knows to be the AI's."""
    return cast(AutomatonKingdom, state.players[player])


# ---- the AI's Phase 2 (rule solo-summoning) -----------------------------------------------


def automaton_phase_2(state: GameState, player: int) -> None:
    """Reveal the top card onto the upper line, then, while the value summoned this turn is
    below the AI's Mana, the next ones onto the lower, upper... line (rule solo-summoning)."""
    value = 0
    reveals = 0
    while automaton_reveals_more(state, player, reveals, value):
        value += automaton_reveal(state, player, reveals)
        reveals += 1


def automaton_reveals_more(state: GameState, player: int, reveals: int, value: int) -> bool:
    """Whether the AI's Phase 2 reveals another card after ``reveals`` cards worth ``value``:
    always a first one, then while the value summoned is below its Mana (rule solo-summoning)."""
    return reveals == 0 or value < automaton_of(state, player).mana


def automaton_reveal(state: GameState, player: int, reveals: int) -> int:
    """The AI's Phase 2 reveal after ``reveals`` others: onto the upper line, then alternating
    (rule solo-summoning); returns the Mana value it spent."""
    if reveals >= MAX_REVEALS_PER_TURN:
        raise EngineLoop("the AI's Phase 2 did not end within its reveal budget")
    return reveal(state, player, reveals % state.setup.topology.lanes)


def reveal(state: GameState, player: int, lane: int, free: bool = False) -> int:
    """Reveal the AI's top card and summon it on ``lane``; returns the Mana value it spent.

    ``free``: summoned by Reinforcement, without paying (rule solo-reinforcement). A creature
    goes behind the AI's creatures (a Symbiote onto the AI's creature closest to the Bridge, rule
    solo-symbiote); an Incantation targets the enemy creature closest to the Bridge on that
    line. With no host or no target the card goes to the discard pile, spending nothing.
    """
    setup = state.setup
    kingdom = automaton_of(state, player)
    card = kingdom.pile.pop()
    if state.log is not None:
        emit(state.log, "reveal", card=card, player=player, line=lane)
    if setup.mask[card] & COUNTER_ORDER:
        card = _counter_order(state, kingdom, card)
    mask = setup.mask[card]
    host: Creature | None = None
    target: Creature | None = None
    if setup.creature[card]:
        if mask & SYMBIOTE:
            host = _symbiote_host(kingdom.lines[lane])
            if host is None:
                _discard(state, kingdom, card)
                return 0
    else:
        enemy, enemy_lane = setup.topology.facing[player][lane]
        enemy_line = state.players[enemy].lines[enemy_lane]
        if not enemy_line:
            _discard(state, kingdom, card)
            return 0
        target = enemy_line[0]
    value = 0
    if not free:
        if mask & PRICE_OF_BLOOD:
            # Costs the AI no Mana (rule solo-price-of-blood): the variant discards instead.
            # The card is held as resolving meanwhile: a payment that reveals the Fort ends the
            # game with the card still in a zone.
            state.resolving.append(card)
            PAYMENT.of(AUTOMATON)(state, player, card, setup.cost[card])
            state.resolving.pop()
        else:
            value = setup.cost[card]
    enter_play(state, player, card, lane if host is None else -1, host, target)
    return value


def _counter_order(state: GameState, kingdom: AutomatonKingdom, card: int) -> int:
    """COUNTER-ORDER revealed by the AI (rule solo-counter-order): the top card of its discard
    pile and the revealed card compare their Mana costs; the higher is put into play, the other
    goes to the discard pile; a tie (or no discard) changes nothing. Returns the card to play."""
    discard = kingdom.discard
    if not discard:
        return card
    other = discard[-1]
    cost = state.setup.cost
    if cost[other] <= cost[card]:
        return card
    discard[-1] = card
    if state.log is not None:
        emit(state.log, "ai_counter_order", card=card, target=other, player=kingdom.seat)
    return other


def _symbiote_host(line: list[Creature]) -> Creature | None:
    """The AI's creature closest to the Bridge on ``line`` that can take a Symbiote."""
    for creature in line:
        if not creature.eff & SYMBIOTE:
            return creature
    return None


def _discard(state: GameState, kingdom: AutomatonKingdom, card: int) -> None:
    """A revealed card with no host or no target: no effect, to the discard pile."""
    kingdom.discard.append(card)
    if state.log is not None:
        emit(state.log, "ai_discards", card=card, player=kingdom.seat)
    kingdom.check(state, card, kingdom.seat)


# ---- the AI's exceptions to the special abilities (rulebook, "AI exceptions") -------------


@handler("phase_1", "blackmail", AUTOMATON)
def blackmail(state: GameState, creature: Creature) -> int:
    """BLACKMAIL (rule solo-blackmail): as long as the bearer is in play, the AI has 1 less
    Mana."""
    return -1


@handler("on_play", "counter_order", AUTOMATON)
def counter_order(state: GameState, res: Resolution, side: tuple[int, int]) -> None:
    """COUNTER-ORDER (rule solo-counter-order): the AI has no hand to reorder; its Counter-order
    acted when the card was revealed (:func:`_counter_order`)."""


@handler("payment", "price_of_blood", AUTOMATON)
def price_of_blood(state: GameState, player: int, card: int, cost: int) -> None:
    """PRICE OF BLOOD (rule solo-price-of-blood): the card costs the AI 0 Mana; it discards as
    many cards from the top of its deck pile as the card's Mana cost, one at a time (a Bastion
    revealed on the way turns to the Fort, the rest comes from the new pile)."""
    if state.log is not None and cost:
        emit(state.log, "ai_price_of_blood", card=card, amount=cost)
    kingdom = state.players[player]
    for _ in range(cost):
        kingdom.damage(state, 1, card, player)


@handler("after_damage", "regeneration", AUTOMATON)
def regeneration(state: GameState, res: Resolution, destroyed: list[Creature]) -> None:
    """REGENERATION (rule solo-regeneration): if the AI's card dealt damage, the top card of its
    discard pile goes on top of its deck pile, once (nothing with an empty discard pile)."""
    if res.hits:
        state.players[res.player].heal(state)


@handler("returned", "reinforcement", AUTOMATON)
def reinforcement(state: GameState, player: int, lane: int, card: int) -> int:
    """REINFORCEMENT (rule solo-reinforcement): the bearer ``card`` put in the AI's discard pile
    (not on top of its deck pile: Cursed), the top card of its deck pile is summoned at once on
    the same line without paying. The AI summons it here, so no card of a hand is left to play
    (-1)."""
    kingdom = automaton_of(state, player)
    if kingdom.pile and card in kingdom.discard:
        if state.log is not None:
            emit(state.log, "reinforcement", player=player)
        reveal(state, player, lane, free=True)
    return -1
