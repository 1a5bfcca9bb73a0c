"""Computer players: they drive the same interface as a person, ``legal_actions`` then ``apply``.

- ``random``: a uniformly random legal action (its own RNG, never the game's).
- ``greedy``: a one-step heuristic, no search; deterministic and fast. It reads only what its
  seat may know: its deck's cards as a whole (announcing a CALL's clans by their numbers), never
  the order of a deck or the other player's hand.
- ``search``: flat Monte Carlo: each distinct legal action is followed by greedy play to the end of
  the turn in several *determinized* copies (the hidden cards, the other's hand and deck, its own
  deck and the Domain pile, shuffled anew), the action with the best average :func:`evaluate`
  wins. It does not see hidden cards either.

The race is won by emptying one's deck in a Combo: :func:`card_worth` estimates how many cards a
card's play effect takes out of its owner's deck (draws, a CALL's chance to hit, cards discarded
or sacrificed from the deck), and :func:`evaluate` compares how far each player's next Combo is
expected to reach with how many cards they own.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from engine.chaos.actions import (
    ANNOUNCE_CLANS,
    CHOOSE,
    NO_ACTION,
    PICK_CARD,
    PLAY,
    PLAY_PASS,
    REACTION,
    RECRUIT,
    USE,
    YES_ACTION,
    Action,
    apply,
    legal_actions,
)
from engine.chaos.cards import Box, ChaosCardDef
from engine.chaos.effects import (
    CALL,
    CLANS,
    DECK,
    DISCARD,
    DRAW,
    HAND,
    PLAN,
    SACRIFICE,
    SACRIFICE_THIS,
    Act,
    Choose,
    If,
    May,
    Node,
    Seq,
    Then,
    walk,
)
from engine.chaos.modes import HAND_SIZE
from engine.chaos.state import COMBO, MAIN, OVER, PICK, YES_NO, ChaosState, Options
from engine.chaos.turn import new_game


class Agent(Protocol):
    name: str

    def choose(self, state: ChaosState) -> Action: ...


class RandomAgent:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: ChaosState) -> Action:
        return self.rng.choice(legal_actions(state))


# ---- what a card is worth ------------------------------------------------------------------------

# A sacrificed card leaves its owner's game for good: worth more than one turn's draw.
_THINNING: Final = 0.6


def effect_worth(node: Node | None) -> float:
    """Cards an effect is expected to take out of its owner's deck this turn, plus thinning."""
    if node is None:
        return 0.0
    if isinstance(node, Act):
        if node.opponent:
            return 0.3 if node.verb == DISCARD and node.zone == HAND else 0.0
        if node.verb == DRAW:
            return float(node.amount)
        if node.verb in (DISCARD, SACRIFICE) and node.zone == DECK:
            return node.amount * (1.0 + (_THINNING if node.verb == SACRIFICE else 0.0))
        if node.verb == SACRIFICE:  # a card of the hand (or the play zone) thinned out
            return node.amount * (_THINNING + 0.2)
        if node.verb == DISCARD:
            return -0.5 * node.amount
        if node.verb == SACRIFICE_THIS:
            return _THINNING - 0.2
        if node.verb == PLAN:
            return 0.15 * node.amount
        if node.verb == CALL:
            return min(node.amount, len(CLANS)) / len(CLANS) * 0.9
        return 0.2
    if isinstance(node, Seq):
        return sum(effect_worth(step) for step in node.steps)
    if isinstance(node, Then):
        return effect_worth(node.first) + 0.8 * effect_worth(node.rest)
    if isinstance(node, May):
        return max(0.0, effect_worth(node.body))
    if isinstance(node, If):
        return 0.5 * effect_worth(node.body)
    assert isinstance(node, Choose)
    return max(effect_worth(option) for option in node.options)


def card_worth(card: ChaosCardDef) -> float:
    """How much a card in one's deck helps (its play effect, and a reaction at half weight)."""
    return effect_worth(card.play) + 0.5 * effect_worth(card.reaction)


def _worths(state: ChaosState) -> list[float]:
    return [card_worth(card) for card in state.setup.cards]


def reach(state: ChaosState, seat: int, worths: Sequence[float], extra: int = -1) -> float:
    """How many cards the seat's next Combo is expected to see, minus the cards it owns (with
    card ``extra`` too, if given): a Combo drawing through every owned card empties the deck
    (rule verification)."""
    player = state.players[seat]
    owned = player.deck + player.hand + player.played + player.recruited + player.discard
    if extra >= 0:
        owned.append(extra)
    if not owned:
        return 100.0
    mean = sum(worths[card] for card in owned) / len(owned)
    seen = HAND_SIZE / (1.0 - min(mean, 0.92))
    return seen - len(owned)


