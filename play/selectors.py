"""Reads of the play app: games, seats, the position replayed from the stored actions, and one
seat's view of it."""

import hashlib
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, F, Prefetch, QuerySet
from django.utils.translation import gettext as _

from cards.models import Card, Expansion
from cards.selectors import translated
from cod_site.errors import DomainError
from decks.selectors.formats import format_name
from decks.selectors.lists import deck_list
from engine.adapters.play import (
    COOP_AI_CARDS,
    Frame,
    current_ladder,
    replay_frames,
)
from engine.rules import (
    AUTOMATON,
    CARD_KEYS,
    DRAFT_PROCEDURES,
    MODES,
    PLAYER_NAMES,
    SPECTATOR,
    AiOptions,
    CardDef,
    Draft,
    GameState,
    Observation,
    Options,
    Pending,
    action_json,
    apply,
    engine_digest,
    legal_actions,
    new_draft,
    new_game,
    observe,
    pending,
    pick,
    seat_view,
    table_decks,
)
from mutation.access import Actor
from mutation.selectors import playable_sessions
from play.models import Agent, DraftPick, Game, GameAction, Seat, SeatKind, Status

# How many saved decks a form's select offers (mine, or a search's public ones).
DECK_CHOICES = 50


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def code_matches(given: str, code: str) -> bool:
    """Whether `given` is a table's invite or spectate `code`, in constant time; any text may be
    given (a link's code is whatever its URL says: `compare_digest` takes ASCII only as text)."""
    return secrets.compare_digest(given.encode(), code.encode())


def with_seats(games: QuerySet[Game]) -> QuerySet[Game]:
    """`games` with their seats and the seats' accounts (the invited ones' too), in one query
    after the games'."""
    seats = Seat.objects.select_related("user", "invited")
    return games.prefetch_related(Prefetch("seats", queryset=seats))


def game_get(*, uid: str) -> Game:
    """The game `uid` with its seats, or a 404 `not_found`."""
    game = with_seats(Game.objects.filter(uid=uid)).first()
    if game is None:
        raise DomainError("not_found", _("There is no such game."), {}, status_code=404)
    return game


def game_spectated(*, uid: str, code: str) -> Game:
    """The game `uid` for who holds its spectate link's `code`; a 404 `not_found` for a wrong
    code too (it tells no more than a missing game)."""
    game = game_get(uid=uid)
    if not code_matches(code, game.spectate_code):
        raise DomainError("not_found", _("There is no such game."), {}, status_code=404)
    return game


def throttle_ident(*, uid: str, token: str, code: str) -> str | None:
    """Whom an anonymous API request of game `uid` is throttled as: the guest's seat of
    `token`, or the spectate link of `code`, when they name one of the game (None: neither)."""
    if token:
        seat = Seat.objects.filter(game__uid=uid, token_hash=token_hash(token)).first()
        return None if seat is None else f"seat-{seat.pk}"
    if code and Game.objects.filter(uid=uid, spectate_code=code).exists():
        return f"link-{uid}"
    return None


def turn_deadline(game: Game) -> datetime | None:
    """When the time of the seat to play runs out (None: no time per turn, or no player's turn
    running: a computer seat answers at once)."""
    if game.status != Status.PLAYING or game.turn_seconds is None or game.turn_started_at is None:
        return None
    return game.turn_started_at + timedelta(seconds=game.turn_seconds)


def seat_of(*, game: Game, user: User | AnonymousUser, token: str = "") -> Seat | None:
    """The seat of the requester: the guest whose seat token is `token`, else the account's."""
    seats = list(game.seats.all())
    if token:
        hashed = token_hash(token)
        for seat in seats:
            if seat.token_hash and seat.token_hash == hashed:
                return seat
    if user.is_authenticated:
        for seat in seats:
            if seat.user_id == user.pk:
                return seat
    return None


