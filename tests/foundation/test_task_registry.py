"""Services send their Celery tasks by registered name (the tasks import the services): every
process that sets Django up must find them, without anything importing the tasks modules."""

import json
import subprocess
import sys
from pathlib import Path

from tests.support.processes import child_environ

ROOT = Path(__file__).resolve().parents[2]


def test_a_fresh_process_finds_each_task_a_service_sends_by_name() -> None:
    code = (
        "import django, json; django.setup(); from celery import current_app; "
        "from champions import services as champions; from engine import services as engine; "
        "names = [champions.RENDER_PRINT_JOB_TASK, engine.RUN_CHUNK_TASK, "
        "engine.RESEND_LOST_CHUNKS_TASK]; "
        "print(json.dumps([[name, current_app.tasks[name].__module__] for name in names]))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**child_environ(), "DJANGO_SETTINGS_MODULE": "cod_site.settings"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(out.stdout) == [
        ["champions.render_print_job", "champions.tasks"],
        ["engine.run_simulation_chunk", "engine.tasks"],
        ["engine.resend_lost_chunks", "engine.tasks"],
    ]
