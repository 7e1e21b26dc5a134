"""Fixtures of the console tests: a festival table with its Trung Quân, and a daphne server.

The display streams Server-Sent Events, which a WSGI server (pytest-django's ``live_server``)
cannot: browser tests run against a ``daphne`` subprocess on 127.0.0.1 that shares pytest-django's
PostgreSQL *test* database (tests use ``django_db(transaction=True)`` so it sees their commits).
It is started once per session after the test database exists and stopped by its own PID.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.subprocesses import free_port, shared_database_url, stop_process

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
    return shared_database_url("Các bài kiểm tra màn hình trực tiếp")


_free_port = free_port


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


@contextmanager
def daphne(**extra_env: str) -> Iterator[str]:
    """A daphne (ASGI) server on the test database, its base URL; ``extra_env`` on top of this
    process's environment (settings read from it)."""
    from django.core.management import call_command

    call_command("collectstatic", interactive=False, verbosity=0)  # whitenoise serves var/staticfiles
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "DJANGO_DEBUG": "false",
        "PYTHONUNBUFFERED": "1",
        **extra_env,
    }
    log = tempfile.NamedTemporaryFile(prefix="daphne-", suffix=".log", delete=False)  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "totom_site.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(base + "/admin/login/", proc, Path(log.name))
        yield base
    finally:
        stop_process(proc)
        log.close()
        os.unlink(log.name)


@pytest.fixture(scope="session")
def daphne_url(django_db_setup: Any, django_db_blocker: Any) -> Iterator[str]:
    """The base URL of a daphne (ASGI) server on the test database."""
    with daphne() as base:
        yield base
