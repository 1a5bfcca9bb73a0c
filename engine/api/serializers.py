"""Response serializers of the simulations API: show a batch, its results, its games, a curve.

A batch's decks are `seats` (deck A first); `deck_a`/`deck_b` are the Duel's shorthand for its
two seats, which other tools use. The requests are read by `engine.api.request_serializers`.
"""

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from engine import chaos_selectors, curve_selectors, selectors, simulation, verdicts
from engine.models import (
    Agent,
    SimulationBatch,
    SimulationSeat,
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
    win_rate_when_not_played = RateSerializer(
        help_text="The deck's wins in the games where the card was not played."
    )
    win_rate_when_played_early = RateSerializer(
        source="win_rate_when_early",
        help_text=(
            f"The deck's wins in the games where the card was first played early: in one of "
            f"its player's first {simulation.EARLY_TURNS} turns."
        ),
    )
    win_rate_when_played_late = RateSerializer(
        source="win_rate_when_late",
        help_text="The deck's wins in the games where the card was first played later.",
    )


class DeckResultSerializer(serializers.Serializer):
    wins = RateSerializer()
    when_first = RateSerializer()
    when_second = RateSerializer()
    cards = CardStatsSerializer(many=True)


class TeamResultSerializer(serializers.Serializer):
    decks = serializers.ListField(
        child=serializers.CharField(), help_text="The partners' deck letters, e.g. A and C."
    )
    wins = RateSerializer(help_text="The games the team won (both partners win together).")


class NotableGameSerializer(serializers.Serializer):
    game = serializers.IntegerField(help_text="The game's number: its replay is games/{game}/.")
    turns = serializers.IntegerField()


class NotableGamesSerializer(serializers.Serializer):
    losses = NotableGameSerializer(many=True, help_text="Deck A's first losses.")
    draws = NotableGameSerializer(many=True, help_text="The first draws.")
    shortest = NotableGameSerializer(many=True, help_text="The shortest games.")
    longest = NotableGameSerializer(many=True, help_text="The longest games.")


class ResultsSerializer(serializers.Serializer):
    games = serializers.IntegerField()
    seats = DeckResultSerializer(
        source="decks", many=True, help_text="Each deck's results, in the order of `seats`."
    )
    teams = TeamResultSerializer(
        many=True,
        help_text=(
            "Team Play, and Co-op (the players A and C, then the AIs B and D): each team's "
            "results (empty in the other modes)."
        ),
    )
    deck_a = serializers.SerializerMethodField(help_text="The Duel's shorthand for seats[0].")
    deck_b = serializers.SerializerMethodField(help_text="The Duel's shorthand for seats[1].")
    draws = serializers.IntegerField(help_text="Games no deck won (stopped after 200 turns).")
    first_player = RateSerializer(help_text="How often the player who played first won.")
    turns = serializers.SerializerMethodField(help_text="Games by length in turns.")
    mean_turns = serializers.FloatField(allow_null=True)
    ends = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="How games ended: " + ", ".join(simulation.SOLO_END_REASONS) + ".",
    )
    notable = serializers.SerializerMethodField(
        help_text="Games worth watching, up to 5 of each kind (none for a batch played before "
        "they were kept)."
    )

    @extend_schema_field(DeckResultSerializer)
    def get_deck_a(self, summary: simulation.Summary) -> dict[str, Any]:
        return DeckResultSerializer(summary.decks[0]).data

    @extend_schema_field(DeckResultSerializer)
    def get_deck_b(self, summary: simulation.Summary) -> dict[str, Any]:
        return DeckResultSerializer(summary.decks[1]).data

    @extend_schema_field(NotableGamesSerializer)
    def get_notable(self, summary: simulation.Summary) -> dict[str, list[dict[str, int]]]:
        return {
            kind: [{"game": index, "turns": turns} for index, turns in games]
            for kind, games in summary.notable.items()
        }

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
    drafter = serializers.CharField(help_text="A Draft batch's drafter of this seat; else blank.")

    def get_name(self, seat: SimulationSeat) -> str:
        return selectors.seat_name(seat)