def seat_required(*, game: Game, user: User | AnonymousUser, token: str = "") -> Seat:
    """The requester's seat, or a 403 `not_seated` (only the players see a game in play)."""
    seat = seat_of(game=game, user=user, token=token)
    if seat is None:
        raise DomainError(
            "not_seated", _("You have no seat at this table."), {"game": game.uid}, status_code=403
        )
    return seat


def agents_by_strength() -> list[str]:
    """The computer players a table may seat, strongest first as the strength ladder
    (`engine/agent_ladder.json`) rates them; one it does not rate comes last."""
    ladder = current_ladder()
    unrated = len(ladder.agents) + 1

    def rank(agent: str) -> int:
        standing = ladder.of(agent)
        return unrated if standing is None else standing.rank

    return sorted(Agent.values, key=rank)


def agent_label(agent: str) -> str:
    """A computer player's name, and for the ladder's strongest and weakest of a table's
    players, which."""
    ranked = agents_by_strength()
    name = str(Agent(agent).label)
    if agent == ranked[0]:
        return _("%(agent)s (strongest)") % {"agent": name}
    if agent == ranked[-1]:
        return _("%(agent)s (weakest)") % {"agent": name}
    return name


def agent_choices() -> list[tuple[str, str]]:
    """The computer players to choose from, strongest first (`agent_label`)."""
    return [(agent, agent_label(agent)) for agent in agents_by_strength()]


def seat_label(seat: Seat) -> str:
    if seat.kind == SeatKind.AUTOMATON:
        return _("The AI (level %(level)s)") % {"level": seat.game.ai_level}
    if seat.kind == SeatKind.AGENT:
        return _("Computer (%(agent)s)") % {"agent": agent_label(seat.agent)}
    if seat.user is not None:
        return seat.user.get_username()
    if seat.guest_name:
        return _("%(name)s (guest)") % {"name": seat.guest_name}
    if seat.invited is not None:
        return _("%(name)s (invited)") % {"name": seat.invited.get_username()}
    return _("open seat")


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


def _pool_card(draft: Draft, index: int) -> dict[str, Any]:
    """A card of the pool as the view shows a card (`engine.rules.view.card_json`), its id
    being its index in the pool."""
    card = draft.pool[index]
    return {
        "id": index,
        "name": card.name,
        "cost": card.cost,
        "attack": card.attack,
        "hp": card.hp,
        "creature": card.type == "creature",
        "abilities": list(card.abilities),
    }


def _pack_and_picks(
    draft: Draft, me: int | None, waiting: Pending | None
) -> tuple[tuple[int, ...], list[int]]:
    """The pool cards drafting seat `me` (its index in the draft; None: a spectator, who sees
    none) sees: the revealed cards while it is its pick (`waiting`), and its own picks."""
    if me is None:
        return (), []
    pack = waiting.revealed if waiting is not None and waiting.seat == me else ()
    return pack, draft.decks[me]


def draft_seen(draft: Draft, me: int, *, drafting: bool) -> dict[int, str]:
    """The names of the pool cards drafting seat `me` sees, by pool index (`_pack_and_picks`):
    all that a refusal of its pick may name."""
    pack, picks = _pack_and_picks(draft, me, pending(draft) if drafting else None)
    return {card: draft.names[card] for card in (*pack, *picks)}


def draft_pool_choices() -> list[tuple[str, str]]:
    """The expansions a Draft table may draft from (those with cards to put in a deck), as
    (slug, "code · name in the page's language"), in the catalogue's order: the new-table form
    offers them to tick instead of a field of codes to type (issue 29)."""
    expansions = Expansion.objects.filter(
        pk__in=Card.objects.deckable().values("expansion")
    ).prefetch_related("translations")
    return [
        (expansion.slug, f"{expansion.code} · {translated(expansion, 'name').text}")
        for expansion in expansions
    ]


def deck_choices(user: User | AnonymousUser) -> list[tuple[str, str]]:
    """The saved decks `user` may bring to a table, as (share id, "name · format"), newest
    first: the forms offer them instead of a share id to type (issue 29)."""
    if not user.is_authenticated:
        return []
    return [
        (deck.share_id, f"{deck.name} · {format_name(deck.format)}")
        for deck in deck_list(owner=user, sort="updated")[:DECK_CHOICES]
    ]


