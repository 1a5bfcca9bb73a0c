"""The Champions API: thin views that parse, call a service or selector, and serialise."""

from typing import Any

from django.core.files.storage import default_storage
from django.http import FileResponse, HttpResponse
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import AllowAny, IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from champions import documents, images, services
from champions.api.renderers import ImageRenderer, PDFRenderer, PNGRenderer, pdf_response
from champions.api.serializers import (
    ChampionPnpQuerySerializer,
    ChampionSerializer,
    ChampionWriteSerializer,
    IllustrationUploadSerializer,
    ManyPnpQuerySerializer,
    PriceRequestSerializer,
    PriceSerializer,
    PrintJobRequestSerializer,
    PrintJobSerializer,
    ProposalSerializer,
    ProposeRequestSerializer,
    price_data,
)
from champions.designs import ChampionDesign
from champions.models import PrintJobStatus
from champions.pricing import parse_abilities, price_champion
from champions.proposals import new_seed, propose_champion
from champions.selectors import (
    ability_costs,
    champion_get,
    champion_get_for_edit,
    champions_listed_for,
    print_job_get,
)
from cod_site.api.limits import bounded_list
from cod_site.api.pagination import PageNumberPagination
from cod_site.api.query import flag_parameter, query_flag
from cod_site.api.schema import error_response
from cod_site.api.throttles import ExpensiveThrottle
from cod_site.errors import DomainError
from cod_site.i18n import current_language
from cod_site.users import signed_in_user

ERROR = error_response("Refused: `code` says why.")
LANG = OpenApiParameter("lang", str, enum=["en", "fr", "sv"], description="Language of texts.")


def _serialise(request: Request, champions: Any, *, many: bool = False) -> Any:
    return ChampionSerializer(
        champions, many=many, context={"request": request, "costs": ability_costs()}
    ).data


def _design(data: dict[str, Any]) -> ChampionDesign:
    return ChampionDesign(
        names=data["names"],
        flavours=data["flavours"],
        mana=data["mana"],
        attack=data["attack"],
        hp=data["hp"],
        abilities=data["abilities"],
        visibility=data["visibility"],
        illustration_x=data["illustration_x"],
        illustration_y=data["illustration_y"],
        illustration_zoom=data["illustration_zoom"],
    )


