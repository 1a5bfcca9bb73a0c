"""Computer players driving the same interface as everyone else: legal_actions, then apply.

- ``random``: a uniformly random legal action (its own RNG, never the game's).
- ``greedy``: the best action by a one-step heuristic, no search; deterministic and fast.
- ``lookahead``: flat Monte Carlo: every legal action is followed by greedy rollouts (with a
  little randomness) to the end of the opponent's next turn, within a node budget; the action with
  the best average evaluation wins.
- ``strong``: determinized Monte Carlo search over the hidden hand order, UCB1 at the root,
  noisy greedy simulations scored by :func:`assess`, within a node budget (see StrongAgent).

What they read of a position (tests/engine/test_agents_hidden.py): ``random``, ``greedy``,
``strong`` and ``learned`` choose from what their seat sees (``engine.rules.observe``): the same
observation with the other hands in another order, the automata's piles reordered and another
random stream gives the same choice. ``random`` and ``greedy`` read only their own hand and the
table; ``strong`` and ``learned`` search on a determinization (``engine.rules.hidden``: the cards
never seen out of the other hands dealt anew among their places, sorted first, the piles
shuffled). ``lookahead`` peeks by design: its rollouts play on the position itself, every hand
known (a full-information baseline). The agents' memory of a game (ruling A1's repetition
guard, ``position_key``) holds what the seat sees too: its own hand in order, of the other hands
only their size and their Stronghold's place, so two positions its seat sees alike (a Mercenary
back at the right of a hand whose other cards it never saw) are one position to it.

With four players every agent knows its partner (Team Play): positions are scored per team
(:func:`team_weights`), no Incantation is aimed at a partner's creature, and the searches play on
until every other player has had a turn. Partners never share a line (ruling P3), so no creature
an agent places ever attacks a partner.

About 800 lines, one family kept in one module: the search agents are built on the greedy one
(their rollout policy, their fallback) and on the per-game memory they share with it
(``TurnStarts``, ``position_key``); the learned agent takes the guard and ``without_own_casts``;
``AGENTS`` names them all for the batches, Play and the ladder. Moving the search agents out
(about 270 lines) would move ``AGENTS`` and ``play_game`` to a third module to avoid an import
cycle, for every importer of this one.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from engine.rules.abilities.registry import (
    AERIAL,
    BERSERK,
    DEFENDER,
    INDESTRUCTIBLE,
    INSTINCT,
    MERCENARY,
    PERFORATION,
    PRICE_OF_BLOOD,
    PROTECTION,
    RAGE,
    REGENERATION,
    SHARPENING,
    SPLASH,
    SYMBIOTE,
    VULNERABILITY,
)
from engine.rules.actions import (
    ASSAULT,
    ASSAULT_ACTION,
    CAST,
    END_TURN,
    END_TURN_ACTION,
    PLAY,
    PLAY_ONTO,
    Action,
    apply,
    legal_actions,
    playable_cards,
    summonable_champion,
    symbiote_hosts,
)
from engine.rules.cards import CardDef
from engine.rules.champion import summon_cost
from engine.rules.game import ACTION_LIMIT, Game
from engine.rules.hidden import HiddenCards
from engine.rules.kingdom import HandKingdom, hand_of
from engine.rules.state import (
    ASSAULT_DONE,
    NO_CARD,
    SUMMONING,
    Creature,
    GameSetup,
    GameState,
    Options,
)
from engine.rules.summoning import CHAMPION_INDEX


class Agent(Protocol):
    """Anything that picks the active player's next action (a class of its own needs no base)."""

    name: str

    def choose(self, state: GameState) -> Action: ...


class RandomAgent:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: GameState) -> Action:
        actions = legal_actions(state)
        return actions[self.rng.randrange(len(actions))]


# Rough worth of an ability on a creature in play, in "stat points" (attack + hp).
_ABILITY_WORTH: Final = (
    (RAGE, 1.0),
    (SPLASH, 2.0),
    (PERFORATION, 1.5),
    (BERSERK, 1.5),
    (PROTECTION, 2.0),
    (INDESTRUCTIBLE, 0.5),
    (AERIAL, 1.0),
    (REGENERATION, 1.5),
    (SHARPENING, 1.5),
    (INSTINCT, 1.0),
    (DEFENDER, -2.0),
    (MERCENARY, -2.0),
)