def coop_ready_decks(user: User | AnonymousUser) -> set[str]:
    """The share ids of `user`'s decks (`deck_choices`) whose expansions hold at least the
    `COOP_AI_CARDS` cards the Co-op AI plays that the deck does not (ruling CO9): the only ones
    the new-table form offers for Co-op (issue 29: the defaults failed after submitting)."""
    if not user.is_authenticated:
        return set()
    decks = list(
        deck_list(owner=user, sort="updated")[:DECK_CHOICES].prefetch_related("deck_cards__card")
    )
    per_expansion = dict(
        Card.objects.deckable()
        .values_list("expansion")
        .annotate(count=Count("pk"))
        .values_list("expansion", "count")
    )
    ready = set()
    for deck in decks:
        cards = {entry.card for entry in deck.deck_cards.all()}
        expansions = {card.expansion_id for card in cards}
        others = sum(per_expansion.get(one, 0) for one in expansions) - len(cards)
        if others >= COOP_AI_CARDS:
            ready.add(deck.share_id)
    return ready


def public_deck_search(query: str) -> list[tuple[str, str]]:
    """Public decks whose name or cards match `query` (`decks.selectors.lists.deck_list`), as
    (share id, "name · author · format"), for the forms' public deck search."""
    if not query.strip():
        return []
    try:
        found = deck_list(q=query, sort="updated")[:DECK_CHOICES]
    except DomainError:
        return []
    return [
        (deck.share_id, f"{deck.name} · {deck.owner} · {format_name(deck.format)}")
        for deck in found
    ]


def draft_pool_name(game: Game) -> str:
    """The expansions a Draft table drafts from, by their names in the page's language (the
    stored slugs read "Draft dans treachery": issue 29)."""
    slugs = [slug for slug in game.draft_expansion.split(",") if slug]
    found = Expansion.objects.filter(slug__in=slugs).prefetch_related("translations")
    by_slug = {expansion.slug: expansion for expansion in found}
    return ", ".join(
        translated(by_slug[slug], "name").text if slug in by_slug else slug for slug in slugs
    )


def draft_view(*, game: Game, seat: Seat | None) -> dict[str, Any]:
    """What `seat` sees of its table's draft (None: a spectator, who sees no card): who picks
    and how many cards each seat holds, its own picks, the revealed cards it picks from while
    it is its pick (`pack`), and as the rulebook shows them to all the players the revealed
    cards of the round (`revealed`) and every seat's picks (`seat_picks`)."""
    draft = draft_state(game)
    players = draft_players(game)
    me = None if seat is None else players.index(seat.index)
    waiting = pending(draft) if game.status == Status.DRAFTING else None
    pack, picks = _pack_and_picks(draft, me, waiting)
    mine = waiting is not None and me is not None and waiting.seat == me
    # "For the whole duration of the Draft, the cards chosen by the players remain visible", and
    # the cards of a round are revealed (rule format-draft): every drafting seat sees them, the
    # other seats' picks included (issue 29: they showed only as "B: 7 cards"). A spectator
    # still sees no card.
    seen_by_seat = me is not None
    return {
        "revealed": [_pool_card(draft, card) for card in waiting.revealed]
        if seen_by_seat and waiting is not None
        else [],
        "seat_picks": {
            index_letter(players[i]): [_pool_card(draft, card) for card in deck]
            for i, deck in enumerate(draft.decks)
        }
        if seen_by_seat
        else {},
        "pool": game.draft_expansion,
        "procedure": draft.procedure.code,
        "rule_id": draft.procedure.rule_id,
        "pick_count": game.pick_count,
        "to_pick": None if waiting is None else index_letter(players[waiting.seat]),
        "count": waiting.count if mine and waiting else 0,
        "gives_rest": mine and waiting is not None and waiting.gives_rest,
        "pack": [_pool_card(draft, card) for card in pack],
        "picks": [_pool_card(draft, card) for card in picks],
        "held": {index_letter(players[i]): len(deck) for i, deck in enumerate(draft.decks)},
    }


