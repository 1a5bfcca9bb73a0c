"""engine.services: creating a batch, running chunks exactly once, cancelling, failing, limits."""

import hashlib
import json
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.db.models import Sum
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from champions import services as champion_services
from cod_site.errors import DomainError
from decks.models import Deck
from engine import selectors, services, simulation
from engine.adapters.decks import DeckChoice, ResolvedDeck, check_playable
from engine.models import MAX_GAMES, SimulationBatch, SimulationChunk, Status
from engine.rules import native
from engine.rules import replay as replays
from engine.selectors import SeatChoice
from tests.champions.conftest import design
from tests.simulations.conftest import (
    HeldExecutor,
    InlineExecutor,
    as_on_main,
    create_batch,
    run_chunks,
)

pytestmark = pytest.mark.usefixtures("cards_db")

PRECON_2 = SeatChoice(DeckChoice(preconstructed=2))


def _expected_totals(batch: SimulationBatch) -> dict[str, Any]:
    return simulation.play_games(selectors.batch_spec(batch), 0, batch.games).to_json()


def _digest(totals: dict[str, Any]) -> str:
    """The digest of a totals document's counts, as main computed it before the notable games
    were kept (test_simulation checks those against the games)."""
    counts = {key: value for key, value in totals.items() if key != "notable"}
    return hashlib.sha256(json.dumps(counts, sort_keys=True).encode()).hexdigest()


