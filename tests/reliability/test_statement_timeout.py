"""Time bounds of PostgreSQL statements (``totom_site/dbtime.py``): an app server's statement that runs
longer than ``DATABASE_STATEMENT_TIMEOUT_MS`` is cancelled, and its request answers 503 with a
message in the page's language (JSON on the API) instead of running on after its client has gone;
a Celery worker started with the same environment does not get that bound (its bulk work runs as
long as it needs), unless ``DATABASE_WORKER_STATEMENT_TIMEOUT_MS`` gives it one.

A statement is made slow as one is in real life, by waiting: the test holds a lock on the table the
statement reads (waiting for a lock counts in PostgreSQL's ``statement_timeout``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.utils import timezone

from tests.reliability.harness import request
from tests.reliability.served import logs_of, served_app
from tests.subprocesses import HOST, ROOT, celery_worker, shared_database_url, stop_process

#: The request bound the served app and the workers are started with (milliseconds).
BOUND_MS = 1000


@contextmanager
def locked(table: str) -> Iterator[None]:
    """The test holds ``table`` locked (ACCESS EXCLUSIVE: even a read waits) until the block ends."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"LOCK TABLE {connection.ops.quote_name(table)} IN ACCESS EXCLUSIVE MODE")
        yield


def activity(name: str) -> list[tuple[str, str | None, str]]:
    """(state, wait_event_type, query) of the connections named ``name`` that are not idle."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")  # else read once per transaction (the lock's)
        cursor.execute(
            "SELECT state, wait_event_type, query FROM pg_stat_activity "
            "WHERE datname = current_database() AND application_name = %s AND state <> 'idle'",
            [name],
        )
        return list(cursor.fetchall())


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_an_app_servers_statement_out_of_time_is_cancelled_and_answers_503() -> None:
    from scoring.models import VillageRuleSet

    name = f"sotom-bound-{uuid.uuid4().hex[:8]}"
    with served_app(application_name=name, DATABASE_STATEMENT_TIMEOUT_MS=str(BOUND_MS)) as port:
        with locked(VillageRuleSet._meta.db_table):
            answers = {}
            for path in ("/api/v1/rule-sets?game=chan", "/le-lang/", "/en/le-lang/"):
                started = time.monotonic()
                status, headers, body = request(HOST, port, "GET", path, timeout=20)
                answers[path] = (status, headers, body, time.monotonic() - started)
            # Answered, and nothing of theirs is left running or waiting in the database, although
            # the lock they waited for is still held.
            left = activity(name)
        assert left == []
        seconds = {path: round(a[3], 1) for path, a in answers.items()}
        assert all(BOUND_MS / 1000 <= s < 10 for s in seconds.values()), (seconds, logs_of([port]))

        status, _, body, _ = answers["/api/v1/rule-sets?game=chan"]
        assert (status, body) == (
            503,
            {
                "error": "Yêu cầu này chạy quá lâu nên máy chủ đã dừng nó. Hãy thử lại sau ít phút; "
                "nếu vẫn không được, hãy báo người quản trị trang.",
                "code": "statement_timeout",
            },
        ), logs_of([port])
        status, headers, body, _ = answers["/le-lang/"]
        assert status == 503 and headers["content-type"].startswith("text/html"), logs_of([port])
        assert "Máy chủ đang bận" in body and "Yêu cầu này chạy quá lâu nên máy chủ đã dừng nó." in body
        status, _, body, _ = answers["/en/le-lang/"]
        assert status == 503
        assert "The server is busy" in body and "This request ran too long, so the server stopped it." in body
        # Logged, with the request it cancelled.
        assert "statement cancelled (time bound 1000 ms): GET /le-lang/" in logs_of([port])

        # The lock gone, the same server answers again (its pooled connections were not lost).
        assert request(HOST, port, "GET", "/api/v1/rule-sets?game=chan", timeout=20)[0] == 200
        assert request(HOST, port, "GET", "/le-lang/", timeout=20)[0] == 200


def _options(env: dict[str, str]) -> dict[str, Any]:
    """The database OPTIONS the settings give a process started with ``env``."""
    code = "import json, django; django.setup(); from django.conf import settings; print(json.dumps(settings.DATABASES['default'].get('OPTIONS', {})))"
    base = {k: v for k, v in os.environ.items() if not k.startswith("DATABASE_")}
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**base, "DJANGO_SETTINGS_MODULE": "totom_site.settings", **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


@pytest.mark.sqlite
def test_the_bounds_go_in_a_postgresql_connections_options_and_leave_sqlite_alone(tmp_path: Any) -> None:
    bounds = {"DATABASE_STATEMENT_TIMEOUT_MS": "30000", "DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS": "60000"}
    pooled = _options(
        {
            "DATABASE_URL": "postgres://u@127.0.0.1:1/db?options=-c%20search_path%3Dpublic",
            "DATABASE_POOL_SIZE": "4",
            **bounds,
        }
    )
    assert pooled["options"] == (
        "-c search_path=public -c statement_timeout=30000 -c idle_in_transaction_session_timeout=60000"
    )
    assert pooled["pool"]["max_size"] == 4  # the pool opens its connections with these options
    assert "options" not in _options({"DATABASE_URL": "postgres://u@127.0.0.1:1/db"})  # none set: none given
    sqlite = _options({"DATABASE_URL": f"sqlite:///{tmp_path / 'x.sqlite3'}", **bounds})
    assert "options" not in sqlite and sqlite["transaction_mode"] == "IMMEDIATE"


@pytest.mark.sqlite
def test_an_app_server_is_started_with_the_default_bounds() -> None:
    """``python -m totom_site.serve`` gives its app the request bounds when nothing else sets them
    (the settings alone set none: a management command, a migration, stays unbounded)."""
    code = (
        "import os, totom_site.serve as s; s.app_server_bounds(); "
        "print(os.environ['DATABASE_STATEMENT_TIMEOUT_MS'], os.environ['DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS'])"
    )
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_STATEMENT_TIMEOUT_MS", "DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS")
    }
    given = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert given.stdout.split() == ["30000", "60000"]
    kept = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**env, "DATABASE_STATEMENT_TIMEOUT_MS": "5000"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert kept.stdout.split() == ["5000", "60000"]


def _old_display_events(count: int) -> Any:
    """``count`` stored display events of a table, older than the retention (the trim's to delete)."""
    from django.contrib.auth import get_user_model

    from tests.factories import FIVE
    from tournaments.console import services
    from tournaments.console.models import DisplayEvent

    services.ensure_catalogue()
    user = get_user_model().objects.create_user(f"tq-{uuid.uuid4().hex[:6]}")
    table = services.table_open(name="Chiếu sân đình", players=list(FIVE), trung_quan=user, created_by=user)
    old = timezone.now() - timedelta(hours=5)
    DisplayEvent.objects.bulk_create(
        DisplayEvent(table=table, seq=1000 + n, type="signal", data="{}", created_at=old)
        for n in range(count)
    )
    return DisplayEvent.objects.filter(table=table, created_at=old)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.celery
@pytest.mark.parametrize(("worker_bound", "trimmed"), [(None, True), (BOUND_MS // 2, False)])
def test_a_celery_worker_does_not_get_the_request_bound(worker_bound: int | None, trimmed: bool) -> None:
    """A worker started with the app servers' environment (the request bound set) runs the bulk
    lane's trim of the displays' events to the end although its DELETE waits longer than that
    bound; with ``DATABASE_WORKER_STATEMENT_TIMEOUT_MS`` its own bound cancels it (the events stay):
    what the first case sees is the worker's configuration, not a statement too quick to be bounded."""
    from tournaments.console.models import DisplayEvent
    from tournaments.console.tasks import trim_display_events_task

    events = _old_display_events(3)
    assert events.count() == 3
    name = f"sotom-worker-{uuid.uuid4().hex[:8]}"
    queue = f"bound-test-{uuid.uuid4().hex[:8]}"  # no other worker of the session takes its task
    env = {
        "DATABASE_URL": f"{shared_database_url('the statement bound test')}?application_name={name}",
        "DATABASE_STATEMENT_TIMEOUT_MS": str(BOUND_MS // 2),
        "DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS": str(BOUND_MS // 2),
        "DATABASE_POOL_SIZE": "2",
    }
    if worker_bound is not None:
        env["DATABASE_WORKER_STATEMENT_TIMEOUT_MS"] = str(worker_bound)
    with celery_worker("bound", "the statement bound test", queues=(queue,), env=env):
        with locked(DisplayEvent._meta.db_table):
            trim_display_events_task.apply_async(queue=queue)
            deadline = time.monotonic() + 30
            while not any(wait == "Lock" for _, wait, _ in activity(name)):
                assert time.monotonic() < deadline, "the worker's trim never waited for the lock"
                time.sleep(0.05)
            time.sleep(3 * BOUND_MS / 1000)  # three times the request bound, waiting
            waiting = [query for _, wait, query in activity(name) if wait == "Lock"]
        if trimmed:
            assert waiting and waiting[0].startswith("DELETE")  # still waiting, not cancelled
            deadline = time.monotonic() + 30
            while events.exists() and time.monotonic() < deadline:
                time.sleep(0.1)
            assert not events.exists()
        else:
            assert waiting == []  # cancelled by the worker's own bound
            time.sleep(1)
            assert events.count() == 3


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_session_left_idle_in_a_transaction_gives_its_row_locks_back(django_user_model: Any) -> None:
    """A process with the app servers' idle bound locks a row, then stops talking to the database
    mid-transaction (a request's thread hung or died): the database ends its session after the
    bound, and a writer waiting for that row gets it then, not when the process wakes up."""
    user = django_user_model.objects.create_user("khoa-dong")
    code = (
        "import sys, time, django; django.setup()\n"
        "from django.db import connection, transaction\n"
        "with transaction.atomic():\n"
        "    with connection.cursor() as c:\n"
        f"        c.execute('SELECT id FROM auth_user WHERE id = %s FOR UPDATE', [{user.pk}])\n"
        "    print('locked', flush=True)\n"
        "    time.sleep(8)\n"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "totom_site.settings",
        "DATABASE_URL": shared_database_url("the idle-in-transaction test"),
        "DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS": str(BOUND_MS),
    }
    proc = subprocess.Popen(
        [sys.executable, "-c", code], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == b"locked"
        started = time.monotonic()
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET LOCAL lock_timeout = '6s'")  # without the bound: held 8 s, refused at 6
            cursor.execute("SELECT id FROM auth_user WHERE id = %s FOR UPDATE", [user.pk])
            waited = time.monotonic() - started
        assert waited < 4, waited
    finally:
        stop_process(proc)
