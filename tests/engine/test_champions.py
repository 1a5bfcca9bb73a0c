"""The Champion module: set-up, summoning, cost, exhaustion and readying, actions, replays, agents,
the scenario keys, and the definition the Django side hands to the engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from engine.rules import (
    ASSAULT_ACTION,
    CardDef,
    IllegalAction,
    InputError,
    Options,
    apply,
    from_json,
    legal_actions,
    load_catalogue,
    new_game,
    to_json,
)
from engine.rules.actions import CAST, PLAY, PLAY_ONTO
from engine.rules.agents import GreedyAgent, LookaheadAgent, RandomAgent, play_game
from engine.rules.champion import champion_from_json, stand_in, summon_cost
from engine.rules.errors import ReplayError
from engine.rules.replay import dumps, parse, play, record
from engine.rules.scenario import build_state, run_file
from engine.rules.scenario import parse as parse_scenario
from engine.rules.state import NO_CARD

from .support import check_invariants, english_log, precon_decks, refused

HERO = CardDef("Hero", "champion", 4, 4, 4, ("splash",))
VILLAIN = CardDef("Villain", "champion", 3, 3, 3, ("aura:rage",))
CHAMPIONS_ON = Options(champions=True)
REFUSED = Path(__file__).resolve().parent / "scenarios_refused"


def _position(text: str):
    """The position of a scenario's ``cards`` and ``state`` (its Phase 2)."""
    return build_state(parse_scenario({"expect": {}, **yaml.safe_load(text)}))


# ---- set-up ---------------------------------------------------------------------------------


def test_champions_wait_outside_the_hand_and_do_not_change_the_deal() -> None:
    state = new_game(precon_decks(), 7, CHAMPIONS_ON, [HERO, VILLAIN])
    plain = new_game(precon_decks(), 7)
    setup = state.setup
    assert len(setup.cards) == 18
    assert setup.champion_id == (16, 17)
    assert setup.champion_owner[:16] == (-1,) * 16
    assert setup.champion_owner[16:] == (0, 1)
    assert (setup.names[16], setup.origin[16], setup.cost[16]) == ("Hero", 0, 4)
    assert [(p.champion, p.champion_exhausted) for p in state.players] == [(16, False), (17, False)]
    # Same shuffle and coin toss as without Champions; the Champion is not in the hand.
    assert [p.hand for p in state.players] == [p.hand for p in plain.players]
    assert [p.mana for p in state.players] == [0, 6]
    check_invariants(state)


def test_one_player_without_champion_and_the_module_on_without_champions() -> None:
    state = new_game(precon_decks(), 7, CHAMPIONS_ON, [None, VILLAIN])
    assert state.setup.champion_id == (NO_CARD, 16)
    assert [p.champion for p in state.players] == [NO_CARD, 16]
    state = new_game(precon_decks(), 7, CHAMPIONS_ON)
    assert (state.setup.any_champion, state.setup.champion_id) == (False, (NO_CARD, NO_CARD))
    assert new_game(precon_decks(), 7, Options(), [None, None]).setup.any_champion is False


@pytest.mark.parametrize(
    ("options", "champions", "message"),
    [
        (
            Options(),
            [None, VILLAIN],
            "champion of player B: 'Villain' is given but the Champion module is off "
            "(Options(champions=True))",
        ),
        (
            CHAMPIONS_ON,
            [CardDef("Titan", "creature", 8, 8, 8), None],
            "champion of player A: 'Titan' has type creature, not champion",
        ),
        (CHAMPIONS_ON, [HERO], "champions: expected 2 entries, one per player"),
        (CHAMPIONS_ON, "Hero", "champions: expected one Champion (or None) per player"),
        (
            CHAMPIONS_ON,
            [HERO, "Villain"],
            "champion of player B: expected a card definition, not 'Villain'",
        ),
        (
            CHAMPIONS_ON,
            [CardDef("baron", "champion", 3, 3, 3), None],
            "champion of player A: 'baron' has the name of a card of deck A",
        ),
    ],
)
def test_new_game_refuses_bad_champions(options: Options, champions, message: str) -> None:
    with pytest.raises(InputError) as raised:
        new_game(precon_decks(), 1, options, champions)
    assert str(raised.value) == message


