"""The puzzles API: thin views that parse, call a service or selector, and serialise."""

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cod_site.api.pagination import PageNumberPagination
from cod_site.api.query import flag_parameter, query_flag
from cod_site.api.schema import error_response
from cod_site.errors import DomainError
from cod_site.users import signed_in_user
from grimoire import services
from grimoire.api.serializers import (
    AttemptResultSerializer,
    AttemptSerializer,
    PublishSerializer,
    PuzzleImportSerializer,
    PuzzleSerializer,
    PuzzleUpdateSerializer,
    PuzzleWriteSerializer,
    translations_data,
)
from grimoire.models import DIFFICULTY_MAX, DIFFICULTY_MIN
from grimoire.selectors import (
    puzzle_export,
    puzzle_get,
    puzzle_get_for_edit,
    puzzles_listed,
)

ERROR = error_response("Refused: `code` says why, `details.field` names the offending field.")
LANG = OpenApiParameter("lang", str, enum=["en", "fr", "sv"], description="Language of texts.")


def _difficulty(request: Request) -> int | None:
    raw = request.query_params.get("difficulty", "")
    if not raw:
        return None
    if not raw.isdigit() or not DIFFICULTY_MIN <= int(raw) <= DIFFICULTY_MAX:
        raise DomainError(
            "invalid_difficulty",
            f"difficulty: expected {DIFFICULTY_MIN} to {DIFFICULTY_MAX}",
            {"field": "difficulty"},
        )
    return int(raw)


def _detail(request: Request, uid: str) -> Response:
    return Response(PuzzleSerializer(puzzle_get(uid=uid, viewer=request.user)).data)


class PuzzleListView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]
    pagination_class = PageNumberPagination  # also tells the schema that the list is paged

    @extend_schema(
        operation_id="puzzles_list",
        summary="Public puzzles (or yours with ?mine=1), by ability and difficulty",
        parameters=[
            flag_parameter("mine", "Only your own puzzles (any visibility)."),
            OpenApiParameter("ability", str, description="An ability code, e.g. splash."),
            OpenApiParameter(
                "difficulty",
                {"type": "integer", "minimum": DIFFICULTY_MIN, "maximum": DIFFICULTY_MAX},
                description="1 to 5.",
            ),
            LANG,
        ],
        responses={200: PuzzleSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        queryset = puzzles_listed(
            viewer=request.user,
            ability=request.query_params.get("ability", "")[:40],
            difficulty=_difficulty(request),
            mine=query_flag(request, "mine"),
        )
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(queryset, request, view=self)
        return paginator.get_paginated_response(PuzzleSerializer(page, many=True).data)

    @extend_schema(
        operation_id="puzzles_create",
        summary="Create a puzzle (private until the solver proves it)",
        request=PuzzleWriteSerializer,
        responses={201: PuzzleSerializer, 400: ERROR},
    )
    def post(self, request: Request) -> Response:
        serializer = PuzzleWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        puzzle = services.puzzle_create(
            author=signed_in_user(request),
            scenario=data["scenario"],
            goal=data["goal"],
            difficulty=data["difficulty"],
            translations=translations_data(data["translations"]),
        )
        return Response(PuzzleSerializer(puzzle).data, status=status.HTTP_201_CREATED)


class PuzzleDetailView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        operation_id="puzzles_retrieve",
        summary="A puzzle",
        parameters=[LANG],
        responses={200: PuzzleSerializer},
    )
    def get(self, request: Request, uid: str) -> Response:
        return _detail(request, uid)

    @extend_schema(
        operation_id="puzzles_update",
        summary="Change your puzzle (a new position or goal drops its proof)",
        request=PuzzleUpdateSerializer,
        responses={200: PuzzleSerializer, 400: ERROR},
    )
    def patch(self, request: Request, uid: str) -> Response:
        puzzle = puzzle_get_for_edit(uid=uid, user=signed_in_user(request))
        serializer = PuzzleUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        translations = data.get("translations")
        puzzle = services.puzzle_update(
            puzzle=puzzle,
            scenario=data.get("scenario"),
            goal=data.get("goal"),
            difficulty=data.get("difficulty"),
            translations=translations_data(translations) if translations is not None else None,
        )
        return _detail(request, puzzle.uid)

    @extend_schema(
        operation_id="puzzles_destroy", summary="Delete your puzzle", responses={204: None}
    )
    def delete(self, request: Request, uid: str) -> Response:
        services.puzzle_delete(puzzle=puzzle_get_for_edit(uid=uid, user=signed_in_user(request)))
        return Response(status=status.HTTP_204_NO_CONTENT)


class PuzzleImportView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        operation_id="puzzles_import",
        summary="Import a scenario file (or an exported puzzle) as a new puzzle",
        request=PuzzleImportSerializer,
        responses={201: PuzzleSerializer, 400: ERROR},
    )
    def post(self, request: Request) -> Response:
        serializer = PuzzleImportSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        document: dict[str, Any] = dict(serializer.validated_data)
        if "translations" in document:
            document["translations"] = translations_data(document["translations"])
        puzzle = services.puzzle_import(author=signed_in_user(request), document=document)
        return Response(PuzzleSerializer(puzzle).data, status=status.HTTP_201_CREATED)


class PuzzleExportView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        operation_id="puzzles_export",
        summary="The puzzle as a scenario file, with its goal, difficulty and texts",
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request: Request, uid: str) -> Response:
        return Response(puzzle_export(puzzle_get(uid=uid, viewer=request.user)))


class PuzzleSolveView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        operation_id="puzzles_solve_report",
        summary="The solver's last report on the puzzle (null: not proved yet)",
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request: Request, uid: str) -> Response:
        return Response(puzzle_get(uid=uid, viewer=request.user).report)

    @extend_schema(
        operation_id="puzzles_solve",
        summary="Run the solver on your puzzle (large positions: in the background, 202)",
        request=None,
        responses={200: OpenApiTypes.OBJECT, 202: OpenApiTypes.OBJECT},
    )
    def post(self, request: Request, uid: str) -> Response:
        puzzle = services.puzzle_prove(
            puzzle=puzzle_get_for_edit(uid=uid, user=signed_in_user(request))
        )
        if puzzle.report is None:
            return Response({"proof_status": puzzle.proof_status}, status=status.HTTP_202_ACCEPTED)
        return Response(puzzle.report)


class PuzzlePublishView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        operation_id="puzzles_publish",
        summary="Share your proved puzzle (public or unlisted), or make it private",
        request=PublishSerializer,
        responses={200: PuzzleSerializer, 400: ERROR},
    )
    def post(self, request: Request, uid: str) -> Response:
        puzzle = puzzle_get_for_edit(uid=uid, user=signed_in_user(request))
        serializer = PublishSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        puzzle = services.puzzle_publish(
            puzzle=puzzle, visibility=serializer.validated_data["visibility"]
        )
        return _detail(request, puzzle.uid)


class PuzzleAttemptView(APIView):
    # Anyone may try a puzzle they can see; attempts are counted for the solve rate.
    permission_classes: list[Any] = []

    @extend_schema(
        operation_id="puzzles_attempt",
        summary="Check a turn (a sequence of actions) against the puzzle's goal",
        request=AttemptSerializer,
        responses={200: AttemptResultSerializer, 400: ERROR},
    )
    def post(self, request: Request, uid: str) -> Response:
        puzzle = puzzle_get(uid=uid, viewer=request.user)
        serializer = AttemptSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        result = services.puzzle_attempt(
            puzzle=puzzle, actions=serializer.validated_data["actions"]
        )
        return Response(AttemptResultSerializer(result).data)
