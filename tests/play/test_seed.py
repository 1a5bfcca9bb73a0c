"""A table's seed decides every hidden card (the deal, the AI's pile, Co-op's split, the Draft's
packs): the server draws it, nothing shows it before the game ends (the replay does), and only
a practice table, where no other person sits, may choose it, which the table then says."""

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from engine.rules.agents import Agent as EngineAgent
from play import services
from play.models import Game, GameAction
from play.seeds import derived_seed

from .conftest import join_as_guest

pytestmark = pytest.mark.django_db

ME = {"kind": "me", "deck": {"preconstructed": 1}}
INVITE = {"kind": "invite"}
RANDOM = {"kind": "agent", "agent": "random"}
NOTE = {
    "": "Practice table: its creator chose the seed that deals every card, so they may know "
    "every hidden card.",
    "/fr": "Table d'entraînement : son créateur a choisi la graine qui distribue chaque "
    "carte ; il peut donc connaître chaque carte cachée.",
    "/sv": "Övningsbord: skaparen valde fröet som delar ut varje kort och kan därför känna till "
    "varje dolt kort.",
}


def _create(client: APIClient, mode: str, seats: list[dict[str, Any]], **extra: Any) -> Any:
    body = {"mode": mode, "format": "preconstructed", "seats": seats, **extra}
    return client.post("/api/v1/games/", body, format="json")


@pytest.mark.parametrize(
    ("mode", "seats"),
    [
        ("duel", [ME, INVITE]),
        ("free_for_all", [ME, RANDOM, INVITE, RANDOM]),
        ("teams", [ME, INVITE, RANDOM, RANDOM]),
        ("coop", [ME, INVITE]),
    ],
)
def test_a_table_with_an_invited_player_may_not_choose_its_seed(
    olga_api: APIClient, mode: str, seats: list[dict[str, Any]]
) -> None:
    # Alice opens a Duel with seed 42 for Bob: the engine run offline would give his hand.
    response = _create(olga_api, mode, seats, seed=42)
    assert response.status_code == 400
    assert response.json() == {
        "code": "seed_not_allowed",
        "message": "Only a table where every other seat is a computer player may choose its "
        "seed: it decides every hidden card.",
        "details": {"field": "seed"},
    }
    assert Game.objects.count() == 0


@pytest.mark.parametrize(
    ("mode", "seats"),
    [("solo", [ME]), ("duel", [ME, RANDOM]), ("free_for_all", [ME, RANDOM, RANDOM, RANDOM])],
)
def test_a_practice_table_may_choose_its_seed_and_says_so(
    olga_api: APIClient, owner: Any, mode: str, seats: list[dict[str, Any]]
) -> None:
    created = _create(olga_api, mode, seats, seed=7)
    assert created.status_code == 201, created.json()
    table = created.json()
    assert table["seed_chosen"] is True
    assert Game.objects.get(uid=table["id"]).seed == 7
    assert olga_api.get(f"/api/v1/games/{table['id']}/").json()["seed_chosen"] is True
    assert olga_api.get("/api/v1/games/").json()["results"][0]["seed_chosen"] is True
    olga = Client()
    olga.force_login(owner)
    for prefix, note in NOTE.items():
        assert note in olga.get(f"{prefix}/play/{table['id']}/").content.decode()


def test_a_drawn_seed_is_no_chosen_one(olga_api: APIClient, owner: Any) -> None:
    table = _create(olga_api, "duel", [ME, RANDOM]).json()
    assert table["seed_chosen"] is False
    assert olga_api.get(f"/api/v1/games/{table['id']}/").json()["seed_chosen"] is False
    olga = Client()
    olga.force_login(owner)
    assert "Practice table" not in olga.get(f"/play/{table['id']}/").content.decode()


def test_the_seed_is_in_no_answer_before_the_end_and_in_the_replay_after(
    olga_api: APIClient, owner: Any
) -> None:
    table = _create(olga_api, "duel", [ME, INVITE], listed=True).json()
    uid = table["id"]
    guest = join_as_guest(uid, table["invite_code"])
    seed = str(Game.objects.get(uid=uid).seed)
    olga = Client()
    olga.force_login(owner)
    answers = [
        str(table),
        olga_api.get(f"/api/v1/games/{uid}/").content,
        olga_api.get(f"/api/v1/games/{uid}/actions/").content,
        olga_api.get("/api/v1/games/").content,
        APIClient().get("/api/v1/games/live/").content,
        guest.get(f"/api/v1/games/{uid}/").content,
        guest.get(f"/api/v1/games/{uid}/replay/").content,
        APIClient().get(table["spectate_url"]).content,
        olga.get(f"/play/{uid}/").content,
        olga.get(f"/play/{uid}/board/").content,
        olga.get(f"/play/{uid}/replay/").content,
        olga.get("/play/").content,
        Client().get(table["watch_url"]).content,
    ]
    for answer in answers:
        assert seed not in str(answer)
    assert guest.get(f"/api/v1/games/{uid}/replay/").status_code == 409
    olga_api.post(f"/api/v1/games/{uid}/concede/")
    assert guest.get(f"/api/v1/games/{uid}/replay/").json()["seed"] == int(seed)


def test_the_computer_players_seeds_tell_nothing_of_the_tables(
    olga_api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An agent's seed was the table's plus its move's index: whoever learnt it from the
    agent's choices had the table's seed, and the deal. Now each is a keyed hash of it."""
    seeds: list[int] = []

    def recorded(name: str, seed: int) -> EngineAgent:
        seeds.append(seed)
        return table_agent(name, seed)

    table_agent = services.table_agent
    monkeypatch.setattr(services, "table_agent", recorded)
    table = _create(olga_api, "free_for_all", [ME, RANDOM, RANDOM, RANDOM], seed=1000).json()
    # Each computer seat that played as the table opened: an agent seeded by its first move.
    first_moves: dict[int, int] = {}
    for seat, index in GameAction.objects.filter(game__uid=table["id"]).values_list(
        "seat", "index"
    ):
        first_moves.setdefault(seat, index)
    assert len(first_moves) == len(seeds) > 0
    assert seeds == [derived_seed(1000, "agent", index) for index in first_moves.values()]
    assert not {seed - 1000 for seed in seeds} & set(range(-10_000, 10_000))
