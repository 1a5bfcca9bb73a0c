import re
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import pagination
from rest_framework.request import Request

from cod_site.errors import DomainError

_WHOLE_NUMBER = re.compile(r"[0-9]{1,9}")
_DIGITS = re.compile(r"[0-9]+")
_PAST_EVERY_PAGE = 10**9


class PageNumberPagination(pagination.PageNumberPagination):
    """The one pagination of the API: `count`, `next`, `previous`, `results`."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def get_page_size(self, request: Request) -> int:
        # DRF quietly falls back to the default for `page_size=-5` or `abc`, and caps a large
        # one: the schema says 1 to 200, so anything else is refused.
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        size = int(raw) if _WHOLE_NUMBER.fullmatch(raw) else 0
        if not 1 <= size <= self.max_page_size:
            raise DomainError(
                "invalid_page_size",
                _("The page size is a whole number from 1 to %(max)d.")
                % {"max": self.max_page_size},
                {"field": self.page_size_query_param, "value": raw[:20], "max": self.max_page_size},
            )
        return size

    def get_page_number(self, request: Request, paginator: Any) -> int | str:
        # DRF reads an empty `page` as the first page and `0` or `abc` as a missing page (404):
        # the schema says a whole number from 1, so anything else is bad input.
        raw = request.query_params.get(self.page_query_param)
        if raw is None:
            return 1
        number = raw.lstrip("0")
        if not (_DIGITS.fullmatch(raw) and number):
            raise DomainError(
                "invalid_page",
                _("The page is a whole number from 1."),
                {"field": self.page_query_param, "value": raw[:20]},
            )
        # Any whole number from 1 is a page the schema allows: past the last one it is a 404.
        # Beyond nine digits it is past every last page, and not worth converting (a number of
        # thousands of digits would exceed Python's int conversion limit).
        return int(number) if len(number) <= 9 else _PAST_EVERY_PAGE

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        bounds = {
            self.page_query_param: {"minimum": 1},
            self.page_size_query_param: {"minimum": 1, "maximum": self.max_page_size},
        }
        for parameter in parameters:
            parameter["schema"].update(bounds.get(parameter["name"], {}))
        return parameters
