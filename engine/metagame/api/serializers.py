"""Serializers of the metagame: the standings of the round robin and one deck's place."""

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from engine.api.serializers import RateSerializer
from engine.metagame import selectors


class MatchupSerializer(serializers.Serializer):
    deck = serializers.CharField(source="share_id")
    name = serializers.CharField()
    score = RateSerializer(
        source="rate", help_text="The deck's score against this one (a draw counts half)."
    )


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    deck = serializers.CharField(source="share_id")
    url = serializers.SerializerMethodField()
    name = serializers.CharField()
    owner = serializers.CharField()
    version = serializers.IntegerField(help_text="The version of the deck that played.")
    elo = serializers.FloatField(help_text="Elo rating; the decks' mean is 1500.")
    elo_low = serializers.FloatField(source="low", help_text="95% interval, lower bound.")
    elo_high = serializers.FloatField(source="high", help_text="95% interval, upper bound.")
    score = RateSerializer(help_text="Its score over all its games.")
    best = MatchupSerializer(allow_null=True, help_text="Its best matchup.")
    worst = MatchupSerializer(allow_null=True, help_text="Its worst matchup.")
    forks = serializers.IntegerField()
    players = serializers.IntegerField(help_text="Accounts that played it in test batches.")

    def get_url(self, standing: selectors.Standing) -> str:
        return self.context["request"].build_absolute_uri(
            reverse("api:metagame-deck", args=[standing.share_id])
        )


class RefreshingSerializer(serializers.Serializer):
    pairs_done = serializers.IntegerField()
    pairs = serializers.IntegerField()


class MetagameSerializer(serializers.Serializer):
    refreshed_at = serializers.DateTimeField(
        allow_null=True, help_text="When the standings' games were all played (null: never)."
    )
    agent = serializers.CharField(allow_null=True, help_text="The AI that played every deck.")
    games_per_pair = serializers.IntegerField(allow_null=True)
    decks = StandingSerializer(many=True, help_text="Strongest first.")
    refreshing = serializers.SerializerMethodField(
        help_text="A newer round robin being played (null: none)."
    )

    @extend_schema_field(RefreshingSerializer(allow_null=True))
    def get_refreshing(self, data: dict[str, Any]) -> dict[str, int] | None:
        running = data["running"]
        if running is None:
            return None
        done, total = selectors.refresh_progress(running)
        return {"pairs_done": done, "pairs": total}


class DeckPlaceSerializer(serializers.Serializer):
    standing = StandingSerializer()
    decks = serializers.IntegerField(help_text="How many decks the metagame ranks.")
    matchups = MatchupSerializer(many=True, help_text="Against every other deck, best first.")
