"""Loaded first (``-p tests.xdist_env``): under pytest-xdist (``make test`` runs three workers) each
worker gets services of its own before Django reads its settings, so no worker sees another's
work. pytest-django already gives each worker its own test database (``test_sotom_gw0``);
this gives each its own Redis server and its own filesystem broker folder, and the servers and
Celery workers a test starts inherit them through the environment. Without xdist (one process)
nothing changes.

A Redis server each, not a Redis database each: the live displays' events travel on Redis pub/sub
(django-eventstream's one ``events_channel``), which is shared by every database of a server, and
the two workers' test databases number their festival tables alike, so one worker's displays
would receive the other's signals. The server is started here, on a free port, with no
persistence, and stopped when the worker ends."""

from __future__ import annotations

import atexit
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

# Boards are not pushed (tournaments/board.py) unless a test asks: pytest-django's live server is a
# WSGI server, which cannot stream, so a board page under it would open a stream that never answers
# and wait a minute for its poll. The tests of the push start an ASGI server that asks for it.
os.environ.setdefault("BOARD_PUSH", "false")

WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
NUMBER = int(WORKER.removeprefix("gw")) if WORKER.startswith("gw") else None


def free_port() -> int:
    """A free TCP port on 127.0.0.1 (also ``tests.subprocesses``'s: this module imports nothing of
    the project, as it runs before Django's settings are read)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start_redis() -> str:
    """A Redis server of this worker's own; its ``host:port``."""
    port = free_port()
    folder = tempfile.mkdtemp(prefix=f"sotom-redis-{WORKER}-")
    server = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def stop() -> None:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(folder, ignore_errors=True)

    atexit.register(stop)
    deadline = time.monotonic() + 10
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    return f"127.0.0.1:{port}"
        except OSError:
            pass
        if server.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"{WORKER}'s own Redis server did not start on port {port}")
        time.sleep(0.05)


def _moved(url: str, netloc: str) -> str:
    """``url`` (``redis://host:port/db``) on the server at ``netloc``, the same database number."""
    return urlunsplit(urlsplit(url)._replace(netloc=netloc))


if NUMBER is not None:
    if os.environ.get("REDIS_URL", "").startswith("redis://"):
        own = _start_redis()
        for name in ("REDIS_URL", "CELERY_BROKER_URL"):
            if os.environ.get(name, "").startswith("redis://"):
                os.environ[name] = _moved(os.environ[name], own)
    if folder := os.environ.get("CELERY_FS_BROKER_DIR"):
        broker = Path(folder) / WORKER
        for part in ("queue", "processed", "control"):
            (broker / part).mkdir(parents=True, exist_ok=True)
        os.environ["CELERY_FS_BROKER_DIR"] = str(broker)


def pytest_xdist_make_scheduler(config: Any, log: Any) -> Any:
    """``--dist loadfile``, except that the probe files of ``tests/reliability`` and the check of
    their table (``test_zz_probes_table.py``, last) are one unit, run by one worker: the table is
    what one process counted over all of them (``tests/reliability/probes.py``), so split between
    workers it could not be checked."""
    if config.getoption("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    from tests.reliability.probes import probe_files

    together = {f"tests/reliability/{name}" for name in [*probe_files(), "test_zz_probes_table.py"]}

    class ProbesTogether(LoadFileScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return "tests/reliability/probes" if path in together else str(super()._split_scope(nodeid))

    return ProbesTogether(config, log)
