"""A seat table for the decks of a batch, and the engine digest; the two-deck columns become
nullable so that migrating back (0005, then 0004 backwards) can add them again before it fills
them."""

import django.db.models.deletion
from django.db import migrations, models

AGENTS = [
    ("random", "Random (weakest)"),
    ("greedy", "Greedy (fast)"),
    ("lookahead", "Lookahead (strongest, slow)"),
]
SOURCES = [
    ("deck", "a saved deck"),
    ("code", "a deck code"),
    ("preconstructed", "a preconstructed deck"),
]


class Migration(migrations.Migration):
    dependencies = [
        ("decks", "0003_deck_champion"),
        ("engine", "0002_batch_active_at"),
    ]

    operations = [
        *(
            migrations.AlterField(model_name="simulationbatch", name=name, field=field)
            for side in ("A", "B")
            for name, field in (
                (
                    f"deck_{side.lower()}_source",
                    models.CharField(
                        choices=SOURCES, max_length=20, null=True, verbose_name=f"deck {side} from"
                    ),
                ),
                (
                    f"deck_{side.lower()}_name",
                    models.CharField(max_length=120, null=True, verbose_name=f"deck {side} name"),
                ),
                (
                    f"agent_{side.lower()}",
                    models.CharField(
                        choices=AGENTS, max_length=20, null=True, verbose_name=f"deck {side}'s AI"
                    ),
                ),
            )
        ),
        migrations.AlterField(
            model_name="simulationbatch",
            name="decks",
            field=models.JSONField(null=True, verbose_name="decks as played"),
        ),
        migrations.AddField(
            model_name="simulationbatch",
            name="engine_digest",
            field=models.CharField(blank=True, max_length=64, verbose_name="engine digest"),
        ),
        migrations.CreateModel(
            name="SimulationSeat",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("index", models.PositiveSmallIntegerField(verbose_name="index")),
                (
                    "source",
                    models.CharField(choices=SOURCES, max_length=20, verbose_name="from"),
                ),
                ("code", models.CharField(blank=True, max_length=600, verbose_name="deck code")),
                ("name", models.CharField(max_length=120, verbose_name="name")),
                (
                    "preconstructed",
                    models.PositiveSmallIntegerField(
                        blank=True, null=True, verbose_name="preconstructed deck"
                    ),
                ),
                (
                    "agent",
                    models.CharField(choices=AGENTS, max_length=20, verbose_name="AI"),
                ),
                ("cards", models.JSONField(verbose_name="cards as played")),
                ("slugs", models.JSONField(verbose_name="catalogue slugs")),
                (
                    "champion",
                    models.JSONField(blank=True, null=True, verbose_name="Champion as played"),
                ),
                (
                    "batch",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seats",
                        to="engine.simulationbatch",
                    ),
                ),
                (
                    "deck",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="decks.deck",
                        verbose_name="saved deck",
                    ),
                ),
            ],
            options={
                "verbose_name": "deck of a batch",
                "verbose_name_plural": "decks of a batch",
                "ordering": ["batch", "index"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("batch", "index"), name="simulation_seat_unique_index"
                    )
                ],
            },
        ),
    ]
