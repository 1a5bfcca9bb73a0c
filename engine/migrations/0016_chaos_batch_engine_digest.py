"""Duel of Chaos test batches record the digest of the engine and agents that played them
(`engine.chaos.digest`): only those replay a batch's games. Batches played before have none,
so their games are not replayed (their results stay)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("engine", "0015_current_edition_difficulty_table")]

    operations = [
        migrations.AddField(
            model_name="chaosbatch",
            name="engine_digest",
            field=models.CharField(blank=True, max_length=64, verbose_name="engine digest"),
        ),
    ]
