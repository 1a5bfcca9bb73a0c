"""Duel of Chaos rules scenarios (``docs/chaos/scenario-format.md``): load, build, play, compare.

A parallel of the Clash of Decks scenarios (``engine.rules.scenario``): every card a scenario uses
is defined in the file, a position (or a set-up from given orders), actions, and only the keys
given under ``expect`` are compared. ``python -m engine.chaos.scenario PATH...`` runs files or
folders and prints ``PASS``/``FAIL`` lines and a summary; the exit status is 0 only if all pass.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import yaml

from engine.chaos import domain
from engine.chaos.actions import apply, from_json
from engine.chaos.cards import ChaosCardDef, card_from_fields
from engine.chaos.errors import IllegalAction, InputError, ScenarioError
from engine.chaos.events import SEATS
from engine.chaos.modes import MODES, mode_named
from engine.chaos.rule_ids import RULES
from engine.chaos.state import (
    COMBO,
    KIND_NAMES,
    NO_CARD,
    PHASE_NAMES,
    RECRUITMENT,
    ChaosState,
    Options,
    Setup,
)
from engine.chaos.turn import begin, run
from engine.chaos.view import seat_view

SUFFIXES: Final = (".yaml", ".yml", ".json")
_TOP_KEYS: Final = {
    "description",
    "source",
    "rules",
    "cards",
    "setup",
    "state",
    "actions",
    "expect",
}
_SETUP_KEYS: Final = {"mode", "first", "decks", "domain_pile", "interventions", "turn_limit"}
_STATE_KEYS: Final = {
    "mode",
    "active",
    "phase",
    "turn",
    "turn_limit",
    "seed",
    "players",
    "domain",
    "pile",
    "void",
    "interventions",
}
_ZONES: Final = ("hand", "deck", "played", "recruited", "discard")
_PLAYER_KEYS: Final = {*_ZONES, "bonus", "spent", "awakened", "used", "turns"}
_EXPECT_KEYS: Final = {
    "winner",
    "over",
    "active",
    "phase",
    "turn",
    "decision",
    "players",
    "domain",
    "pile",
    "void",
    "interventions",
    "events",
    "view",
}
_EXPECT_PLAYER_KEYS: Final = {
    *_ZONES,
    *(f"{zone}_count" for zone in _ZONES),
    "resources",
    "awakened",
    "used",
}


@dataclass
class Scenario:
    description: str
    rules: list[str]
    cards: dict[str, ChaosCardDef]
    setup: dict[str, Any] | None
    state: dict[str, Any] | None
    actions: list[tuple[Any, bool, str]]
    expect: dict[str, Any]
    source: str = ""
    raw: dict[str, Any] = field(default_factory=dict, repr=False)


def load_file(path: Path) -> Any:
    text = path.read_text(encoding="utf-8")
    try:
        return json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    except (yaml.YAMLError, json.JSONDecodeError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ScenarioError(f"not valid {path.suffix[1:].upper()}: {first}") from None


def _mapping(value: Any, where: str, allowed: set[str] | frozenset[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ScenarioError(f"{where}: expected a mapping")
    for key in value:
        if key not in allowed:
            raise ScenarioError(f"{where}: unknown key {key!r}")
    return value


def _names(value: Any, cards: dict[str, ChaosCardDef], where: str) -> list[str]:
    if not isinstance(value, list):
        raise ScenarioError(f"{where}: expected a list of card names")
    for index, name in enumerate(value):
        if not isinstance(name, str) or name not in cards:
            raise ScenarioError(f"{where}[{index}]: unknown card {name!r} (not under 'cards')")
    return value


def _seat(value: Any, where: str, seats: int) -> int:
    if value not in SEATS[:seats]:
        raise ScenarioError(f"{where}: expected {' or '.join(SEATS[:seats])}, not {value!r}")
    return SEATS.index(value)


def _whole(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ScenarioError(f"{where}: expected a whole number >= 0")
    return value


def parse(data: Any) -> Scenario:
    """Validate a scenario's structure; errors name the offending key."""
    top = _mapping(data, "scenario", _TOP_KEYS)
    for key in ("rules", "cards", "expect"):
        if key not in top:
            raise ScenarioError(f"missing key {key!r}")
    if ("setup" in top) == ("state" in top):
        raise ScenarioError("give either 'setup' (a set-up from given orders) or 'state'")
    rules = top["rules"]
    if not isinstance(rules, list) or not rules:
        raise ScenarioError("rules: expected a list of rule ids")
    for index, rule in enumerate(rules):
        if rule not in RULES:
            raise ScenarioError(f"rules[{index}]: unknown rule id {rule!r}")
    cards: dict[str, ChaosCardDef] = {}
    if not isinstance(top["cards"], dict):
        raise ScenarioError("cards: expected a mapping")
    for name, spec in top["cards"].items():
        where = f"cards.{name}"
        if not isinstance(name, str) or not name:
            raise ScenarioError(f"{where}: a card name must be a non-empty string")
        if not isinstance(spec, dict):
            raise ScenarioError(f"{where}: expected a mapping of fields")
        try:
            cards[name] = card_from_fields({**spec, "name": name}, where)
        except InputError as exc:
            raise ScenarioError(str(exc)) from None
    setup = state = None
    if "setup" in top:
        setup = _mapping(top["setup"], "setup", _SETUP_KEYS)
        mode = mode_named(str(setup.get("mode", "duel")))
        decks = _mapping(setup.get("decks"), "setup.decks", set(SEATS[: mode.seats]))
        for seat, names in decks.items():
            _names(names, cards, f"setup.decks.{seat}")
        _seat(setup.get("first", "A"), "setup.first", mode.seats)
        _names(setup.get("domain_pile", []), cards, "setup.domain_pile")
        _names(setup.get("interventions", []), cards, "setup.interventions")
    else:
        state = _parse_state(top["state"], cards)
    actions = []
    raw_actions = top.get("actions") or []
    if not isinstance(raw_actions, list):
        raise ScenarioError("actions: expected a list")
    for index, raw in enumerate(raw_actions):
        where = f"actions[{index}]"
        illegal = False
        if isinstance(raw, dict) and "illegal" in raw:
            illegal = raw["illegal"] is True
            raw = {key: value for key, value in raw.items() if key != "illegal"}
        actions.append((raw, illegal, where))
    expect = _mapping(top["expect"], "expect", _EXPECT_KEYS)
    for seat, spec in (expect.get("players") or {}).items():
        _mapping(spec, f"expect.players.{seat}", _EXPECT_PLAYER_KEYS)
    return Scenario(
        description=str(top.get("description") or ""),
        rules=rules,
        cards=cards,
        setup=setup,
        state=state,
        actions=actions,
        expect=expect,
        source=str(top.get("source") or ""),
        raw=top,
    )


