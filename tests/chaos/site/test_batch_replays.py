"""The games of a Duel of Chaos test batch, replayed: each game is played again from the batch's
seed by its AIs (games are not stored) and ends as the batch counted it; the batch page links
its games worth watching and any game by number to the replay viewer (the one of Play's finished
tables), the API gives a game's replay, and a batch of another engine is not replayed."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.contrib.auth.models import User
from django.test import Client

from engine import chaos_selectors, chaos_services
from engine.chaos.batch import BatchTotals
from engine.chaos.replay import replay
from engine.models import ChaosBatch

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]

GAMES = 12


@pytest.fixture
def user() -> User:
    return User.objects.create_user("tester", password="pw")


@pytest.fixture
def batch(user: User) -> ChaosBatch:
    created = chaos_services.chaos_batch_create(
        requested_by=user, set_code="EX", agent_a="greedy", agent_b="greedy", games=GAMES, seed=7
    )
    return chaos_services.chaos_batch_run(batch_id=created.pk)


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_every_replayed_game_ends_as_the_batch_counted_it(batch: ChaosBatch) -> None:
    totals = BatchTotals.from_json(batch.totals)
    wins = [0, 0]
    turns: Counter[int] = Counter()
    first_player_wins = 0
    ends = {}
    for index in range(GAMES):
        game = chaos_selectors.chaos_batch_game(batch, index)
        assert game.options.first_player == index % 2
        if game.winner is not None:
            wins[game.winner] += 1
            first_player_wins += game.winner == game.options.first_player
        turns[game.turns] += 1
        ends[index] = [game.turns, -1 if game.winner is None else game.winner]
        # The engine's replay file of the game plays to the same end.
        data = game.replay()
        final = replay(data)
        assert (final.winner, final.turn) == (game.winner, game.turns)
        assert data["result"] == {
            "winner": None if game.winner is None else "AB"[game.winner],
            "turns": game.turns,
        }
        assert len(data["actions"]) == len(game.actions)
    assert wins == totals.wins
    assert turns == totals.turns
    assert first_player_wins == totals.first_player_wins
    assert totals.unfinished == GAMES - sum(wins)
    # The games worth watching the batch kept are these games.
    for kind, games in totals.notable.items():
        for index, game_turns, winner in games:
            assert ends[index] == [game_turns, winner], kind
    assert [index for index, _turns, _winner in totals.notable["shortest"]] == sorted(
        range(GAMES), key=lambda index: (ends[index][0], index)
    )[:5]


def test_the_batch_page_links_its_games_to_the_replay_viewer(user: User, batch: ChaosBatch) -> None:
    client = _client(user)
    page = client.get(f"/simulations/chaos/{batch.pk}/").content.decode()
    totals = BatchTotals.from_json(batch.totals)
    shortest = totals.notable["shortest"]
    links = re.findall(rf'href="/simulations/chaos/{batch.pk}/games/(\d+)/"', page)
    assert [int(index) for index in links[: len(shortest)]] == [game[0] for game in shortest]
    index, turns, winner = shortest[0]
    assert f"Game {index} · {'AB'[winner]} won in {turns} turns" in page
    assert f'action="/simulations/chaos/{batch.pk}/games/"' in page
    picked = client.get(f"/simulations/chaos/{batch.pk}/games/", {"index": "3"})
    assert picked["Location"] == f"/simulations/chaos/{batch.pk}/games/3/"
    # A number past the batch's games is its last game.
    picked = client.get(f"/simulations/chaos/{batch.pk}/games/", {"index": str(2**70)})
    assert picked["Location"] == f"/simulations/chaos/{batch.pk}/games/{GAMES - 1}/"

    game = chaos_selectors.chaos_batch_game(batch, index)
    replay_url = f"/simulations/chaos/{batch.pk}/games/{index}/"
    html = client.get(replay_url, {"as": "A", "step": "2"}).content.decode()
    assert f"Game {index} of Duel of Chaos batch #{batch.pk}" in html
    assert f"Seat {'AB'[winner]} won in {turns} turns." in html
    assert f"Action 2 of {len(game.actions)} · turn 1 · " in html
    assert '<option value="A" selected>A: AI Greedy (fast)</option>' in html
    assert f'href="{replay_url}?as=A&amp;step=3" rel="next"' in html
    end = client.get(replay_url, {"step": str(len(game.actions))}).content.decode()
    assert f"Action {len(game.actions)} of {len(game.actions)} · turn {turns} · " in end
    french = client.get(f"/fr{replay_url}").content.decode()
    assert f"Partie {index} de la série Duel of Chaos n°{batch.pk}" in french
    assert f"Le siège {'AB'[winner]} a gagné en {turns} tours." in french
    assert "Vu par" in french
    swedish = client.get(f"/sv{replay_url}").content.decode()
    assert f"Plats {'AB'[winner]} vann på {turns} turer." in swedish
    assert client.get(f"/simulations/chaos/{batch.pk}/games/{GAMES}/").status_code == 404
    stranger = _client(User.objects.create_user("other", password="pw"))
    assert stranger.get(replay_url).status_code == 404


def test_the_api_gives_a_games_replay(user: User, batch: ChaosBatch) -> None:
    client = _client(user)
    game = chaos_selectors.chaos_batch_game(batch, 5)
    url = f"/api/v1/simulations/chaos/{batch.pk}/games/5/replay/"
    body = client.get(url).json()
    assert {key: body[key] for key in ("index", "first", "winner", "turns", "agents")} == {
        "index": 5,
        "first": "B",
        "winner": None if game.winner is None else "AB"[game.winner],
        "turns": game.turns,
        "agents": {"A": "greedy", "B": "greedy"},
    }
    assert body["page_url"] == f"/simulations/chaos/{batch.pk}/games/5/"
    assert body["replay"] == game.replay()
    assert body["replay"]["seed"] == 7 * 1_000_003 + 5
    missing = client.get(f"/api/v1/simulations/chaos/{batch.pk}/games/{GAMES}/replay/")
    assert missing.status_code == 404
    assert missing.json() == {
        "code": "unknown_game",
        "message": f"This batch has games 0 to {GAMES - 1}.",
        "details": {"index": GAMES, "games": GAMES},
    }
    schema = client.get("/api/v1/schema/?format=json").json()
    operation = schema["paths"]["/api/v1/simulations/chaos/{batch_id}/games/{index}/replay/"]
    assert set(operation["get"]["responses"]) >= {"200", "404", "409"}


def test_a_batch_of_another_engine_or_not_played_is_not_replayed(
    user: User, batch: ChaosBatch
) -> None:
    client = _client(user)
    ChaosBatch.objects.filter(pk=batch.pk).update(engine_digest="an older engine")
    page = client.get(f"/simulations/chaos/{batch.pk}/").content.decode()
    assert "their replays are not available" in page
    assert f"/simulations/chaos/{batch.pk}/games/0/" not in page
    refused = client.get(f"/simulations/chaos/{batch.pk}/games/0/")
    assert refused.status_code == 409
    assert "played by another version of the rules engine" in refused.content.decode()
    answer = client.get(f"/api/v1/simulations/chaos/{batch.pk}/games/0/replay/")
    assert (answer.status_code, answer.json()["code"]) == (409, "engine_changed")
    queued = chaos_services.chaos_batch_create(
        requested_by=user, set_code="EX", agent_a="greedy", agent_b="greedy", games=2, seed=1
    )
    answer = client.get(f"/api/v1/simulations/chaos/{queued.pk}/games/0/replay/")
    assert answer.json() == {
        "code": "not_played",
        "message": "The games of this test batch are not played yet.",
        "details": {"batch": queued.pk, "status": "queued"},
    }
