"""Solo Custom Play's table holds the current edition's choices only (issue 28, ruling SO12).

The current rulebook (FR 000 / EN 001 "Custom Play" e.) lists exactly ten abilities and no AI
"without a Bastion": the rows ``ability_berserk`` and ``no_bastion`` came from the Swedish 2021
edition. That edition's choices stay in the engine under ``AiOptions(edition="2021")``, a labelled
variant that no level of this table uses; the table itself offers only what the current edition
offers. No default level used either row.
"""

from django.db import migrations

REMOVED = ("ability_berserk", "no_bastion")


def remove(apps, schema_editor):
    Parameter = apps.get_model("engine", "DifficultyParameter")
    Parameter.objects.filter(code__in=REMOVED).delete()


def restore(apps, schema_editor):
    # The rows as 0007 loaded them, so that migrating back gives the same table.
    from importlib import import_module

    data = import_module("engine.migrations.0007_difficulty_data")
    Parameter = apps.get_model("engine", "DifficultyParameter")
    Translation = apps.get_model("engine", "DifficultyParameterTranslation")
    for position, (code, option, value, points, names) in enumerate(data.PARAMETERS):
        if code not in REMOVED:
            continue
        parameter, _created = Parameter.objects.update_or_create(
            code=code,
            defaults={"option": option, "value": value, "points": points, "position": position},
        )
        for language, name in names.items():
            Translation.objects.update_or_create(
                parameter=parameter, language_code=language, defaults={"name": name}
            )


class Migration(migrations.Migration):
    dependencies = [("engine", "0014_learned_agents")]

    operations = [migrations.RunPython(remove, restore)]
