"""Serializers of the simulations API: parse a batch request, show a batch and its results."""

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from engine import selectors, simulation
from engine.models import MAX_GAMES, Agent, SimulationBatch
from engine.services import SEED_BITS


class DeckChoiceSerializer(serializers.Serializer):
    deck = serializers.CharField(
        required=False, max_length=16, help_text="Share id of a deck you own or a public one."
    )
    code = serializers.CharField(required=False, max_length=600, help_text="A deck code.")
    preconstructed = serializers.IntegerField(
        required=False, min_value=1, max_value=4, help_text="A preconstructed deck, 1 to 4."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if len(attrs) != 1:
            raise serializers.ValidationError(
                "Give exactly one of `deck`, `code` or `preconstructed`."
            )
        return attrs


class SimulationRequestSerializer(serializers.Serializer):
    deck_a = DeckChoiceSerializer()
    deck_b = DeckChoiceSerializer()
    games = serializers.IntegerField(min_value=1, max_value=MAX_GAMES)
    agent_a = serializers.ChoiceField(Agent.choices, default=Agent.GREEDY)
    agent_b = serializers.ChoiceField(Agent.choices, default=Agent.GREEDY)
    seed = serializers.IntegerField(
        required=False, min_value=0, max_value=2**SEED_BITS - 1, help_text="Random if omitted."
    )
    exhaustion = serializers.BooleanField(default=False, help_text="The Exhaustion module.")
    champions = serializers.BooleanField(
        default=False,
        help_text=(
            "The Champion module: each saved deck plays with its Champion, if you may see it "
            "(else without one)."
        ),
    )


class RateSerializer(serializers.Serializer):
    wins = serializers.IntegerField(source="hits")
    games = serializers.IntegerField()
    rate = serializers.FloatField(source="value", allow_null=True)
    low = serializers.FloatField(help_text="95% Wilson score interval, lower bound.")
    high = serializers.FloatField(help_text="95% Wilson score interval, upper bound.")


class CardStatsSerializer(serializers.Serializer):
    name = serializers.CharField()
    games_played = serializers.IntegerField(help_text="Games where the card was played.")
    win_rate_when_played = RateSerializer()
    damage_dealt = serializers.IntegerField(source="damage")
    damage_per_game_played = serializers.FloatField(allow_null=True)


class DeckResultSerializer(serializers.Serializer):
    wins = RateSerializer()
    when_first = RateSerializer()
    when_second = RateSerializer()
    cards = CardStatsSerializer(many=True)


class ResultsSerializer(serializers.Serializer):
    games = serializers.IntegerField()
    deck_a = serializers.SerializerMethodField()
    deck_b = serializers.SerializerMethodField()
    draws = serializers.IntegerField()
    first_player = RateSerializer(help_text="How often the player who played first won.")
    turns = serializers.SerializerMethodField(help_text="Games by length in turns.")
    mean_turns = serializers.FloatField(allow_null=True)
    ends = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="How games ended: " + ", ".join(simulation.END_REASONS) + ".",
    )

    @extend_schema_field(DeckResultSerializer)
    def get_deck_a(self, summary: simulation.Summary) -> dict[str, Any]:
        return DeckResultSerializer(summary.deck(0)).data

    @extend_schema_field(DeckResultSerializer)
    def get_deck_b(self, summary: simulation.Summary) -> dict[str, Any]:
        return DeckResultSerializer(summary.deck(1)).data

    @extend_schema_field(serializers.DictField(child=serializers.IntegerField()))
    def get_turns(self, summary: simulation.Summary) -> dict[str, int]:
        return {str(turns): games for turns, games in summary.turns.items()}


class SideSerializer(serializers.Serializer):
    source = serializers.CharField()
    deck = serializers.CharField(allow_null=True, help_text="Share id of the saved deck.")
    code = serializers.CharField()
    name = serializers.CharField()
    agent = serializers.CharField()


class ProgressSerializer(serializers.Serializer):
    games_done = serializers.IntegerField()
    games = serializers.IntegerField()
    percent = serializers.FloatField()
    chunks_done = serializers.IntegerField()
    chunks = serializers.IntegerField()


class BatchSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    page_url = serializers.SerializerMethodField()
    deck_a = serializers.SerializerMethodField()
    deck_b = serializers.SerializerMethodField()
    progress = serializers.SerializerMethodField()
    results = serializers.SerializerMethodField()

    class Meta:
        model = SimulationBatch
        fields = [
            "id",
            "url",
            "page_url",
            "status",
            "deck_a",
            "deck_b",
            "mode",
            "exhaustion",
            "champions",
            "games",
            "seed",
            "chunk_size",
            "rules_version",
            "progress",
            "error",
            "created_at",
            "started_at",
            "finished_at",
            "results",
        ]

    @extend_schema_field(serializers.URLField())
    def get_url(self, batch: SimulationBatch) -> str:
        path = reverse("api:simulation-detail", args=[batch.pk])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request else path

    def get_page_url(self, batch: SimulationBatch) -> str:
        return reverse("engine:batch", args=[batch.pk])

    def _side(self, batch: SimulationBatch, side: str) -> dict[str, Any]:
        deck = getattr(batch, f"deck_{side}")
        return SideSerializer(
            {
                "source": getattr(batch, f"deck_{side}_source"),
                "deck": deck.share_id if deck else None,
                "code": getattr(batch, f"deck_{side}_code"),
                "name": selectors.side_name(batch, "ab".index(side)),
                "agent": getattr(batch, f"agent_{side}"),
            }
        ).data

    @extend_schema_field(SideSerializer)
    def get_deck_a(self, batch: SimulationBatch) -> dict[str, Any]:
        return self._side(batch, "a")

    @extend_schema_field(SideSerializer)
    def get_deck_b(self, batch: SimulationBatch) -> dict[str, Any]:
        return self._side(batch, "b")

    @extend_schema_field(ProgressSerializer)
    def get_progress(self, batch: SimulationBatch) -> dict[str, Any]:
        return ProgressSerializer(
            {
                "games_done": batch.games_done,
                "games": batch.games,
                "percent": selectors.batch_percent(batch),
                "chunks_done": batch.chunks_done,
                "chunks": batch.chunks_total,
            }
        ).data

    @extend_schema_field(ResultsSerializer(allow_null=True))
    def get_results(self, batch: SimulationBatch) -> dict[str, Any] | None:
        summary = selectors.batch_summary(batch)
        return ResultsSerializer(summary).data if summary else None


class ReplaySerializer(serializers.Serializer):
    index = serializers.IntegerField()
    deck_a_seat = serializers.ChoiceField(
        ["A", "B"], help_text="The engine seat deck A sat in (seat A plays first)."
    )
    first = serializers.ChoiceField(["a", "b"], help_text="The deck that played first.")
    winner = serializers.ChoiceField(["a", "b"], allow_null=True, help_text="null: a draw.")
    turns = serializers.IntegerField(source="outcome.turns")
    end = serializers.ChoiceField(simulation.END_REASONS, source="outcome.end")
    agents = serializers.DictField(child=serializers.CharField(), help_text="The AI per seat.")
    page_url = serializers.SerializerMethodField(help_text="The replay viewer.")
    replay = serializers.JSONField(
        help_text="The engine's replay: rules_version, seed, decks, options, actions, result."
    )

    def get_page_url(self, game: simulation.ReplayedGame) -> str:
        return reverse("engine:replay", args=[self.context["batch"].pk, game.index])
