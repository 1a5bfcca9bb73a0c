"""Request and response bodies of the puzzles API."""

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cod_site.api.limits import BoundedListField
from cod_site.api.strict import StrictInputSerializer
from grimoire.models import DIFFICULTY_MAX, DIFFICULTY_MIN, JobKind, JobStatus, Puzzle, SolverJob
from grimoire.selectors import job_status, puzzle_text, puzzle_translations, report_for
from grimoire.services import MAX_ACTIONS

SOLUTION_RULE = (
    "The solution is shown to the puzzle's author and staff, and to a visitor who solved the "
    "puzzle or gave up (`POST .../give-up/`); see `solution_shown`."
)


class TextsSerializer(StrictInputSerializer):
    title = serializers.CharField(max_length=120, required=False, allow_blank=True)
    hint = serializers.CharField(required=False, allow_blank=True, max_length=2000)
    explanation = serializers.CharField(required=False, allow_blank=True, max_length=2000)


class TranslationsSerializer(StrictInputSerializer):
    en = TextsSerializer()
    fr = TextsSerializer(required=False)
    sv = TextsSerializer(required=False)


class PuzzleWriteSerializer(StrictInputSerializer):
    scenario = serializers.JSONField(help_text="The position: a scenario file's cards and state.")
    goal = serializers.JSONField(help_text='The goal as data, e.g. {"kind": "win"}.')
    difficulty = serializers.IntegerField(min_value=DIFFICULTY_MIN, max_value=DIFFICULTY_MAX)
    translations = TranslationsSerializer()


class PuzzleUpdateSerializer(StrictInputSerializer):
    scenario = serializers.JSONField(required=False)
    goal = serializers.JSONField(required=False)
    difficulty = serializers.IntegerField(
        min_value=DIFFICULTY_MIN, max_value=DIFFICULTY_MAX, required=False
    )
    translations = TranslationsSerializer(required=False)


class PuzzleImportSerializer(StrictInputSerializer):
    scenario = serializers.JSONField(help_text="Any scenario file (as JSON).")
    goal = serializers.JSONField(
        required=False, help_text="Default: win, if expect.winner says so."
    )
    difficulty = serializers.IntegerField(
        min_value=DIFFICULTY_MIN, max_value=DIFFICULTY_MAX, required=False
    )
    translations = TranslationsSerializer(required=False)


class PublishSerializer(StrictInputSerializer):
    visibility = serializers.ChoiceField(choices=["private", "unlisted", "public"])


class AttemptSerializer(StrictInputSerializer):
    actions = BoundedListField(
        child=serializers.JSONField(),
        max_length=MAX_ACTIONS,
        help_text="The turn in the scenario format's actions; the Assault ends it if omitted.",
    )


class AttemptResultSerializer(serializers.Serializer):
    met = serializers.BooleanField()
    refused = serializers.IntegerField(allow_null=True)
    message = serializers.CharField()
    complete = serializers.BooleanField()


class SolverReportSerializer(serializers.Serializer):
    """The solver's report (documentation of what `report` and `GET .../solve/` hold)."""

    goal = serializers.JSONField()
    solvable = serializers.BooleanField()
    unsolvable = serializers.BooleanField(help_text="The complete search found no solution.")
    solutions = serializers.IntegerField(help_text="Distinct winning positions found.")
    shortest = serializers.ListField(
        child=serializers.JSONField(),
        required=False,
        help_text="The shortest solution (scenario-format actions). " + SOLUTION_RULE,
    )
    trivial = serializers.BooleanField(help_text="Ending the turn at once meets the goal.")
    complete = serializers.BooleanField(help_text="The whole turn was searched.")
    cut = serializers.CharField(help_text='Why the search stopped early: "nodes", "time" or "".')
    proved = serializers.BooleanField()
    nodes = serializers.IntegerField()
    seconds = serializers.FloatField()


class TextsOutSerializer(serializers.Serializer):
    title = serializers.CharField()
    hint = serializers.CharField()
    explanation = serializers.CharField(allow_null=True, help_text="null: " + SOLUTION_RULE)


