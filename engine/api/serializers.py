"""Serializers of the simulations API: parse a batch request, show a batch and its results.

A batch's decks are `seats` (deck A first), in and out; `deck_a`/`deck_b` (with `agent_a` and
`agent_b` on input) are the Duel's shorthand for its two seats, which other tools use.
"""

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cod_site.api.limits import BoundedListSerializer
from cod_site.api.strict import StrictInputSerializer
from engine import selectors, simulation
from engine.adapters.decks import DeckChoice
from engine.models import MAX_GAMES, Agent, SimulationBatch, SimulationSeat
from engine.rules import MODES
from engine.services import SEED_BITS

# The most decks any game mode seats: more is refused before any deck is read.
MAX_SEATS = max(len(mode.seats) for mode in MODES.values())


class DeckChoiceSerializer(StrictInputSerializer):
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


class SeatChoiceSerializer(DeckChoiceSerializer):
    agent = serializers.ChoiceField(Agent.choices, default=Agent.GREEDY)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        deck = {key: value for key, value in attrs.items() if key != "agent"}
        return {"agent": attrs["agent"], **super().validate(deck)}


class SimulationRequestSerializer(StrictInputSerializer):
    seats = BoundedListSerializer(
        child=SeatChoiceSerializer(),
        max_length=MAX_SEATS,
        required=False,
        help_text="The decks, deck A first, each with its AI (a Duel: 2). Or `deck_a`/`deck_b`.",
    )
    deck_a = DeckChoiceSerializer(required=False, help_text="The Duel's shorthand for seats[0].")
    deck_b = DeckChoiceSerializer(required=False, help_text="The Duel's shorthand for seats[1].")
    agent_a = serializers.ChoiceField(
        Agent.choices, required=False, help_text="With `deck_a`: its AI (default greedy)."
    )
    agent_b = serializers.ChoiceField(
        Agent.choices, required=False, help_text="With `deck_b`: its AI (default greedy)."
    )
    games = serializers.IntegerField(min_value=1, max_value=MAX_GAMES)
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

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        shorthand = [key for key in ("deck_a", "deck_b", "agent_a", "agent_b") if key in attrs]
        if "seats" in attrs:
            if shorthand:
                raise serializers.ValidationError(
                    {
                        key: "Give either `seats` or `deck_a` and `deck_b`, not both."
                        for key in shorthand
                    }
                )
            return attrs
        missing = [key for key in ("deck_a", "deck_b") if key not in attrs]
        if missing:
            raise serializers.ValidationError(
                {key: "Give `seats`, or `deck_a` and `deck_b`." for key in missing}
            )
        return attrs

    def seat_choices(self) -> list[selectors.SeatChoice]:
        values = self.validated_data
        if "seats" in values:
            return [
                selectors.SeatChoice(
                    DeckChoice(**{k: v for k, v in seat.items() if k != "agent"}),
                    seat["agent"],
                )
                for seat in values["seats"]
            ]
        return [
            selectors.SeatChoice(
                DeckChoice(**values[f"deck_{side}"]),
                values.get(f"agent_{side}", Agent.GREEDY),
            )
            for side in ("a", "b")
        ]


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
    seats = DeckResultSerializer(
        source="decks", many=True, help_text="Each deck's results, in the order of `seats`."
    )
    deck_a = serializers.SerializerMethodField(help_text="The Duel's shorthand for seats[0].")
    deck_b = serializers.SerializerMethodField(help_text="The Duel's shorthand for seats[1].")
    draws = serializers.IntegerField(help_text="Games no deck won (stopped after 200 turns).")
    first_player = RateSerializer(help_text="How often the player who played first won.")
    turns = serializers.SerializerMethodField(help_text="Games by length in turns.")
    mean_turns = serializers.FloatField(allow_null=True)
    ends = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="How games ended: " + ", ".join(simulation.END_REASONS) + ".",
    )

    @extend_schema_field(DeckResultSerializer)
    def get_deck_a(self, summary: simulation.Summary) -> dict[str, Any]:
        return DeckResultSerializer(summary.decks[0]).data

    @extend_schema_field(DeckResultSerializer)
    def get_deck_b(self, summary: simulation.Summary) -> dict[str, Any]:
        return DeckResultSerializer(summary.decks[1]).data

    @extend_schema_field(serializers.DictField(child=serializers.IntegerField()))
    def get_turns(self, summary: simulation.Summary) -> dict[str, int]:
        return {str(turns): games for turns, games in summary.turns.items()}


