"""The simulations API: thin views over engine.selectors (reads) and engine.services (writes).

Only the account that asked for a batch (and staff) sees it; anyone else gets a 404.
"""

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from cod_site.api.pagination import PageNumberPagination
from cod_site.api.schema import error_response
from cod_site.api.throttles import ExpensiveThrottle
from cod_site.users import signed_in_user
from engine import chaos_selectors, curve_selectors, curve_services, selectors, services
from engine.api import request_serializers as rs
from engine.api import serializers as s
from engine.models import SimulationBatch

ERRORS = {
    400: error_response("Bad input: `code` says why."),
    404: error_response("No such batch (or not yours)."),
}
TAGS = ["simulations"]


def _batch_data(request: Request, batch: SimulationBatch) -> dict[str, Any]:
    return s.BatchSerializer(batch, context={"request": request}).data


class SimulationListView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [AnonRateThrottle, ExpensiveThrottle]
    throttle_scope = "simulations"
    pagination_class = PageNumberPagination  # also tells the schema that the list is paged

    @extend_schema(
        summary="My test batches, newest first", responses=s.BatchSerializer(many=True), tags=TAGS
    )
    def get(self, request: Request) -> Response:
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(selectors.batches_of(request.user), request, view=self)
        return paginator.get_paginated_response(
            s.BatchSerializer(page, many=True, context={"request": request}).data
        )

    @extend_schema(
        summary="Queue a batch of simulated games",
        description=(
            "Answers 202 at once with the batch and its `url`; poll it for the progress and the "
            "results. The decks are `seats` (deck A first, each with its `agent`; a Duel has "
            "2, the 4-player `mode`s 4, seated in turn so that no deck keeps the first seat), "
            "or the Duel's shorthand `deck_a`, `deck_b` (and `agent_a`, `agent_b`). Bad "
            "input (unknown or illegal deck, malformed deck code, games out of 1..100000, a "
            "number of decks the mode does not seat) is a 400 and queues nothing; "
            "`details.side` names the deck by its letter (`a` for seats[0]). A per-user limit "
            "(batches at once, games per day) is a 429. `mode: solo` plays one deck (the "
            "player's, with its agent) against the rulebook's AI, whose deck pile is the 3 other "
            "preconstructed decks (for a preconstructed deck) or 24 other cards of the deck's "
            "expansions; `ai` is a `level` of the difficulty table or explicit parameters "
            "(`details.field` names a bad one, e.g. `ai.level`); a Constructed deck is a 400 "
            "`illegal_deck` (not playable in Solo). The results' `ends` then count "
            "`deck_pile_emptied` (the player won) and `fort_destroyed` (the AI won). "
            "`format: draft` plays the Draft format instead: each game drafts its two decks from "
            "the expansion `pool` by its seed, with `drafter`, then `agent_a` and `agent_b` play "
            "them; seat A drafts first in game 0 and the seats rotate as for decks."
        ),
        request=rs.SimulationRequestSerializer,
        responses={
            202: s.BatchSerializer,
            400: ERRORS[400],
            429: error_response("A per-user limit."),
        },
        tags=TAGS,
    )
    def post(self, request: Request) -> Response:
        data = rs.SimulationRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        batch = services.batch_create(
            requested_by=signed_in_user(request),
            seats=data.seat_choices(),
            games=values["games"],
            seed=values.get("seed"),
            exhaustion=values["exhaustion"],
            champions=values["champions"],
            mode=values["mode"],
            ai=data.ai_choice(),
            draft=data.draft_choice(),
            control=values["control"],
            seat_fields=data.seat_fields(),
        )
        batch = selectors.batch_get(batch_id=batch.pk, user=request.user)
        body = _batch_data(request, batch)
        return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": body["url"]})


class SimulationDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="A batch: status, progress, and the results once done",
        responses={200: s.BatchSerializer, 404: ERRORS[404]},
        tags=TAGS,
    )
    def get(self, request: Request, batch_id: int) -> Response:
        batch = selectors.batch_get(batch_id=batch_id, user=request.user)
        return Response(_batch_data(request, batch))


