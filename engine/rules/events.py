"""What happened and what was refused, as codes with arguments instead of sentences.

The engine records an :class:`Event` (a code and its arguments: cards by card id, players by seat,
lines by lane, numbers as they are) and raises :class:`~engine.rules.errors.IllegalAction` with a
refusal code and arguments; neither holds a sentence. Each code has one English template here,
``str.format`` style with the argument names, and the rule id it belongs to. The CLI, the scenario
runner and the tests read the English rendering; the web app renders the same codes and arguments
in its own languages with gettext, so no translation lives in the engine. An argument no template
uses (the source of a damage instance) is still recorded: it is part of what happened.

Events are built only when the game keeps a log (``Options(log=True)``): the rules test
``state.log is not None`` first, so a game without a log pays nothing for them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

PLAYER_NAMES: Final = ("A", "B", "C", "D")
LINE_NAMES: Final = ("top", "bottom")

# Argument names that hold a card id, a seat or a lane (the rest are shown as they are).
CARD_ARGS: Final = frozenset({"card", "target", "host"})
SEAT_ARGS: Final = frozenset({"player", "owner", "loser", "winner", "expected"})
LANE_ARGS: Final = frozenset({"line"})

Arg = int | str


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened: a code of :data:`EVENTS` and its arguments, in order."""

    code: str
    args: tuple[tuple[str, Arg], ...]

    @property
    def rule_id(self) -> str:
        """The rule the event belongs to (``rule_ids``)."""
        return EVENTS[self.code][0]

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "args": dict(self.args)}


def emit(log: list[Event], code: str, **args: Arg) -> None:
    """Record event ``code`` (call it only when the game keeps a log)."""
    log.append(Event(code, tuple(args.items())))


# code: (rule id, English template).
EVENTS: Final[MappingProxyType[str, tuple[str, str]]] = MappingProxyType(
    {
        "setup": ("setup", "Set-up: {player} plays first."),
        "turn": ("turn-structure", "Turn {turn}: {player} (their turn {turns})."),
        "exhaustion": ("exhaustion", "Exhaustion: {card} is removed from the game."),
        "mana": ("phase-1-mana", "Phase 1: {player} has {mana} Mana."),
        "play_line": ("creature-placement", "{player} plays {card} on the {line} line."),
        "play_onto": ("ability-symbiote", "{player} plays {card} onto {host}."),
        "cast": ("incantation", "{player} casts {card} on {target} ({owner})."),
        "assault": ("phase-3-assault", "{player} assaults."),
        "attack_stronghold": ("phase-3-assault", "{card} ({player}) attacks the Stronghold."),
        "attack": ("attacking-a-creature", "{card} ({player}) attacks {target}."),
        "damage": (
            "attacking-a-creature",
            "{card} ({player}) takes {amount} damage ({damage}/{hp}).",
        ),
        "destroyed": ("attacking-a-creature", "{card} ({player}) is destroyed."),
        "returns_right": (
            "attacking-a-creature",
            "{card} returns to the right of {player}'s hand.",
        ),
        "returns_left": ("ability-cursed", "{card} returns to the left of {player}'s hand."),
        "returns_discard": ("stronghold", "{card} goes to {player}'s discard pile."),
        "returns_pile": ("solo-stronghold", "{card} goes on top of {player}'s deck pile."),
        "reveal": ("solo-summoning", "{player} reveals {card} for the {line} line."),
        "ai_discards": (
            "solo-summoning",
            "{card} has no host or no target: it goes to {player}'s discard pile.",
        ),
        "ai_counter_order": (
            "solo-counter-order",
            "Counter-order: {target} costs more than {card}; it is put into play and {card} "
            "goes to {player}'s discard pile.",
        ),
        "ai_price_of_blood": (
            "solo-price-of-blood",
            "Price of Blood: {card} costs the AI no Mana; it discards {amount} cards.",
        ),
        "stronghold_damage": (
            "stronghold",
            "{player}'s Stronghold takes {amount} damage ({hp} HP left).",
        ),
        "bastion_destroyed": ("stronghold", "{player}'s Bastion is destroyed: the Fort is up."),
        "pile_reshuffled": (
            "stronghold",
            "{player}'s Bastion is revealed: the Fort is up and the discard pile, shuffled, "
            "is the new deck pile ({hp} cards).",
        ),
        "regenerates": ("ability-regeneration", "{player}'s Stronghold regenerates ({hp} HP)."),
        "lost_empty_hand": (
            "game-end",
            "{loser} loses: only the Stronghold is left in hand. {winner} wins.",
        ),
        "lost_fort": (
            "game-end",
            "{loser} loses: the Fort reached the rightmost position of the hand. {winner} wins.",
        ),
        "lost_pile": (
            "game-end",
            "{loser} loses: the deck pile is empty with the Fort revealed. {winner} wins.",
        ),
        "champion_exhausted": (
            "champion-resummoning",
            "{card}, {player}'s Champion, is exhausted.",
        ),
        "champion_readied": ("champion-resummoning", "{card}, {player}'s Champion, is readied."),
        "instinct": ("ability-instinct", "Instinct: {card} strikes back."),
        "reinforcement": ("ability-reinforcement", "Reinforcement of {player}:"),
        "released": ("ability-enchain", "{card} is released to {player}'s hand."),
        "enchain": ("ability-enchain", "Enchain: {card} is taken from {player}'s hand."),
        "sharpening": (
            "ability-sharpening",
            "Sharpening: {amount} excess damage to the Stronghold.",
        ),
        "protection": ("ability-protection", "{card}'s Protection absorbs {amount} damage."),
        "price_of_blood": (
            "ability-price-of-blood",
            "Price of Blood: {amount} missing Mana paid with the Stronghold.",
        ),
        "immolation": ("ability-immolation", "Immolation of {card}."),
        "backlash": ("ability-backlash", "Backlash of {card}: {amount} damage."),
        "counter_order": (
            "ability-counter-order",
            "Counter-order: {card} moves to the right of {player}'s hand.",
        ),
    }
)

