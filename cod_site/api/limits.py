"""Bounds on list-valued input, checked before any other work on the list.

A list's length is refused first, before its items are parsed, looked up or rendered: otherwise a
request naming thousands of items costs the server seconds of lookups before the limit says no.
"""

from collections.abc import Sequence
from typing import Any, TypeVar

from django.utils.translation import gettext as _
from rest_framework import serializers

from cod_site.errors import DomainError

T = TypeVar("T")


def bounded_list(items: Sequence[T], *, limit: int, field: str) -> Sequence[T]:
    """`items` if it holds at most `limit` of them; else a 400 `too_many` naming `field`."""
    if len(items) > limit:
        raise DomainError(
            "too_many",
            _("At most %(limit)d items in `%(field)s`; %(count)d were sent.")
            % {"limit": limit, "field": field, "count": len(items)},
            {"field": field, "limit": limit, "count": len(items)},
        )
    return items


class _LengthFirst:
    """Needs `max_length`, and checks it before the list's items are parsed or looked up."""

    max_length: int
    field_name: str

    def __init__(self, *, max_length: int, **kwargs: Any) -> None:
        super().__init__(max_length=max_length, **kwargs)  # type: ignore[call-arg]

    def to_internal_value(self, data: Any) -> list[Any]:
        if isinstance(data, list):
            bounded_list(data, limit=self.max_length, field=self.field_name)
        return super().to_internal_value(data)  # type: ignore[misc]


# The stubs type `field_name`/`max_length` as Optional on DRF's fields; bound ones always hold both.
class BoundedListField(_LengthFirst, serializers.ListField):  # type: ignore[misc]
    """DRF's ListField parses every item and only then applies `max_length`: with items that are
    looked up (slugs of cards), a long list cost a query per item before it was refused."""


class BoundedListSerializer(_LengthFirst, serializers.ListSerializer):  # type: ignore[misc]
    """`many=True` input, its length refused (`too_many`) as BoundedListField does."""