def evaluate(state: ChaosState, seat: int, worths: Sequence[float] | None = None) -> float:
    """The position for ``seat``: +100 won, -100 lost, else its reach minus the other's."""
    if state.phase == OVER:
        if state.winner is None:
            return 0.0
        return 100.0 if state.winner == seat else -100.0
    values = _worths(state) if worths is None else worths
    mine = reach(state, seat, values)
    other = state.other(seat)
    return mine if other < 0 else mine - reach(state, other, values)


# ---- greedy --------------------------------------------------------------------------------


class GreedyAgent:
    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self._setup: object = None
        self._worths: list[float] = []

    def worths(self, state: ChaosState) -> list[float]:
        if self._setup is not state.setup:
            self._setup = state.setup
            self._worths = _worths(state)
        return self._worths

    def choose(self, state: ChaosState) -> Action:
        actions = legal_actions(state)
        if len(actions) == 1:
            return actions[0]
        worths = self.worths(state)
        decision = state.decision
        assert decision is not None
        if decision.kind == MAIN:
            return self._main(state, actions, worths)
        if decision.kind == YES_NO:
            return self._yes_no(state, decision.reason, worths)
        if decision.kind == PICK:
            cards = [card for _, card in actions]
            if decision.reason in ("plan_order", "recruit"):
                best = max(cards, key=lambda card: worths[card])
            elif decision.reason == "cover":
                best = min(cards, key=lambda card: worths[card])
            else:  # discarding or sacrificing: the weakest card, or one that reacts to it
                best = min(cards, key=lambda card: self._loss(state, card, decision.reason))
            return (PICK_CARD, best)
        if actions[0][0] == CHOOSE:
            node = state.setup.play[decision.source] if decision.source >= 0 else None
            if isinstance(node, Choose):
                return max(actions, key=lambda a: effect_worth(node.options[a[1]]))
            return actions[0]
        if actions[0][0] == ANNOUNCE_CLANS:
            return max(actions, key=lambda a: self._clan_share(state, decision.seat, a[1]))
        return actions[0]  # REACTION: the order of simultaneous reactions

    def _loss(self, state: ChaosState, card: int, reason: str) -> float:
        """What losing ``card`` this way costs: its worth, less a reaction it would trigger."""
        setup = state.setup
        worth = self._worths[card]
        condition = "discarded" if reason.startswith("discard") else "sacrificed"
        may_react = state.owner[card] == state.active or setup.reaction_opponent[card]
        if setup.reaction_on[card] == condition and may_react:
            worth -= 1.5 * effect_worth(setup.reaction[card])
        return worth

    def _clan_share(self, state: ChaosState, seat: int, mask: int) -> int:
        clan = state.setup.clan
        return sum(1 for card in state.players[seat].deck if clan[card] & mask)

    def _yes_no(self, state: ChaosState, reason: str, worths: list[float]) -> Action:
        if reason == "awaken_plan":
            top = state.players[state.active].deck[0]
            return YES_ACTION if worths[top] < 1.0 else NO_ACTION
        if reason == "awaken_call":
            frame = state.frames[-1]
            return YES_ACTION if frame.cards and worths[frame.cards[0]] < 1.0 else NO_ACTION
        return YES_ACTION  # may, react

    def _main(self, state: ChaosState, actions: list[Action], worths: list[float]) -> Action:
        kinds = {kind for kind, _ in actions}
        if USE in kinds:
            return next(action for action in actions if action[0] == USE)
        if PLAY in kinds or PLAY_PASS in kinds:
            play = state.setup.play

            # PLAN first (it orders what the draws then take), then the strongest effect.
            def rank(action: Action) -> tuple[int, float]:
                card = action[1]
                node = play[card]
                plans = any(act.verb == PLAN for act in walk(node))
                return (int(plans), worths[card] + (0.01 if action[0] == PLAY else 0.0))

            return max(actions, key=rank)
        if RECRUIT in kinds:
            # The best card, if it replaces itself when played or improves the deck's average.
            player = state.players[state.active]
            owned = player.deck + player.hand + player.played + player.recruited + player.discard
            mean = sum(worths[card] for card in owned) / max(len(owned), 1)
            best = max(
                (a for a in actions if a[0] == RECRUIT),
                key=lambda a: (worths[a[1]], -state.setup.cost[a[1]]),
            )
            if worths[best[1]] >= 1.0 or worths[best[1]] > mean:
                return best
        return actions[-1]  # end the Combo, or the turn


