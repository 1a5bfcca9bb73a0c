"""Reading a rules scenario (``shared/specs/scenario-format.md``): a file's mapping checked key by
key into a :class:`Scenario` (:func:`parse`), every message naming the offending key. Building
its position, playing its actions and comparing the result are ``engine.rules.scenario``'s.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from engine.rules.actions import STRONGHOLD_TOKEN as STRONGHOLD
from engine.rules.ai_options import AiOptions
from engine.rules.cards import CHAMPION, CardDef
from engine.rules.errors import InputError, NotSupported, ScenarioError
from engine.rules.modes import AUTOMATON, COOP_MODE, SOLO_MODE, Mode, playable_mode
from engine.rules.state import (
    PLAYER_NAMES,
)

_MODULE_OFF = "the Champion module is off (set state.options.champions: true)"
SUFFIXES = (".yaml", ".yml", ".json")
# Solo mode (extension): the player A against the AI, seated as B.
SOLO_PLAYERS = ("A", "AI")
# Co-op (extension): the players A and B against AI1 and AI2, seated as A, C and B, D (CO1).
COOP_PLAYERS = ("A", "AI1", "B", "AI2")
AI_KEYS = {"deck", "discard", "stronghold", "lines", "mana"}
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


def mapping(value: Any, where: str, allowed: set[str] | None = None) -> dict[str, Any]:
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


def count(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ScenarioError(f"{where}: expected a whole number >= 0")
    return value


def parse(data: Any) -> Scenario:
    """Validate the structure of a scenario; errors name the offending key."""
    top = mapping(data, "scenario", _TOP_KEYS)
    for key in ("cards", "state", "expect"):
        if key not in top:
            raise ScenarioError(f"missing key {key!r}")
    cards: dict[str, CardDef] = {}
    for name, spec in mapping(top["cards"], "cards").items():
        where = f"cards.{name}"
        if not isinstance(name, str) or not name or name == STRONGHOLD:
            raise ScenarioError(f"{where}: a card name must be a non-empty string, not STRONGHOLD")
        spec = mapping(spec, where, _CARD_KEYS)
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


def known_card(name: Any, cards: dict[str, CardDef], where: str) -> str:
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


def is_ai(mode: Mode, name: str) -> bool:
    """Whether the player ``name`` of ``mode`` is an automaton (Solo, Co-op)."""
    return mode.controller(players_of(mode).index(name)) == AUTOMATON


def _letters(names: tuple[str, ...]) -> str:
    """``'A' or 'B'``, ``'A', 'B', 'C' or 'D'``: the choices of a message."""
    quoted = [repr(name) for name in names]
    return " or ".join([", ".join(quoted[:-1]), quoted[-1]]) if len(quoted) > 1 else quoted[0]


def _parse_state(data: Any, cards: dict[str, CardDef]) -> dict[str, Any]:
    state = mapping(data, "state", _STATE_KEYS)
    options = mapping(state.get("options") or {}, "state.options", _OPTION_KEYS)
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
        ai_options_of(options["ai"])
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
    players = mapping(state.get("players"), "state.players")
    for name in players:
        if name not in names:
            raise ScenarioError(
                f"state.players.{name}: mode {mode.name!r} has the players {', '.join(names)}"
            )
    for p, name in enumerate(names):
        if name not in players:
            raise ScenarioError(f"state.players: missing player {name!r}")
        lanes = set(lane_names_of(mode, p))
        if is_ai(mode, name):
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
    spec = mapping(data, where, {"card", "exhausted"})
    if "card" not in spec:
        raise ScenarioError(f"{where}: missing key 'card'")
    name = known_card(spec["card"], cards, f"{where}.card")
    if cards[name].type != CHAMPION:
        raise ScenarioError(f"{where}.card: {name!r} has type {cards[name].type}, not {CHAMPION}")
    return name, _flag(spec.get("exhausted", False), f"{where}.exhausted")


def not_champion(name: str, cards: dict[str, CardDef], where: str) -> None:
    if cards[name].type == CHAMPION:
        raise ScenarioError(
            f"{where}: {name!r} is a Champion: never in a hand, removed or enchained"
        )


def _parse_player(
    data: Any, where: str, cards: dict[str, CardDef], champions_on: bool, lane_names: set[str]
) -> None:
    pl = mapping(data, where, _PLAYER_KEYS)
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
            known_card(name, cards, f"{where}.hand[{i}]")
            not_champion(name, cards, f"{where}.hand[{i}]")
    if pl.get("stronghold", "bastion") not in ("bastion", "fort"):
        raise ScenarioError(f"{where}.stronghold: expected 'bastion' or 'fort'")
    count(pl.get("mana", 0), f"{where}.mana")
    removed = pl.get("removed") or []
    if not isinstance(removed, list):
        raise ScenarioError(f"{where}.removed: expected a list")
    for i, name in enumerate(removed):
        known_card(name, cards, f"{where}.removed[{i}]")
        not_champion(name, cards, f"{where}.removed[{i}]")
    if parse_lines(pl, where, cards, champion, lane_names) > 1:
        raise ScenarioError(f"{where}.lines: the Champion is in play only once")


def parse_lines(
    pl: dict[str, Any],
    where: str,
    cards: dict[str, CardDef],
    champion: tuple[str, bool] | None,
    lane_names: set[str],
) -> int:
    """Check ``pl['lines']``; returns how many times the Champion is in play."""
    lines = mapping(pl.get("lines") or {}, f"{where}.lines", lane_names)
    in_play = 0
    for line_name, entries in lines.items():
        entries = entries or []
        if not isinstance(entries, list):
            raise ScenarioError(f"{where}.lines.{line_name}: expected a list")
        for i, entry in enumerate(entries):
            at = f"{where}.lines.{line_name}[{i}]"
            if isinstance(entry, str):
                known_card(entry, cards, at)
                if not cards[entry].is_creature:
                    raise ScenarioError(f"{at}: {entry!r} is an incantation, not a creature")
                in_play += _champion_in_play(entry, champion, cards, at)
                continue
            entry = mapping(entry, at, _ENTRY_KEYS)
            if "card" not in entry:
                raise ScenarioError(f"{at}: missing key 'card'")
            known_card(entry["card"], cards, f"{at}.card")
            if not cards[entry["card"]].is_creature:
                raise ScenarioError(f"{at}.card: {entry['card']!r} is an incantation")
            in_play += _champion_in_play(entry["card"], champion, cards, f"{at}.card")
            count(entry.get("damage", 0), f"{at}.damage")
            _flag(entry.get("new", False), f"{at}.new")
            _flag(entry.get("protection_used", False), f"{at}.protection_used")
            if entry.get("symbiote") is not None:
                known_card(entry["symbiote"], cards, f"{at}.symbiote")
                in_play += _champion_in_play(entry["symbiote"], champion, cards, f"{at}.symbiote")
            for j, name in enumerate(as_list(entry.get("enchained"))):
                at_j = f"{at}.enchained[{j}]" if j else f"{at}.enchained"
                known_card(name, cards, at_j)
                not_champion(name, cards, at_j)
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


def as_list(value: Any) -> list[Any]:
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
        entry = mapping(raw, where, _ACTION_KEYS)
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
        known_card(entry["play"], cards, f"{where}.play")
        choices = [k for k in ("line", "onto", "target") if k in entry]
        if len(choices) != 1:
            raise ScenarioError(f"{where}: a play needs exactly one of 'line', 'onto' or 'target'")
        if "line" in entry and entry["line"] not in lane_names:
            raise ScenarioError(f"{where}.line: expected {_letters(lane_names)}")
        if "onto" in entry:
            known_card(entry["onto"], cards, f"{where}.onto")
        if "target" in entry:
            target = mapping(entry["target"], f"{where}.target", {"player", "card"})
            if target.get("player") not in names:
                raise ScenarioError(f"{where}.target.player: expected {_letters(names)}")
            if target.get("card") != STRONGHOLD:
                known_card(target.get("card"), cards, f"{where}.target.card")
        data_without_flag = {k: v for k, v in entry.items() if k != "illegal"}
        actions.append(ScenarioAction(data_without_flag, illegal, where))
    return actions


def _parse_expect(
    data: Any, cards: dict[str, CardDef], champions_on: bool, mode: Mode
) -> dict[str, Any]:
    expect = mapping(data, "expect", _EXPECT_KEYS)
    names = players_of(mode)
    if "winner" in expect:
        _parse_winner(expect["winner"], mode)
    if "active" in expect and expect["active"] not in names:
        raise ScenarioError(f"expect.active: expected {_letters(names)}")
    players = mapping(expect.get("players") or {}, "expect.players", set(names))
    for name, pl in players.items():
        where = f"expect.players.{name}"
        ai = is_ai(mode, name)
        pl = mapping(pl, where, AI_KEYS if ai else _EXPECT_PLAYER_KEYS)
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
                    known_card(card, cards, f"{where}.hand[{i}]")
        if "stronghold" in pl and pl["stronghold"] not in ("bastion", "fort"):
            raise ScenarioError(f"{where}.stronghold: expected 'bastion' or 'fort'")
        if "mana" in pl:
            count(pl["mana"], f"{where}.mana")
        if "removed" in pl and not isinstance(pl["removed"], list):
            raise ScenarioError(f"{where}.removed: expected a list")
        lane_names = set(lane_names_of(mode, names.index(name)))
        lines = mapping(pl.get("lines") or {}, f"{where}.lines", lane_names)
        for line_name, entries in lines.items():
            if not isinstance(entries, list):
                raise ScenarioError(f"{where}.lines.{line_name}: expected a list")
            for i, entry in enumerate(entries):
                at = f"{where}.lines.{line_name}[{i}]"
                if isinstance(entry, str):
                    known_card(entry, cards, at)
                else:
                    entry = mapping(entry, at, _ENTRY_KEYS)
                    if "card" in entry:
                        known_card(entry["card"], cards, f"{at}.card")
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


# ---- Solo mode (extension) -------------------------------------------------------------------


def ai_options_of(data: Any) -> AiOptions:
    """``state.options.ai``: the JSON form of :class:`AiOptions`."""
    try:
        return AiOptions.from_json(data, "state.options.ai")
    except InputError as exc:
        raise ScenarioError(str(exc)) from None


def _card_list(value: Any, cards: dict[str, CardDef], where: str) -> list[str]:
    if not isinstance(value, list):
        raise ScenarioError(f"{where}: expected a list (top card first)")
    for i, name in enumerate(value):
        known_card(name, cards, f"{where}[{i}]")
        not_champion(name, cards, f"{where}[{i}]")
    return value


def _parse_ai(data: Any, where: str, cards: dict[str, CardDef], lane_names: set[str]) -> None:
    """``players.AI``: ``deck`` and ``discard`` (top card first), ``stronghold`` (the side under
    the deck pile), ``lines`` and ``mana``; no hand."""
    pl = mapping(data, where, AI_KEYS)
    for key in ("deck", "discard"):
        _card_list(pl.get(key) or [], cards, f"{where}.{key}")
    if pl.get("stronghold", "bastion") not in ("bastion", "fort"):
        raise ScenarioError(f"{where}.stronghold: expected 'bastion' or 'fort'")
    count(pl.get("mana", 0), f"{where}.mana")
    parse_lines(pl, where, cards, None, lane_names)
