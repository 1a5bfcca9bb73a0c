"""A finished table's replay page: the test games' replay viewer on the table's stored actions,
for its players and whoever could watch it, never before the end."""

import random
from dataclasses import replace
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.test import Client
from rest_framework.test import APIClient

from engine.simulation import players_view
from play.models import Game
from play.position_selectors import game_frames, game_state

pytestmark = pytest.mark.django_db

ME = {"kind": "me", "deck": {"preconstructed": 1}}
GREEDY = {"kind": "agent", "agent": "greedy", "deck": {"preconstructed": 2}}


def _played(olga_api: APIClient, mode: str, others: list[dict[str, Any]], **extra: Any) -> Game:
    """A table of `mode` played to its end by Olga's random (seeded) legal actions."""
    body = {"mode": mode, "format": "preconstructed", "seats": [ME, *others], "seed": 8, **extra}
    uid = olga_api.post("/api/v1/games/", body, format="json").json()["id"]
    rng = random.Random(8)
    for step in range(2000):
        view = olga_api.get(f"/api/v1/games/{uid}/").json()
        if view["status"] == "finished":
            break
        action = rng.choice(view["state"]["legal_actions"])
        acted = olga_api.post(
            f"/api/v1/games/{uid}/act/", {"client_id": f"r{step}", **action}, format="json"
        )
        assert acted.status_code == 200
    return Game.objects.get(uid=uid)


def _page(owner: Any) -> Client:
    client = Client()
    client.force_login(owner)
    return client


@pytest.mark.parametrize(
    ("mode", "others", "extra", "winners", "turns"),
    [
        ("duel", [GREEDY], {"exhaustion": True}, ["A"], 15),
        ("solo", [], {"ai_level": 1}, ["B"], 9),
    ],
)
def test_a_finished_game_replays_from_turn_1_to_the_position_the_table_ends_on(
    olga_api: APIClient,
    owner: Any,
    mode: str,
    others: list[dict[str, Any]],
    extra: dict[str, Any],
    winners: list[str],
    turns: int,
) -> None:
    game = _played(olga_api, mode, others, **extra)
    assert (game.status, game.winners) == ("finished", [ord(w) - ord("A") for w in winners])
    frames = game_frames(game).frames
    # The last frame is the position the finished table shows, every seat as the board draws it.
    assert frames[-1].players == players_view(game_state(game))
    assert (len(frames), frames[0].turn) == (turns, 1)
    page = _page(owner)
    table = page.get(f"/play/{game.uid}/").content.decode()
    assert f'<a class="button" href="/play/{game.uid}/replay/">Watch the replay</a>' in table
    assert f'<a href="/api/v1/games/{game.uid}/replay/">replay file (JSON)</a>' in table
    first = page.get(f"/play/{game.uid}/replay/")
    assert first.status_code == 200
    html = first.content.decode()
    assert f"Game over: {', '.join(winners)} wins." in html
    assert f"Turn 1 <small>(1/{turns})</small>" in html
    assert f'href="/play/{game.uid}/replay/?turn=1&amp;step=1"' in html
    end = page.get(f"/play/{game.uid}/replay/?turn={turns}").content.decode()
    assert f"End of the game <small>({turns}/{turns})</small>" in end
    for seat in frames[-1].players.seats:
        assert f'data-hp="{seat.hit_points}"' in end and f'data-hp="{seat.hit_points}"' in table


@pytest.mark.parametrize(
    ("mode", "others", "extra", "turns"),
    [("duel", [GREEDY], {"exhaustion": True}, 15), ("solo", [], {"ai_level": 1}, 9)],
)
def test_the_table_and_its_replay_draw_the_same_board_of_the_same_position(
    olga_api: APIClient, mode: str, others: list[dict[str, Any]], extra: dict[str, Any], turns: int
) -> None:
    """One board (engine.display.board, engine/board.html): the finished table as a spectator
    sees it (every hand shown at the end) and its replay's last position are the same board,
    drawn by the same template; only the page's heading level and the table's forms differ."""
    game = _played(olga_api, mode, others, **extra)
    watch = f"/play/{game.uid}/watch/{game.spectate_code}/"
    table = Client().get(watch).context["board"]
    replay = Client().get(f"{watch}replay/?turn={turns}").context["board"]
    assert (table.heading, replay.heading, replay.controls) == (2, 3, None)
    assert replace(table, heading=3, controls=None) == replay
    assert render_to_string("engine/board.html", {"board": replay}) == render_to_string(
        "engine/board.html", {"board": replace(table, heading=3, controls=None)}
    )
    assert all(slot.card or slot.stronghold for seat in replay.seats for slot in seat.hand)


def test_the_replay_page_steps_through_a_turn(olga_api: APIClient, owner: Any) -> None:
    game = _played(olga_api, "duel", [GREEDY], exhaustion=True)
    frames = game_frames(game).frames
    html = _page(owner).get(f"/play/{game.uid}/replay/?turn=2&step=1").content.decode()
    actions = len(frames[1].actions)
    assert f"after action 1 of {actions}" in html
    here = f"/play/{game.uid}/replay/"
    assert f'href="{here}?turn=2"' in html  # the step before: the turn's start
    assert f'href="{here}?turn=2&amp;step=2"' in html
    assert f'href="{here}?turn=1"' in html  # the turn before
    assert f'href="{here}?turn=3"' in html


def test_no_replay_page_before_the_end_nor_for_a_stranger_without_the_code(
    olga_api: APIClient, owner: Any, other: Any
) -> None:
    body = {"format": "preconstructed", "seats": [ME, GREEDY], "seed": 8}
    playing = olga_api.post("/api/v1/games/", body, format="json").json()
    assert _page(owner).get(f"/play/{playing['id']}/replay/").status_code == 404
    game = _played(olga_api, "duel", [GREEDY], exhaustion=True)
    assert not game.listed
    stranger = _page(other)
    assert stranger.get(f"/play/{game.uid}/replay/").status_code == 404
    assert stranger.get(f"/play/{game.uid}/watch/wrong/replay/").status_code == 404
    watched = stranger.get(f"/play/{game.uid}/watch/{game.spectate_code}/replay/")
    assert watched.status_code == 200
    assert f'href="/play/{game.uid}/watch/{game.spectate_code}/replay/?turn=2"' in (
        watched.content.decode()
    )
    Game.objects.filter(pk=game.pk).update(listed=True)
    assert stranger.get(f"/play/{game.uid}/replay/").status_code == 200
