"""The API of "Improve this deck": searches of a deck's best card swaps, under the deck's URL.

Only the account that started a search (and staff) sees it; anyone else gets a 404.
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
from decks.selectors.access import deck_get
from engine.models import SuggestionSearch
from engine.suggestions import selectors, services
from engine.suggestions.api import serializers as s

TAGS = ["suggestions"]
NOT_FOUND = error_response("No such deck, or no such search of it (or not yours).")


def _data(request: Request, share_id: str, item: SuggestionSearch) -> dict[str, Any]:
    context = {"request": request, "share_id": share_id}
    return s.SearchSerializer(item, context=context).data


def _search(request: Request, share_id: str, search_id: int) -> SuggestionSearch:
    item = selectors.search_get(search_id=search_id, user=request.user)
    if item.deck is None or item.deck.share_id != share_id:
        # Another deck's search under this deck's URL: as unknown as a search of nobody's.
        return selectors.search_visible(search_id=search_id, item=None, user=request.user)
    return item


class SuggestionListView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [AnonRateThrottle, ExpensiveThrottle]
    throttle_scope = "suggestions"
    pagination_class = PageNumberPagination

    @extend_schema(
        summary="My searches for better versions of this deck, newest first",
        responses={200: s.SearchSerializer(many=True), 404: NOT_FOUND},
        tags=TAGS,
    )
    def get(self, request: Request, share_id: str) -> Response:
        deck = deck_get(share_id=share_id, viewer=request.user)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(
            selectors.searches_of(request.user, deck), request, view=self
        )
        context = {"request": request, "share_id": share_id}
        return paginator.get_paginated_response(
            s.SearchSerializer(page, many=True, context=context).data
        )

    @extend_schema(
        summary="Improve this deck: search the card swaps that raise its win rate",
        description=(
            "Answers 202 at once with the search and its `url`; poll it for the progress and "
            "the results. The search plays the deck and the deck with card swaps (one card "
            "out, one in, legal in the deck's format; then pairs of the best) against the "
            "`field`, in rounds on the workers: a swap stops as soon as its 95% interval shows "
            "it is worse than the deck or than the best swap, and one whose interval lies above "
            "the deck's is confirmed on games of its own (`status: proved`). Every game of a "
            "swap is paired with the deck's game of the same seeds. `results.suggestions` lists "
            "the best swaps with their win rate change, its 95% interval and the change against "
            "each opponent. The same `seed` gives the same suggestions. The deck plays without "
            "its Champion. A Preconstructed deck is a 400 `fixed_format` (no card of it can "
            "change); bad input is a 400 that starts nothing; a per-user limit (searches at "
            "once, games per day) is a 429."
        ),
        request=s.SuggestionRequestSerializer,
        responses={
            202: s.SearchSerializer,
            404: NOT_FOUND,
            429: error_response("A per-user limit."),
        },
        tags=TAGS,
    )
    def post(self, request: Request, share_id: str) -> Response:
        data = s.SuggestionRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        item = services.search_create(
            requested_by=signed_in_user(request),
            share_id=share_id,
            field=data.validated_data["field"],
            decks=data.deck_choices(),
            games=data.validated_data["games"],
            seed=data.validated_data.get("seed"),
            agent=data.validated_data.get("agent"),
        )
        body = _data(request, share_id, _search(request, share_id, item.pk))
        return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": body["url"]})


class SuggestionDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="A search of a deck's swaps: progress, and the best swaps so far",
        responses={200: s.SearchSerializer, 404: NOT_FOUND},
        tags=TAGS,
    )
    def get(self, request: Request, share_id: str, search_id: int) -> Response:
        return Response(_data(request, share_id, _search(request, share_id, search_id)))


class SuggestionCancelView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Cancel a search of a deck's swaps",
        description="Its units not yet played are skipped; the results keep the rounds closed.",
        request=None,
        responses={
            200: s.SearchSerializer,
            404: NOT_FOUND,
            409: error_response("Already done, failed or cancelled."),
        },
        tags=TAGS,
    )
    def post(self, request: Request, share_id: str, search_id: int) -> Response:
        item = _search(request, share_id, search_id)
        item = services.search_cancel(item=item, actor=signed_in_user(request))
        return Response(_data(request, share_id, item))
