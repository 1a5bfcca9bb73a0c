"""The decks API: thin views over decks.selectors.* (reads) and decks.services (writes).

Permissions: anyone reads public and unlisted decks; a private deck is "not found" (404) for
everyone but its owner and staff; only the owner and staff change or delete a deck (403 for the
others who can see it); writing needs an account (403 `not_authenticated` for visitors).
"""

from types import SimpleNamespace
from typing import Any

from django.http import HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.generics import GenericAPIView
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from champions import documents
from champions.api.renderers import PDFRenderer, pdf_response
from champions.api.serializers import DeckPnpQuerySerializer
from champions.models import Champion
from champions.selectors import champion_get
from cod_site.api.limits import bounded_list
from cod_site.api.query import flag_parameter, query_flag
from cod_site.api.schema import error_response
from cod_site.api.throttles import ExpensiveThrottle
from cod_site.errors import DomainError
from cod_site.i18n import current_language
from cod_site.users import signed_in_user
from decks import services
from decks.api import serializers as s
from decks.models import Deck, DeckVersion
from decks.selectors.access import (
    champion_for,
    deck_cards,
    deck_final_cards,
    deck_get,
    deck_removed_cards,
)
from decks.selectors.checks import DeckCheck, deck_check, deck_validate
from decks.selectors.codes import deck_code_of, deck_decode
from decks.selectors.formats import format_get, format_list, game_mode_list
from decks.selectors.lists import SORTS, deck_list
from decks.selectors.lookup import cards_require
from decks.selectors.text import deck_import_text, deck_text
from decks.selectors.versions import (
    deck_version_diff,
    deck_version_get,
    deck_versions,
    versions_seen_by,
)
from decks.services import KEEP

LANG = OpenApiParameter("lang", str, enum=["en", "fr", "sv"], description="Language of texts.")
ERRORS = {
    400: error_response("Refused: `code` says why."),
    403: error_response("Not yours, or not logged in."),
    404: error_response("No such deck (or it is private)."),
}


def _check_data(check: DeckCheck) -> dict[str, Any]:
    return {
        "legal": check.legal,
        "errors": [error.as_dict() for error in check.errors],
        "code": check.code,
        "cards": s.CardBriefSerializer(check.cards, many=True).data,
    }


def _champion(request: Request, uid: str | None) -> Champion | None:
    return champion_for(uid=uid, viewer=request.user) if uid else None


def _deck_response(request: Request, deck: Deck, status_code: int = 200) -> Response:
    deck = deck_get(share_id=deck.share_id, viewer=request.user)
    check = deck_validate(deck, viewer=request.user)
    data = s.DeckSerializer(deck, context={"request": request, "check": check}).data
    return Response(data, status=status_code)


class FormatListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(summary="Formats", responses=s.FormatSerializer(many=True), tags=["decks"])
    def get(self, request: Request) -> Response:
        return Response(s.FormatSerializer(format_list(), many=True).data)


class FormatDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A format", responses={200: s.FormatSerializer, **ERRORS}, tags=["decks"]
    )
    def get(self, request: Request, slug: str) -> Response:
        fmt = format_get(slug=slug, from_path=True)
        return Response(s.FormatSerializer(fmt).data)


class GameModeListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(summary="Game modes", responses=s.GameModeSerializer(many=True), tags=["decks"])
    def get(self, request: Request) -> Response:
        return Response(s.GameModeSerializer(game_mode_list(), many=True).data)


class DeckValidateView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="Check a deck against a format",
        description=(
            "Lists every violation, each with a stable code and the cards concerned; messages "
            "and card names in the request language. No account needed."
        ),
        request=s.ValidateRequestSerializer,
        responses={200: s.ValidateResponseSerializer, 400: ERRORS[400]},
        tags=["decks"],
    )
    def post(self, request: Request) -> Response:
        data = s.ValidateRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        check = deck_check(
            format=data.validated_data["format"],
            cards=data.validated_data["cards"],
            mode=data.validated_data.get("mode"),
            pool=data.validated_data.get("pool"),
            removed=data.validated_data["removed"],
            champion=data.validated_data.get("champion"),
        )
        return Response(_check_data(check))


