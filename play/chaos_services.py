"""Writes of Duel of Chaos tables: open one, join it, act at it.

The computer seat does not answer inside the request that gave it the decision (also a reaction
in the other player's turn): the search agent's answer takes up to a quarter of a second, work
the house rule sends to a task. The request commits the
person's action and sends `CHAOS_AGENT_TASK` (`cod_site.background.task_send`); the task plays
the computer's decisions until the person decides again, and the table's live streams hear of
it once committed (`cod_site.broadcast`), as of every change. The seed comes from the operating
system's secure source; every write locks the table's row.
"""

import secrets
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from cod_site.background import task_send
from cod_site.broadcast import publish
from cod_site.errors import DomainError
from engine.adapters.play import chaos_box, chaos_set_resolve
from engine.chaos import RULES_VERSION, ChaosState, IllegalAction, apply, seat_view
from engine.chaos.agents import AGENTS
from engine.chaos.events import SEATS
from engine.chaos.replay import readable, record
from engine.chaos.state import OVER
from engine.display import chaos_text
from play.chaos_selectors import chaos_actions, chaos_options, chaos_state, visible_ids
from play.models import ChaosAgent, ChaosSeat, ChaosTable, SeatKind, Status
from play.seeds import derived_seed, new_seed
from play.selectors import code_matches, token_hash
from play.table_services import open_seat_take

# The example set written for this site: the published cards' texts are not in the catalogue.
DEFAULT_SET = "EX"

# The computer seat's decisions (play.tasks.chaos_agent_play).
CHAOS_AGENT_TASK = "play.chaos_agent_play"
# The beat's sweep of computer decisions whose task was lost (play.tasks.resend_chaos_agents).
RESEND_CHAOS_AGENTS_TASK = "play.resend_chaos_agents"
# A computer's decisions take seconds: a table that waited on it longer lost its task.
CHAOS_AGENT_IDLE = timedelta(minutes=1)


def stream_key(uid: str) -> str:
    """The broadcast key of a table's news (apart from Clash tables' uids)."""
    return f"chaos-{uid}"


def chaos_table_create(
    *,
    creator: User,
    opponent: str,
    agent: str = ChaosAgent.SEARCH,
    set_code: str = DEFAULT_SET,
) -> ChaosTable:
    """A new Duel of Chaos table: the creator at seat A, at seat B a computer player (`opponent`
    "agent", with `agent`, by default the strongest) or a friend who joins with the invite link
    (`opponent` "invite"). The seed is drawn by the server. 400s: `wrong_seats`,
    `unknown_agent`, and the set's `unknown_set`, `set_not_playable`
    (`engine.adapters.chaos.chaos_set_resolve`, as a test batch's)."""
    if opponent not in ("agent", "invite"):
        raise DomainError(
            "wrong_seats",
            _("A Duel of Chaos seats you and either an invited player or a computer player."),
            {"opponent": opponent},
        )
    if opponent == "agent" and agent not in ChaosAgent.values:
        raise DomainError(
            "unknown_agent",
            _("Unknown computer player."),
            {"agent": agent, "choices": list(ChaosAgent.values)},
        )
    cards = chaos_set_resolve(set_code=set_code)
    with transaction.atomic():
        table = ChaosTable.objects.create(
            created_by=creator,
            set_code=set_code,
            cards=cards,
            seed=new_seed(),
            rules_version=RULES_VERSION,
        )
        ChaosSeat.objects.create(table=table, index=0, kind=SeatKind.PLAYER, user=creator)
        ChaosSeat.objects.create(
            table=table,
            index=1,
            kind=SeatKind.AGENT if opponent == "agent" else SeatKind.PLAYER,
            agent=agent if opponent == "agent" else "",
        )
        if opponent == "agent":
            _start(table)
    return table


def chaos_table_join(
    *, table: ChaosTable, invite_code: str, user: User | AnonymousUser, guest_name: str
) -> tuple[ChaosSeat, str]:
    """Take the open seat with the invite link's code: an account, or a guest by name who gets
    a seat token (returned once, only its hash is kept). The game starts. 403 `bad_invite`,
    409 `already_seated`, `table_full`, 400 `guest_name_required`."""
    with transaction.atomic():
        table = ChaosTable.objects.select_for_update().get(pk=table.pk)
        if not code_matches(invite_code, table.invite_code):
            raise DomainError(
                "bad_invite", _("This invitation link is not valid."), {}, status_code=403
            )
        seat = open_seat_take(list(table.seats.select_for_update()), user, table.status)
        token = ""
        if isinstance(user, User):
            seat.user = user
        else:
            name = guest_name.strip()
            if not name:
                raise DomainError("guest_name_required", _("Give a name to play as a guest."), {})
            token = secrets.token_urlsafe(24)
            seat.guest_name = name[:40]
            seat.token_hash = token_hash(token)
        seat.save()
        _start(table)
    return seat, token


def _start(table: ChaosTable) -> None:
    table.status = Status.PLAYING
    state = chaos_state(table)
    _save(table, state)
    _agent_send(table, state)


def _agents(table: ChaosTable) -> dict[int, str]:
    return {seat.index: seat.agent for seat in table.seats.all() if seat.kind == SeatKind.AGENT}


def _agent_send(table: ChaosTable, state: ChaosState) -> None:
    """The computer seat has the decision: its task, sent once the transaction commits."""
    if state.phase != OVER and state.to_move in _agents(table):
        task_send(CHAOS_AGENT_TASK, table_id=table.pk)


