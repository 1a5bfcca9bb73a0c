"""Helpers shared by the engine tests: invariants checked after every action, small positions,
and the checked game loop of the fuzz tests."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engine.rules.actions import Action, apply, from_json, legal_actions, to_json
from engine.rules.agents import Agent
from engine.rules.cards import CardDef, load_catalogue
from engine.rules.champion import stand_in
from engine.rules.coop import drafted_decks
from engine.rules.drafters import DRAFTERS, run_draft
from engine.rules.drafts import catalogue_pool
from engine.rules.errors import IllegalAction
from engine.rules.events import render_log
from engine.rules.kingdom import AutomatonKingdom, HandKingdom, hand_of
from engine.rules.replay import Replay, save
from engine.rules.solo import preconstructed
from engine.rules.state import NO_CARD, OVER, SUMMONING, GameSetup, GameState, Options
from engine.rules.turn import new_game

REPLAYS = Path(__file__).resolve().parent / "replays"


def english_log(state: GameState) -> list[str]:
    """The game's event log as the engine renders it in English."""
    assert state.log is not None
    return render_log(state.log, state.setup.names)


def hands(state: GameState) -> list[HandKingdom]:
    """The Kingdoms of a Duel's hand players, in seat order."""
    return [hand_of(state, p) for p in range(len(state.players))]


def zones(state: GameState) -> list[int]:
    """Every card id found in a zone (hands, lines with Symbiotes and enchained cards, removed,
    an Incantation resolving, a Champion outside the Kingdoms); each must appear exactly once."""
    found: list[int] = []
    for pl in state.players:
        if isinstance(pl, AutomatonKingdom):
            # The Solo/Co-op AI: its deck pile and its discard pile instead of a hand.
            found.extend(pl.pile)
            found.extend(pl.discard)
        else:
            assert isinstance(pl, HandKingdom)
            found.extend(pl.hand)
        found.extend(pl.removed)
        if pl.champion >= 0:
            found.append(pl.champion)
        for line in pl.lines:
            for c in line:
                found.append(c.card)
                if c.symbiote >= 0:
                    found.append(c.symbiote)
                found.extend(card for card, _ in c.chained)
    found.extend(state.resolving)
    return found


def check_invariants(state: GameState) -> None:
    cards = len(state.setup.cards)
    found = zones(state)
    assert sorted(found) == list(range(cards)), f"cards not in exactly one zone: {sorted(found)}"
    for p, pl in enumerate(state.players):
        if isinstance(pl, AutomatonKingdom):
            # The AI's Stronghold under its pile: the Fort revealed under an empty pile ends it.
            if state.phase != OVER:
                assert pl.pile or not pl.fort, f"player {p}: Fort revealed but game not over"
        else:
            assert isinstance(pl, HandKingdom)
            # One Stronghold per hand, somewhere in it; alive unless the game is over.
            where = f"player {p}: Stronghold at {pl.sh} of {len(pl.hand)}"
            assert 0 <= pl.sh <= len(pl.hand), where
            if state.phase != OVER:
                assert pl.sh < len(pl.hand), f"player {p}: Stronghold rightmost but game not over"
        assert pl.mana >= 0, f"player {p}: negative Mana {pl.mana}"
        for lane, line in enumerate(pl.lines):
            for c in line:
                assert c.lane == lane and c.owner == p
                if state.phase != OVER:
                    assert c.damage < c.hp, f"creature {c.card} alive with {c.damage}/{c.hp}"
    if state.phase != OVER:
        assert not state.resolving
        assert state.outcome is None
    check_champions(state)
    copy = state.copy()
    assert copy == state


def check_champions(state: GameState) -> None:
    """A Champion is outside the Kingdoms (ready or exhausted) or in play in its owner's Kingdom,
    never in a hand, removed, enchained or resolving; exhausted only while outside."""
    setup = state.setup
    for p, pl in enumerate(state.players):
        champion = setup.champion_id[p]
        assert pl.champion in (NO_CARD, champion), f"player {p}: wrong Champion {pl.champion}"
        if pl.champion_exhausted:
            assert pl.champion == champion >= 0, f"player {p}: exhausted Champion in play"
        if champion < 0:
            continue
        assert setup.champion_owner[champion] == p
        elsewhere = [*pl.removed, *state.resolving]
        for q in state.players:
            assert isinstance(q, HandKingdom)
            elsewhere.extend(q.hand)
            for line in q.lines:
                for c in line:
                    elsewhere.extend(card for card, _ in c.chained)
                    if q is not pl:
                        elsewhere.extend((c.card, c.symbiote))
        assert champion not in elsewhere, f"player {p}: Champion {champion} out of place"
        in_play = [c for line in pl.lines for c in line if champion in (c.card, c.symbiote)]
        assert len(in_play) == (0 if pl.champion >= 0 else 1), f"player {p}: Champion lost"


def filler_deck(prefix: str, size: int = 8) -> list[CardDef]:
    return [CardDef(f"{prefix}{i}", "creature", 1, 1, 1) for i in range(size)]