class DeckDecodeView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="Open a deck from its code",
        parameters=[OpenApiParameter("code", str, required=True, description="A deck code.")],
        responses={200: s.DecodeResponseSerializer, 400: ERRORS[400]},
        tags=["decks"],
    )
    def get(self, request: Request) -> Response:
        decoded = deck_decode(request.query_params.get("code", ""))
        check = deck_check(
            format=decoded.format,
            cards=decoded.cards,
            removed=decoded.removed,
            champion=decoded.champion,
        )
        data = s.DecodeResponseSerializer(
            {
                "code": decoded.code,
                "format": decoded.format,
                "cards": decoded.cards,
                "removed": decoded.removed,
                "champion": decoded.champion,
                "legal": check.legal,
                "errors": [error.as_dict() for error in check.errors],
                "url": request.build_absolute_uri(reverse("decks:code", args=[decoded.code])),
            }
        ).data
        return Response(data)


class DeckImportView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="Read a deck list written as text",
        description=(
            "One card per line, any language, optional count and set code (`1x Grrr (00)`). "
            "Every card line is answered: a line that matches no card comes back with the "
            "closest card names."
        ),
        request=s.ImportRequestSerializer,
        responses={200: s.ImportResponseSerializer, 400: ERRORS[400]},
        tags=["decks"],
    )
    def post(self, request: Request) -> Response:
        data = s.ImportRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        lines = deck_import_text(data.validated_data["text"])
        return Response(
            s.ImportResponseSerializer(
                {
                    "lines": lines,
                    "cards": [line.card.slug for line in lines if line.card],
                    "unknown": sum(1 for line in lines if line.card is None),
                }
            ).data
        )


# Each `?card=` is resolved by name (a query each): a handful is what a search needs.
MAX_CARD_FILTERS = 10
LIST_PARAMETERS = [
    OpenApiParameter("q", str, description="Words of the deck's name."),
    OpenApiParameter(
        "card",
        str,
        many=True,
        description=f"A card (slug or name) the deck holds; up to {MAX_CARD_FILTERS} of them.",
    ),
    OpenApiParameter("ability", str, description="An ability (code or name) of one of its cards."),
    OpenApiParameter("format", str, description="Format slug."),
    OpenApiParameter("author", str, description="The owner's user name."),
    OpenApiParameter("sort", str, enum=list(SORTS), description="Order (default: updated)."),
    flag_parameter("mine", "Your own decks, of every visibility, instead of public ones."),
]


def _sort(sort: str) -> str:
    if sort not in SORTS:
        raise DomainError(
            "invalid",
            _("`sort` is one of: %(values)s.") % {"values": ", ".join(SORTS)},
            {"field": "sort", "value": sort[:20]},
        )
    return sort


class GameFormatNegotiation(DefaultContentNegotiation):
    """Here `?format=` filters decks by game format; it does not pick the answer's media type."""

    # Only URL_FORMAT_OVERRIDE is read: a namespace stands in for DRF's settings object.
    settings = SimpleNamespace(URL_FORMAT_OVERRIDE=None)  # type: ignore[assignment]


class DeckListView(GenericAPIView):
    # Only for the schema: the decks come from deck_list.
    queryset = Deck.objects.none()
    serializer_class = s.DeckListSerializer
    content_negotiation_class = GameFormatNegotiation

    @extend_schema(
        summary="Public decks (or yours with ?mine=true)",
        parameters=LIST_PARAMETERS,
        responses={200: s.DeckListSerializer(many=True), 400: ERRORS[400]},
        tags=["decks"],
    )
    def get(self, request: Request) -> Response:
        params = request.query_params
        decks = deck_list(
            owner=request.user if query_flag(request, "mine") else None,
            q=params.get("q", ""),
            # A blank `?card=` names no card: no filter, as for the other parameters.
            cards=bounded_list(
                [card for card in params.getlist("card") if card.strip()],
                limit=MAX_CARD_FILTERS,
                field="card",
            ),
            ability=params.get("ability", ""),
            format=params.get("format", ""),
            author=params.get("author", ""),
            sort=_sort(params.get("sort", "updated")),
        )
        page = self.paginate_queryset(decks)
        data = s.DeckListSerializer(page, many=True, context={"request": request}).data
        return self.get_paginated_response(data)

    @extend_schema(
        summary="Save a new deck",
        request=s.DeckWriteSerializer,
        responses={201: s.DeckSerializer, **ERRORS},
        tags=["decks"],
    )
    def post(self, request: Request) -> Response:
        data = s.DeckWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        deck = services.deck_create(
            owner=signed_in_user(request),
            name=values["name"],
            description=values.get("description", ""),
            format=format_get(slug=values["format"]),
            visibility=values.get("visibility", "private"),
            cards=cards_require(values["cards"], "cards"),
            removed=cards_require(values.get("removed", []), "removed"),
            pool=cards_require(values.get("pool", []), "pool"),
            champion=_champion(request, values.get("champion")),
        )
        return _deck_response(request, deck, status.HTTP_201_CREATED)