class PuzzleSerializer(serializers.ModelSerializer[Puzzle]):
    """A puzzle as the viewer may see it: the serializer's context holds ``shown``, the ids of
    the puzzles whose solution the viewer may see (`selectors.solutions_shown`)."""

    title = serializers.SerializerMethodField()
    hint = serializers.SerializerMethodField()
    explanation = serializers.SerializerMethodField()
    translations = serializers.SerializerMethodField()
    author = serializers.SerializerMethodField()
    abilities = serializers.SerializerMethodField()
    report = serializers.SerializerMethodField()
    solution_shown = serializers.SerializerMethodField()

    class Meta:
        model = Puzzle
        fields = [
            "uid",
            "title",
            "hint",
            "explanation",
            "translations",
            "author",
            "scenario",
            "goal",
            "abilities",
            "difficulty",
            "visibility",
            "proof_status",
            "report",
            "solution_shown",
            "attempts",
            "solved",
        ]
        extra_kwargs = {
            "attempts": {
                "help_text": "People who tried it (a turn judged, or a give-up): one per account, "
                "one per session for anonymous visitors; not its author nor staff."
            },
            "solved": {"help_text": "Of those, the people who met the goal before any give-up."},
        }

    def _shown(self, puzzle: Puzzle) -> bool:
        return puzzle.pk in self.context.get("shown", set())

    def get_title(self, puzzle: Puzzle) -> str:
        return puzzle_text(puzzle).title.text

    def get_hint(self, puzzle: Puzzle) -> str:
        return puzzle_text(puzzle).hint.text

    @extend_schema_field(serializers.CharField(allow_null=True, help_text="null: " + SOLUTION_RULE))
    def get_explanation(self, puzzle: Puzzle) -> str | None:
        return puzzle_text(puzzle).explanation.text if self._shown(puzzle) else None

    @extend_schema_field(serializers.DictField(child=TextsOutSerializer()))
    def get_translations(self, puzzle: Puzzle) -> dict[str, dict[str, str | None]]:
        shown = self._shown(puzzle)
        return {
            language: {**texts, "explanation": texts["explanation"] if shown else None}
            for language, texts in puzzle_translations(puzzle).items()
        }

    @extend_schema_field(SolverReportSerializer(allow_null=True))
    def get_report(self, puzzle: Puzzle) -> dict[str, Any] | None:
        return report_for(puzzle.report, shown=self._shown(puzzle))

    def get_solution_shown(self, puzzle: Puzzle) -> bool:
        """Whether this answer holds the solution (`explanation`, `report.shortest`)."""
        return self._shown(puzzle)

    def get_abilities(self, puzzle: Puzzle) -> list[str]:
        return puzzle.ability_codes()

    def get_author(self, puzzle: Puzzle) -> str | None:
        return puzzle.author.username if puzzle.author is not None else None


def translations_data(data: dict[str, Any]) -> dict[str, dict[str, str]]:
    return {language: dict(texts) for language, texts in data.items()}


class SolverJobSerializer(serializers.Serializer):
    """A run of the solver outside the request, to poll at `status_url` until it is `done`
    (its `result` then) or `failed` (`error`)."""

    id = serializers.UUIDField()
    kind = serializers.ChoiceField(choices=JobKind.choices)
    status = serializers.SerializerMethodField()
    nodes = serializers.IntegerField(help_text="Positions searched so far.")
    max_nodes = serializers.IntegerField(help_text="The search's limit of positions.")
    progress = serializers.SerializerMethodField()
    result = serializers.JSONField(
        allow_null=True,
        help_text="Once done: a proof's report (see `SolverReport`), or an attempt's verdict "
        "(see `AttemptResult`).",
    )
    error = serializers.CharField()
    created = serializers.DateTimeField()
    started = serializers.DateTimeField(allow_null=True)
    finished = serializers.DateTimeField(allow_null=True)
    status_url = serializers.SerializerMethodField()

    @extend_schema_field(
        serializers.ChoiceField(
            choices=JobStatus.choices,
            help_text="A job lost with its worker (no sign of life for 2 minutes) is `failed`.",
        )
    )
    def get_status(self, job: SolverJob) -> str:
        return job_status(job)

    def get_progress(self, job: SolverJob) -> float:
        """From 0 to 1: the share of the limit of positions searched (1 once done)."""
        if job.status == JobStatus.DONE:
            return 1.0
        return round(min(job.nodes / job.max_nodes, 1.0), 3) if job.max_nodes else 0.0

    def get_status_url(self, job: SolverJob) -> str:
        path = reverse("api:puzzle-job", args=[job.puzzle.uid, job.pk])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request else path
