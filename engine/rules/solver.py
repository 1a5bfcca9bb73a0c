"""The Grimoire solver: every way the active player can play out the turn, checked against a goal.

A puzzle is a position (a scenario's ``state``, built by :func:`engine.rules.scenario.build_state`)
and a :class:`Goal`. :func:`solve` searches breadth-first over the active player's Phase 2 choices
(which card, in which order, on which line, onto which creature, at which target), and ends each
line of play with the Assault. Breadth-first, so the first solution met is a shortest one.

Pruning: two orders of play that reach the same position (:func:`position_key`) are one node, so
a position is expanded once and counted once. A *solution* is therefore a distinct position from
which the Assault meets the goal (or a play that ends the game meeting it), not an order of play.

"Survive the enemy's next turn" searches the enemy's whole next turn the same way for every
candidate: the goal is met when no play of the enemy destroys the player's Fort.

The search is bounded by ``max_nodes`` (positions expanded, player's and enemy's together: the
same position and bound always give the same report) and by ``max_seconds`` (a safety net for
the web app; a report cut by either is marked ``complete: False`` and proves nothing but the
solution it may have found).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from engine.rules.actions import (
    ASSAULT_ACTION,
    END_TURN_ACTION,
    PLAY,
    Action,
    apply,
    from_json,
    legal_actions,
    to_json,
)
from engine.rules.errors import IllegalAction, InputError
from engine.rules.kingdom import HandKingdom, Kingdom
from engine.rules.state import OVER, SUMMONING, Creature, GameState

WIN: Final = "win"
DESTROY_STRONGHOLD: Final = "destroy_stronghold"
DESTROY_CREATURES: Final = "destroy_creatures"
SURVIVE: Final = "survive"
HP_AT_LEAST: Final = "hp_at_least"
ALL: Final = "all"
GOAL_KINDS: Final = (WIN, DESTROY_STRONGHOLD, DESTROY_CREATURES, SURVIVE, HP_AT_LEAST, ALL)
SIDES: Final = ("bastion", "fort")
# A combination nests at most this deep and holds at most this many goals (bounded input).
MAX_GOALS: Final = 6

DEFAULT_MAX_NODES: Final = 200_000
DEFAULT_MAX_SECONDS: Final = 30.0
# A search's `progress` callback hears the nodes expanded so far once per this many.
PROGRESS_EVERY: Final = 1024


@dataclass(frozen=True)
class Goal:
    """What the player must achieve this turn. ``count``: the creatures to destroy
    (destroy_creatures) or the hit points to keep (hp_at_least); ``side``: the Stronghold side to
    destroy (destroy_stronghold); ``goals``: the parts of an ``all`` combination.

    Goals are judged once the player's Assault is over (or a play ended the game), and never met
    by a player who lost: ``destroy_creatures`` counts the enemy creatures in play at the start
    that are no longer in play; ``hp_at_least`` reads the player's Stronghold then; the Bastion
    is destroyed when the Fort is up (or the game won); ``survive`` ends the turn and searches
    every play of the enemy's next turn up to its Assault."""

    kind: str
    count: int = 0
    side: str = ""
    goals: tuple[Goal, ...] = ()

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        if self.kind == DESTROY_STRONGHOLD:
            data["side"] = self.side
        elif self.kind == DESTROY_CREATURES:
            data["count"] = self.count
        elif self.kind == HP_AT_LEAST:
            data["hp"] = self.count
        elif self.kind == ALL:
            data["goals"] = [goal.to_json() for goal in self.goals]
        return data

    def needs_enemy_turn(self) -> bool:
        return self.kind == SURVIVE or any(goal.needs_enemy_turn() for goal in self.goals)


_GOAL_KEYS: Final = {
    WIN: {"kind"},
    DESTROY_STRONGHOLD: {"kind", "side"},
    DESTROY_CREATURES: {"kind", "count"},
    SURVIVE: {"kind"},
    HP_AT_LEAST: {"kind", "hp"},
    ALL: {"kind", "goals"},
}


