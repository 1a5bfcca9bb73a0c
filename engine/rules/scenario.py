"""Rules scenarios (``shared/specs/scenario-format.md``): load, build the position, play, compare.

The loading half (:func:`parse`, :func:`build_state`, :func:`compare`) needs no files and no
database, so the web app can reuse it for Grimoire puzzles. ``python -m engine.rules.scenario
PATH...`` runs files or folders and prints ``PASS``/``FAIL`` lines and a summary.
"""

from __future__ import annotations

import contextlib
import json
import random
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from engine.rules import board
from engine.rules.actions import END_TURN_ACTION, Action, apply, from_json
from engine.rules.actions import STRONGHOLD_TOKEN as STRONGHOLD
from engine.rules.ai_options import AiOptions
from engine.rules.assault import assault
from engine.rules.cards import CHAMPION, CardDef
from engine.rules.errors import GameOver, IllegalAction, InputError, NotSupported, ScenarioError
from engine.rules.kingdom import HandKingdom, hand_of
from engine.rules.modes import AUTOMATON, COOP_MODE, HAND, SOLO_MODE, Mode, playable_mode
from engine.rules.solo import automaton_kingdom, automaton_of
from engine.rules.state import (
    NO_CARD,
    OVER,
    PLAYER_NAMES,
    SUMMONING,
    Creature,
    GameSetup,
    GameState,
    Options,
    new_creature,
)
from engine.rules.turn import end_turn, start_turn

_MODULE_OFF = "the Champion module is off (set state.options.champions: true)"
SUFFIXES = (".yaml", ".yml", ".json")
# Solo mode (extension): the player A against the AI, seated as B.
SOLO_PLAYERS = ("A", "AI")
# Co-op (extension): the players A and B against AI1 and AI2, seated as A, C and B, D (CO1).
COOP_PLAYERS = ("A", "AI1", "B", "AI2")
_AI_KEYS = {"deck", "discard", "stronghold", "lines", "mana"}
_TOP_KEYS = {"description", "source", "cards", "state", "actions", "expect"}
_CARD_KEYS = {"type", "cost", "attack", "hp", "abilities"}
_STATE_KEYS = {"active", "phase", "first_turn", "turn", "options", "players", "turn_order"}
_OPTION_KEYS = {"exhaustion", "champions", "mode", "ai", "teams"}
_PLAYER_KEYS = {"hand", "stronghold", "mana", "lines", "removed", "champion", "deck", "discard"}
_ENTRY_KEYS = {"card", "damage", "new", "protection_used", "symbiote", "enchained"}
_ACTION_KEYS = {"play", "line", "onto", "target", "illegal", "assault", "end_turn"}
_EXPECT_KEYS = {"winner", "active", "players"}
_EXPECT_PLAYER_KEYS = {
    "hand",
    "stronghold",
    "mana",
    "removed",
    "champion",
    "lines",
    "deck",
    "discard",
}


@dataclass
class ScenarioAction:
    data: Any  # the action without ``illegal``, in the readable action form
    illegal: bool
    where: str


@dataclass
class Scenario:
    description: str
    cards: dict[str, CardDef]
    state: dict[str, Any]
    actions: list[ScenarioAction]
    expect: dict[str, Any]
    source: str = ""
    raw: dict[str, Any] = field(default_factory=dict, repr=False)


# ---- loading and validation -----------------------------------------------------------------


def load_file(path: Path) -> Any:
    """The parsed YAML or JSON content of ``path``."""
    text = path.read_text(encoding="utf-8")
    try:
        if path.suffix == ".json":
            return json.loads(text)
        return yaml.safe_load(text)
    except (yaml.YAMLError, json.JSONDecodeError) as exc:
        first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ScenarioError(f"not valid {path.suffix[1:].upper()}: {first_line}") from None


def _mapping(value: Any, where: str, allowed: set[str] | None = None) -> dict[str, Any]:
    """``value`` if it is a mapping whose keys are all ``allowed`` (None: any key)."""
    if not isinstance(value, dict):
        raise ScenarioError(f"{where}: expected a mapping")
    if allowed is not None:
        for key in value:
            if key not in allowed:
                raise ScenarioError(f"{where}: unknown key {key!r}")
    return value


def _flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise ScenarioError(f"{where}: expected true or false")
    return value


