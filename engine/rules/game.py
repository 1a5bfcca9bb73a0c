"""A game from its set-up to its end: the one place that deals a mode's decks, plays the
computer seats and says when a game is over.

Everything that plays games calls :class:`Game`: the test batches and their replays
(``engine.simulation``), the Play tables (``play.services``), the agents' ladder and the command
line (``engine.rules.agents.play_game``), the Draft's simulated drafter. So a game ends the same
way everywhere: when a Stronghold falls (``state.outcome``), or as a draw once it runs past its
mode's turn limit (``Mode.turn_limit``, ruling A1), or past :data:`ACTION_LIMIT` actions.

Set-up (``Game.start``, over ``engine.rules.turn.new_game``): every mode takes one deck per seat;
Co-op's two automata take the AI's cards, which the game divides into their two deck piles
(:func:`table_decks`); a Draft's result becomes the decks of its mode (:func:`drafted_table`).

The automaton's steps are actions of its seat, as OpenSpiel treats its environment player:
``advance(stepwise=True)`` stops the automaton after its Phase 1 and plays the rest of its turn
as :data:`REVEAL` actions (each card of its Phase 2), then its Assault and its end of turn, each
handed to the caller like a player's action. The replay viewer shows them one by one; played
at once (``stepwise`` False, what a batch does) the same steps happen inside ``apply``
(``engine.rules.turn.start_turn``), with the same results.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final, Protocol

from engine.rules.actions import ASSAULT, END_TURN, Action, apply, to_json
from engine.rules.assault import assault
from engine.rules.cards import CardDef
from engine.rules.coop import coop_decks, drafted_decks
from engine.rules.drafts import DraftResult
from engine.rules.errors import GameOver
from engine.rules.modes import AUTOMATON, MODES
from engine.rules.solo import automaton_of, automaton_reveal, automaton_reveals_more
from engine.rules.state import OVER, SUMMONING, GameState, Options
from engine.rules.turn import end_turn, new_game

# A game still running after this many actions is a draw too: a bound on the loop, which no
# game of the corpus reaches (the repetition guards of ruling A1 keep the agents from looping).
ACTION_LIMIT: Final = 5000
# The automaton reveals a card of its deck pile onto one of its lanes: (REVEAL, card, lane).
# Only the automaton's seat plays it, through Game.advance (``apply`` takes a player's actions).
REVEAL: Final = 5
# The Draft procedure (engine.rules.drafts.PROCEDURES) that deals each mode's decks.
DRAFT_PROCEDURES: Final = {
    "duel": "duel",
    "solo": "solo",
    "free_for_all": "four_players",
    "teams": "four_players",
    "coop": "coop",
}
# The lines as the scenario format names them (the readable form of a reveal).
_LINE_NAMES: Final = ("top", "bottom")


class Chooser(Protocol):
    """A computer seat: an agent, or a game's stored actions read back in order (None: no more,
    the game stops there)."""

    def choose(self, state: GameState) -> Action | None: ...


# Called with the position, the seat that acts and its action: before it is played (to name
# it, engine.rules.actions.to_json) or after.
Step = Callable[[GameState, int, Action], None]


def table_decks(
    mode: str, decks: Sequence[Sequence[CardDef]], split_seed: int
) -> list[tuple[CardDef, ...]]:
    """The decks of a game of ``mode`` by seat from the decks its seats entered: Co-op's
    automata (B and D) both enter the AI's cards, which ``split_seed`` divides into their two
    deck piles (engine.rules.coop); the other modes' seats play what they entered."""
    if mode == "coop" and len(decks) == len(MODES["coop"].seats):
        first, ai, second = decks[:3]
        return [tuple(deck) for deck in coop_decks(first, second, ai, split_seed)]
    return [tuple(deck) for deck in decks]


def drafted_table(mode: str, drafted: DraftResult, split_seed: int) -> list[tuple[CardDef, ...]]:
    """The decks of a game of ``mode`` by seat from its finished Draft: Solo's player and the
    24 cards the AI was given; Co-op's players at A and C and the AI's 48 cards divided between
    B and D; the other modes' drafted decks."""
    if mode == "solo":
        return [drafted.decks[0], drafted.ai_pile]
    if mode == "coop":
        return [tuple(deck) for deck in drafted_decks(drafted, split_seed)]
    return list(drafted.decks)


