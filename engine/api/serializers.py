"""Serializers of the simulations API: parse a batch request, show a batch and its results.

A batch's decks are `seats` (deck A first), in and out; `deck_a`/`deck_b` (with `agent_a` and
`agent_b` on input) are the Duel's shorthand for its two seats, which other tools use.
"""

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cod_site.api.limits import BoundedListField, BoundedListSerializer
from cod_site.api.schema import documented_range
from cod_site.api.strict import StrictInputSerializer
from decks.api.serializers import DeckChoiceSerializer
from engine import selectors, simulation
from engine.adapters.decks import MODE, DeckChoice
from engine.adapters.pools import MAX_POOL_EXPANSIONS
from engine.models import (
    MAX_GAMES,
    MAX_LEVEL,
    MIN_LEVEL,
    Agent,
    Drafter,
    SimulationBatch,
    SimulationSeat,
)
from engine.rules import (
    EDITION_2021_ABILITIES,
    EDITIONS,
    FIXED_MANA_RANGE,
    GIVEN_ABILITIES,
    MANA_PER_CREATURE_CHOICES,
    MODES,
)
from engine.services import CONTROL_GAMES, CURVE_GAMES, MAX_CURVE_GAMES, SEED_BITS, DraftChoice

# What a batch plays: the decks entered, or decks drafted for each game (the Draft format).
FORMATS = ("decks", "draft")

# The most decks any game mode seats: more is refused before any deck is read.
MAX_SEATS = max(len(mode.seats) for mode in MODES.values())


AUTO_AGENT_HELP = (
    "Omitted: the strongest AI on the strength ladder of the batch's mode whose games fit the "
    "batch's size (two minutes of CPU at most: a minute of two workers); `verdict.agents` says "
    "which played."
)


class SeatChoiceSerializer(DeckChoiceSerializer):
    agent = serializers.ChoiceField(Agent.choices, required=False, help_text=AUTO_AGENT_HELP)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        deck = {key: value for key, value in attrs.items() if key != "agent"}
        return {"agent": attrs.get("agent"), **super().validate(deck)}


class SoloAiSerializer(StrictInputSerializer):
    """Solo's AI: a `level` of the difficulty table, or explicit parameters (the engine's
    `AiOptions` JSON; those left out keep Quick Play's values)."""

    level = documented_range(MIN_LEVEL, MAX_LEVEL)(
        required=False, help_text="A Custom Play level: its default parameters."
    )
    fixed_mana = documented_range(*FIXED_MANA_RANGE)(
        required=False, help_text="Phase 1's fixed Mana (Quick Play 6)."
    )
    mana_per_creature = serializers.ChoiceField(
        list(MANA_PER_CREATURE_CHOICES),
        required=False,
        help_text="Phase 1's Mana per creature the player has in play (Quick Play 1).",
    )
    ai_first = serializers.BooleanField(required=False, help_text="The AI plays first.")
    resistance = serializers.BooleanField(
        required=False, help_text="Each attack on the AI's deck pile inflicts only 1 damage."
    )
    abilities = BoundedListField(
        child=serializers.ChoiceField(list(GIVEN_ABILITIES + EDITION_2021_ABILITIES)),
        max_length=len(GIVEN_ABILITIES + EDITION_2021_ABILITIES),
        required=False,
        help_text=(
            "Special abilities all the AI's creatures bear: the current edition's ten "
            "(berserk only with edition 2021)."
        ),
    )
    bastion = serializers.BooleanField(
        required=False,
        help_text="False: the 2021 edition's AI that starts on its Fort (only with edition 2021).",
    )
    edition = serializers.ChoiceField(
        list(EDITIONS),
        required=False,
        help_text=(
            "current (default: the 2022 rulebook), or 2021: the Swedish edition's variant that "
            "also offers berserk and bastion false."
        ),
    )
    champion = serializers.BooleanField(
        required=False,
        help_text="The Champion module: the player plays its deck's Champion (with `champions`).",
    )


def solo_ai_choice(values: dict[str, Any]) -> selectors.SoloAiChoice:
    """A validated `ai` object as the services take it."""
    options = {key: value for key, value in values.items() if key != "level"}
    return selectors.SoloAiChoice(level=values.get("level"), options=options or None)


