"""Refusals made before any view runs, for pages and the API alike."""

import contextlib
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import BadRequest, SuspiciousOperation
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from cod_site.api.errors import error_body

NUL = "\x00"
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


class NulCharacterMiddleware:
    """A NUL character in the path, the query string or a form body is refused here.

    PostgreSQL text cannot hold NUL: a filter given one (`?card=%00`) raised a DataError deep in
    a query, a 500, where SQLite quietly matched nothing; so did a path segment (`/decks/a%00/`,
    a share id looked up) and a form field read by a ModelChoiceField. A path holding one names
    nothing (404); a query or form field holding one is a 400 naming it. JSON bodies are checked
    by the API's parser (cod_site.api.parsers).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if NUL in request.path:
            if not request.path.startswith("/api/"):
                raise Http404
            body = error_body("not_found", _("Not found."), {})
            return JsonResponse(body, status=404)
        for in_query, name, values in self._fields(request):
            if NUL in name or any(NUL in value for value in values):
                return self._refuse(request, name.replace(NUL, "\\x00")[:40], in_query)
        return self.get_response(request)

    @staticmethod
    def _fields(request: HttpRequest) -> list[tuple[bool, str, list[str]]]:
        fields = [(True, name, values) for name, values in request.GET.lists()]
        # A form body, which CsrfViewMiddleware reads next anyway (DRF reuses what was read).
        if request.method == "POST" and request.content_type in FORM_TYPES:
            # Too many fields or too large: left to the view, which answers as it did.
            with contextlib.suppress(BadRequest, SuspiciousOperation):
                fields += [(False, name, values) for name, values in request.POST.lists()]
        return fields

    def _refuse(self, request: HttpRequest, name: str, in_query: bool) -> HttpResponse:
        if not request.path.startswith("/api/"):
            raise BadRequest(name)  # the site's 400 page
        if in_query:
            message = _("The query parameter `%(name)s` holds a NUL character.") % {"name": name}
        else:
            message = _("The field `%(name)s` holds a NUL character.") % {"name": name}
        body = error_body("invalid_parameter", message, {"field": name})
        return JsonResponse(body, status=400)


# The limits gunicorn's own parser enforced before `make serve` ran uvicorn, whose parser
# (httptools) stops only a request line past 64 KB, with a plain-text 400 of its own.
REQUEST_LINE_LIMIT = 8190
HEADER_COUNT_LIMIT = 100
HEADER_SIZE_LIMIT = 8190


class RequestLimitsMiddleware:
    """A request line or headers past the limits above are refused before anything reads them:
    a 414 or a 431, in the API's error shape under /api/ (the 400 page elsewhere)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        headers = [
            len(name) + len(str(value))
            for name, value in request.META.items()
            if name.startswith("HTTP_") or name in ("CONTENT_TYPE", "CONTENT_LENGTH")
        ]
        line = len(request.method or "") + len(request.get_full_path()) + len(" HTTP/1.1 ")
        checks = [
            (line, REQUEST_LINE_LIMIT, 414, "request_line_too_long",
             _("The request line is longer than %(limit)d bytes.")),
            (len(headers), HEADER_COUNT_LIMIT, 431, "too_many_headers",
             _("The request has more than %(limit)d headers.")),
            (max(headers, default=0), HEADER_SIZE_LIMIT, 431, "header_too_large",
             _("A request header is longer than %(limit)d bytes.")),
        ]  # fmt: skip
        for size, limit, status, code, message in checks:
            if size > limit:
                if not request.path.startswith("/api/"):
                    return render(request, "400.html", status=status)
                body = error_body(code, message % {"limit": limit}, {"limit": limit, "size": size})
                return JsonResponse(body, status=status)
        return self.get_response(request)


class SyncChainMiddleware:
    """The last middleware, sync only, so that Django's ASGI handler (the live streams under
    `make serve`, `cod_site.hybrid`) runs the whole chain in sync mode: one hand-off from the
    event loop to the request's thread and back, where the async-capable middleware after the
    sync-only ones (WhiteNoise, these) made it hop between the loop and the thread three times
    (with every request through that handler: /healthz took 2.25 ms of CPU, a card page 4.2 ms,
    against 1.7 and 3.2 ms with this). The async view still runs in the loop: Django calls it
    from the chain's thread, which waits only until the view returns its response, not while
    the response streams."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)


def _policy(directives: dict[str, str]) -> str:
    return "; ".join(f"{name} {value}".strip() for name, value in directives.items())


class SecurityPolicyMiddleware:
    """The Content-Security-Policy and Permissions-Policy headers of every answer (issue 25,
    fault 7), from settings: CONTENT_SECURITY_POLICY (directive → sources), its additions per
    path prefix CONTENT_SECURITY_POLICY_PATHS (the API's docs pages), and PERMISSIONS_POLICY.

    The pages run no script written in their markup (behaviours are data attributes read by
    static scripts, cod_site/static/cod_site/behaviour.js), so `script-src 'self'` stops a
    script an attacker slipped into a name or a description from running at all.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.default = _policy(settings.CONTENT_SECURITY_POLICY)
        self.by_path = [
            (prefix, _policy({**settings.CONTENT_SECURITY_POLICY, **extra}))
            for prefix, extra in settings.CONTENT_SECURITY_POLICY_PATHS.items()
        ]
        self.permissions = ", ".join(
            f"{feature}=({' '.join(allowed)})"
            for feature, allowed in settings.PERMISSIONS_POLICY.items()
        )

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        policy = next(
            (value for prefix, value in self.by_path if request.path.startswith(prefix)),
            self.default,
        )
        if policy:
            response.headers.setdefault("Content-Security-Policy", policy)
        if self.permissions:
            response.headers.setdefault("Permissions-Policy", self.permissions)
        return response