class Game:
    """One game: its position (``state``, played on in place) and when it ends."""

    def __init__(self, state: GameState, turn_limit: int | None = None) -> None:
        self.state = state
        # A shorter limit is an agent's budget for the games it plays in its head (the
        # simulated drafter's), not a rule: a game at the table always has its mode's.
        self.turn_limit = state.setup.mode.turn_limit if turn_limit is None else turn_limit

    @classmethod
    def start(
        cls,
        decks: Sequence[Sequence[CardDef]],
        seed: object,
        options: Options | None = None,
        champions: Sequence[CardDef | None] | None = None,
        turn_limit: int | None = None,
    ) -> Game:
        """A game of ``options.mode`` set up (``new_game``: one deck per seat, as
        :func:`table_decks` and :func:`drafted_table` give them), waiting for its first player."""
        return cls(new_game(decks, seed, options, champions), turn_limit)

    @property
    def over(self) -> bool:
        """Whether the game has ended: won and lost, or past its turn limit (a draw)."""
        state = self.state
        return state.phase == OVER or state.turn > self.turn_limit

    def advance(
        self,
        seats: Sequence[Chooser | None],
        *,
        action_limit: int = ACTION_LIMIT,
        stepwise: bool = False,
        before: Step | None = None,
        after: Step | None = None,
    ) -> int:
        """Let the computer seats play until a person must act (a seat of ``seats`` that is
        None, or a chooser that gives None) or the game ends; the number of actions chosen.

        ``action_limit``: the most actions to choose (the game's, when it starts at its first
        action). ``stepwise``: the automaton's turns as actions of its seat (module docstring),
        each handed to ``before`` and ``after`` as a player's action is.
        """
        state = self.state
        limit = self.turn_limit
        chosen = 0
        while state.outcome is None and state.turn <= limit and chosen < action_limit:
            seat = state.active
            chooser = seats[seat]
            if chooser is None:
                break
            action = chooser.choose(state)
            if action is None:
                break
            chosen += 1
            if stepwise and action[0] == END_TURN and _automaton_next(state):
                self._automaton_turn(seat, before, after)
                continue
            if before is not None:
                before(state, seat, action)
            apply(state, action)
            if after is not None:
                after(state, seat, action)
        return chosen

    def _automaton_turn(self, seat: int, before: Step | None, after: Step | None) -> None:
        """The player's end of turn as ``apply`` plays it, except that the automaton's turn
        that follows stops after its Phase 1; then that turn's actions one at a time."""
        state = self.state
        action: Action = (END_TURN, -1, -1)
        if before is not None:
            before(state, seat, action)
        try:
            if state.phase == SUMMONING:
                assault(state)
            end_turn(state, phase_2=False)
        except GameOver:
            pass
        if after is not None:
            after(state, seat, action)
        if state.outcome is not None:
            return
        ai = state.active
        reveals = value = 0
        revealing = True
        done = False
        while not done:
            # Its Phase 2 (engine.rules.solo.automaton_phase_2, a reveal at a time), Phase 3,
            # the end of its turn.
            revealing = revealing and automaton_reveals_more(state, ai, reveals, value)
            if revealing:
                lane = reveals % state.setup.topology.lanes
                action = (REVEAL, automaton_of(state, ai).pile[-1], lane)
            elif state.phase == SUMMONING:
                action = (ASSAULT, -1, -1)
            else:
                action = (END_TURN, -1, -1)
            if before is not None:
                before(state, ai, action)
            try:
                if action[0] == REVEAL:
                    value += automaton_reveal(state, ai, reveals)
                    reveals += 1
                elif action[0] == ASSAULT:
                    assault(state)
                else:
                    done = True
                    end_turn(state)
            except GameOver:
                done = True  # the action that ended the game is its last one
            if after is not None:
                after(state, ai, action)


def _automaton_next(state: GameState) -> bool:
    setup = state.setup
    return setup.controllers[setup.next_seat[state.active]] == AUTOMATON


def readable(state: GameState, action: Action) -> Any:
    """The scenario-format form of ``action`` in ``state`` before it is played: a player's
    (engine.rules.actions.to_json), or the automaton's reveal (``{"reveal": card, "line":
    "top"|"bottom"}``)."""
    if action[0] == REVEAL:
        return {"reveal": state.setup.names[action[1]], "line": _LINE_NAMES[action[2]]}
    return to_json(state, action)


__all__ = [
    "ACTION_LIMIT",
    "DRAFT_PROCEDURES",
    "REVEAL",
    "Chooser",
    "Game",
    "drafted_table",
    "readable",
    "table_decks",
]
