"""``DATABASE_POOL_SIZE``: an app server keeps its PostgreSQL connections (psycopg's pool) instead
of opening one per request, and a burst of ván through it is recorded exactly as without."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection

from tests.reliability.checks import ledger_problems, open_for
from tests.reliability.harness import AppServer, Tally, database_url, phone_account, submit_sittings
from tests.reliability.vanmix import scripts

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

POOL = 2


#: The app server's connections carry this name (other processes of the suite, such as its Celery
#: worker, may hold connections to the test database too).
NAME = "sotom-pool-test"


def _server(pool: int) -> AppServer:
    env = {"DATABASE_URL": f"{database_url()}?application_name={NAME}"}
    if pool:
        env["DATABASE_POOL_SIZE"] = str(pool)
    return AppServer(env=env)


@pytest.fixture
def pooled_server(django_db_setup: Any) -> Iterator[AppServer]:
    server = _server(POOL)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def plain_server(django_db_setup: Any) -> Iterator[AppServer]:
    server = _server(0)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _server_connections() -> list[tuple[int, Any]]:
    """(backend pid, backend start) of every connection the app server holds."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid, backend_start FROM pg_stat_activity WHERE datname = current_database() "
            "AND application_name = %s",
            [NAME],
        )
        return list(cursor.fetchall())


def test_a_pooled_app_server_reuses_its_connections_and_loses_nothing(pooled_server: AppServer) -> None:
    plan = scripts(random.Random(41), 4, 15)
    keeper, token = phone_account()
    opened = [open_for(script, keeper=keeper) for script in plan]
    # The server answered its start-up check: its pool holds that connection, open and idle (the
    # same check through a server without a pool leaves nothing: the test below).
    before = _server_connections()
    assert 1 <= len(before) <= POOL
    tally, keys = Tally(), {}
    submit_sittings(
        pooled_server.port,
        [(s.pk, script.van) for s, script in zip(opened, plan, strict=True)],
        threads=4,
        tally=tally,
        keys=keys,
        headers=token,
    )
    assert tally.failures == [] and tally.posted == 60
    assert [
        p for s, script in zip(opened, plan, strict=True) for p in ledger_problems(s, script, keys[s.pk])
    ] == []
    # 60 ván from 4 phones at once, yet the server still holds at most POOL connections, and the
    # one opened before the burst is among them: the same connections served every request.
    after = _server_connections()
    assert len(after) <= POOL
    assert set(before) & set(after)


def test_without_a_pool_no_connection_outlives_its_request(plain_server: AppServer) -> None:
    """The default (``DATABASE_POOL_SIZE`` unset): a connection per request, closed at its end."""
    assert _server_connections() == []