def _parse_state(data: Any, cards: dict[str, ChaosCardDef]) -> dict[str, Any]:
    state = _mapping(data, "state", _STATE_KEYS)
    mode = mode_named(str(state.get("mode", "duel")))
    _seat(state.get("active", "A"), "state.active", mode.seats)
    if state.get("phase", "combo") not in ("combo", "recruitment"):
        raise ScenarioError("state.phase: expected 'combo' or 'recruitment'")
    for key in ("turn", "turn_limit", "seed"):
        if key in state:
            _whole(state[key], f"state.{key}")
    players = _mapping(state.get("players") or {}, "state.players", set(SEATS[: mode.seats]))
    for seat, spec in players.items():
        where = f"state.players.{seat}"
        spec = _mapping(spec, where, _PLAYER_KEYS)
        for zone in (*_ZONES, "used"):
            _names(spec.get(zone, []), cards, f"{where}.{zone}")
        for key in ("bonus", "spent", "turns"):
            if key in spec:
                _whole(spec[key], f"{where}.{key}")
    slots = state.get("domain", [])
    if not isinstance(slots, list) or len(slots) > 5:
        raise ScenarioError("state.domain: expected a list of at most 5 slots")
    for index, slot in enumerate(slots):
        _names(slot if isinstance(slot, list) else [slot], cards, f"state.domain[{index}]")
    for key in ("pile", "void", "interventions"):
        _names(state.get(key, []), cards, f"state.{key}")
    return state


# ---- building the position ----------------------------------------------------------------------


class _Builder:
    """Card ids handed out as the scenario names cards: each name in a zone is one card."""

    def __init__(self, cards: dict[str, ChaosCardDef]) -> None:
        self.defs = cards
        self.cards: list[ChaosCardDef] = []
        self.owner: list[int] = []

    def ids(self, names: list[str], owner: int = NO_CARD) -> list[int]:
        first = len(self.cards)
        for name in names:
            self.cards.append(self.defs[name])
            self.owner.append(owner)
        return list(range(first, len(self.cards)))