class DeckDetailView(APIView):
    @extend_schema(summary="A deck", responses={200: s.DeckSerializer, **ERRORS}, tags=["decks"])
    def get(self, request: Request, share_id: str) -> Response:
        return _deck_response(request, deck_get(share_id=share_id, viewer=request.user))

    def _update(self, request: Request, share_id: str, partial: bool) -> Response:
        deck = deck_get(share_id=share_id, viewer=request.user)
        data = s.DeckWriteSerializer(data=request.data, partial=partial)
        data.is_valid(raise_exception=True)
        values = data.validated_data

        def cards(field: str) -> list | None:
            return cards_require(values[field], field) if field in values else None

        deck = services.deck_update(
            deck=deck,
            actor=signed_in_user(request),
            name=values.get("name"),
            description=values.get("description"),
            format=format_get(slug=values["format"]) if "format" in values else None,
            visibility=values.get("visibility"),
            cards=cards("cards"),
            removed=cards("removed"),
            pool=cards("pool"),
            champion=_champion(request, values["champion"]) if "champion" in values else KEEP,
        )
        return _deck_response(request, deck)

    @extend_schema(
        summary="Replace a deck (a new version)",
        request=s.DeckWriteSerializer,
        responses={200: s.DeckSerializer, **ERRORS},
        tags=["decks"],
    )
    def put(self, request: Request, share_id: str) -> Response:
        return self._update(request, share_id, partial=False)

    @extend_schema(
        summary="Change a deck (a new version)",
        request=s.DeckWriteSerializer(partial=True),
        responses={200: s.DeckSerializer, **ERRORS},
        tags=["decks"],
    )
    def patch(self, request: Request, share_id: str) -> Response:
        return self._update(request, share_id, partial=True)

    @extend_schema(summary="Delete a deck", responses={204: None, **ERRORS}, tags=["decks"])
    def delete(self, request: Request, share_id: str) -> Response:
        deck = deck_get(share_id=share_id, viewer=request.user)
        services.deck_delete(deck=deck, actor=signed_in_user(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class DeckForkView(APIView):
    @extend_schema(
        summary="Fork a deck: your own private copy that remembers its parent",
        request=s.ForkRequestSerializer,
        responses={201: s.DeckSerializer, **ERRORS},
        tags=["decks"],
    )
    def post(self, request: Request, share_id: str) -> Response:
        deck = deck_get(share_id=share_id, viewer=request.user)
        data = s.ForkRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fork = services.deck_fork(
            deck=deck, owner=signed_in_user(request), name=data.validated_data.get("name")
        )
        return _deck_response(request, fork, status.HTTP_201_CREATED)


class DeckVersionListView(GenericAPIView):
    # Only for the schema: the versions come from deck_versions.
    queryset = DeckVersion.objects.none()
    serializer_class = s.DeckVersionSerializer

    @extend_schema(
        summary="A deck's versions, newest first",
        responses={200: s.DeckVersionSerializer(many=True), **ERRORS},
        tags=["decks"],
    )
    def get(self, request: Request, share_id: str) -> Response:
        deck = deck_get(share_id=share_id, viewer=request.user)
        page = self.paginate_queryset(deck_versions(deck))
        assert page is not None  # the API always paginates (DEFAULT_PAGINATION_CLASS)
        versions = versions_seen_by(page, request.user)
        return self.get_paginated_response(s.DeckVersionSerializer(versions, many=True).data)


class DeckVersionDetailView(APIView):
    @extend_schema(
        summary="One version of a deck",
        responses={200: s.DeckVersionSerializer, **ERRORS},
        tags=["decks"],
    )
    def get(self, request: Request, share_id: str, number: int) -> Response:
        deck = deck_get(share_id=share_id, viewer=request.user)
        version = deck_version_get(deck, number, viewer=request.user)
        return Response(s.DeckVersionSerializer(version).data)


class DeckVersionRestoreView(APIView):
    @extend_schema(
        summary="Restore a version (as a new version)",
        request=None,
        responses={200: s.DeckSerializer, **ERRORS},
        tags=["decks"],
    )
    def post(self, request: Request, share_id: str, number: int) -> Response:
        deck = deck_get(share_id=share_id, viewer=request.user)
        deck = services.deck_version_restore(
            deck=deck, actor=signed_in_user(request), number=number
        )
        return _deck_response(request, deck)


class DeckDiffView(APIView):
    @extend_schema(
        summary="What changed between two versions",
        parameters=[
            OpenApiParameter("from", int, required=True, description="The older version."),
            OpenApiParameter("to", int, required=True, description="The newer version."),
        ],
        responses={200: s.DiffSerializer, **ERRORS},
        tags=["decks"],
    )
    def get(self, request: Request, share_id: str) -> Response:
        deck = deck_get(share_id=share_id, viewer=request.user)
        try:
            old, new = int(request.query_params["from"]), int(request.query_params["to"])
        except (KeyError, ValueError) as error:
            raise DomainError(
                "invalid_versions", _("Give two version numbers: ?from=1&to=2."), {}
            ) from error
        diff = deck_version_diff(deck, old, new, viewer=request.user)
        return Response(s.DiffSerializer(diff).data)


class DeckExportView(APIView):
    @extend_schema(
        summary="Export a deck as text, JSON or its deck code",
        parameters=[
            OpenApiParameter("as", str, enum=["text", "json", "code"], description="Default: text.")
        ],
        responses={
            (200, "text/plain"): OpenApiTypes.STR,
            (200, "application/json"): s.DeckSerializer,
            **ERRORS,
        },
        tags=["decks"],
    )
    def get(self, request: Request, share_id: str) -> HttpResponse:
        deck = deck_get(share_id=share_id, viewer=request.user)
        kind = request.query_params.get("as", "text")
        if kind == "json":
            as_json = _deck_response(request, deck)
            as_json["Content-Disposition"] = f'attachment; filename="{deck.share_id}.json"'
            return as_json
        code = deck_code_of(deck, viewer=request.user)
        if kind == "code":
            return HttpResponse(code + "\n", content_type="text/plain; charset=utf-8")
        if kind != "text":
            raise DomainError("invalid_export", _("Export as text, json or code."), {"as": kind})
        text = deck_text(
            name=deck.name,
            format=deck.format,
            cards=deck_cards(deck),
            removed=deck_removed_cards(deck),
            code=code,
        )
        response = HttpResponse(text, content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'inline; filename="{deck.share_id}.txt"'
        return response


class DeckPnpView(APIView):
    """The deck's sheet: drawn by the champions app's Print-and-Play, from the cards played."""

    permission_classes = [AllowAny]
    throttle_classes = [AnonRateThrottle, ExpensiveThrottle]
    throttle_scope = "pdfs"
    throttle_methods = ("GET",)
    renderer_classes = [JSONRenderer, PDFRenderer]

    @extend_schema(
        operation_id="decks_pnp",
        summary="Print-and-Play PDF of a deck: its cards (our frames, no official art) + Champion",
        parameters=[DeckPnpQuerySerializer, LANG],
        responses={
            (200, "application/pdf"): OpenApiTypes.BINARY,
            400: ERRORS[400],
            404: ERRORS[404],
        },
        tags=["decks"],
    )
    def get(self, request: Request, share_id: str) -> HttpResponse:
        deck = deck_get(share_id=share_id, viewer=request.user)
        query = DeckPnpQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        uid = query.validated_data.get("champion")
        champion = champion_get(uid=uid, user=request.user) if uid else None
        pdf = documents.deck_pnp_pdf(
            deck_final_cards(deck), champion, query.options(), current_language()
        )
        return pdf_response(pdf, f"deck-{deck.share_id}.pdf")