def card_worth(card: CardDef) -> float:
    """A card's static worth: stats plus ability worth (Incantations: their damage)."""
    value = float(card.attack + card.hp)
    if card.mask & VULNERABILITY:
        value += 3.0
    for bit, worth in _ABILITY_WORTH:
        if card.mask & bit:
            value += worth
    return value


def card_values(setup: GameSetup) -> list[float]:
    """:func:`card_worth` per card id of a game."""
    return [card_worth(card) for card in setup.cards]


# A creature facing an open line strikes the enemy Stronghold at every Assault: worth more than
# one facing a creature, the more so the harder it hits (ruling A1: it is also what keeps two
# greedy players from waiting each other out).
_OPEN_LANE: Final = 2.0
_OPEN_LANE_PER_ATTACK: Final = 0.5


# What TurnStarts.at says of a choice.
SAME_TURN: Final = 0
NEW_TURN: Final = 1
NEW_GAME: Final = 2


class TurnStarts:
    """Which choices begin one of an agent's turns, for the agents' per-game memory (ruling A1).

    A game is one ``GameState`` object played on in place (``play_game``, the simulation
    workers); another object, or an earlier turn, is a new game.
    """

    def __init__(self) -> None:
        self._game: GameState | None = None
        self._turn = -1

    def at(self, state: GameState) -> int:
        """NEW_GAME, NEW_TURN (the turn's first choice in the same game) or SAME_TURN."""
        if state is not self._game or state.turn < self._turn:
            self._game = state
            self._turn = state.turn
            return NEW_GAME
        if state.turn == self._turn:
            return SAME_TURN
        self._turn = state.turn
        return NEW_TURN


