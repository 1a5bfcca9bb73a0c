"""Duel of Chaos test batches: created on a catalogue set, played from their seed, their results
shown; a set that cannot be played is refused naming the field."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from cod_site.errors import DomainError
from engine import chaos_services
from engine.adapters.chaos import chaos_box
from engine.chaos.batch import play_batch
from engine.chaos.cards import example_box
from engine.models import ChaosBatch

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]


@pytest.fixture
def user() -> User:
    return User.objects.create_user("tester", password="pw")


def test_a_batch_plays_the_games_of_its_seed(user: User) -> None:
    batch = chaos_services.chaos_batch_create(
        requested_by=user, set_code="EX", agent_a="greedy", agent_b="random", games=40, seed=7
    )
    assert batch.status == "queued"
    assert len(batch.cards) == 25
    done = chaos_services.chaos_batch_run(batch_id=batch.pk)
    assert done.status == "done"
    # The pure engine's batch of that seed: the catalogue's set EX is the example set.
    expected = play_batch(example_box(), ["greedy", "random"], 40, 7).to_json()
    assert done.totals == expected
    assert done.totals["wins"] == [40, 0]
    # A second run leaves a finished batch as it is.
    assert chaos_services.chaos_batch_run(batch_id=batch.pk).totals == expected


@pytest.mark.parametrize(
    ("arguments", "code", "details"),
    [
        ({"set_code": "DOC"}, "set_not_playable", {"set_code": "DOC"}),
        ({"set_code": "ZZ"}, "unknown_set", {"set_code": "ZZ"}),
        ({"agent_b": "chess"}, "unknown_agent", {"agent_b": "chess"}),
        ({"agent_b": "search", "games": 121}, "too_many_games", {"games": 121, "most": 120}),
    ],
)
def test_refusals_name_the_field(
    user: User, arguments: dict[str, object], code: str, details: dict[str, object]
) -> None:
    values = {"set_code": "EX", "agent_a": "greedy", "agent_b": "random", "games": 10, **arguments}
    with pytest.raises(DomainError) as caught:
        chaos_services.chaos_batch_create(requested_by=user, **values)  # type: ignore[arg-type]
    assert (caught.value.code, caught.value.details) == (code, details)
    assert ChaosBatch.objects.count() == 0


def test_the_rulebook_set_is_refused_for_its_incomplete_cards(user: User) -> None:
    with pytest.raises(DomainError) as caught:
        chaos_services.chaos_batch_create(
            requested_by=user, set_code="DOC", agent_a="greedy", agent_b="greedy", games=1
        )
    assert "'Domania' is incomplete" in caught.value.message


def test_the_pages(
    user: User, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: object
) -> None:
    monkeypatch.setattr(
        chaos_services,
        "_chaos_dispatch",
        lambda batch_id: chaos_services.chaos_batch_run(batch_id=batch_id),
    )
    client = Client()
    client.force_login(user)
    page = client.get("/simulations/chaos/")
    assert page.status_code == 200
    assert (
        '<option value="EX">EX Example set (written for this site)</option>'
        in page.content.decode()
    )
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        response = client.post(
            "/simulations/chaos/",
            {"set_code": "EX", "agent_a": "greedy", "agent_b": "random", "games": "30"},
        )
    batch = ChaosBatch.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/simulations/chaos/{batch.pk}/"
    html = client.get(response["Location"]).content.decode()
    rows = re.findall(r"<tr><th scope=\"row\">([AB])</th><td>([^<]+)</td><td>(\d+)</td>", html)
    # The seed is drawn when the batch is asked for (greedy does not beat random every time).
    box = chaos_box(batch.cards, batch.set_code)
    totals = play_batch(box, ["greedy", "random"], 30, batch.seed)
    assert totals.games == 30
    assert rows == [
        ("A", "Greedy (fast)", str(totals.wins[0])),
        ("B", "Random (weakest)", str(totals.wins[1])),
    ]
    refused = client.post(
        "/simulations/chaos/",
        {"set_code": "DOC", "agent_a": "greedy", "agent_b": "random", "games": "3"},
    )
    assert refused.status_code == 400
    assert "This set cannot be played yet" in refused.content.decode()
    other = User.objects.create_user("other", password="pw")
    client.force_login(other)
    assert client.get(f"/simulations/chaos/{batch.pk}/").status_code == 404
