"""The Champion module (rules champion, champion-setup, champion-summoning, champion-resummoning).

Each player may have one Champion: a creature card kept outside the Kingdoms instead of in the
hand (``Kingdom.champion``), summoned like a creature from there, exhausted instead of
returned when destroyed, readied when any player plays a card of exactly its Mana cost. Every
other rule treats it as the creature it is. The readings of the rulebook are in docs/rulings.md
("Champion module").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from engine.rules.cards import CHAMPION, CardDef, fold
from engine.rules.errors import InputError
from engine.rules.events import emit
from engine.rules.state import NO_CARD, PLAYER_NAMES, GameState, Options


def champion_from_json(data: Any, where: str = "champion") -> CardDef:
    """A Champion's definition from its JSON form (the form a replay stores):
    ``{"name", "type": "champion", "cost", "attack", "hp", "abilities": [...], "name_fr"}``,
    ``type`` optional. Abilities are catalogue codes, ``aura:CODE`` for the Aura."""
    if isinstance(data, Mapping) and "type" not in data:
        data = {**data, "type": CHAMPION}
    card = CardDef.from_json(data, where)
    if card.type != CHAMPION:
        raise InputError(f"{where}: {card.name!r} has type {card.type}, not {CHAMPION}")
    return card


def stand_in(card: CardDef) -> CardDef:
    """A creature card designated as a Champion (the rulebook's advice: "you can simply designate
    any Creature card which is not part of your Deck as your Champion")."""
    if card.type == CHAMPION:
        return card
    if not card.is_creature:
        raise InputError(f"{card.name!r} is an incantation; a Champion is a creature")
    return dataclasses.replace(card, type=CHAMPION)


def check_champions(
    champions: Sequence[CardDef | None] | None,
    options: Options,
    decks: Sequence[Sequence[CardDef]],
) -> tuple[CardDef | None, ...] | None:
    """The Champions of a new game, one per player (None: that player has none), or None."""
    if champions is None:
        return None
    if isinstance(champions, (str, bytes, Mapping)) or not isinstance(champions, Sequence):
        raise InputError("champions: expected one Champion (or None) per player")
    if len(champions) != len(decks):
        raise InputError(f"champions: expected {len(decks)} entries, one per player")
    for p, champion in enumerate(champions):
        label = f"champion of player {PLAYER_NAMES[p]}"
        if champion is None:
            continue
        if type(champion) is not CardDef:
            raise InputError(f"{label}: expected a card definition, not {champion!r}")
        if not options.champions:
            raise InputError(
                f"{label}: {champion.name!r} is given but the Champion module is off "
                "(Options(champions=True))"
            )
        if champion.type != CHAMPION:
            raise InputError(f"{label}: {champion.name!r} has type {champion.type}, not {CHAMPION}")
        # Readable actions name the cards: the Champion must not be mistaken for a deck card.
        if any(fold(card.name) == fold(champion.name) for card in decks[p]):
            raise InputError(
                f"{label}: {champion.name!r} has the name of a card of deck {PLAYER_NAMES[p]}"
            )
    if all(champion is None for champion in champions):
        return None
    return tuple(champions)


def summon_cost(state: GameState, player: int) -> int:
    """What summoning ``player``'s Champion costs now: its Mana cost minus 1 per creature card in
    play in "both Kingdoms" with exactly that cost (a Symbiote stack is two creature cards), never
    below 0. Both Kingdoms: ``player``'s and those sharing a line with it (the enemy in a Duel;
    at the 4-player table the two neighbours, not the Kingdom across the table: ruling C2)."""
    setup = state.setup
    cost_of = setup.cost
    cost = cost_of[setup.champion_id[player]]
    if not cost:
        return 0
    kingdoms = [player]
    for opponent, _lane in setup.topology.facing[player]:
        if opponent not in kingdoms:
            kingdoms.append(opponent)
    same = 0
    for seat in kingdoms:
        for line in state.players[seat].lines:
            for creature in line:
                if cost_of[creature.card] == cost:
                    same += 1
                if creature.symbiote >= 0 and cost_of[creature.symbiote] == cost:
                    same += 1
    return cost - same if same < cost else 0


def summonable(state: GameState, player: int) -> int:
    """The card id of ``player``'s Champion if it waits outside the Kingdoms, ready; else
    NO_CARD."""
    pl = state.players[player]
    if pl.champion_exhausted:
        return NO_CARD
    return pl.champion


def exhaust(state: GameState, card: int) -> None:
    """A destroyed Champion is exhausted and put back near the play area (not in a hand)."""
    owner = state.setup.champion_owner[card]
    pl = state.players[owner]
    pl.champion = card
    pl.champion_exhausted = True
    if state.log is not None:
        emit(state.log, "champion_exhausted", card=card, player=owner)


def ready(state: GameState, cost: int) -> None:
    """A card of Mana cost ``cost`` was played: every exhausted Champion of that cost is readied."""
    setup = state.setup
    for p, pl in enumerate(state.players):
        if pl.champion_exhausted and setup.cost[pl.champion] == cost:
            pl.champion_exhausted = False
            if state.log is not None:
                emit(state.log, "champion_readied", card=pl.champion, player=p)