class GreedyAgent:
    """Scores each legal action with a one-step heuristic and plays the best one.

    Below a score of 0 it assaults: a card is only worth playing if it beats keeping it in hand as
    a hit point (the Stronghold arithmetic) and as Mana for the next turns.
    """

    name = "greedy"

    def __init__(
        self, rng: random.Random | None = None, noise: float = 0.0, guard: bool = True
    ) -> None:
        # Per set-up (keyed by identity: set-ups are shared between games), the tables of _tables.
        self._values_of: dict[int, _Tables] = {}
        # Rollouts of the lookahead agent add a little noise to explore.
        self.rng = rng
        self.noise = noise
        # The repetition guard (ruling A1 of docs/rulings.md): how often each position has begun
        # one of this agent's turns in the game it is playing. A rollout policy jumps between
        # copies of positions and goes without.
        self.guard = guard
        self._turns = TurnStarts()
        self._seen: dict[tuple[object, ...], int] = {}
        self._repeats = 0

    def _repeated(self, state: GameState) -> int:
        """How many times the position has already begun a turn of this game (0: never)."""
        key = position_key(state, state.active)
        seen = self._seen.get(key, 0)
        self._seen[key] = seen + 1
        return seen

    def _tables(self, setup: GameSetup) -> _Tables:
        """(setup, per card id (cost, mask, is a creature, half of the value, attack), value + 1.0
        per card id): what the scores add up, computed once per set-up (the same floats as
        computing them in place); one tuple per card saves the hot loop an index per field."""
        if len(self._values_of) > 512:
            self._values_of.clear()
        values = card_values(setup)
        info = [
            (setup.cost[c], setup.mask[c], setup.creature[c], values[c] * 0.5, setup.attack[c])
            for c in range(len(values))
        ]
        tables = (setup, info, [v + 1.0 for v in values])
        self._values_of[id(setup)] = tables
        return tables

    def choose(self, state: GameState) -> Action:
        """The best-scoring legal action. The candidates are those of ``legal_actions`` in the
        same order (the cards of ``playable_cards``, then the Champion) minus Incantations on
        one's own or a partner's creatures, which the heuristic never wants, and minus the plays
        that lose at once (the hand's last card; a creature right of the Stronghold at its last
        hit point behind the Fort).

        This runs before every action of every computer game, so it scores each playable card
        in place, without building the legal actions: it pays (issue 27, compiled engine, the
        same seeded games, 2,000 per batch, 5 paired runs on a loaded 2-core machine; greedy
        choosing by scoring each action of ``legal_actions`` took, as a median of the paired
        ratios, 1.20x the time of the Duel's batch, 1.26x with Champions, 1.19x in Solo, 1.07x
        in Co-op and 1.26x in Free-For-All, with identical games). That the candidates stay the
        legal ones in their order, and the choice the heuristic's among them, is a property
        test: tests/engine/test_greedy_candidates.py.
        """
        phase = state.phase
        if phase != SUMMONING:
            return END_TURN_ACTION if phase == ASSAULT_DONE else legal_actions(state)[0]
        if self.guard:
            starts = self._turns.at(state)
            if starts == NEW_GAME:
                self._seen = {}
            if starts != SAME_TURN:
                self._repeats = self._repeated(state)
            elif self._repeats:
                # Only the turn's first choice departs from the plan that repeated.
                self._repeats = 0
        # In a repeated position every candidate is ranked, to play the n-th best instead.
        ranked: list[tuple[float, int, int, int]] | None = [] if self._repeats else None
        setup = state.setup
        player = state.active
        pl = hand_of(state, player)
        hand = pl.hand
        size = len(hand)
        mana = pl.mana
        # Playing the last card leaves only the Stronghold in hand: the game is lost.
        candidates: Sequence[int] = playable_cards(state) if size > 1 else ()
        # The Champion, summoned from outside the hand, is the last candidate, CHAMPION_INDEX.
        champion_card = NO_CARD
        if setup.any_champion:
            champion_card = summonable_champion(state)
            if champion_card >= 0:
                candidates = [*candidates, CHAMPION_INDEX]
        tables = self._values_of.get(id(setup))
        if tables is None or tables[0] is not setup:
            tables = self._tables(setup)
        info = tables[1]
        sh = pl.sh
        hit_points = size - sh
        jitter = self.rng.random if self.rng is not None else None
        noise = self.noise
        fronts: list[tuple[int, bool]] | None = None
        # The most any lane adds to a creature's base score (without noise), to skip the lanes
        # of a creature that cannot beat the best so far (a strict > picks the first best, so
        # skipping a candidate that cannot exceed it changes nothing); a margin far above
        # rounding keeps the skip exact.
        lane_bound = 0.0
        any_open = False
        enemies: list[Creature] | None = None
        # The best so far, as (score, kind, card, arg); assaulting scores 0.
        best_score, best_kind, best_card, best_arg = 0.0, ASSAULT, -1, -1
        for index in candidates:
            if index == CHAMPION_INDEX:
                card = champion_card
                cost, mask, creature, half, attack = info[card]
                cost = summon_cost(state, player)
            else:
                card = hand[index]
                cost, mask, creature, half, attack = info[card]
            missing = cost - mana if mask & PRICE_OF_BLOOD and cost > mana else 0
            # The part of the score that depends only on the card played:
            if index == CHAMPION_INDEX:
                # the Champion leaves no gap in the hand: only the Mana counts.
                base = half - 3.0 * missing
            elif creature:
                # a creature leaving the hand from right of the Stronghold costs a hit point,
                loss = 0 if index < sh else 1
                if loss and hit_points <= 1:
                    if pl.fort:
                        continue
                    loss = 4
                base = half - 2.5 * loss - 3.0 * missing
                if hit_points - loss <= 2:
                    base -= 3.0
            else:
                # an Incantation comes back rightmost: from left of the Stronghold, +1 HP.
                base = (1.0 if index < sh else 0.0) - 0.25 * cost - 3.0 * missing
            if creature:
                if fronts is None:
                    # Per lane: hit points left of the enemy creature facing it (-1: none),
                    # and whether the player's own half of the line is empty.
                    fronts = []
                    for lane, (enemy, enemy_lane) in enumerate(setup.topology.facing[player]):
                        line = state.players[enemy].lines[enemy_lane]
                        front = line[0].hp - line[0].damage if line else -1
                        own_empty = not pl.lines[lane]
                        fronts.append((front, own_empty))
                        if front < 0:
                            any_open = True
                        elif own_empty:
                            lane_bound = 3.5
                        elif lane_bound < 1.0:
                            lane_bound = 1.0
                bound = lane_bound
                if any_open:
                    bound = max(bound, _OPEN_LANE + _OPEN_LANE_PER_ATTACK * attack)
                if ranked is not None or jitter is not None or base + bound + 1e-6 > best_score:
                    for lane, (front, own_empty) in enumerate(fronts):
                        value = base
                        if front < 0:
                            value += _OPEN_LANE + _OPEN_LANE_PER_ATTACK * attack
                        else:
                            if attack >= front:
                                value += 1.0
                            if own_empty:
                                value += 2.5 if mask & RAGE else 1.5
                        if jitter is not None:
                            value += jitter() * noise
                        if ranked is not None:
                            ranked.append((value, PLAY, card, lane))
                        if value > best_score:
                            best_score, best_kind, best_card, best_arg = value, PLAY, card, lane
                if mask & SYMBIOTE:
                    for host in symbiote_hosts(state, player):
                        value = base + 1.0
                        if jitter is not None:
                            value += jitter() * noise
                        if ranked is not None:
                            ranked.append((value, PLAY_ONTO, card, host.card))
                        if value > best_score:
                            best_score, best_kind, best_card, best_arg = (
                                value,
                                PLAY_ONTO,
                                card,
                                host.card,
                            )
            else:
                if enemies is None:
                    # The creatures of the other teams: never one's own or a partner's.
                    team = setup.team
                    own_team = team[player]
                    enemies = [
                        c
                        for p, kingdom in enumerate(state.players)
                        if team[p] != own_team
                        for line in kingdom.lines
                        for c in line
                    ]
                kill_values = tables[2]
                for target in enemies:
                    remaining = target.hp - target.damage
                    dealt = remaining - 1 if mask & VULNERABILITY else attack
                    eff = target.eff
                    if eff & INDESTRUCTIBLE or (eff & PROTECTION and not target.protection_used):
                        dealt = 0
                    value = base + (kill_values[target.card] if dealt >= remaining else 0.3 * dealt)
                    if jitter is not None:
                        value += jitter() * noise
                    if ranked is not None:
                        ranked.append((value, CAST, card, target.card))
                    if value > best_score:
                        best_score, best_kind, best_card, best_arg = value, CAST, card, target.card
        if ranked:
            # Assaulting scores 0; the sort is stable, so ties keep the candidates' order.
            ranked.append((0.0, ASSAULT, -1, -1))
            ranked.sort(key=_score, reverse=True)
            _, best_kind, best_card, best_arg = ranked[self._repeats % len(ranked)]
        if best_kind == ASSAULT:
            return ASSAULT_ACTION
        return (best_kind, best_card, best_arg)


