"""The metagame's API: the round robin of the most popular public decks, and a deck's place."""

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cod_site.api.schema import error_response
from cod_site.errors import DomainError
from engine.metagame import selectors
from engine.metagame.api import serializers as s

TAGS = ["metagame"]


def metagame_data() -> dict[str, Any]:
    refresh = selectors.latest_refresh()
    return {
        "refreshed_at": refresh.finished_at if refresh else None,
        "agent": refresh.agent if refresh else None,
        "games_per_pair": refresh.games_per_pair if refresh else None,
        "decks": selectors.standings(refresh) if refresh else [],
        "running": selectors.refresh_running(),
    }


class MetagameView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="The metagame: the most popular public decks in a round robin",
        description=(
            "The public decks most forked and most played in test batches (up to "
            "METAGAME_DECKS), each pair played by the same AI, refreshed on a schedule when a "
            "deck changed (only the pairs where a deck changed are played again): each deck's "
            "Elo rating with its 95% interval, its score, its best and worst matchups."
        ),
        responses=s.MetagameSerializer,
        tags=TAGS,
    )
    def get(self, request: Request) -> Response:
        return Response(s.MetagameSerializer(metagame_data(), context={"request": request}).data)


class MetagameDeckView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A deck's place in the metagame, with its result against every other deck",
        responses={
            200: s.DeckPlaceSerializer,
            404: error_response("The deck is not one of the metagame's."),
        },
        tags=TAGS,
    )
    def get(self, request: Request, share_id: str) -> Response:
        refresh = selectors.latest_refresh()
        place = selectors.deck_place(share_id)
        if refresh is None or place is None:
            raise DomainError(
                "not_in_metagame",
                _("This deck is not one of the metagame's."),
                {"deck": share_id},
                status_code=404,
            )
        data = {
            "standing": place,
            "decks": len(refresh.entries),
            "matchups": selectors.deck_matchups(refresh, share_id),
        }
        return Response(s.DeckPlaceSerializer(data, context={"request": request}).data)
