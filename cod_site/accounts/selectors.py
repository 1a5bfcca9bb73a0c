"""Reads of player accounts."""

from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token


def api_token_get(*, user: User) -> Token | None:
    return Token.objects.filter(user=user).first()


def active_user(*, username: str) -> User | None:
    """The active account named `username` exactly (usernames are case-sensitive), or None."""
    return User.objects.filter(username=username, is_active=True).first()