def _score(candidate: tuple[float, int, int, int]) -> float:
    return candidate[0]


def position_key(state: GameState, seat: int) -> tuple[object, ...]:
    """What makes two positions between actions the same game situation for ``seat``: the cards
    on the table, their places and states, the Strongholds, the Mana and whose turn it is (not
    the turn number, nor the record of which turn a creature last attacked in), and of the hands
    what ``seat`` sees of them (``engine.rules.observe``): its own in order, of the others only
    how many cards they hold and where their Stronghold sits, so two positions the seat cannot
    tell apart are one."""
    kingdoms: list[object] = []
    for pl in state.players:
        creatures = tuple(
            (
                c.card,
                c.symbiote,
                c.lane,
                c.attack,
                c.hp,
                c.eff,
                c.damage,
                c.new,
                c.protection_used,
                c.sharpened,
                c.chained,
            )
            for line in pl.lines
            for c in line
        )
        hand: object = ()
        if isinstance(pl, HandKingdom):
            hand = tuple(pl.hand) if pl.seat == seat else len(pl.hand)
        kingdoms.append(
            (
                hand,
                pl.hit_points(),
                pl.fort,
                pl.mana,
                len(pl.removed),
                pl.champion,
                pl.champion_exhausted,
                tuple(len(line) for line in pl.lines),
                creatures,
            )
        )
    return (state.active, state.phase, tuple(kingdoms))


# See GreedyAgent._tables.
_Tables = tuple[GameSetup, list[tuple[int, int, bool, float, int]], list[float]]


def team_weights(setup: GameSetup, player: int) -> list[float]:
    """Per seat, how much its standing counts for ``player``: +1 shared among ``player``'s team,
    -1 shared among the enemies (a Duel: +1 and -1; Free-For-All: +1 and -1/3 each)."""
    team = setup.team
    own = team[player]
    allies = sum(1 for t in team if t == own)
    enemies = len(team) - allies
    return [1.0 / allies if t == own else -1.0 / enemies for t in team]


