from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from engine import selectors
from engine.models import (
    DifficultyLevel,
    DifficultyOption,
    DifficultyParameter,
    DifficultyParameterTranslation,
    SimulationBatch,
    SimulationChunk,
    SimulationSeat,
)
from engine.rules import AiOptions, InputError

# Shown and read-only: a batch's seats and chunks are written by the services only.
SEAT_FIELDS = (
    "index", "source", "deck", "code", "name", "preconstructed", "agent", "cards", "slugs",
    "champion",
)  # fmt: skip
CHUNK_FIELDS = ("index", "first_game", "games", "engine_seconds", "worker", "created_at")


class SimulationSeatInline(admin.StackedInline):
    model = SimulationSeat
    extra = 0
    fields = SEAT_FIELDS
    readonly_fields = SEAT_FIELDS

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class SimulationChunkInline(admin.TabularInline):
    model = SimulationChunk
    extra = 0
    fields = CHUNK_FIELDS
    readonly_fields = CHUNK_FIELDS

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(SimulationBatch)
class SimulationBatchAdmin(admin.ModelAdmin):
    """Batches are written by the services only: the admin looks, and may delete."""

    list_display = [
        "id", "requested_by", "decks", "mode", "games", "games_done", "status", "created_at",
    ]  # fmt: skip
    list_filter = ["status", "mode", "seats__agent"]
    search_fields = ["requested_by__username", "seats__name"]
    raw_id_fields = ["requested_by"]
    inlines = [SimulationSeatInline, SimulationChunkInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[SimulationBatch]:
        return super().get_queryset(request).prefetch_related("seats")

    @admin.display(description=_("decks"))
    def decks(self, batch: SimulationBatch) -> str:
        return " / ".join(seat.name for seat in batch.seats.all())

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


# Solo Custom Play's difficulty table: every edit keeps each level's parameters one AI that spends
# exactly its budget.


class DifficultyLevelForm(forms.ModelForm):
    class Meta:
        model = DifficultyLevel
        fields = ["level", "budget", "parameters"]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if "parameters" in data and "budget" in data:
            problems = selectors.difficulty_problems(
                parameters=list(data["parameters"]), budget=data["budget"]
            )
            if problems:
                raise forms.ValidationError(problems)
        return data


@admin.register(DifficultyLevel)
class DifficultyLevelAdmin(admin.ModelAdmin):
    form = DifficultyLevelForm
    list_display = ["level", "budget", "parameter_codes"]
    filter_horizontal = ["parameters"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[DifficultyLevel]:
        return super().get_queryset(request).prefetch_related("parameters")

    @admin.display(description=_("default parameters"))
    def parameter_codes(self, level: DifficultyLevel) -> str:
        return ", ".join(parameter.code for parameter in level.parameters.all())


def _value_problem(option: str, value: object) -> str | None:
    """Why the rules engine would refuse `value` for `option` (None: it takes it)."""
    data: dict[str, object] = (
        {"abilities": [value]} if option == DifficultyOption.ABILITY else {option: value}
    )
    try:
        AiOptions.from_json(data)
    except InputError as error:
        return str(error)
    return None


class DifficultyParameterForm(forms.ModelForm):
    class Meta:
        model = DifficultyParameter
        fields = ["code", "option", "value", "points", "position"]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if "option" in data and "value" in data:
            problem = _value_problem(data["option"], data["value"])
            if problem:
                self.add_error("value", problem)
        if "points" in data and self.instance.pk is not None:
            # The new points must still fit the budget of every level that uses the parameter.
            problems = []
            for level in self.instance.levels.prefetch_related("parameters"):
                points = sum(
                    data["points"] if one.pk == self.instance.pk else one.points
                    for one in level.parameters.all()
                )
                if points != level.budget:
                    problems.append(
                        _(
                            "Level %(level)d uses this parameter: its parameters would be worth "
                            "%(points)d points instead of its budget of %(budget)d."
                        )
                        % {"level": level.level, "points": points, "budget": level.budget}
                    )
            if problems:
                self.add_error("points", problems)
        return data


class DifficultyParameterTranslationInline(admin.TabularInline):
    model = DifficultyParameterTranslation
    extra = 0


@admin.register(DifficultyParameter)
class DifficultyParameterAdmin(admin.ModelAdmin):
    form = DifficultyParameterForm
    list_display = ["code", "option", "value", "points", "position"]
    list_filter = ["option"]
    inlines = [DifficultyParameterTranslationInline]
