"""Mutation sessions: how fast the table tool answers.

- the rule checker alone (pure Python): mutation checks per second;
- a whole session through the services on a throw-away SQLite database (or DATABASE_URL):
  create and deal, each of the 64 draft picks, each mutation, each of the 12 results, and the
  seat view a phone reloads after every action. Prints medians and 95th percentiles in ms.
"""

import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from decimal import Decimal
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

from cards.models import Expansion  # noqa: E402
from cards.services import catalogue_load  # noqa: E402
from mutation import rules, selectors, services  # noqa: E402
from mutation.access import Actor  # noqa: E402
from mutation.api.serializers import seat_private_data  # noqa: E402


def timed(samples: list[float], action: Callable[[], object]) -> object:
    start = time.perf_counter()
    result = action()
    samples.append((time.perf_counter() - start) * 1000)
    return result


def report(label: str, samples: list[float]) -> None:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    print(
        f"{label:<28} n={len(samples):>3}  median {statistics.median(samples):7.2f} ms"
        f"  p95 {p95:7.2f} ms"
    )


def bench_rules() -> None:
    table = rules.CostTable(
        budget=Decimal("2.5"),
        attack_point=Decimal("0.5"),
        hp_point=Decimal("0.5"),
        mana_point=Decimal("1"),
        aura_extra=Decimal("0"),
        ability={"rage": Decimal("1.5"), "sprint": Decimal("0.5")},
        cover={"defender": Decimal("1.5")},
    )
    target = rules.CardValues("Guard", "creature", 4, 2, 4, ("defender", "splash", "instinct"))
    source = rules.CardValues("Runt", "creature", 2, 5, 6, ("rage", "aura:sprint"))
    earlier = [rules.AppliedMutation("attack", value=3)]
    attempts = [("hp", ()), ("mana", ()), ("ability:1", (3,)), ("ability:2", (2, 3))]
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < 1.0:
        for element, covers in attempts:
            rules.plan_mutation(
                target=target,
                target_mutations=earlier,
                source=source,
                element=element,
                covers=covers,
                table=table,
                malus={"defender"},
            )
            count += 1
    print(f"{'rule checks (pure)':<28} {count / (time.perf_counter() - start):,.0f} checks/s")


def bench_session() -> None:
    call_command("migrate", verbosity=0)
    catalogue_load(data_dir=ROOT / "data")
    user_model = get_user_model()
    organiser = user_model.objects.create_user("bench-orga", password="bench-pw-123456")
    actor = Actor(user=organiser)
    create: list[float] = []
    session = timed(
        create,
        lambda: services.mutation_session_create(
            organiser=organiser,
            name="bench",
            expansion_a=Expansion.objects.get(slug="treachery"),
            expansion_b=Expansion.objects.get(slug="resistance"),
            seed=1,
        ),
    )
    seats = {seat.number: seat for seat in session.seats.all()}
    picks: list[float] = []
    views: list[float] = []
    for _pick in range(16):
        for number in (1, 2, 3, 4):
            view = timed(views, lambda n=number: seat_private_data(session, seats[n]))
            card = view["hand"][0].pk
            timed(
                picks,
                lambda n=number, c=card: services.draft_pick(
                    session=session, actor=actor, seat_number=n, card_id=c
                ),
            )
    for number, seat in seats.items():
        pool = [row.card_id for row in selectors.seat_pool(seat)]
        services.seat_deck_choose(
            session=session, actor=actor, seat_number=number, card_ids=pool[:8]
        )
    mutations: list[float] = []
    results: list[float] = []
    for duel in session.games.order_by("round", "table"):
        for seat in (duel.seat_a, duel.seat_b):
            budget = selectors.seat_budget(session, seat).remaining
            for deck_card in selectors.deck_cards(seat):
                if not deck_card.is_creature or "hp" in deck_card.state.covered:
                    continue
                for lab in selectors.laboratory(seat):
                    hp = next((e for e in lab.elements if e.element == "hp" and not e.used), None)
                    gain = (hp.value - deck_card.state.hp) if hp else 0
                    if hp and gain > 0 and hp.value <= 9 and Decimal(gain) / 2 <= budget:
                        timed(
                            mutations,
                            lambda s=seat, t=deck_card, c=lab: services.mutation_apply(
                                session=session,
                                actor=actor,
                                seat_number=s.number,
                                target_card_id=t.draft_card.card_id,
                                source_card_id=c.draft_card.card_id,
                                element="hp",
                            ),
                        )
                        budget -= Decimal(gain) / 2
                        break
            timed(views, lambda s=seat: seat_private_data(session, s))
        timed(
            results,
            lambda d=duel: services.game_result_record(
                session=session,
                actor=actor,
                round_number=d.round,
                table=d.table,
                winner_seat=d.seat_a.number,
            ),
        )
    database = django.db.connection.vendor
    print(f"whole session on {database}:")
    report("  create and deal", create)
    report("  draft pick", picks)
    report("  seat view (phone reload)", views)
    report("  mutation", mutations)
    report("  game result", results)


if __name__ == "__main__":
    bench_rules()
    bench_session()
