"""Set-up and the turn: Combo, Verification, Recruitment, End of turn (rule turn-structure).

:func:`run` carries the game forward from any position until someone must decide: reactions
waiting, then the effect being resolved, then the phase's own steps (Verification and the end of
turn need no decision). ``new_game`` sets up a game and runs it to the first decision.
"""

from __future__ import annotations

from typing import Final

from engine.chaos import domain
from engine.chaos.cards import Box
from engine.chaos.errors import EngineLoop, InputError
from engine.chaos.events import emit
from engine.chaos.modes import HAND_SIZE, LOSS, mode_named
from engine.chaos.resolve import advance, draw, open_batch, push
from engine.chaos.state import (
    COMBO,
    MAIN,
    OVER,
    RECRUITMENT,
    ChaosState,
    Decision,
    Options,
    Setup,
)

# Steps of one run() without a decision: far above any real turn; beyond it, an engine bug.
STEP_BUDGET: Final = 200_000


def new_game(box: Box, seed: int, options: Options | None = None) -> ChaosState:
    """A game of ``box`` set up by ``seed`` (rules setup-domain, setup-players), waiting for the
    first player's first decision."""
    options = options or Options()
    mode = mode_named(options.mode)
    if options.first_player not in (None, 0, 1) or (options.first_player == 1 and mode.seats == 1):
        raise InputError(f"first_player: no seat {options.first_player!r} in mode {mode.name}")
    decks = box.decks[: mode.seats]
    cards = [card for deck in decks for card in deck]
    domain_cards = list(box.domain) if mode.domain else []
    interventions = list(box.interventions) if mode.domain else []
    setup = Setup(cards + domain_cards + interventions, mode, options, box)
    state = ChaosState(setup, seed)
    rng = state.rng
    # "Chaque joueur reçoit une pioche aléatoire": who gets the Emissaries 1 begins.
    first = options.first_player
    if first is None:
        first = rng.randrange(mode.seats)
    by_seat: list[list[int]] = [[] for _ in range(mode.seats)]
    start = 0
    for number, deck in enumerate(decks):
        ids = list(range(start, start + len(deck)))
        start += len(deck)
        rng.shuffle(ids)
        by_seat[(first + number) % mode.seats] = ids
    pile = list(range(start, start + len(domain_cards)))
    rng.shuffle(pile)
    start += len(domain_cards)
    begin(state, first, by_seat, pile, list(range(start, start + len(interventions))))
    return state


def begin(
    state: ChaosState,
    first: int,
    decks: list[list[int]],
    pile: list[int],
    interventions: list[int],
) -> None:
    """The set-up from shuffled cards: each seat's deck (top first), the Domain pile (top first)
    and the Interventions to insert into it; each player draws 5 and ``first`` begins."""
    state.setup.first_seat = first
    for seat, deck in enumerate(decks):
        for card in deck:
            state.owner[card] = seat
        state.players[seat].deck = list(deck)
    if state.setup.mode.domain:
        domain.build(state, pile, interventions)
    for seat in range(len(decks)):
        draw(state, seat, HAND_SIZE)
    if state.log is not None:
        emit(state.log, "setup", player=first)
    start_turn(state, first)
    run(state)


def start_turn(state: ChaosState, seat: int) -> None:
    """``seat`` begins a turn, unless the site's turn limit is reached (rule site-turn-limit)."""
    setup = state.setup
    if state.turn >= setup.turn_limit:
        state.phase = OVER
        state.decision = None
        state.winner = None
        if state.log is not None:
            code = "prologue_lost" if setup.mode.at_limit == LOSS else "turn_limit"
            emit(state.log, code, turns=setup.turn_limit)
        return
    state.turn += 1
    state.active = seat
    state.phase = COMBO
    state.players[seat].turns += 1
    if state.log is not None:
        emit(state.log, "turn", turn=state.turn, player=seat)


def usable_interventions(state: ChaosState) -> list[int]:
    """Rule intervention-effects: the active Interventions with an effect to use, not yet used
    by the active player this turn (the Awakening is lasting, not used)."""
    if state.phase != COMBO:
        return []
    used = state.players[state.active].used
    cards = state.setup.cards
    return [
        card
        for card in state.interventions
        if card not in used and cards[card].play is not None and not cards[card].awakening
    ]


def affordable(state: ChaosState) -> list[int]:
    """Rule recruitment: the available Domain cards costing at most the resources left."""
    left = state.players[state.active].resources()
    cost = state.setup.cost
    return [card for card in domain.available(state) if cost[card] <= left]


def run(state: ChaosState) -> None:
    """Go on until a decision is needed or the game is over."""
    for _ in range(STEP_BUDGET):
        if state.decision is not None or state.phase == OVER:
            return
        if state.triggers:
            open_batch(state)
        elif state.frames:
            advance(state)
        elif state.phase == COMBO:
            if state.players[state.active].hand or usable_interventions(state):
                state.decision = Decision(MAIN, state.active, "combo")
            else:
                verify(state)
        elif affordable(state):
            state.decision = Decision(MAIN, state.active, "recruitment")
        else:
            end_turn(state)
    raise EngineLoop(f"no decision after {STEP_BUDGET} steps")


def verify(state: ChaosState) -> None:
    """Rule verification: an empty deck after the Combo wins the game."""
    seat = state.active
    player = state.players[seat]
    if not player.deck:
        state.phase = OVER
        state.winner = seat
        if state.log is not None:
            emit(state.log, "win", player=seat)
        return
    if state.log is not None:
        emit(state.log, "verified", player=seat, count=len(player.deck))
    if not state.setup.mode.domain:
        end_turn(state)
        return
    state.phase = RECRUITMENT
    if state.log is not None:
        emit(state.log, "resources_count", player=seat, count=player.resources())


def end_turn(state: ChaosState) -> None:
    """Rule end-of-turn: the play zone and the discard pile, shuffled face down, go under the
    deck; draw 5; the other player's turn."""
    seat = state.active
    player = state.players[seat]
    gathered = player.played + player.recruited + player.discard
    player.played = []
    player.recruited = []
    player.discard = []
    state.rng.shuffle(gathered)
    player.deck.extend(gathered)
    if state.log is not None:
        drawn = min(HAND_SIZE, len(player.deck))
        emit(state.log, "end_turn", player=seat, count=len(gathered), drawn=drawn)
    draw(state, seat, HAND_SIZE)
    player.bonus = 0
    player.spent = 0
    player.awakened = False
    player.used = []
    start_turn(state, (seat + 1) % len(state.players))


def play_card(state: ChaosState, card: int, apply_effect: bool) -> None:
    """Rules combo and play-effect: the card goes face up to the play zone; its play effect,
    optional, is resolved as fully as possible once applied."""
    seat = state.active
    player = state.players[seat]
    player.hand.remove(card)
    player.played.append(card)
    if state.log is not None:
        emit(state.log, "play", player=seat, card=card)
    node = state.setup.play[card]
    if apply_effect and node is not None:
        if state.log is not None:
            emit(state.log, "effect", player=seat, card=card)
        push(state, node, seat, card)


def use_intervention(state: ChaosState, card: int) -> None:
    seat = state.active
    state.players[seat].used.append(card)
    if state.log is not None:
        emit(state.log, "use", player=seat, card=card)
    node = state.setup.play[card]
    assert node is not None
    push(state, node, seat, card)