def test_a_champion_of_the_other_deck_name_is_allowed() -> None:
    state = new_game(precon_decks(), 1, CHAMPIONS_ON, [CardDef("Ogre", "champion", 4, 4, 4), None])
    assert state.setup.names[16] == "Ogre"


def test_copy_and_equality_cover_the_champion() -> None:
    state = new_game(precon_decks(), 7, CHAMPIONS_ON, [HERO, VILLAIN])
    copy = state.copy()
    assert copy == state
    copy.players[0].champion_exhausted = True
    assert copy != state
    assert state.players[0].champion_exhausted is False
    copy = state.copy()
    copy.players[1].champion = NO_CARD
    assert copy != state
    other = new_game(
        precon_decks(), 7, CHAMPIONS_ON, [HERO, CardDef("Villain", "champion", 3, 3, 4)]
    )
    assert other != state


# ---- summoning and cost ---------------------------------------------------------------------

POSITION = """
cards:
  Hero: {type: champion, cost: 3, attack: 3, hp: 3}
  Villain: {type: champion, cost: 3, attack: 2, hp: 2, abilities: [symbiote]}
  Imp: {type: creature, cost: 3, attack: 1, hp: 2}
  Leech: {type: creature, cost: 3, attack: 1, hp: 1, abilities: [symbiote]}
  Ogre: {type: creature, cost: 4, attack: 3, hp: 3}
  Zap: {type: incantation, cost: 3, attack: 1}
  Ant: {type: creature, cost: 1, attack: 1, hp: 1}
  Yak: {type: creature, cost: 1, attack: 1, hp: 1}
state:
  active: A
  options: {champions: true}
  players:
    A:
      hand: [STRONGHOLD, Zap, Ant]
      mana: 1
      champion: {card: Hero}
      lines: {top: [{card: Ogre, symbiote: Leech}], bottom: []}
    B:
      hand: [STRONGHOLD, Yak]
      champion: {card: Villain, exhausted: true}
      lines: {top: [Imp], bottom: []}
"""


def test_summon_cost_counts_creature_cards_of_exactly_the_cost() -> None:
    state = _position(POSITION)
    # Leech (on Ogre) and Imp cost 3 like Hero; Ogre (4) does not count.
    assert summon_cost(state, 0) == 1
    state.players[1].lines[0].clear()
    assert summon_cost(state, 0) == 2


def test_legal_actions_offer_the_ready_champion_last() -> None:
    state = _position(POSITION)
    hero = state.setup.champion_id[0]
    actions = legal_actions(state)
    zap, ant = state.players[0].hand
    ogre, imp = state.players[0].lines[0][0].card, state.players[1].lines[0][0].card
    # Zap (3) is not affordable with 1 Mana; Hero costs 1.
    assert (CAST, zap, ogre) not in actions and (CAST, zap, imp) not in actions
    assert actions == [
        ASSAULT_ACTION,
        (PLAY, ant, 0),
        (PLAY, ant, 1),
        (PLAY, hero, 0),
        (PLAY, hero, 1),
    ]
    assert [to_json(state, a) for a in actions[-2:]] == [
        {"play": "Hero", "line": "top"},
        {"play": "Hero", "line": "bottom"},
    ]
    # Neither Ant (1) nor Hero (1) with 0 Mana.
    state.players[0].mana = 0
    assert legal_actions(state) == [ASSAULT_ACTION]


def test_summoning_and_playing_readies_both_ways() -> None:
    state = _position(POSITION)
    hero, villain = state.setup.champion_id
    state.players[0].mana = 5
    apply(state, from_json(state, {"play": "Hero", "line": "bottom"}))
    a = state.players[0]
    assert (a.mana, a.champion, a.champion_exhausted) == (4, NO_CARD, False)
    assert [c.card for c in a.lines[1]] == [hero]
    assert a.lines[1][0].new is True
    # Hero costs 3 printed: summoning it readied B's exhausted Villain (3).
    assert (state.players[1].champion, state.players[1].champion_exhausted) == (villain, False)
    check_invariants(state)


