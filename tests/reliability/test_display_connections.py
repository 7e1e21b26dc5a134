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
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from tests.console.conftest import Festival, festival  # noqa: F401 (the fixture, used below)
from tests.reliability.harness import figure, request
from tests.subprocesses import HOST, free_port, shared_database_url, stop_process

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
DISPLAYS = 12  # twice the pool (SOTOM_THREADS 4 + 2)
NAME = "sotom-display-test"


@pytest.fixture
def served(django_db_setup: Any) -> Iterator[int]:
    """The app served as ``make run`` serves it, on the test database; its port."""
    port = free_port()
    url = shared_database_url("Màn hình trực tiếp")
    if url.startswith("postgres"):
        url += f"?application_name={NAME}"
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_DEBUG": "false", "SOTOM_THREADS": "4"}
    for name in ("DATABASE_POOL_SIZE", "DJANGO_ALLOW_ASYNC_UNSAFE", "SOTOM_WORKERS"):
        env.pop(name, None)
    log = Path(tempfile.mkstemp(prefix="served-display-", suffix=".log")[1])
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "totom_site.serve", HOST, str(port)],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if request(HOST, port, "GET", "/api/v1/rule-sets?game=chan", timeout=5)[0] == 200:
                    break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the app server did not start:\n{log.read_text()[-3000:]}", pytrace=False)
            time.sleep(0.2)
        yield port
    finally:
        stop_process(proc)
        log.unlink(missing_ok=True)


class Screen:
    """One display's stream: its status and the ids of the signals it heard."""

    def __init__(self) -> None:
        self.status = ""
        self.opened = asyncio.Event()
        self.signals: list[int] = []


async def _watch(port: int, path: str, screen: Screen) -> None:
    reader, writer = await asyncio.open_connection(HOST, port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nAccept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    screen.status = (await reader.readline()).decode().strip()
    if " 200 " not in screen.status:
        screen.opened.set()
        writer.close()
        return
    event = ""
    try:
        while line := (await reader.readline()).decode():
            if line.startswith("event: "):
                event = line[7:].strip()
                if event == "stream-open":
                    screen.opened.set()
            elif line.startswith("data: ") and event == "signal":
                screen.signals.append(json.loads(line[6:])["signal"]["id"])
    finally:
        writer.close()


def _post_signal(port: int, table: int, token: str, key: str) -> tuple[int, Any, float]:
    started = time.monotonic()
    status, _, data = request(
        HOST,
        port,
        "POST",
        f"/api/v1/tables/{table}/signals",
        {"seat": 1, "signal": "tung"},
        {"Authorization": f"Token {token}", "Idempotency-Key": key},
        timeout=30,
    )
    return status, data, time.monotonic() - started


async def _scenario(
    port: int, table: int, token: str
) -> tuple[list[Screen], list[tuple[int, Any, float]], int]:
    screens = [Screen() for _ in range(DISPLAYS)]
    tasks = [asyncio.create_task(_watch(port, f"/su-kien/ban/{table}/", s)) for s in screens]
    await asyncio.wait_for(asyncio.gather(*(s.opened.wait() for s in screens)), timeout=60)
    posts = []
    for n in range(2):
        posts.append(await asyncio.to_thread(_post_signal, port, table, token, f"display-pool-{n}"))
    page = await asyncio.to_thread(request, HOST, port, "GET", f"/man-hinh/{table}/", None, None, 30)
    ids = {p[1]["id"] for p in posts if p[0] == 201}
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and any(set(s.signals) < ids for s in screens):
        await asyncio.sleep(0.05)
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
    screens, posts, page = asyncio.run(_scenario(served, festival.table.pk, token))
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
