"""The request line and headers have limits, answered in the API's error shape under /api/ (the
production server's own parser lets far larger ones through to the app)."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_a_request_line_past_its_limit_is_a_414_in_the_api_s_shape() -> None:
    answer = Client().get("/api/v1/cards/", {"q": "a" * 8200})
    assert answer.status_code == 414
    assert answer.json() == {
        "code": "request_line_too_long",
        "message": "The request line is longer than 8190 bytes.",
        "details": {"limit": 8190, "size": 8230},
    }
    page = Client().get("/cards/", {"q": "a" * 8200})
    assert page.status_code == 414
    assert "The request could not be understood." in page.content.decode()


def test_too_many_headers_or_one_too_long_is_a_431() -> None:
    many = {f"HTTP_X_H{number}": "a" for number in range(101)}
    answer = Client().get("/api/v1/formats/", **many)
    assert (answer.status_code, answer.json()["code"]) == (431, "too_many_headers")
    assert answer.json()["details"]["limit"] == 100
    answer = Client().get("/api/v1/formats/", HTTP_X_BIG="a" * 8200)
    assert answer.status_code == 431
    assert answer.json() == {
        "code": "header_too_large",
        "message": "A request header is longer than 8190 bytes.",
        "details": {"limit": 8190, "size": 8210},
    }
    assert Client().get("/api/v1/formats/", HTTP_X_BIG="a" * 8000).status_code == 200
