"""The replay viewer draws the one board of every page (engine.display.board from the engine's
observation): what the Play table shows of a creature, its replay shows too (issue 27: the
replay's creatures had no cards held by Enchain)."""

from pathlib import Path

import yaml
from django.template.loader import render_to_string

from engine.display.replay_steps import replay_context
from engine.rules.scenario import build_state, parse
from engine.simulation import replay_frames

SCENARIO = (
    Path(__file__).resolve().parents[1]
    / "scenarios/engine-dev/enchain-released-by-incantation.yaml"
)


def test_the_replay_shows_the_cards_a_creature_holds_by_enchain() -> None:
    state = build_state(parse(yaml.safe_load(SCENARIO.read_text())))
    state.log = []
    frames, _named = replay_frames(state, lambda _position: None)
    context = replay_context(
        {}, frames, "/replay/", cards=list(state.setup.names), faces={}, labels={},
        letters=["A", "B"], titles=["Deck A", "Deck B"],
    )  # fmt: skip
    board = context["board"]
    jailer = board.lines[0].right.creatures[0]
    assert (jailer.face.name, [face.name for face in jailer.chained]) == ("Jailer", ["Gem"])
    html = render_to_string("engine/board.html", {"board": board})
    assert '<span class="board-chained">Enchained: Gem</span>' in html
