"""Errors raised by services, turned into the API's JSON error shape by the exception handler."""

from typing import Any


class DomainError(Exception):
    """A refusal the user can act on: a stable `code`, a readable message and structured details."""

    status_code = 400

    def __init__(
        self,
        code: str,
        message: str,
        details: dict[str, Any] | None = None,
        *,
        status_code: int | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details or {}
        if status_code is not None:
            self.status_code = status_code
