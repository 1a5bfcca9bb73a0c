"""Request bodies whose text fields take JSON strings only.

DRF's CharField turns a number into text (`{"text": 0}` reads as "0"), so a body the schema calls
invalid was accepted. Input serializers derive from StrictInputSerializer, which refuses a
number, a boolean or an object where the schema says string (a 400 `invalid` naming the field).

It also refuses a JSON field it does not know (issue 25, fault 6): ignored, a misspelt field
(`"visiblity"`) did nothing and said nothing. A 400 `unknown_field` names it, with its path in
nested objects (`seats.deck.bogus_field`). Every write serializer of the API derives from this
class, so this one check covers them all; query strings and forms are left alone (`format`,
`lang`, `page` and a form's `csrfmiddlewaretoken` belong to no serializer).
"""

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from cod_site.errors import DomainError


def _not_text(field: serializers.Field, value: Any) -> bool:
    if value is None:
        return False  # allow_null decides
    if isinstance(field, serializers.CharField):
        return not isinstance(value, str)
    if isinstance(field, serializers.ListField) and isinstance(value, list):
        return any(_not_text(field.child, item) for item in value)
    if isinstance(field, serializers.DictField) and isinstance(value, dict):
        return any(_not_text(field.child, item) for item in value.values())
    return False


def _path(serializer: serializers.Field, name: str) -> str:
    """`name` prefixed by the fields the serializer is nested in (lists add no index)."""
    parts = [name]
    node: Any = serializer
    while node is not None and node.parent is not None:
        if node.field_name:  # a `many=True` child has none
            parts.append(node.field_name)
        node = node.parent
    return ".".join(reversed(parts))


class StrictInputSerializer(serializers.Serializer):
    def to_internal_value(self, data: Any) -> Any:
        # Form and query data are text already: only parsed JSON can hold other types.
        if isinstance(data, Mapping) and not hasattr(data, "getlist"):
            unknown = [name for name in data if name not in self.fields]
            if unknown:
                field = _path(self, str(unknown[0]))
                raise DomainError(
                    "unknown_field",
                    _("Unknown field `%(field)s`.") % {"field": field},
                    {"field": field},
                )
            errors = {
                name: [_("Not a valid string.")]
                for name, field in self.fields.items()
                if not field.read_only and name in data and _not_text(field, data[name])
            }
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)
