"""Card definitions: one validator for every way a card comes in, and the box a game is set up from.

A card arrives as a flat mapping of text fields, the columns of ``data/chaos/cards.csv`` (the
catalogue's import, the admin's form and a scenario's ``cards`` use the same names and the same
checks). :func:`card_problems` lists every problem, each naming its field, and
:func:`card_from_fields` builds the engine's :class:`ChaosCardDef` or raises with the first one.

A card may be **incomplete**: the rulebook names it without printing it (its cost, clan or
effects are unknown). The catalogue shows such a card with what is known; a game refuses it.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from engine.chaos.effects import (
    AWAKEN,
    CLAN_BITS,
    CLANS,
    EffectError,
    Node,
    is_awakening,
    parse,
    to_text,
    walk,
)
from engine.chaos.errors import InputError

PROJECT_DIR: Final = Path(__file__).resolve().parents[2]
DATA_DIR: Final = PROJECT_DIR / "data" / "chaos"
EXAMPLE_SET: Final = "EX"

EMISSARY: Final = "emissary"
DOMAIN: Final = "domain"
INTERVENTION: Final = "intervention"
AID: Final = "aid"
TYPES: Final = (EMISSARY, DOMAIN, INTERVENTION, AID)
# "none": a card of no clan (Interventions, player aids, a few Emissaries); "" is unknown.
NO_CLAN: Final = "none"
CLAN_VALUES: Final = (*CLANS, NO_CLAN)
DOMAIN_CLANS: Final = ("drakon", "evine")
DECKS: Final = ("1", "2", "both")
# Reaction conditions ("si défaussée", "si sacrifiée").
DISCARDED: Final = "discarded"
SACRIFICED: Final = "sacrificed"
REACTIONS: Final = (DISCARDED, SACRIFICED)
YES: Final = "yes"
NO: Final = "no"

# The fields of a card, in the order of the CSV columns (engine-relevant ones; the catalogue
# adds its own: set, identifier, French name, note, slug).
FIELDS: Final = (
    "name",
    "type",
    "clan",
    "cost",
    "deck",
    "copies",
    "play",
    "reaction_on",
    "reaction_opponent_turn",
    "reaction",
    "depth",
    "complete",
)
MAX_COST: Final = 20
MAX_COPIES: Final = 44
MAX_DEPTH: Final = 60


@dataclass(frozen=True, slots=True)
class ChaosCardDef:
    name: str
    type: str
    clan: str  # one of CLAN_VALUES
    cost: int
    play: Node | None = None
    reaction_on: str = ""
    reaction_opponent_turn: bool = False
    reaction: Node | None = None
    deck: str = ""  # Emissaries: "1", "2" or "both"
    copies: int = 1
    depth: int = 0  # Interventions: how many Domain cards lie above it when the pile is built
    name_fr: str = ""
    complete: bool = True

    @property
    def clan_bit(self) -> int:
        return CLAN_BITS.get(self.clan, 0)

    @property
    def awakening(self) -> bool:
        return is_awakening(self.play)

    def to_fields(self) -> dict[str, str]:
        """The card as the text fields :func:`card_from_fields` reads (the round trip)."""
        return {
            "name": self.name,
            "type": self.type,
            "clan": self.clan,
            "cost": "" if self.type in (INTERVENTION, AID) else str(self.cost),
            "deck": self.deck,
            "copies": str(self.copies),
            "play": to_text(self.play),
            "reaction_on": self.reaction_on,
            "reaction_opponent_turn": YES if self.reaction_opponent_turn else NO,
            "reaction": to_text(self.reaction),
            "depth": str(self.depth) if self.type == INTERVENTION else "",
            "complete": YES if self.complete else NO,
        }


@dataclass
class _Checked:
    problems: list[tuple[str, str]] = field(default_factory=list)

    def fail(self, name: str, message: str) -> None:
        self.problems.append((name, message))


def _text(data: Mapping[str, Any], name: str) -> str:
    value = data.get(name)
    if value is None:
        return ""
    if isinstance(value, bool):
        return YES if value else NO
    return str(value).strip()


def _whole(checked: _Checked, name: str, raw: str, low: int, high: int) -> int | None:
    try:
        value = int(raw)
    except ValueError:
        checked.fail(name, f"{raw!r} is not a whole number")
        return None
    if not low <= value <= high:
        checked.fail(name, f"{value} is outside {low}..{high}")
        return None
    return value


def _effect(checked: _Checked, name: str, raw: str) -> Node | None:
    try:
        return parse(raw)
    except EffectError as exc:
        checked.fail(name, f"{exc.message} (column {exc.column} of the effect)")
        return None


def _check(data: Mapping[str, Any]) -> tuple[_Checked, ChaosCardDef | None]:
    checked = _Checked()
    for key in data:
        if key not in FIELDS and key != "name_fr":
            checked.fail(str(key), f"unknown field (known: {', '.join(FIELDS)})")
    name = _text(data, "name")
    if not name:
        checked.fail("name", "must not be empty")
    complete_raw = _text(data, "complete") or YES
    if complete_raw not in (YES, NO):
        checked.fail("complete", f"{complete_raw!r} must be yes or no")
    complete = complete_raw == YES
    # An incomplete card may leave its type unknown (""): the type's constraints then wait.
    card_type = _text(data, "type")
    if card_type not in TYPES and (card_type or complete):
        checked.fail("type", f"{card_type!r} must be one of {', '.join(TYPES)}")
    if card_type not in TYPES:
        card_type = ""  # a wrong type is one problem: the type's own checks wait for a right one
    printed = card_type in (EMISSARY, DOMAIN, "")

    clan = _text(data, "clan")
    if clan and clan not in CLAN_VALUES:
        checked.fail("clan", f"{clan!r} must be one of {', '.join(CLAN_VALUES)}")
    elif not clan and complete:
        checked.fail("clan", "must not be empty on a complete card (none: no clan)")
    elif card_type == DOMAIN and clan and clan not in DOMAIN_CLANS:
        checked.fail("clan", "a Domain card is Drakon or Evine")
    elif card_type in (INTERVENTION, AID) and clan not in ("", NO_CLAN):
        checked.fail("clan", f"an {card_type} card has no clan (none)")

    cost = 0
    cost_raw = _text(data, "cost")
    if card_type in (INTERVENTION, AID):
        if cost_raw:
            checked.fail("cost", f"an {card_type} card has no cost")
    elif card_type == EMISSARY and cost_raw not in ("", "0"):
        checked.fail("cost", "an Emissary costs 0")
    elif cost_raw:
        cost = _whole(checked, "cost", cost_raw, 0, MAX_COST) or 0
    elif complete and card_type == DOMAIN:
        checked.fail("cost", "must not be empty on a complete Domain card")

    deck = _text(data, "deck")
    if card_type == EMISSARY:
        if deck and deck not in DECKS:
            checked.fail("deck", f"{deck!r} must be 1, 2 or both")
        elif not deck and complete:
            checked.fail("deck", "an Emissary belongs to the deck 1, 2 or both")
    elif deck and card_type:
        checked.fail("deck", "only an Emissary belongs to a starting deck")

    copies = _whole(checked, "copies", _text(data, "copies") or "1", 1, MAX_COPIES) or 1

    play = _effect(checked, "play", _text(data, "play"))
    uses_awaken = any(act.verb == AWAKEN for act in walk(play))
    if card_type == AID and play is not None:
        checked.fail("play", "a player aid has no effect")
    elif card_type == INTERVENTION:
        if uses_awaken and not is_awakening(play):
            checked.fail("play", "'awaken' is an Intervention's whole effect")
        if play is None and complete:
            checked.fail("play", "a complete Intervention has an effect")
    elif uses_awaken:
        checked.fail("play", "'awaken' is an Intervention's effect")

    reaction_on = _text(data, "reaction_on")
    reaction_raw = _text(data, "reaction")
    # Blank: "no" on a complete card, unknown on an incomplete one.
    opponent_raw = _text(data, "reaction_opponent_turn") or NO
    if reaction_on and reaction_on not in REACTIONS:
        checked.fail("reaction_on", f"{reaction_on!r} must be discarded or sacrificed")
    if opponent_raw not in (YES, NO):
        checked.fail("reaction_opponent_turn", f"{opponent_raw!r} must be yes or no")
    reaction = _effect(checked, "reaction", reaction_raw)
    if any(act.verb == AWAKEN for act in walk(reaction)):
        checked.fail("reaction", "'awaken' is an Intervention's effect")
    if not printed and (reaction_on or reaction_raw):
        checked.fail(
            "reaction_on" if reaction_on else "reaction", f"an {card_type} card has no reaction"
        )
    elif reaction_on and not reaction_raw and complete:
        checked.fail("reaction", f"the reaction 'if {reaction_on}' needs an effect")
    elif reaction_raw and not reaction_on:
        checked.fail("reaction_on", "a reaction needs its condition: discarded or sacrificed")
    if opponent_raw == YES and not reaction_on:
        checked.fail("reaction_opponent_turn", "only a reaction can apply in the opponent's turn")

    depth = 0
    depth_raw = _text(data, "depth")
    if card_type == INTERVENTION:
        if depth_raw:
            depth = _whole(checked, "depth", depth_raw, 0, MAX_DEPTH) or 0
        elif complete:
            checked.fail("depth", "a complete Intervention says where it goes in the Domain pile")
    elif depth_raw and card_type:
        checked.fail("depth", "only an Intervention is placed in the Domain pile")

    if checked.problems:
        return checked, None
    return checked, ChaosCardDef(
        name=name,
        type=card_type,
        clan=clan,
        cost=cost,
        play=play,
        reaction_on=reaction_on,
        reaction_opponent_turn=opponent_raw == YES,
        reaction=reaction,
        deck=deck,
        copies=copies,
        depth=depth,
        name_fr=_text(data, "name_fr"),
        complete=complete,
    )


def card_problems(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Every problem of a card's fields, as (field, message) pairs; empty when it is valid."""
    return _check(data)[0].problems


