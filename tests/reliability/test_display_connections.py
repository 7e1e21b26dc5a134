"""An open audience display holds no database connection between events.

Through the app as ``make run`` serves it (``python -m totom_site.serve``: granian, the streams on
Django's ASGI handler, psycopg's pool of ``SOTOM_THREADS`` + 2 = 6 connections on PostgreSQL), twelve
displays of one table stay open: each must open (every one held a pooled connection for as long as
it stayed open, so the seventh waited 10 s for one and got a 500, and so did every page and API
request after it), each must hear the signals posted while they are open, and the Trung Quân's
signal POST and a page must still answer. On the SQLite pass the same, on the SQLite file.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connection

from tests.console.conftest import Festival, festival  # noqa: F401 (the fixture, used below)
from tests.reliability.harness import figure, request
from tests.reliability.served import Screen, post_signal, served_app, until_heard, watch
from tests.subprocesses import HOST

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db(transaction=True)]

DISPLAYS = 12  # twice the pool (SOTOM_THREADS 4 + 2)
NAME = "sotom-display-test"


@pytest.fixture
def served(django_db_setup: Any) -> Iterator[int]:
    """The app served as ``make run`` serves it, on the test database; its port."""
    with served_app(application_name=NAME) as port:
        yield port


async def _scenario(
    port: int, table: int, token: str
) -> tuple[list[Screen], list[tuple[int, Any, float]], int]:
    screens = [Screen() for _ in range(DISPLAYS)]
    tasks = [asyncio.create_task(watch(port, f"/su-kien/ban/{table}/", s)) for s in screens]
    await asyncio.wait_for(asyncio.gather(*(s.opened.wait() for s in screens)), timeout=60)
    posts = []
    for n in range(2):
        posts.append(await asyncio.to_thread(post_signal, port, table, token, f"display-pool-{n}"))
    page = await asyncio.to_thread(request, HOST, port, "GET", f"/man-hinh/{table}/", None, None, 30)
    await until_heard(screens, {p[1]["id"] for p in posts if p[0] == 201})
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return screens, posts, page[0]


def _server_connections() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = %s",
            [NAME],
        )
        return int(cursor.fetchone()[0])


def test_more_displays_than_pooled_connections_all_hear_every_signal_and_posts_still_answer(
    served: int,
    festival: Festival,  # noqa: F811 (the fixture)
) -> None:
    from rest_framework.authtoken.models import Token

    token = Token.objects.create(user=festival.trung_quan).key
    started = time.monotonic()
    # Its own thread: a browser test before it leaves Playwright's event loop running in this one.
    with ThreadPoolExecutor(1) as pool:
        screens, posts, page = pool.submit(asyncio.run, _scenario(served, festival.table.pk, token)).result()
    figure(f"{DISPLAYS} displays open, 2 signals, {connection.vendor}", f"{time.monotonic() - started:.1f} s")
    assert [s.status for s in screens] == ["HTTP/1.1 200 OK"] * DISPLAYS
    assert [p[0] for p in posts] == [201, 201], posts
    assert page == 200
    ids = [p[1]["id"] for p in posts]
    assert [s.signals for s in screens] == [ids] * DISPLAYS  # each signal once, in order, on every display
    figure("signal POST with 12 displays open", ", ".join(f"{p[2] * 1000:.0f} ms" for p in posts))
    if connection.vendor == "postgresql":
        # The server never opened more than its pool, displays included.
        assert _server_connections() <= 6
