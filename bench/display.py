"""Benchmark of the live audience display (not a test).

Creates a throwaway database next to the one ``DATABASE_URL`` names (it must be PostgreSQL), opens
a festival table, starts the ASGI server (daphne) on 127.0.0.1, opens ``--displays`` SSE display
connections (default 200), posts ``--signals`` signals (default 500) through the hardware API
(``POST /api/v1/tables/{id}/signals``, token auth, one after another on one keep-alive connection)
and prints the delivery latency from the start of each POST to its arrival at every display
(median, p95, max), with the events missed and duplicated. With ``REDIS_URL`` set, events travel
through Redis (``EVENTSTREAM_REDIS``) as they would with several app servers.

Run from the repository root: ``DATABASE_URL=postgres://… .venv/bin/python bench/display.py
[--displays N] [--signals N] [--keep]``. Targets: p95 under 100 ms, zero missed, zero duplicated.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchdb import bench_database  # noqa: E402 (bench/ is the script's own folder)

HOST = "127.0.0.1"
SIGNALS = ["cac", "tung", "tung-tung", "tung-cac", "cac-cac-cac", "tung-tung-tung"]


def _bench_database(url: str, keep: bool) -> tuple[str, Callable[[], None]]:
    return bench_database(url, "bench_display", keep)


def _prepare() -> tuple[int, str, str]:
    """Migrate, open a table with its Trung Quân; return (table id, token, current stream id)."""
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from tournaments.console import services
    from tournaments.console.views.common import stream_id

    user = get_user_model().objects.create_user("bench-trung-quan")
    table = services.table_open(
        name="Chiếu đo tốc độ", players=["An", "Bình", "Chi", "Dũng", "Em"], trung_quan=user, created_by=user
    )
    return table.pk, Token.objects.create(user=user).key, stream_id(table)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def _start_server(database_url: str) -> tuple[subprocess.Popen[bytes], int, Any]:
    port = _free_port()
    log = tempfile.NamedTemporaryFile(prefix="bench-daphne-", suffix=".log", delete=False)  # noqa: SIM115
    env = {**os.environ, "DATABASE_URL": database_url, "DJANGO_DEBUG": "false"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", HOST, "-p", str(port), "totom_site.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=1)
            conn.request("GET", "/admin/login/")
            conn.getresponse().read()
            return proc, port, log
        except OSError:
            time.sleep(0.2)
    proc.kill()
    sys.exit(f"daphne did not start:\n{Path(log.name).read_text()}")


@dataclass
class Display:
    """One SSE connection: when each signal id arrived."""

    arrived: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))
    opened: asyncio.Event = field(default_factory=asyncio.Event)
    error: str = ""


async def _body(reader: asyncio.StreamReader, chunked: bool) -> Any:
    """Yield the response body's bytes as they come (de-chunked)."""
    while True:
        if not chunked:
            data = await reader.read(65536)
            if not data:
                return
            yield data
            continue
        size = int((await reader.readline()).split(b";")[0].strip() or b"0", 16)
        if size == 0:
            return
        data = await reader.readexactly(size)
        await reader.readline()
        yield data


SIGNAL_ID = re.compile(r'^data: \{"signal":\{"id":(\d+)', re.MULTILINE)


def _event(block: str, display: Display, now: float) -> None:
    """Note when a signal arrived (its id read cheaply: the client shares the server's 2 cores)."""
    if block.startswith("event: signal\n"):
        found = SIGNAL_ID.search(block)
        if found is None:
            display.error = f"unreadable event: {block[:80]!r}"
            return
        display.arrived[int(found.group(1))].append(now)
    elif block.startswith("event: stream-open"):
        display.opened.set()


