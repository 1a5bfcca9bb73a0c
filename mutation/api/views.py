"""`/api/v1/mutation-sessions/`: thin views over the Mutation services and selectors.

Who acts: the organiser (for any seat), a registered player for their own seat, or a guest
sending their seat's join token in the `X-Seat-Token` header. Sessions are visible to those
only; anyone else gets a 404.
"""

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from cod_site.api.schema import error_response
from cod_site.users import signed_in_user
from mutation import selectors, services
from mutation.access import Actor, require_may_act_for
from mutation.api import serializers as s
from mutation.models import MutationSession

SEAT_TOKEN_HEADER = "X-Seat-Token"
SEAT_TOKEN = OpenApiParameter(
    SEAT_TOKEN_HEADER,
    str,
    OpenApiParameter.HEADER,
    required=False,
    description=_("A guest's seat join token: acts for that seat without an account."),
)
SEAT_NUMBER = OpenApiParameter(
    "number", int, OpenApiParameter.PATH, description=_("Seat number, 1 to 4.")
)
SEAT_FILTER = OpenApiParameter(
    "seat", int, OpenApiParameter.QUERY, required=False, description=_("Only this seat.")
)
ERROR = error_response("Refused: `code` says why.")


def request_actor(request: Request) -> Actor:
    token = request.headers.get(SEAT_TOKEN_HEADER, "").strip()
    return Actor(user=request.user, seat_tokens=frozenset({token} if token else ()))