def goal_from_json(data: Any, where: str = "goal") -> Goal:
    """The goal ``data`` describes; an :class:`InputError` names the offending key."""
    if not isinstance(data, dict):
        raise InputError(f"{where}: expected a mapping with 'kind'")
    kind = data.get("kind")
    if kind not in _GOAL_KEYS:
        raise InputError(f"{where}.kind: expected one of {', '.join(GOAL_KINDS)}, not {kind!r}")
    for key in data:
        if key not in _GOAL_KEYS[kind]:
            raise InputError(f"{where}: unknown key {key!r} for a {kind!r} goal")
    if kind == DESTROY_STRONGHOLD:
        side = data.get("side", "bastion")
        if side not in SIDES:
            raise InputError(f"{where}.side: expected 'bastion' or 'fort', not {side!r}")
        return Goal(kind, side=side)
    if kind in (DESTROY_CREATURES, HP_AT_LEAST):
        key = "count" if kind == DESTROY_CREATURES else "hp"
        value = data.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise InputError(f"{where}.{key}: expected a whole number >= 1")
        return Goal(kind, count=value)
    if kind == ALL:
        parts = data.get("goals")
        if not isinstance(parts, list) or not 2 <= len(parts) <= MAX_GOALS:
            raise InputError(f"{where}.goals: expected a list of 2 to {MAX_GOALS} goals")
        goals = tuple(goal_from_json(part, f"{where}.goals[{i}]") for i, part in enumerate(parts))
        if sum(_size(goal) for goal in goals) > MAX_GOALS:
            raise InputError(f"{where}.goals: at most {MAX_GOALS} goals in all")
        return Goal(kind, goals=goals)
    return Goal(kind)


def _size(goal: Goal) -> int:
    return sum(_size(part) for part in goal.goals) if goal.kind == ALL else 1


def goal_problems(goal: Goal, state: GameState, where: str = "goal") -> list[str]:
    """Why ``goal`` cannot be met from ``state`` whatever the player does (empty: it may be)."""
    player = state.active
    enemy = 1 - player
    problems: list[str] = []
    if goal.kind == DESTROY_STRONGHOLD and goal.side == "bastion" and state.players[enemy].fort:
        problems.append(f"{where}.side: the enemy Bastion is already destroyed (its Fort is up)")
    elif goal.kind == DESTROY_CREATURES:
        present = len(_creatures(state.players[enemy]))
        if goal.count > present:
            problems.append(
                f"{where}.count: the enemy has only {present} creature(s) in play, not {goal.count}"
            )
    elif goal.kind == HP_AT_LEAST:
        total = len(state.setup.cards)
        if goal.count > total:
            problems.append(f"{where}.hp: the game has only {total} cards, not {goal.count}")
    for i, part in enumerate(goal.goals):
        problems.extend(goal_problems(part, state, f"{where}.goals[{i}]"))
    return problems


# ---- positions ------------------------------------------------------------------------------


def _creatures(kingdom: Kingdom) -> set[int]:
    return {creature.card for line in kingdom.lines for creature in line}


def _kingdom_key(kingdom: Kingdom) -> tuple[Any, ...]:
    hand: tuple[Any, ...] = ()
    if isinstance(kingdom, HandKingdom):
        hand = (tuple(kingdom.hand), kingdom.sh)
    return (
        hand,
        kingdom.seat,
        kingdom.fort,
        # map over the method rather than a generator: the key is built for every child position.
        tuple([tuple(map(Creature.key, line)) for line in kingdom.lines]),
        kingdom.mana,
        tuple(kingdom.removed),
        kingdom.turns,
        kingdom.champion,
        kingdom.champion_exhausted,
    )


def position_key(state: GameState) -> tuple[Any, ...]:
    """A hashable key equal for two states of one game exactly when ``GameState.__eq__`` says
    they are equal, except for the RNG, which nothing reads after a Duel's set-up (and the set-up,
    which one search shares)."""
    outcome = state.outcome
    ended = (
        None
        if outcome is None
        else (
            outcome.returns,
            outcome.loser,
            outcome.reason,
            outcome.source,
            outcome.source_player,
        )
    )
    return (
        tuple(_kingdom_key(kingdom) for kingdom in state.players),
        state.active,
        state.first_player,
        state.phase,
        ended,
        state.turn,
        tuple(sorted(state.spent_sharpening)),
        tuple(state.resolving),
    )


# ---- goals ----------------------------------------------------------------------------------


