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
from engine.rules import replay as replays
from engine.rules.actions import Action, to_json
from engine.rules.events import Arg
from engine.rules.game import Chooser, Game, readable
from engine.rules.kingdom import AutomatonKingdom, HandKingdom
from engine.rules.modes import AUTOMATON
from engine.rules.state import PLAYER_NAMES, GameState


@dataclass(frozen=True)
class CreatureView:
    name: str
    attack: int
    hp: int
    damage: int
    symbiote: str | None
    new: bool


@dataclass(frozen=True)
class PlayerView:
    seat: str  # "A", "B"...
    deck: int  # the batch's deck in this seat (0: deck A)
    # The hand left to right, the Stronghold at ``stronghold_at`` (cards to its left); Solo's
    # AI has no hand.
    hand: tuple[str, ...]
    stronghold_at: int
    fort: bool
    hp: int
    mana: int
    lines: tuple[tuple[CreatureView, ...], ...]  # top, bottom; from the Bridge outward
    # The Champion waiting outside the Kingdoms (Champion module), and whether it is ready.
    champion: str | None
    champion_ready: bool
    # Solo's AI: how many cards its face-down deck pile holds (None: a hand player) and its
    # discard pile, top card first.
    pile: int | None = None
    discard: tuple[str, ...] = ()


# An event of the engine's log as plain data (code, arguments: cards by card id, players by
# seat, lines by lane), which caches and pickles; the web app renders it in the page's language.
EventData = tuple[str, tuple[tuple[str, Arg], ...]]


@dataclass(frozen=True)
class Frame:
    """The position at the start of a turn (after Phase 1), then what happened in that turn."""

    turn: int
    active: int  # seat
    players: tuple[PlayerView, ...]
    actions: tuple[Any, ...]  # readable (scenario format)
    events: tuple[EventData, ...]
    # The steps within the turn: the position after each action, and how many of the turn's
    # events had happened by then.
    steps: tuple[tuple[PlayerView, ...], ...] = ()
    step_events: tuple[int, ...] = ()

    def position(self, step: int) -> tuple[PlayerView, ...]:
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
    state: GameState, choose: Callable[[GameState], Any], rotation: int = 0
) -> tuple[tuple[Frame, ...], list[Any]]:
    """The frames of a game played from ``state`` (started with its log), each action the one
    ``choose`` gives for the position (agents choosing, or a game's stored actions in order)
    until the game ends or ``choose`` gives None: one frame per turn and the final position; and
    every action as the replay names it. Solo's AI's steps are never chosen: the game object
    plays them as its seat's actions, and the frames show them one by one. ``rotation``: how a
    batch's decks sat (BatchSpec.rotation), 0 for a table."""
    log = state.log
    assert log is not None
    controllers = state.setup.controllers
    events: list[EventData] = []
    named: list[Any] = []  # every action, as the replay names it
    # What the viewer lists: the actions, and Solo's AI's steps (engine.rules.solo) in between.
    shown: list[Any] = []
    frames: list[Frame] = []
    events.extend((event.code, event.args) for event in log)
    view, turn, active = players_view(state, rotation), state.turn, state.active
    start = mark = 0  # where the current turn's actions and events begin
    steps: list[tuple[PlayerView, ...]] = []
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
        steps.append(players_view(state, rotation))
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
    frames.append(Frame(state.turn, state.active, players_view(state, rotation), (), ()))
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

    frames, named = replay_frames(state, choose, rotation)
    replay = replays.recorded(
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


def players_view(state: GameState, rotation: int) -> tuple[PlayerView, ...]:
    """Every seat of ``state`` as the board draws it; ``rotation``: how the batch's decks sat
    (BatchSpec.rotation), 0 for a position of no batch."""
    names = state.setup.names
    count = len(state.players)
    views = []
    for seat in range(count):
        pl = state.players[seat]
        lines = tuple(
            tuple(
                CreatureView(
                    names[c.card],
                    c.attack,
                    c.hp,
                    c.damage,
                    names[c.symbiote] if c.symbiote >= 0 else None,
                    c.new,
                )
                for c in line
            )
            for line in pl.lines
        )
        hand = pl.hand if isinstance(pl, HandKingdom) else []
        pile = pl if isinstance(pl, AutomatonKingdom) else None
        views.append(
            PlayerView(
                seat=PLAYER_NAMES[seat],
                deck=deck_in_seat(rotation, seat, count),
                hand=tuple(names[card] for card in hand),
                stronghold_at=pl.sh if isinstance(pl, HandKingdom) else 0,
                fort=pl.fort,
                hp=pl.hit_points(),
                mana=pl.mana,
                lines=lines,
                champion=names[pl.champion] if pl.champion >= 0 else None,
                champion_ready=pl.champion >= 0 and not pl.champion_exhausted,
                pile=len(pile.pile) if pile is not None else None,
                discard=tuple(names[card] for card in reversed(pile.discard))
                if pile is not None
                else (),
            )
        )
    return tuple(views)
