"""The app as people run it, started for the journeys: `make run`'s own script (.ci/run-app.sh)
on a configuration of its own, and stopped by PID.

Two configurations, each a fresh database (never pytest-django's test database):

* ``sqlite``: the embedded default exactly as `make run` starts it: a new SQLite file, Celery on
  kombu's filesystem broker in a new folder, no Redis, the same server command;
* ``postgres``: the scaled deployment: a new database made with ``CREATE DATABASE`` on the cluster
  of the suite's ``DATABASE_URL``, a Redis broker (a Redis database of its own on the suite's
  Redis, so no other test's worker takes its tasks) and ``REDIS_URL`` for the live displays.

The script migrates, collects the static files, loads the demo (the demo account and festival)
and starts the two workers (the live lane; webhooks + bulk) and the server; it writes their PIDs
to ``RUN_APP_PIDFILE``. Stopping sends TERM to the script (which stops each by its PID), then
makes sure of each by its own PID.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.subprocesses import HOST, free_port

ROOT = Path(__file__).resolve().parents[2]
RUN_APP = ROOT / ".ci" / "run-app.sh"

#: The configurations, by test id, with the name the run's summary gives them.
CONFIGS = {
    "sqlite": "embedded default (make run): SQLite file, Celery on the filesystem broker",
    "postgres": "PostgreSQL + Redis (Celery on Redis)",
}
#: The Redis database the postgres configuration's broker uses (the suite's own use 0 and 1).
BROKER_DB = 11  # under xdist on the worker's own Redis server (tests/xdist_env.py)
#: The demo account that `make run` makes (scoring/services/demo.py).
DEMO_USER, DEMO_PASSWORD = "thu-ky", "so-tom-demo"
#: Environment the suite sets for itself that `make run` would not have.
_NOT_INHERITED = (
    "DATABASE_",
    "CELERY_",
    "REDIS_",
    "DJANGO_",
    "EVENTSTREAM_",
    "GRIP_",
    "PUSHPIN",
    "CACHE_URL",
    "PYTEST_",
    "RUN_APP_",
)


@dataclass
class Stack:
    """A running app: its base URL, the folder of its files and log, and its processes."""

    config: str
    url: str
    folder: Path
    env: dict[str, str]
    proc: subprocess.Popen[bytes] | None = None
    started_in: float = 0.0
    dropped: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        return CONFIGS[self.config]

    @property
    def log(self) -> Path:
        return self.folder / "app.log"

    def log_tail(self, lines: int = 60) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def pids(self) -> list[int]:
        try:
            return [int(p) for p in (self.folder / "pids").read_text().split()]
        except (OSError, ValueError):
            return []


def _base_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(_NOT_INHERITED)}
    env["PYTHONUNBUFFERED"] = "1"
    return env


def _sqlite_env(folder: Path) -> dict[str, str]:
    return {
        **_base_env(),
        "DATABASE_URL": f"sqlite:///{folder}/sotom.sqlite3",
        "CELERY_BROKER_URL": "filesystem://",
        "CELERY_FS_BROKER_DIR": str(folder / "broker"),
    }


def _suite_url(name: str, schemes: tuple[str, ...], what: str) -> str:
    url = os.environ.get(name, "")
    if not url.startswith(schemes):
        pytest.fail(
            f"The {what} journeys need the suite's {name} ({'/'.join(schemes)}), got {url!r}: run them "
            "through `make test`, or by hand after `source .ci/services.sh; start_postgres; start_redis`.",
            pytrace=False,
        )
    return url


def _postgres_env(folder: Path, stack: Stack) -> dict[str, str]:
    import psycopg
    import redis

    suite = _suite_url("DATABASE_URL", ("postgres://", "postgresql://"), "PostgreSQL")
    broker = _suite_url("CELERY_BROKER_URL", ("redis://",), "PostgreSQL + Redis")
    name = f"sotom_journeys_{os.getpid()}"
    with psycopg.connect(suite, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    stack.dropped.append(name)
    own_broker = urlunsplit(urlsplit(broker)._replace(path=f"/{BROKER_DB}"))
    redis.Redis.from_url(own_broker).flushdb()  # nothing left from an earlier run
    env = {
        **_base_env(),
        "DATABASE_URL": urlunsplit(urlsplit(suite)._replace(path=f"/{name}")),
        "CELERY_BROKER_URL": own_broker,
    }
    if os.environ.get("REDIS_URL"):
        env["REDIS_URL"] = os.environ["REDIS_URL"]
    return env


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=3) as response:
            return bool(response.status == 200)
    except (OSError, urllib.error.HTTPError):
        return False


def start(
    config: str,
    timeout: float = 300.0,
    *,
    bind: str = HOST,
    name: str = HOST,
    env: dict[str, str] | None = None,
) -> Stack:
    """Start the app on ``config`` through `make run`'s script; back when the server answers.

    ``bind``: the HOST given to the script (``0.0.0.0``: the festival's LAN); ``name``: the host
    name of the stack's URL (a name the test's browser maps to 127.0.0.1); ``env``: more of the
    environment (its own configuration, as a person would set it; a webhook receiver on 127.0.0.1, say)."""
    folder = Path(tempfile.mkdtemp(prefix=f"sotom-journeys-{config}-"))
    port = free_port()
    stack = Stack(config, f"http://{name}:{port}", folder, {})
    began = time.monotonic()
    try:
        stack.env = _sqlite_env(folder) if config == "sqlite" else _postgres_env(folder, stack)
        stack.env["RUN_APP_PIDFILE"] = str(folder / "pids")
        stack.env.update(env or {})
        with stack.log.open("wb") as log:
            stack.proc = subprocess.Popen(
                ["bash", str(RUN_APP), bind, str(port)],
                cwd=ROOT,
                env=stack.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + timeout
        while not (len(stack.pids()) == 3 and _answers(f"http://{HOST}:{port}/")):
            if stack.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"make run ({config}) did not start within {timeout:.0f} s")
            time.sleep(0.5)
    except Exception as exc:
        tail = stack.log_tail()
        stop(stack)
        pytest.fail(f"{exc}\n--- its output:\n{tail}", pytrace=False)
    stack.started_in = time.monotonic() - began
    return stack


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _stop_pid(pid: int, timeout: float = 10.0) -> None:
    """TERM, then KILL, one process by its own PID (a child of the script: not ours to wait for)."""
    if not _alive(pid):
        return
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    if _alive(pid):
        os.kill(pid, signal.SIGKILL)


def stop(stack: Stack) -> None:
    """Stop the script (it stops the worker and the server), then each of those by its PID;
    drop the database made for it and remove its folder."""
    children = stack.pids()
    if stack.proc is not None and stack.proc.poll() is None:
        stack.proc.send_signal(signal.SIGTERM)
        try:
            stack.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            stack.proc.kill()
            stack.proc.wait()
    for pid in children:
        _stop_pid(pid)
    if stack.dropped:
        import psycopg

        with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as conn:
            for name in stack.dropped:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    if os.environ.get("JOURNEYS_KEEP_LOGS"):
        print(f"journeys: the {stack.config} stack's files are kept in {stack.folder}")
        return
    shutil.rmtree(stack.folder, ignore_errors=True)
