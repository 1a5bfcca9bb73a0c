"""GreedyAgent scores its candidates in place, without building the legal actions (its docstring
gives the measurement that keeps that copy): this ties the copy to the rules. In random positions
reached by seeded games of every mode, its candidates are ``legal_actions`` less the Assault (its
score of 0, the one to beat), less the Incantations on one's own or a partner's creatures, and
less the plays that lose the game at once (the last card of the hand; a card right of the
Stronghold at its last hit point behind the Fort), in the order of ``legal_actions``; and it
chooses what the same heuristic chooses among those actions.

With noise each candidate draws one number, in order: the same count of draws and the same choice
as the reference for many noise streams pin the set and its order.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.rules.abilities.registry import (
    INDESTRUCTIBLE,
    PRICE_OF_BLOOD,
    PROTECTION,
    RAGE,
    VULNERABILITY,
)
from engine.rules.actions import (
    ASSAULT,
    ASSAULT_ACTION,
    CAST,
    PLAY,
    PLAY_ONTO,
    Action,
    apply,
    legal_actions,
)
from engine.rules.agents import GreedyAgent, RandomAgent, card_values
from engine.rules.champion import summon_cost
from engine.rules.kingdom import HandKingdom
from engine.rules.modes import HAND
from engine.rules.scenario import build_state, parse
from engine.rules.state import SUMMONING, GameState, Options
from engine.rules.turn import new_game

from .support import mode_champions, mode_decks

# The heuristic's lane values (engine.rules.agents).
OPEN_LANE = 2.0
OPEN_LANE_PER_ATTACK = 0.5
MODES = ("duel", "champions", "solo", "free_for_all", "teams", "coop")


class CountingRandom(random.Random):
    """A random stream that counts the numbers drawn from it."""

    draws = 0

    def random(self) -> float:
        self.draws += 1
        return super().random()


def _position(mode: str, seed: int, steps: int) -> GameState | None:
    """The first position after ``steps`` actions of a seeded game of ``mode`` (greedy players
    with noise and random ones mixed) where a hand seat is to summon, if the game goes on."""
    decks = mode_decks(mode)[seed % 4]
    if mode == "champions":
        champions = mode_champions()
        state = new_game(decks, seed, Options(champions=True), [champions[seed % 4]] * 2)
    else:
        state = new_game(decks, seed, Options(mode="duel" if mode == "duel" else mode))
    rng = random.Random(seed)
    players = [GreedyAgent(rng, noise=2.0, guard=False), RandomAgent(seed)]
    # Then on to the next choice of a hand seat in Phase 2.
    for step in range(steps + 20):
        if state.outcome is not None or state.turn > 200:
            return None
        at_choice = state.phase == SUMMONING and state.setup.controllers[state.active] == HAND
        if step >= steps and at_choice:
            return state
        apply(state, players[step % 3 == 0].choose(state))
    return None


def _suicidal(state: GameState, card: int) -> bool:
    """Whether playing ``card`` from the hand loses the game at once: the hand's last card
    (only the Stronghold left), or a creature right of the Stronghold at its last hit point
    behind the Fort (the Bastion breaks instead)."""
    kingdom = state.players[state.active]
    assert isinstance(kingdom, HandKingdom)
    if card == kingdom.champion:
        return False
    if len(kingdom.hand) <= 1:
        return True
    index = kingdom.hand.index(card)
    hit_points = len(kingdom.hand) - kingdom.sh
    return state.setup.creature[card] and index >= kingdom.sh and hit_points <= 1 and kingdom.fort


def expected_candidates(state: GameState) -> list[Action]:
    """``legal_actions`` less the Assault, one's own and partners' creatures as targets, and
    the plays that lose at once."""
    team = state.setup.team
    own = {
        creature.card
        for seat, kingdom in enumerate(state.players)
        if team[seat] == team[state.active]
        for line in kingdom.lines
        for creature in line
    }
    return [
        action
        for action in legal_actions(state)
        if action != ASSAULT_ACTION
        and not (action[0] == CAST and action[2] in own)
        and not _suicidal(state, action[1])
    ]


def reference_choice(state: GameState, rng: random.Random | None, noise: float) -> Action:
    """The greedy heuristic's choice among ``expected_candidates`` (engine.rules.agents'
    GreedyAgent.choose, scoring each action of the list; the Assault scores 0)."""
    setup = state.setup
    player = state.active
    kingdom = state.players[player]
    assert isinstance(kingdom, HandKingdom)
    hand, sh, mana = kingdom.hand, kingdom.sh, kingdom.mana
    hit_points = len(hand) - sh
    values = card_values(setup)
    team = setup.team
    fronts = []
    for lane, (enemy, enemy_lane) in enumerate(setup.topology.facing[player]):
        line = state.players[enemy].lines[enemy_lane]
        fronts.append((line[0].hp - line[0].damage if line else -1, not kingdom.lines[lane]))
    enemies = {
        creature.card: creature
        for seat, other in enumerate(state.players)
        if team[seat] != team[player]
        for line in other.lines
        for creature in line
    }
    best: tuple[float, Action] = (0.0, ASSAULT_ACTION)
    for kind, card, arg in expected_candidates(state):
        cost, mask, attack = setup.cost[card], setup.mask[card], setup.attack[card]
        champion = card == kingdom.champion
        if champion:
            cost = summon_cost(state, player)
        missing = cost - mana if mask & PRICE_OF_BLOOD and cost > mana else 0
        half = values[card] * 0.5
        if champion:
            value = half - 3.0 * missing
        elif setup.creature[card]:
            loss = 0 if hand.index(card) < sh else 1
            if loss and hit_points <= 1:
                loss = 4
            value = half - 2.5 * loss - 3.0 * missing - (3.0 if hit_points - loss <= 2 else 0.0)
        else:
            value = (1.0 if hand.index(card) < sh else 0.0) - 0.25 * cost - 3.0 * missing
        if kind == PLAY:
            front, own_empty = fronts[arg]
            if front < 0:
                value += OPEN_LANE + OPEN_LANE_PER_ATTACK * attack
            else:
                value += 1.0 if attack >= front else 0.0
                value += (2.5 if mask & RAGE else 1.5) if own_empty else 0.0
        elif kind == PLAY_ONTO:
            value += 1.0
        else:
            target = enemies[arg]
            remaining = target.hp - target.damage
            dealt = remaining - 1 if mask & VULNERABILITY else attack
            if target.eff & INDESTRUCTIBLE or (
                target.eff & PROTECTION and not target.protection_used
            ):
                dealt = 0
            value += values[arg] + 1.0 if dealt >= remaining else 0.3 * dealt
        if rng is not None:
            value += rng.random() * noise
        if value > best[0]:
            best = (value, (kind, card, arg))
    return best[1]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(
    mode=st.sampled_from(MODES),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 120),
    noise_seed=st.integers(0, 2**32 - 1),
)
def test_greedy_chooses_among_the_legal_actions_in_their_order(
    mode: str, seed: int, steps: int, noise_seed: int
) -> None:
    state = _position(mode, seed, steps)
    if state is None:
        return
    candidates = expected_candidates(state)
    # Without noise: the heuristic's best.
    assert GreedyAgent(guard=False).choose(state) == reference_choice(state, None, 0.0)
    # With noise: one draw per candidate, in the legal actions' order.
    in_place = CountingRandom(noise_seed)
    chosen = GreedyAgent(in_place, noise=3.0, guard=False).choose(state)
    assert in_place.draws == len(candidates)
    assert chosen == reference_choice(state, random.Random(noise_seed), 3.0)
    assert chosen == ASSAULT_ACTION or chosen in candidates
    assert all(kind in (PLAY, PLAY_ONTO, CAST) and kind != ASSAULT for kind, _c, _a in candidates)


def _scenario(hand_a: list[str], stronghold: str) -> GameState:
    cards = {
        "Ox": {"type": "creature", "cost": 1, "attack": 2, "hp": 2},
        "Yak": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
    }
    players = {
        "A": {"hand": hand_a, "stronghold": stronghold, "mana": 3, "lines": {"top": []}},
        "B": {"hand": ["STRONGHOLD", "Yak"], "lines": {"top": []}},
    }
    scenario = {"cards": cards, "state": {"active": "A", "players": players}, "expect": {}}
    return build_state(parse(scenario))


def test_the_plays_that_lose_at_once_are_no_candidates() -> None:
    """The hand's last card (only the Stronghold left), and behind the Fort a creature right of
    the Stronghold at its last hit point; the others are the legal actions."""
    for hand, stronghold, kept in (
        (["STRONGHOLD", "Ox"], "bastion", []),
        (["Yak", "STRONGHOLD", "Ox"], "fort", ["Yak"]),
        (["Yak", "STRONGHOLD", "Ox"], "bastion", ["Yak", "Ox"]),
    ):
        state = _scenario(hand, stronghold)
        names = state.setup.names
        legal = {names[card] for kind, card, _arg in legal_actions(state) if kind == PLAY}
        assert legal == {"Ox"} | set(kept)
        candidates = expected_candidates(state)
        assert sorted({names[card] for _kind, card, _arg in candidates}) == sorted(kept)
        counting = CountingRandom(1)
        chosen = GreedyAgent(counting, noise=3.0, guard=False).choose(state)
        assert (counting.draws, chosen) == (
            len(candidates),
            reference_choice(state, random.Random(1), 3.0),
        )
