"""Set-up, the start of a turn (Exhaustion, Phase 1) and the end of a turn."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from engine.rules import board
from engine.rules.abilities.registry import BLACKMAIL, CATALYST
from engine.rules.abilities.upkeep import PHASE_1
from engine.rules.assault import assault
from engine.rules.cards import CardDef, validate_deck
from engine.rules.champion import check_champions
from engine.rules.errors import GameOver, InputError
from engine.rules.events import emit
from engine.rules.kingdom import HandKingdom, Kingdom, hand_of
from engine.rules.modes import AUTOMATON, HAND, Mode, playable_mode
from engine.rules.solo import automaton_kingdom, automaton_phase_2, check_solo, validate_pile
from engine.rules.solo import first_player as solo_first_player
from engine.rules.state import NO_CARD, PLAYER_NAMES, SUMMONING, GameSetup, GameState, Options

_SETUP_CACHE_SIZE: Final = 256
EXHAUSTION_TURN: Final = 8
# The abilities of Phase 1 (Catalyst; Blackmail for the Solo AI).
PHASE_1_MASK: Final = CATALYST | BLACKMAIL


def new_game(
    decks: Sequence[Sequence[CardDef]],
    seed: object,
    options: Options | None = None,
    champions: Sequence[CardDef | None] | None = None,
) -> GameState:
    """Set up a game of ``options.mode`` (rule setup; the modes whose rules are written: the Duel,
    Solo, Free-For-All, Team Play and Co-op) and play the first player's start of turn and
    Phase 1.

    Solo (``Options(mode="solo", ai=AiOptions(...))``, rule solo-setup): ``decks`` are the
    player's 8 cards, then the AI's cards (shuffled into its deck pile); the player begins unless
    ``ai.ai_first``, and the AI's turns are played inside ``new_game`` and ``apply``, so the
    state always waits for the player.

    Co-op (``Options(mode="coop", ai=...)``, rule coop): ``decks`` in seat order, the players'
    8 cards at A and C and the AIs' piles at B and D (``engine.rules.coop.coop_decks``).

    ``seed``: a whole number (typed ``object`` since it is checked here, with a readable error).
    ``champions``: with ``options.champions``, one Champion definition (type ``champion``) or
    None per player; each starts ready, outside the Kingdoms (rule champion-setup).
    The returned state waits in the first player's Phase 2.
    """
    options = options or Options()
    mode = playable_mode(options.mode)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InputError(f"the seed must be a whole number, not {seed!r}")
    automaton = mode.seats[-1].controller == AUTOMATON
    if options.ai is not None and not automaton:
        raise InputError(f"options.ai: the {mode.name} mode has no AI")
    if len(decks) != len(mode.seats):
        raise InputError(
            f"mode {mode.name!r} needs {len(mode.seats)} decks, not {len(decks)}"
            + (" (the player's, then the AI's)" if automaton else "")
        )
    if options.first_player is not None and options.first_player >= len(mode.seats):
        raise InputError(f"mode {mode.name!r} has no player {PLAYER_NAMES[options.first_player]}")
    for p, deck in enumerate(decks):
        for card in deck:
            if type(card) is not CardDef:
                raise InputError(f"deck {PLAYER_NAMES[p]}: expected card definitions, not {card!r}")
    if automaton:
        check_solo(options, champions, mode)
    chosen = check_champions(champions, options, decks)
    setup = _setup(decks, options, mode, chosen)
    state = GameState(setup, random.Random(seed), log=options.log, stats=options.stats)
    lanes = mode.topology.lanes
    first_id = 0
    for p, deck in enumerate(setup.decks):
        cards = list(range(first_id, first_id + len(deck)))
        first_id += len(deck)
        # Each player shuffles their deck and takes it all in hand, Stronghold leftmost; the AI's
        # cards are shuffled into its face-down deck pile (rule solo-setup).
        state.rng.shuffle(cards)
        kingdom: Kingdom
        if mode.seats[p].controller == AUTOMATON:
            kingdom = automaton_kingdom(setup, p, cards, lanes)
        else:
            kingdom = HandKingdom(p, cards, lanes)
        kingdom.champion = setup.champion_id[p]
        state.players.append(kingdom)
    if automaton:
        first = solo_first_player(options)
    elif options.first_player is None:
        first = state.rng.randrange(len(mode.seats))  # the coin toss
    else:
        first = options.first_player
    state.first_player = first
    state.active = first
    if state.log is not None:
        emit(state.log, "setup", player=first)
    try:
        start_turn(state)
    except GameOver:
        # The AI plays its first turn at once when it begins (Solo, ai_first): it may end the
        # game. (No contextlib.suppress: a context manager per game costs the benchmarks.)
        return state
    return state


_setups: dict[tuple[int, ...], GameSetup] = {}


def _setup(
    decks: Sequence[Sequence[CardDef]],
    options: Options,
    mode: Mode,
    champions: tuple[CardDef | None, ...] | None,
) -> GameSetup:
    """The immutable set-up of ``decks``, shared by the games played with the same deck objects
    (a tournament or a benchmark does not rebuild and re-validate it game after game)."""
    key = tuple(map(id, decks))
    cached = _setups.get(key)
    if (
        cached is not None
        and cached.options == options
        and cached.champions == (champions or (None,) * len(decks))
        and all(tuple(deck) == kept for deck, kept in zip(decks, cached.decks, strict=True))
    ):
        return cached
    checked = [
        validate_deck(deck, f"deck {PLAYER_NAMES[p]}")
        if seat.controller == HAND
        else validate_pile(deck, f"deck {PLAYER_NAMES[p]}")
        for p, (deck, seat) in enumerate(zip(decks, mode.seats, strict=True))
    ]
    setup = GameSetup(checked, options, mode, champions)
    if len(_setups) >= _SETUP_CACHE_SIZE:
        _setups.clear()
    _setups[key] = setup
    return setup


def start_turn(state: GameState, automatic: bool = True, phase_2: bool = True) -> None:
    """The active player begins a turn: Exhaustion (before Phase 1), then Phase 1.

    The Solo AI then plays its Phase 2 (rule solo-summoning) and, if ``automatic``, its Phase 3
    and the end of its turn, so that the game waits for the player again; a scenario stops it
    before its Phase 3 (``automatic`` False, scenario format "Solo mode"), the replay viewer
    before its Phase 2 (``phase_2`` False: it reveals the cards one by one, to show each).
    """
    player = state.active
    pl = state.players[player]
    pl.turns += 1
    state.turn += 1
    if state.log is not None:
        emit(state.log, "turn", turn=state.turn, player=player, turns=pl.turns)
    controller = state.setup.controllers[player]
    # Exhaustion removes a card of the hand: the AI has none (docs/rulings.md, SO16).
    if pl.turns >= EXHAUSTION_TURN and state.setup.options.exhaustion and controller == HAND:
        exhaust(state, player)
    phase_1(state, player)
    state.phase = SUMMONING
    if controller == AUTOMATON and phase_2:
        automaton_phase_2(state, player)
        if automatic:
            assault(state)
            end_turn(state)


def exhaust(state: GameState, player: int) -> None:
    """Exhaustion: remove the rightmost card of the hand (never empty: that game is over)."""
    kingdom = hand_of(state, player)
    card = kingdom.take(len(kingdom.hand) - 1)
    kingdom.removed.append(card)
    if state.log is not None:
        emit(state.log, "exhaustion", card=card)
    kingdom.check(state, NO_CARD, -1)


def phase_1(state: GameState, player: int) -> None:
    """Mana = the Kingdom's (a hand: its cards, Stronghold included) + Catalyst; the very first
    turns of the first players get the mode's table instead (Duel: 6 for the first player)."""
    pl = state.players[player]
    setup = state.setup
    table = setup.mode.first_turn_mana
    position = setup.turn_position
    order = (position[player] - position[state.first_player]) % len(position)
    # The Solo AI's Phase 1 is always its own (rule solo-mana).
    if pl.turns == 1 and order < len(table) and setup.controllers[player] == HAND:
        mana = table[order]
    else:
        mana = pl.phase_1_mana(state)
    if setup.in_game & PHASE_1_MASK:
        board.refresh(state)
        bonuses = PHASE_1.by_controller[state.setup.controllers[player]]
        for line in pl.lines:
            for creature in line:
                for bit, bonus in bonuses:
                    if creature.eff & bit:
                        mana += bonus(state, creature)
    # Unspent Mana of an earlier turn is already lost.
    pl.mana = mana
    if state.log is not None:
        emit(state.log, "mana", player=player, mana=mana)


def end_turn(state: GameState, automatic: bool = True, phase_2: bool = True) -> None:
    """Creatures not destroyed heal, per-turn effects reset; the next player starts a turn."""
    for pl in state.players:
        for line in pl.lines:
            for creature in line:
                creature.damage = 0
                creature.new = False
                creature.protection_used = False
                creature.sharpened = False
    if state.spent_sharpening:
        state.spent_sharpening.clear()
    state.players[state.active].mana = 0
    state.active = state.setup.next_seat[state.active]
    start_turn(state, automatic, phase_2)
