"""Request and response bodies of the puzzles API."""

from typing import Any

from rest_framework import serializers

from cod_site.api.limits import BoundedListField
from cod_site.api.strict import StrictInputSerializer
from grimoire.models import DIFFICULTY_MAX, DIFFICULTY_MIN, Puzzle
from grimoire.selectors import puzzle_text, puzzle_translations
from grimoire.services import MAX_ACTIONS


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


class PuzzleSerializer(serializers.ModelSerializer[Puzzle]):
    title = serializers.SerializerMethodField()
    hint = serializers.SerializerMethodField()
    explanation = serializers.SerializerMethodField()
    translations = serializers.SerializerMethodField()
    author = serializers.SerializerMethodField()
    abilities = serializers.SerializerMethodField()

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
            "attempts",
            "solved",
        ]

    def get_title(self, puzzle: Puzzle) -> str:
        return puzzle_text(puzzle).title.text

    def get_hint(self, puzzle: Puzzle) -> str:
        return puzzle_text(puzzle).hint.text

    def get_explanation(self, puzzle: Puzzle) -> str:
        return puzzle_text(puzzle).explanation.text

    def get_translations(self, puzzle: Puzzle) -> dict[str, dict[str, str]]:
        return puzzle_translations(puzzle)

    def get_abilities(self, puzzle: Puzzle) -> list[str]:
        return puzzle.ability_codes()

    def get_author(self, puzzle: Puzzle) -> str | None:
        return puzzle.author.username if puzzle.author is not None else None


def translations_data(data: dict[str, Any]) -> dict[str, dict[str, str]]:
    return {language: dict(texts) for language, texts in data.items()}
