"""What a seat (or a spectator) sees of a table: the API's view of the game and of its draft,
the board's observation, the cards a refusal may name, the actions it may play."""

from typing import Any

from engine.rules import (
    CARD_KEYS,
    MODES,
    SPECTATOR,
    Draft,
    GameState,
    Observation,
    Pending,
    action_json,
    legal_actions,
    observe,
    pending,
    seat_view,
)
from play.models import Game, Seat, Status
from play.position_selectors import draft_players, draft_state, game_state, started
from play.selectors import index_letter, seat_label, turn_deadline


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


def _rematch_uid(game: Game) -> str | None:
    """The id of the rematch of `game`, which its players' views offer once it is over."""
    if game.status != Status.FINISHED:
        return None
    return Game.objects.filter(rematch_of=game).values_list("uid", flat=True).first()
