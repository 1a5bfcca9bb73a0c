"""Writes of the play app: create a table, join it, act, concede, lose on time.

Computer seats answer inside the request that gave them the turn (an agent's move takes
milliseconds for random and greedy; the searches think within a node budget, `PLAY_LOOKAHEAD_NODES`
and `PLAY_STRONG_NODES`), so a table needs no worker process; the actions they play are stored
like everyone's. Every write locks
the game row: two requests of one game apply their actions one after the other.
"""

import hashlib
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cod_site.accounts.selectors import active_user
from cod_site.broadcast import publish
from cod_site.errors import DomainError
from cod_site.text import check_visible
from engine.adapters.play import (
    DeckChoice,
    ResolvedDeck,
    check_playable,
    coop_ai_deck_resolve,
    coop_invited_partner_check,
    difficulty_level_options,
    draft_pool_resolve,
    simulation_deck_resolve,
    solo_ai_deck_resolve,
)
from engine.display.event_text import refusal_text
from engine.rules import (
    AUTOMATON,
    DRAFT_PROCEDURES,
    MODES,
    RULES_VERSION,
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
    engine_digest,
    pending,
    pick,
    record,
)
from engine.rules import Agent as EngineAgent
from engine.rules import Game as EngineGame
from mutation.access import Actor
from mutation.selectors import playable_deck
from play.models import (
    Agent,
    ChaosSeat,
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
from play.selectors import (
    code_matches,
    draft_players,
    draft_seen,
    draft_state,
    game_actions,
    game_champions,
    game_decks,
    game_options,
    game_state,
    index_letter,
    positions,
    seen_cards,
    token_hash,
    turn_deadline,
    with_seats,
)

# Seeds fit a JSON number any client reads exactly (a replay file's seed replays the game).
SEED_BITS = 53


def new_seed() -> int:
    """A table's seed, from the operating system's secure source: it decides every hidden card
    (the deal, the AI's pile, Co-op's split, the Draft's packs), so no one may guess it."""
    return secrets.randbelow(2**SEED_BITS)


def derived_seed(seed: int, use: str, index: int) -> int:
    """A seed for `use` (`agent`, `drafter`, `deck`) number `index` of a table of `seed`: a
    keyed hash, so that what a computer player's choices or its deck may let someone learn of
    it tells nothing of the table's seed (as `seed + index` would)."""
    key = seed.to_bytes(8, "big")
    digest = hashlib.blake2b(f"{use}:{index}".encode(), key=key, digest_size=8).digest()
    return int.from_bytes(digest, "big") >> (64 - SEED_BITS)


@dataclass(frozen=True)
class SeatRequest:
    """A seat of a new table: `me`, `invite` (a player who joins by the share link; with a
    `username`, only that account may take the seat) or `agent` (with its `agent` and the deck
    it plays, by default a preconstructed deck); at a Mutation table, the players'
    `mutation_session`."""

    kind: str
    agent: str = ""
    username: str = ""
    deck: DeckChoice | None = None
    # A Mutation table's player: the session whose deck they play.
    mutation_session: int | None = None


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


def _check_format(format: str, choice: DeckChoice, side: str) -> None:
    """The deck asked for fits the table's format: none does at a Draft or Mutation table,
    else one of the format's kind (400 `wrong_format`)."""
    if format in (Format.DRAFT, Format.MUTATION):
        raise DomainError(
            "wrong_format",
            _("This table drafts its decks: choose no deck.")
            if format == Format.DRAFT
            else _("This table plays Mutation decks: choose a Mutation session."),
            {"side": side, "format": format},
        )
    preconstructed = choice.preconstructed is not None
    if (format == Format.PRECONSTRUCTED) != preconstructed:
        raise DomainError(
            "wrong_format",
            _("This table plays %(format)s decks.") % {"format": Format(format).label},
            {"side": side, "format": format},
        )


# What a mode seats, said when a table asks for other seats.
SEATS_NEEDED = {
    Mode.DUEL: gettext_lazy("A Duel seats you and either an invited player or a computer player."),
    Mode.SOLO: gettext_lazy("A Solo game seats only you: the Solo AI plays the other side."),
    Mode.FREE_FOR_ALL: gettext_lazy(
        "A Free-For-All seats you and 3 others, each an invited player or a computer player."
    ),
    Mode.TEAMS: gettext_lazy(
        "Team Play seats you and 3 others, each an invited player or a computer player."
    ),
    Mode.COOP: gettext_lazy(
        "A Co-op game seats you and your partner, an invited player or a computer player, "
        "against the two Co-op AIs."
    ),
}
DEFAULT_AI_LEVEL = 1


def _check_seats(mode: str, seats: list[SeatRequest]) -> None:
    """The players' seats (Solo's and Co-op's AI seats are the automaton's, added by
    `game_create`): as many as the mode has, one `me`, the others `invite` or `agent`."""
    needs = sum(row.controller != AUTOMATON for row in MODES[mode].seats)
    kinds = [seat.kind for seat in seats]
    others = [kind for kind in kinds if kind != "me"]
    if (
        len(seats) != needs
        or kinds.count("me") != 1
        or any(kind not in ("invite", "agent") for kind in others)
    ):
        raise DomainError(
            "wrong_seats",
            str(SEATS_NEEDED[Mode(mode)]),
            {"mode": mode, "needs": needs, "seats": kinds},
        )


def _ai_of(mode: str, ai_level: int | None) -> int | None:
    """The level of Solo's and Co-op's AI (default `DEFAULT_AI_LEVEL`); None in the other
    modes, which refuse a level (400 `ai_level_without_ai`)."""
    if MODES[mode].seats[-1].controller != AUTOMATON:
        if ai_level is not None:
            raise DomainError(
                "ai_level_without_ai",
                _("Only Solo and Co-op games have an AI with a level."),
                {"field": "ai_level", "mode": mode},
            )
        return None
    return DEFAULT_AI_LEVEL if ai_level is None else ai_level


def _seat_rows(mode: str, players: list[SeatRequest]) -> list[SeatRequest | None]:
    """The mode's seats in order: the requested players' seats, None at the AI's."""
    requests = iter(players)
    return [None if row.controller == AUTOMATON else next(requests) for row in MODES[mode].seats]


def game_create(
    *,
    creator: User,
    format: str,
    seats: list[SeatRequest],
    mode: str = Mode.DUEL,
    ai_level: int | None = None,
    exhaustion: bool = False,
    listed: bool = False,
    seed: int | None = None,
    turn_seconds: int | None = None,
    pool: str = "",
) -> Game:
    """A new table of `mode`. `seats` are the players' seats in seat order (Solo: yours; Co-op:
    A and C; Duel 2, Free-For-All and Team Play 4), one of them `me` (with its deck), the others
    invited players or computer agents; Solo and Co-op add the AI's seats (B, and D) with the
    automaton at `ai_level` of the difficulty table, its deck pile built as test games build it.
    `turn_seconds`: the time per turn (`TurnTime`; None: no limit). `seed`: None, the server
    draws it (`new_seed`); chosen, only where no other person sits (`_check_chosen_seed`), and
    the table says so (`seed_chosen`). Once no seat waits for a player the game starts. A Draft
    table takes no deck but the expansions of its `pool` (as Draft test batches do): once no
    seat waits, the seats draft with the mode's procedure (`game_pick`), then the game starts
    with the drafted decks. 400s: `unknown_mode`, `wrong_seats`, `invalid_turn_time`,
    `seed_not_allowed`, `invalid_seed`, `wrong_format`, `ai_level_without_ai`,
    `unknown_level`, `pool_required`, `pool_without_draft`, the pool errors of
    `engine.adapters.pools`, the deck errors of `_seat_deck` (`details.side` names the seat's
    letter: the Mutation session's too) and `no_solo_opponent`, `no_coop_opponent` of
    `engine.adapters.decks` (at a Preconstructed Co-op table with an invited partner too:
    `coop_invited_partner_check`), and the invitations' refusals of `_invited_users`. A
    Mutation table's players play their `mutation_session`'s deck."""
    if mode not in Mode.values:
        raise DomainError(
            "unknown_mode",
            _("Unknown game mode."),
            {"field": "mode", "mode": mode, "choices": list(Mode.values)},
        )
    _check_seats(mode, seats)
    invited = _invited_users(creator, _seat_rows(mode, seats))
    if turn_seconds is not None and turn_seconds not in TurnTime.values:
        raise DomainError(
            "invalid_turn_time",
            _("Choose one of the times per turn."),
            {"field": "turn_seconds", "choices": list(TurnTime.values)},
        )
    level = _ai_of(mode, ai_level)
    # The level's parameters, or a 400 `unknown_level` if the difficulty table lacks it.
    ai = None if level is None else difficulty_level_options(level=level)
    if format not in Format.values:
        raise DomainError("wrong_format", _("Unknown format."), {"format": format})
    chosen = seed is not None
    if seed is None:
        seed = new_seed()
    else:
        _check_chosen_seed(seed, seats)
    drafted = None
    if format == Format.DRAFT:
        if not pool.strip():
            raise DomainError(
                "pool_required",
                _("Choose the expansions to draft from."),
                {"field": "pool"},
            )
        drafted = draft_pool_resolve(pool=pool, procedure=DRAFT_PROCEDURES[mode])
    elif pool:
        raise DomainError(
            "pool_without_draft",
            _("Only a Draft table drafts from a pool."),
            {"field": "pool", "format": format},
        )
    rows = _seat_rows(mode, seats)
    first_deck = derived_seed(seed, "deck", 0)
    resolved: list[ResolvedDeck | None] = []
    for index, request in enumerate(rows):
        side = "abcd"[index]
        if request is None or request.kind == "invite":
            resolved.append(None)
            continue
        if request.kind == "agent" and request.agent not in Agent.values:
            raise DomainError(
                "unknown_agent",
                _("Unknown computer player."),
                {"side": side, "agent": request.agent},
            )
        # A computer player has no saved decks: by default it plays a preconstructed one, each
        # computer seat the next one from a first drawn from the seed (no clue to the seed:
        # `derived_seed`).
        default = DeckChoice(preconstructed=1 + (first_deck + index) % 4)
        resolved.append(
            _seat_deck(
                format=format,
                mode=mode,
                request=request,
                side=side,
                default=default,
                viewer=creator,
            )
        )
    if (
        mode == Mode.COOP
        and format == Format.PRECONSTRUCTED
        and any(request is not None and request.kind == "invite" for request in rows)
    ):
        # Refused now rather than waiting forever for a partner whose join always fails.
        for request, deck in zip(rows, resolved, strict=True):
            if request is not None and request.kind == "me" and deck is not None:
                coop_invited_partner_check(player=deck)
    if mode == Mode.SOLO and drafted is None:
        # Solo's only player is `me`: the AI's pile is known now.
        player = resolved[0]
        assert player is not None
        resolved[1] = solo_ai_deck_resolve(player=player, seed=seed)
    with transaction.atomic():
        game = Game.objects.create(
            created_by=creator,
            mode=mode,
            format=format,
            exhaustion=exhaustion,
            seed=seed,
            seed_chosen=chosen,
            ai=ai,
            ai_level=level,
            rules_version=RULES_VERSION,
            engine_digest=engine_digest(),
            listed=listed,
            turn_seconds=turn_seconds,
            draft_expansion=drafted.expansion if drafted else "",
            draft_pool=drafted.cards if drafted else None,
            draft_slugs=drafted.slugs if drafted else [],
        )
        for index, (request, deck) in enumerate(zip(rows, resolved, strict=True)):
            Seat.objects.create(
                game=game,
                index=index,
                kind=_seat_kind(request),
                user=creator if request is not None and request.kind == "me" else None,
                invited=invited.get(index),
                agent=request.agent if request is not None and request.kind == "agent" else "",
                deck_name=deck.name if deck else "",
                cards=deck.cards if deck else None,
                champion=deck.champion if deck else None,
                slugs=deck.slugs if deck else [],
            )
        game_start_when_seated(game=game)
    return game


def _invited_users(creator: User, rows: list[SeatRequest | None]) -> dict[int, User]:
    """The accounts invited by username, by seat index: 400 `unknown_user` (no active account
    of that name), `invite_self`, `invited_twice` (one account holds one seat a table),
    `username_without_invite` (a username on a seat that is not `invite`); `details.field`
    `username`, `side` the seat's letter."""
    invited: dict[int, User] = {}
    for index, request in enumerate(rows):
        if request is None or not request.username:
            continue
        side = "abcd"[index]
        details = {"field": "username", "side": side, "username": request.username}
        if request.kind != "invite":
            raise DomainError(
                "username_without_invite",
                _("Only an invited seat takes a username."),
                details,
            )
        user = active_user(username=request.username)
        if user is None:
            raise DomainError(
                "unknown_user",
                _("No player is named %(username)s.") % {"username": request.username},
                details,
            )
        if user.pk == creator.pk:
            raise DomainError("invite_self", _("You cannot invite yourself."), details)
        if any(other.pk == user.pk for other in invited.values()):
            raise DomainError(
                "invited_twice",
                _("%(username)s is invited to another seat already.")
                % {"username": user.get_username()},
                details,
            )
        invited[index] = user
    return invited


def _check_chosen_seed(seed: int, seats: list[SeatRequest]) -> None:
    """A chosen seed decides every hidden card, so only a table where no other person sits may
    have one (every other seat a computer player: practice); 400 `seed_not_allowed` (with an
    invited seat), `invalid_seed` (out of range), `details.field` `seed`."""
    if any(seat.kind == "invite" for seat in seats):
        raise DomainError(
            "seed_not_allowed",
            _(
                "Only a table where every other seat is a computer player may choose its seed: "
                "it decides every hidden card."
            ),
            {"field": "seed"},
        )
    if not 0 <= seed < 2**SEED_BITS:
        raise DomainError(
            "invalid_seed", _("The seed is out of range."), {"field": "seed", "seed": seed}
        )


def _seat_deck(
    *,
    format: str,
    mode: str,
    request: SeatRequest,
    side: str,
    default: DeckChoice | None,
    viewer: User | AnonymousUser,
) -> ResolvedDeck | None:
    """The deck of a player's or a computer's seat at a table of `format`: none at a Draft
    table (it drafts them), a Mutation table's player the deck of their `mutation_session`,
    else the deck asked for, a computer's by default `default` (at a Constructed table with
    its Champion). The refusals of `_check_format`, `_mutation_deck` and
    `engine.adapters.decks.simulation_deck_resolve`."""
    _check_mutation_session(format, request.mutation_session, side)
    choice = request.deck
    if choice is not None:
        _check_format(format, choice, side)
    if format == Format.MUTATION and request.kind != "agent":
        return _mutation_deck(side, request.mutation_session, viewer)
    if format == Format.DRAFT:
        return None
    if choice is None:
        if request.kind != "agent" or default is None:
            raise DomainError("deck_required", _("Choose your deck."), {"side": side})
        choice = default
    return simulation_deck_resolve(
        side=side,
        choice=choice,
        viewer=viewer,
        mode=mode,
        champions=format == Format.CONSTRUCTED,
    )


def _check_mutation_session(format: str, session: int | None, side: str) -> None:
    if session is not None and format != Format.MUTATION:
        raise DomainError(
            "wrong_format",
            _("Only a Mutation table plays a Mutation session's deck."),
            {"side": side, "format": format, "field": "mutation_session"},
        )


def _mutation_deck(side: str, session: int | None, viewer: User | AnonymousUser) -> ResolvedDeck:
    """The deck `viewer` chose in Mutation `session` (`mutation.selectors.playable_deck`), as
    playable by the engine: 400 `mutation_session_required`, `unknown_mutation_session`,
    `mutation_deck_not_ready`, `unplayable_deck` (`details.side`: the seat's letter)."""
    if session is None:
        raise DomainError(
            "mutation_session_required",
            _("Choose the Mutation session whose deck you play."),
            {"side": side, "field": "mutation_session"},
        )
    try:
        deck = playable_deck(actor=Actor(user=viewer), pk=session)
    except DomainError as error:
        raise DomainError(error.code, error.message, {"side": side, **error.details}) from error
    resolved = ResolvedDeck(
        source="",
        deck=None,
        code="",
        name=deck.name,
        cards=deck.cards,
        slugs=deck.slugs,
        champion=None,
    )
    check_playable(side, resolved)
    return resolved


def _seat_kind(request: SeatRequest | None) -> str:
    if request is None:
        return SeatKind.AUTOMATON
    return SeatKind.AGENT if request.kind == "agent" else SeatKind.PLAYER


def game_start_when_seated(*, game: Game) -> None:
    """Start the game once every player's seat has its deck (a Draft table: its draft once
    every seat is taken); Co-op's AI then gets its cards, those of the players' expansions that
    neither deck holds (`coop_ai_deck_resolve`): both AI seats keep the 48 cards, which
    `play.selectors.game_decks` divides into the two piles."""
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


SeatT = TypeVar("SeatT", Seat, ChaosSeat)


def open_seat_take(seats: list[SeatT], user: User | AnonymousUser, status: str) -> SeatT:
    """The first open seat of a waiting table (Clash or Duel of Chaos), for `user`: 409
    `already_seated` when they hold one, `table_full` when none is open or the game began."""
    if user.is_authenticated and any(seat.user_id == user.pk for seat in seats):
        raise DomainError(
            "already_seated", _("You already have a seat at this table."), {}, status_code=409
        )
    open_seats = [seat for seat in seats if not seat.taken]
    if status != Status.WAITING or not open_seats:
        raise DomainError("table_full", _("This table is full."), {}, status_code=409)
    return open_seats[0]


def _invited_seat_take(seats: list[Seat], user: User | AnonymousUser, status: str) -> Seat:
    """The open seat of a waiting table for `user` (`open_seat_take`): the seat they are
    invited to by username first, never one kept for another account: 403 `seat_invited` when
    every open seat is."""
    mine = [seat for seat in seats if user.is_authenticated and seat.invited_id == user.pk]
    available = mine + [
        seat for seat in seats if seat not in mine and (seat.taken or seat.invited_id is None)
    ]
    try:
        return open_seat_take(available, user, status)
    except DomainError as error:
        if error.code != "table_full" or status != Status.WAITING:
            raise
        if any(not seat.taken for seat in seats):
            raise DomainError(
                "seat_invited",
                _("The open seats of this table are kept for the players invited to them."),
                {},
                status_code=403,
            ) from error
        raise


def game_join(
    *,
    game: Game,
    invite_code: str,
    user: User | AnonymousUser,
    guest_name: str,
    deck: DeckChoice | None,
    mutation_session: int | None = None,
) -> tuple[Seat, str]:
    """Take the open seat of a table with the share link's code (any code for a listed table):
    an account, or a guest by name, who gets a seat token (returned once: only its hash is
    kept), with `deck` (none at a Draft table; at a Mutation table, the deck of
    `mutation_session`). A player invited by username takes the seat kept for them, with the
    share link's code or none; no one else takes it. The game (or the draft) starts once no
    seat waits. 409 `table_full`, 403 `bad_invite`, `seat_invited`, 400
    `guest_name_required`, `deck_required`, `wrong_format`, the refusals of
    `_mutation_deck`."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        seats = list(game.seats.select_for_update())
        invited = user.is_authenticated and any(
            seat.invited_id == user.pk and not seat.taken for seat in seats
        )
        if not (game.listed or invited or code_matches(invite_code, game.invite_code)):
            raise DomainError(
                "bad_invite", _("This invitation link is not valid."), {}, status_code=403
            )
        seat = _invited_seat_take(seats, user, game.status)
        side = "abcd"[seat.index]
        request = SeatRequest(kind="me", deck=deck, mutation_session=mutation_session)
        resolved = _seat_deck(
            format=game.format,
            mode=game.mode,
            request=request,
            side=side,
            default=None,
            viewer=user,
        )
        token = ""
        if isinstance(user, User):
            seat.user = user
        else:
            name = guest_name.strip()
            if not name:
                raise DomainError(
                    "guest_name_required", _("Give a name to play as a guest."), {"side": side}
                )
            check_visible(name, field="guest_name", side=side)
            token = secrets.token_urlsafe(24)
            seat.guest_name = name
            seat.token_hash = token_hash(token)
        if resolved is not None:
            seat.deck_name = resolved.name
            seat.cards = resolved.cards
            seat.champion = resolved.champion
            seat.slugs = resolved.slugs
        seat.save()
        game_start_when_seated(game=game)
    return seat, token


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
    (`play.selectors.game_decks` divides them into two piles)."""
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
