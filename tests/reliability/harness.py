"""The fault harness: a daphne app server as a subprocess on pytest-django's
PostgreSQL *test* database (stopped or killed by its own PID), a lossy TCP proxy, and a
phone-like HTTP client that retries with the same idempotency key.

Every figure a test measures goes through :func:`figure`; the conftest prints them all at the
end of the run (with or without ``-s``).
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.subprocesses import free_port, shared_database_url, stop_process  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"

#: (test, what, value) of every figure measured in this run, printed by the conftest.
FIGURES: list[tuple[str, str, str]] = []


def figure(what: str, value: Any) -> None:
    """Keep a measured figure for the end-of-run summary (and print it for ``-s`` runs)."""
    test = os.environ.get("PYTEST_CURRENT_TEST", "").split(" ")[0].split("::")[-1]
    FIGURES.append((test, what, str(value)))
    print(f"[reliability] {test}: {what}: {value}")


def database_url() -> str:
    """A DATABASE_URL for a subprocess that shares the test database (PostgreSQL only)."""
    return shared_database_url("Các bài kiểm tra độ bền")


def phone_account(username: str = "dien-thoai-ghi-diem") -> tuple[Any, dict[str, str]]:
    """The scorekeeper account the phones post as (it opens their sittings), and its token header
    (``Authorization: Token …``): the sổ điểm API needs an account."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    user, _ = get_user_model().objects.get_or_create(username=username)
    token, _ = Token.objects.get_or_create(user=user)
    keeper_club(user)
    return user, {"Authorization": f"Token {token.key}"}


def keeper_club(user: Any) -> Any:
    """The club the scorekeeper organises, where its phones' sittings are opened: a festival's
    scorekeeper records in its own club, whose organisers the hourly ván quota of a new account
    (``scoring/services/quotas.py``) does not slow; a stranger's clubless sittings it would."""
    from scoring.models import Club, ClubRoleKind
    from scoring.services.roles import club_open

    club = Club.objects.filter(roles__user=user, roles__role=ClubRoleKind.ORGANISER).first()
    if club is None:
        club = club_open(name=f"Làng của {user.username}", organiser=user).obj
    return club


# -- the app server ------------------------------------------------------------------------------


