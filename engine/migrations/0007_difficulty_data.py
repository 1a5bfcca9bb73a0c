"""Solo Custom Play's difficulty table, reconstructed from the three rulebooks.

The current rulebook (000 French "Mode solo - Partie personnalisée", 001 English "Solo Mode -
Custom Play") printed each choice's points as icons the text lost; the Swedish 2021 edition (002
"Ensamvariant - Anpassat spel") lists them as "svårighetspoäng". The choices and every value are
justified in docs/rulings.md ("Solo Custom Play: the difficulty table"); the admin edits them.
"""

from django.db import migrations

# (code, option, value, points, {language: name})
PARAMETERS = [
    *(
        (
            f"fixed_mana_{mana}",
            "fixed_mana",
            mana,
            mana - 6,
            {"en": f"Fixed Mana {mana}", "fr": f"Mana fixe {mana}", "sv": f"Fast Mana {mana}"},
        )
        for mana in (7, 8, 9, 10)
    ),
    (
        "mana_per_creature_2",
        "mana_per_creature",
        2,
        2,
        {
            "en": "+2 Mana per Creature the player has in play",
            "fr": "+2 Mana par Créature que le joueur a en jeu",
            "sv": "+2 Mana för varje varelse spelaren har i spel",
        },
    ),
    (
        "ai_first",
        "ai_first",
        True,
        1,
        {"en": "The AI plays first", "fr": "L'IA est le 1er joueur", "sv": "AI:n börjar"},
    ),
    (
        "resistance",
        "resistance",
        True,
        2,
        {
            "en": "Resistance: each attack on the AI's deck pile inflicts only 1 Damage",
            "fr": "Résistance : chaque attaque sur la pioche de l'IA n'inflige qu'1 Blessure",
            "sv": "Motstånd: varje anfall på AI:ns lek orsakar bara 1 skada",
        },
    ),
    (
        "no_bastion",
        "bastion",
        False,
        -1,
        {
            "en": "No Bastion: the AI starts with its Fort (2021 edition)",
            "fr": "Sans Bastion : l'IA commence avec son Fort (édition 2021)",
            "sv": "Utan Bastion: AI:n börjar direkt med Fort (utgåvan 2021)",
        },
    ),
    *(
        (
            f"ability_{code}",
            "ability",
            code,
            1,
            {
                "en": f"All the AI's Creatures have {en}",
                "fr": f"Toutes les Créatures de l'IA ont {fr}",
                "sv": f"Alla AI:ns varelser har {en}",
            },
        )
        for code, en, fr in (
            ("sharpening", "Sharpening", "Affûtage"),
            ("aquatic", "Aquatic", "Aquatique"),
            ("catalyst", "Catalyst", "Catalyseur"),
            ("instinct", "Instinct", "Instinct"),
            ("protection", "Protection", "Protection"),
            ("vanish", "Vanish", "Dérobade"),
            ("perforation", "Perforation", "Perforation"),
            ("rage", "Rage", "Rage"),
            ("splash", "Splash", "Splash"),
            ("sprint", "Sprint", "Sprint"),
            ("berserk", "Berserk", "Berserk"),
        )
    ),
    (
        "champion",
        "champion",
        True,
        -2,
        {
            "en": "The player plays with a Champion",
            "fr": "Le joueur joue avec un Champion",
            "sv": "Spelaren spelar med en Champion",
        },
    ),
]

# Level: its default parameters (they spend exactly `level` points: budget = level).
LEVELS = {
    1: ["fixed_mana_7"],
    2: ["fixed_mana_8"],
    3: ["fixed_mana_8", "ai_first"],
    4: ["mana_per_creature_2", "fixed_mana_8"],
    5: ["mana_per_creature_2", "fixed_mana_8", "ai_first"],
    6: ["mana_per_creature_2", "fixed_mana_9", "ai_first"],
    7: ["mana_per_creature_2", "fixed_mana_9", "resistance"],
    8: ["mana_per_creature_2", "fixed_mana_9", "resistance", "ai_first"],
    9: ["mana_per_creature_2", "fixed_mana_10", "resistance", "ai_first"],
    10: ["mana_per_creature_2", "fixed_mana_10", "resistance", "ai_first", "ability_rage"],
}


def load(apps, schema_editor):
    """Idempotent (tests on committed data run it again after a flush)."""
    Parameter = apps.get_model("engine", "DifficultyParameter")
    Translation = apps.get_model("engine", "DifficultyParameterTranslation")
    Level = apps.get_model("engine", "DifficultyLevel")
    by_code = {}
    for position, (code, option, value, points, names) in enumerate(PARAMETERS):
        parameter, _created = Parameter.objects.update_or_create(
            code=code,
            defaults={"option": option, "value": value, "points": points, "position": position},
        )
        by_code[code] = parameter
        for language, name in names.items():
            Translation.objects.update_or_create(
                parameter=parameter, language_code=language, defaults={"name": name}
            )
    for level, codes in LEVELS.items():
        row, _created = Level.objects.update_or_create(level=level, defaults={"budget": level})
        row.parameters.set([by_code[code] for code in codes])


def unload(apps, schema_editor):
    apps.get_model("engine", "DifficultyLevel").objects.all().delete()
    apps.get_model("engine", "DifficultyParameter").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("engine", "0006_difficulty_table")]

    operations = [migrations.RunPython(load, unload)]