def test_symbiote_champion_onto_a_host() -> None:
    state = _position(POSITION.replace("active: A", "active: B").replace("mana: 1", "mana: 0"))
    villain = state.setup.champion_id[1]
    state.players[1].champion_exhausted = False
    state.players[1].mana = 3
    imp = state.players[1].lines[0][0]
    # Villain costs 3 - 2 (Leech, Imp) = 1.
    assert legal_actions(state)[-3:] == [
        (PLAY, villain, 0),
        (PLAY, villain, 1),
        (PLAY_ONTO, villain, imp.card),
    ]
    apply(state, from_json(state, {"play": "Villain", "onto": "Imp"}))
    assert (imp.symbiote, imp.attack, imp.hp, state.players[1].mana) == (villain, 3, 4, 2)
    check_invariants(state)


@pytest.mark.parametrize(
    ("change", "action", "rule", "message_en", "code"),
    [
        (
            lambda s: None,
            {"play": "Hero", "line": "top"},
            "champion-summoning",
            "Hero costs 1 Mana (3 minus 1 per creature costing 3 in play) and you have 0 left.",
            "champion_too_expensive",
        ),
        (
            lambda s: setattr(s.players[0], "champion_exhausted", True),
            {"play": "Hero", "line": "top"},
            "champion-resummoning",
            "Hero is exhausted: it cannot be summoned until a card costing exactly 3 Mana is "
            "played.",
            "champion_exhausted",
        ),
        (
            lambda s: setattr(s.players[0], "mana", 9),
            {"play": "Hero", "target": {"player": "B", "card": "Imp"}},
            "creature-placement",
            "Hero is a creature: it is placed on a line, not aimed at a target.",
            "creature_aimed",
        ),
    ],
)
def test_illegal_champion_summons(change, action, rule, message_en, code) -> None:
    state = _position(POSITION)
    state.players[0].mana = 0
    change(state)
    error = refused(state, action)
    assert (error.rule_id, error.message_en, error.code) == (rule, message_en, code)


def test_champion_already_in_play_or_the_opponents() -> None:
    state = _position(POSITION)
    hero, villain = state.setup.champion_id
    state.players[0].mana = 9
    apply(state, (PLAY, hero, 0))
    with pytest.raises(IllegalAction) as raised:
        apply(state, from_json(state, {"play": "Hero", "line": "bottom"}))
    assert (raised.value.rule_id, raised.value.message_en) == (
        "champion-summoning",
        "Hero, your Champion, is already in play.",
    )
    with pytest.raises(IllegalAction) as raised:
        apply(state, (PLAY, villain, 0))
    assert (raised.value.rule_id, raised.value.message_en) == (
        "champion-setup",
        "Villain is your opponent's Champion.",
    )
    with pytest.raises(IllegalAction) as raised:
        from_json(state, {"play": "Villain", "line": "top"})
    assert raised.value.message_en == "Villain is not in your hand."


def test_deck_key_tells_a_hand_card_from_the_champion_of_the_same_name() -> None:
    decks = precon_decks()
    twin = CardDef("Hero", "creature", 2, 1, 1, ("mercenary",))
    decks[1] = [twin, *decks[1][1:]]
    state = new_game(decks, 1, CHAMPIONS_ON, [HERO, None])
    setup = state.setup
    hero = setup.champion_id[0]
    # As if a Mercenary brought B's Hero into A's hand, where A's Champion is also named Hero.
    twin_id = setup.cards.index(twin)
    state.players[1].hand.remove(twin_id)
    state.players[0].hand.insert(0, twin_id)
    state.active = 0
    state.players[0].mana = 9
    assert to_json(state, (PLAY, twin_id, 0)) == {"play": "Hero", "deck": "B", "line": "top"}
    assert to_json(state, (PLAY, hero, 1)) == {"play": "Hero", "deck": "A", "line": "bottom"}
    assert from_json(state, {"play": "Hero", "deck": "A", "line": "bottom"}) == (PLAY, hero, 1)
    assert from_json(state, {"play": "Hero", "deck": "B", "line": "top"}) == (PLAY, twin_id, 0)
    # Without the key the hand comes first.
    assert from_json(state, {"play": "Hero", "line": "top"}) == (PLAY, twin_id, 0)


