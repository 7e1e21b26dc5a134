"""Fixtures of the console tests: a festival table with its Trung Quân, and a daphne server.

The display streams Server-Sent Events, which a WSGI server (pytest-django's ``live_server``)
cannot: browser tests run against a ``daphne`` subprocess on 127.0.0.1 that shares pytest-django's
PostgreSQL *test* database (tests use ``django_db(transaction=True)`` so it sees their commits).
It is started once per session after the test database exists and stopped by its own PID.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Festival:
    table: Any
    trung_quan: Any


@pytest.fixture
def festival(db: Any, django_user_model: Any) -> Festival:
    """A Tổ Tôm Điếm table of An, Bình, Chi, Dũng, Em run by the user "trung-quan"."""
    from tests.factories import FIVE
    from tournaments.console import services

    services.ensure_catalogue()  # a transactional test before this one may have flushed the seed
    user = django_user_model.objects.create_user("trung-quan")
    table = services.table_open(name="Chiếu sân đình", players=list(FIVE), trung_quan=user, created_by=user)
    return Festival(table, user)


def _database_url() -> str:
    db = settings.DATABASES["default"]
    if db["ENGINE"] != "django.db.backends.postgresql":
        pytest.fail(
            "Các bài kiểm tra màn hình trực tiếp cần PostgreSQL (DATABASE_URL=postgres://…): the daphne "
            "server must share the test database. Run them through `make test` or .ci/services.sh.",
            pytrace=False,
        )
    auth = quote(db["USER"] or "", safe="")
    if db.get("PASSWORD"):
        auth += ":" + quote(db["PASSWORD"], safe="")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_until_up(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            break
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    pytest.fail(f"daphne did not start:\n{log.read_text()}", pytrace=False)


@pytest.fixture(scope="session")
def daphne_url(django_db_setup: Any, django_db_blocker: Any) -> Iterator[str]:
    """The base URL of a daphne (ASGI) server on the test database."""
    from django.core.management import call_command

    call_command("collectstatic", interactive=False, verbosity=0)  # whitenoise serves var/staticfiles
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": _database_url(), "DJANGO_DEBUG": "false", "PYTHONUNBUFFERED": "1"}
    log = tempfile.NamedTemporaryFile(prefix="daphne-", suffix=".log", delete=False)  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "totom_site.asgi:application"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(base + "/admin/login/", proc, Path(log.name))
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
        os.unlink(log.name)
