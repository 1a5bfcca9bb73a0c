"""Solo Custom Play's difficulty table as the rules engine reads it: a level's AI options
(`AiOptions` JSON). The table's rows are `engine.models`; the Solo and Co-op games of every app
(test games, tables) take their AI from here."""

from collections.abc import Iterable

from django.db.models import Prefetch
from django.utils.translation import gettext as _

from cod_site.errors import DomainError
from engine.models import DifficultyLevel, DifficultyOption, DifficultyParameter
from engine.rules import AiOptions


def difficulty_levels() -> list[DifficultyLevel]:
    return list(
        DifficultyLevel.objects.prefetch_related(
            Prefetch(
                "parameters",
                DifficultyParameter.objects.prefetch_related("translations"),
            )
        )
    )


def difficulty_level_get(*, level: int) -> DifficultyLevel:
    """Level `level` with its default parameters (400 `unknown_level` if the table lacks it)."""
    row = next((row for row in difficulty_levels() if row.level == level), None)
    if row is None:
        raise DomainError(
            "unknown_level",
            _("There is no difficulty level %(level)s.") % {"level": level},
            {"field": "ai.level", "choices": [row.level for row in difficulty_levels()]},
        )
    return row


def difficulty_ai_options(parameters: Iterable[DifficultyParameter]) -> dict[str, object]:
    """The AI options (`AiOptions` JSON, the scenario format's `ai`) of Quick Play changed by
    `parameters`."""
    options: dict[str, object] = AiOptions().to_json()
    abilities: list[str] = []
    for parameter in parameters:
        if parameter.option == DifficultyOption.ABILITY:
            abilities.append(str(parameter.value))
        else:
            options[parameter.option] = parameter.value
    options["abilities"] = abilities
    return options


def difficulty_level_options(*, level: int) -> dict[str, object]:
    """The AI options of level `level`'s default parameters."""
    return difficulty_ai_options(difficulty_level_get(level=level).parameters.all())
