"""Which language a request wants: pages take it from the URL prefix, the API from `?lang=`."""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import is_valid_path
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language_from_path

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


# Paths that are not pages under the language prefix: never sent elsewhere.
NOT_PAGES = ("/api/", "/i18n/", "/static/", "/media/")


class KeptLanguageMiddleware:
    """A link without a language prefix opens in the reader's language (issue 29).

    English pages live at the root (`prefix_default_language=False`), so Django's
    LocaleMiddleware reads every unprefixed URL as English: a French reader following a shared
    link (/d/CODE, /play/…) landed in English. A page asked for without prefix is sent to the
    prefixed URL of the language the reader chose (the switch's cookie) or, without a choice,
    the one their browser asks for (Accept-Language). Only links followed are sent on (GET and
    HEAD, not htmx's requests, not the API), and only to a page that exists in that language.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        path = request.path_info
        is_page_link = (
            request.method in ("GET", "HEAD")
            and "HX-Request" not in request.headers
            and not path.startswith(NOT_PAGES)
            and get_language_from_path(path) is None
        )
        if not is_page_link:
            return self.get_response(request)
        wanted = translation.get_language_from_request(request, check_path=False).split("-")[0]
        if wanted != settings.LANGUAGE_CODE and wanted in LANGUAGE_CODES:
            prefixed = f"/{wanted}{path}"
            with translation.override(wanted):
                exists = is_valid_path(prefixed)
            if exists:
                script = request.path[: len(request.path) - len(path)]
                query = request.META.get("QUERY_STRING", "")
                response: HttpResponse = HttpResponseRedirect(
                    f"{script}{prefixed}{'?' + query if query else ''}"
                )
                patch_vary_headers(response, ("Accept-Language", "Cookie"))
                return response
        response = self.get_response(request)
        # The same unprefixed URL answers each reader in their language: caches must know.
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
        return response
