"""Everything under /api/v1/: each app contributes its own `api/urls.py`."""

from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView
from rest_framework.authtoken.views import obtain_auth_token

from cod_site.api.errors import api_not_found

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    path("redoc/", SpectacularRedocView.as_view(url_name="api:schema"), name="redoc"),
    path("auth/token/", obtain_auth_token, name="token"),
    path("", include("cards.api.urls")),
    path("", include("decks.api.urls")),
    path("", include("champions.api.urls")),
    path("", include("mutation.api.urls")),
    path("", include("engine.api.urls")),
    # Last: any other path under the API answers in the API's error shape, even with DEBUG on.
    re_path(r"^.*$", api_not_found),
]
