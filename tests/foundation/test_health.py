from unittest import mock

import pytest
from django.test import Client

from engine.rules import native

pytestmark = pytest.mark.django_db


def test_healthz_reports_database_and_redis(client: Client, settings) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    expected_redis = "ok" if settings.REDIS_URL else "not configured"
    assert response.json() == {
        "status": "ok",
        "database": "ok",
        "redis": expected_redis,
        "engine": native.STATUS,
    }


def test_healthz_reports_an_unreachable_redis(client: Client, settings) -> None:
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {
        "status": "unavailable",
        "database": "ok",
        "redis": "error: ConnectionError",
        "engine": native.STATUS,
    }


def test_healthz_reports_a_broken_database(client: Client) -> None:
    with mock.patch("cod_site.health.connection.cursor", side_effect=RuntimeError("down")):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == "error: RuntimeError"