def evaluate(state: GameState, player: int) -> float:
    """Heuristic worth of a position for ``player`` in [-1, 1] (a win is 1, a loss -1)."""
    if state.outcome is not None:
        return float(state.outcome.returns[player])
    total = 0.0
    weights = team_weights(state.setup, player)
    for p, pl in enumerate(state.players):
        sign = weights[p]
        life = pl.hit_points() + (0 if pl.fort else 8)
        board = sum(c.attack + c.hp - c.damage for line in pl.lines for c in line)
        total += sign * (life * 1.0 + board * 0.25)
    return max(-0.99, min(0.99, total / 20.0))


class RepetitionGuard:
    """Ruling A1 for the search agents: per position that began one of the agent's turns in the
    game being played (a game: one GameState played on in place), the first actions it was left
    with, which the agent does not choose there again before it has tried every other one; and
    within a turn, no action that leads back to a position the turn has already been in (a
    0-Mana Incantation that does nothing returns to the hand and could be cast forever)."""

    def __init__(self) -> None:
        self._turns = TurnStarts()
        self._tried: dict[tuple[object, ...], list[Action]] = {}
        self._this_turn: set[tuple[object, ...]] = set()

    def untried(
        self, state: GameState, actions: list[Action]
    ) -> tuple[list[Action], list[Action] | None]:
        """At the turn's first choice: the actions not tried yet in this position (all again
        once each was) and the list to record the choice in; later in the turn: the actions
        that do not lead back to a position of this turn (all if none) and None."""
        starts = self._turns.at(state)
        key = position_key(state, state.active)
        if starts == NEW_GAME:
            self._tried = {}
        if starts != SAME_TURN:
            self._this_turn = {key}
        else:
            self._this_turn.add(key)
            onward = [action for action in actions if self._leads_on(state, action)]
            return onward or actions, None
        tried = self._tried.setdefault(key, [])
        fresh = [action for action in actions if action not in tried]
        if not fresh:
            tried.clear()
            fresh = actions
        return fresh, tried

    def _leads_on(self, state: GameState, action: Action) -> bool:
        trial = state.copy(records=False)
        apply(trial, action)
        return position_key(trial, state.active) not in self._this_turn


class LookaheadAgent:
    """Flat Monte Carlo over the legal actions with noisy greedy rollouts."""

    name = "lookahead"

    def __init__(self, seed: int = 0, nodes: int = 3000, rollouts: int = 3) -> None:
        self.rng = random.Random(seed)
        self.nodes = nodes
        self.rollouts = rollouts
        self.policy = GreedyAgent(self.rng, noise=1.0, guard=False)
        self.greedy = GreedyAgent()
        self.guard = RepetitionGuard()

    def choose(self, state: GameState) -> Action:
        actions = legal_actions(state)
        if len(actions) == 1:
            return actions[0]
        player = state.active
        budget = self.nodes // max(1, len(actions) * self.rollouts)
        if budget < 4:
            return self.greedy.choose(state)
        actions, tried = self.guard.untried(state, actions)
        best = actions[0]
        best_value = -2.0
        for action in actions:
            total = 0.0
            for _ in range(self.rollouts):
                trial = state.copy(records=False)
                apply(trial, action)
                total += self._rollout(trial, player, budget)
            value = total / self.rollouts
            if value > best_value:
                best, best_value = action, value
        if tried is not None:
            tried.append(best)
        return best

    def _rollout(self, state: GameState, player: int, budget: int) -> float:
        """Play on until every other player has had a turn (the end of the opponent's next turn
        in a Duel) or the budget runs out, then evaluate."""
        others = len(state.players) - 1
        turns_left = others + 1 if state.active == player else others
        policy = self.policy
        while budget > 0 and state.outcome is None:
            action = policy.choose(state)
            if action[0] == END_TURN:
                turns_left -= 1
                if turns_left < 0:
                    break
            apply(state, action)
            budget -= 1
        return evaluate(state, player)


