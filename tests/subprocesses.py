"""Helpers for tests that start real servers (daphne, Celery workers) as subprocesses.

Such a subprocess must use pytest-django's *test* database, so it is handed a DATABASE_URL built
from the test settings: PostgreSQL, or SQLite when its test database is a file (DATABASE_TEST_NAME).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings

from tests.xdist_env import free_port as free_port  # the port helper, shared (re-exported)
from totom_site.celery import QUEUES

HOST = "127.0.0.1"
ROOT = Path(__file__).resolve().parents[1]

#: Settings every Celery worker a test starts runs with: the suite's webhook receivers listen on
#: 127.0.0.1, and a session's workers all take tasks from one broker, so a webhook delivery may
#: reach any of them (tests/online/test_online_hoi.py failed in the whole suite, where the
#: tournaments tests' worker took its deliveries and refused the loopback address).
WORKER_ENV = {
    "WEBHOOK_ALLOW_PRIVATE_ADDRESSES": "true",
    "WEBHOOK_RETRY_SECONDS": "1",
    "WEBHOOK_TIMEOUT": "5",
}


def shared_database_url(who: str) -> str:
    """A DATABASE_URL for a subprocess that shares the test database; ``who`` names the tests."""
    db = settings.DATABASES["default"]
    if (
        db["ENGINE"] == "totom_site.sqlite"
        and db["NAME"] not in ("", ":memory:")
        and "mode=memory" not in str(db["NAME"])
    ):
        # The SQLite pass of `make test` names its test database as a file (DATABASE_TEST_NAME).
        return f"sqlite:///{db['NAME']}"
    if db["ENGINE"] != "django.db.backends.postgresql":
        pytest.fail(
            f"{who} cần PostgreSQL (DATABASE_URL=postgres://…): the subprocess must share the test "
            "database. Run them through `make test` or .ci/services.sh start_postgres.",
            pytrace=False,
        )
    auth = quote(db["USER"] or "", safe="")
    if db.get("PASSWORD"):
        auth += ":" + quote(db["PASSWORD"], safe="")
    return f"postgres://{auth}@{db['HOST'] or HOST}:{db['PORT'] or 5432}/{db['NAME']}"


def stop_process(proc: subprocess.Popen[bytes] | None) -> None:
    """Stop a subprocess by its own PID: terminate, then kill if it does not go."""
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@contextmanager
def celery_worker(
    name: str, who: str, queues: tuple[str, ...] = QUEUES, env: dict[str, str] | None = None
) -> Iterator[subprocess.Popen[bytes]]:
    """A real Celery worker (``celery -A totom_site worker --pool=solo``) on the suite's broker
    (Redis, or kombu's filesystem transport as ``make run`` uses) and the test database, named
    ``name``; ``who`` names the tests in the database URL. It consumes ``queues`` (every lane by
    default: ``live``, ``webhooks``, ``bulk``); ``env``: more settings for it. Started once a
    session by the fixtures that need it; stopped by its own PID."""
    from totom_site.celery import app

    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not broker.startswith(("redis://", "filesystem://")):
        pytest.fail(
            f"Celery tests need a Redis or filesystem broker, got CELERY_BROKER_URL={broker!r}. "
            "`make test` provides both; by hand: source .ci/services.sh; start_redis.",
            pytrace=False,
        )
    if broker.startswith("filesystem://"):  # the folders of kombu's filesystem transport
        for folder in ("queue", "processed", "control"):
            Path(settings.FS_BROKER_DIR, folder).mkdir(parents=True, exist_ok=True)
    node = f"{name}-{os.getpid()}@localhost"
    env = {
        **os.environ,
        "DATABASE_URL": shared_database_url(who),
        "CELERY_BROKER_URL": broker,
        **WORKER_ENV,
        **(env or {}),
    }
    log = tempfile.NamedTemporaryFile(prefix=f"celery-{name}-", suffix=".log", delete=False)  # noqa: SIM115
    command = [sys.executable, "-m", "celery", "-A", "totom_site", "worker", "--pool=solo", "--concurrency=1"]
    command += ["-Q", ",".join(queues), "-l", "WARNING", "-n", node, "--without-gossip", "--without-mingle"]
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while not app.control.ping(destination=[node], timeout=0.5):
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"Celery worker did not start:\n{Path(log.name).read_text()}", pytrace=False)
        yield proc
    finally:
        stop_process(proc)
        log.close()
        os.unlink(log.name)


def run_quick_bench(script: str, tmp_path: Path) -> tuple[str, str]:
    """Run ``bench/<script> --quick --here`` on the test database (PostgreSQL: in place, emptied by
    the test's teardown; SQLite: a ``VACUUM INTO`` copy), print its figures (from "(a)") with the
    run's, and answer its output and the database's name; the run must exit 0."""
    from django.db import connection

    from tests.reliability.harness import figure

    url = shared_database_url(f"{script} --quick")
    if connection.vendor == "sqlite":
        copy = tmp_path / "bench.sqlite3"
        with connection.cursor() as cursor:
            cursor.execute("VACUUM INTO %s", [str(copy)])
        url = f"sqlite:///{copy}"
    done = subprocess.run(
        [sys.executable, script, "--quick", "--here"],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": url},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    database = "PostgreSQL" if connection.vendor == "postgresql" else "SQLite"
    for line in done.stdout[done.stdout.find("(a)") :].strip().splitlines():
        figure(f"{script} --quick on {database}", line.strip())
    return done.stdout, database
