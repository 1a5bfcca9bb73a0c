"""The OpenAPI description of the API's answers that every operation shares: errors and pages."""

from typing import Any

from drf_spectacular import openapi
from drf_spectacular.utils import OpenApiResponse, extend_schema_field
from rest_framework import serializers

from cod_site.api.strict import StrictInputSerializer


class ErrorSerializer(serializers.Serializer):
    """The one error body of the API (cod_site.api.errors): every refusal has this shape."""

    code = serializers.CharField(
        help_text="Stable, for programs: `invalid`, `invalid_json`, `not_found`, `too_many`, …"
    )
    message = serializers.CharField(help_text="For people, in the request's language.")
    details = serializers.DictField(
        help_text="Structured facts of the refusal (the field, the limit, …); may be empty."
    )


def documented_range(minimum: int, maximum: int) -> type[serializers.IntegerField]:
    """An IntegerField whose bounds the schema states but the domain checks: its refusals keep
    their own codes (`invalid_hp`, …) instead of the serializer's generic `invalid`."""
    field_class = type(f"Integer{minimum}To{maximum}Field", (serializers.IntegerField,), {})
    schema = {"type": "integer", "minimum": minimum, "maximum": maximum}
    return extend_schema_field(schema)(field_class)


def documented_float_range(minimum: float, maximum: float) -> type[serializers.FloatField]:
    """documented_range's twin for numbers (millimetres): the domain checks, the schema states."""
    field_class = type("BoundedFloatField", (serializers.FloatField,), {})
    schema = {"type": "number", "format": "double", "minimum": minimum, "maximum": maximum}
    return extend_schema_field(schema)(field_class)


# An upload: multipart bytes. drf-spectacular names a FileField a URI (its output form).
UploadField = extend_schema_field({"type": "string", "format": "binary"})(
    type("UploadField", (serializers.FileField,), {})
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

    def _map_serializer_field(
        self, field: Any, direction: Any, bypass_extensions: bool = False
    ) -> Any:
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        # drf-spectacular states the bounds of a ListField, not of a `many=True` serializer.
        if isinstance(field, serializers.ListSerializer) and schema:
            # ListSerializer takes max_length/min_length at runtime; its stubs do not declare them.
            bounds = {
                "maxItems": field.max_length,  # type: ignore[attr-defined]
                "minItems": field.min_length,  # type: ignore[attr-defined]
            }
            schema.update({key: value for key, value in bounds.items() if value is not None})
        return schema

    def _map_basic_serializer(self, serializer: Any, direction: Any) -> Any:
        schema = super()._map_basic_serializer(serializer, direction)
        # Input serializers refuse fields they do not know (cod_site.api.strict): say so.
        if isinstance(serializer, StrictInputSerializer):
            schema["additionalProperties"] = False
        return schema

    def map_parsers(self) -> list[Any]:
        # The API's bodies are JSON. Views that also parse forms (DRF's defaults) say so in
        # their parsers, but the schema documents JSON only: a form cannot carry an empty list
        # or a null, so documented form bodies would be bodies the API cannot read as meant.
        # Uploads (multipart only) keep their media types.
        media_types = super().map_parsers()
        return ["application/json"] if "application/json" in media_types else media_types

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        for status_code, description in COMMON_ERRORS.items():
            if status_code not in responses:
                responses[status_code] = self._get_response_for_code(
                    error_response(description), status_code, direction=direction
                )
        # An error is JSON whatever the operation's success is (a PDF, a PNG).
        for status_code, response in responses.items():
            if status_code >= "400" and "application/json" in response.get("content", {}):
                response["content"] = {"application/json": response["content"]["application/json"]}
        return responses