# ---- exhaustion and readying ----------------------------------------------------------------


def test_destroyed_champion_is_exhausted_and_logged() -> None:
    state = _position(
        """
cards:
  Hero: {type: champion, cost: 3, attack: 1, hp: 2}
  Brute: {type: creature, cost: 3, attack: 5, hp: 5}
  Ant: {type: creature, cost: 1, attack: 1, hp: 1}
  Bat: {type: creature, cost: 3, attack: 1, hp: 1}
  Yak: {type: creature, cost: 1, attack: 1, hp: 1}
state:
  active: B
  options: {champions: true}
  players:
    A: {hand: [STRONGHOLD, Ant, Bat], champion: {card: Hero}, lines: {top: [Hero], bottom: []}}
    B: {hand: [STRONGHOLD, Yak], lines: {top: [Brute], bottom: []}}
"""
    )
    state.log = []
    hero = state.setup.champion_id[0]
    apply(state, ASSAULT_ACTION)
    a = state.players[0]
    assert (a.champion, a.champion_exhausted, len(a.hand), a.sh) == (hero, True, 2, 0)
    assert english_log(state) == [
        "B assaults.",
        "Brute (B) attacks Hero.",
        "Hero (A) takes 5 damage (5/2).",
        "Hero (A) is destroyed.",
        "Hero, A's Champion, is exhausted.",
    ]
    assert all(card != hero for _, card, _ in legal_actions(state))
    state.log = []
    apply(state, from_json(state, "end_turn"))
    apply(state, from_json(state, {"play": "Bat", "line": "top"}))
    assert state.players[0].champion_exhausted is False
    assert english_log(state)[-2:] == [
        "A plays Bat on the top line.",
        "Hero, A's Champion, is readied.",
    ]
    # A's 3 Mana (2 cards + the Stronghold) paid for Bat; with Bat and B's Brute (both 3) in
    # play Hero costs 1.
    assert (state.players[0].mana, summon_cost(state, 0)) == (0, 1)
    check_invariants(state)


# ---- replays, agents ------------------------------------------------------------------------


def _champion_game():
    decks = precon_decks()
    champions = [HERO, VILLAIN]
    result = play_game(decks, 3, [GreedyAgent(), RandomAgent(9)], CHAMPIONS_ON, champions=champions)
    return decks, champions, result


def test_a_champion_game_replays() -> None:
    decks, champions, result = _champion_game()
    setup = result.state.setup
    assert any(card in setup.champion_id for _, card, _ in result.actions)
    replay = record(decks, 3, CHAMPIONS_ON, result.actions, champions)
    data = json.loads(dumps(replay))
    assert data["options"] == {"exhaustion": False, "champions": True}
    assert data["champions"] == [
        {
            "name": "Hero",
            "type": "champion",
            "cost": 4,
            "attack": 4,
            "hp": 4,
            "abilities": ["splash"],
        },
        {
            "name": "Villain",
            "type": "champion",
            "cost": 3,
            "attack": 3,
            "hp": 3,
            "abilities": ["aura:rage"],
        },
    ]
    summons = [a for a in data["actions"] if isinstance(a, dict) and a["play"] == "Hero"]
    assert summons and all(set(a) == {"play", "line"} for a in summons)
    loaded = parse(data)
    assert loaded == replay
    assert play(loaded) == result.state
    # Without its Champions the replay does not replay.
    del data["champions"]
    with pytest.raises(ReplayError, match=r"^replay\.actions\[\d+\]: illegal action: "):
        play(parse(data))


@pytest.mark.parametrize(
    ("champions", "message"),
    [
        ("Hero", "replay.champions: expected a list of 2 Champions or nulls"),
        ([None], "replay.champions: expected a list of 2 Champions or nulls"),
        (
            [{"name": "Hero", "type": "creature", "cost": 1, "attack": 1, "hp": 1}, None],
            "replay.champions[0]: 'Hero' has type creature, not champion",
        ),
        (
            [None, {"name": "Hero", "cost": 1, "hp": 1, "abilities": ["flying"]}],
            "replay.champions[1]: unknown ability code 'flying' on card 'Hero'",
        ),
    ],
)
def test_malformed_replay_champions(champions, message: str) -> None:
    decks, _, result = _champion_game()
    data = json.loads(dumps(record(decks, 3, CHAMPIONS_ON, result.actions, [HERO, VILLAIN])))
    data["champions"] = champions
    with pytest.raises(ReplayError) as raised:
        parse(data)
    assert str(raised.value).startswith(message)


