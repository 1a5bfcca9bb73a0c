"""The puzzles API: thin views that parse, call a service or selector, and serialise."""

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticatedOrReadOnly
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
    SOLUTION_RULE,
    AttemptResultSerializer,
    AttemptSerializer,
    PublishSerializer,
    PuzzleImportSerializer,
    PuzzleSerializer,
    PuzzleUpdateSerializer,
    PuzzleWriteSerializer,
    SolverJobSerializer,
    SolverReportSerializer,
    translations_data,
)
from grimoire.models import DIFFICULTY_MAX, DIFFICULTY_MIN, Puzzle, SolverJob
from grimoire.selectors import (
    Visitor,
    puzzle_export,
    puzzle_get,
    puzzle_get_for_edit,
    puzzles_listed,
    report_for,
    solution_shown,
    solutions_shown,
    solver_job_get,
)
from grimoire.throttles import ProofView
from grimoire.visitors import visitor

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


def _puzzle(puzzle: Puzzle, who: Visitor) -> dict[str, Any]:
    return PuzzleSerializer(puzzle, context={"shown": solutions_shown([puzzle], who)}).data


def _detail(request: Request, uid: str, *, start: bool = False) -> Response:
    """The puzzle as the visitor may see it; ``start``: an anonymous visitor gets a session (so
    that their attempts count)."""
    who = visitor(request, start=start)
    return Response(_puzzle(puzzle_get(uid=uid, viewer=request.user), who))


def _job(request: Request, job: SolverJob) -> Response:
    """202: the search goes on outside the request; poll `status_url` (also the Location)."""
    data = SolverJobSerializer(job, context={"request": request}).data
    return Response(data, status=status.HTTP_202_ACCEPTED, headers={"Location": data["status_url"]})


JOB_ANSWER = {
    202: OpenApiResponse(
        SolverJobSerializer,
        description="The search needs more than the request's budget: a job to poll at its "
        "`status_url` (also the `Location` header).",
    ),
    429: error_response(
        "`throttled` (your rate of proofs), `too_many_proofs` (your proofs running at once), "
        "`solver_busy` (the solver's jobs running at once), `attempt_running` (your previous "
        "turn is still being judged)."
    ),
}


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
        page = paginator.paginate_queryset(queryset, request, view=self) or []
        shown = solutions_shown(page, visitor(request))
        data = PuzzleSerializer(page, many=True, context={"shown": shown}).data
        return paginator.get_paginated_response(data)

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
        return Response(_puzzle(puzzle, visitor(request)), status=status.HTTP_201_CREATED)


class PuzzleDetailView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        operation_id="puzzles_retrieve",
        summary="A puzzle (its solution only for those who may see it)",
        description=SOLUTION_RULE
        + " An anonymous visitor without a session gets one (a cookie): their attempts count "
        "in the figures from then on, once.",
        parameters=[LANG],
        responses={200: PuzzleSerializer},
    )
    def get(self, request: Request, uid: str) -> Response:
        return _detail(request, uid, start=True)

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
        return Response(_puzzle(puzzle, visitor(request)), status=status.HTTP_201_CREATED)


class PuzzleExportView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        operation_id="puzzles_export",
        summary="The puzzle as a scenario file, with its goal, difficulty and texts",
        description="`scenario.actions` (the proved shortest solution) and each language's "
        "`explanation` are there only for those who may see the solution. " + SOLUTION_RULE,
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request: Request, uid: str) -> Response:
        puzzle = puzzle_get(uid=uid, viewer=request.user)
        return Response(puzzle_export(puzzle, shown=solution_shown(puzzle, visitor(request))))


class PuzzleSolveView(ProofView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        operation_id="puzzles_solve_report",
        summary="The solver's last report on the puzzle (null: not proved yet)",
        description="`shortest` only for those who may see the solution. " + SOLUTION_RULE,
        responses={200: SolverReportSerializer(allow_null=True)},
    )
    def get(self, request: Request, uid: str) -> Response:
        puzzle = puzzle_get(uid=uid, viewer=request.user)
        return Response(report_for(puzzle.report, shown=solution_shown(puzzle, visitor(request))))

    @extend_schema(
        operation_id="puzzles_solve",
        summary="Run the solver on your puzzle: its report (200), or a job to poll (202)",
        description="The solver gets a small budget within the request; a longer search runs "
        "in the background. Signed-in users have a rate of proofs (`GRIMOIRE_SOLVE_RATE`, "
        "shared with the editor's button).",
        request=None,
        responses={200: SolverReportSerializer, **JOB_ANSWER},
    )
    def post(self, request: Request, uid: str) -> Response:
        user = signed_in_user(request)
        proved = services.puzzle_prove(puzzle=puzzle_get_for_edit(uid=uid, user=user), user=user)
        if isinstance(proved, SolverJob):
            return _job(request, proved)
        return Response(proved.report)


class PuzzleJobView(APIView):
    # An attempt's job is its anonymous visitor's too (their session).
    permission_classes: list[Any] = [AllowAny]  # the schema then says so: `security` holds {}

    @extend_schema(
        operation_id="puzzles_jobs_retrieve",
        summary="A run of the solver you asked for: its status, progress, and result once done",
        responses={200: SolverJobSerializer},
    )
    def get(self, request: Request, uid: str, job_id: str) -> Response:
        puzzle = puzzle_get(uid=uid, viewer=request.user)
        job = solver_job_get(puzzle=puzzle, job_id=job_id, visitor=visitor(request))
        return Response(SolverJobSerializer(job, context={"request": request}).data)


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
    # Anyone may try a puzzle they can see; people who try are counted, once each.
    permission_classes: list[Any] = [AllowAny]  # the schema then says so: `security` holds {}

    @extend_schema(
        operation_id="puzzles_attempt",
        summary="Check a turn (a sequence of actions) against the puzzle's goal",
        description="Open to anonymous visitors. Counted once per person in the puzzle's "
        "`attempts` and `solved` (an anonymous visitor: once per session, from a session an "
        "earlier answer gave, such as the puzzle's `GET`). Meeting the goal shows the solution "
        "to the visitor from then on. A turn the judge cannot settle within the request's "
        "budget (the enemy's replies of a `survive` goal) is a job to poll (202).",
        request=AttemptSerializer,
        responses={200: AttemptResultSerializer, 400: ERROR, **JOB_ANSWER},
    )
    def post(self, request: Request, uid: str) -> Response:
        puzzle = puzzle_get(uid=uid, viewer=request.user)
        serializer = AttemptSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        result = services.puzzle_attempt(
            puzzle=puzzle,
            visitor=visitor(request, start=True),
            actions=serializer.validated_data["actions"],
        )
        if isinstance(result, SolverJob):
            return _job(request, result)
        return Response(AttemptResultSerializer(result).data)


class PuzzleGiveUpView(APIView):
    # Anyone may give up a puzzle they can see (an anonymous visitor: for their session).
    permission_classes: list[Any] = [AllowAny]  # the schema then says so: `security` holds {}

    @extend_schema(
        operation_id="puzzles_give_up",
        summary="Give up the puzzle and see its solution",
        description="Recorded: the visitor counts among the people who tried it, and a later "
        "solve of theirs does not count as solved. Open to anonymous visitors (for their "
        "session). Answers the puzzle with its solution.",
        request=None,
        responses={200: PuzzleSerializer},
    )
    def post(self, request: Request, uid: str) -> Response:
        puzzle = puzzle_get(uid=uid, viewer=request.user)
        who = visitor(request, start=True)
        services.puzzle_give_up(puzzle=puzzle, visitor=who)
        return Response(_puzzle(puzzle, who))