class _Budget:
    """The node and time bounds shared by the player's search and the enemy's."""

    def __init__(
        self, max_nodes: int, max_seconds: float, progress: Callable[[int], None] | None = None
    ) -> None:
        self.max_nodes = max_nodes
        self.deadline = time.monotonic() + max_seconds
        self.nodes = 0
        self.cut = ""
        self.progress = progress

    def spend(self) -> bool:
        """Count one expanded position; False (and ``cut`` set) once a bound is reached."""
        if self.cut:
            return False
        if self.nodes >= self.max_nodes:
            self.cut = "nodes"
            return False
        if time.monotonic() > self.deadline:
            self.cut = "time"
            return False
        self.nodes += 1
        if self.progress is not None and self.nodes % PROGRESS_EVERY == 0:
            self.progress(self.nodes)
        return True


def _won(state: GameState, player: int) -> bool:
    return state.outcome is not None and player in state.outcome.winners()


def _lost(state: GameState, player: int) -> bool:
    return state.outcome is not None and state.outcome.returns[player] < 0


class _Judge:
    """Checks end-of-turn positions against the goal; the enemy's replies are searched once per
    distinct position."""

    def __init__(self, root: GameState, goal: Goal, budget: _Budget) -> None:
        self.player = root.active
        self.enemy = 1 - root.active
        self.goal = goal
        self.budget = budget
        self.enemy_creatures = _creatures(root.players[self.enemy])
        self.enemy_fort = root.players[self.enemy].fort
        self.survives: dict[tuple[Any, ...], bool] = {}

    def met(self, end: GameState, goal: Goal | None = None) -> bool:
        """Whether ``end`` (after the Assault, or a game over) meets the goal; False as well when
        the budget ran out before the enemy's turn was searched (the report says it was cut)."""
        goal = self.goal if goal is None else goal
        if goal.kind == ALL:
            return all(self.met(end, part) for part in goal.goals)
        if _lost(end, self.player):
            return False
        if goal.kind == WIN:
            return _won(end, self.player)
        if goal.kind == DESTROY_STRONGHOLD:
            if goal.side == "fort" or self.enemy_fort:
                return _won(end, self.player)
            return _won(end, self.player) or end.players[self.enemy].fort
        if goal.kind == DESTROY_CREATURES:
            destroyed = self.enemy_creatures - _creatures(end.players[self.enemy])
            return len(destroyed) >= goal.count
        if goal.kind == HP_AT_LEAST:
            return end.players[self.player].hit_points() >= goal.count
        return self._survives(end)

    def _survives(self, end: GameState) -> bool:
        if end.outcome is not None:
            return _won(end, self.player)
        after = end.copy()
        apply(after, END_TURN_ACTION)
        if after.outcome is not None:
            return _won(after, self.player)
        key = position_key(after)
        known = self.survives.get(key)
        if known is None:
            known = not _search(after, self.budget, lambda s: _lost(s, self.player), first=True)[0]
            if self.budget.cut:
                known = False
            self.survives[key] = known
        return known


# ---- searching ------------------------------------------------------------------------------


def _plays(state: GameState) -> list[Action]:
    return [action for action in legal_actions(state) if action[0] >= PLAY]


def _search(
    root: GameState,
    budget: _Budget,
    meets: Callable[[GameState], bool],
    first: bool = False,
    shortest: list[list[Action]] | None = None,
) -> tuple[int, bool]:
    """Breadth-first over the active player's turn from ``root`` (in Phase 2).

    Returns (distinct positions meeting ``meets``, whether ending the turn at once meets it);
    ``first``: stop at the first one. ``shortest`` (if given) receives the shortest line of play
    found, as engine actions from ``root`` (its last one the Assault, unless a play ended the game).
    """
    found = 0
    trivial = False
    seen = {position_key(root)}
    queue: deque[tuple[GameState, tuple[Action, ...]]] = deque([(root, ())])
    while queue:
        state, path = queue.popleft()
        if not budget.spend():
            break
        if state.phase == OVER:
            hit = meets(state)
            line = path
        else:
            end = state.copy()
            apply(end, ASSAULT_ACTION)
            hit = meets(end)
            line = (*path, ASSAULT_ACTION)
            if hit and not path:
                trivial = True
        if hit:
            found += 1
            if shortest is not None and not shortest:
                shortest.append(list(line))
            if first:
                break
        if state.phase == OVER:
            continue
        for action in _plays(state):
            child = state.copy()
            try:
                apply(child, action)
            except IllegalAction:
                continue
            key = position_key(child)
            if key in seen:
                continue
            seen.add(key)
            queue.append((child, (*path, action)))
    return found, trivial


