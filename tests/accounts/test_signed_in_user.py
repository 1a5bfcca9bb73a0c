from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.test import RequestFactory
from rest_framework.request import Request

from cod_site.users import signed_in_user


def test_the_signed_in_user_is_the_request_s_user(owner: Any) -> None:
    request = RequestFactory().get("/")
    request.user = owner
    assert signed_in_user(request) == owner
    api_request = Request(request)
    api_request.user = owner
    assert signed_in_user(api_request) == owner


def test_an_anonymous_request_never_reaches_a_service() -> None:
    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    with pytest.raises(PermissionDenied):
        signed_in_user(request)
