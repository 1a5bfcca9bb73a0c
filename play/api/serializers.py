"""Serializers of the games API: parse a table, a join and an action; show a table."""

from datetime import datetime
from typing import Any

from django.urls import reverse
from rest_framework import serializers

from cod_site.api.limits import BoundedListSerializer
from cod_site.api.strict import StrictInputSerializer
from decks.api.serializers import DeckChoiceSerializer
from engine.adapters.play import DeckChoice
from engine.rules import ACTION_KINDS
from play.models import Agent, Format, Game, Mode, TurnTime
from play.seeds import SEED_BITS
from play.selectors import index_letter, seat_label, turn_deadline
from play.table_services import SeatRequest

KINDS = list(ACTION_KINDS.values())


def deck_choice(data: dict[str, Any] | None) -> DeckChoice | None:
    return None if data is None else DeckChoice(**data)


class SeatSerializer(StrictInputSerializer):
    kind = serializers.ChoiceField(["me", "invite", "agent"])
    agent = serializers.ChoiceField(Agent.choices, required=False, help_text="With `agent`.")
    username = serializers.CharField(
        required=False,
        max_length=150,
        help_text=(
            "With `invite`: the only account that may take the seat (with or without the "
            "share link); the invitation shows in its header until it joins or the table ends. "
            "400 `unknown_user`, `invite_self`, `invited_twice`, `username_without_invite` "
            "(`details.field` `username`, `side` the seat's letter)."
        ),
    )
    deck = DeckChoiceSerializer(
        required=False,
        help_text="Yours with `me`; the computer's with `agent` (default a preconstructed one).",
    )
    mutation_session = serializers.IntegerField(
        required=False,
        min_value=1,
        help_text="`mutation` tables, with `me`: the session whose deck you chose you play.",
    )


class GameCreateSerializer(StrictInputSerializer):
    mode = serializers.ChoiceField(Mode.choices, default=Mode.DUEL)
    format = serializers.ChoiceField(Format.choices)
    seats = BoundedListSerializer(
        child=SeatSerializer(),
        max_length=4,
        help_text=(
            "The players' seats in seat order, one `me`, the others `invite` or `agent`: a Duel "
            "2 (A, B), Solo 1 (A; the Solo AI is B), Free-For-All and Team Play 4 (A-D; "
            "partners A+C, B+D), Co-op 2 (A and C; the two AIs are B and D)."
        ),
    )
    ai_level = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=10,
        help_text="Solo and Co-op: the AI's level in the difficulty table (default 1).",
    )
    exhaustion = serializers.BooleanField(default=False)
    listed = serializers.BooleanField(
        default=False,
        help_text="List the table in the lobby's open tables, and once in play its live ones "
        "(anyone may watch it).",
    )
    turn_seconds = serializers.ChoiceField(
        TurnTime.choices,
        required=False,
        allow_null=True,
        default=None,
        help_text="The time per turn in seconds (default none): a player whose time runs out "
        "loses the game on time.",
    )
    seed = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=2**SEED_BITS - 1,
        help_text=(
            "Practice only: a table whose other seats are all computer players (`agent`; Solo's "
            "and Co-op's AI) may choose the seed that deals every card, and its `seed_chosen` "
            "says so; with an `invite` seat, 400 `seed_not_allowed`. Else the server draws it, "
            "and it is shown only in the replay, once the game is over."
        ),
    )
    pool = serializers.CharField(
        required=False,
        default="",
        allow_blank=True,
        max_length=200,
        help_text=(
            "`draft` tables: the expansions to draft from, slugs or codes separated by commas "
            "(as Draft test batches: `initiation`; Co-op's 64 cards take two, `01,02`)."
        ),
    )

    def seat_requests(self) -> list[SeatRequest]:
        return [
            SeatRequest(
                kind=seat["kind"],
                agent=seat.get("agent", ""),
                username=seat.get("username", ""),
                deck=deck_choice(seat.get("deck")),
                mutation_session=seat.get("mutation_session"),
            )
            for seat in self.validated_data["seats"]
        ]


class JoinSerializer(StrictInputSerializer):
    invite_code = serializers.CharField(
        required=False, default="", max_length=40, help_text="From the share link."
    )
    guest_name = serializers.CharField(
        required=False, default="", max_length=40, help_text="Without an account."
    )
    deck = DeckChoiceSerializer(
        required=False, help_text="None at a `draft` or a `mutation` table."
    )
    mutation_session = serializers.IntegerField(
        required=False,
        min_value=1,
        help_text="`mutation` tables: the session whose deck you chose you play.",
    )


class PickSerializer(StrictInputSerializer):
    client_id = serializers.CharField(
        max_length=64, help_text="Chosen by the client: the same id twice picks once."
    )
    cards = serializers.ListField(
        child=serializers.IntegerField(min_value=-1, max_value=999),
        max_length=8,
        help_text="The ids of the cards taken, among my view's `draft.pack` (`draft.count`).",
    )