class SimulationRequestSerializer(StrictInputSerializer):
    mode = serializers.ChoiceField(
        selectors.SIMULATION_MODES,
        default=MODE,
        help_text=(
            "duel (2 decks), solo (1 deck, the player's, against the rulebook's AI), 4 players "
            "in free_for_all or teams (4 decks), or coop (2 decks, the players' at seats A and C, "
            "against two of the rulebook's AIs at B and D)."
        ),
    )
    ai = SoloAiSerializer(
        required=False,
        help_text="Solo and Co-op: the AI, one for both of Co-op's AIs (default: Quick Play).",
    )
    seats = BoundedListSerializer(
        child=SeatChoiceSerializer(),
        max_length=MAX_SEATS,
        required=False,
        help_text=(
            "The decks, deck A first, each with its AI (a Duel: 2; Solo: 1, the player's; "
            "Free-For-All and Team Play: 4, partners A and C against B and D; Co-op: 2, the "
            "players', seated at A and C). Or `deck_a`/`deck_b`."
        ),
    )
    deck_a = DeckChoiceSerializer(required=False, help_text="The Duel's shorthand for seats[0].")
    deck_b = DeckChoiceSerializer(required=False, help_text="The Duel's shorthand for seats[1].")
    agent_a = serializers.ChoiceField(
        Agent.choices, required=False, help_text=f"With `deck_a`: its AI. {AUTO_AGENT_HELP}"
    )
    agent_b = serializers.ChoiceField(
        Agent.choices, required=False, help_text=f"With `deck_b`: its AI. {AUTO_AGENT_HELP}"
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
    control = serializers.BooleanField(
        default=False,
        help_text=(
            "Also play a small control batch of the same decks and seed with another AI (greedy; "
            "lookahead if the batch is greedy's; "
            + ", ".join(f"{games} {agent}" for agent, games in CONTROL_GAMES.items())
            + " games): `verdict.warnings` says when the two disagree."
        ),
    )

    format = serializers.ChoiceField(
        FORMATS,
        default="decks",
        help_text=(
            "`decks`: the decks entered play; `draft`: each game drafts its decks from `pool`, "
            "then `agents` (or `agent_a`, `agent_b`) play them. The Duel drafts two (the Draft "
            "format: reveal 4, A takes 1, B 2, A the last, swapped each round); Solo's player "
            "drafts with the Solo Draft (reveal 4, keep 1, give 3 to the AI, until 8 cards); "
            "free_for_all and teams draft four with the 4-player Draft (reveal 8, A 1, B 1, C 1, "
            "D 2, C 1, B 1, A 1; the first pick moves on each round); Co-op's two players draft "
            "with the Co-op Draft (reveal 8, A takes 1, B 1 and gives 6 to the AI, swapped each "
            "round), the AI's 48 cards divided into its two deck piles."
        ),
    )
    pool = serializers.CharField(
        required=False,
        max_length=60,
        help_text=(
            "With `format: draft`: the expansions to draft from (slugs, or codes: 00), "
            f"separated by commas, at most {MAX_POOL_EXPANSIONS}, holding the cards the "
            "procedure takes: 32 (one expansion) for Solo and 4 players, 64 (two, e.g. `01,02`) "
            "for Co-op, 16 or more for the Duel."
        ),
    )
    drafter = serializers.ChoiceField(
        Drafter.choices,
        default=Drafter.PRICE,
        help_text="With `format: draft`: the computer drafter of every drafting seat.",
    )
    agents = BoundedListField(
        child=serializers.ChoiceField(Agent.choices),
        max_length=MAX_SEATS,
        required=False,
        help_text=(
            "With `format: draft`: the AI of each drafting seat, deck A first (default: greedy); "
            "one per player (Duel and Co-op 2, Solo 1, free_for_all and teams 4). "
            "`agent_a`/`agent_b` are the shorthand for two."
        ),
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["format"] == "draft":
            return self._validate_draft(attrs)
        for key in ("pool", "agents"):
            if key in attrs:
                raise serializers.ValidationError({key: f"Only a Draft batch has `{key}`."})
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
        # The seats each mode takes are checked once, by the service (`seat_fields`).
        return attrs

    def _validate_draft(self, attrs: dict[str, Any]) -> dict[str, Any]:
        decks = [key for key in ("seats", "deck_a", "deck_b") if key in attrs]
        if decks:
            raise serializers.ValidationError(
                {key: "A Draft batch drafts its decks: give `pool`, not decks." for key in decks}
            )
        if "pool" not in attrs:
            raise serializers.ValidationError({"pool": "A Draft batch needs a `pool`."})
        if "agents" in attrs:
            shorthand = [key for key in ("agent_a", "agent_b") if key in attrs]
            if shorthand:
                raise serializers.ValidationError(
                    {key: "Give either `agents` or `agent_a` and `agent_b`." for key in shorthand}
                )
        return attrs

    def draft_choice(self) -> DraftChoice | None:
        values = self.validated_data
        if values["format"] != "draft":
            return None
        if "agents" in values:
            return DraftChoice(values["pool"], values["drafter"], tuple(values["agents"]))
        sides = simulation.DECK_LETTERS[: len(simulation.player_seats(values["mode"]))]
        if "agent_b" in values and "b" not in sides:
            sides = (*sides, "b")  # Solo's refused second AI (`services._players_check`)
        agents = tuple(values.get(f"agent_{side}", Agent.GREEDY) for side in sides)
        return DraftChoice(values["pool"], values["drafter"], agents)

    def seat_fields(self) -> list[tuple[str, ...]] | None:
        """How the request named its players' seats, for the service's check of the seats its
        mode takes (`engine.services._players_check`): None with `seats`."""
        values = self.validated_data
        if values["format"] == "draft":
            if "agents" in values:
                return [("agents",)] * len(values["agents"])
            return [tuple(key for key in (f"agent_{side}",) if key in values) for side in "ab"]
        if "seats" in values:
            return None
        return [
            tuple(key for key in (f"deck_{side}", f"agent_{side}") if key in values)
            for side in "ab"
        ]

    def seat_choices(self) -> list[selectors.SeatChoice]:
        values = self.validated_data
        if values["format"] == "draft":
            return []
        if "seats" in values:
            return [
                selectors.SeatChoice(
                    DeckChoice(**{k: v for k, v in seat.items() if k != "agent"}),
                    seat["agent"],
                )
                for seat in values["seats"]
            ]
        return [
            selectors.SeatChoice(DeckChoice(**values[f"deck_{side}"]), values.get(f"agent_{side}"))
            for side in ("a", "b")
            if f"deck_{side}" in values
        ]

    def ai_choice(self) -> selectors.SoloAiChoice | None:
        ai = self.validated_data.get("ai")
        return None if ai is None else solo_ai_choice(ai)


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
    def get_control(self, verdict: selectors.Verdict) -> dict[str, Any] | None:
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
        return VerdictSerializer(selectors.batch_verdict(batch, summary=self._summary(batch))).data

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
    """Game `index` of a Duel of Chaos test batch (`engine.selectors.ChaosBatchGame`)."""

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
    def get_first(self, game: selectors.ChaosBatchGame) -> str:
        return "AB"[game.options.first_player or 0]

    @extend_schema_field(serializers.ChoiceField(["A", "B"], allow_null=True))
    def get_winner(self, game: selectors.ChaosBatchGame) -> str | None:
        return None if game.winner is None else "AB"[game.winner]

    @extend_schema_field(serializers.DictField(child=serializers.CharField()))
    def get_agents(self, game: selectors.ChaosBatchGame) -> dict[str, str]:
        return {"A": game.batch.agent_a, "B": game.batch.agent_b}

    def get_page_url(self, game: selectors.ChaosBatchGame) -> str:
        return reverse("engine:chaos_replay", args=[game.batch.pk, game.index])

    @extend_schema_field(serializers.JSONField())
    def get_replay(self, game: selectors.ChaosBatchGame) -> dict[str, Any]:
        return game.replay()


# Difficulty curves ----------------------------------------------------------------------------


class CurveRequestSerializer(SeatChoiceSerializer):
    """The deck (one of `deck`, `code`, `preconstructed`) and its `agent`, played in Solo
    against every level of the difficulty table."""

    games = serializers.IntegerField(
        min_value=1, max_value=MAX_CURVE_GAMES, default=CURVE_GAMES, help_text="Games per level."
    )
    seed = serializers.IntegerField(
        required=False, min_value=0, max_value=2**SEED_BITS - 1, help_text="Random if omitted."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        settings: dict[str, Any] = {
            key: attrs.pop(key) for key in ("games", "seed") if key in attrs
        }
        return {**super().validate(attrs), **settings}

    def seat_choice(self) -> selectors.SeatChoice:
        values = self.validated_data
        deck = {key: values[key] for key in ("deck", "code", "preconstructed") if key in values}
        return selectors.SeatChoice(DeckChoice(**deck), values["agent"])


class CurveLevelSerializer(serializers.Serializer):
    level = serializers.IntegerField()
    batch = serializers.SerializerMethodField(help_text="The level's batch (its full results).")
    status = serializers.CharField(source="batch.status")
    games_done = serializers.IntegerField(source="batch.games_done")
    games = serializers.IntegerField(source="batch.games")
    wins = RateSerializer(help_text="The player's wins so far, with their 95% interval.")

    @extend_schema_field(serializers.URLField())
    def get_batch(self, point: selectors.CurvePoint) -> str:
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
    def get_url(self, summary: selectors.CurveSummary) -> str:
        path = reverse("api:simulation-curve-detail", args=[summary.curve.pk])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request else path