# UCB1's exploration constant for values in [-1, 1].
_EXPLORATION: Final = 0.6
# What the Bastion still to break is worth, in hit points of the Fort behind it.
_BASTION: Final = 4.0
# How much of the damage a creature facing an open line will deal counts now (the enemy may
# still block it or destroy it).
_THREAT: Final = 0.7
_BOARD: Final = 0.15
_MANA: Final = 0.1
_SCALE: Final = 8.0
# The jitter of the strong agent's rollout policy. Measured against lookahead, 416 games on the
# preconstructed pairs with seat swap (seed 1), 6,000 nodes: 0.5 won 57.7%, 1.0 60.8%, 2.0 64.4%,
# 3.0 69.7%. Likely why: more varied rollouts sample more of the enemy's possible replies.
_ROLLOUT_NOISE: Final = 3.0
# The actions a rollout plays in one turn before it assaults. Its policy keeps no repetition
# guard (ruling A1), so a returning Incantation of no effect (Cycle of life, 0 Mana, 0 Damage) can
# score above the Assault for ever; a real turn of an 8-card deck plays far fewer actions.
_ROLLOUT_TURN_ACTIONS: Final = 40


def assess(state: GameState, player: int, values: list[float] | None = None) -> float:
    """Worth of the position for ``player`` in [-1, 1]: 1 a win, -1 a loss; otherwise the
    difference of the two sides' standing, squashed. ``values``: :func:`card_values` of the
    set-up (the worth of each card in play; a search passes it to compute it once)."""
    outcome = state.outcome
    if outcome is not None:
        return float(outcome.returns[player])
    setup = state.setup
    if values is None:
        values = card_values(setup)
    total = 0.0
    weights = team_weights(setup, player)
    for p, pl in enumerate(state.players):
        life = float(pl.hit_points())
        if not pl.fort:
            life += _BASTION
        board = 0.0
        for line in pl.lines:
            for c in line:
                board += values[c.card] + (c.attack - setup.attack[c.card]) - c.damage
        # The enemy creatures that will strike this Stronghold: facing an empty line.
        threat = 0.0
        for lane, (enemy, enemy_lane) in enumerate(setup.topology.facing[p]):
            if not pl.lines[lane]:
                for c in state.players[enemy].lines[enemy_lane]:
                    threat += c.attack
        hand = len(pl.hand) if isinstance(pl, HandKingdom) else 0
        standing = life - _THREAT * threat + _BOARD * board + _MANA * hand
        total += standing * weights[p]
    return math.tanh(total / _SCALE)


def without_own_casts(state: GameState, actions: list[Action]) -> list[Action]:
    """``actions`` less the Incantations on the active player's or a partner's creatures: almost
    never worth a share of a search's budget (the greedy policy never plays one either)."""
    team = state.setup.team
    player = state.active
    own = {
        c.card
        for p, kingdom in enumerate(state.players)
        if team[p] == team[player]
        for line in kingdom.lines
        for c in line
    }
    if not own:
        return actions
    return [a for a in actions if not (a[0] == CAST and a[2] in own)]


