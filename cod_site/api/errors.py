"""Every API error, whatever raised it, leaves as `{"code", "message", "details"}`."""

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from cod_site.errors import DomainError


def error_body(code: str, message: str, details: Any = None) -> dict[str, Any]:
    return {"code": code, "message": message, "details": details if details is not None else {}}


def _first_message(detail: Any) -> str:
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    if isinstance(detail, dict) and detail:
        key, value = next(iter(detail.items()))
        text = _first_message(value)
        return text if key in ("non_field_errors", "detail") else f"{key}: {text}"
    return str(detail)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DomainError):
        return Response(error_body(exc.code, exc.message, exc.details), status=exc.status_code)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = exception_handler(exc, context)
    if response is None:
        return None  # an unexpected error: handler500 renders the JSON 500
    assert isinstance(exc, exceptions.APIException)
    if isinstance(exc, exceptions.ValidationError):
        body = error_body("invalid", _first_message(exc.detail), exc.detail)
    else:
        detail = exc.detail
        code = getattr(detail, "code", None) or exc.default_code
        extra: dict[str, object] = {}
        if isinstance(exc, exceptions.Throttled):
            # Throttled sets `wait` in its __init__; djangorestframework-stubs leaves it out.
            extra["wait"] = exc.wait  # type: ignore[attr-defined]
        body = error_body(str(code), str(detail), extra)
    response.data = body
    return response


def json_error_response(status_code: int, code: str, message: str) -> JsonResponse:
    return JsonResponse(error_body(code, message), status=status_code)


# Exempt from CSRF: a POST to no endpoint is a 404, not the HTML page of a failed CSRF check.
@csrf_exempt
def api_not_found(request: Any, *args: Any, **kwargs: Any) -> JsonResponse:
    return json_error_response(
        status.HTTP_404_NOT_FOUND, "not_found", f"No API endpoint at {request.path}."
    )
