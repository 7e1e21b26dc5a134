"""The app as ``make run`` serves it (``python -m totom_site.serve``) on the test database, and an
audience display's SSE stream read as a projector reads it, for the tests that need several of
either (tests/reliability/test_display_connections.py, test_scale_out.py)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.reliability.harness import request
from tests.subprocesses import HOST, ROOT, free_port, shared_database_url, stop_process

#: Each running app server's output, by port: a test that fails on what a server answered says why.
LOGS: dict[int, Path] = {}


def logs_of(ports: list[int]) -> str:
    """The end of each running server's output (its tracebacks), for a failure's message."""
    return "\n".join(
        f"--- app server on {port} ---\n{LOGS[port].read_text(errors='replace')[-4000:]}"
        for port in ports
        if port in LOGS
    )


@contextmanager
def served_app(*, application_name: str = "", **env_extra: str) -> Iterator[int]:
    """One app server (granian, its pool on PostgreSQL) on the test database; yields its port
    (its output in :data:`LOGS` while it runs)."""
    port = free_port()
    url = shared_database_url("Ứng dụng chạy như make run")
    if url.startswith("postgres") and application_name:
        url += f"?application_name={application_name}"
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_DEBUG": "false", "SOTOM_THREADS": "4", **env_extra}
    for name in ("DATABASE_POOL_SIZE", "DJANGO_ALLOW_ASYNC_UNSAFE", "SOTOM_WORKERS"):
        env.pop(name, None)
    log = Path(tempfile.mkstemp(prefix="served-app-", suffix=".log")[1])
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
        LOGS[port] = log
        yield port
    finally:
        LOGS.pop(port, None)
        stop_process(proc)
        log.unlink(missing_ok=True)


class Screen:
    """One display's stream: its status line and the ids of the signals it heard, in order."""

    def __init__(self) -> None:
        self.status = ""
        self.opened = asyncio.Event()
        self.signals: list[int] = []
        self.boards: list[dict[str, Any]] = []  #: the event boards pushed to it (tournaments/board.py)
        self.last_id = ""  #: the last event id read (what a browser sends back as Last-Event-ID)
        self.refusal = ""  #: an answer other than 200: its headers and the start of its body


async def watch(port: int, path: str, screen: Screen, last_event_id: str = "") -> None:
    """Read the display's stream at ``path`` until cancelled (resuming after ``last_event_id``),
    de-chunked as a browser reads it: a proxy (Pushpin) may cut an event across chunks."""
    reader, writer = await asyncio.open_connection(HOST, port)
    resume = f"Last-Event-ID: {last_event_id}\r\n" if last_event_id else ""
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nAccept: text/event-stream\r\n{resume}\r\n".encode())
    await writer.drain()
    screen.status = (await reader.readline()).decode().strip()
    headers = b""
    while (line := await reader.readline()) not in (b"\r\n", b""):
        headers += line.lower()
    if " 200 " not in screen.status:
        try:  # who answered it (the app or the proxy) and why
            body = await asyncio.wait_for(reader.read(2000), timeout=2)
        except (TimeoutError, OSError):
            body = b""
        screen.refusal = (headers + body).decode(errors="replace")
        screen.opened.set()
        writer.close()
        return
    chunked = b"transfer-encoding: chunked" in headers
    event, buffer = "", b""
    try:
        while True:
            if chunked:
                size = int((await reader.readline()).split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    return
                buffer += await reader.readexactly(size)
                await reader.readline()
            else:
                data = await reader.read(65536)
                if not data:
                    return
                buffer += data
            *lines, rest = buffer.split(b"\n")
            buffer = rest
            for raw in lines:
                line = raw.decode().rstrip("\r")
                if line.startswith("event: "):
                    event = line[7:].strip()
                    if event == "stream-open":
                        screen.opened.set()
                elif line.startswith("id: "):
                    screen.last_id = line[4:].strip()
                elif line.startswith("data: ") and event == "signal":
                    screen.signals.append(json.loads(line[6:])["signal"]["id"])
                elif line.startswith("data: ") and event == "board":
                    screen.boards.append(json.loads(line[6:]))
    finally:
        writer.close()


def post_signal(port: int, table: int, token: str, key: str) -> tuple[int, object, float]:
    """The Trung Quân's hardware posts a signal: (status, answer, seconds)."""
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


async def until_heard(screens: list[Screen], ids: set[int], timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and any(not ids <= set(s.signals) for s in screens):
        await asyncio.sleep(0.05)