def position(hand: int, sh: int, fort: bool, opponent_hand: int = 3) -> GameState:
    """A Duel position in A's Phase 2: A holds ``hand`` cards with the Stronghold at ``sh``."""
    setup = GameSetup([filler_deck("A", hand), filler_deck("B", opponent_hand)], Options())
    state = GameState(setup, random.Random(0))
    a = HandKingdom(0, list(range(hand)), 2)
    a.sh, a.fort = sh, fort
    b = HandKingdom(1, list(range(hand, hand + opponent_hand)), 2)
    state.players = [a, b]
    state.phase = SUMMONING
    return state


def play_checked(
    decks: Sequence[Sequence[CardDef]],
    seed: int,
    agents: Sequence[Agent],
    options: Options,
    label: str,
    max_actions: int = 3000,
    replays: Path = REPLAYS,
    champions: Sequence[CardDef | None] | None = None,
) -> tuple[GameState, list[Action]]:
    """Play a game checking the invariants after every action; on any failure save the game as a
    replay under ``replays`` (tests/engine/replays/: a regression test from then on) and fail."""
    state = new_game(decks, seed, options, champions)
    readable: list[Any] = []
    actions: list[Action] = []
    try:
        check_invariants(state)
        while state.outcome is None and len(actions) < max_actions:
            action = agents[state.active].choose(state)
            assert action in legal_actions(state), f"agent chose an illegal action {action}"
            readable.append(to_json(state, action))
            actions.append(action)
            apply(state, action)
            check_invariants(state)
        replayed = new_game(decks, seed, options, champions)
        for action in actions:
            apply(replayed, action)
        assert replayed == state, "replaying the actions does not reproduce the final state"
    except Exception:
        replays.mkdir(exist_ok=True)
        replay = Replay(
            seed,
            tuple(tuple(d) for d in decks),
            options,
            tuple(readable),
            champions=None if champions is None else tuple(champions),
        )
        save(replays / f"fuzz-{label}-{seed}.json", replay)
        raise
    return state, actions


def precon_decks(a: int = 1, b: int = 2) -> list[list[CardDef]]:
    """Preconstructed decks ``a`` and ``b``: fresh lists, a test may change them."""
    catalogue = load_catalogue()
    return [catalogue.precon(a), catalogue.precon(b)]


def catalogue_cards(kind: str | None = None) -> list[CardDef]:
    """Every catalogue card (of type ``kind`` if given), in catalogue order."""
    cards = [entry.card for entry in load_catalogue().cards]
    return cards if kind is None else [card for card in cards if card.type == kind]


def random_decks(rng: random.Random, pool: Sequence[CardDef] | None = None) -> list[list[CardDef]]:
    """Two 8-card decks sampled from ``pool`` (the whole catalogue by default), A's first."""
    cards = catalogue_cards() if pool is None else pool
    return [rng.sample(cards, 8), rng.sample(cards, 8)]


def stand_in_champions(
    rng: random.Random, decks: Sequence[Sequence[CardDef]], creatures: Sequence[CardDef]
) -> list[CardDef]:
    """Per deck, a catalogue creature not in it as the rulebook's stand-in Champion."""
    return [stand_in(rng.choice([c for c in creatures if c not in deck])) for deck in decks]


def refused(state: GameState, data: Any) -> IllegalAction:
    """The IllegalAction the readable action ``data`` raises; the position is left unchanged."""
    before = state.copy()
    with pytest.raises(IllegalAction) as raised:
        apply(state, from_json(state, data))
    assert state == before
    return raised.value


@cache
def mode_decks(mode: str) -> tuple[tuple[tuple[CardDef, ...], ...], ...]:
    """Four set-ups of ``mode`` (decks by seat): pairs of preconstructed decks ("duel",
    "champions"), Solo's preconstructed set-ups, Co-op's drafted by price from expansions 01 and
    02 (as bench/engine_bench.py's), the four preconstructed decks rotated (Free-For-All, Team
    Play)."""
    catalogue = load_catalogue()
    precons = [tuple(catalogue.precon(n)) for n in (1, 2, 3, 4)]
    if mode in ("duel", "champions"):
        return tuple((precons[a], precons[b]) for a, b in ((0, 1), (1, 2), (2, 3), (3, 0)))
    if mode == "solo":
        return tuple(
            tuple(tuple(deck) for deck in preconstructed(catalogue, n)) for n in (1, 2, 3, 4)
        )
    if mode == "coop":
        pool = catalogue_pool(catalogue, "01,02")
        return tuple(
            tuple(
                tuple(deck)
                for deck in drafted_decks(
                    run_draft("coop", pool, seed, [DRAFTERS["price"](0)] * 2), seed
                )
            )
            for seed in range(4)
        )
    return tuple(tuple(precons[shift:] + precons[:shift]) for shift in range(4))


@cache
def mode_champions() -> tuple[CardDef, ...]:
    """Per set-up of ``mode_decks``, a Champion: the first catalogue creature of cost 3, 4, 5, 6
    in no preconstructed deck (as bench/engine_bench.py designates them)."""
    used = {card.name for deck in mode_decks("duel") for cards in deck for card in cards}
    catalogue = load_catalogue()
    return tuple(
        stand_in(
            next(
                entry.card
                for entry in catalogue.cards
                if entry.card.type == "creature"
                and entry.card.cost == cost
                and entry.card.name not in used
            )
        )
        for cost in (3, 4, 5, 6)
    )