def build_state(scenario: Scenario) -> ChaosState:
    """The position of the scenario (its set-up performed, or its state), at its first decision."""
    builder = _Builder(scenario.cards)
    if scenario.setup is not None:
        spec = scenario.setup
        mode = mode_named(str(spec.get("mode", "duel")))
        decks = [
            builder.ids(spec["decks"].get(seat, []), i)
            for i, seat in enumerate(SEATS[: mode.seats])
        ]
        pile = builder.ids(spec.get("domain_pile", []))
        interventions = builder.ids(spec.get("interventions", []))
        options = Options(mode=mode.name, log=True, turn_limit=spec.get("turn_limit"))
        state = ChaosState(Setup(builder.cards, mode, options, None), 0)
        begin(state, SEATS.index(spec.get("first", "A")), decks, pile, interventions)
        return state
    spec = scenario.state or {}
    mode = mode_named(str(spec.get("mode", "duel")))
    players = spec.get("players") or {}
    zones = []
    for seat_index, seat in enumerate(SEATS[: mode.seats]):
        player = players.get(seat) or {}
        zones.append({zone: builder.ids(player.get(zone, []), seat_index) for zone in _ZONES})
    slots = [
        builder.ids(slot if isinstance(slot, list) else [slot]) for slot in spec.get("domain", [])
    ]
    pile = builder.ids(spec.get("pile", []))
    void = builder.ids(spec.get("void", []))
    interventions = builder.ids(spec.get("interventions", []))
    options = Options(mode=mode.name, log=True, turn_limit=spec.get("turn_limit"))
    state = ChaosState(Setup(builder.cards, mode, options, None), spec.get("seed", 0))
    state.owner = builder.owner
    for seat_index, seat in enumerate(SEATS[: mode.seats]):
        player = state.players[seat_index]
        raw = players.get(seat) or {}
        for zone in _ZONES:
            setattr(player, zone, zones[seat_index][zone])
        player.bonus = raw.get("bonus", 0)
        player.spent = raw.get("spent", 0)
        player.awakened = bool(raw.get("awakened", False))
        player.used = [
            card for card in interventions if state.setup.names[card] in raw.get("used", [])
        ]
        player.turns = raw.get("turns", 1)
    state.pile = pile
    if mode.domain:
        # An empty slot is refilled at once (rule domain-refill): no position waits with one.
        state.domain = slots + [[] for _ in range(5 - len(slots))]
        domain.settle(state)
    state.void = void
    state.interventions = interventions
    state.active = SEATS.index(spec.get("active", "A"))
    state.turn = spec.get("turn", 1)
    state.phase = RECRUITMENT if spec.get("phase") == "recruitment" else COMBO
    run(state)
    return state


# ---- comparing --------------------------------------------------------------------------------


def _zone_diff(actual: list[str], expected: Any, where: str) -> list[str]:
    if isinstance(expected, dict) and set(expected) == {"any_order"}:
        if Counter(actual) != Counter(expected["any_order"]):
            return [
                f"{where} is {sorted(actual)}, expected {sorted(expected['any_order'])} "
                "in any order"
            ]
        return []
    if actual != expected:
        return [f"{where} is {actual}, expected {expected}"]
    return []