def chaos_table_agent_play(*, table_id: int) -> ChaosTable | None:
    """The computer seat's decisions while it has the decision (its turn, or a reaction in the
    other's turn), saved and announced at once: the task the person's action sent. Nothing to
    do (a second delivery of the task, a deleted table) is no error."""
    with transaction.atomic():
        table = ChaosTable.objects.select_for_update().filter(pk=table_id).first()
        if table is None or table.status != Status.PLAYING:
            return table
        state = chaos_state(table)
        if _play_agents(table, state):
            _save(table, state)
    return table


def chaos_agent_turns_resend(
    *, idle_for: timedelta = CHAOS_AGENT_IDLE, now: datetime | None = None
) -> int:
    """The beat's sweep: the tables whose computer seat has had the decision for `idle_for`
    without playing (its task lost: a worker died, the broker restarted) get its task again;
    their count. A task sent twice plays once (`chaos_table_agent_play`)."""
    since = (now or timezone.now()) - idle_for
    waiting = ChaosTable.objects.filter(
        status=Status.PLAYING,
        updated_at__lt=since,
        seats__kind=SeatKind.AGENT,
        seats__index=F("to_move"),
    )
    tables = list(waiting.values_list("pk", flat=True).distinct())
    for table_id in tables:
        task_send(CHAOS_AGENT_TASK, table_id=table_id)
    return len(tables)


def _play_agents(table: ChaosTable, state: ChaosState) -> int:
    """Let the computer seat decide while it has the decision; the count of its actions. One
    agent per call, seeded from the table's seed and the action index (a keyed hash: its
    choices tell nothing of the seed)."""
    agents = _agents(table)
    playing: dict[int, Any] = {}
    played = 0
    while state.phase != OVER and state.to_move in agents:
        seat = state.to_move
        if seat not in playing:
            playing[seat] = AGENTS[agents[seat]](
                derived_seed(table.seed, "agent", len(table.actions))
            )
        kind, value = playing[seat].choose(state)
        apply(state, (kind, value))
        table.actions.append(
            {"seat": seat, "kind": kind, "value": value, "client": f"agent-{len(table.actions)}"}
        )
        played += 1
    return played


def _save(table: ChaosTable, state: ChaosState) -> None:
    table.action_count = len(table.actions)
    table.turn = state.turn
    table.to_move = None if state.phase == OVER else state.to_move
    if state.phase == OVER:
        table.status = Status.FINISHED
        table.winner = "" if state.winner is None else SEATS[state.winner]
        box = chaos_box(table.cards, table.set_code)
        shown = readable(chaos_state(table, 0), chaos_actions(table))
        table.replay = record(box, table.seed, chaos_options(), shown)
    table.save()
    message = {"action_count": table.action_count, "pick_count": 0, "status": table.status}
    key = stream_key(table.uid)
    transaction.on_commit(lambda: publish(key, message))


def chaos_table_act(
    *, table: ChaosTable, seat: ChaosSeat, client_id: str, kind: int, value: int
) -> ChaosTable:
    """Play one action for `seat`; if the computer seat decides next, its task is sent (it
    answers after this returns). The same `client_id` twice from a seat plays once. 409
    `not_started`, `game_over`, `not_your_decision`; 400 `illegal_action` (`details.refusal`,
    `rule_id`), naming only cards the seat may see."""
    with transaction.atomic():
        table = ChaosTable.objects.select_for_update().get(pk=table.pk)
        if any(row["seat"] == seat.index and row["client"] == client_id for row in table.actions):
            return table
        if table.status == Status.WAITING:
            raise DomainError(
                "not_started", _("The game has not started yet."), {}, status_code=409
            )
        if table.status == Status.FINISHED:
            raise DomainError("game_over", _("The game is over."), {}, status_code=409)
        state = chaos_state(table)
        if state.to_move != seat.index:
            raise DomainError(
                "not_your_decision",
                _("It is not your decision."),
                {"to_move": SEATS[state.to_move]},
                status_code=409,
            )
        try:
            apply(state, (kind, value), seat.index)
        except IllegalAction as error:
            raise _refused(state, seat.index, error) from error
        table.actions.append(
            {"seat": seat.index, "kind": kind, "value": value, "client": client_id}
        )
        _save(table, state)
        _agent_send(table, state)
    return table


def _refused(state: ChaosState, seat: int, error: IllegalAction) -> DomainError:
    """The refusal as `seat` may read it: a card it may not see is "a card" (its id and name are
    left out of the details too)."""
    seen = visible_ids(seat_view(state, seat))
    names = state.setup.names

    def name_of(card: int) -> str | None:
        return names[card] if card in seen else None

    arguments: dict[str, Any] = {}
    for key, value in error.arguments:
        if key in ("expected", "player") and type(value) is int:
            arguments[key] = SEATS[value]
        elif key == "card" and type(value) is int:
            arguments[key] = value if value in seen else None
        else:
            arguments[key] = value
    # The template gets the card id (named by `name_of` only if seen), the rest as shown.
    shown = {**arguments, **{key: value for key, value in error.arguments if key == "card"}}
    reason = chaos_text.refusal_text(error.code, shown, name_of)
    return DomainError(
        "illegal_action",
        _("Illegal action: %(reason)s") % {"reason": reason},
        {"refusal": error.code, "rule_id": error.rule_id, **arguments},
    )
