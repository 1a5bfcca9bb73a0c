"""The API's session authentication: a failed CSRF check is `csrf_failed`, as the README says.

DRF's SessionAuthentication raises a plain PermissionDenied ("CSRF Failed: …"), which the API's
error shape turned into `permission_denied`: a client could not tell "not yours" from "send the
token" (issue 25, fault 6). The code and message match cod_site.views.csrf_failure, the answer
CsrfViewMiddleware gives under /api/.
"""

import drf_spectacular.authentication
from rest_framework import authentication, exceptions
from rest_framework.request import Request


class SessionAuthentication(authentication.SessionAuthentication):
    def enforce_csrf(self, request: Request) -> None:
        try:
            super().enforce_csrf(request)
        except exceptions.PermissionDenied as exc:
            reason = str(exc.detail).removeprefix("CSRF Failed: ")
            raise exceptions.PermissionDenied(
                f"CSRF check failed: {reason}", code="csrf_failed"
            ) from exc


class SessionScheme(drf_spectacular.authentication.SessionScheme):
    """The schema's `cookieAuth`, for this class as for DRF's (registered by being defined)."""

    target_class = "cod_site.api.authentication.SessionAuthentication"