def _subset(actual: Any, expected: Any, where: str) -> list[str]:
    """``expected`` compared with ``actual``: mappings by the keys given, the rest exactly."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{where} is {actual!r}, expected a mapping"]
        diffs = []
        for key, value in expected.items():
            if key not in actual:
                diffs.append(f"{where}.{key} is missing")
            else:
                diffs.extend(_subset(actual[key], value, f"{where}.{key}"))
        return diffs
    if isinstance(expected, list) and isinstance(actual, list):
        if all(isinstance(item, str) for item in expected):
            # Card names compared with the view's cards.
            names = [item.get("name") if isinstance(item, dict) else item for item in actual]
            return [] if names == expected else [f"{where} is {names}, expected {expected}"]
        if len(actual) == len(expected):
            return [
                diff
                for index, (got, wanted) in enumerate(zip(actual, expected, strict=True))
                for diff in _subset(got, wanted, f"{where}[{index}]")
            ]
    return [] if actual == expected else [f"{where} is {actual!r}, expected {expected!r}"]


def compare(state: ChaosState, expect: dict[str, Any], start: int = 0) -> list[str]:
    """The differences between ``state`` and ``expect`` (empty: it matches)."""
    names = state.setup.names
    diffs: list[str] = []

    def named(cards: list[int]) -> list[str]:
        return [names[card] for card in cards]

    if "winner" in expect:
        winner = None if state.winner is None else SEATS[state.winner]
        if winner != expect["winner"]:
            diffs.append(f"winner is {winner}, expected {expect['winner']}")
    if "over" in expect and (state.phase == 5) != expect["over"]:
        diffs.append(f"over is {state.phase == 5}, expected {expect['over']}")
    if "active" in expect and SEATS[state.active] != expect["active"]:
        diffs.append(f"active is {SEATS[state.active]}, expected {expect['active']}")
    if "phase" in expect and PHASE_NAMES[state.phase] != expect["phase"]:
        diffs.append(f"phase is {PHASE_NAMES[state.phase]}, expected {expect['phase']}")
    if "turn" in expect and state.turn != expect["turn"]:
        diffs.append(f"turn is {state.turn}, expected {expect['turn']}")
    if "decision" in expect:
        decision = state.decision
        actual = None
        if decision is not None:
            actual = {
                "seat": SEATS[decision.seat],
                "kind": KIND_NAMES[decision.kind],
                "reason": decision.reason,
                "options": sorted(_option_names(state)),
            }
        if expect["decision"] is None or actual is None:
            if expect["decision"] != actual:
                diffs.append(f"decision is {actual}, expected {expect['decision']}")
        else:
            wanted = dict(expect["decision"])
            if "options" in wanted:
                wanted["options"] = sorted(wanted["options"])
            diffs.extend(_subset(actual, wanted, "decision"))
    for seat, spec in (expect.get("players") or {}).items():
        if seat not in SEATS[: len(state.players)]:
            diffs.append(f"expect.players.{seat}: no such player")
            continue
        player = state.players[SEATS.index(seat)]
        where = f"players.{seat}"
        for zone in _ZONES:
            cards = getattr(player, zone)
            if zone in spec:
                diffs.extend(_zone_diff(named(cards), spec[zone], f"{where}.{zone}"))
            if f"{zone}_count" in spec and len(cards) != spec[f"{zone}_count"]:
                diffs.append(
                    f"{where}.{zone}_count is {len(cards)}, expected {spec[f'{zone}_count']}"
                )
        if "resources" in spec and player.resources() != spec["resources"]:
            diffs.append(f"{where}.resources is {player.resources()}, expected {spec['resources']}")
        if "awakened" in spec and player.awakened != spec["awakened"]:
            diffs.append(f"{where}.awakened is {player.awakened}, expected {spec['awakened']}")
        if "used" in spec:
            diffs.extend(_zone_diff(named(player.used), spec["used"], f"{where}.used"))
    if "domain" in expect:
        slots = [named(slot) for slot in state.domain]
        if slots != expect["domain"]:
            diffs.append(f"domain is {slots}, expected {expect['domain']}")
    for key in ("pile", "void", "interventions"):
        if key in expect:
            diffs.extend(_zone_diff(named(getattr(state, key)), expect[key], key))
    if "events" in expect:
        codes = [event.code for event in (state.log or [])[start:]]
        awaited = list(expect["events"])
        position = 0
        for code in codes:
            if position < len(awaited) and code == awaited[position]:
                position += 1
        if position < len(awaited):
            diffs.append(f"events {codes} do not include {awaited} in this order")
    for seat, spec in (expect.get("view") or {}).items():
        seat_index = -1 if seat == "spectator" else SEATS.index(seat)
        diffs.extend(_subset(seat_view(state, seat_index), spec, f"view.{seat}"))
    return diffs


def _option_names(state: ChaosState) -> list[Any]:
    decision = state.decision
    assert decision is not None
    if KIND_NAMES[decision.kind] in ("pick", "order"):
        return [state.setup.names[card] for card in decision.options]
    return list(decision.options)


# ---- running ------------------------------------------------------------------------------------


def run_scenario(scenario: Scenario) -> list[str]:
    """Play the scenario; what went wrong (empty when it passes)."""
    state = build_state(scenario)
    start = 0
    for data, illegal, where in scenario.actions:
        before = state.copy()
        try:
            action = from_json(state, data)
            apply(state, action)
        except IllegalAction as exc:
            if not illegal:
                return [f"{where} was refused: {exc.message_en} (rule {exc.rule_id})"]
            if state != before:
                return [f"{where} was refused but changed the position"]
            continue
        except InputError as exc:
            return [f"{where}: {exc}"]
        if illegal:
            return [f"{where} should have been refused but was accepted"]
    return compare(state, scenario.expect, start)


def run_file(path: Path) -> list[str]:
    try:
        return run_scenario(parse(load_file(path)))
    except InputError as exc:
        return [str(exc)]
    except OSError as exc:
        return [f"cannot read the file: {exc.strerror}"]


def scenario_files(paths: Sequence[str]) -> Iterator[Path]:
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.suffix in SUFFIXES and p.is_file())
        else:
            yield path


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print("usage: python -m engine.chaos.scenario PATH [PATH ...]", file=sys.stderr)
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


__all__ = ["MODES", "main", "parse", "run_file"]

if __name__ == "__main__":
    sys.exit(main())