def mutation_sessions(user: User | AnonymousUser) -> list[tuple[int, str]]:
    """The Mutation sessions whose deck `user` may play at a table, as (id, name)."""
    sessions = playable_sessions(Actor(user=user)).order_by("-created_at", "-id")
    return list(sessions.values_list("pk", "name"))


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


def replay_visible(*, game: Game, user: User | AnonymousUser, token: str = "") -> bool:
    """Whether the requester may open the game's replay page: its players, and anyone for a
    listed game (they could watch it while it was played)."""
    return game.listed or seat_of(game=game, user=user, token=token) is not None


def started(game: Game) -> bool:
    """Whether the game has a position: it is played, or it ended after it began (it has a
    replay), not while it waits for a player or drafts, nor once it closed before it began."""
    return game.status == Status.PLAYING or game.replay is not None


def card_names(game: Game) -> list[str]:
    """The engine's name of each card id of the game: what an event names once the seat's view
    shows that card (a hidden card is None in the event, never looked up here)."""
    return list(game_state(game).setup.names) if started(game) else []


def game_view(*, game: Game, seat: Seat | None, events_from: int = 0) -> dict[str, Any]:
    """What `seat` sees (None: a spectator, who sees no hand): the table's facts, and (once
    every seat has a deck) the engine's view of the position for that seat
    (`engine.rules.view`)."""
    seats = [
        {
            "seat": index_letter(other.index),
            "name": seat_label(other),
            "kind": other.kind,
            "team": index_letter(MODES[game.mode].teammates(other.index)[0]),
            "conceded": other.conceded,
            "timed_out": other.timed_out,
        }
        for other in game.seats.all()
    ]
    data: dict[str, Any] = {
        "id": game.uid,
        "status": game.status,
        "mode": game.mode,
        "format": game.format,
        "exhaustion": game.exhaustion,
        "ai_level": game.ai_level,
        "seed_chosen": game.seed_chosen,
        "seat": None if seat is None else index_letter(seat.index),
        "seats": seats,
        "turn_seconds": game.turn_seconds,
        "deadline": turn_deadline(game),
        "action_count": game.action_count,
        "winners": [index_letter(winner) for winner in game.winners],
        "rematch": _rematch_uid(game),
        "state": None,
    }
    if game.draft_pool is not None:
        data["draft"] = draft_view(game=game, seat=seat)
    if started(game):
        state = game_state(game)
        finished = game.status == Status.FINISHED
        viewer = SPECTATOR if seat is None else seat.index
        data["state"] = seat_view(state, viewer, events_from, reveal=finished)
    return data


def game_observation(*, game: Game, seat: Seat | None) -> Observation | None:
    """The engine's observation of the position for `seat` (None: a spectator, who sees no
    hand), which the table's board draws; None while the game has no position."""
    if not started(game):
        return None
    viewer = SPECTATOR if seat is None else seat.index
    return observe(game_state(game), viewer, reveal=game.status == Status.FINISHED)


# The keys under which a view names a card by its id (a card's, an event's, an action's).
SEEN_KEYS = CARD_KEYS | {"id"}


