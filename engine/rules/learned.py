"""The learned agent: a shallow search scored by the learned evaluation (engine.rules.evaluation).

At each choice it deals the cards its seat cannot see anew (:class:`HiddenCards`, a
determinization, the same for every candidate so that they are compared on one deal), plays each
candidate action, finishes its own turn with the greedy policy (the Assault included) and scores
the position the next player starts from with the learned model. With ``replies`` above 0 it
then takes the 3 candidates that scored best further: on ``replies`` deals each, every other
player plays their turn as the model would advise them (their first action the one it scores best
for them, the rest greedy), and the position its own next turn starts from is scored, averaged.
Measured against the strong agent (bench/learned_bench.py), looking at the replies a good
opponent would make weighed more than sampling many noisy ones.

It never reads a card its seat cannot see: the enemies' cards never seen out of their hands are
dealt anew among their places before it simulates anything (sorted first, so the deal never
depends on their real order), the Solo AI's face-down deck pile is shuffled, the game's own
random stream is drawn anew, and the features of another seat's hand do not depend on the order
of its cards.
"""

from __future__ import annotations

import random
from typing import Final

from engine.rules.actions import (
    ASSAULT_ACTION,
    END_TURN,
    Action,
    apply,
    legal_actions,
)
from engine.rules.agents import GreedyAgent, RepetitionGuard, without_own_casts
from engine.rules.evaluation import Evaluator
from engine.rules.hidden import HiddenCards
from engine.rules.state import SUMMONING, GameState

# A simulated turn assaults after this many actions (a 0-Mana Incantation of no effect could be
# cast for ever by a policy without the repetition guard; a real turn plays far fewer).
_TURN_ACTIONS: Final = 40
# With replies: how many of the candidates that end the turn best are looked at further.
_FOCUS: Final = 3


def _first_two(end: tuple[float, int, GameState]) -> tuple[float, int]:
    return end[0], end[1]


class LearnedAgent:
    """See the module docstring. ``replies``: the deals of the next players' turns per candidate
    (0: score the position its own turn leaves)."""

    name = "learned"

    def __init__(self, evaluator: Evaluator, seed: int = 0, replies: int = 0) -> None:
        self.evaluator = evaluator
        self.rng = random.Random(seed)
        self.replies = replies
        self.greedy = GreedyAgent(guard=False)
        self.hidden = HiddenCards()
        self.guard = RepetitionGuard()

    def choose(self, state: GameState) -> Action:
        self.hidden.observe(state)
        actions = legal_actions(state)
        if len(actions) == 1:
            return actions[0]
        player = state.active
        actions, tried = self.guard.untried(state, without_own_casts(state, actions))
        best = actions[0]
        if len(actions) > 1:
            best = self._best(state, actions, player)
        if tried is not None:
            tried.append(best)
        return best

    def _best(self, state: GameState, actions: list[Action], player: int) -> Action:
        """The candidate whose turn ends best by the model; with ``replies``, the ``_FOCUS``
        best of them are then compared after the next players' turns (:meth:`_reply`), on
        ``replies`` deals each."""
        deal = self.hidden.deal(state, player, self.rng)
        evaluator = self.evaluator
        ends: list[tuple[float, int, GameState]] = []
        for index, action in enumerate(actions):
            trial = deal.copy()
            apply(trial, action)
            if action[0] != END_TURN:
                self._play_turn(trial, self.greedy)
            # Ties keep the candidates' order (the index breaks them).
            ends.append((-evaluator.logit(trial, player), index, trial))
        ends.sort(key=_first_two)
        if self.replies <= 0:
            return actions[ends[0][1]]
        best, best_value = ends[0][1], -1.0
        for _, index, trial in ends[:_FOCUS]:
            total = 0.0
            for deal_number in range(self.replies):
                # The first deal goes on from the candidate's own; the others deal anew.
                if deal_number == 0:
                    reply = trial.copy()
                else:
                    reply = self.hidden.deal(trial, player, self.rng)
                while reply.outcome is None and reply.active != player:
                    reply = self._reply(reply)
                total += evaluator.win_probability(reply, player)
            value = total / self.replies
            if value > best_value:
                best, best_value = index, value
        return actions[best]

    def _reply(self, state: GameState) -> GameState:
        """Another player's turn as this agent expects it: its first action the one the model
        scores best for that player (its turn finished greedily), the rest greedy. The position
        after it: the best first action's trial itself (playing it again on ``state`` would give
        the same position, at the cost of a turn), or ``state`` played on in place."""
        mover = state.active
        actions = legal_actions(state)
        if len(actions) > 1:
            best: GameState | None = None
            best_value = -1e9
            for action in actions:
                trial = state.copy()
                apply(trial, action)
                if action[0] != END_TURN:
                    self._play_turn(trial, self.greedy)
                value = self.evaluator.logit(trial, mover)
                if value > best_value:
                    best, best_value = trial, value
            if best is not None:
                return best
        first = actions[0]
        apply(state, first)
        if first[0] != END_TURN:
            self._play_turn(state, self.greedy)
        return state

    def _play_turn(self, state: GameState, policy: GreedyAgent) -> None:
        """Play the active player's turn to its end (the next player's start, or the game's)."""
        actions = 0
        while state.outcome is None:
            if actions >= _TURN_ACTIONS and state.phase == SUMMONING:
                action = ASSAULT_ACTION
            else:
                action = policy.choose(state)
            apply(state, action)
            if action[0] == END_TURN:
                return
            actions += 1


__all__ = ["LearnedAgent"]
