"""Set-up, the start of a turn (Exhaustion, Phase 1) and the end of a turn."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from engine.rules import board
from engine.rules.abilities.registry import CATALYST
from engine.rules.abilities.upkeep import PHASE_1
from engine.rules.cards import CardDef, validate_deck
from engine.rules.champion import check_champions
from engine.rules.errors import InputError
from engine.rules.events import emit
from engine.rules.kingdom import HandKingdom, hand_of
from engine.rules.modes import Mode, playable_mode
from engine.rules.state import NO_CARD, PLAYER_NAMES, SUMMONING, GameSetup, GameState, Options

_SETUP_CACHE_SIZE: Final = 256
EXHAUSTION_TURN: Final = 8


def new_game(
    decks: Sequence[Sequence[CardDef]],
    seed: object,
    options: Options | None = None,
    champions: Sequence[CardDef | None] | None = None,
) -> GameState:
    """Set up a game of ``options.mode`` (rule setup; only the Duel is playable yet) and play
    the first player's start of turn and Phase 1.

    ``seed``: a whole number (typed ``object`` since it is checked here, with a readable error).
    ``champions``: with ``options.champions``, one Champion definition (type ``champion``) or
    None per player; each starts ready, outside the Kingdoms (rule champion-setup).
    The returned state waits in the first player's Phase 2.
    """
    options = options or Options()
    mode = playable_mode(options.mode)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InputError(f"the seed must be a whole number, not {seed!r}")
    if len(decks) != len(mode.seats):
        raise InputError(f"a Duel needs {len(mode.seats)} decks, not {len(decks)}")
    for p, deck in enumerate(decks):
        for card in deck:
            if type(card) is not CardDef:
                raise InputError(f"deck {PLAYER_NAMES[p]}: expected card definitions, not {card!r}")
    chosen = check_champions(champions, options, decks)
    setup = _setup(decks, options, mode, chosen)
    state = GameState(setup, random.Random(seed), log=options.log, stats=options.stats)
    lanes = mode.topology.lanes
    first_id = 0
    for p, deck in enumerate(setup.decks):
        hand = list(range(first_id, first_id + len(deck)))
        first_id += len(deck)
        # Each player shuffles their deck and takes it all in hand, Stronghold leftmost.
        state.rng.shuffle(hand)
        kingdom = HandKingdom(p, hand, lanes)
        kingdom.champion = setup.champion_id[p]
        state.players.append(kingdom)
    if options.first_player is None:
        first = state.rng.randrange(len(mode.seats))  # the coin toss
    else:
        first = options.first_player
    state.first_player = first
    state.active = first
    if state.log is not None:
        emit(state.log, "setup", player=first)
    start_turn(state)
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
    checked = [validate_deck(deck, f"deck {PLAYER_NAMES[p]}") for p, deck in enumerate(decks)]
    setup = GameSetup(checked, options, mode, champions)
    if len(_setups) >= _SETUP_CACHE_SIZE:
        _setups.clear()
    _setups[key] = setup
    return setup


def start_turn(state: GameState) -> None:
    """The active player begins a turn: Exhaustion (before Phase 1), then Phase 1."""
    player = state.active
    pl = state.players[player]
    pl.turns += 1
    state.turn += 1
    if state.log is not None:
        emit(state.log, "turn", turn=state.turn, player=player, turns=pl.turns)
    if pl.turns >= EXHAUSTION_TURN and state.setup.options.exhaustion:
        exhaust(state, player)
    phase_1(state, player)
    state.phase = SUMMONING


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
    table = state.setup.mode.first_turn_mana
    order = (player - state.first_player) % len(state.players)
    mana = table[order] if pl.turns == 1 and order < len(table) else pl.phase_1_mana(state)
    if state.setup.in_game & CATALYST:
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


def end_turn(state: GameState) -> None:
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
    state.active = (state.active + 1) % state.setup.topology.players
    start_turn(state)
