"""The API's JSON parser: a body it cannot read is a 400 `invalid_json`, never a 500."""

import codecs
from collections.abc import Mapping
from typing import IO, Any, cast

from rest_framework import parsers
from rest_framework.exceptions import ParseError
from rest_framework.utils import json


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
            return json.load(text, parse_constant=parse_constant)
        except ValueError as exc:  # malformed, or not in the declared encoding
            raise _invalid_json(str(exc)) from exc
        except RecursionError as exc:
            # The standard decoder recurses once per nested array or object: a body of a
            # thousand `[` exhausts the stack before any of our code sees it.
            raise _invalid_json("it nests too deeply") from exc


def _invalid_json(reason: str) -> ParseError:
    return ParseError(f"The body is not valid JSON: {reason}.", code="invalid_json")
