"""Writes of a table in play: start it once its seats are taken, act, pick at a Draft table,
concede, lose on time (setting a table up and taking its seats: `play.table_services`).

Computer seats answer inside the request that gave them the turn (an agent's move takes
milliseconds for random and greedy; the searches think within a node budget, `PLAY_LOOKAHEAD_NODES`
and `PLAY_STRONG_NODES`), so a table needs no worker process; the actions they play are stored
like everyone's. Every write locks
the game row: two requests of one game apply their actions one after the other.
"""

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cod_site.broadcast import publish
from cod_site.errors import DomainError
from engine.adapters.play import ResolvedDeck, coop_ai_deck_resolve
from engine.display.event_text import refusal_text
from engine.rules import (
    MODES,
    SEAT_ARGS,
    Action,
    Draft,
    GameState,
    GreedyAgent,
    IllegalAction,
    InputError,
    LookaheadAgent,
    PriceDrafter,
    RandomAgent,
    StrongAgent,
    action_from_json,
    apply,
    pending,
    pick,
    record,
)
from engine.rules import Agent as EngineAgent
from engine.rules import Game as EngineGame
from play.models import (
    Agent,
    DraftPick,
    Format,
    Game,
    GameAction,
    Mode,
    Seat,
    SeatKind,
    Status,
    TurnTime,
)
from play.position_selectors import (
    draft_players,
    draft_state,
    game_actions,
    game_champions,
    game_decks,
    game_options,
    game_state,
    positions,
)
from play.seeds import derived_seed
from play.selectors import index_letter, turn_deadline, with_seats
from play.view_selectors import draft_seen, seen_cards


def table_agent(name: str, seed: int) -> EngineAgent:
    """The computer player `name` of a table. The searches think within a budget of nodes, not
    of time: the same position and seed choose the same action on any machine, however loaded.
    The budgets keep an action far inside the second a computer seat has (bench/play_bench.py
    prints the ms per decision at these settings)."""
    if name == Agent.RANDOM:
        return RandomAgent(seed)
    if name == Agent.LOOKAHEAD:
        return LookaheadAgent(seed, nodes=settings.PLAY_LOOKAHEAD_NODES)
    if name == Agent.STRONG:
        return StrongAgent(seed, nodes=settings.PLAY_STRONG_NODES)
    return GreedyAgent()


def game_start_when_seated(*, game: Game) -> None:
    """Start the game once every player's seat has its deck (a Draft table: its draft once
    every seat is taken); Co-op's AI then gets its cards, those of the players' expansions that
    neither deck holds (`coop_ai_deck_resolve`): both AI seats keep the 48 cards, which
    `play.position_selectors.game_decks` divides into the two piles."""
    seats = list(game.seats.all())
    players = [seat for seat in seats if seat.kind != SeatKind.AUTOMATON]
    if game.format == Format.DRAFT:
        if all(seat.taken for seat in players):
            game.status = Status.DRAFTING
            _draft_on(game, draft_state(game))
        return
    # A rematch's seat kept for a person has its deck already: the game waits for them.
    if any(seat.cards is None or not seat.taken for seat in players):
        return
    if game.mode == Mode.COOP:
        decks = [
            ResolvedDeck(
                source="", deck=None, code="", name="", cards=[], slugs=seat.slugs, champion=None
            )
            for seat in players
        ]
        ai = coop_ai_deck_resolve(players=decks, seed=game.seed)
        ai_seats = [seat for seat in seats if seat.kind == SeatKind.AUTOMATON]
        for seat in ai_seats:
            seat.deck_name, seat.cards, seat.slugs = ai.name, ai.cards, ai.slugs
        Seat.objects.bulk_update(ai_seats, ["deck_name", "cards", "slugs"])
    _start(game)


def _start(game: Game) -> None:
    game.status = Status.PLAYING
    state = game_state(game)
    _save_position(game, state, _play_agents(game, state, 0))


class _AgentsCall:
    """The computer seats' moves of one call: the index of the next action stored, and each
    move stored as it is played."""

    def __init__(self, game: Game, index: int) -> None:
        self.game = game
        self.index = index

    def store(self, state: GameState, seat: int, action: Action) -> None:
        _store(self.game, seat, f"agent-{self.index}", action, self.index)
        self.index += 1