@extend_schema(tags=["mutation sessions"], parameters=[SEAT_TOKEN])
class MutationSessionViewSet(viewsets.GenericViewSet):
    """Mutation format sessions: draft, decks, mutations, results and standings."""

    permission_classes = [AllowAny]  # who may act is the services' decision (see module doc)
    serializer_class = s.MutationSessionSerializer
    lookup_value_regex = r"[0-9]+"
    queryset = MutationSession.objects.none()

    def _actor(self) -> Actor:
        return request_actor(self.request)

    def _session(self, pk: str) -> MutationSession:
        return selectors.session_get(actor=self._actor(), pk=int(pk))

    def _context(self, session: MutationSession) -> dict[str, Any]:
        actor = self._actor()
        return {
            "request": self.request,
            "pick_counts": selectors.pick_counts(session),
            "visible_seats": {seat.number for seat in selectors.viewer_seats(actor, session)},
        }

    @extend_schema(responses=s.MutationSessionSerializer(many=True))
    def list(self, request: Request) -> Response:
        sessions = selectors.sessions_for(self._actor()).select_related(
            "expansion_a", "expansion_b"
        )
        page = self.paginate_queryset(sessions)
        assert page is not None  # the API always paginates (DEFAULT_PAGINATION_CLASS)
        data = [
            s.MutationSessionSerializer(session, context=self._context(session)).data
            for session in page
        ]
        return self.get_paginated_response(data)

    @extend_schema(
        request=s.MutationSessionCreateSerializer,
        responses={201: s.MutationSessionDetailSerializer, 400: ERROR, 403: ERROR},
    )
    def create(self, request: Request) -> Response:
        if not request.user.is_authenticated:
            raise NotAuthenticated(_("Log in to organise a Mutation session."))
        data = self._input(s.MutationSessionCreateSerializer)
        session = services.mutation_session_create(
            organiser=signed_in_user(request),
            name=data["name"],
            expansion_a=data["expansion_a"],
            expansion_b=data["expansion_b"],
            seed=data.get("seed"),
            players=data.get("players", []),
            organiser_seat=data.get("organiser_seat"),
        )
        return self._detail(session.pk, status.HTTP_201_CREATED)

    @extend_schema(responses={200: s.MutationSessionDetailSerializer, 404: ERROR})
    def retrieve(self, request: Request, pk: str) -> Response:
        return self._detail(pk)

    def _detail(self, pk: int | str, code: int = status.HTTP_200_OK) -> Response:
        session = self._session(str(pk))
        return Response(
            s.MutationSessionDetailSerializer(session, context=self._context(session)).data, code
        )

    def _input(self, serializer_class: type[s.serializers.Serializer]) -> dict[str, Any]:
        serializer = serializer_class(data=self.request.data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data

    def _seat_view(self, session: MutationSession, number: int, code: int) -> Response:
        session = self._session(str(session.pk))
        seat = selectors.seat_get(session, number)
        return Response(
            s.MutationSeatPrivateSerializer(s.seat_private_data(session, seat)).data, status=code
        )

    @extend_schema(
        request=s.MutationJoinSerializer,
        responses={200: s.MutationSessionDetailSerializer, 400: ERROR, 404: ERROR},
    )
    @action(detail=False, methods=["post"])
    def join(self, request: Request) -> Response:
        """Take a seat with its join token (registered users become the seat's player)."""
        data = self._input(s.MutationJoinSerializer)
        seat = services.seat_join(
            token=data["token"], user=request.user, guest_name=data.get("name", "")
        )
        session = selectors.session_get(
            actor=Actor(user=request.user, seat_tokens=frozenset({seat.join_token})),
            pk=seat.session_id,
        )
        return Response(
            s.MutationSessionDetailSerializer(session, context=self._context(session)).data
        )

    @extend_schema(
        parameters=[SEAT_NUMBER],
        responses={200: s.MutationSeatPrivateSerializer, 403: ERROR, 404: ERROR},
    )
    @action(detail=True, methods=["get"], url_path=r"seats/(?P<number>[1-4])")
    def seat(self, request: Request, pk: str, number: str) -> Response:
        """A seat's private view: the hand in front of it, its picks, deck, Laboratory, budget."""
        session = self._session(pk)
        seat = selectors.seat_get(session, int(number))
        if seat not in selectors.viewer_seats(self._actor(), session):
            require_may_act_for(self._actor(), seat, session)
        return Response(s.MutationSeatPrivateSerializer(s.seat_private_data(session, seat)).data)

    @extend_schema(
        parameters=[SEAT_NUMBER],
        responses={200: s.MutationEngineCardSerializer(many=True), 403: ERROR, 404: ERROR},
    )
    @action(
        detail=True,
        methods=["get"],
        url_path=r"seats/(?P<number>[1-4])/engine-deck",
        pagination_class=None,
    )
    def engine_deck(self, request: Request, pk: str, number: str) -> Response:
        """The seat's deck as rules-engine card definitions, with every mutation applied."""
        session = self._session(pk)
        seat = selectors.seat_get(session, int(number))
        require_may_act_for(self._actor(), seat, session)
        return Response(selectors.seat_deck_definitions(seat))

    @extend_schema(
        parameters=[SEAT_NUMBER],
        request=None,
        responses={201: s.MutationExportSerializer, 400: ERROR, 403: ERROR, 404: ERROR},
    )
    @action(detail=True, methods=["post"], url_path=r"seats/(?P<number>[1-4])/export")
    def export(self, request: Request, pk: str, number: str) -> Response:
        """Keep the seat's deck in your decks (Mutation format); its description records every
        mutation, and `engine-deck` gives the mutated values for test games."""
        session = self._session(pk)
        deck = services.seat_deck_export(
            session=session, actor=self._actor(), seat_number=int(number)
        )
        return Response(s.MutationExportSerializer(deck).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.MutationPickSerializer,
        responses={201: s.MutationSeatPrivateSerializer, 400: ERROR, 403: ERROR},
    )
    @action(detail=True, methods=["post"])
    def picks(self, request: Request, pk: str) -> Response:
        """Pick a card from the hand in front of a seat; the rest passes to the left."""
        session = self._session(pk)
        data = self._input(s.MutationPickSerializer)
        services.draft_pick(
            session=session, actor=self._actor(), seat_number=data["seat"], card_id=data["card"].pk
        )
        return self._seat_view(session, data["seat"], status.HTTP_201_CREATED)

    @extend_schema(
        request=s.MutationDeckChoiceSerializer,
        responses={200: s.MutationSeatPrivateSerializer, 400: ERROR, 403: ERROR},
    )
    @action(detail=True, methods=["post"])
    def deck(self, request: Request, pk: str) -> Response:
        """Choose a seat's 8-card deck (and Stronghold); the other 8 form its Laboratory."""
        session = self._session(pk)
        data = self._input(s.MutationDeckChoiceSerializer)
        stronghold = data.get("stronghold")
        services.seat_deck_choose(
            session=session,
            actor=self._actor(),
            seat_number=data["seat"],
            card_ids=[card.pk for card in data["cards"]],
            stronghold_id=stronghold.pk if stronghold else None,
        )
        return self._seat_view(session, data["seat"], status.HTTP_200_OK)

    @extend_schema(
        methods=["GET"],
        parameters=[SEAT_FILTER],
        responses={200: s.MutationSerializer(many=True), 404: ERROR},
    )
    @extend_schema(
        methods=["POST"],
        request=s.MutationInputSerializer,
        responses={201: s.MutationSerializer, 400: ERROR, 403: ERROR},
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def mutations(self, request: Request, pk: str) -> Response:
        """GET: the mutations of the seats you may see. POST: cut an element from a Laboratory
        card and glue it on a deck creature, within the seat's Mutation Phase budget."""
        session = self._session(pk)
        actor = self._actor()
        if request.method == "GET":
            seats = selectors.viewer_seats(actor, session)
            wanted = request.query_params.get("seat")
            if wanted is not None:
                seats = [seat for seat in seats if str(seat.number) == wanted]
            rows = [mutation for seat in seats for mutation in selectors.seat_mutations(seat)]
            return Response(s.MutationSerializer(rows, many=True).data)
        data = self._input(s.MutationInputSerializer)
        mutation = services.mutation_apply(
            session=session,
            actor=actor,
            seat_number=data["seat"],
            target_card_id=data["target"].pk,
            source_card_id=data["source"].pk,
            element=data["element"],
            covers=data["covers"],
        )
        row = selectors.seat_mutations(mutation.seat).get(pk=mutation.pk)
        return Response(s.MutationSerializer(row).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.MutationInputSerializer,
        responses={200: s.MutationQuoteSerializer, 400: ERROR, 403: ERROR},
    )
    @action(detail=True, methods=["post"], url_path="mutations/quote")
    def mutation_quote(self, request: Request, pk: str) -> Response:
        """What a mutation would do and cost now, and the budget left after it; changes nothing."""
        session = self._session(pk)
        data = self._input(s.MutationInputSerializer)
        seat = selectors.seat_get(session, data["seat"])
        require_may_act_for(self._actor(), seat, session)
        plan = selectors.mutation_quote(
            session=session,
            seat=seat,
            target_card_id=data["target"].pk,
            source_card_id=data["source"].pk,
            element=data["element"],
            covers=data["covers"],
        )
        budget = selectors.seat_budget(session, seat)
        return Response(
            s.MutationQuoteSerializer(s.mutation_plan_data(plan, budget.remaining)).data
        )

    @extend_schema(
        methods=["GET"], responses={200: s.MutationGameSerializer(many=True), 404: ERROR}
    )
    @extend_schema(
        methods=["POST"],
        request=s.MutationResultInputSerializer,
        responses={200: s.MutationGameSerializer, 400: ERROR, 403: ERROR},
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def results(self, request: Request, pk: str) -> Response:
        """GET: the 12 games of the six rounds. POST: record a game's winner."""
        session = self._session(pk)
        if request.method == "GET":
            return Response(s.MutationGameSerializer(selectors.games(session), many=True).data)
        data = self._input(s.MutationResultInputSerializer)
        game = services.game_result_record(
            session=session,
            actor=self._actor(),
            round_number=data["round"],
            table=data["table"],
            winner_seat=data["winner"],
        )
        return Response(s.MutationGameSerializer(selectors.games(session).get(pk=game.pk)).data)

    @extend_schema(responses={200: s.MutationStandingsSerializer, 404: ERROR})
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, pk: str) -> Response:
        """Ranked by wins, ties shared; and the rulebook's score grid."""
        session = self._session(pk)
        return Response(
            s.MutationStandingsSerializer(
                {"standings": selectors.standings(session), "grid": selectors.score_grid(session)}
            ).data
        )

    @extend_schema(
        methods=["GET"], responses={200: s.MutationCostRuleSerializer(many=True), 404: ERROR}
    )
    @extend_schema(
        methods=["POST"],
        request=s.MutationCostInputSerializer,
        responses={200: s.MutationCostRuleSerializer, 400: ERROR, 403: ERROR},
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def costs(self, request: Request, pk: str) -> Response:
        """The session's Mutation Points table (the rulebook's was a picture, now lost); the
        organiser may set any line."""
        session = self._session(pk)
        if request.method == "GET":
            return Response(
                s.MutationCostRuleSerializer(selectors.cost_rules(session), many=True).data
            )
        data = self._input(s.MutationCostInputSerializer)
        rule = services.cost_rule_set(
            session=session,
            actor=self._actor(),
            key=data["key"],
            ability_code=data["ability_code"],
            points=data["points"],
        )
        return Response(s.MutationCostRuleSerializer(rule).data)