@dataclass
class Report:
    """What the solver found. ``complete``: the whole turn was searched (so ``solutions`` is
    exact and ``solvable: False`` proves the puzzle has no solution)."""

    solvable: bool
    solutions: int
    shortest: list[Any]
    trivial: bool
    complete: bool
    cut: str
    nodes: int
    seconds: float
    goal: Goal = field(repr=False, default=Goal(WIN))

    @property
    def unsolvable(self) -> bool:
        return self.complete and not self.solvable

    @property
    def proved(self) -> bool:
        """A puzzle worth publishing: a solution exists, the count is exact, and it takes more
        than ending the turn."""
        return self.solvable and self.complete and not self.trivial

    def to_json(self) -> dict[str, Any]:
        return {
            "goal": self.goal.to_json(),
            "solvable": self.solvable,
            "unsolvable": self.unsolvable,
            "solutions": self.solutions,
            "shortest": self.shortest,
            "trivial": self.trivial,
            "complete": self.complete,
            "cut": self.cut,
            "proved": self.proved,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
        }


def _readable(root: GameState, line: list[Action]) -> list[Any]:
    """``line`` in the scenario format, each action named in the position it is played in."""
    state = root.copy()
    out = []
    for action in line:
        out.append(to_json(state, action))
        apply(state, action)
    return out


def solve(
    root: GameState,
    goal: Goal,
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    max_seconds: float = DEFAULT_MAX_SECONDS,
    progress: Callable[[int], None] | None = None,
) -> Report:
    """Search every way the active player of ``root`` (resting in Phase 2) can play the turn.
    ``progress`` (if given) hears the nodes expanded so far as the search goes."""
    started = time.monotonic()
    budget = _Budget(max_nodes, max_seconds, progress)
    judge = _Judge(root, goal, budget)
    shortest: list[list[Action]] = []
    found, trivial = _search(root.copy(), budget, judge.met, shortest=shortest)
    return Report(
        solvable=found > 0,
        solutions=found,
        shortest=_readable(root, shortest[0]) if shortest else [],
        trivial=trivial,
        complete=not budget.cut,
        cut=budget.cut,
        nodes=budget.nodes,
        seconds=time.monotonic() - started,
        goal=goal,
    )


@dataclass
class Attempt:
    """A player's attempt: ``refused`` is the index of the action the rules refused (None: all
    were played) and ``message`` why; ``met`` whether the turn met the goal."""

    met: bool
    refused: int | None = None
    message: str = ""
    actions: list[Any] = field(default_factory=list)
    complete: bool = True

    def to_json(self) -> dict[str, Any]:
        return {
            "met": self.met,
            "refused": self.refused,
            "message": self.message,
            "complete": self.complete,
        }


def attempt(
    root: GameState,
    goal: Goal,
    actions: list[Any],
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    max_seconds: float = DEFAULT_MAX_SECONDS,
    progress: Callable[[int], None] | None = None,
) -> Attempt:
    """Play ``actions`` (scenario format: plays, then optionally ``assault``) from ``root`` and
    check the turn against ``goal``; the Assault ends the turn when the actions do not."""
    state = root.copy()
    budget = _Budget(max_nodes, max_seconds, progress)
    judge = _Judge(root, goal, budget)
    for index, data in enumerate(actions):
        if state.phase != SUMMONING:
            return Attempt(False, index, "the turn is already over: nothing comes after 'assault'")
        if data == "end_turn":
            data = "assault"
        try:
            apply(state, from_json(state, data))
        except IllegalAction as exc:
            return Attempt(False, index, exc.message_en)
        except InputError as exc:
            return Attempt(False, index, str(exc))
    if state.phase == SUMMONING:
        apply(state, ASSAULT_ACTION)
    met = judge.met(state)
    return Attempt(met, None, "", complete=not budget.cut)
