"""Set-up, the start of a turn (Exhaustion, Phase 1) and the end of a turn."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.rules import board, stronghold
from engine.rules.abilities import upkeep  # noqa: F401 - registers Catalyst
from engine.rules.abilities.registry import CATALYST, hook_table
from engine.rules.cards import CardDef, validate_deck
from engine.rules.champion import check_champions
from engine.rules.errors import InputError, NotSupported
from engine.rules.state import (
    DUEL,
    PLAYER_NAMES,
    SUMMONING,
    GameSetup,
    GameState,
    Options,
    PlayerState,
)

FIRST_TURN_MANA = 6
_SETUP_CACHE_SIZE = 256
EXHAUSTION_TURN = 8

PHASE_1 = hook_table("phase_1", ("catalyst",))


def new_game(
    decks: Sequence[Sequence[CardDef]],
    seed: object,
    options: Options | None = None,
    champions: Sequence[CardDef | None] | None = None,
) -> GameState:
    """Set up a Duel (rule setup) and play the first player's start of turn and Phase 1.

    ``seed``: a whole number (typed ``object`` since it is checked here, with a readable error).
    ``champions``: with ``options.champions``, one Champion definition (type ``champion``) or
    None per player; each starts ready, outside the Kingdoms (rule champion-setup).
    The returned state waits in the first player's Phase 2.
    """
    options = options or Options()
    if options.mode != "duel":
        raise NotSupported(f"mode {options.mode!r} is not supported yet (only 'duel')")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InputError(f"the seed must be a whole number, not {seed!r}")
    if len(decks) != DUEL.players:
        raise InputError(f"a Duel needs 2 decks, not {len(decks)}")
    for p, deck in enumerate(decks):
        for card in deck:
            if type(card) is not CardDef:
                raise InputError(f"deck {PLAYER_NAMES[p]}: expected card definitions, not {card!r}")
    chosen = check_champions(champions, options, decks)
    setup = _setup(decks, options, chosen)
    state = GameState(setup, random.Random(seed), log=options.log, stats=options.stats)
    first_id = 0
    for p, deck in enumerate(setup.decks):
        hand = list(range(first_id, first_id + len(deck)))
        first_id += len(deck)
        # Each player shuffles their deck and takes it all in hand, Stronghold leftmost.
        state.rng.shuffle(hand)
        pl = PlayerState(hand, DUEL.lanes)
        pl.champion = setup.champion_id[p]
        state.players.append(pl)
    if options.first_player is None:
        first = state.rng.randrange(DUEL.players)  # the coin toss
    else:
        first = options.first_player
    state.first_player = first
    state.active = first
    if state.log is not None:
        state.log.append(f"Set-up: {PLAYER_NAMES[first]} plays first.")
    start_turn(state)
    return state


_setups: dict[tuple[int, ...], GameSetup] = {}


def _setup(
    decks: Sequence[Sequence[CardDef]],
    options: Options,
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
    setup = GameSetup(checked, options, DUEL, champions)
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
        state.log.append(f"Turn {state.turn}: {PLAYER_NAMES[player]} (their turn {pl.turns}).")
    if pl.turns >= EXHAUSTION_TURN and state.setup.options.exhaustion:
        exhaust(state, player)
    phase_1(state, player)
    state.phase = SUMMONING


def exhaust(state: GameState, player: int) -> None:
    """Exhaustion: remove the rightmost card of the hand (never empty: that game is over)."""
    pl = state.players[player]
    card = stronghold.take(pl, len(pl.hand) - 1)
    pl.removed.append(card)
    if state.log is not None:
        state.log.append(f"Exhaustion: {state.setup.names[card]} is removed from the game.")
    stronghold.check(state, player)


def phase_1(state: GameState, player: int) -> None:
    """Mana = cards in hand, Stronghold included (6 on the first player's first turn) + Catalyst."""
    pl = state.players[player]
    first = player == state.first_player and pl.turns == 1
    mana = FIRST_TURN_MANA if first else len(pl.hand) + 1
    if state.setup.in_game & CATALYST:
        board.refresh(state)
        for line in pl.lines:
            for creature in line:
                for bit, bonus in PHASE_1:
                    if creature.eff & bit:
                        mana += bonus(state, creature)
    # Unspent Mana of an earlier turn is already lost.
    pl.mana = mana
    if state.log is not None:
        state.log.append(f"Phase 1: {PLAYER_NAMES[player]} has {mana} Mana.")


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