class ChampionListView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]
    pagination_class = PageNumberPagination  # also tells the schema that the list is paged

    @extend_schema(
        operation_id="champions_list",
        summary="Public Champions (or yours with ?mine=1)",
        parameters=[
            flag_parameter("mine", "Only your own Champions (any visibility)."),
            OpenApiParameter("q", str, description="Part of a name, in any language."),
            LANG,
        ],
        responses={200: ChampionSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        mine = query_flag(request, "mine")
        queryset = champions_listed_for(
            request.user, mine=mine, query=request.query_params.get("q", "")[:100]
        )
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(queryset, request, view=self)
        return paginator.get_paginated_response(_serialise(request, page, many=True))

    @extend_schema(
        operation_id="champions_create",
        summary="Create a Champion",
        request=ChampionWriteSerializer,
        responses={201: ChampionSerializer, 400: ERROR},
    )
    def post(self, request: Request) -> Response:
        serializer = ChampionWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        champion = services.champion_create(
            owner=signed_in_user(request), design=_design(serializer.validated_data)
        )
        champion = champion_get(uid=champion.uid, user=request.user)
        return Response(_serialise(request, champion), status=status.HTTP_201_CREATED)


class ChampionDetailView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        operation_id="champions_retrieve",
        parameters=[LANG],
        responses={200: ChampionSerializer, 404: ERROR},
    )
    def get(self, request: Request, uid: str) -> Response:
        return Response(_serialise(request, champion_get(uid=uid, user=request.user)))

    @extend_schema(
        operation_id="champions_update",
        request=ChampionWriteSerializer,
        responses={200: ChampionSerializer, 400: ERROR, 403: ERROR, 404: ERROR},
    )
    def put(self, request: Request, uid: str) -> Response:
        return self._update(request, uid, partial=False)

    @extend_schema(
        operation_id="champions_partial_update",
        request=ChampionWriteSerializer(partial=True),
        responses={200: ChampionSerializer, 400: ERROR, 403: ERROR, 404: ERROR},
    )
    def patch(self, request: Request, uid: str) -> Response:
        return self._update(request, uid, partial=True)

    def _update(self, request: Request, uid: str, *, partial: bool) -> Response:
        champion = champion_get_for_edit(uid=uid, user=request.user)
        serializer = ChampionWriteSerializer(data=request.data, partial=partial)
        serializer.is_valid(raise_exception=True)
        if partial:
            design = ChampionDesign.of(champion).patched(serializer.validated_data)
        else:
            design = _design(serializer.validated_data)
        services.champion_update(champion=champion, actor=signed_in_user(request), design=design)
        return Response(_serialise(request, champion_get(uid=uid, user=request.user)))

    @extend_schema(operation_id="champions_destroy", responses={204: None, 403: ERROR, 404: ERROR})
    def delete(self, request: Request, uid: str) -> Response:
        champion = champion_get_for_edit(uid=uid, user=request.user)
        services.champion_delete(champion=champion, actor=signed_in_user(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class ChampionForkView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="champions_fork",
        summary="Copy a Champion you can see into your own (private) Champions",
        request=None,
        responses={201: ChampionSerializer, 404: ERROR},
    )
    def post(self, request: Request, uid: str) -> Response:
        original = champion_get(uid=uid, user=request.user)
        fork = services.champion_fork(champion=original, owner=signed_in_user(request))
        return Response(
            _serialise(request, champion_get(uid=fork.uid, user=request.user)),
            status=status.HTTP_201_CREATED,
        )


class PriceView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="champions_price",
        summary="Suggested Mana cost of a Champion, with its breakdown",
        request=PriceRequestSerializer,
        responses={200: PriceSerializer, 400: ERROR},
    )
    def post(self, request: Request) -> Response:
        serializer = PriceRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        price = price_champion(
            attack=data["attack"],
            hp=data["hp"],
            abilities=parse_abilities(data["abilities"]),
            costs=ability_costs(),
        )
        return Response(price_data(price, data.get("mana")))


class ProposeView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="champions_propose",
        summary="A random, fairly priced Champion for a Mana cost (reproducible by its seed)",
        request=ProposeRequestSerializer,
        responses={200: ProposalSerializer, 400: ERROR},
    )
    def post(self, request: Request) -> Response:
        serializer = ProposeRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        seed = data.get("seed") or new_seed()
        proposal = propose_champion(
            mana=data["mana"],
            required=parse_abilities(data["abilities"]),
            seed=seed,
            costs=ability_costs(),
        )
        query: dict[str, str | int] = {"propose": proposal.mana, "seed": proposal.seed}
        if data["abilities"]:
            query["require"] = ",".join(data["abilities"])
        designer = reverse("champions:create") + "?" + urlencode(query)
        return Response(
            {
                "seed": proposal.seed,
                "mana": proposal.mana,
                "name": proposal.name,
                "attack": proposal.attack,
                "hp": proposal.hp,
                "abilities": [choice.token for choice in proposal.abilities],
                "price": price_data(proposal.price, proposal.mana),
                "designer_url": request.build_absolute_uri(designer),
            }
        )


