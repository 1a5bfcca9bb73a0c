"""Solo mode: the AI's parameters (Custom Play), the set-up and the automaton's turn."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.rules import (
    END_TURN_ACTION,
    Options,
    apply,
    legal_actions,
    load_catalogue,
    native,
    new_game,
)
from engine.rules.abilities.registry import REGISTRY
from engine.rules.agents import (
    Agent,
    GreedyAgent,
    LookaheadAgent,
    RandomAgent,
    StrongAgent,
    play_game,
)
from engine.rules.ai_options import GIVEN_ABILITIES, AiOptions
from engine.rules.champion import stand_in
from engine.rules.errors import InputError
from engine.rules.kingdom import AutomatonKingdom, HandKingdom
from engine.rules.play import main as play_main
from engine.rules.replay import dumps, parse, play, record
from engine.rules.scenario import run_file
from engine.rules.solo import preconstructed
from engine.rules.state import SUMMONING, new_creature

from .solo_fingerprint import solo_fingerprint


def test_quick_play_is_the_default_and_its_json_names_every_key() -> None:
    assert AiOptions().to_json() == {
        "fixed_mana": 6,
        "mana_per_creature": 1,
        "ai_first": False,
        "resistance": False,
        "abilities": [],
        "champion": False,
        "bastion": True,
    }
    assert AiOptions().quick_play
    assert not AiOptions(fixed_mana=7).quick_play


def test_custom_play_round_trips_through_json() -> None:
    custom = AiOptions(
        fixed_mana=9,
        mana_per_creature=2,
        ai_first=True,
        resistance=True,
        abilities=("rage", "splash"),
        champion=True,
        bastion=False,
        edition="2021",
    )
    assert AiOptions.from_json(custom.to_json()) == custom
    assert AiOptions.from_json({"fixed_mana": 8}) == AiOptions(fixed_mana=8)
    assert AiOptions.from_json(None) == AiOptions()
    options = Options(mode="solo", ai=custom)
    assert Options.from_json(options.to_json()) == options


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "ai: expected a mapping"),
        ({"level": 3}, "ai: unknown key 'level'"),
        ({"fixed_mana": 5}, "ai.fixed_mana: expected a whole number from 6 to 10, not 5"),
        ({"fixed_mana": 11}, "ai.fixed_mana: expected a whole number from 6 to 10, not 11"),
        ({"fixed_mana": True}, "ai.fixed_mana: expected a whole number from 6 to 10, not True"),
        ({"fixed_mana": "7"}, "ai.fixed_mana: expected a whole number from 6 to 10, not '7'"),
        ({"mana_per_creature": 3}, "ai.mana_per_creature: expected 1 or 2, not 3"),
        ({"ai_first": 1}, "ai.ai_first: expected true or false"),
        ({"resistance": "yes"}, "ai.resistance: expected true or false"),
        ({"abilities": "rage"}, "ai.abilities: expected a list of ability codes"),
        ({"abilities": ["rage", "rage"]}, "ai.abilities: an ability is given once"),
        ({"abilities": [["rage"]]}, "ai.abilities: ['rage'] is not an ability Custom Play gives"),
        ({"abilities": ["defender"]}, "ai.abilities: 'defender' is not an ability Custom Play"),
    ],
)
def test_untrusted_parameters_are_refused_naming_the_key(data: object, message: str) -> None:
    with pytest.raises(InputError) as error:
        AiOptions.from_json(data)
    assert str(error.value).startswith(message)


def test_the_preconstructed_set_up_gives_the_ai_the_other_three_decks() -> None:
    catalogue = load_catalogue()
    player, ai = preconstructed(catalogue, 2)
    assert player == catalogue.precon(2)
    assert ai == catalogue.precon(1) + catalogue.precon(3) + catalogue.precon(4)
    assert len(ai) == 24
    state = new_game([player, ai], 5, Options(mode="solo"))
    kingdom = state.players[1]
    assert isinstance(kingdom, AutomatonKingdom)
    assert isinstance(state.players[0], HandKingdom)
    assert sorted(kingdom.pile) == list(range(8, 32))
    assert (kingdom.discard, kingdom.fort, state.active, state.phase) == ([], False, 0, SUMMONING)
    # The player is first, with 6 Mana.
    assert state.players[0].mana == 6


def test_the_automaton_plays_its_turn_when_the_player_ends_theirs() -> None:
    player, ai = preconstructed(load_catalogue(), 1)
    state = new_game([player, ai], 5, Options(mode="solo", log=True))
    kingdom = state.players[1]
    assert isinstance(kingdom, AutomatonKingdom)
    pile = kingdom.pile[:]
    apply(state, END_TURN_ACTION)
    # The AI's whole turn ran inside apply: the player waits in their second Phase 2.
    assert (state.active, state.phase, state.turn, state.players[0].turns) == (0, SUMMONING, 3, 2)
    turn_2 = [e for e in state.log if dict(e.args).get("turn") == 2]
    assert len(turn_2) == 1
    codes = [e.code for e in state.log]
    ai_turn = codes[codes.index("turn", codes.index("turn") + 1) :]
    # Phase 1 (6 Mana: the player has no creature), then the reveals, then its Assault.
    assert ai_turn[:3] == ["turn", "mana", "reveal"]
    assert dict(state.log[codes.index("mana", codes.index("reveal") - 2)].args)["mana"] == 6
    revealed = [dict(e.args)["card"] for e in state.log if e.code == "reveal"]
    # The top card first: the end of the pile.
    assert revealed == pile[::-1][: len(revealed)]
    costs = [state.setup.cost[card] for card in revealed]
    assert sum(costs[:-1]) < 6 <= sum(costs)


def test_a_solo_game_replays_exactly_from_its_seed() -> None:
    player, ai = preconstructed(load_catalogue(), 3)
    options = Options(mode="solo", ai=AiOptions(fixed_mana=7, abilities=("sprint",)))
    first = play_game([player, ai], 11, [GreedyAgent(), GreedyAgent()], options)
    again = play_game([player, ai], 11, [GreedyAgent(), GreedyAgent()], options)
    assert first.state.outcome is not None
    assert (again.actions, again.state) == (first.actions, first.state)
    replay = parse(json.loads(dumps(record([player, ai], 11, options, first.actions))))
    assert replay.options == options
    assert play(replay) == first.state


@pytest.mark.parametrize(
    "agent",
    [
        RandomAgent(3),
        GreedyAgent(),
        LookaheadAgent(3, nodes=60, rollouts=1),
        StrongAgent(3, nodes=300),
    ],
    ids=["random", "greedy", "lookahead", "strong"],
)
def test_the_agents_play_the_players_side(agent: Agent) -> None:
    player, ai = preconstructed(load_catalogue(), 4)
    state = new_game([player, ai], 2, Options(mode="solo"))
    while state.outcome is None and state.turn < 60:
        # The automaton never waits for a choice: the player is active whenever asked.
        assert state.active == 0
        action = agent.choose(state)
        assert action in legal_actions(state)
        apply(state, action)
    assert state.outcome is not None
    assert state.outcome.returns in ((1, -1), (-1, 1))


def test_the_ai_first_plays_its_first_turn_inside_new_game() -> None:
    player, ai = preconstructed(load_catalogue(), 2)
    state = new_game([player, ai], 4, Options(mode="solo", ai=AiOptions(ai_first=True)))
    kingdom = state.players[1]
    assert (state.first_player, state.active, state.turn) == (1, 0, 2)
    assert kingdom.turns == 1 and any(kingdom.lines)
    # The player is second: their first turn has the full 9 Mana (ruling SO3, issue 28).
    assert state.players[0].mana == 9


def test_custom_play_sets_the_automaton_and_the_given_abilities() -> None:
    player, ai = preconstructed(load_catalogue(), 1)
    custom = AiOptions(
        fixed_mana=9,
        mana_per_creature=2,
        resistance=True,
        abilities=("rage",),
        bastion=False,
        edition="2021",
    )
    state = new_game([player, ai], 4, Options(mode="solo", ai=custom))
    kingdom = state.players[1]
    assert isinstance(kingdom, AutomatonKingdom)
    assert (kingdom.fixed_mana, kingdom.mana_per_enemy, kingdom.resistance, kingdom.fort) == (
        9,
        2,
        True,
        True,
    )
    setup = state.setup
    rage = REGISTRY["rage"].bit
    # Given by seat, not by card (ruling SO12): the cards keep their printed abilities and every
    # creature entering play for the AI's seat gets Rage, whichever deck it came from.
    assert setup.given == (0, rage)
    assert setup.mask == tuple(card_def.mask for card_def in setup.cards)
    assert setup.in_game & rage
    player_card = next(c for c, d in enumerate(setup.cards) if d.is_creature and not d.mask & rage)
    assert new_creature(setup, player_card, 1, 0).base & rage
    assert not new_creature(setup, player_card, 0, 0).base & rage


@pytest.mark.parametrize(
    ("options", "champions", "message"),
    [
        (Options(ai=AiOptions()), None, "options.ai: the duel mode has no AI"),
        (
            Options(mode="solo", first_player=0),
            None,
            "options.first_player: in Solo the player begins, or the AI with ai.ai_first",
        ),
        (
            Options(mode="solo", champions=True),
            "player",
            "champions: a Champion in Solo is a Custom Play parameter (set ai.champion)",
        ),
        (
            Options(mode="solo", champions=True, ai=AiOptions(champion=True)),
            "ai",
            "champions: the AI has no Champion (give None for it)",
        ),
        (
            Options(mode="solo", ai=AiOptions(champion=True)),
            None,
            "options.ai.champion: the player's Champion is missing (champions)",
        ),
    ],
)
def test_new_game_refuses_what_solo_does_not_offer(
    options: Options, champions: str | None, message: str
) -> None:
    catalogue = load_catalogue()
    player, ai = preconstructed(catalogue, 1)
    titan = stand_in(catalogue.find("Titan"))
    chosen = {None: None, "player": [titan, None], "ai": [None, titan]}[champions]
    decks = [player, ai] if options.mode == "solo" else [player, catalogue.precon(2)]
    with pytest.raises(InputError) as error:
        new_game(decks, 1, options, chosen)
    assert str(error.value) == message


def test_the_decks_of_a_solo_game() -> None:
    catalogue = load_catalogue()
    player, ai = preconstructed(catalogue, 1)
    with pytest.raises(InputError, match=r"^mode 'solo' needs 2 decks, not 1 \(the player's"):
        new_game([player], 1, Options(mode="solo"))
    with pytest.raises(InputError, match="the AI's deck pile needs at least one card"):
        new_game([player, []], 1, Options(mode="solo"))
    with pytest.raises(InputError, match="duplicate card"):
        new_game([player, ai + ai[:1]], 1, Options(mode="solo"))
    with pytest.raises(InputError, match="expected 1 to 4, not 5"):
        preconstructed(catalogue, 5)


def test_the_command_line_plays_solo(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        play_main(["--mode", "solo", "--deck-a", "1", "--games", "20", "--seed", "5", "--ai", "{}"])
        == 0
    )
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == [
        "A: greedy with preconstructed deck 1",
        "AI: the automaton with preconstructed decks 2, 3, 4, parameters "
        + json.dumps(AiOptions().to_json()),
    ]
    wins = [int(line.split()[1]) for line in lines[3:5]]
    draws = int(lines[5].rsplit(" ", 1)[1])
    assert (lines[3][:2], lines[4][:2], sum(wins) + draws) == ("A ", "AI", 20)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--deck-a", "Baron"], "--deck-b: give the AI's cards, or a preconstructed --deck-a"),
        (["--deck-a", "1", "--champion-b", "Titan"], "--champion-b: the AI has no Champion"),
        (["--deck-a", "1", "--ai", '{"fixed_mana": 12}'], "--ai.fixed_mana: expected a whole"),
        (["--deck-a", "1", "--ai", "{"], "--ai is not valid JSON"),
        (["--deck-a", "1", "--deck-b", "2,x"], "--deck-b: preconstructed deck numbers"),
    ],
)
def test_the_command_line_refuses_bad_solo_input(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        play_main(["--mode", "solo", *args])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.startswith(f"error: {message}")


SOLO_SCENARIO = """
cards:
  Pawn: {type: creature, cost: 1, attack: 1, hp: 1}
  Imp: {type: creature, cost: 2, attack: 1, hp: 2}