class _TableSeat:
    """A computer seat for one call. Its agent is made when the seat first plays in the call,
    seeded by the index of that move (the same table and actions pick the same moves again).
    The call plays the seat's turn to its end, so the agent's repetition guard (ruling A1) sees
    the whole turn: a fresh agent per move could cast a 0-Mana Incantation that returns to the
    hand forever."""

    def __init__(self, call: _AgentsCall, agent: str) -> None:
        self.call = call
        self.name = agent
        self.agent: EngineAgent | None = None

    def choose(self, state: GameState) -> Action:
        if self.agent is None:
            seed = derived_seed(self.call.game.seed, "agent", self.call.index)
            self.agent = table_agent(self.name, seed)
        return self.agent.choose(state)


def _play_agents(game: Game, state: GameState, index: int) -> int:
    """Let the computer seats play while they have the turn (the engine's game object, as
    every game is played: a person's seat stops it); the next action index."""
    call = _AgentsCall(game, index)
    seats = [
        _TableSeat(call, seat.agent) if seat.kind == SeatKind.AGENT else None
        for seat in sorted(game.seats.all(), key=lambda seat: seat.index)
    ]
    EngineGame(state).advance(seats, after=call.store)
    return call.index


def _store(game: Game, seat: int, client_id: str, action: tuple[int, int, int], index: int) -> None:
    kind, card, arg = action
    GameAction.objects.create(
        game=game, index=index, seat=seat, client_id=client_id, kind=kind, card=card, arg=arg
    )


def _save_position(game: Game, state: GameState, action_count: int) -> None:
    if (state.turn, state.active) != (game.turn, game.active_seat) or game.turn_started_at is None:
        # A new turn: the clock of the seat to play starts (computer seats have answered).
        game.turn_started_at = timezone.now()
    game.action_count = action_count
    game.turn = state.turn
    game.active_seat = state.active
    if EngineGame(state).over:
        _finish(game, list(state.outcome.winners()) if state.outcome else [])
    game.save()
    # The position is known: the next request of this game need not replay it.
    transaction.on_commit(lambda: positions.put(game, state))
    _announce(game)


def _announce(game: Game) -> None:
    """Once committed, the table's live streams in every process hear of its new counts and
    status (`play.streams`)."""
    message = {
        "action_count": game.action_count,
        "pick_count": game.pick_count,
        "status": game.status,
    }
    transaction.on_commit(lambda: publish(game.uid, message))


def _finish(game: Game, winners: list[int]) -> None:
    """The game is over: its winners (none: a draw) and, if it began, its engine replay."""
    started = game.status == Status.PLAYING
    game.status = Status.FINISHED
    game.active_seat = None
    game.winners = winners
    if not started:
        return
    replay = record(
        game_decks(game),
        game.seed,
        game_options(game, log=False),
        game_actions(game),
        game_champions(game),
    )
    game.replay = replay.to_json()


def _locked(game: Game, seat: Seat) -> tuple[Game, Seat]:
    """`game` (read with its seats by `play.selectors.game_get`) with its row locked until the
    transaction ends, and `seat` of it, as they are now. In play, a game's seats no longer
    change but with a concede, and every write of a game in play saves its row, which moves
    `updated_at`, under this lock: a game read in play whose row is still at the time it was
    read is current, seats included (on every action, a round trip to the database saved for
    the seats and one for their accounts)."""
    locked = Game.objects.select_for_update().only("updated_at").get(pk=game.pk)
    if game.status == Status.PLAYING and locked.updated_at == game.updated_at:
        return game, seat
    game = with_seats(Game.objects.select_for_update()).get(pk=game.pk)
    return game, next(other for other in game.seats.all() if other.pk == seat.pk)