async def _listen(port: int, path: str, display: Display) -> None:
    try:
        reader, writer = await asyncio.open_connection(HOST, port)
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        await writer.drain()
        status = await reader.readline()
        headers = b""
        while (line := await reader.readline()) not in (b"\r\n", b""):
            headers += line.lower()
        if b" 200 " not in status:
            display.error = status.decode(errors="replace").strip()
            return
        buffer = ""
        async for data in _body(reader, b"transfer-encoding: chunked" in headers):
            now = time.monotonic()
            buffer += data.decode()
            while "\n\n" in buffer:
                block, buffer = buffer.split("\n\n", 1)
                _event(block.lstrip("\n"), display, now)
    except (OSError, asyncio.IncompleteReadError) as exc:
        display.error = repr(exc)


def _post_all(port: int, table: int, token: str, count: int) -> dict[int, float]:
    """POST ``count`` signals one after another; return each signal id's send time."""
    sent: dict[int, float] = {}
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    for i in range(count):
        body = json.dumps({"seat": i % 5 + 1, "signal": SIGNALS[i % len(SIGNALS)]})
        headers = {
            "Content-Type": "application/json",
            "Authorization": f"Token {token}",
            "Idempotency-Key": f"bench-{i}",
        }
        started = time.monotonic()
        conn.request("POST", f"/api/v1/tables/{table}/signals", body=body, headers=headers)
        response = conn.getresponse()
        answer = json.loads(response.read())
        if response.status != 201:
            sys.exit(f"POST {i} answered {response.status}: {answer}")
        sent[answer["id"]] = started
    conn.close()
    return sent


async def _run(port: int, table: int, token: str, since: str, displays: int, signals: int) -> None:
    path = f"/su-kien/ban/{table}/?lastEventId={since}"
    screens = [Display() for _ in range(displays)]
    tasks = [asyncio.create_task(_listen(port, path, d)) for d in screens]
    t0 = time.monotonic()
    await asyncio.wait_for(asyncio.gather(*(d.opened.wait() for d in screens)), timeout=120)
    print(f"{displays} displays connected in {time.monotonic() - t0:.2f} s")
    t0 = time.monotonic()
    sent = await asyncio.get_running_loop().run_in_executor(None, _post_all, port, table, token, signals)
    posting = time.monotonic() - t0
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and any(len(d.arrived) < signals for d in screens):
        await asyncio.sleep(0.1)
    for task in tasks:
        task.cancel()
    _report(screens, sent, signals, posting)


def _report(screens: list[Display], sent: dict[int, float], signals: int, posting: float) -> None:
    latencies = [
        (times[0] - sent[sid]) * 1000 for d in screens for sid, times in d.arrived.items() if sid in sent
    ]
    missed = sum(len(set(sent) - set(d.arrived)) for d in screens)
    duplicated = sum(len(times) - 1 for d in screens for times in d.arrived.values())
    errors = [d.error for d in screens if d.error]
    latencies.sort()
    print(f"{signals} signals posted in {posting:.2f} s ({signals / posting:.0f}/s, one client, sequential)")
    if latencies:
        p95 = latencies[int(0.95 * (len(latencies) - 1))]
        print(f"deliveries: {len(latencies)} (expected {signals * len(screens)})")
        print(
            f"latency POST → display: median {statistics.median(latencies):.1f} ms, p95 {p95:.1f} ms, "
            f"max {latencies[-1]:.1f} ms (target p95 < 100 ms)"
        )
    print(f"missed: {missed}, duplicated: {duplicated} (target 0 and 0)")
    if errors:
        print(f"connection errors: {len(errors)}, first: {errors[0]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--displays", type=int, default=200)
    parser.add_argument("--signals", type=int, default=500)
    parser.add_argument("--keep", action="store_true", help="keep the bench database")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "totom_site.settings")
    url, drop = _bench_database(os.environ.get("DATABASE_URL", ""), args.keep)
    os.environ["DATABASE_URL"] = url
    print(
        f"events via {'Redis ' + os.environ['REDIS_URL'] if os.environ.get('REDIS_URL') else 'this process'}"
    )
    table, token, since = _prepare()
    proc, port, log = _start_server(url)
    try:
        asyncio.run(_run(port, table, token, since, args.displays, args.signals))
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
        os.unlink(log.name)
        drop()


if __name__ == "__main__":
    main()