def seen_cards(state: GameState, seat: int) -> dict[int, str]:
    """The cards `seat` may see now, by id, with their names: every card its view of `state`
    shows (`engine.rules.view.seat_view`: its hand, the lines, the Champions, the AI's discard,
    its removed cards) and every card its events name. All that a refusal may name to it."""
    names = state.setup.names
    seen: dict[int, str] = {}

    def visit(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key in SEEN_KEYS and type(item) is int and 0 <= item < len(names):
                    seen[item] = names[item]
                else:
                    visit(item)
        elif isinstance(value, list):
            for item in value:
                visit(item)

    visit(seat_view(state, seat))
    return seen


def game_legal_actions(*, game: Game, seat: Seat) -> list[dict[str, Any]]:
    """The actions `seat` may play now (none: not its turn, or no game in play)."""
    if game.status != Status.PLAYING:
        return []
    state = game_state(game)
    if state.active != seat.index:
        return []
    return [action_json(action) for action in legal_actions(state)]


def index_letter(index: int) -> str:
    return PLAYER_NAMES[index]


def games_of(user: User) -> QuerySet[Game]:
    """The games where `user` has a seat, last played first."""
    return with_seats(Game.objects.filter(seats__user=user).distinct())


def lobby_groups(user: User) -> dict[str, list[Game]]:
    """The last 100 games of `user` (`games_of`) by what they wait for: `my_turn`,
    `their_turn`, `waiting` (for a player), `over`."""
    groups: dict[str, list[Game]] = {"my_turn": [], "their_turn": [], "waiting": [], "over": []}
    for game in games_of(user)[:100]:
        seat = seat_of(game=game, user=user)
        if game.status == Status.WAITING:
            groups["waiting"].append(game)
        elif game.status == Status.FINISHED:
            groups["over"].append(game)
        elif seat is not None and game.active_seat == seat.index:
            groups["my_turn"].append(game)
        else:
            groups["their_turn"].append(game)
    return groups


def game_progress(game: Game) -> tuple[int, int, str] | None:
    """The game's action count, Draft pick count and status as stored now (None: deleted),
    what the table's stream watches."""
    row = (
        Game.objects.filter(pk=game.pk).values_list("action_count", "pick_count", "status").first()
    )
    return None if row is None else (row[0], row[1], row[2])


def games_to_play(user: User) -> int:
    """How many games wait for `user`'s move: in play or drafting, with the turn or the pick at
    one of their seats (every page's header marker)."""
    # One join: the seat that is the user's is the seat to play (a user holds one seat a game).
    return Game.objects.filter(
        status__in=[Status.PLAYING, Status.DRAFTING],
        seats__user=user,
        seats__index=F("active_seat"),
    ).count()


def invitations_of(user: User) -> list[Seat]:
    """The seats `user` is invited to by username and has not taken yet, at tables still
    waiting for a player (every page's header shows them), the latest first, with their game
    and its creator."""
    return list(
        Seat.objects.filter(invited=user, user__isnull=True, game__status=Status.WAITING)
        .select_related("game__created_by")
        .order_by("-game__created_at", "-game__id")
    )


def listed_games(user: User | AnonymousUser, status: str) -> QuerySet[Game]:
    """Listed tables of `status` (waiting: open to join, with a seat that no one is invited to
    by username; playing: anyone may watch them), except those where the requester sits."""
    games = Game.objects.filter(status=status, listed=True)
    if status == Status.WAITING:
        games = games.filter(
            seats__kind=SeatKind.PLAYER,
            seats__user__isnull=True,
            seats__token_hash="",
            seats__invited__isnull=True,
        )
    if user.is_authenticated:
        games = games.exclude(seats__user=user)
    return with_seats(games.distinct())


def game_replay(*, game: Game) -> dict[str, Any]:
    """The engine replay of a finished game (`engine.rules.replay` JSON); 409 `not_finished`
    before: a replay holds every hand."""
    if game.status != Status.FINISHED or game.replay is None:
        raise DomainError(
            "not_finished",
            _("The replay is available once the game is over."),
            {"game": game.uid},
            status_code=409,
        )
    replay: dict[str, Any] = game.replay
    return replay


def _rematch_uid(game: Game) -> str | None:
    """The id of the rematch of `game`, which its players' views offer once it is over."""
    if game.status != Status.FINISHED:
        return None
    return Game.objects.filter(rematch_of=game).values_list("uid", flat=True).first()


def rematch_get(*, game: Game) -> Game | None:
    """The rematch of `game` with its seats (None: none was made)."""
    return with_seats(Game.objects.filter(rematch_of=game)).first()
