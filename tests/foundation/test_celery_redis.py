"""A real task through the real Redis broker to a real worker process, and back."""

import sys
import uuid
from pathlib import Path

import pytest
from django.conf import settings

from cod_site.tasks import ping
from tests.support.processes import child_environ, running

pytestmark = pytest.mark.services


def test_task_round_trip_through_redis_and_a_worker(tmp_path: Path) -> None:
    if not settings.REDIS_URL:
        pytest.skip("REDIS_URL is not set: tasks run in-process, there is no broker to test")
    assert settings.CELERY_TASK_ALWAYS_EAGER is False
    queue = f"test-{uuid.uuid4().hex[:8]}"
    command = [
        sys.executable, "-m", "celery", "-A", "cod_site", "worker",
        "--pool=solo", "--queues", queue, "--loglevel=INFO", "--without-heartbeat",
        "--without-mingle", "--without-gossip",
    ]  # fmt: skip
    log = tmp_path / "worker.log"
    with running(command, child_environ(), log):
        result = ping.apply_async(args=["hello"], queue=queue)
        try:
            value = result.get(timeout=60)
        except Exception as problem:  # noqa: BLE001 - show the worker's log with any failure
            pytest.fail(f"{problem!r}\n{log.read_text()[-3000:]}")
    assert value["payload"] == "hello"
    assert value["worker"]
    assert result.status == "SUCCESS"