class ActSerializer(StrictInputSerializer):
    client_id = serializers.CharField(
        max_length=64, help_text="Chosen by the client: the same id twice plays once."
    )
    kind = serializers.ChoiceField(KINDS)
    card = serializers.IntegerField(
        default=-1, min_value=-1, max_value=999, help_text="A card id of the view (-1: none)."
    )
    arg = serializers.IntegerField(
        default=-1,
        min_value=-1,
        max_value=999,
        help_text="`play`: the line (0 top, 1 bottom); `play_onto`, `cast`: a creature's card id.",
    )


class LegalActionSerializer(serializers.Serializer):
    """One of `legal_actions`: send it to `act` as it is (with a `client_id`)."""

    kind = serializers.ChoiceField(KINDS)
    card = serializers.IntegerField()
    arg = serializers.IntegerField()


SEED_CHOSEN = (
    "The creator chose the seed that deals every card (a practice table against computer "
    "players): they may know every hidden card."
)


class GameSummarySerializer(serializers.ModelSerializer):
    id = serializers.CharField(source="uid")
    url = serializers.SerializerMethodField()
    spectate_url = serializers.SerializerMethodField(
        help_text="The spectate link of the API: the public view, no hand (`/spectate/?code=`)."
    )
    watch_url = serializers.SerializerMethodField(help_text="The spectate link's page.")
    seats = serializers.SerializerMethodField()
    active = serializers.SerializerMethodField()
    deadline = serializers.SerializerMethodField(
        help_text="When the time of the seat to play runs out (null: no time per turn)."
    )
    seed_chosen = serializers.BooleanField(help_text=SEED_CHOSEN)

    class Meta:
        model = Game
        fields = [
            "id",
            "url",
            "spectate_url",
            "watch_url",
            "status",
            "mode",
            "format",
            "exhaustion",
            "ai_level",
            "seed_chosen",
            "seats",
            "active",
            "turn",
            "turn_seconds",
            "deadline",
            "action_count",
            "created_at",
            "updated_at",
        ]

    def get_url(self, game: Game) -> str:
        return reverse("api:game-detail", args=[game.uid])

    def get_seats(self, game: Game) -> list[dict[str, str]]:
        return [
            {"seat": index_letter(seat.index), "name": seat_label(seat), "kind": seat.kind}
            for seat in game.seats.all()
        ]

    def get_spectate_url(self, game: Game) -> str:
        return f"{reverse('api:game-spectate', args=[game.uid])}?code={game.spectate_code}"

    def get_watch_url(self, game: Game) -> str:
        return reverse("play:watch", args=[game.uid, game.spectate_code])

    def get_active(self, game: Game) -> str | None:
        return None if game.active_seat is None else index_letter(game.active_seat)

    def get_deadline(self, game: Game) -> datetime | None:
        return turn_deadline(game)


class CreatedSerializer(GameSummarySerializer):
    invite_url = serializers.SerializerMethodField()

    class Meta(GameSummarySerializer.Meta):
        fields = [*GameSummarySerializer.Meta.fields, "invite_code", "invite_url"]

    def get_invite_url(self, game: Game) -> str:
        return reverse("play:join", args=[game.uid, game.invite_code])


class ViewSerializer(serializers.Serializer):
    """One seat's view (documented shape; the body is `play.view_selectors.game_view`)."""

    id = serializers.CharField()
    status = serializers.CharField()
    mode = serializers.ChoiceField(Mode.choices)
    ai_level = serializers.IntegerField(allow_null=True, help_text="Solo and Co-op's AI.")
    seed_chosen = serializers.BooleanField(help_text=SEED_CHOSEN)
    seat = serializers.CharField(allow_null=True, help_text="Mine; null for a spectator.")
    seats = serializers.ListField(
        child=serializers.DictField(),
        help_text="Each seat's letter, name, kind (`player`, `agent`, `automaton`), `team` "
        "(the letter of its team's first seat: teammates win together), `conceded` and "
        "`timed_out` (lost on time).",
    )
    turn_seconds = serializers.IntegerField(
        allow_null=True, help_text="The time per turn (null: none)."
    )
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="When the time of the seat to play runs out (null: no limit)."
    )
    action_count = serializers.IntegerField()
    winners = serializers.ListField(child=serializers.CharField())
    rematch = serializers.CharField(
        allow_null=True,
        help_text="The id of the finished game's rematch (null: none made yet; `/rematch/`).",
    )
    draft = serializers.DictField(
        required=False,
        help_text=(
            "`draft` tables only: `to_pick` (the seat whose pick it is, null once drafted), "
            "`count` and `pack` (the revealed cards, only while it is my pick), `gives_rest` "
            "(the cards left go to the AI), my `picks`, `held` (each seat's number of cards), "
            "`pick_count`, `pool`, `procedure`, `rule_id`. Never another seat's pack or picks."
        ),
    )
    state = serializers.DictField(
        allow_null=True,
        help_text=(
            "The engine's view for this seat (null while waiting): players (own hand in order, "
            "the others' `hand_count` and Stronghold; the AI's `pile_count` and `discard`), "
            "lines, Mana, `legal_actions`, `events` "
            "from `?events_from=`, `events_next`, `outcome`."
        ),
    )


class JoinedSerializer(serializers.Serializer):
    seat = serializers.CharField()
    seat_token = serializers.CharField(
        help_text="Guests only (else empty): send it as `X-Seat-Token`; shown once."
    )
