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
from engine.rules.actions import STRONGHOLD_TOKEN as STRONGHOLD
from engine.rules.actions import apply, from_json
from engine.rules.cards import CHAMPION, CardDef
from engine.rules.errors import GameOver, IllegalAction, InputError, NotSupported, ScenarioError
from engine.rules.kingdom import HandKingdom, hand_of
from engine.rules.modes import DUEL_MODE, playable_mode
from engine.rules.state import (
    LINE_NAMES,
    NO_CARD,
    PLAYER_NAMES,
    SUMMONING,
    Creature,
    GameSetup,
    GameState,
    Options,
    new_creature,
)
from engine.rules.turn import start_turn

_MODULE_OFF = "the Champion module is off (set state.options.champions: true)"
SUFFIXES = (".yaml", ".yml", ".json")
DUEL_PLAYERS = ("A", "B")

_TOP_KEYS = {"description", "source", "cards", "state", "actions", "expect"}
_CARD_KEYS = {"type", "cost", "attack", "hp", "abilities"}
_STATE_KEYS = {"active", "phase", "first_turn", "turn", "options", "players"}
_OPTION_KEYS = {"exhaustion", "champions", "mode", "ai"}
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
    champions_on = bool((state.get("options") or {}).get("champions", False))
    if not champions_on:
        for name, card in cards.items():
            if card.type == CHAMPION:
                raise ScenarioError(f"cards.{name}.type: {_MODULE_OFF}")
    actions = _parse_actions(top.get("actions") or [], cards)
    expect = _parse_expect(top["expect"], cards, champions_on)
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


def _parse_state(data: Any, cards: dict[str, CardDef]) -> dict[str, Any]:
    state = _mapping(data, "state", _STATE_KEYS)
    options = _mapping(state.get("options") or {}, "state.options", _OPTION_KEYS)
    mode = options.get("mode", "duel")
    if not isinstance(mode, str):
        raise ScenarioError("state.options.mode: expected a mode name")
    try:
        playable_mode(mode)
    except NotSupported:
        raise NotSupported(f"state.options.mode {mode!r} is not supported yet") from None
    if "ai" in options:
        raise NotSupported("state.options.ai: Solo mode is not supported yet")
    champions_on = _flag(options.get("champions", False), "state.options.champions")
    _flag(options.get("exhaustion", False), "state.options.exhaustion")
    if state.get("active") not in DUEL_PLAYERS:
        raise ScenarioError("state.active: expected 'A' or 'B'")
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
        if name not in DUEL_PLAYERS:
            raise NotSupported(
                f"state.players.{name}: only players A and B (Duel) are supported yet"
            )
    for name in DUEL_PLAYERS:
        if name not in players:
            raise ScenarioError(f"state.players: missing player {name!r}")
        _parse_player(players[name], f"state.players.{name}", cards, champions_on)
    return state


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


def _parse_player(data: Any, where: str, cards: dict[str, CardDef], champions_on: bool) -> None:
    pl = _mapping(data, where, _PLAYER_KEYS)
    for key in ("deck", "discard"):
        if key in pl:
            raise NotSupported(f"{where}.{key}: Solo mode is not supported yet")
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
    lines = _mapping(pl.get("lines") or {}, f"{where}.lines", set(LINE_NAMES))
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
    if in_play > 1:
        raise ScenarioError(f"{where}.lines: the Champion is in play only once")


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


def _parse_actions(data: Any, cards: dict[str, CardDef]) -> list[ScenarioAction]:
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
        if "line" in entry and entry["line"] not in LINE_NAMES:
            raise ScenarioError(f"{where}.line: expected 'top' or 'bottom'")
        if "onto" in entry:
            _known(entry["onto"], cards, f"{where}.onto")
        if "target" in entry:
            target = _mapping(entry["target"], f"{where}.target", {"player", "card"})
            if target.get("player") not in DUEL_PLAYERS:
                raise ScenarioError(f"{where}.target.player: expected 'A' or 'B'")
            if target.get("card") != STRONGHOLD:
                _known(target.get("card"), cards, f"{where}.target.card")
        data_without_flag = {k: v for k, v in entry.items() if k != "illegal"}
        actions.append(ScenarioAction(data_without_flag, illegal, where))
    return actions


def _parse_expect(data: Any, cards: dict[str, CardDef], champions_on: bool) -> dict[str, Any]:
    expect = _mapping(data, "expect", _EXPECT_KEYS)
    if "winner" in expect and expect["winner"] not in (None, *DUEL_PLAYERS):
        raise ScenarioError("expect.winner: expected 'A', 'B' or null")
    if "active" in expect and expect["active"] not in DUEL_PLAYERS:
        raise ScenarioError("expect.active: expected 'A' or 'B'")
    players = _mapping(expect.get("players") or {}, "expect.players", set(DUEL_PLAYERS))
    for name, pl in players.items():
        where = f"expect.players.{name}"
        pl = _mapping(pl, where, _EXPECT_PLAYER_KEYS)
        for key in ("deck", "discard"):
            if key in pl:
                raise NotSupported(f"{where}.{key}: Solo mode is not supported yet")
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
        lines = _mapping(pl.get("lines") or {}, f"{where}.lines", set(LINE_NAMES))
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