class SideSerializer(serializers.Serializer):
    # DRF's metaclass moves declared fields off the class: `source` hides no attribute.
    source = serializers.CharField()  # type: ignore[assignment]
    deck = serializers.CharField(
        source="deck.share_id", allow_null=True, help_text="Share id of the saved deck."
    )
    code = serializers.CharField()
    name = serializers.SerializerMethodField()
    agent = serializers.CharField()

    def get_name(self, seat: SimulationSeat) -> str:
        return selectors.seat_name(seat)


class ProgressSerializer(serializers.Serializer):
    games_done = serializers.IntegerField()
    games = serializers.IntegerField()
    percent = serializers.FloatField()
    chunks_done = serializers.IntegerField()
    chunks = serializers.IntegerField()


class BatchSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    page_url = serializers.SerializerMethodField()
    seats = SideSerializer(many=True, help_text="The decks, deck A first, each with its AI.")
    deck_a = serializers.SerializerMethodField(help_text="The Duel's shorthand for seats[0].")
    deck_b = serializers.SerializerMethodField(help_text="The Duel's shorthand for seats[1].")
    progress = serializers.SerializerMethodField()
    results = serializers.SerializerMethodField()
    replayable = serializers.SerializerMethodField(
        help_text=(
            "Whether its games can be replayed: false once the rules engine or its AIs changed "
            "since the batch was played (a replay is then a 409 `engine_changed`)."
        )
    )

    class Meta:
        model = SimulationBatch
        fields = [
            "id",
            "url",
            "page_url",
            "status",
            "seats",
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
            "replayable",
        ]

    @extend_schema_field(serializers.URLField())
    def get_url(self, batch: SimulationBatch) -> str:
        path = reverse("api:simulation-detail", args=[batch.pk])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request else path

    def get_page_url(self, batch: SimulationBatch) -> str:
        return reverse("engine:batch", args=[batch.pk])

    @extend_schema_field(SideSerializer)
    def get_deck_a(self, batch: SimulationBatch) -> dict[str, Any]:
        return SideSerializer(selectors.batch_seats(batch)[0]).data

    @extend_schema_field(SideSerializer)
    def get_deck_b(self, batch: SimulationBatch) -> dict[str, Any]:
        return SideSerializer(selectors.batch_seats(batch)[1]).data

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

    def get_replayable(self, batch: SimulationBatch) -> bool:
        return selectors.batch_replayable(batch)

    @extend_schema_field(ResultsSerializer(allow_null=True))
    def get_results(self, batch: SimulationBatch) -> dict[str, Any] | None:
        summary = selectors.batch_summary(batch)
        return ResultsSerializer(summary).data if summary else None


class ReplaySeatSerializer(serializers.Serializer):
    seat = serializers.CharField(help_text="The engine seat the deck sat in (seat A plays first).")
    agent = serializers.CharField()
    result = serializers.IntegerField(help_text="1 won, -1 lost (teammates share it), 0 a draw.")


class ReplaySerializer(serializers.Serializer):
    index = serializers.IntegerField()
    seats = serializers.SerializerMethodField(help_text="Each deck of the batch, deck A first.")
    deck_a_seat = serializers.SerializerMethodField(
        help_text="The Duel's shorthand: the seat deck A sat in."
    )
    first = serializers.CharField(help_text="The letter of the deck that played first.")
    winner = serializers.SerializerMethodField(
        help_text="The Duel's shorthand: the letter of the deck that won; null: a draw."
    )
    turns = serializers.IntegerField(source="outcome.turns")
    end = serializers.ChoiceField(simulation.END_REASONS, source="outcome.end")
    agents = serializers.DictField(child=serializers.CharField(), help_text="The AI per seat.")
    page_url = serializers.SerializerMethodField(help_text="The replay viewer.")
    replay = serializers.JSONField(
        help_text="The engine's replay: rules_version, seed, decks, options, actions, result."
    )

    @extend_schema_field(ReplaySeatSerializer(many=True))
    def get_seats(self, game: simulation.ReplayedGame) -> list[dict[str, Any]]:
        agents = game.agents
        return [
            ReplaySeatSerializer({"seat": seat, "agent": agents[seat], "result": result}).data
            for seat, result in zip(game.deck_seats, game.outcome.returns, strict=True)
        ]

    def get_deck_a_seat(self, game: simulation.ReplayedGame) -> str:
        return game.deck_seats[0]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_winner(self, game: simulation.ReplayedGame) -> str | None:
        return game.winners[0] if game.winners else None

    def get_page_url(self, game: simulation.ReplayedGame) -> str:
        return reverse("engine:replay", args=[self.context["batch"].pk, game.index])
