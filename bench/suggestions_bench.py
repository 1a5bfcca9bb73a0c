"""Improve this deck through Celery: how soon a preconstructed deck's first swap is proved.

    python bench/suggestions_bench.py [--decks 1,2,3,4] [--workers 2] [--games N] [--seed S]

For each preconstructed deck asked for (saved as a Constructed deck, so that its cards may
change), a search against the 3 other preconstructed decks runs on one `celery worker
--concurrency=--workers` (prefetch 1, a queue of its own), and this prints: the seconds from the
search's creation to its first proved swap (goal <= 120 s on two worker processes) and to its
end, the games played by then, the games per second, the units' own CPU time against the wall
time, and the best swap with its win rate change and 95% interval. It also prints this machine's
load average before and after: the machine is shared, and its speed with it.

Needs the real Redis and PostgreSQL (skipped, with the reason, when either is missing):
- Redis: SUGGESTIONS_BENCH_REDIS_URL, else REDIS_URL, else redis://127.0.0.1:6379/0;
- PostgreSQL: SUGGESTIONS_BENCH_DATABASE_URL, else a database of its own,
  postgres://postgres@127.0.0.1:5432/cod_site_bench_suggestions (created, migrated, loaded).
"""

import argparse
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.postgres import database_missing  # noqa: E402
from bench.simulation_bench import start_worker, stop_worker  # noqa: E402

DEFAULT_DATABASE = "postgres://postgres@127.0.0.1:5432/cod_site_bench_suggestions"
REDIS_URL = (
    os.environ.get("SUGGESTIONS_BENCH_REDIS_URL")
    or os.environ.get("REDIS_URL")
    or "redis://127.0.0.1:6379/0"
)
DATABASE_URL = os.environ.get("SUGGESTIONS_BENCH_DATABASE_URL") or DEFAULT_DATABASE
os.environ["REDIS_URL"] = REDIS_URL
os.environ["DATABASE_URL"] = DATABASE_URL
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cod_site.settings")
FIRST_PROOF_GOAL = 120.0
TIMEOUT = 1800.0


def services_missing() -> str | None:
    import redis

    try:
        redis.Redis.from_url(REDIS_URL).ping()
    except redis.RedisError as error:
        return f"no Redis at {REDIS_URL} ({error})"
    return database_missing(DATABASE_URL)


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f} (1, 5, 15 min; {os.cpu_count()} cores)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", default="1,2,3,4", help="preconstructed decks to improve")
    parser.add_argument("--workers", type=int, default=2, help="worker processes")
    parser.add_argument("--games", type=int, default=None, help="the search's budget")
    parser.add_argument("--seed", type=int, default=30)
    args = parser.parse_args()
    missing = services_missing()
    if missing:
        print(f"skipped: {missing}")
        return 0

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from cards.models import Card
    from cards.selectors import cards_with_details
    from cards.services import catalogue_load
    from cod_site.celery import app
    from decks.models import Deck, Format
    from decks.services import deck_create
    from engine.models import SuggestionSearch
    from engine.rules import native
    from engine.suggestions import selectors, services

    call_command("migrate", verbosity=0)
    if not Card.objects.exists():
        catalogue_load(data_dir=ROOT / "data")
    user, _created = get_user_model().objects.get_or_create(username="bench-suggestions")
    SuggestionSearch.objects.filter(requested_by=user).delete()
    Deck.objects.filter(owner=user).delete()
    queue = f"bench-suggestions-{uuid.uuid4().hex[:8]}"
    # The worker sends each new round's units itself: to its own queue, as this process does.
    app.conf.task_default_queue = os.environ["CELERY_QUEUE"] = queue
    print(
        f"Python {sys.version.split()[0]}, engine {native.STATUS}; one celery worker with "
        f"{args.workers} processes; load average before: {load()}",
        flush=True,
    )
    failed = False
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "worker.log"
        worker = start_worker(queue, args.workers, log)
        try:
            for number in [int(one) for one in args.decks.split(",")]:
                cards = list(
                    cards_with_details(Card.objects.filter(precon_deck=number)).order_by(
                        "mana", "slug"
                    )
                )
                deck = deck_create(
                    owner=user,
                    name=f"Preconstructed deck {number}",
                    format=Format.objects.get(slug="constructed"),
                    cards=cards,
                )
                item = services.search_create(
                    requested_by=user,
                    share_id=deck.share_id,
                    field="preconstructed",
                    games=args.games or services.DEFAULT_GAMES,
                    seed=args.seed,
                )
                deadline = time.monotonic() + TIMEOUT
                rows = SuggestionSearch.objects.filter(pk=item.pk).values_list("status", flat=True)
                while rows.get() in ("queued", "running") and time.monotonic() < deadline:
                    time.sleep(0.5)
                item.refresh_from_db()
                if item.status != "done" or item.first_proved_at is None:
                    print(f"deck {number}: the search ended {item.status}, no proof: {item.error}")
                    print(log.read_text()[-3000:])
                    failed = True
                    continue
                assert item.finished_at is not None
                first = (item.first_proved_at - item.created_at).total_seconds()
                wall = (item.finished_at - item.created_at).total_seconds()
                best = selectors.search_result(item).suggestions[0]
                swaps = " + ".join(f"{one.out} -> {one.into}" for one in best.swaps)
                verdict = best.verdict
                goal = "OK" if first <= FIRST_PROOF_GOAL else "ABOVE GOAL"
                print(
                    f"deck {number}: first proved swap after {first:.1f} s and "
                    f"{item.first_proved_games:,} games (goal <= {FIRST_PROOF_GOAL:.0f} s) {goal}; "
                    f"the search ended after {wall:.1f} s, {item.games_done:,} games, "
                    f"{item.round + 1} rounds ({item.games_done / wall:,.0f} games/s; units' "
                    f"CPU {item.engine_seconds:.1f} s = {item.engine_seconds / wall:.2f} of the "
                    f"wall time); best: {swaps} {100 * verdict.change:+.1f} points "
                    f"(95% {100 * verdict.low:+.1f} to {100 * verdict.high:+.1f}, "
                    f"{verdict.games} pairs of games; the deck wins "
                    f"{100 * verdict.base_rate:.1f}%); load average now {load()}",
                    flush=True,
                )
        finally:
            stop_worker(worker)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
