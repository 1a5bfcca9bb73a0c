"""Writes that set a table up: create it with its seats and their decks (`game_create`), and
take one of its seats (`game_join`), with their checks. Once no seat waits for a player, the
game (or its draft) starts: `play.services.game_start_when_seated`.
"""

import secrets
from dataclasses import dataclass
from typing import TypeVar

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cod_site.accounts.selectors import active_user
from cod_site.errors import DomainError
from cod_site.text import check_visible
from engine.adapters.play import (
    DeckChoice,
    ResolvedDeck,
    check_playable,
    coop_invited_partner_check,
    difficulty_level_options,
    draft_pool_resolve,
    simulation_deck_resolve,
    solo_ai_deck_resolve,
)
from engine.rules import AUTOMATON, DRAFT_PROCEDURES, MODES, RULES_VERSION, engine_digest
from mutation.access import Actor
from mutation.selectors import playable_deck
from play.models import Agent, ChaosSeat, Format, Game, Mode, Seat, SeatKind, Status, TurnTime
from play.seeds import SEED_BITS, derived_seed, new_seed
from play.selectors import code_matches, token_hash
from play.services import game_start_when_seated


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
    seat waits, the seats draft with the mode's procedure (`play.services.game_pick`), then the
    game starts with the drafted decks. 400s: `unknown_mode`, `wrong_seats`, `invalid_turn_time`,
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
