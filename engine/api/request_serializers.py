"""Request serializers of the simulations API: parse a batch request and a difficulty curve's.

A batch's decks are `seats` (deck A first); `deck_a`/`deck_b` (with `agent_a` and `agent_b`) are
the Duel's shorthand for its two seats, which other tools use. What a request may ask for in
each mode is checked once, by the services (`engine.batch_requests`); these read its shape.
"""

from typing import Any

from rest_framework import serializers

from cod_site.api.limits import BoundedListField, BoundedListSerializer
from cod_site.api.schema import documented_range
from cod_site.api.strict import StrictInputSerializer
from decks.api.serializers import DeckChoiceSerializer
from engine import selectors, simulation
from engine.adapters.decks import MODE, DeckChoice
from engine.adapters.pools import MAX_POOL_EXPANSIONS
from engine.batch_requests import DraftChoice
from engine.curve_services import CURVE_GAMES, MAX_CURVE_GAMES
from engine.models import (
    MAX_GAMES,
    MAX_LEVEL,
    MIN_LEVEL,
    Agent,
    Drafter,
)
from engine.rules import (
    EDITION_2021_ABILITIES,
    EDITIONS,
    FIXED_MANA_RANGE,
    GIVEN_ABILITIES,
    MANA_PER_CREATURE_CHOICES,
    MODES,
)
from engine.services import CONTROL_GAMES, SEED_BITS

# What a batch plays: the decks entered, or decks drafted for each game (the Draft format).
FORMATS = ("decks", "draft")

# The most decks any game mode seats: more is refused before any deck is read.
MAX_SEATS = max(len(mode.seats) for mode in MODES.values())


AUTO_AGENT_HELP = (
    "Omitted: the strongest AI on the strength ladder of the batch's mode, whatever the number "
    "of games (a 100,000-game Duel takes about 13 minutes of CPU); `verdict.agents` says which "
    "played."
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
            sides = (
                *sides,
                "b",
            )  # Solo's refused second AI (`engine.batch_requests.players_check`)
        agents = tuple(values.get(f"agent_{side}", Agent.GREEDY) for side in sides)
        return DraftChoice(values["pool"], values["drafter"], agents)

    def seat_fields(self) -> list[tuple[str, ...]] | None:
        """How the request named its players' seats, for the service's check of the seats its
        mode takes (`engine.batch_requests.players_check`): None with `seats`."""
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
