"""Everything under /api/v1/: each app contributes its own `api/urls.py`."""

from django.urls import include, path, re_path
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)
from rest_framework import parsers
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken

from cod_site.api.errors import api_not_found
from cod_site.api.parsers import JSONParser
from cod_site.api.strict import StrictInputSerializer


class TokenRequestSerializer(StrictInputSerializer, AuthTokenSerializer):
    """DRF's own, refusing unknown fields as every other write of the API does."""


# DRF's token view names its own parsers: give it the API's JSON parser (a 400 `invalid_json`).
obtain_auth_token = ObtainAuthToken.as_view(
    parser_classes=[parsers.FormParser, parsers.MultiPartParser, JSONParser],
    serializer_class=TokenRequestSerializer,
)

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The docs pages under the Content-Security-Policy: Swagger UI's start-up script served as
    # a file of its own (`?script=`), Redoc from a page without inline script or web fonts.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
    path(
        "redoc/",
        SpectacularRedocView.as_view(url_name="api:schema", template_name="cod_site/redoc.html"),
        name="redoc",
    ),
    path("auth/token/", obtain_auth_token, name="token"),
    path("", include("cards.api.urls")),
    path("", include("decks.api.urls")),
    path("", include("champions.api.urls")),
    path("", include("mutation.api.urls")),
    path("", include("engine.api.urls")),
    path("", include("grimoire.api.urls")),
    path("", include("play.api.urls")),
    # Last: any other path under the API answers in the API's error shape, even with DEBUG on.
    re_path(r"^.*$", api_not_found),
]