def card_from_fields(data: Mapping[str, Any], where: str = "card") -> ChaosCardDef:
    """The card of ``data``; InputError naming ``where`` and the field of the first problem."""
    if not isinstance(data, Mapping):
        raise InputError(f"{where}: expected a mapping of fields")
    checked, card = _check(data)
    if card is None:
        name, message = checked.problems[0]
        raise InputError(f"{where}.{name}: {message}")
    return card


# ---- the box: what a game is set up from -------------------------------------------------------


@dataclass(frozen=True)
class Box:
    """The cards of a game: the two Emissary decks (① and ②), the Domain cards and the
    Interventions (each with its place in the Domain pile)."""

    decks: tuple[tuple[ChaosCardDef, ...], tuple[ChaosCardDef, ...]]
    domain: tuple[ChaosCardDef, ...]
    interventions: tuple[ChaosCardDef, ...]


def box_from_cards(cards: Iterable[ChaosCardDef], where: str = "box") -> Box:
    """Each card as many times as its copies: Emissaries into their deck(s), Domain cards into the
    Domain, Interventions beside; player aids are not played. Incomplete cards are refused."""
    decks: tuple[list[ChaosCardDef], list[ChaosCardDef]] = ([], [])
    domain: list[ChaosCardDef] = []
    interventions: list[ChaosCardDef] = []
    for card in cards:
        if not card.complete:
            raise InputError(
                f"{where}: {card.name!r} is incomplete (the rulebook does not print it): enter "
                "its cost, clan and effects before playing with it"
            )
        if card.type == EMISSARY:
            for number in (0, 1):
                if card.deck in (str(number + 1), "both"):
                    decks[number].extend([card] * card.copies)
        elif card.type == DOMAIN:
            domain.extend([card] * card.copies)
        elif card.type == INTERVENTION:
            interventions.extend([card] * card.copies)
    for number, deck in enumerate(decks, start=1):
        if not deck:
            raise InputError(f"{where}: no Emissary for the deck {number}")
    return Box((tuple(decks[0]), tuple(decks[1])), tuple(domain), tuple(interventions))


def read_cards_csv(path: Path, set_code: str | None = None) -> list[ChaosCardDef]:
    """The cards of ``path`` (the shape of ``data/chaos/cards.csv``), of one set if given."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{path}: {exc.strerror}") from None
    cards = []
    for line, row in enumerate(csv.DictReader(text.splitlines()), start=2):
        if set_code is not None and row.get("set_code") != set_code:
            continue
        data = {key: row.get(key, "") for key in FIELDS if key != "name"}
        # The printed edition is French: a card without an English name goes by its French one.
        data["name"] = row.get("name_en", "") or row.get("name_fr", "")
        data["name_fr"] = row.get("name_fr", "")
        cards.append(card_from_fields(data, f"{path.name} line {line}"))
    return cards


def example_box() -> Box:
    """The site's example set (original cards, ``data/chaos/cards.csv``, set ``EX``)."""
    return box_from_cards(read_cards_csv(DATA_DIR / "cards.csv", EXAMPLE_SET), "example set")


def names_of(cards: Sequence[ChaosCardDef]) -> list[str]:
    return [card.name for card in cards]
