"""Replays: ``{rules_version, seed, decks, options, actions}`` as JSON (plus ``champions`` when
the players had Champions, and ``result``).

Decks and Champions are stored as full card definitions (a mutated card replays as it was played)
and actions in the readable scenario form. Same seed + same actions gives the same game on any
machine, so a replay is also the regression test of a bug found by fuzzing.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.rules.actions import Action, apply, from_json, to_json
from engine.rules.cards import CardDef
from engine.rules.champion import champion_from_json
from engine.rules.errors import IllegalAction, InputError, NotSupported, ReplayError
from engine.rules.state import PLAYER_NAMES, RULES_VERSION, GameState, Options
from engine.rules.turn import new_game

KEYS = ("rules_version", "seed", "decks", "options", "actions")
OPTIONAL_KEYS = ("champions", "result")


@dataclass(frozen=True)
class Replay:
    seed: int
    decks: tuple[tuple[CardDef, ...], ...]
    options: Options
    actions: tuple[Any, ...]
    rules_version: str = RULES_VERSION
    # {"winner": "A"|"B"|None, "turns": n}: checked when replayed, if present. With four
    # players, the first winning seat (a team's first partner, A or B).
    result: dict[str, Any] | None = None
    # One Champion (or None) per player (Champion module); None: no Champions.
    champions: tuple[CardDef | None, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "rules_version": self.rules_version,
            "seed": self.seed,
            "decks": [[card.to_json() for card in deck] for deck in self.decks],
            "options": self.options.to_json(),
            "actions": list(self.actions),
        }
        if self.champions is not None:
            data["champions"] = [
                None if card is None else card.to_json() for card in self.champions
            ]
        if self.result is not None:
            data["result"] = self.result
        return data


def record(
    decks: Sequence[Sequence[CardDef]],
    seed: int,
    options: Options | None,
    actions: Sequence[Action],
    champions: Sequence[CardDef | None] | None = None,
) -> Replay:
    """The replay of a game given as engine actions (they are replayed to name the cards)."""
    state = new_game(decks, seed, options or Options(), champions)
    readable = []
    for action in actions:
        readable.append(to_json(state, action))
        apply(state, action)
    return recorded(decks, seed, options, readable, state, champions)


def recorded(
    decks: Sequence[Sequence[CardDef]],
    seed: int,
    options: Options | None,
    readable: Sequence[Any],
    final: GameState,
    champions: Sequence[CardDef | None] | None = None,
) -> Replay:
    """The replay of a game whose actions were named (`to_json`) while it was played, which
    ended in state `final`: nothing to play again."""
    return Replay(
        seed=seed,
        decks=tuple(tuple(deck) for deck in decks),
        options=options or Options(),
        actions=tuple(readable),
        result={"winner": _winner(final), "turns": final.turn},
        champions=None if champions is None else tuple(champions),
    )


def _winner(state: GameState) -> str | None:
    """The first winning seat's letter (a Duel and Free-For-All have one winner by a card),
    None: no winner (a draw)."""
    if state.outcome is None:
        return None
    return PLAYER_NAMES[state.outcome.winners()[0]]


def parse(data: Any) -> Replay:
    """Validate a replay's JSON content; the message names the offending key."""
    if not isinstance(data, dict):
        raise ReplayError("replay: expected a JSON object")
    for key in data:
        if key not in KEYS and key not in OPTIONAL_KEYS:
            raise ReplayError(f"replay: unknown key {key!r}")
    for key in KEYS:
        if key not in data:
            raise ReplayError(f"replay: missing key {key!r}")
    if data["rules_version"] != RULES_VERSION:
        version = data["rules_version"]
        raise ReplayError(
            f"replay.rules_version: {version!r} is not this engine's {RULES_VERSION!r}"
        )
    seed = data["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ReplayError("replay.seed: expected a whole number")
    decks_data = data["decks"]
    if not isinstance(decks_data, list) or len(decks_data) not in (2, 4):
        raise ReplayError("replay.decks: expected a list of 2 or 4 decks")
    decks = []
    for p, deck in enumerate(decks_data):
        if not isinstance(deck, list):
            raise ReplayError(f"replay.decks[{p}]: expected a list of cards")
        try:
            decks.append(
                tuple(CardDef.from_json(c, f"replay.decks[{p}][{i}]") for i, c in enumerate(deck))
            )
        except InputError as exc:
            raise ReplayError(str(exc)) from None
    try:
        options = Options.from_json(data["options"], "replay.options")
    except InputError as exc:
        raise ReplayError(str(exc)) from None
    if options.log:
        raise ReplayError("replay.options: 'log' is not a game option")
    actions = data["actions"]
    if not isinstance(actions, list):
        raise ReplayError("replay.actions: expected a list")
    result = data.get("result")
    if result is not None and (
        not isinstance(result, dict)
        or set(result) - {"winner", "turns"}
        or result.get("winner") not in (None, *PLAYER_NAMES[: len(decks)])
    ):
        raise ReplayError("replay.result: expected {winner: a player letter or null, turns: n}")
    champions = _parse_champions(data.get("champions"), len(decks))
    return Replay(
        seed, tuple(decks), options, tuple(actions), data["rules_version"], result, champions
    )


def _parse_champions(data: Any, players: int) -> tuple[CardDef | None, ...] | None:
    if data is None:
        return None
    if not isinstance(data, list) or len(data) != players:
        raise ReplayError(f"replay.champions: expected a list of {players} Champions or nulls")
    try:
        return tuple(
            None if card is None else champion_from_json(card, f"replay.champions[{p}]")
            for p, card in enumerate(data)
        )
    except InputError as exc:
        raise ReplayError(str(exc)) from None


def load(path: Path) -> Replay:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ReplayError(f"{path}: cannot read the file ({exc.strerror})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReplayError(f"{path}: not valid JSON ({exc.msg}, line {exc.lineno})") from None
    return parse(data)


def dumps(replay: Replay) -> str:
    """JSON text of a replay, one card and one action per line (readable and diff-friendly)."""
    data = replay.to_json()

    def one(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    lines = ["{"]
    for key in ("rules_version", "seed", "options"):
        lines.append(f"  {one(key)}: {one(data[key])},")
    decks = ",\n".join(
        "    [\n" + ",\n".join(f"      {one(card)}" for card in deck) + "\n    ]"
        for deck in data["decks"]
    )
    lines.append(f'  "decks": [\n{decks}\n  ],')
    if "champions" in data:
        lines.append(f'  "champions": {one(data["champions"])},')
    actions = ",\n".join(f"    {one(action)}" for action in data["actions"])
    lines.append(f'  "actions": [\n{actions}\n  ]' + ("," if "result" in data else ""))
    if "result" in data:
        lines.append(f'  "result": {one(data["result"])}')
    lines.append("}")
    return "\n".join(lines) + "\n"


def save(path: Path, replay: Replay) -> None:
    path.write_text(dumps(replay), encoding="utf-8")


def play(replay: Replay, log: bool = False) -> GameState:
    """Replay every action; the final state, or :class:`ReplayError` naming the bad action."""
    options = replay.options
    if log:
        options = dataclasses.replace(options, log=True)
    try:
        state = new_game(replay.decks, replay.seed, options, replay.champions)
    except NotSupported as exc:
        raise ReplayError(f"replay.options: {exc}") from None
    except InputError as exc:
        where = "replay.champions" if str(exc).startswith("champion") else "replay.decks"
        raise ReplayError(f"{where}: {exc}") from None
    for i, data in enumerate(replay.actions):
        try:
            apply(state, from_json(state, data))
        except IllegalAction as exc:
            raise ReplayError(f"replay.actions[{i}]: illegal action: {exc.message_en}") from None
        except InputError as exc:
            raise ReplayError(f"replay.actions[{i}]: {exc}") from None
    if replay.result is not None:
        winner = _winner(state)
        expected = (replay.result.get("winner"), replay.result.get("turns", state.turn))
        if (winner, state.turn) != expected:
            raise ReplayError(
                f"replay.result: the game ends with winner {winner} after {state.turn} turns, "
                f"the replay says winner {expected[0]} after {expected[1]} turns"
            )
    return state