class AppServer:
    """``daphne`` on 127.0.0.1:``port`` over the test database; killed and restarted by its PID."""

    def __init__(self, port: int | None = None, env: dict[str, str] | None = None) -> None:
        self.port = port or free_port()
        self.env = env or {}
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = Path(tempfile.mkstemp(prefix="reliability-daphne-", suffix=".log")[1])
        self.starts = 0

    def start(self, timeout: float = 40.0) -> None:
        env = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "DJANGO_DEBUG": "false",
            "PYTHONUNBUFFERED": "1",
            **self.env,
        }
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "daphne",
                    "-b",
                    HOST,
                    "-p",
                    str(self.port),
                    "totom_site.asgi:application",
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        self.starts += 1
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            try:
                status, _, _ = request(HOST, self.port, "GET", "/api/v1/rule-sets?game=chan", timeout=2)
                if status == 200:
                    return
            except (OSError, http.client.HTTPException):
                time.sleep(0.1)
        pytest.fail(f"daphne did not start:\n{self.log.read_text()[-3000:]}", pytrace=False)

    def kill(self) -> None:
        """SIGKILL, by the server's own PID: no graceful shutdown, in-flight requests are cut."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        stop_process(self.proc)
        self.log.unlink(missing_ok=True)


# -- a lossy proxy -------------------------------------------------------------------------------


@dataclass
class ProxyCounts:
    connections: int = 0
    forwarded: int = 0
    dropped: int = 0


class LossyProxy:
    """A TCP proxy on 127.0.0.1 (asyncio, in a thread) in front of the app server.

    For each connection it forwards the request, reads the server's *whole* response (so the
    server has answered, hence committed), then with probability ``drop`` closes the client's
    connection without sending a byte of it: the phone never learns that its write succeeded.
    Clients must send ``Connection: close`` (the server then ends the response with EOF).
    """

    def __init__(self, upstream_port: int, *, drop: float, seed: int) -> None:
        self.upstream_port = upstream_port
        self.drop = drop
        self.rng = random.Random(seed)
        self.counts = ProxyCounts()
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="lossy-proxy", daemon=True)

    def __enter__(self) -> LossyProxy:
        self._thread.start()
        assert self._ready.wait(10), "the proxy did not start"
        return self

    def __exit__(self, *exc: object) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        server = self._loop.run_until_complete(asyncio.start_server(self._handle, HOST, 0))
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        try:
            self._loop.run_forever()
        finally:
            server.close()
            self._loop.run_until_complete(server.wait_closed())
            self._loop.close()

    async def _handle(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        self.counts.connections += 1
        try:
            up_r, up_w = await asyncio.open_connection(HOST, self.upstream_port)
        except OSError:
            client_w.close()
            return

        async def pump() -> None:
            with contextlib.suppress(OSError):
                while data := await client_r.read(65536):
                    up_w.write(data)
                    await up_w.drain()

        pumping = asyncio.create_task(pump())
        response = bytearray()
        with contextlib.suppress(OSError):
            while chunk := await up_r.read(65536):
                response += chunk
        pumping.cancel()
        up_w.close()
        if response and self.rng.random() < self.drop:
            self.counts.dropped += 1
        elif response:
            self.counts.forwarded += 1
            with contextlib.suppress(OSError):
                client_w.write(bytes(response))
                await client_w.drain()
        client_w.close()


# -- a phone-like client -------------------------------------------------------------------------


def request(
    host: str,
    port: int,
    method: str,
    path: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
    timeout: float = 30.0,
) -> tuple[int, dict[str, str], Any]:
    """One HTTP exchange on a fresh connection (``Connection: close``); JSON in and out."""
    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        payload = None if body is None else json.dumps(body).encode()
        sent = {"Connection": "close", "Accept": "application/json", **(headers or {})}
        if payload is not None:
            sent["Content-Type"] = "application/json"
        conn.request(method, path, body=payload, headers=sent)
        response = conn.getresponse()
        raw = response.read()
        try:
            data = json.loads(raw) if raw else None
        except ValueError:
            data = raw.decode(errors="replace")
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data
    finally:
        conn.close()


@dataclass
class Tally:
    """What the client saw: attempts, lost answers (no response), replays, final statuses."""

    posted: int = 0
    attempts: int = 0
    no_answer: int = 0
    replayed: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def post_until_answered(
    port: int,
    path: str,
    body: dict[str, Any],
    key: str,
    tally: Tally,
    *,
    give_up_after: float = 90.0,
    headers: dict[str, str] | None = None,
) -> tuple[int, Any]:
    """POST like a phone on a bad network: no answer means try again, same key, same body (and the
    same ``headers``: the account's token)."""
    deadline = time.monotonic() + give_up_after
    pause = 0.02
    while True:
        with tally.lock:
            tally.attempts += 1
        try:
            status, answered, data = request(
                HOST, port, "POST", path, body, {**(headers or {}), "Idempotency-Key": key}
            )
        except (OSError, http.client.HTTPException):
            with tally.lock:
                tally.no_answer += 1
            if time.monotonic() > deadline:
                raise AssertionError(f"no answer for {path} (key {key}) in {give_up_after} s") from None
            time.sleep(pause)
            pause = min(pause * 2, 0.5)
            continue
        with tally.lock:
            tally.statuses[status] = tally.statuses.get(status, 0) + 1
            tally.replayed += answered.get("idempotent-replayed") == "true"
        return status, data


def submit_sittings(
    port: int,
    plans: list[tuple[int, list[dict[str, Any]]]],
    *,
    threads: int,
    tally: Tally,
    keys: dict[int, list[str]],
    headers: dict[str, str],
) -> float:
    """Post every ván of every sitting (one thread per sitting at a time, ván in order) with
    ``headers`` (the scorekeeper's token: :func:`phone_account`); returns the seconds it took.
    ``keys`` receives the idempotency key of each ván, by sitting."""
    work = list(plans)
    lock = threading.Lock()

    def run() -> None:
        while True:
            with lock:
                if not work:
                    return
                sitting_id, records = work.pop(0)
            mine = keys.setdefault(sitting_id, [])
            for seq, record in enumerate(records, start=1):
                key = str(uuid.uuid4())
                mine.append(key)
                status, data = post_until_answered(
                    port,
                    f"/api/v1/sittings/{sitting_id}/van",
                    {"seq": seq, **record},
                    key,
                    tally,
                    headers=headers,
                )
                with tally.lock:
                    tally.posted += 1
                if status != 201:
                    with tally.lock:
                        tally.failures.append(f"sitting {sitting_id} ván {seq}: {status} {data}")
                    return

    started = time.monotonic()
    pool = [threading.Thread(target=run, name=f"phone-{i}") for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return time.monotonic() - started


def wait_for(check: Callable[[], Any], *, timeout: float = 30.0, every: float = 0.05, what: str = "") -> Any:
    """Poll ``check`` until it returns something truthy; fail with its last value on timeout."""
    deadline = time.monotonic() + timeout
    value = check()
    while not value:
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout} s waiting for {what or check!r} (last value: {value!r})")
        time.sleep(every)
        value = check()
    return value
