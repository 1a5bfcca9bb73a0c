"""The signed-in user of a request, as the type the services that act in a user's name take."""

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from rest_framework.request import Request


def signed_in_user(request: HttpRequest | Request) -> User:
    """The user of a request that only signed-in users reach (`login_required`, `IsAuthenticated`,
    or a write under `IsAuthenticatedOrReadOnly`).

    Services take a `User`; refusing an anonymous request here (403) keeps a view that lost its
    guard from handing `AnonymousUser` to a service, which would fail deeper down or, worse, write
    rows owned by nobody.
    """
    user = request.user
    if not isinstance(user, User):
        raise PermissionDenied
    return user
