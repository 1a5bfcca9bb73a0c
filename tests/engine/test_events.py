"""Events and refusals are codes with arguments; the one English template table renders them."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from engine.rules import Options, new_game
from engine.rules.agents import GreedyAgent, play_game
from engine.rules.events import EVENTS, REFUSALS, Event, emit, english, render, render_log
from engine.rules.rule_ids import RULES

from .support import precon_decks

ENGINE = Path(__file__).resolve().parents[2] / "engine" / "rules"


def _fields(template: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(template) if name]


@pytest.mark.parametrize("table", [EVENTS, REFUSALS])
def test_every_code_renders_and_cites_a_rule(table) -> None:
    for code, (rule_id, template) in table.items():
        assert rule_id in RULES, code
        args = tuple((name, 0) for name in _fields(template))
        text = english(table, code, args, ["Ogre"])
        assert "{" not in text and text.endswith((".", ":")), code


def test_every_code_is_emitted_somewhere() -> None:
    sources = "".join(path.read_text() for path in ENGINE.rglob("*.py") if path.name != "events.py")
    emitted = set(re.findall(r'emit\(\s*[\w.]+,\s*"(\w+)"', sources))
    # The game-end codes go through lose(); where a returning card went, through received().
    emitted |= set(re.findall(r'lose\(state, self\.seat, "(\w+)"', sources))
    emitted |= set(re.findall(r'return "(returns_\w+)"', sources))
    for pair in re.findall(r'"(returns_\w+)" if where == \w+ else "(returns_\w+)"', sources):
        emitted |= set(pair)
    assert emitted == set(EVENTS)
    refused = set(re.findall(r'IllegalAction\(\s*"(\w+)"', sources))
    assert refused == set(REFUSALS)


def test_arguments_name_cards_players_and_lines() -> None:
    names = ["Ogre", "Imp"]
    event = Event("play_line", (("player", 1), ("card", 0), ("line", 1)))
    assert render(event, names) == "B plays Ogre on the bottom line."
    assert event.rule_id == "creature-placement"
    # A card named by a string (read from a file, matching no card) is shown as given; an id
    # out of range as its number.
    assert english(REFUSALS, "not_in_hand", (("card", "Elk"),), names) == "Elk is not in your hand."
    assert english(REFUSALS, "not_in_hand", (("card", 7),), names) == "card 7 is not in your hand."
    # Arguments no template uses are kept: the source of a damage instance.
    log: list[Event] = []
    emit(log, "stronghold_damage", player=0, amount=2, hp=5, source=1, source_player=1)
    assert render(log[0], names) == "A's Stronghold takes 2 damage (5 HP left)."
    assert json.loads(json.dumps(log[0].to_json())) == {
        "code": "stronghold_damage",
        "args": {"player": 0, "amount": 2, "hp": 5, "source": 1, "source_player": 1},
    }


def test_a_game_logs_events_only_when_asked() -> None:
    assert new_game(precon_decks(), 3).log is None
    result = play_game(precon_decks(), 3, [GreedyAgent(), GreedyAgent()], Options(log=True))
    log = result.state.log
    assert log is not None and all(type(event) is Event for event in log)
    lines = render_log(log, result.state.setup.names)
    assert lines[0] == f"Set-up: {'AB'[result.state.first_player]} plays first."
    assert len(lines) == len(log)