def test_replay_with_champions_but_module_off() -> None:
    decks, _, result = _champion_game()
    data = json.loads(dumps(record(decks, 3, CHAMPIONS_ON, result.actions, [HERO, VILLAIN])))
    data["options"] = {"exhaustion": False}
    with pytest.raises(ReplayError) as raised:
        play(parse(data))
    assert str(raised.value) == (
        "replay.champions: champion of player A: 'Hero' is given but the Champion module is off "
        "(Options(champions=True))"
    )


def test_greedy_summons_the_champion_when_nothing_else_is_playable() -> None:
    state = _position(
        """
cards:
  Hero: {type: champion, cost: 5, attack: 4, hp: 4}
  Ant: {type: creature, cost: 4, attack: 1, hp: 1}
  Yak: {type: creature, cost: 1, attack: 1, hp: 1}
state:
  active: A
  options: {champions: true}
  players:
    A: {hand: [STRONGHOLD, Ant], mana: 5, champion: {card: Hero}}
    B: {hand: [STRONGHOLD, Yak]}
"""
    )
    # Playing Ant, A's last card, would lose; the Champion leaves the hand untouched.
    hero = state.setup.champion_id[0]
    assert GreedyAgent().choose(state) == (PLAY, hero, 0)
    assert LookaheadAgent(1, nodes=400).choose(state)[1] == hero


def test_every_agent_plays_champion_games() -> None:
    catalogue = load_catalogue()
    titan = stand_in(catalogue.find("Titan"))
    assert titan == CardDef("Titan", "champion", 7, 8, 8, (), "Titan")
    champions = [titan, VILLAIN]
    for agents in (
        [RandomAgent(1), RandomAgent(2)],
        [GreedyAgent(), GreedyAgent()],
        [LookaheadAgent(3, nodes=300), GreedyAgent()],
    ):
        result = play_game(precon_decks(), 5, agents, CHAMPIONS_ON, champions=champions)
        ids = result.state.setup.champion_id
        assert any(card in ids for _, card, _ in result.actions), agents
        assert sorted(result.returns) == [-1, 1]


# ---- the definition handed over by the Django side ------------------------------------------


def test_champion_from_json() -> None:
    data = {
        "name": "Åsa",
        "name_fr": "Åsa",
        "cost": 5,
        "attack": 5,
        "hp": 5,
        "abilities": ["splash", "aura:rage"],
    }
    card = champion_from_json(data)
    assert card == CardDef("Åsa", "champion", 5, 5, 5, ("splash", "aura:rage"), "Åsa")
    assert champion_from_json({**data, "type": "champion"}) == card
    assert card.to_json() == {**data, "type": "champion"}
    new_game(precon_decks(), 1, CHAMPIONS_ON, [card, None])


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"name": "X", "cost": 3, "attack": 3}, "champion: card 'X': a creature needs hp >= 1"),
        (
            {"name": "X", "cost": 3, "hp": 3, "abilities": ["splsh"]},
            "champion: unknown ability code 'splsh' on card 'X'; did you mean 'splash'?",
        ),
        (
            {"name": "X", "cost": 3, "type": "incantation"},
            "champion: 'X' has type incantation, not champion",
        ),
        (
            {"name": "X", "cost": -1, "hp": 3},
            "champion: card 'X': cost must be a whole number >= 0, not -1",
        ),
        ({"name": "X", "cost": 3, "hp": 3, "power": 1}, "champion: unknown key 'power'"),
        ("X", "champion: expected a mapping with name, type, cost, attack, hp"),
    ],
)
def test_champion_from_json_errors(data, message: str) -> None:
    with pytest.raises(InputError) as raised:
        champion_from_json(data)
    assert str(raised.value) == message


