"""A learned evaluation of positions: how likely a seat's team is to win, from what it can see.

The features of a position, for the seat ``player``, are per-seat standings (hit points, the
Bastion still to break, the creatures in play, the attacks each Stronghold faces, the cards in
hand counted and weighed as a whole) combined with :func:`engine.rules.agents.team_weights`: in a
Duel, the player's standing minus the enemy's. Every feature of another seat's hand is a sum over
its cards, never their order, so a hand seen only from the back (``engine.rules.view``) gives the
same features whatever order its cards are in: the order is the hidden information of the rules
(the deck lists of a game are known to both sides, as :class:`engine.rules.agents.StrongAgent`
assumes too).

The model is logistic: the win probability is ``sigmoid(weights . features)``; its weights come
from self-play games of the strong agent (``engine.rules.train_evaluation``) and are stored with
their provenance in ``engine/rules/evaluation_model.json`` (``engine.rules.evaluation_model``
reads it). This module holds no file access, so mypyc compiles it with the rest of a game's path.
"""

from __future__ import annotations

import math
from typing import Final

from engine.rules.agents import card_values, team_weights
from engine.rules.kingdom import HandKingdom
from engine.rules.state import NO_CARD, GameSetup, GameState

# The features, in the order of the weights (the model file lists them to check it fits).
FEATURES: Final = (
    "hit_points",
    "bastion",
    "bastion_hand",
    "hand",
    "sh",
    "hand_worth",
    "hand_creatures",
    "creatures",
    "attack",
    "health",
    "board_worth",
    # The attacks a Stronghold faces (enemy creatures across its empty lanes), apart for a seat
    # waiting for another's turn (they strike before it can answer) and for the seat to play.
    "threat_waiting",
    "threat_to_play",
    "overkill_waiting",
    "lethal_waiting",
    "breach_waiting",
    "lethal_to_play",
    "breach_to_play",
    "champion_ready",
    "to_play",
)
FEATURE_COUNT: Final = 20


class Evaluator:
    """The model over :data:`FEATURES` (see the module docstring): a linear part, plus a small
    hidden layer of ``tanh`` units each used as ``tanh(b + a.x) - tanh(b - a.x)``, so that the
    log-odds of one side are exactly minus the other's in a Duel (``x`` changes sign)."""

    def __init__(
        self,
        weights: list[float],
        hidden_in: list[list[float]] | None = None,
        hidden_bias: list[float] | None = None,
        hidden_out: list[float] | None = None,
    ) -> None:
        if len(weights) != FEATURE_COUNT:
            raise ValueError(f"expected {FEATURE_COUNT} weights, not {len(weights)}")
        self.weights = weights
        self.hidden_in = hidden_in or []
        self.hidden_bias = hidden_bias or [0.0] * len(self.hidden_in)
        self.hidden_out = hidden_out or [0.0] * len(self.hidden_in)
        if any(len(row) != FEATURE_COUNT for row in self.hidden_in) or not (
            len(self.hidden_in) == len(self.hidden_bias) == len(self.hidden_out)
        ):
            raise ValueError("the hidden layer's sizes do not fit")
        self._values_of: tuple[GameSetup, list[float]] | None = None

    def _values(self, setup: GameSetup) -> list[float]:
        kept = self._values_of
        if kept is None or kept[0] is not setup:
            kept = (setup, card_values(setup))
            self._values_of = kept
        return kept[1]

    def logit(self, state: GameState, player: int) -> float:
        """The model's log-odds that ``player``'s team wins (a finished game: +-20)."""
        outcome = state.outcome
        if outcome is not None:
            return 20.0 * outcome.returns[player]
        return self.logit_of(features(state, player, self._values(state.setup)))

    def logit_of(self, x: list[float]) -> float:
        """The log-odds of the features ``x``."""
        weights = self.weights
        total = 0.0
        for i in range(FEATURE_COUNT):
            total += weights[i] * x[i]
        bias = self.hidden_bias
        out = self.hidden_out
        for j, row in enumerate(self.hidden_in):
            z = 0.0
            for i in range(FEATURE_COUNT):
                z += row[i] * x[i]
            total += out[j] * (math.tanh(bias[j] + z) - math.tanh(bias[j] - z))
        return total

    def win_probability(self, state: GameState, player: int) -> float:
        z = self.logit(state, player)
        if z < -30.0:
            return 0.0
        return 1.0 / (1.0 + math.exp(-z))


def features(state: GameState, player: int, values: list[float]) -> list[float]:
    """The features of ``state`` for ``player`` (:data:`FEATURES`); ``values``: the
    :func:`engine.rules.agents.card_values` of the set-up."""
    setup = state.setup
    weights = team_weights(setup, player)
    attack_of = setup.attack
    facing = setup.topology.facing
    # One local per feature, in the order of FEATURES: the compiled module keeps them as
    # machine floats (a list of them boxed a new float at each addition), and adds in the same
    # order, so the same features to the last bit.
    x0 = x1 = x2 = x3 = x4 = x5 = x6 = x7 = x8 = x9 = 0.0
    x10 = x11 = x12 = x13 = x14 = x15 = x16 = x17 = x18 = x19 = 0.0
    players = state.players
    for p, pl in enumerate(players):
        w = weights[p]
        hp = float(pl.hit_points())
        bastion = 0.0 if pl.fort else 1.0
        hand_count = 0.0
        sh = 0.0
        hand_worth = 0.0
        hand_creatures = 0.0
        if isinstance(pl, HandKingdom):
            hand = pl.hand
            hand_count = float(len(hand))
            sh = float(pl.sh)
            for card in hand:
                hand_worth += values[card]
                if setup.creature[card]:
                    hand_creatures += 1.0
        creatures = 0.0
        attack = 0.0
        health = 0.0
        board = 0.0
        for line in pl.lines:
            for c in line:
                creatures += 1.0
                attack += c.attack
                health += c.hp - c.damage
                board += values[c.card] + (c.attack - attack_of[c.card]) - c.damage
        threat = 0.0
        for lane, (enemy, enemy_lane) in enumerate(facing[p]):
            if not pl.lines[lane]:
                for c in players[enemy].lines[enemy_lane]:
                    threat += c.attack
        over = threat - hp
        moving = p == state.active
        x0 += w * hp
        x1 += w * bastion
        x2 += w * bastion * hand_count
        x3 += w * hand_count
        x4 += w * sh
        x5 += w * hand_worth
        x6 += w * hand_creatures
        x7 += w * creatures
        x8 += w * attack
        x9 += w * health
        x10 += w * board
        if moving:
            x12 += w * threat
            x19 += w
        else:
            x11 += w * threat
            x13 += w * (over if over > 0.0 else 0.0)
        if threat >= hp and threat > 0.0:
            if moving:
                if bastion:
                    x17 += w
                else:
                    x16 += w
            elif bastion:
                x15 += w
            else:
                x14 += w
        champion = pl.champion
        if champion != NO_CARD and not pl.champion_exhausted:
            x18 += w
    return [
        x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15, x16, x17, x18, x19
    ]  # fmt: skip


__all__ = ["FEATURES", "FEATURE_COUNT", "Evaluator", "features"]