class IllustrationView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]
    parser_classes = [MultiPartParser, FormParser]
    renderer_classes = [JSONRenderer, ImageRenderer]

    @extend_schema(
        operation_id="champions_illustration_retrieve",
        summary="The stored (normalised) illustration",
        responses={(200, "image/*"): OpenApiTypes.BINARY, 404: ERROR},
    )
    def get(self, request: Request, uid: str) -> FileResponse:
        champion = champion_get(uid=uid, user=request.user)
        stored = champion.illustration.name
        if not stored:
            raise DomainError(
                "not_found",
                _("This Champion has no illustration."),
                {"uid": uid},
                status_code=404,
            )
        extension = stored.rsplit(".", 1)[-1]
        response = FileResponse(
            default_storage.open(stored, "rb"),
            content_type="image/png" if extension == "png" else "image/jpeg",
        )
        response["Cache-Control"] = "private, max-age=3600"
        return response

    @extend_schema(
        operation_id="champions_illustration_upload",
        summary="Upload the illustration (PNG, JPEG or WebP, checked by content; ≤ 10 MB)",
        request={"multipart/form-data": IllustrationUploadSerializer},
        responses={200: ChampionSerializer, 400: ERROR, 403: ERROR, 413: ERROR},
    )
    def put(self, request: Request, uid: str) -> Response:
        # Refuse an oversized body from its declared length, before reading any of it.
        images.refuse_oversized_request(request.META.get("CONTENT_LENGTH"))
        champion = champion_get_for_edit(uid=uid, user=request.user)
        upload = request.FILES.get("file")
        if upload is None:
            raise DomainError(
                "file_required",
                _("Send the picture in the `file` field."),
                {"field": "illustration"},
            )
        services.champion_set_illustration(
            champion=champion, actor=signed_in_user(request), illustration=upload
        )
        return Response(_serialise(request, champion_get(uid=uid, user=request.user)))

    @extend_schema(
        operation_id="champions_illustration_upload_post",
        summary="Upload the illustration (same as PUT, for clients that can only POST forms)",
        request={"multipart/form-data": IllustrationUploadSerializer},
        responses={200: ChampionSerializer, 400: ERROR, 403: ERROR, 413: ERROR},
    )
    def post(self, request: Request, uid: str) -> Response:
        return self.put(request, uid)

    @extend_schema(
        operation_id="champions_illustration_destroy",
        responses={204: None, 403: ERROR, 404: ERROR},
    )
    def delete(self, request: Request, uid: str) -> Response:
        champion = champion_get_for_edit(uid=uid, user=request.user)
        services.champion_clear_illustration(champion=champion, actor=signed_in_user(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class CardPngView(APIView):
    permission_classes = [AllowAny]
    renderer_classes = [JSONRenderer, PNGRenderer]

    @extend_schema(
        operation_id="champions_card_png",
        summary="The card face: 300 dpi (661 × 1028 px), or a small preview",
        parameters=[
            LANG,
            OpenApiParameter("size", str, enum=["full", "preview"], description="Default full."),
        ],
        responses={(200, "image/png"): OpenApiTypes.BINARY, 404: ERROR},
    )
    def get(self, request: Request, uid: str) -> HttpResponse:
        champion = champion_get(uid=uid, user=request.user)
        size = request.query_params.get("size", "full")
        if size not in ("full", "preview"):
            raise DomainError(
                "invalid_size",
                _("The size is full or preview."),
                {"field": "size", "value": size},
            )
        content = documents.champion_card_png(
            champion, current_language(), preview=size == "preview"
        )
        response = HttpResponse(content, content_type="image/png")
        response["Cache-Control"] = (
            "public, max-age=300" if champion.visibility == "public" else "private, max-age=300"
        )
        return response


class ChampionPnpView(APIView):
    permission_classes = [AllowAny]
    throttle_classes = [AnonRateThrottle, ExpensiveThrottle]
    throttle_scope = "pdfs"
    throttle_methods = ("GET",)
    renderer_classes = [JSONRenderer, PDFRenderer]

    @extend_schema(
        operation_id="champions_pnp",
        summary="Print-and-Play PDF of one Champion (copies on 56 × 87 mm, 9 per page)",
        parameters=[ChampionPnpQuerySerializer, LANG],
        responses={(200, "application/pdf"): OpenApiTypes.BINARY, 400: ERROR, 404: ERROR},
    )
    def get(self, request: Request, uid: str) -> HttpResponse:
        champion = champion_get(uid=uid, user=request.user)
        query = ChampionPnpQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        pdf = documents.champions_pnp_pdf(
            [(champion, query.validated_data["copies"])], query.options(), current_language()
        )
        return pdf_response(pdf, f"champion-{champion.uid}.pdf")


class ManyPnpView(APIView):
    permission_classes = [AllowAny]
    throttle_classes = [AnonRateThrottle, ExpensiveThrottle]
    throttle_scope = "pdfs"
    throttle_methods = ("GET",)
    renderer_classes = [JSONRenderer, PDFRenderer]

    @extend_schema(
        operation_id="champions_pnp_many",
        summary="Print-and-Play PDF of several Champions on shared sheets (up to 27 cards)",
        parameters=[ManyPnpQuerySerializer, LANG],
        responses={(200, "application/pdf"): OpenApiTypes.BINARY, 400: ERROR, 404: ERROR},
    )
    def get(self, request: Request) -> HttpResponse:
        query = ManyPnpQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        wanted = _parse_items(query.validated_data["champions"])
        documents.check_sheet_copies([copies for _uid, copies in wanted])
        items = [(champion_get(uid=uid, user=request.user), copies) for uid, copies in wanted]
        pdf = documents.champions_pnp_pdf(items, query.options(), current_language())
        return pdf_response(pdf, "champions.pdf")


def _parse_items(text: str) -> list[tuple[str, int]]:
    """`uid*3,uid2` → [("uid", 3), ("uid2", 1)]."""
    parts = [piece.strip() for piece in text.split(",") if piece.strip()]
    # Each part is at least one card: more parts than a sheet's cards is refused unread.
    bounded_list(parts, limit=documents.MAX_SYNC_CARDS, field="champions")
    items = []
    for part in parts:
        uid, _star, copies = part.partition("*")
        if copies and not copies.isdigit():
            raise DomainError(
                "invalid_copies",
                _("Copies must be a number: %(part)r.") % {"part": part},
                {"field": "champions", "value": part},
            )
        items.append((uid, int(copies) if copies else 1))
    if not items:
        raise DomainError(
            "no_cards", _("Name at least one Champion to print."), {"field": "champions"}
        )
    return items


class PrintJobListView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [AnonRateThrottle, ExpensiveThrottle]
    throttle_scope = "pdfs"

    @extend_schema(
        operation_id="champions_print_jobs_create",
        summary="Generate a large sheet set in the background; poll its status for the link",
        request=PrintJobRequestSerializer,
        parameters=[LANG],
        responses={202: PrintJobSerializer, 400: ERROR, 404: ERROR},
    )
    def post(self, request: Request) -> Response:
        serializer = PrintJobRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        job = services.print_job_create(
            owner=signed_in_user(request),
            items=[
                (item["champion"], item["copies"]) for item in serializer.validated_data["items"]
            ],
            options=serializer.options(),
            language=current_language(),
        )
        job.refresh_from_db()  # without a broker the task already ran
        return Response(
            PrintJobSerializer(job, context={"request": request}).data,
            status=status.HTTP_202_ACCEPTED,
        )


class PrintJobDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="champions_print_jobs_retrieve",
        responses={200: PrintJobSerializer, 404: ERROR},
    )
    def get(self, request: Request, job_id: str) -> Response:
        job = print_job_get(job_id=str(job_id), user=request.user)
        return Response(PrintJobSerializer(job, context={"request": request}).data)


class PrintJobDownloadView(APIView):
    permission_classes = [IsAuthenticated]
    renderer_classes = [JSONRenderer, PDFRenderer]

    @extend_schema(
        operation_id="champions_print_jobs_download",
        responses={(200, "application/pdf"): OpenApiTypes.BINARY, 404: ERROR, 409: ERROR},
    )
    def get(self, request: Request, job_id: str) -> FileResponse:
        job = print_job_get(job_id=str(job_id), user=request.user)
        stored = job.file.name
        if job.status != PrintJobStatus.DONE or not stored:
            raise DomainError(
                "not_ready",
                _("The print job is %(status)s: the PDF is not ready.")
                % {"status": job.get_status_display()},
                {"status": job.status},
                status_code=409,
            )
        return FileResponse(
            default_storage.open(stored, "rb"),
            content_type="application/pdf",
            filename=f"champions-{job.pk}.pdf",
        )