state:
  active: A
  options: {mode: solo}
  players:
    A: {hand: [STRONGHOLD, Pawn]}
    AI: {deck: [Imp]}
expect: {winner: null}
"""


@pytest.mark.parametrize(
    ("replace", "message"),
    [
        (
            ("{mode: solo}", "{mode: solo, ai: {fixed_mana: 11}}"),
            "state.options.ai.fixed_mana: expected a whole number from 6 to 10, not 11",
        ),
        (("{mode: solo}", "{ai: {}}"), "state.options.ai: only in mode solo or coop"),
        (("AI: {deck: [Imp]}", "AI: {hand: [STRONGHOLD, Imp]}"), "state.players.AI: unknown key"),
        (
            ("A: {hand: [STRONGHOLD, Pawn]}", "A: {hand: [STRONGHOLD, Pawn], deck: []}"),
            "state.players.A.deck: only the Solo AI has a deck pile",
        ),
        (
            ("AI: {deck: [Imp]}", "B: {deck: [Imp]}"),
            "state.players.B: mode 'solo' has the players A, AI",
        ),
        (("active: A", "active: B"), "state.active: expected 'A' or 'AI'"),
        (("{winner: null}", "{winner: B}"), "expect.winner: expected A, AI or null"),
        (("AI: {deck: [Imp]}", "AI: {deck: Imp}"), "state.players.AI.deck: expected a list"),
        (
            ("{winner: null}", "{players: {A: {discard: []}}}"),
            "expect.players.A.discard: only the Solo AI has a discard pile",
        ),
    ],
)
def test_solo_scenarios_name_the_offending_key(
    tmp_path: Path, replace: tuple[str, str], message: str
) -> None:
    path = tmp_path / "solo.yaml"
    path.write_text(SOLO_SCENARIO.replace(*replace), encoding="utf-8")
    (diff,) = run_file(path)
    assert diff.startswith(message)


def test_a_solo_scenario_passes_and_its_expectations_are_compared(tmp_path: Path) -> None:
    path = tmp_path / "solo.yaml"
    path.write_text(SOLO_SCENARIO, encoding="utf-8")
    assert run_file(path) == []
    path.write_text(
        SOLO_SCENARIO.replace("{winner: null}", "{players: {AI: {deck: [], discard: [Imp]}}}"),
        encoding="utf-8",
    )
    assert run_file(path) == [
        "players.AI.deck is ['Imp'], expected []",
        "players.AI.discard is [], expected ['Imp']",
    ]


def test_the_sources_and_this_engine_play_identical_solo_games() -> None:
    """As tests/engine/test_native.py does for the Duel: 120 varied Solo games, the interpreted
    sources in a child process against this process's engine (compiled under `make test`)."""
    if native.STATUS != "compiled (mypyc)":
        pytest.skip(f"this process runs {native.STATUS}, not the compiled engine")
    env = {**os.environ, native.MODE_VARIABLE: "python"}
    child = subprocess.run(
        [sys.executable, "-m", "tests.engine.solo_fingerprint", "120"],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        check=True,
    )
    assert child.stdout.strip() == solo_fingerprint(120)


def test_custom_play_offers_the_current_editions_ten_abilities_and_a_bastion() -> None:
    # Ruling SO12: Berserk and the AI without a Bastion are the 2021 edition's, refused unless
    # that labelled variant is asked for.
    assert len(GIVEN_ABILITIES) == 10 and "berserk" not in GIVEN_ABILITIES
    with pytest.raises(InputError, match=r"^ai\.abilities: 'berserk' is not an ability"):
        AiOptions.from_json({"abilities": ["berserk"]})
    with pytest.raises(InputError, match=r"^ai\.bastion: the current edition's AI always has"):
        AiOptions.from_json({"bastion": False})
    with pytest.raises(InputError, match=r"^ai\.edition: expected 'current' or '2021'"):
        AiOptions.from_json({"edition": "2020"})
    variant = AiOptions.from_json({"edition": "2021", "abilities": ["berserk"], "bastion": False})
    assert (variant.abilities, variant.bastion, variant.to_json()["edition"]) == (
        ("berserk",),
        False,
        "2021",
    )
    assert "edition" not in AiOptions().to_json()
