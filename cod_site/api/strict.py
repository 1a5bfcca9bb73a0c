"""Request bodies whose text fields take JSON strings only.

DRF's CharField turns a number into text (`{"text": 0}` reads as "0"), so a body the schema calls
invalid was accepted. Input serializers derive from StrictInputSerializer, which refuses a
number, a boolean or an object where the schema says string (a 400 `invalid` naming the field).
"""

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers


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


class StrictInputSerializer(serializers.Serializer):
    def to_internal_value(self, data: Any) -> Any:
        # Form and query data are text already: only parsed JSON can hold other types.
        if isinstance(data, Mapping) and not hasattr(data, "getlist"):
            errors = {
                name: [_("Not a valid string.")]
                for name, field in self.fields.items()
                if not field.read_only and name in data and _not_text(field, data[name])
            }
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)
