"""The games API: thin views over the play app's selectors and services (`play.selectors`,
`play.view_selectors`; `play.table_services`, `play.services`, `play.end_services`).

A player is an account (session or API token) or a guest, who sends the seat token received
when joining in the `X-Seat-Token` header. Only the players of a game see it, each its own view.
"""

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from cod_site.api.pagination import PageNumberPagination
from cod_site.api.schema import error_response
from cod_site.api.throttles import ExpensiveThrottle, SeatOrLinkThrottle
from cod_site.errors import DomainError
from cod_site.users import signed_in_user
from play import end_services, selectors, services, table_services, view_selectors
from play.api import serializers as s
from play.models import Game, Seat, Status

TAGS = ["games"]
TOKEN = OpenApiParameter(
    "X-Seat-Token", str, OpenApiParameter.HEADER, required=False, description="A guest's seat."
)
CONFLICT = error_response(
    "`not_your_turn`, `not_started`, `game_over`, `table_full`, `engine_changed`, "
    "`not_drafting`, `not_your_pick`."
)


class PlayerView(APIView):
    """A view of one game that guests use with their seat token and spectators with the spectate
    link: each is throttled as its own client, not by its address."""

    throttle_classes = [SeatOrLinkThrottle]

    def throttle_seat(self, request: Request) -> str | None:
        return selectors.throttle_ident(
            uid=self.kwargs["uid"],
            token=request.headers.get("X-Seat-Token", ""),
            code=request.query_params.get("code", ""),
        )


def _seat(request: Request, uid: str) -> tuple[Game, Seat]:
    game = selectors.game_get(uid=uid)
    token = request.headers.get("X-Seat-Token", "")
    return game, selectors.seat_required(game=game, user=request.user, token=token)


def _view(request: Request, game: Game, seat: Seat | None) -> Response:
    raw = request.query_params.get("events_from", "0")
    if not raw.isdigit() or len(raw) > 9:
        raise DomainError(
            "invalid_parameter",
            _("events_from: a whole number >= 0."),
            {"field": "events_from"},
        )
    return Response(view_selectors.game_view(game=game, seat=seat, events_from=int(raw)))


def _summaries(view: APIView, request: Request, games: QuerySet[Game]) -> Response:
    """One page of `games`, each as its summary."""
    paginator = PageNumberPagination()
    page = paginator.paginate_queryset(games, request, view=view)
    return paginator.get_paginated_response(s.GameSummarySerializer(page, many=True).data)


EVENTS_FROM = OpenApiParameter(
    "events_from", int, description="The first event to include (the last `events_next`)."
)


class GameListView(APIView):
    permission_classes = [IsAuthenticated]
    pagination_class = PageNumberPagination
    throttle_classes = [AnonRateThrottle, ExpensiveThrottle]
    throttle_scope = "games"

    @extend_schema(
        summary="My games, last played first",
        responses=s.GameSummarySerializer(many=True),
        tags=TAGS,
    )
    def get(self, request: Request) -> Response:
        return _summaries(self, request, selectors.games_of(signed_in_user(request)))

    @extend_schema(
        summary="Open a table",
        description=(
            "`mode`: duel (default), solo, free_for_all, teams or coop. Seats: `me` with your "
            "deck, the others `invite` (share `invite_url`; the guest or player who joins picks a "
            "deck; with a `username`, only that account may take the seat, and the invitation "
            "shows in its header) or `agent` (a computer player); Solo and Co-op add the Solo AI's"
            " seats at `ai_level`. The game starts once no seat waits for a player. Preconstructed"
            " tables take `preconstructed` decks, Constructed ones a saved `deck` or a deck "
            "`code`; Draft tables no deck but a `pool`: once seated, the seats draft with the "
            "mode's procedure (`pick`), then play the drafted decks. Mutation tables: each player "
            "plays the deck they chose in a Mutation session they hold a seat in "
            "(`mutation_session`; computer seats play preconstructed decks). A saved Constructed "
            "deck's Champion plays with it (the Champion module on). 400 `wrong_seats` says what "
            "the mode seats."
        ),
        request=s.GameCreateSerializer,
        responses={201: s.CreatedSerializer},
        tags=TAGS,
    )
    def post(self, request: Request) -> Response:
        data = s.GameCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        game = table_services.game_create(
            creator=signed_in_user(request),
            format=values["format"],
            seats=data.seat_requests(),
            mode=values["mode"],
            ai_level=values.get("ai_level"),
            exhaustion=values["exhaustion"],
            listed=values["listed"],
            seed=values.get("seed"),
            turn_seconds=values["turn_seconds"],
            pool=values["pool"],
        )
        body = s.CreatedSerializer(selectors.game_get(uid=game.uid)).data
        return Response(body, status=status.HTTP_201_CREATED, headers={"Location": body["url"]})


