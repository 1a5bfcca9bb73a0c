"""Reads of player accounts."""

from django.contrib.auth.base_user import AbstractBaseUser
from rest_framework.authtoken.models import Token


def api_token_get(*, user: AbstractBaseUser) -> Token | None:
    return Token.objects.filter(user=user).first()
