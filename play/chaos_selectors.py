"""Reads of Duel of Chaos tables: the table, the requester's seat, the position (the engine
replaying the stored actions) and what a seat may see of it, in the page's language.

Every answer for a seat is built from `engine.chaos.seat_view` and `seat_events` of that seat:
the other hand is a count, the decks are counts, the pending decision's options go only to the
seat that decides. The seed and the deck order appear nowhere before the end.
"""

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext as _

from cards.chaos_selectors import chaos_names
from cod_site.errors import DomainError
from engine.adapters.play import chaos_box
from engine.chaos import (
    SPECTATOR,
    Action,
    ChaosState,
    Options,
    apply,
    new_game,
    seat_events,
    seat_view,
)
from engine.chaos.actions import (
    ANNOUNCE_CLANS,
    CHOOSE,
    END_COMBO,
    END_TURN,
    NO,
    PICK_CARD,
    PLAY,
    PLAY_PASS,
    REACTION,
    RECRUIT,
    USE,
    YES,
    legal_actions,
)
from engine.chaos.effects import CLAN_BITS, CLANS
from engine.chaos.events import SEATS
from engine.chaos.state import OVER
from engine.display import chaos_text
from engine.display.chaos_display import card_view, named, replay_context, zone_view
from play.models import ChaosAgent, ChaosSeat, ChaosTable, SeatKind, Status
from play.selectors import code_matches, token_hash


def _with_seats(tables: QuerySet[ChaosTable]) -> QuerySet[ChaosTable]:
    return tables.prefetch_related(
        Prefetch("seats", queryset=ChaosSeat.objects.select_related("user"))
    )


def chaos_table_get(*, uid: str) -> ChaosTable:
    """The table `uid` with its seats, or a 404 `not_found`."""
    table = _with_seats(ChaosTable.objects.filter(uid=uid)).first()
    if table is None:
        raise DomainError("not_found", _("There is no such game."), {}, status_code=404)
    return table


def chaos_table_spectated(*, uid: str, code: str) -> ChaosTable:
    """The table for who holds its spectate link; a 404 for a wrong code too."""
    table = chaos_table_get(uid=uid)
    if not code_matches(code, table.spectate_code):
        raise DomainError("not_found", _("There is no such game."), {}, status_code=404)
    return table


def chaos_seat_of(
    *, table: ChaosTable, user: User | AnonymousUser, token: str = ""
) -> ChaosSeat | None:
    seats = list(table.seats.all())
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


def chaos_seat_required(
    *, table: ChaosTable, user: User | AnonymousUser, token: str = ""
) -> ChaosSeat:
    seat = chaos_seat_of(table=table, user=user, token=token)
    if seat is None:
        raise DomainError(
            "not_seated", _("You have no seat at this table."), {"game": table.uid}, status_code=403
        )
    return seat


def chaos_seat_label(seat: ChaosSeat) -> str:
    if seat.kind == SeatKind.AGENT:
        return _("Computer (%(agent)s)") % {"agent": ChaosAgent(seat.agent).label}
    if seat.user is not None:
        return seat.user.get_username()
    if seat.guest_name:
        return _("%(name)s (guest)") % {"name": seat.guest_name}
    return _("open seat")


def chaos_options() -> Options:
    # Who gets the Emissaries 1 is the seeded deal's (the rulebook draws it).
    return Options(mode="duel", log=True)


def chaos_actions(table: ChaosTable) -> list[Action]:
    """The table's actions as the engine plays them."""
    return [(int(row["kind"]), int(row["value"])) for row in table.actions]


def chaos_state(table: ChaosTable, actions: int | None = None) -> ChaosState:
    """The position after the table's first `actions` actions (all by default), with its log."""
    state = new_game(chaos_box(table.cards, table.set_code), table.seed, chaos_options())
    for action in chaos_actions(table)[:actions]:
        apply(state, action)
    return state


def chaos_progress(table: ChaosTable) -> tuple[int, int, str] | None:
    """What the table's live stream watches: its action count and status (None: deleted)."""
    row = ChaosTable.objects.filter(pk=table.pk).values_list("action_count", "status").first()
    return None if row is None else (row[0], 0, row[1])


def visible_ids(view: dict[str, Any]) -> dict[int, str]:
    """Every card id the view shows, with its English name: what a refusal may name."""
    seen: dict[int, str] = {}

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("id"), int) and isinstance(node.get("name"), str):
                seen[node["id"]] = node["name"]
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk({key: value for key, value in view.items() if key != "decision"})
    decision = view.get("decision")
    if decision and decision.get("source"):
        walk(decision["source"])
    return seen


