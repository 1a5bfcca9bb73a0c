"""A batch's game played again to be watched: the position at each step, the events, the
actions as the replay names them.

The game object (``engine.rules.game``) plays the game step by step: the automaton's turns too,
as actions of its seat, so the viewer shows each card it reveals; the replay stored with the game
keeps the choices only (the automaton's follow from them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.batches.seeding import DECK_LETTERS, BatchSpec, deck_in_seat, deck_seats, derived_seed
from engine.batches.totals import GameOutcome, game_outcome
from engine.rules import (
    AUTOMATON,
    PLAYER_NAMES,
    SPECTATOR,
    Action,
    Arg,
    Chooser,
    Game,
    GameState,
    Observation,
    observe,
    readable,
    recorded,
    to_json,
)

# An event of the engine's log as plain data (code, arguments: cards by card id, players by
# seat, lines by lane), which caches and pickles; the web app renders it in the page's language.
EventData = tuple[str, tuple[tuple[str, Arg], ...]]


@dataclass(frozen=True)
class Frame:
    """The position at the start of a turn (after Phase 1), then what happened in that turn."""

    turn: int
    active: int  # seat
    players: Observation  # every hand shown (engine.rules.observation)
    actions: tuple[Any, ...]  # readable (scenario format)
    events: tuple[EventData, ...]
    # The steps within the turn: the position after each action, and how many of the turn's
    # events had happened by then.
    steps: tuple[Observation, ...] = ()
    step_events: tuple[int, ...] = ()

    def position(self, step: int) -> Observation:
        """The seats at ``step``: 0 the start of the turn, k just after its k-th action."""
        return self.steps[step - 1] if step else self.players

    def events_of(self, step: int) -> tuple[EventData, ...]:
        """Step 0: the whole turn's events; a later step: those its own action caused."""
        if not step:
            return self.events
        begin = self.step_events[step - 2] if step > 1 else 0
        return self.events[begin : self.step_events[step - 1]]


@dataclass(frozen=True)
class ReplayedGame:
    outcome: GameOutcome
    replay: dict[str, Any]  # the engine's replay JSON
    frames: tuple[Frame, ...]  # the last one is the final position (no actions)
    seat_agents: tuple[str, ...]  # the AI of each seat
    names: tuple[str, ...]  # the engine's card names by card id (English), for the events
    rotation: int  # how far the decks had rotated (BatchSpec.rotation: Solo and Co-op never)

    @property
    def index(self) -> int:
        return self.outcome.index

    @property
    def deck_seats(self) -> tuple[str, ...]:
        """The seat each deck sat in, in deck order."""
        return tuple(
            PLAYER_NAMES[seat] for seat in deck_seats(self.rotation, len(self.outcome.returns))
        )

    @property
    def seat_decks(self) -> tuple[int, ...]:
        """The deck in each seat (0: deck A), in seat order."""
        count = len(self.outcome.returns)
        return tuple(deck_in_seat(self.rotation, seat, count) for seat in range(count))

    @property
    def first(self) -> str:
        return DECK_LETTERS[self.outcome.first]

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(DECK_LETTERS[deck] for deck in self.outcome.winners)

    @property
    def agents(self) -> dict[str, str]:
        return {PLAYER_NAMES[seat]: agent for seat, agent in enumerate(self.seat_agents)}


class _Choices:
    """A seat whose actions ``choose`` gives (agents choosing, or a game's stored actions)."""

    def __init__(self, choose: Callable[[GameState], Any]) -> None:
        self._choose = choose

    def choose(self, state: GameState) -> Action | None:
        action: Action | None = self._choose(state)
        return action


def replay_frames(
    state: GameState,
    choose: Callable[[GameState], Any],
    *,
    seen: Callable[[GameState], Observation] | None = None,
) -> tuple[tuple[Frame, ...], list[Any]]:
    """The frames of a game played from ``state`` (started with its log), each action the one
    ``choose`` gives for the position (agents choosing, or a game's stored actions in order)
    until the game ends or ``choose`` gives None: one frame per turn and the final position; and
    every action as the replay names it. Solo's AI's steps are never chosen: the game object
    plays them as its seat's actions, and the frames show them one by one. ``seen``: how a
    frame sees a position (default every hand, `players_view`; a table's seat sees its own)."""
    observed = players_view if seen is None else seen
    log = state.log
    assert log is not None
    controllers = state.setup.controllers
    events: list[EventData] = []
    named: list[Any] = []  # every action, as the replay names it
    # What the viewer lists: the actions, and Solo's AI's steps (engine.rules.solo) in between.
    shown: list[Any] = []
    frames: list[Frame] = []
    events.extend((event.code, event.args) for event in log)
    view, turn, active = observed(state), state.turn, state.active
    start = mark = 0  # where the current turn's actions and events begin
    steps: list[Observation] = []
    step_events: list[int] = []

    def close_turn() -> Frame:
        return Frame(
            turn,
            active,
            view,
            tuple(shown[start:]),
            tuple(events[mark:]),
            tuple(steps),
            tuple(step_events),
        )

    def name(position: GameState, seat: int, action: Action) -> None:
        if controllers[seat] == AUTOMATON:
            shown.append(readable(position, action))
        else:
            named.append(to_json(position, action))
            shown.append(named[-1])

    def step(position: GameState, seat: int, action: Action) -> None:
        nonlocal view, turn, active, start, mark, steps, step_events
        events.extend((event.code, event.args) for event in log[len(events) :])
        steps.append(observed(state))
        step_events.append(len(events) - mark)
        if state.turn != turn or state.outcome is not None:
            frames.append(close_turn())
            view, turn, active = steps[-1], state.turn, state.active
            start, mark = len(shown), len(events)
            steps, step_events = [], []

    seats: Sequence[Chooser] = [_Choices(choose)] * len(state.players)
    Game(state).advance(seats, stepwise=True, before=name, after=step)
    if len(shown) > start:
        frames.append(close_turn())
    frames.append(Frame(state.turn, state.active, observed(state), (), ()))
    return tuple(frames), named


def replay_game(spec: BatchSpec, index: int) -> ReplayedGame:
    """Game ``index`` played again from its seeds, with its replay and one frame per turn."""
    state = spec.game(index, log=True, stats=True).state
    agents = spec.agents_for(index)
    rotation = spec.rotation(index)

    def choose(position: GameState) -> Action:
        # Solo's automaton plays as its seat's actions: its seat never has a choice to make.
        agent = agents[position.active]
        assert agent is not None, "the automaton was asked to choose"
        return agent.choose(position)

    frames, named = replay_frames(state, choose)
    replay = recorded(
        spec.seating(index),
        derived_seed(spec.seed, index),
        spec.options,
        named,
        state,
        spec.seat_champions(index),
    )
    count = spec.entrants
    seat_agents = tuple(spec.agents[deck_in_seat(rotation, seat, count)] for seat in range(count))
    return ReplayedGame(
        game_outcome(state, index, rotation),
        replay.to_json(),
        frames,
        seat_agents,
        state.setup.names,
        rotation,
    )


def players_view(state: GameState) -> Observation:
    """Every seat of ``state`` as a replay shows it: every hand face up."""
    return observe(state, SPECTATOR, all_hands=True)
