"""The OpenAPI description of the API's answers that every operation shares: errors and pages."""

from typing import Any

from drf_spectacular import openapi
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers


class ErrorSerializer(serializers.Serializer):
    """The one error body of the API (cod_site.api.errors): every refusal has this shape."""

    code = serializers.CharField(
        help_text="Stable, for programs: `invalid`, `invalid_json`, `not_found`, `too_many`, …"
    )
    message = serializers.CharField(help_text="For people, in the request's language.")
    details = serializers.DictField(
        help_text="Structured facts of the refusal (the field, the limit, …); may be empty."
    )


def error_response(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorSerializer, description=description)


# Answers any operation may give whatever it does: bad input or a bad page number (400), a bad
# token or a refused permission (403), a path naming nothing (404), the throttle (429).
COMMON_ERRORS = {
    "400": "Bad input: `code` says why and `details` names the field.",
    "403": "Not allowed: not logged in, a bad token, or not yours.",
    "404": "Nothing there (or nothing you may see).",
    "429": "Too many requests: `details.wait` says how many seconds to wait.",
}


class AutoSchema(openapi.AutoSchema):
    """Documents the common errors on every operation, with the one error body."""

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        for status_code, description in COMMON_ERRORS.items():
            if status_code not in responses:
                responses[status_code] = self._get_response_for_code(
                    error_response(description), status_code, direction=direction
                )
        return responses
