"""Writes on player accounts: creating one, and its API token."""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from rest_framework.authtoken.models import Token


def account_create(*, username: str, password: str, email: str = "") -> User:
    """A player account; the sign-up form has already applied the password validators."""
    return get_user_model().objects.create_user(username=username, password=password, email=email)


def api_token_create(*, user: User) -> Token:
    """A new API token for `user`: the one they had, if any, stops working at once."""
    with transaction.atomic():
        # One token per user: two requests at once must not both delete and then both create.
        get_user_model().objects.select_for_update().get(pk=user.pk)
        Token.objects.filter(user=user).delete()
        return Token.objects.create(user=user)


def api_token_revoke(*, user: User) -> bool:
    """Revoke `user`'s API token; False when they had none (a second click, another tab)."""
    deleted, _by_model = Token.objects.filter(user=user).delete()
    return deleted > 0