# ---- search --------------------------------------------------------------------------------


_ROLLOUT_STEPS: Final = 400


class SearchAgent:
    """Flat Monte Carlo over determinized copies of the Combo: each distinct action, then greedy
    play to the end of the Combo, scored by :func:`combo_score`. The Recruitment and the
    decisions in the other player's turn are greedy's (their worth shows turns later, beyond what
    a rollout of one Combo measures)."""

    name = "search"

    def __init__(self, seed: int = 0, rollouts: int = 8) -> None:
        self.rng = random.Random(seed)
        self.rollouts = rollouts
        self.greedy = GreedyAgent()

    def choose(self, state: ChaosState) -> Action:
        seat = state.to_move
        if state.phase != COMBO or seat != state.active:
            return self.greedy.choose(state)
        actions = _distinct(state, legal_actions(state))
        if len(actions) == 1:
            return actions[0]
        best = actions[0]
        best_score = float("-inf")
        for action in actions:
            total = 0.0
            for _ in range(self.rollouts):
                copy = state.copy()
                _determinize(copy, seat, self.rng)
                apply(copy, action)
                total += self._rollout(copy, seat)
            if total > best_score:
                best, best_score = action, total
        return best

    def _rollout(self, state: ChaosState, seat: int) -> float:
        turn = state.turn
        for _ in range(_ROLLOUT_STEPS):
            if state.phase != COMBO or state.turn != turn:
                break
            apply(state, self.greedy.choose(state))
        return combo_score(state, seat)


def combo_score(state: ChaosState, seat: int) -> float:
    """A Combo's result for ``seat``: a win, else few cards left in the deck, few cards owned
    (sacrificed ones are out for good) and many resources to recruit with."""
    if state.phase == OVER:
        return 0.0 if state.winner is None else (100.0 if state.winner == seat else -100.0)
    player = state.players[seat]
    return -len(player.deck) - 0.25 * player.owned() + 0.3 * player.resources()


def _distinct(state: ChaosState, actions: list[Action]) -> list[Action]:
    """One action per kind and card definition (copies of a card are alike where they are)."""
    cards = state.setup.cards
    seen: set[tuple[int, int]] = set()
    kept = []
    for kind, value in actions:
        card_kinds = (PLAY, PLAY_PASS, USE, RECRUIT, PICK_CARD, REACTION)
        key = (kind, id(cards[value])) if kind in card_kinds and value >= 0 else (kind, value)
        if key not in seen:
            seen.add(key)
            kept.append((kind, value))
    return kept


def _determinize(state: ChaosState, seat: int, rng: random.Random) -> None:
    """Shuffle what ``seat`` cannot see: its own deck's order, the other's hand and deck
    together (the hand keeps its size), the Domain pile (its Interventions stay where they are)."""
    state.rng = random.Random(rng.random())
    own = state.players[seat]
    rng.shuffle(own.deck)
    other = state.other(seat)
    if other >= 0:
        player = state.players[other]
        hidden = player.hand + player.deck
        rng.shuffle(hidden)
        player.hand = hidden[: len(player.hand)]
        player.deck = hidden[len(player.hand) :]
    cards = state.setup.cards
    movable = [i for i, card in enumerate(state.pile) if cards[card].type != "intervention"]
    shuffled = [state.pile[i] for i in movable]
    rng.shuffle(shuffled)
    for i, card in zip(movable, shuffled, strict=True):
        state.pile[i] = card


AgentFactory = Callable[[int], Agent]
AGENTS: Final[dict[str, AgentFactory]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "search": SearchAgent,
}


@dataclass(frozen=True)
class GameResult:
    returns: tuple[int, ...]
    turns: int
    actions: int
    winner: int | None


def play_game(
    box: Box, seed: int, agents: Sequence[Agent], options: Options | None = None
) -> GameResult:
    """One game of ``box`` from ``seed``, each seat played by its agent."""
    state = new_game(box, seed, options)
    count = 0
    while state.phase != OVER:
        apply(state, agents[state.to_move].choose(state))
        count += 1
    return GameResult(state.returns(), state.turn, count, state.winner)
