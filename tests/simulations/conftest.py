"""Fixtures of the simulated test games: users, decks, and a way to run a batch's chunks in the
test's own thread (the catalogue fixtures come from tests/support/database.py)."""

from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

import pytest
from django.test import Client

from cards.models import Card
from cards.selectors import cards_with_details
from decks import services as deck_services
from decks.models import Deck, Format
from engine import selectors, services
from engine.adapters.decks import DeckChoice
from engine.models import SimulationBatch
from tests.decks.conftest import CONSTRUCTED, PRECON

SIMULATIONS_URL = "/api/v1/simulations/"


def post_batch(client: Client, body: dict[str, Any], capture: Any) -> Any:
    """POST a batch, running its on-commit callbacks (``capture``:
    django_capture_on_commit_callbacks)."""
    with capture(execute=True):
        return client.post(SIMULATIONS_URL, body, content_type="application/json")


@pytest.fixture
def dispatched(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """Records what would be handed to workers, without running it."""
    sent: list[tuple[int, int]] = []
    monkeypatch.setattr(
        services, "_dispatch", lambda batch_id, chunks: sent.append((batch_id, chunks))
    )
    return sent


@pytest.fixture
def owner_client(owner: Any) -> Client:
    """A test client logged in as olga."""
    client = Client()
    client.force_login(owner)
    return client


def create_batch(owner: Any, deck: Deck, games: int, *, opponent: int = 2, seed: int = 7,
                 agents: tuple[str, str] = ("greedy", "greedy"),
                 **kwargs: Any) -> SimulationBatch:  # fmt: skip
    """``games`` games of ``deck`` against preconstructed deck ``opponent``."""
    return services.batch_create(
        requested_by=owner,
        seats=[
            selectors.SeatChoice(DeckChoice(deck=deck.share_id), agents[0]),
            selectors.SeatChoice(DeckChoice(preconstructed=opponent), agents[1]),
        ],
        games=games,
        seed=seed,
        **kwargs,
    )


def as_on_main(totals: dict[str, Any]) -> dict[str, Any]:
    """A batch's totals without the cards' early counts and the notable games, which the
    digests taken on main before issue 14's per-card insight and issue 19's replay picks do not
    hold (the notable games are checked against the games themselves in
    test_totals_keep_the_games_worth_watching)."""
    totals = {key: value for key, value in totals.items() if key != "notable"}
    for rows in totals["cards"]:
        for row in rows.values():
            assert 0 <= row.pop("early_wins") <= row.pop("early") <= row["played"]
    return totals


def run_chunks(batch: SimulationBatch) -> None:
    """Every chunk of ``batch``, in order, in this thread."""
    for index in range(batch.chunks_total):
        services.chunk_run(batch_id=batch.pk, index=index)


def make_deck(owner: Any, slugs: list[str], *, name: str = "Test deck", fmt: str = "constructed",
              visibility: str = "private") -> Deck:  # fmt: skip
    cards = list(cards_with_details(Card.objects.filter(slug__in=slugs)))
    cards.sort(key=lambda card: slugs.index(card.slug))
    return deck_services.deck_create(
        owner=owner,
        name=name,
        format=Format.objects.get(slug=fmt),
        cards=cards,
        visibility=visibility,
    )


@pytest.fixture
def precon_deck(cards_db: None, owner: Any) -> Deck:
    """Preconstructed deck 1, saved by olga as a Constructed deck."""
    return make_deck(owner, PRECON[1], name="Olga's deck 1")


@pytest.fixture
def constructed_deck(cards_db: None, owner: Any) -> Deck:
    return make_deck(owner, CONSTRUCTED, name="Mixed")


class InlineExecutor:
    """Stands in for the in-process thread pool: runs each submitted job at once, in order (a job
    submitted by a running one, a chunk's next, runs once that one returns)."""

    def __init__(self) -> None:
        self.jobs = 0
        self.batches: set[int] = set()
        self._later: deque[tuple[Callable[..., Any], dict[str, Any]]] = deque()
        self._running = False

    def take_batch(self, batch_id: int) -> bool:
        if batch_id in self.batches:
            return False
        self.batches.add(batch_id)
        return True

    def submit(self, function: Callable[..., Any], /, **kwargs: Any) -> Future:
        self.jobs += 1
        future: Future = Future()
        if self._running:
            self._later.append((function, kwargs))
            return future
        self._running = True
        try:
            future.set_result(function(**kwargs))
            while self._later:
                later, arguments = self._later.popleft()
                later(**arguments)
        finally:
            self._running = False
        return future


class QueuedExecutor(InlineExecutor):
    """Stands in for the thread pool as one thread taking jobs first in, first out: `run` plays
    them until none is left."""

    def __init__(self) -> None:
        super().__init__()
        self.queue: deque[tuple[Callable[..., Any], dict[str, Any]]] = deque()

    def submit(self, function: Callable[..., Any], /, **kwargs: Any) -> Future:
        self.jobs += 1
        self.queue.append((function, kwargs))
        return Future()

    def run(self) -> None:
        while self.queue:
            function, kwargs = self.queue.popleft()
            function(**kwargs)


class HeldExecutor(InlineExecutor):
    """Stands in for the thread pool where a test runs chunks itself: takes jobs, runs none."""

    def submit(self, function: Callable[..., Any], /, **kwargs: Any) -> Future:
        self.jobs += 1
        return Future()


@pytest.fixture(autouse=True)
def _no_stray_threads(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Outside browser and worker tests, no real pool thread may play chunks behind a test's
    back (a batch created in-process, or resumed by the pool's sweep, goes to the pool)."""
    if request.node.get_closest_marker("browser") or request.node.get_closest_marker("services"):
        return
    from engine import services
    from engine.metagame import services as metagame
    from engine.suggestions import services as suggestions

    for module in (services, suggestions, metagame):
        monkeypatch.setattr(module, "background", HeldExecutor())


@pytest.fixture
def inline_chunks(monkeypatch: pytest.MonkeyPatch) -> InlineExecutor:
    """Batches run in-process (no broker) and synchronously when their transaction commits."""
    from cod_site.celery import app
    from engine import services

    monkeypatch.setitem(app.conf, "task_always_eager", True)
    executor = InlineExecutor()
    monkeypatch.setattr(services, "background", executor)
    return executor