# Refusals of IllegalAction: code: (rule id, English template).
REFUSALS: Final[MappingProxyType[str, tuple[str, str]]] = MappingProxyType(
    {
        "game_over": ("game-end", "The game is over."),
        "ai_turn": ("solo-summoning", "The AI plays its Phase 2 by itself."),
        "assault_done": (
            "turn-structure",
            "The Assault was already resolved this turn; only the end of turn is left.",
        ),
        "not_summoning": ("phase-2-summoning", "Cards are played only during Phase 2: Summoning."),
        "not_in_hand": ("phase-2-summoning", "{card} is not in your hand."),
        "not_available": (
            "phase-2-available-cards",
            "{card} is not among the 4 leftmost cards of your hand.",
        ),
        "blackmailed": (
            "ability-blackmail",
            "Blackmail: {card} is the rightmost available card and cannot be played.",
        ),
        "too_expensive": (
            "phase-2-mana-cost",
            "{card} costs {cost} Mana and you have {mana} left.",
        ),
        "creature_aimed": (
            "creature-placement",
            "{card} is a creature: it is placed on a line, not aimed at a target.",
        ),
        "no_such_line": (
            "creature-placement",
            "A creature is placed on one of your lines: top or bottom.",
        ),
        "no_target": (
            "incantation",
            "An Incantation targets a creature in play (never a Stronghold).",
        ),
        "needs_target": ("incantation", "{card} is an Incantation: it needs a target creature."),
        "stronghold_target": ("incantation", "An Incantation can never target a Stronghold."),
        "no_target_named": (
            "incantation",
            "There is no creature {target} in play on {player}'s side.",
        ),
        "no_symbiote": (
            "ability-symbiote",
            "{card} has no Symbiote: it cannot be placed on another creature.",
        ),
        "bad_host": (
            "ability-symbiote",
            "A Symbiote goes on a creature of your Kingdom that has no Symbiote.",
        ),
        "no_host_named": (
            "ability-symbiote",
            "There is no creature {host} in your Kingdom to place {card} on.",
        ),
        "enemy_champion": ("champion-setup", "{card} is your opponent's Champion."),
        "champion_in_play": ("champion-summoning", "{card}, your Champion, is already in play."),
        "champion_exhausted": (
            "champion-resummoning",
            "{card} is exhausted: it cannot be summoned until a card costing exactly {printed} "
            "Mana is played.",
        ),
        "champion_too_expensive": (
            "champion-summoning",
            "{card} costs {cost} Mana ({printed} minus 1 per creature costing {printed} in play) "
            "and you have {mana} left.",
        ),
        # Drafts (engine.rules.drafts): the rule id is the procedure's (format-draft, solo-setup,
        # multiplayer-draft, coop or mutation); format-draft is the procedure the others adapt.
        "draft_over": ("format-draft", "The Draft is over: every player has their cards."),
        "draft_not_your_pick": ("format-draft", "It is {expected}'s pick, not {player}'s."),
        "draft_wrong_count": ("format-draft", "Choose {count} card(s) here, not {given}."),
        "draft_not_revealed": ("format-draft", "{card} is not among the revealed cards."),
        "draft_same_card": ("format-draft", "{card} is chosen twice."),
        # A passing draft (Mutation): a seat that has all its cards, or whose next hand is still
        # with its right-hand neighbour.
        "draft_seat_done": ("format-draft", "{player} has taken all their cards."),
        "draft_hand_not_passed": (
            "format-draft",
            "{player} waits for the hand {expected} has not passed on yet.",
        ),
    }
)


def fields(
    args: Sequence[tuple[str, Arg]], names: Sequence[str], lines: Sequence[str] = LINE_NAMES
) -> dict[str, Arg]:
    """What a template shows for each of ``args``: a card id as its name in ``names`` (the card
    names by card id, ``setup.names``, or a translation of them), a seat as its letter, a lane
    as its word in ``lines``, any other value as it is. A card argument given as a string (a
    name read from a scenario or a replay that matches no card) is shown as given."""
    shown: dict[str, Arg] = {}
    for key, value in args:
        if type(value) is int:
            if key in CARD_ARGS:
                shown[key] = names[value] if 0 <= value < len(names) else f"card {value}"
                continue
            if key in SEAT_ARGS:
                shown[key] = PLAYER_NAMES[value]
                continue
            if key in LANE_ARGS:
                shown[key] = lines[value]
                continue
        shown[key] = value
    return shown


def english(
    table: MappingProxyType[str, tuple[str, str]],
    code: str,
    args: tuple[tuple[str, Arg], ...],
    names: Sequence[str],
) -> str:
    """The English sentence of ``code`` of ``table`` with ``args`` (see :func:`fields`)."""
    return table[code][1].format(**fields(args, names))


def render(event: Event, names: Sequence[str]) -> str:
    """An event in English."""
    return english(EVENTS, event.code, event.args, names)


def render_log(log: Sequence[Event], names: Sequence[str]) -> list[str]:
    """A whole event log in English, one line per event."""
    return [english(EVENTS, event.code, event.args, names) for event in log]
