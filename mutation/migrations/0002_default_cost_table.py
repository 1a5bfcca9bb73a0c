"""The default Mutation Points table (rows without a session), from `data/README.md`.

The rulebook's own cost table was a picture and is lost; these defaults follow the card cost model:
+1 attack or +1 HP = 0.5 per point, −1 mana = 1 per point, gaining an ability = its creature cost
(`data/abilities.csv`), an Aura = the same as the ability alone; covering Defender, Mercenary or
Blackmail +1.5, covering Cursed (the English rulebook's "Reanimation") +1; 2.5 points per phase.
Malus abilities have no price: a malus is never gained by mutation.
"""

from decimal import Decimal

from django.db import migrations

STATS = {
    "budget": "2.5",
    "attack_point": "0.5",
    "hp_point": "0.5",
    "mana_point": "1",
    "aura_extra": "0",
}
ABILITIES = {
    "aerial": "0.5",
    "sharpening": "2",
    "aquatic": "1",
    "berserk": "1",
    "catalyst": "1",
    "vanish": "0.5",
    "indestructible": "0.5",
    "instinct": "1",
    "symbiote": "2",
    "perforation": "1",
    "price_of_blood": "2",
    "protection": "2",
    "rage": "1.5",
    "regeneration": "1",
    "splash": "1",
    "sprint": "0.5",
    "vulnerability": "1",
    "backlash": "1",
    "counter_order": "0.5",
    "lucidity": "1",
    "immolation": "0.5",
    "reinforcement": "2",
    "enchain": "2",
}
COVERS = {"defender": "1.5", "mercenary": "1.5", "blackmail": "1.5", "cursed": "1"}


def rows() -> list[tuple[str, str, str]]:
    return (
        [(key, "", points) for key, points in STATS.items()]
        + [("ability", code, points) for code, points in ABILITIES.items()]
        + [("cover", code, points) for code, points in COVERS.items()]
    )


def add_defaults(apps, schema_editor) -> None:
    CostRule = apps.get_model("mutation", "CostRule")
    for key, code, points in rows():
        CostRule.objects.update_or_create(
            session=None, key=key, ability_code=code, defaults={"points": Decimal(points)}
        )


def remove_defaults(apps, schema_editor) -> None:
    apps.get_model("mutation", "CostRule").objects.filter(session=None).delete()


class Migration(migrations.Migration):
    dependencies = [("mutation", "0001_initial")]

    operations = [migrations.RunPython(add_defaults, remove_defaults)]
