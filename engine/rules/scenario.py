"""Rules scenarios (``shared/specs/scenario-format.md``): load, build the position, play, compare.

Reading a file into a :class:`Scenario` is ``engine.rules.scenario_format``'s (:func:`parse`,
imported here with it, the public path). The loading half (:func:`parse`, :func:`build_state`,
:func:`compare`) needs no files and no database, so the web app can reuse it for Grimoire
puzzles. ``python -m engine.rules.scenario
PATH...`` runs files or folders and prints ``PASS``/``FAIL`` lines and a summary.
"""

from __future__ import annotations

import contextlib
import random
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from engine.rules import board
from engine.rules.actions import END_TURN_ACTION, Action, apply, from_json
from engine.rules.actions import STRONGHOLD_TOKEN as STRONGHOLD
from engine.rules.assault import assault
from engine.rules.cards import CardDef
from engine.rules.errors import GameOver, IllegalAction, InputError, NotSupported, ScenarioError
from engine.rules.kingdom import HandKingdom, hand_of
from engine.rules.modes import AUTOMATON, HAND
from engine.rules.scenario_format import (
    SUFFIXES,
    Scenario,
    ai_options_of,
    as_list,
    is_ai,
    lane_names_of,
    load_file,
    parse,
    players_of,
    scenario_mode,
)
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
        ai=ai_options_of(options_spec["ai"]) if "ai" in options_spec else None,
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
                for card in as_list(entry.get("enchained")):
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
        if is_ai(mode, name):
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
                    for c in as_list(entry.get("enchained"))
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
        if is_ai(state.setup.mode, name):
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
