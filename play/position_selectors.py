"""A table's game as the engine plays it: its decks, Champions and options, the position replayed
from the stored actions (a Draft table's draft from its stored picks), kept per process, refused
once the engine changed; and the replay viewer's frames of its actions."""

import threading
from collections import OrderedDict
from dataclasses import dataclass

from django.utils.translation import gettext as _

from cod_site.errors import DomainError
from engine.adapters.play import Frame, replay_frames
from engine.rules import (
    AUTOMATON,
    DRAFT_PROCEDURES,
    MODES,
    SPECTATOR,
    AiOptions,
    CardDef,
    Draft,
    GameState,
    Observation,
    Options,
    apply,
    engine_digest,
    new_draft,
    new_game,
    observe,
    pick,
    table_decks,
)
from play.models import DraftPick, Game, GameAction, Seat, Status


def game_options(game: Game, *, log: bool) -> Options:
    """The engine's options of the game: the Champion module is on when a seat plays a
    Champion (`game_champions`)."""
    ai = None if game.ai is None else AiOptions.from_json(game.ai)
    champions = game_champions(game) is not None
    return Options(
        exhaustion=game.exhaustion,
        mode=game.mode,
        log=log,
        ai=ai,
        champions=champions,
        first_player=game.first_player,
    )


def game_champions(game: Game) -> list[CardDef | None] | None:
    """Each seat's Champion as the engine plays it (None: that seat has none), or None when no
    seat plays one (the module is off)."""
    seats = list(game.seats.all())
    if not any(seat.champion for seat in seats):
        return None
    return [
        None
        if seat.champion is None
        else CardDef.from_json(seat.champion, f"champion of seat {seat.index}")
        for seat in seats
    ]


def game_decks(game: Game) -> list[list[CardDef]]:
    """The decks as the engine plays them, in seat order (their Champions: `game_champions`);
    Co-op's two AI seats hold the AI's 48 cards, divided into its two piles by
    the game's seed as test games divide them (`engine.rules.game.table_decks`)."""
    decks = [
        [
            CardDef.from_json(card, f"seat {seat.index} card {i}")
            for i, card in enumerate(seat.cards)
        ]
        for seat in game.seats.all()
        if seat.cards is not None
    ]
    return [list(deck) for deck in table_decks(game.mode, decks, game.seed)]


def draft_players(game: Game) -> list[int]:
    """The seats that draft, in the procedure's order (A, B...): the players' seats, not the
    AI's (Co-op: A and C)."""
    return [
        index for index, row in enumerate(MODES[game.mode].seats) if row.controller != AUTOMATON
    ]


def draft_pool_cards(game: Game) -> list[CardDef]:
    assert game.draft_pool is not None
    return [CardDef.from_json(card, f"pool card {i}") for i, card in enumerate(game.draft_pool)]


def draft_state(game: Game) -> Draft:
    """The draft of a Draft table: the mode's procedure on the pool shuffled by the game's
    seed, with every stored pick played again (the picks were checked when made); a 409
    `engine_changed` as `game_state` says, the drafts and drafters being part of the engine."""
    _check_engine(game)
    draft = new_draft(DRAFT_PROCEDURES[game.mode], draft_pool_cards(game), game.seed)
    players = draft_players(game)
    for seat, cards in (
        DraftPick.objects.filter(game=game).order_by("index").values_list("seat", "cards")
    ):
        pick(draft, players.index(seat), cards)
    return draft


def game_actions(game: Game) -> list[tuple[int, int, int]]:
    rows = GameAction.objects.filter(game=game).order_by("index")
    return [(kind, card, arg) for kind, card, arg in rows.values_list("kind", "card", "arg")]


class PositionCache:
    """The latest positions of the games this process served, by game and action count.

    Replaying a game costs one engine action per stored action, on every request: a game of a
    hundred actions would cost a hundred times its last one. The stored actions stay the truth
    (another process, or a restart, replays them); this only skips the replay when this process
    already holds that very position. Callers get copies: the engine plays a state in place.
    """

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self.states: OrderedDict[tuple[str, int], GameState] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, game: Game) -> GameState | None:
        return self.at(game.uid, game.action_count)

    def at(self, uid: str, count: int) -> GameState | None:
        """The position of game `uid` after its first `count` actions, if this process holds it."""
        with self.lock:
            state = self.states.get((uid, count))
            if state is None:
                return None
            self.states.move_to_end((uid, count))
            return state.copy()

    def put(self, game: Game, state: GameState) -> None:
        with self.lock:
            self.states[(game.uid, game.action_count)] = state.copy()
            while len(self.states) > self.size:
                self.states.popitem(last=False)


