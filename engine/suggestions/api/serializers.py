"""Serializers of "Improve this deck": parse a search request, show a search and its results."""

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cod_site.api.limits import BoundedListSerializer
from cod_site.api.strict import StrictInputSerializer
from decks.api.serializers import DeckChoiceSerializer
from engine.adapters.decks import DeckChoice
from engine.models import Agent, CandidateStatus, SuggestionField, SuggestionSearch
from engine.services import SEED_BITS
from engine.suggestions import selectors
from engine.suggestions.services import DEFAULT_GAMES, MAX_GAMES


class SuggestionRequestSerializer(StrictInputSerializer):
    field = serializers.ChoiceField(
        SuggestionField.choices,
        default=SuggestionField.PRECONSTRUCTED,
        help_text=(
            "What the deck plays against: `preconstructed` (the 4 preconstructed decks, but one "
            "made of this deck's cards), `decks` (those of `decks`), `most_played` (the public "
            f"decks most played in test games and forked, up to {selectors.FIELD_SIZE})."
        ),
    )
    decks = BoundedListSerializer(
        child=DeckChoiceSerializer(),
        max_length=selectors.MAX_FIELD_DECKS,
        required=False,
        help_text="With `field: decks`: the decks to play against.",
    )
    games = serializers.IntegerField(
        min_value=1,
        max_value=MAX_GAMES,
        default=DEFAULT_GAMES,
        help_text="The most games the search may play (its cost against your daily limit).",
    )
    seed = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=2**SEED_BITS - 1,
        help_text="Random if omitted; the same seed gives the same suggestions.",
    )
    agent = serializers.ChoiceField(
        Agent.choices,
        required=False,
        help_text=(
            "The AI that plays every deck. Omitted: the strongest AI on the strength ladder whose "
            "games of the whole budget fit two minutes of CPU (greedy at the default budget)."
        ),
    )

    def deck_choices(self) -> list[DeckChoice]:
        return [DeckChoice(**choice) for choice in self.validated_data.get("decks", [])]


class CardRefSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()


class SwapSerializer(serializers.Serializer):
    card_out = serializers.SerializerMethodField(help_text="The card taken out.")
    card_in = serializers.SerializerMethodField(help_text="The card put in its place.")

    @extend_schema_field(CardRefSerializer)
    def get_card_out(self, swap: selectors.SwapView) -> dict[str, str]:
        return {"slug": swap.out, "name": swap.out_name}

    @extend_schema_field(CardRefSerializer)
    def get_card_in(self, swap: selectors.SwapView) -> dict[str, str]:
        return {"slug": swap.into, "name": swap.in_name}


class WinRateChangeSerializer(serializers.Serializer):
    games = serializers.IntegerField(help_text="Pairs of games (the deck's and the candidate's).")
    change = serializers.FloatField(help_text="Win rate change: 0.05 is 5 points.")
    low = serializers.FloatField(help_text="95% interval of the change, lower bound.")
    high = serializers.FloatField(help_text="95% interval of the change, upper bound.")
    win_rate = serializers.FloatField(source="rate", help_text="The candidate's win rate.")
    base_win_rate = serializers.FloatField(
        source="base_rate", help_text="The deck's win rate in the same games."
    )


class MatchupChangeSerializer(serializers.Serializer):
    opponent = serializers.CharField()
    change = WinRateChangeSerializer()


class SuggestionSerializer(serializers.Serializer):
    swaps = SwapSerializer(many=True)
    status = serializers.ChoiceField(
        [value for value in CandidateStatus.values if value != CandidateStatus.BASELINE],
        help_text=(
            "`proved`: the confirmation's interval lies above 0; `confirming`: being confirmed "
            "on games of its own; `racing`: still raced; `undecided`, `unproved`, `cut`, "
            "`behind`, `worse`: stopped without proof."
        ),
    )
    confirmed = serializers.BooleanField(
        help_text="Whether `verdict` counts the confirmation's games (else the race's)."
    )
    verdict = WinRateChangeSerializer()
    matchups = MatchupChangeSerializer(
        many=True, help_text="The change against each opponent: the matchups it improves."
    )


class BaselineMatchupSerializer(serializers.Serializer):
    opponent = serializers.CharField()
    win_rate = serializers.FloatField(allow_null=True)


class ResultSerializer(serializers.Serializer):
    baseline = serializers.FloatField(
        allow_null=True, help_text="The deck's win rate in the race's games."
    )
    baseline_matchups = serializers.SerializerMethodField()
    suggestions = SuggestionSerializer(
        many=True, help_text="The best swaps: proved ones first, then the most promising."
    )
    candidates = serializers.IntegerField(help_text="Swaps raced (singles and pairs).")
    counts = serializers.DictField(
        child=serializers.IntegerField(), help_text="Candidates by status."
    )

    @extend_schema_field(BaselineMatchupSerializer(many=True))
    def get_baseline_matchups(self, result: selectors.SearchResult) -> list[dict[str, Any]]:
        return [{"opponent": name, "win_rate": rate} for name, rate in result.baseline_matchups]


class OpponentSerializer(serializers.Serializer):
    name = serializers.SerializerMethodField()
    deck = serializers.CharField(source="share_id", help_text="Share id (blank: not a saved deck).")
    code = serializers.CharField()

    def get_name(self, opponent: dict[str, Any]) -> str:
        return selectors.opponent_name(opponent)


class SearchProgressSerializer(serializers.Serializer):
    games_done = serializers.IntegerField()
    games = serializers.IntegerField(source="max_games", help_text="The search's budget.")
    percent = serializers.SerializerMethodField()
    round = serializers.IntegerField()
    games_per_opponent = serializers.IntegerField(
        source="target", help_text="What the candidates still raced play in this round."
    )

    def get_percent(self, item: SuggestionSearch) -> float:
        return selectors.search_percent(item)


class SearchSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    page_url = serializers.SerializerMethodField()
    deck = serializers.SerializerMethodField(help_text="Share id of the deck (null: deleted).")
    opponents = OpponentSerializer(many=True)
    progress = serializers.SerializerMethodField()
    results = serializers.SerializerMethodField()
    pruning = serializers.JSONField(
        help_text=(
            "How the swaps raced were chosen: the cards tried in (by the engine's worth of a "
            "card) and out, with their worth; `pool`: the format's cards the deck does not hold."
        )
    )

    class Meta:
        model = SuggestionSearch
        fields = [
            "id", "url", "page_url", "deck", "deck_name", "deck_version", "field", "opponents",
            "agent", "seed", "status", "progress", "results", "pruning", "error", "created_at",
            "started_at", "first_proved_at", "finished_at",
        ]  # fmt: skip

    def get_url(self, item: SuggestionSearch) -> str:
        request = self.context["request"]
        return request.build_absolute_uri(
            reverse("api:deck-suggestion-detail", args=[self.context["share_id"], item.pk])
        )

    def get_page_url(self, item: SuggestionSearch) -> str:
        return self.context["request"].build_absolute_uri(
            reverse("engine:suggestions", args=[item.pk])
        )

    def get_deck(self, item: SuggestionSearch) -> str | None:
        return item.deck.share_id if item.deck is not None else None

    @extend_schema_field(SearchProgressSerializer)
    def get_progress(self, item: SuggestionSearch) -> dict[str, Any]:
        return SearchProgressSerializer(item).data

    @extend_schema_field(ResultSerializer)
    def get_results(self, item: SuggestionSearch) -> dict[str, Any]:
        return ResultSerializer(selectors.search_result(item)).data