def game_act(*, game: Game, seat: Seat, client_id: str, kind: str, card: int, arg: int) -> Game:
    """Play one action for `seat`, then let the computer seats answer. The same `client_id`
    twice from a seat plays once (the second call changes nothing). A seat to play whose time
    ran out loses on time first (`game_timeout_claim`). 409 `not_started`, `game_over`,
    `not_your_turn`; 400 `illegal_action` (`details.rule_id`: the rule it breaks, `refusal`:
    the engine's refusal code) or `invalid_action`."""
    now = timezone.now()
    deadline = turn_deadline(game)
    if deadline is not None and deadline <= now:
        # Checked again under the lock: `game` may be older than its row, whose deadline can
        # only be later (a turn that began since), never earlier. Untimed and in-time games
        # take no extra round trip.
        game = _time_out(game, now)
    with transaction.atomic():
        game, seat = _locked(game, seat)
        if GameAction.objects.filter(game=game, seat=seat.index, client_id=client_id).exists():
            return game
        if game.status in (Status.WAITING, Status.DRAFTING):
            raise DomainError(
                "not_started", _("The game has not started yet."), {}, status_code=409
            )
        if game.status == Status.FINISHED:
            raise DomainError("game_over", _("The game is over."), {}, status_code=409)
        state = game_state(game)
        if state.active != seat.index:
            raise DomainError(
                "not_your_turn",
                _("It is not your turn."),
                {"active": index_letter(state.active)},
                status_code=409,
            )
        try:
            action = action_from_json(kind, card, arg)
            apply(state, action)
        except KeyError:
            raise DomainError(
                "invalid_action", _("Unknown kind of action."), {"kind": kind}
            ) from None
        except IllegalAction as error:
            wording = _("Illegal action: %(reason)s")
            seen = seen_cards(state, seat.index)
            raise _refused("illegal_action", wording, error, seen, {}) from error
        except InputError as error:
            # Not the engine's English text: it would show the action as the engine read it.
            raise DomainError(
                "invalid_action", _("The rules engine cannot read this action."), {}
            ) from error
        index = game.action_count
        # No savepoint for a duplicate: under the game's lock the check above saw every action
        # stored before, the same client id's included.
        _store(game, seat.index, client_id, action, index)
        _save_position(game, state, _play_agents(game, state, index + 1))
    return game


def _refused(
    code: str, wording: str, error: IllegalAction, seen: Mapping[int, str], details: dict[str, Any]
) -> DomainError:
    """The engine's refusal `error` as the seat that asked may read it: its message in the
    current language (`wording` of `%(reason)s`), a card named only if it is among the cards
    the seat may see (`seen`, by id), any other by the id it asked with, as a card that does not
    exist (`engine.display.event_text.refusal_text`); `details` the refusal's code, rule and
    arguments (cards by id, seats by letter)."""
    reason = refusal_text(error.code, error.arguments, seen)
    arguments = {
        key: index_letter(value) if key in SEAT_ARGS and type(value) is int else value
        for key, value in error.arguments
    }
    details = {**details, "refusal": error.code, "rule_id": error.rule_id, **arguments}
    return DomainError(code, wording % {"reason": reason}, details)


def _draft_on(game: Game, draft: Draft) -> None:
    """Let the computer seats pick while the draft waits for them (the engine's price drafter,
    seeded by the pick: a replay of the table picks the same); once every seat has its cards,
    the seats get the drafted decks and the game starts, else the seat to pick is the active
    one."""
    players = draft_players(game)
    seats = {seat.index: seat for seat in game.seats.all()}
    waiting = pending(draft)
    while waiting is not None and seats[players[waiting.seat]].kind == SeatKind.AGENT:
        drafter = PriceDrafter(derived_seed(game.seed, "drafter", game.pick_count))
        cards = drafter.choose(draft, waiting)
        pick(draft, waiting.seat, cards)
        _store_pick(game, players[waiting.seat], f"agent-{game.pick_count}", cards)
        waiting = pending(draft)
    if waiting is not None:
        game.active_seat = players[waiting.seat]
        game.save()
        _announce(game)
        return
    _deal_drafted(game, draft, players, seats)
    _start(game)


def _store_pick(game: Game, seat: int, client_id: str, cards: list[int]) -> None:
    DraftPick.objects.create(
        game=game, index=game.pick_count, seat=seat, client_id=client_id, cards=cards
    )
    game.pick_count += 1


def _deal_drafted(game: Game, draft: Draft, players: list[int], seats: dict[int, Seat]) -> None:
    """The drafted decks as the rulebook builds them for the mode (as Draft test batches do):
    each player's 8 cards; Solo's AI seat the 24 cards left to it, Co-op's two AI seats the 48
    (`play.position_selectors.game_decks` divides them into two piles)."""
    assert game.draft_pool is not None
    ai_name = _("The Solo AI") if game.mode == Mode.SOLO else _("The Co-op AI")
    for seat in seats.values():
        if seat.index in players:
            cards = draft.decks[players.index(seat.index)]
            seat.deck_name = _("Drafted deck")
        else:
            cards = draft.ai_pile
            seat.deck_name = ai_name
        seat.cards = [game.draft_pool[card] for card in cards]
        seat.slugs = [game.draft_slugs[card] for card in cards]
    Seat.objects.bulk_update(seats.values(), ["deck_name", "cards", "slugs"])