class StrongAgent:
    """Determinized flat Monte Carlo search with UCB1 at the root, within a node budget."""

    name = "strong"

    def __init__(
        self, seed: int = 0, nodes: int = 6000, seconds: float = 0.0, horizon: int = 1
    ) -> None:
        self.rng = random.Random(seed)
        self.nodes = nodes
        self.seconds = seconds
        # The enemy turns a simulation plays out before its position is scored.
        self.horizon = horizon
        self.policy = GreedyAgent(self.rng, noise=_ROLLOUT_NOISE, guard=False)
        self.greedy = GreedyAgent()
        self._values_of: tuple[GameSetup, list[float]] | None = None
        # The cards seen outside the hands in the game being played: a card back in a hand went
        # to a place everyone saw, while the others are still where the shuffle of the set-up
        # put them, unknown to the enemy.
        self.hidden = HiddenCards()
        self.guard = RepetitionGuard()

    def _values(self, setup: GameSetup) -> list[float]:
        kept = self._values_of
        if kept is None or kept[0] is not setup:
            kept = (setup, card_values(setup))
            self._values_of = kept
        return kept[1]

    def choose(self, state: GameState) -> Action:
        self.hidden.observe(state)
        actions = legal_actions(state)
        if len(actions) == 1:
            return actions[0]
        player = state.active
        actions = without_own_casts(state, actions)
        actions, tried = self.guard.untried(state, actions)
        if len(actions) == 1:
            chosen = actions[0]
            if tried is not None:
                tried.append(chosen)
            return chosen
        values = self._values(state.setup)
        count = len(actions)
        visits = [0] * count
        totals = [0.0] * count
        budget = self.nodes
        deadline = time.perf_counter() + self.seconds if self.seconds > 0 else 0.0
        used = 0
        simulations = 0
        rng = self.rng
        while used < budget:
            if deadline and time.perf_counter() > deadline:
                break
            if simulations < count:
                pick = simulations
            else:
                log_n = math.log(simulations)
                pick = 0
                best = -1e9
                for i in range(count):
                    score = totals[i] / visits[i] + _EXPLORATION * math.sqrt(log_n / visits[i])
                    if score > best:
                        best, pick = score, i
            trial = self.hidden.deal(state, player, rng)
            apply(trial, actions[pick])
            value, spent = self._rollout(trial, player, values)
            used += spent + 1
            visits[pick] += 1
            totals[pick] += value
            simulations += 1
        if simulations < count:
            # Too small a budget to try every action once: the greedy choice.
            return self.greedy.choose(state)
        best_index = 0
        for i in range(1, count):
            if (visits[i], totals[i]) > (visits[best_index], totals[best_index]):
                best_index = i
        if tried is not None:
            tried.append(actions[best_index])
        return actions[best_index]

    def _rollout(self, state: GameState, player: int, values: list[float]) -> tuple[float, int]:
        """Play on with the noisy greedy policy until every other player has had ``horizon``
        turns (the enemy's ``horizon``-th turn in a Duel); the position's worth and the actions
        it took."""
        others = len(state.players) - 1
        ends_left = self.horizon * others + (1 if state.active == player else 0)
        policy = self.policy
        spent = 0
        this_turn = 0
        while state.outcome is None:
            if this_turn >= _ROLLOUT_TURN_ACTIONS and state.phase == SUMMONING:
                action = ASSAULT_ACTION
            else:
                action = policy.choose(state)
            if action[0] == END_TURN:
                ends_left -= 1
                if ends_left < 0:
                    break
                this_turn = -1
            apply(state, action)
            spent += 1
            this_turn += 1
        return assess(state, player, values), spent


def _learned(seed: int, replies: int) -> Agent:
    # engine.rules.learned builds on this module: imported on first use.
    from engine.rules.evaluation_model import evaluator
    from engine.rules.learned import LearnedAgent

    return LearnedAgent(evaluator(), seed, replies)


AGENTS: Final[dict[str, Callable[[int], Agent]]] = {
    "random": lambda seed: RandomAgent(seed),
    "greedy": lambda seed: GreedyAgent(),
    "lookahead": lambda seed: LookaheadAgent(seed),
    "strong": lambda seed: StrongAgent(seed),
    "learned": lambda seed: _learned(seed, 0),
    "learned_deep": lambda seed: _learned(seed, 2),
}


@dataclass(frozen=True, slots=True)
class GameResult:
    # Per seat: 1 won, -1 lost; all 0: a draw, stopped by the turn or action cap.
    returns: tuple[int, ...]
    turns: int
    actions: tuple[Action, ...]
    state: GameState


def play_game(
    decks: Sequence[Sequence[CardDef]],
    seed: int,
    agents: Sequence[Agent],
    options: Options | None = None,
    max_turns: int | None = None,
    max_actions: int = ACTION_LIMIT,
    champions: Sequence[CardDef | None] | None = None,
) -> GameResult:
    """Play one game between ``agents`` (agent i plays deck i, with Champion i if given) to its
    end (``engine.rules.game.Game``): a game still running after its mode's turn limit (or
    ``max_turns``, an agent's own budget) or ``max_actions`` actions is a draw."""
    game = Game.start(decks, seed, options, champions, max_turns)
    record: list[Action] = []

    def recorded(state: GameState, seat: int, action: Action) -> None:
        record.append(action)

    game.advance(agents, action_limit=max_actions, before=recorded)
    state = game.state
    return GameResult(state.returns(), state.turn, tuple(record), state)


__all__ = [
    "AGENTS",
    "Agent",
    "GameResult",
    "GreedyAgent",
    "LookaheadAgent",
    "RandomAgent",
    "RepetitionGuard",
    "StrongAgent",
    "assess",
    "card_worth",
    "evaluate",
    "play_game",
    "position_key",
    "without_own_casts",
]
