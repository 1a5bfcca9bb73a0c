"""A large sheet set through the real broker: the API queues a print job in Redis, a Celery
worker process started by the test renders it, and the download link serves the PDF."""

import io
import sys
import time
import uuid
from pathlib import Path

import pdfplumber
import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from cards.services import catalogue_load
from champions import services
from cod_site.celery import app
from tests.champions.conftest import design
from tests.support.database import DATA_DIR
from tests.support.processes import child_environ, running

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _database_url() -> str:
    """The test database, as a URL the worker process reads its settings from."""
    conf = connection.settings_dict
    password = f":{conf['PASSWORD']}" if conf["PASSWORD"] else ""
    return (
        f"postgres://{conf['USER']}{password}@{conf['HOST'] or '127.0.0.1'}:"
        f"{conf['PORT'] or 5432}/{conf['NAME']}"
    )


def test_print_job_is_rendered_by_a_worker(
    media_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not settings.REDIS_URL or connection.vendor != "postgresql":
        pytest.skip("needs REDIS_URL and PostgreSQL: a worker process cannot see SQLite's test DB")
    assert settings.CELERY_TASK_ALWAYS_EAGER is False
    catalogue_load(data_dir=DATA_DIR)
    owner = User.objects.create_user("ana", password="pw-123456789")
    champion = services.champion_create(owner=owner, design=design())
    client = Client()
    client.force_login(owner)

    queue = f"test-champions-{uuid.uuid4().hex[:8]}"
    monkeypatch.setitem(app.conf, "task_default_queue", queue)
    env = {**child_environ(), "DATABASE_URL": _database_url(), "DJANGO_MEDIA_ROOT": str(media_root)}
    command = [
        sys.executable, "-m", "celery", "-A", "cod_site", "worker", "--pool=solo",
        "--queues", queue, "--loglevel=INFO", "--without-heartbeat", "--without-mingle",
        "--without-gossip",
    ]  # fmt: skip
    log = tmp_path / "worker.log"
    with running(command, env, log):
        response = client.post(
            "/api/v1/champions/print-jobs/",
            {"items": [{"champion": champion.uid, "copies": 40}], "backs": True},
            content_type="application/json",
        )
        assert response.status_code == 202
        status_url = response.json()["status_url"]
        deadline = time.monotonic() + 90
        status = response.json()
        while status["status"] not in ("done", "failed") and time.monotonic() < deadline:
            time.sleep(0.5)
            status = client.get(status_url).json()
        if status["status"] != "done":
            pytest.fail(f"job {status}\n{log.read_text()[-3000:]}")
    assert (status["card_count"], status["page_count"]) == (40, 10)
    assert "champions.render_print_job" in log.read_text()
    download = client.get(status["download_url"])
    pdf = b"".join(download.streaming_content)
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        assert len(document.pages) == 10
        assert "Åsa the Bold" in document.pages[0].extract_text()