def game_pick(*, game: Game, seat: Seat, client_id: str, cards: list[int]) -> Game:
    """`seat` takes `cards` (pool indices of its revealed cards) at a Draft table, then the
    computer seats pick; the draft's last pick starts the game. The same `client_id` twice from
    a seat picks once. 409 `not_drafting`, `not_your_pick`; 400 `illegal_pick` (`details.card`
    the card refused, `refusal` the engine's refusal code, `rule_id` the procedure's rule)."""
    with transaction.atomic():
        game, seat = _locked(game, seat)
        if DraftPick.objects.filter(game=game, seat=seat.index, client_id=client_id).exists():
            return game
        if game.status != Status.DRAFTING:
            raise DomainError("not_drafting", _("This table is not drafting."), {}, status_code=409)
        draft = draft_state(game)
        players = draft_players(game)
        me = players.index(seat.index)
        try:
            pick(draft, me, cards)
        except IllegalAction as error:
            if error.code == "draft_not_your_pick":
                expected = int(dict(error.arguments)["expected"])
                raise DomainError(
                    "not_your_pick",
                    _("It is not your pick."),
                    {"active": index_letter(players[expected])},
                    status_code=409,
                ) from error
            wording = _("Illegal pick: %(reason)s")
            seen = draft_seen(draft, me, drafting=True)
            raise _refused("illegal_pick", wording, error, seen, {"field": "cards"}) from error
        # No savepoint for a duplicate: under the game's lock the check above saw every pick
        # stored before, the same client id's included (as for an action).
        _store_pick(game, seat.index, client_id, cards)
        _draft_on(game, draft)
    return game


def game_concede(*, game: Game, seat: Seat) -> Game:
    """`seat` gives up: the other teams win (in Free-For-All every other seat; Co-op's partners
    lose together to the AI), a table still waiting for a player just closes. 409 `game_over` if
    already finished."""
    with transaction.atomic():
        game, seat = _locked(game, seat)
        if game.status == Status.FINISHED:
            raise DomainError("game_over", _("The game is over."), {}, status_code=409)
        seat.conceded = True
        seat.save(update_fields=["conceded"])
        _lose(game, seat)
    return game


def _lose(game: Game, seat: Seat) -> None:
    """`seat` loses outside the rules (it conceded, its time ran out): the other teams win."""
    team = MODES[game.mode].teammates(seat.index)
    winners = [other.index for other in game.seats.all() if other.index not in team]
    _finish(game, winners)
    game.save()
    _announce(game)


def _time_out(game: Game, now: datetime) -> Game:
    """The game, in which the seat to play has lost on time if its deadline is past at `now`
    (written at once: the refusal that may follow must not undo it)."""
    with transaction.atomic():
        game = with_seats(Game.objects.select_for_update()).get(pk=game.pk)
        deadline = turn_deadline(game)
        if deadline is not None and deadline <= now:
            seat = next(other for other in game.seats.all() if other.index == game.active_seat)
            seat.timed_out = True
            seat.save(update_fields=["timed_out"])
            _lose(game, seat)
    return game


def game_timeout_claim(*, game: Game) -> Game:
    """A player of the table claims the game on time: the seat to play, out of time, loses
    (as by conceding: the other teams win). 409 `game_over` if finished, `time_left` while the
    seat to play has time (or the table has no time per turn)."""
    game = _time_out(game, timezone.now())
    if game.status == Status.FINISHED and any(seat.timed_out for seat in game.seats.all()):
        return game
    if game.status == Status.FINISHED:
        raise DomainError("game_over", _("The game is over."), {}, status_code=409)
    deadline = turn_deadline(game)
    raise DomainError(
        "time_left",
        _("The player to play still has time."),
        {"deadline": None if deadline is None else deadline.isoformat()},
        status_code=409,
    )


# The shortest time per turn: a game whose turn began later cannot be out of time.
SHORTEST_TURN = timedelta(seconds=min(TurnTime.values))


def game_timeouts_apply(*, now: datetime | None = None) -> int:
    """Every game whose seat to play is out of time at `now` (default: the clock) loses it on
    time (the beat's sweep, `play.tasks.apply_turn_timeouts`; acting and claiming apply it
    too, so a table needs no worker). The count of games ended."""
    now = timezone.now() if now is None else now
    candidates = Game.objects.filter(
        status=Status.PLAYING,
        turn_seconds__isnull=False,
        turn_started_at__lte=now - SHORTEST_TURN,
    )
    ended = 0
    for game in candidates:
        deadline = turn_deadline(game)
        if deadline is not None and deadline <= now:
            ended += _time_out(game, now).status == Status.FINISHED
    return ended