# ---- scenario keys --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "champion-key-with-module-off.yaml",
            "state.players.A.champion: the Champion module is off "
            "(set state.options.champions: true)",
        ),
        (
            "champion-card-with-module-off.yaml",
            "cards.Hero.type: the Champion module is off (set state.options.champions: true)",
        ),
        (
            "champion-expectation-with-module-off.yaml",
            "expect.players.A.champion: the Champion module is off "
            "(set state.options.champions: true)",
        ),
    ],
)
def test_champion_keys_are_refused_with_the_module_off(name: str, message: str) -> None:
    assert run_file(REFUSED / name) == [message]


SCENARIO = """
cards:
  Hero: {type: champion, cost: 3, attack: 3, hp: 3}
  Ant: {type: creature, cost: 1, attack: 1, hp: 1}
  Yak: {type: creature, cost: 1, attack: 1, hp: 1}
state:
  active: A
  options: {champions: true}
  players:
    A: {hand: [STRONGHOLD, Ant], mana: 3, champion: {card: Hero}, lines: {top: [], bottom: []}}
    B: {hand: [STRONGHOLD, Yak]}
actions:
  - {play: Hero, line: top}
expect:
  players:
    A: {champion: {card: Hero}, lines: {top: [Hero], bottom: []}}
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "A: {champion: {card: Hero}",
            "A: {champion: {card: Hero, exhausted: true}",
            "players.A.champion is {'card': 'Hero', 'exhausted': False}, expected "
            "{'card': 'Hero', 'exhausted': True}",
        ),
        (
            "A: {champion: {card: Hero}",
            "A: {champion: null",
            "players.A.champion is {'card': 'Hero', 'exhausted': False}, expected None",
        ),
        (
            "hand: [STRONGHOLD, Ant], mana",
            "hand: [STRONGHOLD, Ant, Hero], mana",
            "state.players.A.hand[2]: 'Hero' is a Champion: never in a hand, removed or enchained",
        ),
        (
            "champion: {card: Hero}, lines: {top: []",
            "champion: {card: Ant}, lines: {top: []",
            "state.players.A.champion.card: 'Ant' has type creature, not champion",
        ),
        (
            "champion: {card: Hero}, lines: {top: []",
            "champion: {exhausted: true}, lines: {top: []",
            "state.players.A.champion: missing key 'card'",
        ),
        (
            "champion: {card: Hero}, lines: {top: []",
            "champion: {card: Hero, exhausted: true}, lines: {top: [Hero]",
            "state.players.A.lines.top[0]: 'Hero' is exhausted, so it is outside the Kingdoms, "
            "not in play",
        ),
        (
            "champion: {card: Hero}, lines: {top: []",
            "champion: {card: Hero}, lines: {top: [Hero, Hero]",
            "state.players.A.lines: the Champion is in play only once",
        ),
        (
            "B: {hand: [STRONGHOLD, Yak]}",
            "B: {hand: [STRONGHOLD, Yak], lines: {top: [Hero]}}",
            "state.players.B.lines.top[0]: 'Hero' is not this player's champion",
        ),
        (
            "champion: {card: Hero}, lines: {top: []",
            "champion: {card: Hero, ready: true}, lines: {top: []",
            "state.players.A.champion: unknown key 'ready'",
        ),
    ],
)
def test_scenario_champion_keys(tmp_path: Path, old: str, new: str, message: str) -> None:
    assert old in SCENARIO
    assert run_file(_write(tmp_path, SCENARIO.replace(old, new, 1))) == [message]


def test_both_players_may_have_a_champion_of_the_same_name(tmp_path: Path) -> None:
    text = SCENARIO.replace(
        "B: {hand: [STRONGHOLD, Yak]}",
        "B: {hand: [STRONGHOLD, Yak], champion: {card: Hero}, lines: {top: [Hero]}}",
    )
    assert run_file(_write(tmp_path, text)) == []
    state = build_state(parse_scenario(yaml.safe_load(text)))
    # Ids: A's Ant, B's Yak, then the two Champions.
    assert state.setup.champion_id == (2, 3)
    assert [p.champion for p in state.players] == [2, NO_CARD]
    assert state.players[1].lines[0][0].card == 3
