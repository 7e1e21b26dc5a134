"""A Celery worker subprocess for the fault tests, killed by its own PID (or its pool processes by
theirs), with the marks its recomputes leave (see :mod:`tests.reliability.worker_app`)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.reliability.harness import ROOT, database_url, stop_process


@dataclass(frozen=True)
class Mark:
    """A recompute began (``start``), was about to store (``write``) or finished (``end``)."""

    what: str
    pid: int
    task: str
    at: float


class Worker:
    """A Celery worker subprocess (``tests.reliability.worker_app``) on the suite's Redis broker and
    the test database. ``marks``: the file where it notes each recompute's start and end."""

    def __init__(self, *, pool: str, hold: float, visibility_timeout: float | None = None) -> None:
        self.pool = pool
        self.hold = hold
        self.visibility_timeout = visibility_timeout
        self.marks = Path(tempfile.mkstemp(prefix="reliability-marks-", suffix=".txt")[1])
        self.log = Path(tempfile.mkstemp(prefix="reliability-worker-", suffix=".log")[1])
        self.proc: subprocess.Popen[bytes] | None = None
        self.name = ""

    def start(self, timeout: float = 60.0) -> None:
        broker = os.environ.get("CELERY_BROKER_URL", "")
        if not broker.startswith("redis://"):
            pytest.fail(f"Celery tests need a Redis broker, got CELERY_BROKER_URL={broker!r}.", pytrace=False)
        from totom_site.celery import app

        self.name = f"reliability-{os.getpid()}-{time.monotonic_ns()}@localhost"
        env = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "RELIABILITY_MARKS": str(self.marks),
            "RELIABILITY_HOLD": str(self.hold),
        }
        if self.visibility_timeout is not None:
            env["RELIABILITY_VISIBILITY_TIMEOUT"] = str(self.visibility_timeout)
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "tests.reliability.worker_app",
                    "worker",
                    "-Q",
                    "live",  # the lane of the leaderboard recomputes these tests kill
                    f"--pool={self.pool}",
                    "--concurrency=1",
                    "-l",
                    "WARNING",
                    "-n",
                    self.name,
                    "--without-gossip",
                    "--without-mingle",
                    "--without-heartbeat",
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + timeout
        while not app.control.ping(destination=[self.name], timeout=0.5):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"Celery worker did not start:\n{self.log.read_text()[-3000:]}", pytrace=False)

    def children(self) -> list[int]:
        """PIDs of the worker's pool processes (their parent is the worker's own PID)."""
        assert self.proc is not None
        return [pid for pid in _pids() if _ppid(pid) == self.proc.pid]

    def kill_child(self, pid: int) -> bool:
        """SIGKILL one pool process, by its PID, after checking it is still this worker's child."""
        if pid not in self.children():
            return False
        os.kill(pid, signal.SIGKILL)
        return True

    def kill(self) -> None:
        """SIGKILL the worker itself (its pool processes die with it or are reaped)."""
        assert self.proc is not None
        children = self.children()
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

    def read_marks(self, event_id: int) -> list[Mark]:
        """Every recompute of the event the worker began or finished, in order."""
        out = []
        for line in self.marks.read_text().splitlines():
            what, pid, task, event, at = line.split()
            if int(event) == event_id:
                out.append(Mark(what, int(pid), task, float(at)))
        return out

    def lost_worker_reports(self) -> int:
        return self.log.read_text(errors="replace").count("Task handler raised error: WorkerLostError")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            children = self.children()
            stop_process(self.proc)
            for pid in children:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        self.marks.unlink(missing_ok=True)
        self.log.unlink(missing_ok=True)


def _pids() -> Iterator[int]:
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            yield int(entry)


def _ppid(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rsplit(")", 1)[1].split()[1])