def _choices(
    state: ChaosState, seat: int, seen: dict[int, str], names: dict[str, str]
) -> list[dict[str, Any]]:
    """The legal actions of `seat` as buttons (none when another seat decides)."""
    decision = state.decision
    if decision is None or decision.seat != seat or state.phase == OVER:
        return []
    buttons = []
    for kind, value in legal_actions(state):
        card = names.get(seen.get(value, ""), seen.get(value, "")) if value >= 0 else ""
        if kind == PLAY:
            label = _("Play %(card)s") % {"card": card}
        elif kind == PLAY_PASS:
            if state.setup.play[value] is None:
                label = _("Play %(card)s") % {"card": card}
            else:
                label = _("Play %(card)s without its effect") % {"card": card}
        elif kind == USE:
            label = _("Use %(card)s") % {"card": card}
        elif kind == END_COMBO:
            label = _("End the Combo")
        elif kind == RECRUIT:
            cost = state.setup.cost[value]
            label = _("Recruit %(card)s (cost %(cost)s)") % {"card": card, "cost": cost}
        elif kind == END_TURN:
            label = _("End the turn")
        elif kind == PICK_CARD:
            label = card or _("a card")
        elif kind == YES:
            label = _("Yes")
        elif kind == NO:
            label = _("No")
        elif kind == CHOOSE:
            label = _("Option %(number)s") % {"number": value + 1}
        elif kind == ANNOUNCE_CLANS:
            clans = [str(chaos_text.CLANS[clan]) for clan in CLANS if CLAN_BITS[clan] & value]
            label = _("Announce %(clans)s") % {"clans": ", ".join(clans)}
        elif kind == REACTION:
            label = _("Apply the reaction of %(card)s first") % {"card": card}
        else:  # pragma: no cover - every kind of the engine is above
            label = str(kind)
        buttons.append({"kind": kind, "value": value, "label": label})
    return buttons


def chaos_board(table: ChaosTable, seat: ChaosSeat | None) -> dict[str, Any]:
    """What `seat` (None: a spectator) sees of the table, ready for the page: the view of
    `engine.chaos.seat_view` with translated names, its events as text, its buttons."""
    names = chaos_names(set_code=table.set_code)
    seats = list(table.seats.all())
    labels = [chaos_seat_label(other) for other in seats]
    if table.status == Status.WAITING:
        return {"labels": labels, "waiting": True}
    index = SPECTATOR if seat is None else seat.index
    state = chaos_state(table)
    view = seat_view(state, index)
    seen = visible_ids(view)
    players = []
    for letter, other in zip(SEATS, seats, strict=True):
        data = view["players"][letter]
        players.append(
            {
                "letter": letter,
                "label": labels[other.index],
                "me": other.index == index,
                "active": view["active"] == letter and state.phase != OVER,
                "hand_count": data["hand_count"],
                "hand": None if data["hand"] is None else zone_view(data["hand"], names),
                "deck_count": data["deck_count"],
                "played": zone_view(data["played"], names),
                "recruited": zone_view(data["recruited"], names),
                "discard": zone_view(data["discard"], names),
                "resources": data["resources"],
                "awakened": data["awakened"],
            }
        )
    decision = view["decision"]
    deciding = None
    if decision is not None:
        deciding = {
            "letter": decision["seat"],
            "label": labels[SEATS.index(decision["seat"])],
            "reason": str(chaos_text.REASONS.get(decision["reason"], decision["reason"])),
            "source": None if decision["source"] is None else card_view(decision["source"], names),
            "interrupting": decision["seat"] != view["active"],
        }
    events = [
        chaos_text.event_text(event["code"], event["args"], named(names))
        for event in seat_events(state, index)
    ]
    return {
        "labels": labels,
        "waiting": False,
        "over": state.phase == OVER,
        "seat": view["seat"],
        "turn": view["turn"],
        "phase": view["phase"],
        "phase_label": str(chaos_text.PHASES.get(view["phase"], view["phase"])),
        "players": players,
        "domain": [zone_view(slot[-1:], names) for slot in view["domain"]],
        "covered": [len(slot) > 1 for slot in view["domain"]],
        "pile_count": view["pile_count"],
        "interventions": zone_view(view["interventions"], names),
        "void": zone_view(view["void"], names),
        "revealed": zone_view(view["revealed"], names),
        "decision": deciding,
        "buttons": _choices(state, index, seen, names) if seat is not None else [],
        "events": events,
        "winner": view["winner"],
        "winner_label": labels[SEATS.index(view["winner"])] if view["winner"] else "",
    }


def chaos_replay(table: ChaosTable, query: Mapping[str, str], here: str) -> dict[str, Any]:
    """The replay viewer of a finished table (`engine.display.chaos_display.replay_context`) at
    the step and from the seat `query` asks for."""
    return replay_context(
        query,
        box=chaos_box(table.cards, table.set_code),
        seed=table.seed,
        options=chaos_options(),
        actions=chaos_actions(table),
        labels=[chaos_seat_label(seat) for seat in table.seats.all()],
        names=chaos_names(set_code=table.set_code),
        here=here,
    )


def chaos_tables_of(user: User) -> list[ChaosTable]:
    """The Duel of Chaos tables where `user` holds a seat, latest first (the lobby lists them)."""
    return list(_with_seats(ChaosTable.objects.filter(seats__user=user).distinct())[:50])
