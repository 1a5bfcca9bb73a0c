"""Solo Custom Play's default levels in order: each level harder than the one below (issue 28
item 7; docs/rulings.md, "Default parameters of each level").

The defaults of 0007 followed the options' points (fixed Mana first, then the AI first, then
resistance) and were not in order: lookahead won level 4 more often than level 3 and almost
nothing from level 5 up. These were chosen by measurement, with

    manage.py difficulty_levels --choose --seed 515 --games 50 --check-games 200 --jobs 2

(engine/management/commands/difficulty_levels.py, which says how it chooses): lookahead, the
agent a difficulty curve plays, on each of the 4 preconstructed decks against each candidate set,
the same games (seed 515) for every set; today's prices (no Champion, no 2021-edition row). Quick
Play: 84, 70, 68, 54% won on decks 1-4 (50 games each). The chain, 200 games a deck:

    level  deck 1  deck 2  deck 3  deck 4
      1    75.0%   74.5%   49.0%   38.5%
      2    76.5%   68.0%   49.0%   33.0%
      3    60.0%   63.5%   31.5%   22.5%
      4    51.5%   50.5%   12.5%   17.0%
      5    44.0%   49.5%   11.0%   13.0%
      6    10.5%   20.5%    5.5%    2.0%
      7     4.5%   22.0%    1.0%    2.0%
      8     4.0%   14.0%    0.5%    1.0%
      9     0.5%    2.5%    0.5%    0.0%
     10     0.0%    0.5%    0.0%    0.0%

(the two rises, deck 1 at level 2 and deck 2 at level 7, are inside the 95% intervals);
tests/simulations/test_difficulty_order.py checks the order with another seed. docs/rulings.md
("Default parameters of each level") has the reading.

Migrating back restores 0007's defaults.
"""

from importlib import import_module

from django.db import migrations

# Level: its default parameters (they spend exactly `level` points, the table's prices).
LEVELS = {
    1: ["ability_instinct"],
    2: ["ability_sharpening", "ability_instinct"],
    3: ["ability_sharpening", "ability_instinct", "ability_perforation"],
    4: ["ability_sharpening", "ability_catalyst", "ability_instinct", "ability_perforation"],
    5: ["resistance", "ability_sharpening", "ability_catalyst", "ability_instinct"],
    6: ["mana_per_creature_2", "resistance", "ability_sharpening", "ability_instinct"],
    7: ["fixed_mana_9", "resistance", "ability_sharpening", "ability_instinct"],
    8: [
        "fixed_mana_9",
        "resistance",
        "ability_sharpening",
        "ability_instinct",
        "ability_perforation",
    ],
    9: [
        "fixed_mana_9",
        "mana_per_creature_2",
        "resistance",
        "ability_sharpening",
        "ability_instinct",
    ],
    10: [
        "fixed_mana_9",
        "mana_per_creature_2",
        "ai_first",
        "resistance",
        "ability_sharpening",
        "ability_instinct",
    ],
}


def _set(apps, levels):
    """Idempotent (tests on committed data run it again after a flush)."""
    Parameter = apps.get_model("engine", "DifficultyParameter")
    Level = apps.get_model("engine", "DifficultyLevel")
    for level, codes in levels.items():
        chosen = list(Parameter.objects.filter(code__in=codes))
        if len(chosen) != len(codes):
            # A level short of a parameter would miss its budget: say so rather than ship it.
            raise RuntimeError(f"level {level}: the table lacks one of {codes}")
        row, _created = Level.objects.update_or_create(level=level, defaults={"budget": level})
        row.parameters.set(chosen)


def reorder(apps, schema_editor):
    _set(apps, LEVELS)


def restore(apps, schema_editor):
    _set(apps, import_module("engine.migrations.0007_difficulty_data").LEVELS)


class Migration(migrations.Migration):
    dependencies = [("engine", "0016_chaos_batch_engine_digest")]

    operations = [migrations.RunPython(reorder, restore)]