def test_a_batch_runs_all_its_chunks_once(
    owner: Any,
    precon_deck: Deck,
    inline_chunks: InlineExecutor,
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        batch = create_batch(owner, precon_deck, 45)
    batch.refresh_from_db()
    assert batch.chunk_size == 10  # 45 games: at least 20 steps of progress, 10 games at least
    assert inline_chunks.jobs == batch.chunks_total == 5
    assert (batch.status, batch.games_done, batch.chunks_done) == (Status.DONE, 45, 5)
    assert batch.started_at is not None and batch.finished_at is not None
    assert batch.engine_seconds > 0
    assert list(batch.chunks.values_list("index", "first_game", "games")) == [
        (0, 0, 10), (1, 10, 10), (2, 20, 10), (3, 30, 10), (4, 40, 5),
    ]  # fmt: skip
    assert batch.chunks.aggregate(total=Sum("games"))["total"] == 45
    assert batch.totals == _expected_totals(batch)
    # The frozen decks: deck A as saved (English names, catalogue slugs), deck B preconstructed 2.
    seat_a, seat_b = batch.seats.all()
    assert (seat_a.index, seat_a.deck, seat_a.agent) == (0, precon_deck, "greedy")
    assert seat_a.slugs == [entry.card.slug for entry in precon_deck.deck_cards.all()]
    assert "Troll" in {card["name"] for card in seat_a.cards}
    assert {card["name"] for card in seat_b.cards} == {
        "Abomination", "Alpha", "Combustion", "Lieutenant", "Microctopus", "Ogre", "Scribe",
        "Shaman",
    }  # fmt: skip
    assert (seat_a.source, seat_b.source) == ("deck", "preconstructed")
    assert (seat_b.index, seat_b.deck, seat_b.name, seat_b.preconstructed) == (
        1, None, "Preconstructed deck 2", 2,
    )  # fmt: skip
    assert batch.engine_digest == native.engine_digest()


def test_a_duel_batch_totals_are_those_main_counted(
    owner: Any, precon_deck: Deck, constructed_deck: Deck
) -> None:
    """Totals computed on main (34c5d74) before batches had a seat table: the decks as stored,
    the seats, the agents, the seeds and the counts are unchanged (the counts recomputed when
    greedy changed in issue 14)."""
    batch = create_batch(owner, precon_deck, 45, opponent=3, seed=2024)
    run_chunks(batch)
    batch.refresh_from_db()
    assert (batch.totals["wins"], batch.totals["first_wins"]) == ([36, 9], [18, 4])
    assert _digest(as_on_main(batch.totals)) == (
        "d6964bc7cdd996f94386e6a042f551ce1261854ddf61d3cff3d5401e5b0fcc35"
    )
    champion = champion_services.champion_create(owner=owner, design=design())
    Deck.objects.filter(pk=constructed_deck.pk).update(champion=champion)
    batch = create_batch(
        owner, constructed_deck, 30, opponent=4, seed=77, champions=True, exhaustion=True,
        agents=("greedy", "random"),
    )  # fmt: skip
    run_chunks(batch)
    batch.refresh_from_db()
    assert (batch.totals["wins"], batch.totals["first_wins"]) == ([29, 1], [15, 1])
    assert batch.totals["ends"]["empty_hand_bastion"] == 1
    assert _digest(as_on_main(batch.totals)) == (
        "66578bdba3f70e934baf5ad46cb5975b5534dbc3ec86dc4577d661b0bf7f898d"
    )


def _orphan(owner: Any, deck: Deck, capture: Any) -> SimulationBatch:
    """In-process mode: a batch whose server stopped after chunk 0 was written, taking its
    thread pool with it, and the chunk 0 sent to it next (the new process never dispatched it)."""
    with capture(execute=False):
        batch = create_batch(owner, deck, 45)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(services, "background", HeldExecutor())
        services.chunk_run(batch_id=batch.pk, index=0)
    return batch


def _rows(batch: SimulationBatch) -> tuple[Any, ...]:
    return (
        SimulationBatch.objects.filter(pk=batch.pk).values().get(),
        list(SimulationChunk.objects.filter(batch=batch).values()),
    )


def test_looking_at_a_batch_writes_nothing(
    owner: Any,
    precon_deck: Deck,
    inline_chunks: InlineExecutor,
    django_capture_on_commit_callbacks: Any,
    client: Any,
) -> None:
    """Not even for an orphaned batch: resuming it is the pool's sweep's work, not a GET's."""
    batch = _orphan(owner, precon_deck, django_capture_on_commit_callbacks)
    before = _rows(batch)
    client.force_login(owner)
    for url in (
        f"/api/v1/simulations/{batch.pk}/",
        f"/simulations/{batch.pk}/",
        f"/simulations/{batch.pk}/progress/",
        "/api/v1/simulations/",
        "/simulations/",
    ):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        writes = [
            query["sql"] for query in queries if not query["sql"].lstrip().startswith("SELECT")
        ]
        assert writes == [], url
    assert inline_chunks.jobs == 0
    assert _rows(batch) == before


def test_the_pool_s_sweep_resumes_an_orphaned_batch(
    owner: Any,
    precon_deck: Deck,
    inline_chunks: InlineExecutor,
    django_capture_on_commit_callbacks: Any,
) -> None:
    batch = _orphan(owner, precon_deck, django_capture_on_commit_callbacks)
    done = create_batch(owner, precon_deck, 10)
    run_chunks(done)
    assert services.batches_resume_orphaned() == 4
    batch.refresh_from_db()
    assert inline_chunks.jobs == 4
    assert (batch.status, batch.games_done, batch.chunks_done) == (Status.DONE, 45, 5)
    assert batch.totals == _expected_totals(batch)
    # This process runs it now (and a finished batch is nobody's): the next sweep queues nothing.
    another = _orphan(owner, precon_deck, django_capture_on_commit_callbacks)
    assert services.batches_resume_orphaned() == 4
    assert services.batches_resume_orphaned() == 0
    assert inline_chunks.jobs == 8
    another.refresh_from_db()
    assert another.status == Status.DONE


def test_with_a_broker_nothing_is_resumed_by_hand(
    owner: Any, precon_deck: Deck, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Celery redelivers unacknowledged chunks itself (acks_late); lost ones are the beat's."""
    from cod_site.celery import app

    monkeypatch.setitem(app.conf, "task_always_eager", False)
    monkeypatch.setattr("engine.tasks.run_chunk.apply_async", lambda **kwargs: None)
    create_batch(owner, precon_deck, 45)
    assert services.batches_resume_orphaned() == 0


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    """With a broker: the chunk tasks sent, as their [batch id, index] arguments."""
    from cod_site.celery import app

    monkeypatch.setitem(app.conf, "task_always_eager", False)
    tasks: list[list[int]] = []
    monkeypatch.setattr("engine.tasks.run_chunk.apply_async", lambda args: tasks.append(list(args)))
    return tasks


def _idle_since(batch: SimulationBatch, **ago: float) -> None:
    SimulationBatch.objects.filter(pk=batch.pk).update(active_at=timezone.now() - timedelta(**ago))


def test_the_sweep_resends_the_unwritten_chunks_of_an_idle_batch_once_per_idle_time(
    owner: Any, precon_deck: Deck, sent: list[list[int]], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        batch = create_batch(owner, precon_deck, 45)
    assert sent == [[batch.pk, index] for index in range(4)]  # a wave; chunk 0 written sends 4
    for index in (0, 3):
        services.chunk_run(batch_id=batch.pk, index=index)
    sent.clear()
    # A chunk written 59 minutes ago: the broker may still bring back what a dead worker held.
    _idle_since(batch, minutes=59)
    assert services.batch_resend_lost_chunks(idle_for=timedelta(hours=1)) == 0
    _idle_since(batch, minutes=61)
    assert services.batch_resend_lost_chunks(idle_for=timedelta(hours=1)) == 3
    assert sent == [[batch.pk, 1], [batch.pk, 2], [batch.pk, 4]]
    # Sending was a sign of life: the next sweep waits another hour.
    assert services.batch_resend_lost_chunks(idle_for=timedelta(hours=1)) == 0
    assert len(sent) == 3
    batch.refresh_from_db()
    assert timezone.now() - batch.active_at < timedelta(minutes=1)
    # The resent chunks finish the batch, with every game counted once.
    for index in (1, 2, 4, 1):
        services.chunk_run(batch_id=batch.pk, index=index)
    batch.refresh_from_db()
    assert (batch.status, batch.games_done, batch.chunks_done) == (Status.DONE, 45, 5)
    _idle_since(batch, hours=2)
    assert services.batch_resend_lost_chunks(idle_for=timedelta(hours=1)) == 0


def test_the_sweep_resends_a_batch_that_never_started_and_skips_ended_ones(
    owner: Any, precon_deck: Deck, sent: list[list[int]]
) -> None:
    never = create_batch(owner, precon_deck, 20)  # 2 chunks; every message lost
    cancelled = create_batch(owner, precon_deck, 20)
    services.batch_cancel(batch=cancelled, actor=owner)
    fresh = create_batch(owner, precon_deck, 20)
    sent.clear()
    old = timezone.now() - timedelta(hours=2)
    SimulationBatch.objects.exclude(pk=fresh.pk).update(created_at=old)
    assert services.batch_resend_lost_chunks(idle_for=timedelta(hours=1)) == 2
    assert sent == [[never.pk, 0], [never.pk, 1]]


def test_without_a_broker_the_sweep_sends_nothing(
    owner: Any, precon_deck: Deck, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The thread pool's batches are resumed by its own sweep (batches_resume_orphaned)."""
    from cod_site.celery import app

    monkeypatch.setitem(app.conf, "task_always_eager", True)
    batch = create_batch(owner, precon_deck, 20)
    _idle_since(batch, hours=2)
    assert services.batch_resend_lost_chunks(idle_for=timedelta(hours=1)) == 0


def test_running_a_chunk_again_changes_nothing(owner: Any, precon_deck: Deck) -> None:
    batch = create_batch(owner, precon_deck, 30)
    first = services.chunk_run(batch_id=batch.pk, index=1)
    again = services.chunk_run(batch_id=batch.pk, index=1)
    assert first.played and not again.played
    assert again.chunk is not None and again.chunk.pk == first.chunk.pk  # type: ignore[union-attr]
    batch.refresh_from_db()
    assert (batch.status, batch.games_done, batch.chunks_done) == (Status.RUNNING, 10, 1)
    assert SimulationChunk.objects.filter(batch=batch).count() == 1


def test_a_chunk_written_meanwhile_by_another_delivery_counts_once(
    owner: Any, precon_deck: Deck, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two deliveries of one chunk race: both play it, the second write hits the unique
    constraint and is dropped."""
    batch = create_batch(owner, precon_deck, 20)
    real_play = simulation.play_game
    raced = []

    def play_and_race(spec: simulation.BatchSpec, index: int) -> simulation.GameOutcome:
        if not raced:
            raced.append(index)
            monkeypatch.setattr(services.simulation, "play_game", real_play)
            assert services.chunk_run(batch_id=batch.pk, index=0).played
        return real_play(spec, index)

    monkeypatch.setattr(services.simulation, "play_game", play_and_race)
    late = services.chunk_run(batch_id=batch.pk, index=0)
    assert raced == [0]
    assert not late.played
    batch.refresh_from_db()
    assert (batch.games_done, batch.chunks_done) == (10, 1)
    assert SimulationChunk.objects.filter(batch=batch).count() == 1


def test_chunk_sizes_do_not_change_the_totals(owner: Any, precon_deck: Deck) -> None:
    documents = []
    for chunk_size in (7, 25, 60):
        batch = create_batch(owner, precon_deck, 60, chunk_size=chunk_size)
        for index in reversed(range(batch.chunks_total)):
            services.chunk_run(batch_id=batch.pk, index=index)
        batch.refresh_from_db()
        assert (batch.status, batch.games_done) == (Status.DONE, 60)
        documents.append(batch.totals)
        SimulationBatch.objects.filter(pk=batch.pk).delete()  # keep under the batch limit
    assert documents[0] == documents[1] == documents[2]
    assert documents[0]["games"] == 60


def test_cancel_keeps_the_chunks_written_and_skips_the_rest(owner: Any, precon_deck: Deck) -> None:
    batch = create_batch(owner, precon_deck, 30)
    services.chunk_run(batch_id=batch.pk, index=0)
    batch = services.batch_cancel(batch=batch, actor=owner)
    assert batch.status == Status.CANCELLED and batch.finished_at is not None
    assert services.chunk_run(batch_id=batch.pk, index=1).chunk is None
    batch.refresh_from_db()
    assert (batch.games_done, batch.chunks_done) == (10, 1)
    assert batch.totals == simulation.play_games(selectors.batch_spec(batch), 0, 10).to_json()
    # Cancelling again is harmless; a finished batch cannot be cancelled.
    assert services.batch_cancel(batch=batch, actor=owner).status == Status.CANCELLED
    done = create_batch(owner, precon_deck, 10)
    services.chunk_run(batch_id=done.pk, index=0)
    with pytest.raises(DomainError) as refused:
        services.batch_cancel(batch=done, actor=owner)
    assert (refused.value.code, refused.value.status_code) == ("not_cancellable", 409)


def test_a_running_chunk_stops_when_its_batch_is_cancelled(
    owner: Any, precon_deck: Deck, monkeypatch: pytest.MonkeyPatch
) -> None:
    batch = create_batch(owner, precon_deck, 20)
    monkeypatch.setattr(services, "CANCEL_CHECK_SECONDS", 0.0)
    real_play = simulation.play_game
    played = []

    def play_then_cancel(spec: simulation.BatchSpec, index: int) -> simulation.GameOutcome:
        played.append(index)
        if len(played) == 3:
            SimulationBatch.objects.filter(pk=batch.pk).update(status=Status.CANCELLED)
        return real_play(spec, index)

    monkeypatch.setattr(services.simulation, "play_game", play_then_cancel)
    assert services.chunk_run(batch_id=batch.pk, index=0).chunk is None
    assert played == [0, 1, 2]
    assert not SimulationChunk.objects.filter(batch=batch).exists()


def test_a_chunk_is_not_played_by_another_engine(owner: Any, precon_deck: Deck) -> None:
    """A worker whose rules or agents differ from those of the batch (a deployment half done)
    would count other games than the batch's replays show: the batch fails instead."""
    batch = create_batch(owner, precon_deck, 20)
    services.chunk_run(batch_id=batch.pk, index=0)
    SimulationBatch.objects.filter(pk=batch.pk).update(engine_digest="0" * 64)
    assert services.chunk_run(batch_id=batch.pk, index=1).chunk is None
    batch.refresh_from_db()
    assert (batch.status, batch.games_done) == (Status.FAILED, 10)
    assert batch.error == (
        "This worker runs another version of the rules engine or of its AIs than the one that "
        "started the batch: its games would not be the batch's."
    )
    assert list(batch.chunks.values_list("index", flat=True)) == [0]


def test_a_failed_batch_stops(owner: Any, precon_deck: Deck) -> None:
    batch = create_batch(owner, precon_deck, 20)
    services.batch_fail(batch_id=batch.pk, error="TimeLimitExceeded: 330 s")
    batch.refresh_from_db()
    assert (batch.status, batch.error) == (Status.FAILED, "TimeLimitExceeded: 330 s")
    assert services.chunk_run(batch_id=batch.pk, index=0).chunk is None


def test_the_in_process_runner_retries_then_fails_the_batch(
    owner: Any, precon_deck: Deck, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.db import OperationalError

    batch = create_batch(owner, precon_deck, 20)
    calls = []

    def locked(**kwargs: Any) -> None:
        calls.append(kwargs)
        raise OperationalError("database is locked")

    monkeypatch.setattr(services, "chunk_run", locked)
    monkeypatch.setattr(services.time, "sleep", lambda seconds: calls.append(seconds))
    services.chunk_run_in_process(batch_id=batch.pk, index=0)
    delays = [call for call in calls if not isinstance(call, dict)]
    assert delays == [1, 2, 4, 8, 16]
    assert len(calls) - len(delays) == services.MAX_RETRIES + 1
    batch.refresh_from_db()
    assert batch.status == Status.FAILED


def test_with_a_broker_each_chunk_is_one_celery_task_a_wave_at_a_time(
    owner: Any,
    precon_deck: Deck,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    from cod_site.celery import app
    from engine import tasks

    monkeypatch.setitem(app.conf, "task_always_eager", False)
    sent = []
    monkeypatch.setattr(
        tasks.run_chunk, "apply_async", lambda args, **kwargs: sent.append(tuple(args))
    )
    with django_capture_on_commit_callbacks(execute=True):
        batch = create_batch(owner, precon_deck, 1000)
    assert batch.chunk_size == 50
    # 1,000 games: 18 chunks of 50, then the last 100 games in 4 chunks of 25; the first
    # SIMULATION_WAVE are sent, each chunk written sends the next (tests/simulations/test_waves.py).
    assert batch.chunks_total == 22
    assert sent == [(batch.pk, index) for index in range(4)]
    services.chunk_run(batch_id=batch.pk, index=2)
    assert sent == [(batch.pk, index) for index in range(5)]


def test_the_celery_task_runs_a_chunk(owner: Any, precon_deck: Deck) -> None:
    from engine import tasks

    batch = create_batch(owner, precon_deck, 20)
    assert tasks.run_chunk.apply(args=[batch.pk, 1]).get() == 10
    assert tasks.run_chunk.apply(args=[batch.pk, 1]).get() == 0  # written already
    assert tasks.run_chunk.acks_late and tasks.run_chunk.reject_on_worker_lost
    assert (tasks.run_chunk.soft_time_limit, tasks.run_chunk.time_limit) == (300, 330)
    assert tasks.run_chunk.max_retries == 5


def test_the_celery_task_retries_database_errors_then_fails_the_batch(
    owner: Any, precon_deck: Deck, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.db import OperationalError

    from cod_site.celery import app
    from engine import tasks

    batch = create_batch(owner, precon_deck, 20)
    calls = []

    def locked(**kwargs: Any) -> None:
        calls.append(kwargs)
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(services, "chunk_run", locked)
    # Eager retries run at once, one inside the other: let the failures be results, not raised.
    monkeypatch.setitem(app.conf, "task_eager_propagates", False)
    assert tasks.run_chunk.apply(args=[batch.pk, 0]).state == "FAILURE"
    assert len(calls) == 1 + tasks.run_chunk.max_retries
    batch.refresh_from_db()
    assert batch.status == Status.FAILED
    assert batch.error == "OperationalError: server closed the connection unexpectedly"


def test_a_chunk_that_cannot_run_fails_its_batch_at_once(owner: Any, precon_deck: Deck) -> None:
    from engine import tasks

    batch = create_batch(owner, precon_deck, 20)
    assert tasks.run_chunk.apply(args=[batch.pk, 7], throw=False).state == "FAILURE"
    batch.refresh_from_db()
    assert (batch.status, batch.error) == (
        Status.FAILED,
        f"ValueError: batch {batch.pk} has no chunk 7",
    )


def test_chunk_size_follows_the_agents_and_the_batch_size() -> None:
    assert services.chunk_size_for(20_000, ["greedy", "greedy"]) == 1000
    assert services.chunk_size_for(100_000, ["random", "random"]) == 1000
    assert services.chunk_size_for(100_000, ["random", "lookahead"]) == 10
    assert services.chunk_size_for(10_000, ["learned_deep", "learned_deep"]) == 64
    # The largest batch by the default Duel agent: 1,560 chunks of 64 games (~0.5 s of CPU each
    # on the ladder file's figures), then its last 160 games in 5 of 32.
    assert services.chunk_size_for(MAX_GAMES, ["learned_deep", "learned_deep"]) == 64
    assert simulation.chunk_count(MAX_GAMES, 64) == 1565
    assert services.chunk_size_for(2000, ["greedy", "greedy"]) == 100
    assert services.chunk_size_for(5, ["greedy", "greedy"]) == 10


def test_the_champion_module_plays_each_deck_with_its_champion(
    owner: Any, precon_deck: Deck
) -> None:
    champion = champion_services.champion_create(owner=owner, design=design())
    Deck.objects.filter(pk=precon_deck.pk).update(champion=champion)
    batch = create_batch(owner, precon_deck, 20, champions=True)
    assert batch.champions is True
    seat_a, seat_b = batch.seats.all()
    assert seat_a.champion == {
        "name": "Åsa the Bold",
        "type": "champion",
        "cost": 5,
        "attack": 4,
        "hp": 4,
        "abilities": ["splash", "aura:rage"],
        "name_fr": "Åsa l'Intrépide",
    }
    assert seat_b.champion is None  # a preconstructed deck has none
    run_chunks(batch)
    batch.refresh_from_db()
    assert batch.status == Status.DONE
    assert "Åsa the Bold" in batch.totals["cards"][0]
    assert batch.totals == _expected_totals(batch)
    assert selectors.batch_card_names(batch)[0][-1] == "Åsa the Bold"
    game = selectors.batch_game(batch, 1)
    assert game.replay["champions"][1]["name"] == "Åsa the Bold"  # deck A sits in seat B
    assert replays.play(replays.parse(game.replay)).turn == game.outcome.turns
    without = create_batch(owner, precon_deck, 20)
    assert without.seats.get(index=0).champion is None


# Limits -----------------------------------------------------------------------------------------


def test_too_many_batches_at_once(owner: Any, precon_deck: Deck, settings: Any) -> None:
    settings.SIMULATION_MAX_ACTIVE_BATCHES = 2
    first = create_batch(owner, precon_deck, 10)
    create_batch(owner, precon_deck, 10)
    with pytest.raises(DomainError) as refused:
        create_batch(owner, precon_deck, 10)
    assert (refused.value.code, refused.value.status_code) == ("too_many_batches", 429)
    assert refused.value.details == {"limit": 2}
    assert SimulationBatch.objects.filter(requested_by=owner).count() == 2
    services.chunk_run(batch_id=first.pk, index=0)  # done: a place is free again
    create_batch(owner, precon_deck, 10)


def test_games_per_day(owner: Any, other: Any, precon_deck: Deck, settings: Any) -> None:
    settings.SIMULATION_MAX_GAMES_PER_DAY = 100
    create_batch(owner, precon_deck, 60)
    with pytest.raises(DomainError) as refused:
        create_batch(owner, precon_deck, 41)
    assert (refused.value.code, refused.value.status_code) == ("daily_games_limit", 429)
    assert refused.value.details == {"limit": 100, "used": 60, "requested": 41}
    create_batch(owner, precon_deck, 40)
    # Someone else has their own allowance.
    services.batch_create(requested_by=other, seats=[PRECON_2, PRECON_2], games=100, seed=1)


def test_bad_input_queues_nothing(owner: Any, precon_deck: Deck) -> None:
    for games in (0, 100_001, 10**9):
        with pytest.raises(DomainError) as refused:
            create_batch(owner, precon_deck, games)
        assert refused.value.code == "invalid_games"
    with pytest.raises(DomainError) as refused:
        create_batch(owner, precon_deck, 10, agents=("greedy", "genius"))
    assert refused.value.code == "unknown_agent"
    assert refused.value.details == {
        "side": "b", "field": "agent",
        "choices": ["random", "greedy", "lookahead", "strong", "learned", "learned_deep"],
    }  # fmt: skip
    with pytest.raises(DomainError) as refused:
        services.batch_create(requested_by=owner, seats=[PRECON_2], games=10)
    assert (refused.value.code, refused.value.details["given"]) == ("wrong_deck_count", 1)
    assert not SimulationBatch.objects.exists()


def test_an_unplayable_deck_b_is_named_deck_b() -> None:
    cards = [
        {"name": f"C{i}", "type": "creature", "cost": 1, "attack": 1, "hp": 1} for i in range(8)
    ]
    cards[3] = {**cards[3], "hp": -1}
    side = ResolvedDeck("code", None, "X", "X", cards, [], None)
    with pytest.raises(DomainError) as raised:
        check_playable("b", side)
    assert raised.value.details["reason"].startswith("deck B card 3: ")
