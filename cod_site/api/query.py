"""Query parameters shared by the API's views, read strictly: an unreadable value is a 400."""

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter
from rest_framework.request import Request

from cod_site.errors import DomainError

# What a yes/no parameter accepts, and means.
FLAG_VALUES = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}


def query_flag(request: Request, name: str) -> bool:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return False
    if raw not in FLAG_VALUES:
        raise DomainError(
            "invalid",
            _("`%(name)s` is one of: %(values)s.")
            % {"name": name, "values": ", ".join(FLAG_VALUES)},
            {"field": name, "value": raw[:20]},
        )
    return FLAG_VALUES[raw]


def flag_parameter(name: str, description: str) -> OpenApiParameter:
    return OpenApiParameter(name, str, enum=list(FLAG_VALUES), description=description)
