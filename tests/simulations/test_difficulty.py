"""Solo Custom Play's difficulty table: the shipped rows, the AI options of a level, and the
admin's validation of a level's budget (engine 0007, docs/rulings.md)."""

from importlib import import_module
from typing import Any

import pytest
from django.apps import apps
from django.test import Client

from cod_site.errors import DomainError
from engine import selectors
from engine.adapters import difficulty
from engine.models import DifficultyLevel, DifficultyParameter
from engine.rules.ai_options import GIVEN_ABILITIES

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client: Client, django_user_model: Any) -> Client:
    user = django_user_model.objects.create_superuser("editor", "e@example.org", "pw-123456789")
    client.force_login(user)
    return client


def _codes(level: int) -> list[str]:
    return [one.code for one in difficulty.difficulty_level_get(level=level).parameters.all()]


def test_the_shipped_table_has_ten_levels_each_spending_its_budget() -> None:
    levels = difficulty.difficulty_levels()
    assert [(row.level, row.budget) for row in levels] == [(n, n) for n in range(1, 11)]
    for row in levels:
        parameters = list(row.parameters.all())
        assert selectors.difficulty_problems(parameters=parameters, budget=row.budget) == []
    others = DifficultyParameter.objects.exclude(option="ability")
    assert {one.code: one.points for one in others} == {
        "fixed_mana_7": 1,
        "fixed_mana_8": 2,
        "fixed_mana_9": 3,
        "fixed_mana_10": 4,
        "mana_per_creature_2": 2,
        "ai_first": 1,
        "resistance": 2,
        "champion": -2,
    }
    # The current edition's ten abilities, no 2021 Berserk nor "without a Bastion" (SO12).
    abilities = DifficultyParameter.objects.filter(option="ability", points=1)
    assert [one.value for one in abilities] == list(GIVEN_ABILITIES)


def test_the_ai_options_of_a_level() -> None:
    assert difficulty.difficulty_level_options(level=1) == {
        "fixed_mana": 6,
        "mana_per_creature": 1,
        "resistance": False,
        "abilities": ["instinct"],
        "ai_first": False,
        "champion": False,
        "bastion": True,
    }
    assert difficulty.difficulty_level_options(level=10) == {
        "fixed_mana": 9,
        "mana_per_creature": 2,
        "resistance": True,
        "abilities": ["sharpening", "instinct"],
        "ai_first": True,
        "champion": False,
        "bastion": True,
    }
    assert _codes(5) == ["resistance", "ability_sharpening", "ability_catalyst", "ability_instinct"]


def test_explicit_parameters_give_their_options_and_points() -> None:
    chosen = selectors.difficulty_parameters_get(
        codes=["ability_sprint", "champion", "ability_splash", "fixed_mana_9"]
    )
    assert selectors.difficulty_points(chosen) == 3
    options = difficulty.difficulty_ai_options(chosen)
    assert options["abilities"] == ["sprint", "splash"]
    assert options["champion"] is True
    assert options["fixed_mana"] == 9


def test_the_table_has_no_2021_edition_rows() -> None:
    with pytest.raises(DomainError) as refused:
        selectors.difficulty_parameters_get(codes=["ability_berserk", "no_bastion"])
    assert refused.value.details["unknown"] == ["ability_berserk", "no_bastion"]


def test_an_unknown_level_or_parameter_is_a_400_naming_the_field() -> None:
    with pytest.raises(DomainError) as level:
        difficulty.difficulty_level_get(level=11)
    assert (level.value.code, level.value.details["field"]) == ("unknown_level", "ai.level")
    with pytest.raises(DomainError) as parameter:
        selectors.difficulty_parameters_get(codes=["fixed_mana_8", "fixed_mana_11"])
    assert parameter.value.code == "unknown_parameter"
    assert parameter.value.details["unknown"] == ["fixed_mana_11"]


