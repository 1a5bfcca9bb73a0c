"""The API's JSON parser: a body it cannot read is a 400 `invalid_json`, never a 500.

It also refuses what PostgreSQL would refuse later, deep in a query (a 500 DataError): a NUL
character in any string or key, and an integer past bigint (issue 25, fault 4). One check here
covers every field of every JSON body, looked up (slugs, ids) or stored, instead of each field.
"""

import codecs
from collections.abc import Iterator, Mapping
from typing import IO, Any, cast

from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.utils import json

NUL = "\x00"
# PostgreSQL's bigint; smaller columns (integer) are bounded by their fields' own limits.
BIGINT_MIN, BIGINT_MAX = -(2**63), 2**63 - 1


class JSONParser(parsers.JSONParser):
    def parse(
        self,
        stream: IO[bytes],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        # DRF's own charset check (a 415-free refusal of unknown charsets); its stubs omit it.
        encoding = parsers.get_encoding(parser_context or {})  # type: ignore[attr-defined]
        parse_constant = json.strict_constant if self.strict else None
        try:
            text = cast(IO[str], codecs.getreader(encoding)(stream))  # a StreamReader reads str
            data = json.load(text, parse_constant=parse_constant)
        except ValueError as exc:  # malformed, or not in the declared encoding
            raise _invalid_json(str(exc)) from exc
        except RecursionError as exc:
            # The standard decoder recurses once per nested array or object: a body of a
            # thousand `[` exhausts the stack before any of our code sees it.
            raise _invalid_json("it nests too deeply") from exc
        errors = {field: [message] for field, message in _unstorable(data, "")}
        if errors:
            raise ValidationError(errors)
        return data


def _unstorable(value: Any, path: str) -> Iterator[tuple[str, str]]:
    """(field path, why) of each value PostgreSQL cannot take: `players.1`, `name`, …"""
    if isinstance(value, dict):
        for key, item in value.items():
            name = f"{path}.{key}" if path else str(key)
            if NUL in key:
                yield name.replace(NUL, "\\x00")[:60], _("A NUL character is not allowed.")
            else:
                yield from _unstorable(item, name)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _unstorable(item, f"{path}.{index}" if path else str(index))
    elif isinstance(value, str) and NUL in value:
        yield path or "body", _("A NUL character is not allowed.")
    elif isinstance(value, int) and not BIGINT_MIN <= value <= BIGINT_MAX:
        yield path or "body", _("The number is out of range.")


def _invalid_json(reason: str) -> ParseError:
    return ParseError(f"The body is not valid JSON: {reason}.", code="invalid_json")