def _count(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ScenarioError(f"{where}: expected a whole number >= 0")
    return value


def parse(data: Any) -> Scenario:
    """Validate the structure of a scenario; errors name the offending key."""
    top = _mapping(data, "scenario", _TOP_KEYS)
    for key in ("cards", "state", "expect"):
        if key not in top:
            raise ScenarioError(f"missing key {key!r}")
    cards: dict[str, CardDef] = {}
    for name, spec in _mapping(top["cards"], "cards").items():
        where = f"cards.{name}"
        if not isinstance(name, str) or not name or name == STRONGHOLD:
            raise ScenarioError(f"{where}: a card name must be a non-empty string, not STRONGHOLD")
        spec = _mapping(spec, where, _CARD_KEYS)
        if "type" not in spec:
            raise ScenarioError(f"{where}: missing key 'type'")
        if spec["type"] in ("creature", CHAMPION) and "hp" not in spec:
            raise ScenarioError(f"{where}: missing key 'hp' (required for creatures)")
        try:
            cards[name] = CardDef.from_json({**spec, "name": name}, where)
        except InputError as exc:
            raise ScenarioError(str(exc)) from None
    state = _parse_state(top["state"], cards)
    mode = scenario_mode(state)
    champions_on = bool((state.get("options") or {}).get("champions", False))
    if not champions_on:
        for name, card in cards.items():
            if card.type == CHAMPION:
                raise ScenarioError(f"cards.{name}.type: {_MODULE_OFF}")
    actions = _parse_actions(top.get("actions") or [], cards, mode)
    expect = _parse_expect(top["expect"], cards, champions_on, mode)
    return Scenario(
        description=str(top.get("description") or ""),
        source=str(top.get("source") or ""),
        cards=cards,
        state=state,
        actions=actions,
        expect=expect,
        raw=top,
    )


def _known(name: Any, cards: dict[str, CardDef], where: str) -> str:
    if not isinstance(name, str) or name not in cards:
        raise ScenarioError(f"{where}: unknown card {name!r} (not defined under 'cards')")
    return name


def scenario_mode(state: dict[str, Any]) -> Mode:
    """The mode of a parsed ``state`` (``options.mode``, default the Duel)."""
    return playable_mode((state.get("options") or {}).get("mode", "duel"))


def players_of(mode: Mode) -> tuple[str, ...]:
    """The player names of ``mode`` in seat order: A and B in a Duel, A and AI in Solo, A to D
    with four players, A, AI1, B, AI2 in Co-op."""
    if mode is SOLO_MODE:
        return SOLO_PLAYERS
    if mode is COOP_MODE:
        return COOP_PLAYERS
    return PLAYER_NAMES[: mode.topology.players]


def lane_names_of(mode: Mode, player: int) -> tuple[str, ...]:
    """What a scenario calls ``player``'s lanes: ``top`` and ``bottom`` with two players, else
    the name of the player across each line (the engine's own forms use seat letters)."""
    if mode.topology.players == 2:
        return mode.topology.lane_names(player)
    names = players_of(mode)
    return tuple(names[opponent] for opponent, _ in mode.topology.facing[player])


def _is_ai(mode: Mode, name: str) -> bool:
    """Whether the player ``name`` of ``mode`` is an automaton (Solo, Co-op)."""
    return mode.controller(players_of(mode).index(name)) == AUTOMATON


def _letters(names: tuple[str, ...]) -> str:
    """``'A' or 'B'``, ``'A', 'B', 'C' or 'D'``: the choices of a message."""
    quoted = [repr(name) for name in names]
    return " or ".join([", ".join(quoted[:-1]), quoted[-1]]) if len(quoted) > 1 else quoted[0]


def _parse_state(data: Any, cards: dict[str, CardDef]) -> dict[str, Any]:
    state = _mapping(data, "state", _STATE_KEYS)
    options = _mapping(state.get("options") or {}, "state.options", _OPTION_KEYS)
    mode_name = options.get("mode", "duel")
    if not isinstance(mode_name, str):
        raise ScenarioError("state.options.mode: expected a mode name")
    try:
        mode = playable_mode(mode_name)
    except NotSupported:
        raise NotSupported(f"state.options.mode {mode_name!r} is not supported yet") from None
    automata = AUTOMATON in (seat.controller for seat in mode.seats)
    names = players_of(mode)
    if "teams" in options:
        _parse_teams(options["teams"], mode)
    if "turn_order" in state:
        order = state["turn_order"]
        if not isinstance(order, list) or sorted(map(str, order)) != sorted(names):
            raise ScenarioError(f"state.turn_order: expected each of {', '.join(names)} once")
    if "ai" in options:
        if not automata:
            raise ScenarioError("state.options.ai: only in mode solo or coop")
        _ai_options(options["ai"])
    champions_on = _flag(options.get("champions", False), "state.options.champions")
    _flag(options.get("exhaustion", False), "state.options.exhaustion")
    if state.get("active") not in names:
        raise ScenarioError(f"state.active: expected {_letters(names)}")
    if state.get("phase", "summoning") not in ("summoning", "start"):
        raise ScenarioError("state.phase: expected 'summoning' or 'start'")
    first_turn = _flag(state.get("first_turn", False), "state.first_turn")
    turn = state.get("turn", 1)
    if isinstance(turn, bool) or not isinstance(turn, int) or turn < 1:
        raise ScenarioError("state.turn: expected a whole number >= 1")
    if first_turn and turn != 1:
        raise ScenarioError("state.turn: must be 1 on the first player's first turn")
    players = _mapping(state.get("players"), "state.players")
    for name in players:
        if name not in names:
            raise ScenarioError(
                f"state.players.{name}: mode {mode.name!r} has the players {', '.join(names)}"
            )
    for p, name in enumerate(names):
        if name not in players:
            raise ScenarioError(f"state.players: missing player {name!r}")
        lanes = set(lane_names_of(mode, p))
        if _is_ai(mode, name):
            _parse_ai(players[name], f"state.players.{name}", cards, lanes)
        else:
            _parse_player(players[name], f"state.players.{name}", cards, champions_on, lanes)
    return state


# The partners of Team Play: the only pairs that never share a line (ruling P3).
DEFAULT_TEAMS = (("A", "C"), ("B", "D"))


def _parse_teams(data: Any, mode: Mode) -> None:
    """``options.teams``: the two pairs of partners, which must be the rulebook's A-C and B-D."""
    if mode.name != "teams":
        raise ScenarioError("state.options.teams: only in mode 'teams'")
    if not isinstance(data, list) or not all(isinstance(team, list) for team in data):
        raise ScenarioError("state.options.teams: expected a list of teams, e.g. [[A, C], [B, D]]")
    given = sorted(tuple(sorted(map(str, team))) for team in data)
    if given != sorted(DEFAULT_TEAMS):
        raise ScenarioError(
            "state.options.teams: the partners are A with C and B with D, who never share a line"
        )


def _parse_champion(
    data: Any, where: str, cards: dict[str, CardDef], champions_on: bool
) -> tuple[str, bool] | None:
    """``{card: NAME, exhausted: false}`` (or null: no Champion) as (name, exhausted)."""
    if not champions_on:
        raise ScenarioError(f"{where}: {_MODULE_OFF}")
    if data is None:
        return None
    spec = _mapping(data, where, {"card", "exhausted"})
    if "card" not in spec:
        raise ScenarioError(f"{where}: missing key 'card'")
    name = _known(spec["card"], cards, f"{where}.card")
    if cards[name].type != CHAMPION:
        raise ScenarioError(f"{where}.card: {name!r} has type {cards[name].type}, not {CHAMPION}")
    return name, _flag(spec.get("exhausted", False), f"{where}.exhausted")


def _not_champion(name: str, cards: dict[str, CardDef], where: str) -> None:
    if cards[name].type == CHAMPION:
        raise ScenarioError(
            f"{where}: {name!r} is a Champion: never in a hand, removed or enchained"
        )


def _parse_player(
    data: Any, where: str, cards: dict[str, CardDef], champions_on: bool, lane_names: set[str]
) -> None:
    pl = _mapping(data, where, _PLAYER_KEYS)
    for key in ("deck", "discard"):
        if key in pl:
            raise ScenarioError(f"{where}.{key}: only the Solo AI has a {key} pile")
    champion = None
    if "champion" in pl:
        champion = _parse_champion(pl["champion"], f"{where}.champion", cards, champions_on)
    hand = pl.get("hand")
    if not isinstance(hand, list):
        raise ScenarioError(f"{where}.hand: expected a list")
    if hand.count(STRONGHOLD) != 1:
        raise ScenarioError(f"{where}.hand: the token STRONGHOLD must appear exactly once")
    for i, name in enumerate(hand):
        if name != STRONGHOLD:
            _known(name, cards, f"{where}.hand[{i}]")
            _not_champion(name, cards, f"{where}.hand[{i}]")
    if pl.get("stronghold", "bastion") not in ("bastion", "fort"):
        raise ScenarioError(f"{where}.stronghold: expected 'bastion' or 'fort'")
    _count(pl.get("mana", 0), f"{where}.mana")
    removed = pl.get("removed") or []
    if not isinstance(removed, list):
        raise ScenarioError(f"{where}.removed: expected a list")
    for i, name in enumerate(removed):
        _known(name, cards, f"{where}.removed[{i}]")
        _not_champion(name, cards, f"{where}.removed[{i}]")
    if _parse_lines(pl, where, cards, champion, lane_names) > 1:
        raise ScenarioError(f"{where}.lines: the Champion is in play only once")


def _parse_lines(
    pl: dict[str, Any],
    where: str,
    cards: dict[str, CardDef],
    champion: tuple[str, bool] | None,
    lane_names: set[str],
) -> int:
    """Check ``pl['lines']``; returns how many times the Champion is in play."""
    lines = _mapping(pl.get("lines") or {}, f"{where}.lines", lane_names)
    in_play = 0
    for line_name, entries in lines.items():
        entries = entries or []
        if not isinstance(entries, list):
            raise ScenarioError(f"{where}.lines.{line_name}: expected a list")
        for i, entry in enumerate(entries):
            at = f"{where}.lines.{line_name}[{i}]"
            if isinstance(entry, str):
                _known(entry, cards, at)
                if not cards[entry].is_creature:
                    raise ScenarioError(f"{at}: {entry!r} is an incantation, not a creature")
                in_play += _champion_in_play(entry, champion, cards, at)
                continue
            entry = _mapping(entry, at, _ENTRY_KEYS)
            if "card" not in entry:
                raise ScenarioError(f"{at}: missing key 'card'")
            _known(entry["card"], cards, f"{at}.card")
            if not cards[entry["card"]].is_creature:
                raise ScenarioError(f"{at}.card: {entry['card']!r} is an incantation")
            in_play += _champion_in_play(entry["card"], champion, cards, f"{at}.card")
            _count(entry.get("damage", 0), f"{at}.damage")
            _flag(entry.get("new", False), f"{at}.new")
            _flag(entry.get("protection_used", False), f"{at}.protection_used")
            if entry.get("symbiote") is not None:
                _known(entry["symbiote"], cards, f"{at}.symbiote")
                in_play += _champion_in_play(entry["symbiote"], champion, cards, f"{at}.symbiote")
            for j, name in enumerate(_as_list(entry.get("enchained"))):
                at_j = f"{at}.enchained[{j}]" if j else f"{at}.enchained"
                _known(name, cards, at_j)
                _not_champion(name, cards, at_j)
    return in_play


def _champion_in_play(
    name: str, champion: tuple[str, bool] | None, cards: dict[str, CardDef], where: str
) -> int:
    """1 if ``name`` on a line is the player's Champion (checked to be theirs and ready)."""
    if cards[name].type != CHAMPION:
        return 0
    if champion is None or champion[0] != name:
        raise ScenarioError(f"{where}: {name!r} is not this player's champion")
    if champion[1]:
        raise ScenarioError(
            f"{where}: {name!r} is exhausted, so it is outside the Kingdoms, not in play"
        )
    return 1


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _parse_actions(data: Any, cards: dict[str, CardDef], mode: Mode) -> list[ScenarioAction]:
    names = players_of(mode)
    # Whose turn an action falls in is only known while playing (from_json checks the line
    # against the active player's); here, any line name of the mode.
    lane_names = tuple(dict.fromkeys(n for p in range(len(names)) for n in lane_names_of(mode, p)))
    if not isinstance(data, list):
        raise ScenarioError("actions: expected a list")
    actions = []
    for i, raw in enumerate(data):
        where = f"actions[{i}]"
        if isinstance(raw, str):
            if raw not in ("assault", "end_turn"):
                raise ScenarioError(f"{where}: unknown action {raw!r}")
            actions.append(ScenarioAction(raw, False, where))
            continue
        entry = _mapping(raw, where, _ACTION_KEYS)
        illegal = _flag(entry.get("illegal", False), f"{where}.illegal")
        kinds = [k for k in ("play", "assault", "end_turn") if k in entry]
        if len(kinds) != 1:
            raise ScenarioError(f"{where}: expected one of 'play', 'assault' or 'end_turn'")
        if kinds[0] != "play":
            extra = [k for k in entry if k not in (kinds[0], "illegal")]
            if extra:
                raise ScenarioError(f"{where}: unknown key {extra[0]!r} for {kinds[0]}")
            actions.append(ScenarioAction(kinds[0], illegal, where))
            continue
        _known(entry["play"], cards, f"{where}.play")
        choices = [k for k in ("line", "onto", "target") if k in entry]
        if len(choices) != 1:
            raise ScenarioError(f"{where}: a play needs exactly one of 'line', 'onto' or 'target'")
        if "line" in entry and entry["line"] not in lane_names:
            raise ScenarioError(f"{where}.line: expected {_letters(lane_names)}")
        if "onto" in entry:
            _known(entry["onto"], cards, f"{where}.onto")
        if "target" in entry:
            target = _mapping(entry["target"], f"{where}.target", {"player", "card"})
            if target.get("player") not in names:
                raise ScenarioError(f"{where}.target.player: expected {_letters(names)}")
            if target.get("card") != STRONGHOLD:
                _known(target.get("card"), cards, f"{where}.target.card")
        data_without_flag = {k: v for k, v in entry.items() if k != "illegal"}
        actions.append(ScenarioAction(data_without_flag, illegal, where))
    return actions


def _parse_expect(
    data: Any, cards: dict[str, CardDef], champions_on: bool, mode: Mode
) -> dict[str, Any]:
    expect = _mapping(data, "expect", _EXPECT_KEYS)
    names = players_of(mode)
    if "winner" in expect:
        _parse_winner(expect["winner"], mode)
    if "active" in expect and expect["active"] not in names:
        raise ScenarioError(f"expect.active: expected {_letters(names)}")
    players = _mapping(expect.get("players") or {}, "expect.players", set(names))
    for name, pl in players.items():
        where = f"expect.players.{name}"
        ai = _is_ai(mode, name)
        pl = _mapping(pl, where, _AI_KEYS if ai else _EXPECT_PLAYER_KEYS)
        for key in ("deck", "discard"):
            if key in pl:
                if not ai:
                    raise ScenarioError(f"{where}.{key}: only the Solo AI has a {key} pile")
                _card_list(pl[key], cards, f"{where}.{key}")
        if "champion" in pl:
            _parse_champion(pl["champion"], f"{where}.champion", cards, champions_on)
        if "hand" in pl:
            hand = pl["hand"]
            if not isinstance(hand, list):
                raise ScenarioError(f"{where}.hand: expected a list")
            for i, card in enumerate(hand):
                if card != STRONGHOLD:
                    _known(card, cards, f"{where}.hand[{i}]")
        if "stronghold" in pl and pl["stronghold"] not in ("bastion", "fort"):
            raise ScenarioError(f"{where}.stronghold: expected 'bastion' or 'fort'")
        if "mana" in pl:
            _count(pl["mana"], f"{where}.mana")
        if "removed" in pl and not isinstance(pl["removed"], list):
            raise ScenarioError(f"{where}.removed: expected a list")
        lane_names = set(lane_names_of(mode, names.index(name)))
        lines = _mapping(pl.get("lines") or {}, f"{where}.lines", lane_names)
        for line_name, entries in lines.items():
            if not isinstance(entries, list):
                raise ScenarioError(f"{where}.lines.{line_name}: expected a list")
            for i, entry in enumerate(entries):
                at = f"{where}.lines.{line_name}[{i}]"
                if isinstance(entry, str):
                    _known(entry, cards, at)
                else:
                    entry = _mapping(entry, at, _ENTRY_KEYS)
                    if "card" in entry:
                        _known(entry["card"], cards, f"{at}.card")
    return expect


def _parse_winner(value: Any, mode: Mode) -> None:
    """``winner``: null, a player letter, or (teams, or several winners in Free-For-All: ruling
    P5) the list of the winning players."""
    names = players_of(mode)
    if value is None:
        return
    if mode.name == "teams":
        if not isinstance(value, list) or sorted(map(str, value)) not in (
            sorted(team) for team in DEFAULT_TEAMS
        ):
            raise ScenarioError("expect.winner: expected a team, [A, C] or [B, D], or null")
        return
    if isinstance(value, list) and mode.topology.players > 2:
        if not value or any(name not in names for name in value):
            raise ScenarioError(
                f"expect.winner: expected a list of players among {', '.join(names)}"
            )
        return
    if value not in names:
        raise ScenarioError(f"expect.winner: expected {', '.join(names)} or null")


# ---- building the position ------------------------------------------------------------------


class _Ids:
    """Card ids of a scenario: one card per (player, name)."""

    def __init__(self, players: int) -> None:
        self.decks: list[list[CardDef]] = [[] for _ in range(players)]
        self.champions: list[CardDef | None] = [None] * players
        self.keys: list[tuple[int, str]] = []

    def add(self, player: int, card: CardDef, where: str) -> None:
        if card is self.champions[player]:
            # The Champion on a line: the card named by players.X.champion, not a deck card.
            return
        if (player, card.name) in self.keys:
            raise ScenarioError(
                f"{where}: {card.name!r} appears twice among player {PLAYER_NAMES[player]}'s cards"
            )
        self.keys.append((player, card.name))
        self.decks[player].append(card)

    def add_champion(self, player: int, card: CardDef) -> None:
        self.keys.append((player, card.name))
        self.champions[player] = card

    def id_of(self, player: int, name: str) -> int:
        champion = self.champions[player]
        if champion is not None and champion.name == name:
            # Ids follow GameSetup: the deck cards, then the Champions.
            before = sum(c is not None for c in self.champions[:player])
            return sum(len(deck) for deck in self.decks) + before
        # Ids follow GameSetup: all of A's cards, then B's, and so on.
        index = self.decks[player].index(next(c for c in self.decks[player] if c.name == name))
        return sum(len(deck) for deck in self.decks[:player]) + index


def _entries(pl: dict[str, Any], line: str) -> list[dict[str, Any]]:
    """The entries of ``pl``'s line ``line`` as mappings."""
    out = []
    for entry in (pl.get("lines") or {}).get(line) or []:
        out.append({"card": entry} if isinstance(entry, str) else entry)
    return out


def build_state(scenario: Scenario) -> GameState:
    """The position of the scenario's ``state``, resting in the active player's Phase 2."""
    spec = scenario.state
    cards = scenario.cards
    players = spec["players"]
    options_spec = spec.get("options") or {}
    mode = scenario_mode(spec)
    topology = mode.topology
    names = players_of(mode)
    order = spec.get("turn_order")
    options = Options(
        exhaustion=bool(options_spec.get("exhaustion", False)),
        champions=bool(options_spec.get("champions", False)),
        mode=mode.name,
        ai=_ai_options(options_spec["ai"]) if "ai" in options_spec else None,
        turn_order=None if order is None else tuple(names.index(n) for n in order),
    )
    ids = _Ids(len(names))
    for p, name in enumerate(names):
        champion = players[name].get("champion")
        if champion is not None:
            ids.add_champion(p, cards[champion["card"]])
    for p, name in enumerate(names):
        pl = players[name]
        where = f"state.players.{name}"
        for key in ("hand", "deck", "discard"):
            for card in pl.get(key) or []:
                if card != STRONGHOLD:
                    ids.add(p, cards[card], f"{where}.{key}")
        for line in lane_names_of(mode, p):
            for entry in _entries(pl, line):
                ids.add(p, cards[entry["card"]], f"{where}.lines.{line}")
                if entry.get("symbiote") is not None:
                    ids.add(p, cards[entry["symbiote"]], f"{where}.lines.{line}")
        for card in pl.get("removed") or []:
            ids.add(p, cards[card], f"{where}.removed")
    # Enchained cards belong to the opponent facing the line of the creature holding them.
    for p, name in enumerate(names):
        for lane, line in enumerate(lane_names_of(mode, p)):
            for entry in _entries(players[name], line):
                for card in _as_list(entry.get("enchained")):
                    ids.add(
                        topology.facing_player(p, lane),
                        cards[card],
                        f"state.players.{name}.lines.{line}.enchained",
                    )
    champions = ids.champions if any(c is not None for c in ids.champions) else None
    try:
        setup = GameSetup(ids.decks, options, mode, champions)
    except InputError as exc:
        raise ScenarioError(f"state: {exc}") from None
    # Nothing random happens after the set-up in a Duel; in Solo the AI's discard pile is
    # shuffled into a new deck pile by this fixed seed.
    state = GameState(setup, random.Random(0))
    active = names.index(spec["active"])
    first_turn = spec.get("first_turn", False)
    turn = spec.get("turn", 1)
    starting = spec.get("phase", "summoning") == "start"
    for p, name in enumerate(names):
        pl_spec = players[name]
        if _is_ai(mode, name):
            # Listed top card first; the engine's piles end with their top card.
            pile = [ids.id_of(p, c) for c in reversed(pl_spec.get("deck") or [])]
            pl = automaton_kingdom(setup, p, pile, topology.lanes)
            pl.discard = [ids.id_of(p, c) for c in reversed(pl_spec.get("discard") or [])]
        else:
            hand = [ids.id_of(p, c) for c in pl_spec["hand"] if c != STRONGHOLD]
            pl = HandKingdom(p, hand, topology.lanes)
            pl.sh = pl_spec["hand"].index(STRONGHOLD)
            pl.removed = [ids.id_of(p, c) for c in pl_spec.get("removed") or []]
        pl.fort = pl_spec.get("stronghold", "bastion") == "fort"
        champion = pl_spec.get("champion")
        if champion is not None:
            pl.champion = setup.champion_id[p]
            pl.champion_exhausted = champion.get("exhausted", False)
        enemies = [topology.facing_player(p, lane) for lane in setup.lane_ids]
        for lane, line in enumerate(lane_names_of(mode, p)):
            for entry in _entries(pl_spec, line):
                creature = new_creature(setup, ids.id_of(p, entry["card"]), p, lane)
                if entry.get("symbiote") is not None:
                    creature.add_symbiote(setup, ids.id_of(p, entry["symbiote"]))
                if pl.champion >= 0 and pl.champion in (creature.card, creature.symbiote):
                    pl.champion = NO_CARD
                creature.damage = entry.get("damage", 0)
                creature.new = entry.get("new", False)
                creature.protection_used = entry.get("protection_used", False)
                creature.chained = tuple(
                    (ids.id_of(enemies[lane], c), enemies[lane])
                    for c in _as_list(entry.get("enchained"))
                )
                pl.lines[lane].append(creature)
        if p == active:
            pl.mana = 0 if starting else pl_spec.get("mana", 0)
            pl.turns = turn - 1 if starting else turn
        else:
            # Who went first only matters for the 6 Mana of the very first turn and for the
            # Exhaustion count after end_turn: see docs/rulings.md.
            pl.turns = 0 if first_turn else turn
        state.players.append(pl)
    state.active = active
    # Not the first turn: the active player is taken to be the last in the order of play, so no
    # first-turn Mana applies to anyone (ruling P2).
    state.first_player = active if first_turn else setup.next_seat[active]
    state.turn = sum(pl.turns for pl in state.players)
    board.update_auras(state)
    if starting:
        with contextlib.suppress(GameOver):
            # The AI's start stops after its automatic Phase 2 (format: "Solo mode").
            start_turn(state, automatic=False)
    else:
        state.phase = SUMMONING
    return state


# ---- comparing ------------------------------------------------------------------------------


def _hand_names(state: GameState, player: int) -> list[str]:
    pl = hand_of(state, player)
    names = [state.setup.names[c] for c in pl.hand]
    names.insert(pl.sh, STRONGHOLD)
    return names


def _entry(state: GameState, creature: Creature) -> dict[str, Any]:
    names = state.setup.names
    chained = [names[c] for c, _ in creature.chained]
    return {
        "card": names[creature.card],
        "damage": creature.damage,
        "new": creature.new,
        "protection_used": creature.protection_used,
        "symbiote": names[creature.symbiote] if creature.symbiote >= 0 else None,
        "enchained": chained[0] if len(chained) == 1 else (chained or None),
    }


def describe_line(state: GameState, player: int, lane: int) -> list[Any]:
    """A line in the scenario format (bare names, mappings where something is marked)."""
    out: list[Any] = []
    for creature in state.players[player].lines[lane]:
        entry = _entry(state, creature)
        marks = {k: v for k, v in entry.items() if k != "card" and v not in (None, False, 0)}
        out.append({"card": entry["card"], **marks} if marks else entry["card"])
    return out


def describe_champion(state: GameState, player: int) -> dict[str, Any] | None:
    """``{card, exhausted}`` of the player's Champion (in play: not exhausted), or None."""
    card = state.setup.champion_id[player]
    if card < 0:
        return None
    return {"card": state.setup.names[card], "exhausted": state.players[player].champion_exhausted}


def compare(state: GameState, expect: dict[str, Any]) -> list[str]:
    """What differs between ``state`` and the keys given in ``expect``."""
    diffs: list[str] = []
    names = players_of(state.setup.mode)
    if "winner" in expect:
        winners = state.outcome.winners() if state.outcome is not None else ()
        letters = [names[seat] for seat in winners]
        want = expect["winner"]
        if isinstance(want, list):
            if sorted(letters) != sorted(want):
                diffs.append(f"winners are {letters}, expected {want}")
        else:
            actual = letters[0] if len(letters) == 1 else (letters or None)
            if actual != want:
                diffs.append(f"winner is {actual!r}, expected {want!r}")
    if "active" in expect and names[state.active] != expect["active"]:
        diffs.append(f"active is {names[state.active]!r}, expected {expect['active']!r}")
    for name, spec in (expect.get("players") or {}).items():
        p = names.index(name)
        pl = state.players[p]
        where = f"players.{name}"
        if _is_ai(state.setup.mode, name):
            diffs.extend(_compare_piles(state, p, spec, where))
        if "hand" in spec and _hand_names(state, p) != spec["hand"]:
            diffs.append(f"{where}.hand is {_hand_names(state, p)}, expected {spec['hand']}")
        if "stronghold" in spec:
            side = "fort" if pl.fort else "bastion"
            if side != spec["stronghold"]:
                diffs.append(f"{where}.stronghold is {side!r}, expected {spec['stronghold']!r}")
        if "mana" in spec and pl.mana != spec["mana"]:
            diffs.append(f"{where}.mana is {pl.mana}, expected {spec['mana']}")
        if "removed" in spec:
            removed = [state.setup.names[c] for c in pl.removed]
            if removed != spec["removed"]:
                diffs.append(f"{where}.removed is {removed}, expected {spec['removed']}")
        if "champion" in spec:
            actual_champion = describe_champion(state, p)
            want = spec["champion"]
            if want is not None:
                want = {"card": want["card"], "exhausted": want.get("exhausted", False)}
            if actual_champion != want:
                diffs.append(f"{where}.champion is {actual_champion}, expected {want}")
        for line_name, entries in (spec.get("lines") or {}).items():
            lane = lane_names_of(state.setup.mode, p).index(line_name)
            diffs.extend(_compare_line(state, p, lane, entries, f"{where}.lines.{line_name}"))
    return diffs


def _compare_line(
    state: GameState, player: int, lane: int, expected: list[Any], where: str
) -> list[str]:
    actual = state.players[player].lines[lane]
    shown = describe_line(state, player, lane)
    if len(actual) != len(expected):
        return [f"{where} is {shown}, expected {expected}"]
    for i, (creature, want) in enumerate(zip(actual, expected, strict=True)):
        got = _entry(state, creature)
        if isinstance(want, str):
            want = {"card": want, "symbiote": None}
        for key, value in want.items():
            if key == "enchained":
                value = value[0] if isinstance(value, list) and len(value) == 1 else (value or None)
            if got[key] != value:
                return [f"{where} is {shown}, expected {expected} ({key} of entry {i})"]
    return []


# ---- Solo mode (extension) -------------------------------------------------------------------


def _ai_options(data: Any) -> AiOptions:
    """``state.options.ai``: the JSON form of :class:`AiOptions`."""
    try:
        return AiOptions.from_json(data, "state.options.ai")
    except InputError as exc:
        raise ScenarioError(str(exc)) from None


def _card_list(value: Any, cards: dict[str, CardDef], where: str) -> list[str]:
    if not isinstance(value, list):
        raise ScenarioError(f"{where}: expected a list (top card first)")
    for i, name in enumerate(value):
        _known(name, cards, f"{where}[{i}]")
        _not_champion(name, cards, f"{where}[{i}]")
    return value


def _parse_ai(data: Any, where: str, cards: dict[str, CardDef], lane_names: set[str]) -> None:
    """``players.AI``: ``deck`` and ``discard`` (top card first), ``stronghold`` (the side under
    the deck pile), ``lines`` and ``mana``; no hand."""
    pl = _mapping(data, where, _AI_KEYS)
    for key in ("deck", "discard"):
        _card_list(pl.get(key) or [], cards, f"{where}.{key}")
    if pl.get("stronghold", "bastion") not in ("bastion", "fort"):
        raise ScenarioError(f"{where}.stronghold: expected 'bastion' or 'fort'")
    _count(pl.get("mana", 0), f"{where}.mana")
    _parse_lines(pl, where, cards, None, lane_names)


def _compare_piles(state: GameState, player: int, spec: dict[str, Any], where: str) -> list[str]:
    """The AI's ``deck`` and ``discard``, top card first, compared exactly."""
    kingdom = automaton_of(state, player)
    diffs = []
    for key, pile in (("deck", kingdom.pile), ("discard", kingdom.discard)):
        if key in spec:
            actual = [state.setup.names[card] for card in reversed(pile)]
            if actual != spec[key]:
                diffs.append(f"{where}.{key} is {actual}, expected {spec[key]}")
    return diffs


def _engine_action(state: GameState, data: Any) -> Any:
    """The readable action with the scenario's names of players and lines as the engine's seat
    letters (Solo's AI is seat B; Co-op's AI1, B and AI2 are seats B, C and D)."""
    if not isinstance(data, dict):
        return data
    mode = state.setup.mode
    names = players_of(mode)
    target = data.get("target")
    if isinstance(target, dict) and target.get("player") in names:
        seat = names.index(target["player"])
        data = {**data, "target": {**target, "player": PLAYER_NAMES[seat]}}
    if "line" in data:
        lanes = lane_names_of(mode, state.active)
        if data["line"] not in lanes:
            # Checked here: an engine letter of another seat's lane could name one of these.
            raise InputError(
                f"'line' must be {' or '.join(map(repr, lanes))}, not {data['line']!r}"
            )
        engine_lanes = mode.topology.lane_names(state.active)
        data = {**data, "line": engine_lanes[lanes.index(data["line"])]}
    return data


def _apply_pausing(state: GameState, move: Action) -> None:
    """``apply``, except that a player's end of turn stops after the next AI's automatic
    Phase 2 (format: "An ``end_turn`` by the player likewise stops after the AI's automatic
    Phase 2"); its ``assault`` and ``end_turn`` are then actions of the scenario."""
    setup = state.setup
    if (
        move != END_TURN_ACTION
        or state.phase == OVER
        or AUTOMATON not in setup.controllers
        or setup.controllers[state.active] != HAND
    ):
        apply(state, move)
        return
    with contextlib.suppress(GameOver):
        if state.phase == SUMMONING:
            assault(state)
        end_turn(state, automatic=False)


# ---- running --------------------------------------------------------------------------------


def run(scenario: Scenario) -> list[str]:
    """Play the scenario; returns what went wrong (empty when it passes)."""
    state = build_state(scenario)
    for action in scenario.actions:
        before = state.copy()
        try:
            move = from_json(state, _engine_action(state, action.data))
            _apply_pausing(state, move)
        except IllegalAction as exc:
            if not action.illegal:
                return [f"{action.where} was refused: {exc.message_en} (rule {exc.rule_id})"]
            if state != before:
                return [f"{action.where} was refused but changed the position"]
            continue
        except InputError as exc:
            return [f"{action.where}: {exc}"]
        if action.illegal:
            return [f"{action.where} should have been refused but was accepted"]
    return compare(state, scenario.expect)


def run_file(path: Path) -> list[str]:
    """Load and run one scenario file; an invalid file is one difference naming the key."""
    try:
        scenario = parse(load_file(path))
        return run(scenario)
    except NotSupported as exc:
        return [f"not supported yet: {exc}"]
    except InputError as exc:
        return [str(exc)]
    except OSError as exc:
        return [f"cannot read the file: {exc.strerror}"]


def scenario_files(paths: Sequence[str]) -> Iterator[Path]:
    """The scenario files under ``paths`` (files as given, folders recursively, sorted)."""
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.suffix in SUFFIXES and p.is_file())
        else:
            yield path


def is_draft_scenario(path: Path) -> bool:
    """Whether ``path`` holds a draft scenario (docs/draft-scenarios.md: a ``procedure`` and no
    board ``state``), which ``engine.rules.draft_scenario`` runs, not this runner."""
    try:
        data = load_file(path)
    except (InputError, OSError):
        return False
    return isinstance(data, dict) and "procedure" in data and "state" not in data


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print("usage: python -m engine.rules.scenario PATH [PATH ...]", file=sys.stderr)
        return 2
    passed = failed = 0
    for path in scenario_files(args):
        if path.exists() and is_draft_scenario(path):
            # A folder may hold both formats: a draft file is skipped, not reported invalid.
            print(f"SKIP {path}: a draft scenario (python -m engine.rules.draft_scenario)")
            continue
        diffs = run_file(path) if path.exists() else ["no such file or directory"]
        if diffs:
            failed += 1
            print(f"FAIL {path}: {'; '.join(diffs)}")
        else:
            passed += 1
            print(f"PASS {path}")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