def test_two_values_of_one_option_and_a_missed_budget_are_problems() -> None:
    chosen = selectors.difficulty_parameters_get(codes=["fixed_mana_7", "fixed_mana_8"])
    assert selectors.difficulty_problems(parameters=chosen, budget=3) == [
        "“fixed_mana_7” and “fixed_mana_8” both set fixed Mana: keep one."
    ]
    assert selectors.difficulty_problems(parameters=chosen, budget=4) == [
        "“fixed_mana_7” and “fixed_mana_8” both set fixed Mana: keep one.",
        "These parameters are worth 3 difficulty points; the level's budget is 4: they must "
        "add up to it exactly.",
    ]
    rage = selectors.difficulty_parameters_get(codes=["ability_rage", "ability_rage"])
    assert len(selectors.difficulty_problems(parameters=rage)) == 1


def test_the_admin_refuses_a_level_that_misses_its_budget(admin_client: Client) -> None:
    level = DifficultyLevel.objects.get(level=3)
    ids = [str(one.pk) for one in selectors.difficulty_parameters_get(codes=["fixed_mana_10"])]
    url = f"/admin/engine/difficultylevel/{level.pk}/change/"
    refused = admin_client.post(url, {"level": 3, "budget": 3, "parameters": ids})
    assert refused.status_code == 200
    assert (
        "These parameters are worth 4 difficulty points; the level&#x27;s budget is 3"
        in refused.content.decode()
    )
    assert _codes(3) == ["ability_sharpening", "ability_instinct", "ability_perforation"]
    accepted = admin_client.post(url, {"level": 3, "budget": 4, "parameters": ids})
    assert accepted.status_code == 302
    assert _codes(3) == ["fixed_mana_10"]


def test_the_admin_refuses_new_points_that_break_a_level(admin_client: Client) -> None:
    parameter = DifficultyParameter.objects.get(code="ai_first")
    url = f"/admin/engine/difficultyparameter/{parameter.pk}/change/"
    form = {
        "code": "ai_first", "option": "ai_first", "value": "true", "points": 2, "position": 5,
        "translations-TOTAL_FORMS": 0, "translations-INITIAL_FORMS": 0,
    }  # fmt: skip
    response = admin_client.post(url, form)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Level 10 uses this parameter: its parameters would be worth 11 points" in html
    parameter.refresh_from_db()
    assert parameter.points == 1
    bad_value = admin_client.post(url, {**form, "points": 1, "value": "8"})
    assert "ai.ai_first: expected true or false" in bad_value.content.decode()


def test_the_admin_pages_open(admin_client: Client) -> None:
    assert admin_client.get("/admin/engine/difficultylevel/").status_code == 200
    assert admin_client.get("/admin/engine/difficultyparameter/").status_code == 200


def test_an_edit_of_a_rows_points_is_all_it_takes_to_reprice_it() -> None:
    # The icons of "the AI plays first" were lost (ruling: 1 or 2 points): an admin edit of the
    # row reprices every use of it, with no code change.
    level = DifficultyLevel.objects.get(level=10)
    parameters = list(level.parameters.all())
    assert selectors.difficulty_problems(parameters=parameters, budget=level.budget) == []
    assert selectors.difficulty_points_of_options({"ai_first": True}) == 1
    DifficultyParameter.objects.filter(code="ai_first").update(points=2)
    parameters = list(DifficultyLevel.objects.get(level=10).parameters.all())
    assert selectors.difficulty_problems(parameters=parameters, budget=10) == [
        "These parameters are worth 11 difficulty points; the level's budget is 10: they must "
        "add up to it exactly."
    ]
    assert selectors.difficulty_points_of_options({"ai_first": True}) == 2
    assert selectors.difficulty_points_of_options({"fixed_mana": 8, "ai_first": True}) == 4


def test_the_ordered_defaults_migrate_forwards_and_back() -> None:
    ordered = import_module("engine.migrations.0017_ordered_difficulty_levels")
    before = import_module("engine.migrations.0007_difficulty_data").LEVELS

    def shipped() -> dict[int, list[str]]:
        return {level: sorted(_codes(level)) for level in range(1, 11)}

    assert shipped() == {level: sorted(codes) for level, codes in ordered.LEVELS.items()}
    ordered.restore(apps, None)
    assert shipped() == {level: sorted(codes) for level, codes in before.items()}
    ordered.reorder(apps, None)
    assert shipped() == {level: sorted(codes) for level, codes in ordered.LEVELS.items()}