class ProgressSerializer(serializers.Serializer):
    games_done = serializers.IntegerField()
    games = serializers.IntegerField()
    percent = serializers.FloatField()
    chunks_done = serializers.IntegerField()
    chunks = serializers.IntegerField()


class AgentStandingSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="The AI: " + ", ".join(Agent.values) + ".")
    # DRF's metaclass moves declared fields off the class: `label` hides no attribute.
    label = serializers.CharField()  # type: ignore[assignment]
    rank = serializers.IntegerField(
        source="standing.rank", allow_null=True, help_text="1: the strongest on the ladder."
    )
    ladder_size = serializers.IntegerField(help_text="How many AIs the ladder rates.")
    elo = serializers.FloatField(source="standing.elo", allow_null=True)
    elo_low = serializers.FloatField(
        source="standing.elo_low", allow_null=True, help_text="95% bootstrap interval."
    )
    elo_high = serializers.FloatField(source="standing.elo_high", allow_null=True)


class VerdictWarningSerializer(serializers.Serializer):
    code = serializers.ChoiceField(["draws", "agents_disagree"])
    message = serializers.CharField()
    details = serializers.DictField()


class ControlSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    status = serializers.CharField()
    agent = serializers.SerializerMethodField()
    games = serializers.IntegerField()
    deck_a_wins = serializers.SerializerMethodField(
        help_text="Deck A's wins with the control's AI (null until its results exist)."
    )

    def get_agent(self, control: SimulationBatch) -> str:
        return selectors.batch_seats(control)[0].agent

    @extend_schema_field(RateSerializer(allow_null=True))
    def get_deck_a_wins(self, control: SimulationBatch) -> dict[str, Any] | None:
        summary = self.context.get("control_summary")
        return RateSerializer(summary.decks[0].wins).data if summary else None


class VerdictSerializer(serializers.Serializer):
    agents = AgentStandingSerializer(
        many=True, help_text="The AIs that played, with their standing on the strength ladder."
    )
    control = serializers.SerializerMethodField(
        help_text="The control batch played by another AI alongside (null: none was asked for)."
    )
    warnings = VerdictWarningSerializer(
        many=True,
        help_text=(
            "`draws`: more than 1% of the games were draws; `agents_disagree`: the control's "
            "win rate for deck A lies outside this batch's 95% interval (and the other way)."
        ),
    )

    @extend_schema_field(ControlSerializer(allow_null=True))
    def get_control(self, verdict: verdicts.Verdict) -> dict[str, Any] | None:
        if verdict.control is None:
            return None
        context = {"control_summary": verdict.control_summary}
        return ControlSerializer(verdict.control, context=context).data


class BatchSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    page_url = serializers.SerializerMethodField()
    seats = SideSerializer(many=True, help_text="The decks, deck A first, each with its AI.")
    deck_a = serializers.SerializerMethodField(help_text="The Duel's shorthand for seats[0].")
    deck_b = serializers.SerializerMethodField(help_text="The Duel's shorthand for seats[1].")
    progress = serializers.SerializerMethodField()
    results = serializers.SerializerMethodField()
    verdict = serializers.SerializerMethodField(
        help_text="Which AI played, how strong it is, and warnings about the results."
    )
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
            "ai",
            "ai_level",
            "draft_expansion",
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
            "verdict",
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

    # Per batch (a list serializes many with one instance).
    _summaries: dict[int, simulation.Summary | None]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._summaries = {}

    def _summary(self, batch: SimulationBatch) -> simulation.Summary | None:
        """The batch's summary, made once for its verdict and its results."""
        if batch.pk not in self._summaries:
            self._summaries[batch.pk] = selectors.batch_summary(batch)
        return self._summaries[batch.pk]

    @extend_schema_field(VerdictSerializer)
    def get_verdict(self, batch: SimulationBatch) -> dict[str, Any]:
        return VerdictSerializer(verdicts.batch_verdict(batch, summary=self._summary(batch))).data

    def get_replayable(self, batch: SimulationBatch) -> bool:
        return selectors.batch_replayable(batch)

    @extend_schema_field(ResultsSerializer(allow_null=True))
    def get_results(self, batch: SimulationBatch) -> dict[str, Any] | None:
        summary = self._summary(batch)
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
    end = serializers.ChoiceField(simulation.ALL_END_REASONS, source="outcome.end")
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


