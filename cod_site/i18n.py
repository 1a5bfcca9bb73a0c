"""Which language a request wants: pages take it from the URL prefix, the API from `?lang=`."""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from cod_site.api.errors import json_error_response

LANGUAGE_CODES: tuple[str, ...] = tuple(code for code, _ in settings.LANGUAGES)


def current_language() -> str:
    """The active language, reduced to one of ours (`en`, `fr`, `sv`)."""
    code = (translation.get_language() or settings.LANGUAGE_CODE).split("-")[0]
    return code if code in LANGUAGE_CODES else settings.LANGUAGE_CODE


class ApiLanguageMiddleware:
    """API language: `?lang=en|fr|sv`, else Accept-Language (or the language cookie)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith("/api/"):
            return self.get_response(request)
        lang = request.GET.get("lang")
        if lang is None:
            # LocaleMiddleware gives every unprefixed URL the default language; the API
            # honours Accept-Language instead.
            lang = translation.get_language_from_request(request, check_path=False)
        elif lang not in LANGUAGE_CODES:
            return json_error_response(
                400,
                "unknown_language",
                f"Unknown language {lang!r}: use one of {', '.join(LANGUAGE_CODES)}.",
            )
        translation.activate(lang)
        request.LANGUAGE_CODE = lang
        response = self.get_response(request)
        response.headers["Content-Language"] = current_language()
        return response
