"""Decks: how fast the deckbuilder's work is.

- the deck code alone (pure Python): encode + decode round trips per second;
- on a throw-away SQLite database (or DATABASE_URL) with the real catalogue: checking a deck
  (slugs; names in French; with an unknown name and its suggestions), saving a new version,
  the builder panel an htmx click re-renders, and POST /api/v1/decks/validate/ and
  GET /api/v1/decks/decode/ through the whole Django stack. Prints medians and 95th percentiles.
"""

import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
TMP = tempfile.TemporaryDirectory()
os.environ.setdefault("DATABASE_URL", f"sqlite:///{TMP.name}/bench.sqlite3")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cod_site.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from cards.services import catalogue_load  # noqa: E402
from decks import deck_code, services  # noqa: E402
from decks.selectors.checks import deck_check  # noqa: E402
from decks.selectors.formats import format_get  # noqa: E402
from decks.selectors.lookup import cards_require  # noqa: E402

CONSTRUCTED = [
    "grrr", "baron", "emerald-dragon", "troll", "boom", "abyssal-grrr", "dryad", "dislocation",
]  # fmt: skip
IN_FRENCH = [
    "Grrr", "Baron", "Dragon émeraude", "Troll", "Boom!", "Grrr abyssal", "Dryade", "Dislocation",
]  # fmt: skip
ROUNDS = 60


def timed(samples: list[float], action: Callable[[], object]) -> object:
    start = time.perf_counter()
    result = action()
    samples.append((time.perf_counter() - start) * 1000)
    return result


def report(label: str, samples: list[float]) -> None:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    print(
        f"{label:<34} n={len(samples):>3}  median {statistics.median(samples):7.2f} ms"
        f"  p95 {p95:7.2f} ms"
    )


def bench_codec() -> None:
    content = deck_code.DeckCodeContent(
        deck_code.format_identity("constructed"),
        tuple(deck_code.card_identity(slug) for slug in CONSTRUCTED),
    )
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < 1.0:
        deck_code.decode(deck_code.encode(content))
        count += 1
    rate = count / (time.perf_counter() - start)
    print(f"{'deck code encode+decode':<34} {rate:,.0f} per second")


def repeat(label: str, action: Callable[[], object], check: Callable[[object], bool]) -> None:
    samples: list[float] = []
    for _ in range(ROUNDS):
        result = timed(samples, action)
        if not check(result):
            raise SystemExit(f"{label}: unexpected result {result!r}")
    report(label, samples)


def bench_django() -> None:
    call_command("migrate", verbosity=0)
    catalogue_load(data_dir=ROOT / "data")
    owner = get_user_model().objects.create_user("bench", password="bench-pass-123")
    constructed = format_get(slug="constructed")
    code = deck_check(format="constructed", cards=CONSTRUCTED).code

    repeat(
        "check a deck (slugs)",
        lambda: deck_check(format="constructed", cards=CONSTRUCTED),
        lambda c: c.legal,
    )
    repeat(
        "check a deck (French names)",
        lambda: deck_check(format="constructed", cards=IN_FRENCH, language="fr"),
        lambda c: c.legal,
    )
    repeat(
        "check with an unknown name",
        lambda: deck_check(format="constructed", cards=[*CONSTRUCTED[:7], "Grr"]),
        lambda c: [e.code for e in c.errors] == ["unknown_card"],
    )
    deck = services.deck_create(
        owner=owner, name="Bench", format=constructed, cards=cards_require(CONSTRUCTED, "cards")
    )
    repeat(
        "save a new version",
        lambda: services.deck_update(deck=deck, actor=owner, name="Bench"),
        lambda d: d.version > 1,
    )
    client = Client()
    repeat(
        "builder panel (htmx add a card)",
        lambda: client.post(
            "/decks/builder/panel/",
            {"format": "constructed", "card": CONSTRUCTED[:7], "add": CONSTRUCTED[7], "seed": "1"},
        ),
        lambda r: r.status_code == 200,
    )
    repeat(
        "POST /api/v1/decks/validate/",
        lambda: client.post(
            "/api/v1/decks/validate/",
            {"format": "constructed", "cards": CONSTRUCTED},
            content_type="application/json",
        ),
        lambda r: r.status_code == 200 and r.json()["legal"],
    )
    repeat(
        "GET /api/v1/decks/decode/",
        lambda: client.get("/api/v1/decks/decode/", {"code": code}),
        lambda r: r.status_code == 200,
    )


if __name__ == "__main__":
    bench_codec()
    bench_django()
