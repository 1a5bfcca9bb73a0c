"""Duel of Chaos tables: opened against the computer or a friend, played through the services and
the pages, refused with what the seat may see, and never showing what a seat may not see (the
other hand, the deck order, the seed) in any answer for it. The computer decides in a task, after
the person's request answered (most tests run its task at once: `chaos_computer_inline`)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from celery import current_app
from django.contrib.auth.models import User
from django.http import StreamingHttpResponse
from django.test import Client
from django.utils import timezone, translation

from cards.chaos_selectors import chaos_names
from cod_site.errors import DomainError
from engine.chaos import legal_actions, seat_events
from engine.chaos.actions import NO, PLAY, PLAY_PASS
from engine.chaos.agents import GreedyAgent
from engine.chaos.replay import replay
from engine.chaos.state import OVER
from engine.chaos.view import card_json
from engine.display.chaos_text import event_text
from play import chaos_services as services
from play.chaos_selectors import chaos_board, chaos_replay, chaos_state
from play.models import ChaosTable, Status
from tests.play.conftest import LASTING

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("chaos_computer_inline")]


@pytest.fixture
def olga(cards_db: None) -> User:
    return User.objects.create_user("olga", password="pw")


@pytest.fixture
def piet(cards_db: None) -> User:
    return User.objects.create_user("piet", password="pw")


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _play_out(table: ChaosTable, seats: dict[int, Any]) -> ChaosTable:
    """Both players play greedy moves through the service until the game ends."""
    agent = GreedyAgent()
    for _ in range(5000):
        table.refresh_from_db()
        if table.status == Status.FINISHED:
            return table
        state = chaos_state(table)
        kind, value = agent.choose(state)
        services.chaos_table_act(
            table=table,
            seat=seats[state.to_move],
            client_id=f"{table.action_count}",
            kind=kind,
            value=value,
        )
    raise AssertionError("the game did not end")


def test_the_act_answers_before_the_computer_plays_and_its_task_brings_its_moves(
    olga: User, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    """The person's act is committed and answered with the computer's decision pending; the
    task then plays the computer's moves, which the table's stream hears of and the board's
    poll shows."""
    sent: list[tuple[str, dict[str, Any]]] = []
    published: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(services, "task_send", lambda name, **kwargs: sent.append((name, kwargs)))
    monkeypatch.setattr(services, "publish", lambda key, message: published.append((key, message)))
    with mock.patch("play.chaos_services.new_seed", return_value=8):
        table = services.chaos_table_create(creator=olga, opponent="agent", agent="greedy")
    task = (services.CHAOS_AGENT_TASK, {"table_id": table.pk})
    # Seed 8 deals the Emissaries 1 to seat A: the person begins, no task yet.
    assert (table.to_move, table.action_count, sent) == (0, 0, [])
    client = _client(olga)
    agent = GreedyAgent()
    acts = 0
    while table.to_move == 0:
        kind, value = agent.choose(chaos_state(table))
        answer = client.post(
            f"/play/chaos/{table.uid}/act/",
            {"kind": kind, "value": value, "client_id": f"c{acts}"},
            HTTP_HX_REQUEST="true",
        )
        acts += 1
        table.refresh_from_db()
    # The act that gave the computer the decision answered with its decision pending.
    assert answer.status_code == 200
    board = answer.content.decode()
    assert f'data-action-count="{acts}"' in board
    assert "Computer (Greedy (fast)) (B) decides" in board
    assert "chaos-buttons" not in board
    assert (table.to_move, table.action_count, table.status) == (1, acts, Status.PLAYING)
    assert [row["seat"] for row in table.actions] == [0] * acts
    assert sent == [task]
    # The board's poll has nothing new until the computer played.
    shown = {"shown": f"{acts}-playing"}
    assert client.get(f"/play/chaos/{table.uid}/board/", shown).status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        current_app.tasks[services.CHAOS_AGENT_TASK](**task[1])
    table.refresh_from_db()
    computer = table.actions[acts:]
    assert computer
    assert {row["seat"] for row in computer} == {1}
    assert [row["client"] for row in computer] == [
        f"agent-{index}" for index in range(acts, table.action_count)
    ]
    assert table.to_move == 0
    message = {"action_count": table.action_count, "pick_count": 0, "status": "playing"}
    assert published == [(f"chaos-{table.uid}", message)]
    polled = client.get(f"/play/chaos/{table.uid}/board/", shown)
    assert polled.status_code == 200
    assert f'data-action-count="{table.action_count}"' in polled.content.decode()
    # A second delivery of the task finds nothing to do.
    with django_capture_on_commit_callbacks(execute=True):
        current_app.tasks[services.CHAOS_AGENT_TASK](**task[1])
    table.refresh_from_db()
    assert (len(table.actions), len(published)) == (acts + len(computer), 1)


# Seed 5 deals the Emissaries 1 to seat B, the computer.
SEED_B_BEGINS = 5


def test_a_computer_dealt_the_emissaries_1_begins_in_its_task(
    olga: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(services, "task_send", lambda name, **kwargs: sent.append((name, kwargs)))
    with mock.patch("play.chaos_services.new_seed", return_value=SEED_B_BEGINS):
        table = services.chaos_table_create(creator=olga, opponent="agent", agent="greedy")
    assert (table.status, table.to_move, table.action_count) == (Status.PLAYING, 1, 0)
    assert sent == [(services.CHAOS_AGENT_TASK, {"table_id": table.pk})]
    current_app.tasks[services.CHAOS_AGENT_TASK](table_id=table.pk)
    table.refresh_from_db()
    assert table.to_move == 0
    assert {row["seat"] for row in table.actions} == {1}


def test_the_beat_sends_a_lost_computer_task_again(
    olga: User, piet: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(services, "task_send", lambda name, **kwargs: sent.append((name, kwargs)))
    with mock.patch("play.chaos_services.new_seed", return_value=SEED_B_BEGINS):
        waiting = services.chaos_table_create(creator=olga, opponent="agent", agent="greedy")
        # The person's decision (seed 8: A begins) and a friend's table wait on no computer.
        services.chaos_table_create(creator=piet, opponent="invite")
    with mock.patch("play.chaos_services.new_seed", return_value=8):
        services.chaos_table_create(creator=piet, opponent="agent", agent="greedy")
    sent.clear()
    # Its task has a minute: not sent again before.
    assert services.chaos_agent_turns_resend() == 0
    later = timezone.now() + timedelta(minutes=2)
    assert services.chaos_agent_turns_resend(now=later) == 1
    assert sent == [(services.CHAOS_AGENT_TASK, {"table_id": waiting.pk})]
    assert current_app.tasks[services.RESEND_CHAOS_AGENTS_TASK]() == 0


def test_a_table_against_the_computer_starts_with_a_server_seed(olga: User) -> None:
    table = services.chaos_table_create(creator=olga, opponent="agent")
    other = services.chaos_table_create(creator=olga, opponent="agent", agent="greedy")
    assert table.status == Status.PLAYING
    assert [seat.kind for seat in table.seats.all()] == ["player", "agent"]
    # The strongest computer player by default.
    assert table.seats.get(index=1).agent == "search"
    assert other.seats.get(index=1).agent == "greedy"
    assert table.seed != other.seed
    assert table.set_code == "EX"
    # The computer's task (run at once here) answered until the player must act.
    table.refresh_from_db()
    state = chaos_state(table)
    assert state.to_move == 0 or state.phase == OVER


def test_an_unknown_agent_or_opponent_is_refused(olga: User) -> None:
    with pytest.raises(DomainError) as refused:
        services.chaos_table_create(creator=olga, opponent="agent", agent="oracle")
    assert refused.value.code == "unknown_agent"
    with pytest.raises(DomainError) as wrong:
        services.chaos_table_create(creator=olga, opponent="nobody")
    assert wrong.value.code == "wrong_seats"


def test_a_friend_joins_by_the_link_and_a_guest_too(olga: User, piet: User) -> None:
    table = services.chaos_table_create(creator=olga, opponent="invite")
    assert table.status == Status.WAITING
    with pytest.raises(DomainError) as bad:
        services.chaos_table_join(table=table, invite_code="nope", user=piet, guest_name="")
    assert bad.value.code == "bad_invite"
    seat, token = services.chaos_table_join(
        table=table, invite_code=table.invite_code, user=piet, guest_name=""
    )
    assert (seat.index, seat.user, token) == (1, piet, "")
    table.refresh_from_db()
    assert table.status == Status.PLAYING
    with pytest.raises(DomainError) as full:
        services.chaos_table_join(
            table=table, invite_code=table.invite_code, user=piet, guest_name=""
        )
    assert full.value.code == "already_seated"

    guest_table = services.chaos_table_create(creator=olga, opponent="invite")
    client = Client()
    page = client.post(
        f"/play/chaos/{guest_table.uid}/join/{guest_table.invite_code}/", {"guest_name": "Ada"}
    )
    assert page.status_code == 302
    assert client.get(f"/play/chaos/{guest_table.uid}/").status_code == 200
    assert guest_table.seats.get(index=1).guest_name == "Ada"


def test_two_friends_play_a_whole_game_and_its_replay_replays_it(olga: User, piet: User) -> None:
    table = services.chaos_table_create(creator=olga, opponent="invite")
    services.chaos_table_join(table=table, invite_code=table.invite_code, user=piet, guest_name="")
    seats = {seat.index: seat for seat in table.seats.all()}
    table = _play_out(table, seats)
    assert table.status == Status.FINISHED
    assert table.replay is not None
    final = replay(table.replay)
    assert final.phase == OVER
    assert table.winner == ("" if final.winner is None else "AB"[final.winner])
    assert table.replay["seed"] == table.seed
    assert len(table.replay["actions"]) == table.action_count
    # The replay page steps through the game as a seat or as the public.
    client = _client(olga)
    first = client.get(f"/play/chaos/{table.uid}/replay/?as=A&step=1")
    assert first.status_code == 200
    assert "Action 1 of" in first.content.decode()
    last = client.get(f"/play/chaos/{table.uid}/replay/?step={table.action_count}")
    assert last.status_code == 200
    assert f"Seed: {table.seed}" in last.content.decode()


def test_an_action_twice_with_one_client_id_plays_once(olga: User, piet: User) -> None:
    table = services.chaos_table_create(creator=olga, opponent="invite")
    services.chaos_table_join(table=table, invite_code=table.invite_code, user=piet, guest_name="")
    state = chaos_state(table)
    seat = table.seats.get(index=state.to_move)
    kind, value = legal_actions(state)[0]
    services.chaos_table_act(table=table, seat=seat, client_id="x", kind=kind, value=value)
    again = services.chaos_table_act(table=table, seat=seat, client_id="x", kind=kind, value=value)
    assert again.action_count == 1


def test_a_refusal_never_names_a_card_of_the_other_hand(olga: User, piet: User) -> None:
    table = services.chaos_table_create(creator=olga, opponent="invite")
    services.chaos_table_join(table=table, invite_code=table.invite_code, user=piet, guest_name="")
    state = chaos_state(table)
    mover = state.to_move
    other = 1 - mover
    hidden = state.players[other].hand[0]
    hidden_name = state.setup.names[hidden]
    seat = table.seats.get(index=mover)
    with pytest.raises(DomainError) as refused:
        services.chaos_table_act(
            table=table, seat=seat, client_id="peek", kind=PLAY_PASS, value=hidden
        )
    assert refused.value.code == "illegal_action"
    assert refused.value.message == "Illegal action: a card is not in your hand."
    assert refused.value.details == {
        "refusal": "not_in_hand",
        "rule_id": "combo",
        "card": None,
    }
    own = state.players[mover].hand[0]
    not_mine = table.seats.get(index=other)
    with pytest.raises(DomainError) as turn:
        services.chaos_table_act(table=table, seat=not_mine, client_id="y", kind=PLAY, value=own)
    assert turn.value.code == "not_your_decision"
    assert hidden_name not in str(turn.value.details)
    with pytest.raises(DomainError) as no:
        services.chaos_table_act(table=table, seat=seat, client_id="z", kind=NO, value=-1)
    assert no.value.code == "illegal_action"


def _ids(node: Any) -> set[int]:
    """Every card id in a board (the page is rendered from it alone)."""
    if isinstance(node, dict):
        found = {node["id"]} if isinstance(node.get("id"), int) else set()
        for value in node.values():
            found |= _ids(value)
        return found
    if isinstance(node, list):
        return {card for value in node for card in _ids(value)}
    return set()


def test_the_page_board_and_stream_hide_the_other_hand_and_the_seed(
    olga: User, piet: User, settings: Any
) -> None:
    settings.PLAY_STREAM_SECONDS = LASTING  # the stream's first update is what is read
    table = services.chaos_table_create(creator=olga, opponent="invite")
    services.chaos_table_join(table=table, invite_code=table.invite_code, user=piet, guest_name="")
    seats = {seat.index: seat for seat in table.seats.all()}
    # A few moves (a whole turn: the log then has draws named to their owner only).
    for move in range(12):
        state = chaos_state(table)
        if state.phase == OVER:
            break
        kind, value = legal_actions(state)[-1]
        table = services.chaos_table_act(
            table=table, seat=seats[state.to_move], client_id=f"m{move}", kind=kind, value=value
        )
    state = chaos_state(table)
    assert state.phase != OVER
    for index, user in ((0, olga), (1, piet)):
        other = state.players[1 - index]
        hidden = {*other.hand, *other.deck, *state.players[index].deck}
        board = chaos_board(table, seats[index])
        assert _ids(board) & hidden == set()
        assert board["players"][1 - index]["hand"] is None
        assert board["players"][1 - index]["hand_count"] == len(other.hand)
        assert board["players"][index]["hand"] == [
            {**card_json(state, card), "label": state.setup.names[card]}
            for card in state.players[index].hand
        ]
        # The other's draws are counted, never named.
        drawn = [line for line in board["events"] if line.startswith("AB"[1 - index] + " draws ")]
        assert drawn and all(
            line == f"{'AB'[1 - index]} draws a card." or "card(s)" in line for line in drawn
        )
        client = _client(user)
        page = client.get(f"/play/chaos/{table.uid}/").content.decode()
        partial = client.get(f"/play/chaos/{table.uid}/board/").content.decode()
        response = client.get(f"/play/chaos/{table.uid}/stream/")
        assert isinstance(response, StreamingHttpResponse)
        chunks = iter(response.streaming_content)
        stream = (next(chunks) + next(chunks)).decode()
        assert stream.endswith(
            f'data: {{"action_count": {table.action_count}, "pick_count": 0, '
            '"status": "playing"}\n\n'
        )
        for text in (page, partial, stream):
            assert str(table.seed) not in text
        # One hand shown: this seat's.
        assert page.count("<h3>Hand</h3>") == 1
        assert partial.count("<h3>Hand</h3>") == 1
    spectator = Client().get(f"/play/chaos/{table.uid}/watch/{table.spectate_code}/")
    assert spectator.status_code == 200
    assert "<h3>Hand</h3>" not in spectator.content.decode()
    assert (
        _ids(chaos_board(table, None))
        & {card for player in state.players for card in (*player.hand, *player.deck)}
        == set()
    )


def test_a_stranger_sees_no_table_and_no_replay(olga: User, piet: User) -> None:
    table = services.chaos_table_create(creator=olga, opponent="agent", agent="random")
    stranger = _client(piet)
    assert stranger.get(f"/play/chaos/{table.uid}/").status_code == 404
    assert stranger.get(f"/play/chaos/{table.uid}/replay/").status_code == 404
    # Before the end, not even the players see the replay (it holds the seed).
    assert _client(olga).get(f"/play/chaos/{table.uid}/replay/").status_code == 404


def test_a_whole_game_against_the_computer_through_the_pages(olga: User) -> None:
    client = _client(olga)
    created = client.post("/play/chaos/new/", {"opponent": "agent:greedy"})
    assert created.status_code == 302
    table = ChaosTable.objects.get()
    assert created["Location"] == f"/play/chaos/{table.uid}/"
    agent = GreedyAgent()
    for _ in range(3000):
        table.refresh_from_db()
        if table.status == Status.FINISHED:
            break
        state = chaos_state(table)
        assert state.to_move == 0
        kind, value = agent.choose(state)
        answer = client.post(
            f"/play/chaos/{table.uid}/act/",
            {"kind": kind, "value": value, "client_id": f"c{table.action_count}"},
        )
        assert answer.status_code == 302
    assert table.status == Status.FINISHED
    page = client.get(f"/play/chaos/{table.uid}/").content.decode()
    assert "Game over" in page
    assert f"/play/chaos/{table.uid}/replay/" in page


def test_the_new_table_page_is_throttled_with_clash_tables(olga: User, monkeypatch: Any) -> None:
    from rest_framework.throttling import SimpleRateThrottle

    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "games", "1/hour")
    client = _client(olga)
    assert client.post("/play/chaos/new/", {"opponent": "agent:random"}).status_code == 302
    refused = client.post("/play/chaos/new/", {"opponent": "agent:random"})
    assert refused.status_code == 429


def test_the_table_speaks_french_and_swedish(olga: User) -> None:
    table = services.chaos_table_create(creator=olga, opponent="agent", agent="greedy")
    client = _client(olga)
    fr = client.get(f"/fr/play/chaos/{table.uid}/").content.decode()
    assert "Duel of Chaos" in fr
    assert "Zone de jeu" in fr
    sv = client.get(f"/sv/play/chaos/{table.uid}/").content.decode()
    assert "Spelzon" in sv


def test_the_lobby_lists_my_duel_of_chaos_tables(olga: User, piet: User) -> None:
    table = services.chaos_table_create(creator=olga, opponent="agent", agent="greedy")
    lobby = _client(olga).get("/play/").content.decode()
    assert 'href="/play/chaos/new/"' in lobby
    assert f'href="/play/chaos/{table.uid}/"' in lobby
    assert f'href="/play/chaos/{table.uid}/"' not in _client(piet).get("/play/").content.decode()


def test_the_replay_shows_each_step_as_the_seat_or_the_public_saw_it(olga: User) -> None:
    table = services.chaos_table_create(creator=olga, opponent="agent", agent="random")
    seats = {seat.index: seat for seat in table.seats.all()}
    table = _play_out(table, seats)
    step = 3
    state = chaos_state(table, step)
    assert state.phase != OVER
    here = f"/play/chaos/{table.uid}/replay/"
    as_a = chaos_replay(table, {"as": "A", "step": str(step)}, here)
    public = chaos_replay(table, {"step": str(step)}, here)
    names = state.setup.names
    assert [card["name"] for card in as_a["shown"]["players"][0]["hand"]] == [
        names[card] for card in state.players[0].hand
    ]
    assert as_a["shown"]["players"][1]["hand"] is None
    assert as_a["shown"]["players"][1]["hand_count"] == len(state.players[1].hand)
    assert [player["hand"] for player in public["shown"]["players"]] == [None, None]
    assert as_a["shown"]["turn"] == state.turn
    assert (as_a["view_as"], public["view_as"]) == ("A", "public")
    assert (as_a["step"], as_a["previous"], as_a["next"]) == (3, 2, 4)
    # The events of that one action, as A saw them.
    shown = chaos_state(table, step - 1)
    assert as_a["events"] == [
        event_text(event["code"], event["args"], lambda name: name)
        for event in seat_events(state, 0, len(shown.log or []))
    ]
    page = _client(olga).get(f"/play/chaos/{table.uid}/replay/?as=B&step={step}")
    assert page.status_code == 200
    assert f"Action {step} of {table.action_count}" in page.content.decode()


def test_card_names_are_the_catalogues_translations(olga: User) -> None:
    table = services.chaos_table_create(creator=olga, opponent="agent", agent="greedy")
    assert chaos_names(set_code=table.set_code, language="fr")["Courier"] == "Messager"
    assert chaos_names(set_code=table.set_code, language="fr")["Seer"] == "Voyant"
    assert chaos_names(set_code=table.set_code, language="sv")["Courier"] == "Budbärare"
    with translation.override("fr"):
        board = chaos_board(table, table.seats.get(index=0))
    labels = {card["name"]: card["label"] for card in board["players"][0]["hand"]}
    assert all(
        label == chaos_names(set_code=table.set_code, language="fr")[name]
        for name, label in labels.items()
    )
    assert board["phase_label"] == "Combo"
    assert any(line.startswith("Mise en place : ") for line in board["events"])
    assert any(line.endswith("est révélée dans le Domaine.") for line in board["events"])
