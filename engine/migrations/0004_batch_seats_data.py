"""Each batch's two decks move from its deck_a_*/deck_b_* columns and its `decks` document into
two seat rows (and back, for a migration backwards). A migration of its own: on PostgreSQL, rows
written with deferred foreign-key checks pending would stop the next migration's ALTER TABLE in
the same transaction."""

from typing import Any

from django.db import migrations

SIDES = ("a", "b")


def seats_from_columns(apps: Any, schema_editor: Any) -> None:
    batches = apps.get_model("engine", "SimulationBatch")
    seats = apps.get_model("engine", "SimulationSeat")
    rows = []
    for batch in batches.objects.order_by("pk").iterator():
        for index, side in enumerate(SIDES):
            frozen = batch.decks[index]
            rows.append(
                seats(
                    batch_id=batch.pk,
                    index=index,
                    source=getattr(batch, f"deck_{side}_source"),
                    deck_id=getattr(batch, f"deck_{side}_id"),
                    code=getattr(batch, f"deck_{side}_code"),
                    name=getattr(batch, f"deck_{side}_name"),
                    # Batches from before the number was kept have none: their name says it.
                    preconstructed=frozen.get("preconstructed"),
                    agent=getattr(batch, f"agent_{side}"),
                    cards=frozen["cards"],
                    slugs=frozen["slugs"],
                    champion=frozen.get("champion"),
                )
            )
    seats.objects.bulk_create(rows, batch_size=500)


def columns_from_seats(apps: Any, schema_editor: Any) -> None:
    """Backwards: only two-deck batches fit the old columns (no other kind existed before)."""
    batches = apps.get_model("engine", "SimulationBatch")
    for batch in batches.objects.order_by("pk").prefetch_related("seats").iterator(chunk_size=500):
        pair = sorted(batch.seats.all(), key=lambda seat: seat.index)
        if len(pair) != len(SIDES):
            raise ValueError(f"batch {batch.pk} has {len(pair)} decks: only Duels can go back")
        for seat, side in zip(pair, SIDES, strict=True):
            setattr(batch, f"deck_{side}_source", seat.source)
            setattr(batch, f"deck_{side}_id", seat.deck_id)
            setattr(batch, f"deck_{side}_code", seat.code)
            setattr(batch, f"deck_{side}_name", seat.name)
            setattr(batch, f"agent_{side}", seat.agent)
        batch.decks = [
            {
                "cards": seat.cards,
                "slugs": seat.slugs,
                "champion": seat.champion,
                "preconstructed": seat.preconstructed,
            }
            for seat in pair
        ]
        batch.save()


class Migration(migrations.Migration):
    dependencies = [("engine", "0003_simulationseat")]

    operations = [migrations.RunPython(seats_from_columns, columns_from_seats)]
