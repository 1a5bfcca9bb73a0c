"""A batch's chunks are sent a few at a time (`engine.services`: a chunk written sends the next),
so batches take turns in the queue: `chunks_sent` is how many have been handed to it. Every batch
before this was sent whole, so each row starts with all its chunks sent."""

from typing import Any

from django.db import migrations, models

from engine.batches.seeding import chunk_count


def all_sent(apps: Any, schema_editor: Any) -> None:
    batch_model = apps.get_model("engine", "SimulationBatch")
    batches = list(batch_model.objects.only("games", "chunk_size"))
    for batch in batches:
        batch.chunks_sent = chunk_count(batch.games, batch.chunk_size)
    batch_model.objects.bulk_update(batches, ["chunks_sent"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [("engine", "0017_ordered_difficulty_levels")]

    operations = [
        migrations.AddField(
            model_name="simulationbatch",
            name="chunks_sent",
            field=models.PositiveIntegerField(default=0, verbose_name="chunks sent"),
        ),
        migrations.RunPython(all_sent, migrations.RunPython.noop),
    ]