class ChaosReplaySerializer(serializers.Serializer):
    """Game `index` of a Duel of Chaos test batch (`engine.chaos_selectors.ChaosBatchGame`)."""

    index = serializers.IntegerField()
    first = serializers.SerializerMethodField(
        help_text="The seat dealt the Emissaries 1, which played first."
    )
    winner = serializers.SerializerMethodField(
        help_text="The seat that won; null: the site's turn limit was reached."
    )
    turns = serializers.IntegerField()
    agents = serializers.SerializerMethodField(help_text="The AI per seat.")
    page_url = serializers.SerializerMethodField(help_text="The replay viewer.")
    replay = serializers.SerializerMethodField(
        help_text=(
            "The engine's replay (`engine.chaos.replay`): rules_version, game, seed, options, "
            "cards, actions in their readable form, result."
        )
    )

    @extend_schema_field(serializers.ChoiceField(["A", "B"]))
    def get_first(self, game: chaos_selectors.ChaosBatchGame) -> str:
        return "AB"[game.options.first_player or 0]

    @extend_schema_field(serializers.ChoiceField(["A", "B"], allow_null=True))
    def get_winner(self, game: chaos_selectors.ChaosBatchGame) -> str | None:
        return None if game.winner is None else "AB"[game.winner]

    @extend_schema_field(serializers.DictField(child=serializers.CharField()))
    def get_agents(self, game: chaos_selectors.ChaosBatchGame) -> dict[str, str]:
        return {"A": game.batch.agent_a, "B": game.batch.agent_b}

    def get_page_url(self, game: chaos_selectors.ChaosBatchGame) -> str:
        return reverse("engine:chaos_replay", args=[game.batch.pk, game.index])

    @extend_schema_field(serializers.JSONField())
    def get_replay(self, game: chaos_selectors.ChaosBatchGame) -> dict[str, Any]:
        return game.replay()


# Difficulty curves ----------------------------------------------------------------------------


class CurveLevelSerializer(serializers.Serializer):
    level = serializers.IntegerField()
    batch = serializers.SerializerMethodField(help_text="The level's batch (its full results).")
    status = serializers.CharField(source="batch.status")
    games_done = serializers.IntegerField(source="batch.games_done")
    games = serializers.IntegerField(source="batch.games")
    wins = RateSerializer(help_text="The player's wins so far, with their 95% interval.")

    @extend_schema_field(serializers.URLField())
    def get_batch(self, point: curve_selectors.CurvePoint) -> str:
        path = reverse("api:simulation-detail", args=[point.batch.pk])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request else path


class CurveSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="curve.pk")
    url = serializers.SerializerMethodField()
    deck = serializers.CharField(
        source="curve.deck.share_id", allow_null=True, help_text="Share id of the saved deck."
    )
    games_per_level = serializers.IntegerField(source="curve.games_per_level")
    seed = serializers.IntegerField(source="curve.seed")
    created_at = serializers.DateTimeField(source="curve.created_at")
    active = serializers.BooleanField(help_text="Whether some level is still queued or running.")
    games_done = serializers.IntegerField()
    games = serializers.IntegerField()
    levels = CurveLevelSerializer(many=True)
    level_beaten = serializers.IntegerField(
        help_text=(
            "The highest level N such that the deck won at least half of its games at every "
            "level up to N (0: not even level 1)."
        )
    )

    @extend_schema_field(serializers.URLField())
    def get_url(self, summary: curve_selectors.CurveSummary) -> str:
        path = reverse("api:simulation-curve-detail", args=[summary.curve.pk])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request else path