# ---- building the position ------------------------------------------------------------------


class _Ids:
    """Card ids of a scenario: one card per (player, name)."""

    def __init__(self) -> None:
        self.decks: list[list[CardDef]] = [[], []]
        self.champions: list[CardDef | None] = [None, None]
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
            return len(self.decks[0]) + len(self.decks[1]) + before
        # Ids follow GameSetup: all of A's cards, then B's.
        index = self.decks[player].index(next(c for c in self.decks[player] if c.name == name))
        return index if player == 0 else len(self.decks[0]) + index


def _entries(pl: dict[str, Any], line: str) -> list[dict[str, Any]]:
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
    options = Options(
        exhaustion=bool(options_spec.get("exhaustion", False)),
        champions=bool(options_spec.get("champions", False)),
    )
    ids = _Ids()
    for p, name in enumerate(DUEL_PLAYERS):
        champion = players[name].get("champion")
        if champion is not None:
            ids.add_champion(p, cards[champion["card"]])
    for p, name in enumerate(DUEL_PLAYERS):
        pl = players[name]
        where = f"state.players.{name}"
        for card in pl["hand"]:
            if card != STRONGHOLD:
                ids.add(p, cards[card], f"{where}.hand")
        for line in LINE_NAMES:
            for entry in _entries(pl, line):
                ids.add(p, cards[entry["card"]], f"{where}.lines.{line}")
                if entry.get("symbiote") is not None:
                    ids.add(p, cards[entry["symbiote"]], f"{where}.lines.{line}")
        for card in pl.get("removed") or []:
            ids.add(p, cards[card], f"{where}.removed")
    # Enchained cards belong to the opponent of the creature holding them.
    for p, name in enumerate(DUEL_PLAYERS):
        for line in LINE_NAMES:
            for entry in _entries(players[name], line):
                for card in _as_list(entry.get("enchained")):
                    ids.add(1 - p, cards[card], f"state.players.{name}.lines.{line}.enchained")
    champions = ids.champions if any(c is not None for c in ids.champions) else None
    setup = GameSetup(ids.decks, options, DUEL_MODE, champions)
    # Nothing random happens after the set-up in a Duel; the RNG is there for the modes to come.
    state = GameState(setup, random.Random(0))
    active = DUEL_PLAYERS.index(spec["active"])
    first_turn = spec.get("first_turn", False)
    turn = spec.get("turn", 1)
    starting = spec.get("phase", "summoning") == "start"
    for p, name in enumerate(DUEL_PLAYERS):
        pl_spec = players[name]
        hand = [ids.id_of(p, c) for c in pl_spec["hand"] if c != STRONGHOLD]
        pl = HandKingdom(p, hand, DUEL_MODE.topology.lanes)
        pl.sh = pl_spec["hand"].index(STRONGHOLD)
        pl.fort = pl_spec.get("stronghold", "bastion") == "fort"
        pl.removed = [ids.id_of(p, c) for c in pl_spec.get("removed") or []]
        champion = pl_spec.get("champion")
        if champion is not None:
            pl.champion = setup.champion_id[p]
            pl.champion_exhausted = champion.get("exhausted", False)
        for lane, line in enumerate(LINE_NAMES):
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
                    (ids.id_of(1 - p, c), 1 - p) for c in _as_list(entry.get("enchained"))
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
    state.first_player = active if first_turn else 1 - active
    state.turn = sum(pl.turns for pl in state.players)
    board.update_auras(state)
    if starting:
        with contextlib.suppress(GameOver):
            start_turn(state)
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
    if "winner" in expect:
        winners = state.outcome.winners() if state.outcome is not None else ()
        actual = PLAYER_NAMES[winners[0]] if winners else None
        if actual != expect["winner"]:
            diffs.append(f"winner is {actual!r}, expected {expect['winner']!r}")
    if "active" in expect and PLAYER_NAMES[state.active] != expect["active"]:
        diffs.append(f"active is {PLAYER_NAMES[state.active]!r}, expected {expect['active']!r}")
    for name, spec in (expect.get("players") or {}).items():
        p = DUEL_PLAYERS.index(name)
        pl = state.players[p]
        where = f"players.{name}"
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
            lane = LINE_NAMES.index(line_name)
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


# ---- running --------------------------------------------------------------------------------


def run(scenario: Scenario) -> list[str]:
    """Play the scenario; returns what went wrong (empty when it passes)."""
    state = build_state(scenario)
    for action in scenario.actions:
        before = state.copy()
        try:
            move = from_json(state, action.data)
            apply(state, move)
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


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print("usage: python -m engine.rules.scenario PATH [PATH ...]", file=sys.stderr)
        return 2
    passed = failed = 0
    for path in scenario_files(args):
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
