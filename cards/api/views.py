"""Catalogue endpoints: thin wrappers around the selectors, with conditional GETs and caching."""

import csv
import hashlib
import io
from typing import Any

import django_filters
from django import forms
from django.core.cache import cache
from django.db.models import Q, QuerySet, prefetch_related_objects
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import http_date
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cards.api.serializers import (
    AbilitySerializer,
    CardSerializer,
    ExpansionSerializer,
    RuleEntrySerializer,
)
from cards.models import Ability, Card, CardType, Expansion, RuleEntry
from cards.search import QueryError
from cards.selectors import (
    Revision,
    abilities_with_counts,
    card_prefetches,
    card_search,
    cards_with_details,
    catalogue_revision,
    expansions_with_counts,
    rule_entries,
)
from cod_site.api.query import FLAG_VALUES, flag_parameter
from cod_site.api.schema import error_response
from cod_site.errors import DomainError
from cod_site.i18n import current_language

CACHE_SECONDS = 600


class CatalogueConditionalMixin:
    """ETag/Last-Modified from the catalogue revision; 304 when the client's copy is current.

    Its `get` may answer a plain HttpResponse (the 304, or the cached JSON bytes of `list`), which
    DRF sends as it is; djangorestframework-stubs type DRF's handlers as returning a Response only,
    hence the `type: ignore[misc]` of the views that mix it in and the `[override]` of their
    `list` and `paginate_queryset` below.
    """

    revision: Revision

    def _etag(self, request: HttpRequest) -> str:
        digest = hashlib.blake2b(request.get_full_path().encode(), digest_size=8).hexdigest()
        return f'"{self.revision.number}-{current_language()}-{digest}"'

    def fresh_response(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        return super().get(request, *args, **kwargs)  # type: ignore[misc]

    def get(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        self.revision = catalogue_revision()
        etag = self._etag(request)
        # HTTP dates have whole seconds: compare at that precision.
        modified = int(self.revision.modified.timestamp()) if self.revision.modified else None
        not_modified = get_conditional_response(request, etag=etag, last_modified=modified)
        if not_modified is not None:
            response: HttpResponseBase = not_modified
        else:
            response = self.fresh_response(request, *args, **kwargs)
            if response.status_code == 200:
                response.headers["ETag"] = etag
                if modified is not None:
                    response.headers["Last-Modified"] = http_date(modified)
        patch_vary_headers(response, ["Accept-Language"])
        return response


class StatFilter(django_filters.NumberFilter):
    """A whole number from 0 to 99: `mana=1e23` or `hp=0.5` is a 400, not an empty page."""

    field_class = forms.IntegerField

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(min_value=0, max_value=STAT_MAX, **kwargs)


# No card value comes near it; it keeps numbers within what the database compares.
STAT_MAX = 99


class CardFilter(django_filters.FilterSet):
    """Plain parameters for simple clients; `q` takes the full search language."""

    set = django_filters.CharFilter(method="filter_set", help_text="Expansion code or slug.")
    type = django_filters.ChoiceFilter(field_name="card_type", choices=CardType.choices)
    mana = StatFilter()
    mana_min = StatFilter(field_name="mana", lookup_expr="gte")
    mana_max = StatFilter(field_name="mana", lookup_expr="lte")
    attack = StatFilter()
    attack_min = StatFilter(field_name="attack", lookup_expr="gte")
    attack_max = StatFilter(field_name="attack", lookup_expr="lte")
    hp = StatFilter()
    hp_min = StatFilter(field_name="hp", lookup_expr="gte")
    hp_max = StatFilter(field_name="hp", lookup_expr="lte")
    ability = django_filters.CharFilter(method="filter_ability", help_text="Ability code.")
    aura = django_filters.CharFilter(method="filter_aura", help_text="Ability code of an Aura.")
    precon_deck = StatFilter()
    # Not a BooleanFilter: that one reads `checked=null` or `checked=maybe` as no filter at all.
    checked = django_filters.TypedChoiceFilter(
        field_name="checked_against_card_image",
        choices=[(value, value) for value in FLAG_VALUES],
        coerce=FLAG_VALUES.__getitem__,
    )

    class Meta:
        model = Card
        fields: list[str] = []

    def filter_set(self, queryset: QuerySet[Card], name: str, value: str) -> QuerySet[Card]:
        return queryset.filter(Q(expansion__code=value) | Q(expansion__slug=value))

    def filter_ability(self, queryset: QuerySet[Card], name: str, value: str) -> QuerySet[Card]:
        return queryset.filter(
            card_abilities__ability__code=value, card_abilities__is_aura=False
        ).distinct()

    def filter_aura(self, queryset: QuerySet[Card], name: str, value: str) -> QuerySet[Card]:
        return queryset.filter(
            card_abilities__ability__code=value, card_abilities__is_aura=True
        ).distinct()


Q_PARAMETER = OpenApiParameter(
    "q",
    OpenApiTypes.STR,
    description=(
        "Search query: bare words match names in any language; `cost`/`atk`/`hp` with "
        ": = != < <= > >=; `type:`, `set:`, `ab:`, `aura:`, `malus:yes`, `deck:1..4`, "
        "`checked:no`; `-term`, `or`, parentheses; `order:name|cost|atk|hp|set`, `dir:asc|desc`. "
        "At most 500 characters."
    ),
    examples=[
        OpenApiExample("Splash up to 4 mana", value="ab:splash cost<=4"),
        OpenApiExample("Cheap creatures", value="cost<=2 type:creature"),
    ],
)
LANG_PARAMETER = OpenApiParameter(
    "lang", OpenApiTypes.STR, enum=["en", "fr", "sv"], description="Language of names and texts."
)


# django-filter's schema gives the type of a number filter, not its bounds.
STAT_PARAMETERS = [
    OpenApiParameter(name, {"type": "integer", "minimum": 0, "maximum": STAT_MAX})
    for name, one in CardFilter.base_filters.items()
    if isinstance(one, StatFilter)
]


@extend_schema(
    parameters=[
        Q_PARAMETER,
        LANG_PARAMETER,
        *STAT_PARAMETERS,
        flag_parameter("checked", "Checked against a picture of the printed card."),
    ],
    responses={
        200: CardSerializer(many=True),
        400: error_response(
            "A search error (`invalid_query`: `details` has the `term`, its `position` and the "
            "`query`), or a bad filter (`invalid`: `details` maps each parameter to its errors)."
        ),
    },
)
class CardListView(CatalogueConditionalMixin, generics.ListAPIView):  # type: ignore[misc]
    """Cards matching `q` and the plain filters, paginated; answers are cached per revision."""

    serializer_class = CardSerializer
    filterset_class = CardFilter

    def get_serializer_context(self) -> dict[str, Any]:
        return {**super().get_serializer_context(), "language": current_language()}

    def get_queryset(self) -> QuerySet[Card]:
        if getattr(self, "swagger_fake_view", False):  # the OpenAPI schema generator
            return Card.objects.none()
        query = self.request.query_params.get("q", "")
        try:
            cards = card_search(query, revision=self.revision.number)
        except QueryError as exc:
            raise DomainError(
                "invalid_query",
                str(exc),
                {"term": exc.term, "position": exc.position, "query": query[:500]},
            ) from exc
        return cards

    # The stubs make paginate_queryset generic over any rows; this view pages its Card queryset.
    def paginate_queryset(self, queryset: QuerySet[Card]) -> list[Card] | None:  # type: ignore[override]
        page = super().paginate_queryset(queryset.select_related("expansion"))
        # Prefetch for the page's rows only: the query count does not grow with the page size.
        if page is not None:
            prefetch_related_objects(page, *card_prefetches())
        return page

    def list(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:  # type: ignore[override]
        params = sorted((key, value) for key, value in request.query_params.lists())
        key = (
            "cards:list:"
            + hashlib.blake2b(
                repr((self.revision.number, current_language(), params)).encode(), digest_size=16
            ).hexdigest()
        )
        as_json = request.accepted_renderer.format == "json"
        cached = cache.get(key) if as_json else None
        if cached is not None:
            # The same answer rendered before: skip serialising and rendering again.
            return HttpResponse(cached, content_type=request.accepted_media_type)
        response = super().list(request, *args, **kwargs)
        if as_json:
            response = self.finalize_response(request, response)
            cache.set(key, response.render().content, CACHE_SECONDS)
        return response


@extend_schema(parameters=[LANG_PARAMETER], responses={200: CardSerializer})
class CardDetailView(CatalogueConditionalMixin, generics.RetrieveAPIView):  # type: ignore[misc]
    serializer_class = CardSerializer
    lookup_field = "slug"

    def get_queryset(self) -> QuerySet[Card]:
        return cards_with_details()

    def get_serializer_context(self) -> dict[str, Any]:
        return {**super().get_serializer_context(), "language": current_language()}


def _export_rows() -> list[Card]:
    return list(cards_with_details().order_by("expansion__position", "collector_number", "slug"))


EXPORT_COLUMNS = [
    "set_code",
    "collector_number",
    "slug",
    "name_en",
    "name_fr",
    "name_sv",
    "type",
    "mana",
    "attack",
    "hp",
    "abilities",
    "precon_deck",
    "checked_against_card_image",
    "copies",
    "note",
]


def export_csv_text(cards: list[Card]) -> str:
    """The catalogue as CSV, with abilities in the data file's notation (`aura:CODE`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(EXPORT_COLUMNS)
    for card in cards:
        names = {row.language_code: row.name for row in card.translations.all()}
        writer.writerow(
            [
                card.expansion.code,
                card.collector_number or "",
                card.slug,
                names.get("en", ""),
                names.get("fr", ""),
                names.get("sv", ""),
                card.card_type,
                "" if card.mana is None else card.mana,
                "" if card.attack is None else card.attack,
                "" if card.hp is None else card.hp,
                ";".join(
                    f"{'aura:' if link.is_aura else ''}{link.ability.code}"
                    for link in card.card_abilities.all()
                ),
                card.precon_deck or "",
                "yes" if card.checked_against_card_image else "no",
                card.copies,
                card.note,
            ]
        )
    return out.getvalue()


@extend_schema(
    parameters=[LANG_PARAMETER],
    responses={200: OpenApiResponse(CardSerializer(many=True), "Every card, not paginated.")},
)
class ExportJsonView(CatalogueConditionalMixin, APIView):
    """`GET /api/v1/cards/export.json`: every card, names in every language, one array."""

    def fresh_response(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        context = {"language": current_language()}
        response = Response(CardSerializer(_export_rows(), many=True, context=context).data)
        response.headers["Content-Disposition"] = 'attachment; filename="cards.json"'
        return response


@extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
class ExportCsvView(CatalogueConditionalMixin, APIView):
    """`GET /api/v1/cards/export.csv`: every card, one row each, names in every language."""

    def fresh_response(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponse:
        response = HttpResponse(
            export_csv_text(_export_rows()), content_type="text/csv; charset=utf-8"
        )
        response.headers["Content-Disposition"] = 'attachment; filename="cards.csv"'
        return response


@extend_schema(parameters=[LANG_PARAMETER])
class ExpansionListView(CatalogueConditionalMixin, generics.ListAPIView):  # type: ignore[misc]
    serializer_class = ExpansionSerializer

    def get_queryset(self) -> QuerySet[Expansion]:
        return expansions_with_counts()

    def get_serializer_context(self) -> dict[str, Any]:
        return {**super().get_serializer_context(), "language": current_language()}


@extend_schema(parameters=[LANG_PARAMETER])
class AbilityListView(CatalogueConditionalMixin, generics.ListAPIView):  # type: ignore[misc]
    serializer_class = AbilitySerializer

    def get_queryset(self) -> QuerySet[Ability]:
        return abilities_with_counts()

    def get_serializer_context(self) -> dict[str, Any]:
        return {**super().get_serializer_context(), "language": current_language()}


@extend_schema(parameters=[LANG_PARAMETER])
class RuleListView(CatalogueConditionalMixin, generics.ListAPIView):  # type: ignore[misc]
    serializer_class = RuleEntrySerializer

    def get_queryset(self) -> QuerySet[RuleEntry]:
        return rule_entries()

    def get_serializer_context(self) -> dict[str, Any]:
        return {**super().get_serializer_context(), "language": current_language()}
