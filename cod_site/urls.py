from django.conf import settings
from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from cod_site import views

urlpatterns = [
    path("api/v1/", include(("cod_site.api.urls", "api"), namespace="api")),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("i18n/setlang/", views.switch_language, name="set_language"),
]

# Pages carry the language in the URL (/fr/…, /sv/…); English pages live at the root.
urlpatterns += i18n_patterns(
    path("", views.home, name="home"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/", include("cod_site.accounts.urls")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("admin/", admin.site.urls),
    path("", include("cards.urls")),
    path("", include("decks.urls")),
    path("champions/", include("champions.urls")),
    path("mutation/", include("mutation.urls")),
    path("simulations/", include("engine.urls")),
    path("grimoire/", include("grimoire.urls")),
    path("play/", include("play.urls")),
    prefix_default_language=False,
)

handler400 = "cod_site.views.bad_request"
handler403 = "cod_site.views.permission_denied"
handler404 = "cod_site.views.page_not_found"
handler500 = "cod_site.views.server_error"

if settings.DEBUG:
    from django.conf.urls.static import static

    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