class SimulationCancelView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Cancel a batch",
        description="Chunks not yet played are skipped; the results keep the games played.",
        request=None,
        responses={
            200: s.BatchSerializer,
            404: ERRORS[404],
            409: error_response("Already done or failed."),
        },
        tags=TAGS,
    )
    def post(self, request: Request, batch_id: int) -> Response:
        batch = selectors.batch_get(batch_id=batch_id, user=request.user)
        batch = services.batch_cancel(batch=batch, actor=signed_in_user(request))
        return Response(_batch_data(request, batch))


class SimulationReplayView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="The replay of one game of a batch",
        description=(
            "Recomputed from the batch's seed, decks and agents (games are not stored), so only "
            "by the rules engine and AIs that played the batch: once they changed, a 409 "
            "`engine_changed` (the batch's results stay valid)."
        ),
        responses={
            200: s.ReplaySerializer,
            404: ERRORS[404],
            409: error_response("`engine_changed`: played by another engine."),
        },
        tags=TAGS,
    )
    def get(self, request: Request, batch_id: int, index: int) -> Response:
        batch = selectors.batch_get(batch_id=batch_id, user=request.user)
        game = selectors.batch_game(batch, index)
        return Response(s.ReplaySerializer(game, context={"batch": batch}).data)


class ChaosReplayView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="The replay of one game of a Duel of Chaos test batch",
        description=(
            "Played again from the batch's seed by its AIs (games are not stored), so only by "
            "the rules engine and AIs that played the batch: once they changed, a 409 "
            "`engine_changed` (the batch's results stay valid); before the batch played, a 409 "
            "`not_played`. The replay's `result` is the game's as the batch counted it."
        ),
        responses={
            200: s.ChaosReplaySerializer,
            404: error_response("No such batch (or not yours), or no such game: `unknown_game`."),
            409: error_response("`engine_changed`: played by another engine; `not_played`."),
        },
        tags=TAGS,
    )
    def get(self, request: Request, batch_id: int, index: int) -> Response:
        batch = chaos_selectors.chaos_batch_get(batch_id=batch_id, user=request.user)
        game = chaos_selectors.chaos_batch_game(batch, index)
        return Response(s.ChaosReplaySerializer(game).data)


def curve_data(request: Request, curve_id: int) -> dict[str, Any]:
    curve = curve_selectors.curve_get(curve_id=curve_id, user=request.user)
    return s.CurveSerializer(
        curve_selectors.curve_summary(curve), context={"request": request}
    ).data


class CurveListView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [AnonRateThrottle, ExpensiveThrottle]
    throttle_scope = "curves"

    @extend_schema(
        summary="Queue a difficulty curve: one deck in Solo against every level",
        description=(
            "One Solo batch per level of the difficulty table (1 to 10), each of `games` games "
            "(default 2000) with the same seed; answers 202 with the curve and its `url`, to "
            "poll for the progress and the win rate per level with its 95% interval. The "
            "curve's batches count as one against the limit of batches at once. Bad input is a "
            "400 that queues nothing (a Constructed deck: `illegal_deck`)."
        ),
        request=rs.CurveRequestSerializer,
        responses={
            202: s.CurveSerializer,
            400: ERRORS[400],
            429: error_response("A per-user limit."),
        },
        tags=TAGS,
    )
    def post(self, request: Request) -> Response:
        data = rs.CurveRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        curve = curve_services.curve_create(
            requested_by=signed_in_user(request),
            seat=data.seat_choice(),
            games_per_level=data.validated_data["games"],
            seed=data.validated_data.get("seed"),
        )
        body = curve_data(request, curve.pk)
        return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": body["url"]})


class CurveDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="A difficulty curve: progress and the win rate per level",
        responses={200: s.CurveSerializer, 404: error_response("No such curve (or not yours).")},
        tags=TAGS,
    )
    def get(self, request: Request, curve_id: int) -> Response:
        return Response(curve_data(request, curve_id))