class OpenGamesView(APIView):
    permission_classes = [AllowAny]
    pagination_class = PageNumberPagination
    listed_status = Status.WAITING

    @extend_schema(
        summary="Open tables waiting for a player",
        responses=s.GameSummarySerializer(many=True),
        tags=TAGS,
    )
    def get(self, request: Request) -> Response:
        games = selectors.listed_games(request.user, self.listed_status)
        return _summaries(self, request, games)


@extend_schema_view(
    get=extend_schema(summary="Listed tables in play, to watch (their `spectate_url`)")
)
class LiveGamesView(OpenGamesView):
    listed_status = Status.PLAYING


class GameDetailView(PlayerView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="My view of a game",
        description="What my seat sees: no card of another hand before the game ends.",
        parameters=[TOKEN, EVENTS_FROM],
        responses={200: s.ViewSerializer, 409: CONFLICT},
        tags=TAGS,
    )
    def get(self, request: Request, uid: str) -> Response:
        game, seat = _seat(request, uid)
        return _view(request, game, seat)


class SpectateView(PlayerView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="Watch a game: the public view",
        description=(
            "With the spectate link's `code` (a table's `spectate_url`; any listed table's is in "
            "`/games/live/`), no account needed: what anyone at no seat sees, every hand as "
            "backs and no card that never left a hand, in the events too, until the game is "
            "over; `seat` is null and there are no legal actions. A wrong code is a 404."
        ),
        parameters=[
            OpenApiParameter("code", str, required=True, description="The spectate code."),
            EVENTS_FROM,
        ],
        responses={200: s.ViewSerializer, 404: error_response("`not_found`.")},
        tags=TAGS,
    )
    def get(self, request: Request, uid: str) -> Response:
        game = selectors.game_spectated(uid=uid, code=request.query_params.get("code", ""))
        return _view(request, game, None)


class LegalActionsView(PlayerView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="My legal actions now (empty when it is not my turn)",
        parameters=[TOKEN],
        responses={200: s.LegalActionSerializer(many=True), 409: CONFLICT},
        tags=TAGS,
    )
    def get(self, request: Request, uid: str) -> Response:
        game, seat = _seat(request, uid)
        return Response(view_selectors.game_legal_actions(game=game, seat=seat))


class JoinView(PlayerView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="Take the open seat of a table",
        description=(
            "A guest (no account) gives `guest_name` and keeps the `seat_token`. A player "
            "invited by username takes the seat kept for them, `invite_code` or not; no one "
            "else may: 403 `seat_invited` when every open seat is kept for another player."
        ),
        request=s.JoinSerializer,
        responses={200: s.JoinedSerializer, 409: CONFLICT},
        tags=TAGS,
    )
    def post(self, request: Request, uid: str) -> Response:
        data = s.JoinSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        seat, token = table_services.game_join(
            game=selectors.game_get(uid=uid),
            invite_code=values["invite_code"],
            user=request.user,
            guest_name=values["guest_name"],
            deck=s.deck_choice(values.get("deck")),
            mutation_session=values.get("mutation_session"),
        )
        return Response({"seat": selectors.index_letter(seat.index), "seat_token": token})


class ActView(PlayerView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="Play an action",
        description=(
            "One of my view's `legal_actions`. Idempotent on `client_id`. Out of turn: 409 "
            "`not_your_turn`; an illegal action: 400 `illegal_action` with `details.rule_id`, "
            "`refusal` and its arguments; it names a card my seat cannot see only by its id. "
            "Computer seats answer before the response. The answer is my view after it."
        ),
        parameters=[TOKEN, EVENTS_FROM],
        request=s.ActSerializer,
        responses={200: s.ViewSerializer, 409: CONFLICT},
        tags=TAGS,
    )
    def post(self, request: Request, uid: str) -> Response:
        game, seat = _seat(request, uid)
        data = s.ActSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        game = services.game_act(
            game=game,
            seat=seat,
            client_id=values["client_id"],
            kind=values["kind"],
            card=values["card"],
            arg=values["arg"],
        )
        return _view(request, game, seat)


