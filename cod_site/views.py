from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import translate_url
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language_from_path
from django.views import csrf
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_POST

from cod_site.api.errors import json_error_response
from cod_site.health import health_report


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "cod_site/home.html")


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    healthy, report = health_report()
    return JsonResponse(report, status=200 if healthy else 503)


# Browsers ask for /favicon.ico by themselves where no page names an icon (a JSON answer, say);
# the icon is a static file (hashed name once collected), so this only points there.
@cache_control(max_age=86400, public=True)
def favicon(request: HttpRequest) -> HttpResponse:
    return redirect(static("cod_site/favicon.ico"))


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return json_error_response(400, "bad_request", "The request could not be understood.")
    return render(request, "400.html", status=400)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return json_error_response(403, "permission_denied", "You may not do this.")
    return render(request, "403.html", status=403)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    if _is_api(request):
        return json_error_response(403, "csrf_failed", f"CSRF check failed: {reason}")
    return csrf.csrf_failure(request, reason)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return json_error_response(404, "not_found", f"Nothing at {request.path}.")
    return render(request, "404.html", status=404)


def server_error(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    if _is_api(request):
        return json_error_response(500, "server_error", "Something went wrong on our side.")
    # No context processors: the failure may come from them.
    from django.template import loader

    return HttpResponse(loader.get_template("500.html").render(), status=500)


@require_POST
def switch_language(request: HttpRequest) -> HttpResponse:
    """Show the same page in another language.

    Django's `set_language` resolves `next` in the language of the POST request (English here,
    since /i18n/ has no prefix), so /sv/… pages would not translate; resolve it in its own.
    """
    language = request.POST.get("language", "")
    next_url = request.POST.get("next") or "/"
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = "/"
    if language not in dict(settings.LANGUAGES):
        return redirect(next_url)
    with translation.override(get_language_from_path(next_url) or settings.LANGUAGE_CODE):
        target = translate_url(next_url, language)
    response = redirect(target)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )
    return response