positions = PositionCache()


def _check_engine(game: Game) -> None:
    if game.engine_digest != engine_digest():
        raise DomainError(
            "engine_changed",
            _("The rules engine changed since this game started: it cannot be resumed."),
            {"game": game.uid, "engine_digest": game.engine_digest},
            status_code=409,
        )


def game_state(game: Game) -> GameState:
    """The position after every stored action (with its event log), replayed by the engine;
    a 409 `engine_changed` if the engine is no longer the one the game was started with (its
    actions could mean something else, so the game is not replayed at all)."""
    _check_engine(game)
    cached = positions.get(game)
    if cached is not None:
        return cached
    state = _first_position(game)
    for action in game_actions(game):
        apply(state, action)
    positions.put(game, state)
    return state


def _first_position(game: Game) -> GameState:
    return new_game(game_decks(game), game.seed, game_options(game, log=True), game_champions(game))


@dataclass(frozen=True)
class TableReplay:
    frames: tuple[Frame, ...]
    names: list[str]  # the engine's card names by card id, which the frames' events name


def game_frames(game: Game) -> TableReplay:
    """The finished game turn by turn as the replay viewer shows it
    (`engine.simulation.replay_frames` of its stored actions) with its card names (read from the
    same first position: no second replay); a 404 `not_found` before it is over: the frames show
    every hand."""
    if game.status != Status.FINISHED or game.replay is None:
        raise DomainError("not_found", _("There is no such replay."), {}, status_code=404)
    _check_engine(game)
    first = _first_position(game)
    names = list(first.setup.names)
    stored = iter(game_actions(game))
    frames, _named = replay_frames(first, lambda _position: next(stored, None))
    return TableReplay(frames=frames, names=names)


# The most actions a board plays out since the page's last board: a page that stayed away
# longer lists the rest of what happened without playing it out (and its act stays fast).
PLAYBACK_ACTIONS = 24


@dataclass(frozen=True)
class TablePlayback:
    """The positions a seat's board passes through since the board its page showed: that board
    (`start`, after `begin` events of the log), then after each new action its position and how
    many events the log holds by then (`steps`)."""

    start: Observation
    begin: int
    steps: tuple[tuple[Observation, int], ...]


def table_playback(*, game: Game, seat: Seat | None, after: int) -> TablePlayback | None:
    """What `seat` (None: a spectator) saw happen on the board since its page showed the
    position after `after` actions: the replay viewer's frames (`engine.simulation.
    replay_frames`) of the new actions only, each position as the seat sees it (a card hidden
    from it stays hidden), the Solo AI's turn step by step. None: nothing new, no position,
    or more than `PLAYBACK_ACTIONS` actions to play out."""
    if not started(game) or not 0 <= after < game.action_count:
        return None
    if game.action_count - after > PLAYBACK_ACTIONS:
        return None
    _check_engine(game)
    actions = game_actions(game)
    state = positions.at(game.uid, after)
    if state is None:
        state = _first_position(game)
        for action in actions[:after]:
            apply(state, action)
    assert state.log is not None
    viewer = SPECTATOR if seat is None else seat.index
    reveal = game.status == Status.FINISHED

    def seen(position: GameState) -> Observation:
        return observe(position, viewer, reveal=reveal)

    begin = len(state.log)
    stored = iter(actions[after:])
    frames, _named = replay_frames(state, lambda _position: next(stored, None), seen=seen)
    steps: list[tuple[Observation, int]] = []
    # A frame's events start where the previous frame's end, the first one's at the log's start.
    mark = 0
    for frame in frames:
        steps.extend(
            (frame.position(step), mark + frame.step_events[step - 1])
            for step in range(1, len(frame.actions) + 1)
        )
        mark += len(frame.events)
    return TablePlayback(start=frames[0].players, begin=begin, steps=tuple(steps))


def started(game: Game) -> bool:
    """Whether the game has a position: it is played, or it ended after it began (it has a
    replay), not while it waits for a player or drafts, nor once it closed before it began."""
    return game.status == Status.PLAYING or game.replay is not None