class PickView(PlayerView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="Pick cards at a Draft table",
        description=(
            "`draft.count` of my view's `draft.pack`. Idempotent on `client_id`. Not my pick: "
            "409 `not_your_pick`; not drafting: 409 `not_drafting`; a card not in my pack or "
            "the wrong number: 400 `illegal_pick` naming `details.card` (or `count`; a card I "
            "was not shown only by its id). Computer "
            "seats pick before the response; the last pick starts the game. The answer is my "
            "view after it."
        ),
        parameters=[TOKEN, EVENTS_FROM],
        request=s.PickSerializer,
        responses={200: s.ViewSerializer, 409: CONFLICT},
        tags=TAGS,
    )
    def post(self, request: Request, uid: str) -> Response:
        game, seat = _seat(request, uid)
        data = s.PickSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        game = services.game_pick(
            game=game, seat=seat, client_id=values["client_id"], cards=values["cards"]
        )
        return _view(request, game, seat)


class ConcedeView(PlayerView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="Concede",
        parameters=[TOKEN],
        request=None,
        responses={200: s.ViewSerializer, 409: CONFLICT},
        tags=TAGS,
    )
    def post(self, request: Request, uid: str) -> Response:
        game, seat = _seat(request, uid)
        game = services.game_concede(game=game, seat=seat)
        return _view(request, game, seat)


class ClaimTimeView(PlayerView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="Claim the game on time",
        description=(
            "At a table with a time per turn, any player may claim once the `deadline` of the "
            "seat to play is past: that seat loses on time, as by conceding (the other teams "
            "win; `seats[].timed_out`). Acting applies it too, and a periodic task without "
            "anyone asking. 409 `time_left` before the deadline (or without a time per turn)."
        ),
        parameters=[TOKEN],
        request=None,
        responses={200: s.ViewSerializer, 409: error_response("`time_left`, `game_over`.")},
        tags=TAGS,
    )
    def post(self, request: Request, uid: str) -> Response:
        game, seat = _seat(request, uid)
        game = services.game_timeout_claim(game=game)
        return _view(request, game, seat)


class ReplayView(PlayerView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="The replay of a finished game (engine replay JSON)",
        description="Refused with 409 `not_finished` while the game goes on.",
        parameters=[TOKEN],
        responses={200: dict, 409: error_response("`not_finished`.")},
        tags=TAGS,
    )
    def get(self, request: Request, uid: str) -> Response:
        game, _ = _seat(request, uid)
        return Response(selectors.game_replay(game=game))


NOT_FINISHED = error_response("`not_finished`, `rematch_seat_taken`.")


class RematchView(PlayerView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="Rematch a finished game",
        description=(
            "A new table with the same seats (the same players, guests and computer players, "
            "each with the deck it played; a Draft table drafts again from its pool) where the "
            "seat after the finished game's first player plays first (Solo and Co-op: the "
            "player, as the rules have it). I sit at once (a guest with the same seat token); "
            "the seat of every other person is kept for them: an account's as an invitation by "
            "username, and they take it by asking for the rematch too. The game starts once "
            "every seat is taken: at once against computers only. 201 with the new table; once "
            "made, 200 with that same table. Not finished: 409 `not_finished`; my seat of the "
            "rematch taken by someone else (its share link): 409 `rematch_seat_taken`; not a "
            "player of the game: 403 `not_seated`."
        ),
        parameters=[TOKEN],
        request=None,
        responses={200: s.CreatedSerializer, 201: s.CreatedSerializer, 409: NOT_FINISHED},
        tags=TAGS,
    )
    def post(self, request: Request, uid: str) -> Response:
        game, seat = _seat(request, uid)
        rematch = end_services.game_rematch(game=game, seat=seat)
        body = s.CreatedSerializer(selectors.game_get(uid=rematch.game.uid)).data
        code = status.HTTP_201_CREATED if rematch.created else status.HTTP_200_OK
        return Response(body, status=code, headers={"Location": body["url"]})


class PlayAgainView(PlayerView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="Play a finished game again against the computer",
        description=(
            "A new table of the same mode and format where I keep my seat and deck and every "
            "other person's seat is a computer player (the table's, else greedy) with the deck "
            "it played; it starts at once. 201 with the new table; asked again, 200 with that "
            "same table. 409 `not_finished`; 403 `not_seated`."
        ),
        parameters=[TOKEN],
        request=None,
        responses={
            200: s.CreatedSerializer,
            201: s.CreatedSerializer,
            409: error_response("`not_finished`."),
        },
        tags=TAGS,
    )
    def post(self, request: Request, uid: str) -> Response:
        game, seat = _seat(request, uid)
        again = end_services.game_play_again(game=game, seat=seat)
        body = s.CreatedSerializer(selectors.game_get(uid=again.game.uid)).data
        code = status.HTTP_201_CREATED if again.created else status.HTTP_200_OK
        return Response(body, status=code, headers={"Location": body["url"]})
