"""The project's Celery app, as the fault tests run it (``celery -A tests.reliability.worker_app``).

Test-only additions, all from the environment the test sets:

* ``RELIABILITY_MARKS``: a file where each pool process appends ``start|write|end <pid> <task id>
  <event id> <time>`` when a leaderboard recompute begins, is about to store its result, and
  finishes, so a test can kill the very process running it and tell where the kill landed;
* ``RELIABILITY_HOLD``: seconds the recompute pauses when it starts and again just before it
  stores its result (a large festival's recompute), widening the windows a kill can land in;
* ``RELIABILITY_VISIBILITY_TIMEOUT``: seconds after which Redis hands an unacknowledged task to
  another worker (the project's default is 30 s; see docs/reliability.md).
"""

from __future__ import annotations

import os
import time
from typing import Any

from celery.signals import task_postrun, task_prerun

from totom_site.celery import app

TASK = "tournaments.recompute_leaderboard"
MARKS = os.environ.get("RELIABILITY_MARKS", "")
HOLD = float(os.environ.get("RELIABILITY_HOLD", "0") or 0)

if os.environ.get("RELIABILITY_VISIBILITY_TIMEOUT"):
    app.conf.broker_transport_options = {
        "visibility_timeout": float(os.environ["RELIABILITY_VISIBILITY_TIMEOUT"]),
        "unacked_restore_interval": 1,
        "unacked_restore_throttle": 1,
    }

_current: dict[str, Any] = {}


def _mark(what: str) -> None:
    if MARKS and _current:
        with open(MARKS, "a", encoding="ascii") as out:
            out.write(f"{what} {os.getpid()} {_current['task']} {_current['event']} {time.time():.6f}\n")


def _install_hold() -> None:
    """Pause just before the recompute stores its result (once per process): the window where it
    has read the ledger and written nothing yet."""
    from tournaments.services import leaderboard

    if getattr(leaderboard, "_reliability_hold", False):
        return
    name = "store" if hasattr(leaderboard, "store") else "compute_standings"
    original = getattr(leaderboard, name)

    def held(*args: Any, **kwargs: Any) -> Any:
        time.sleep(HOLD)
        _mark("write")
        return original(*args, **kwargs)

    setattr(leaderboard, name, held)
    leaderboard._reliability_hold = True  # type: ignore[attr-defined]


@task_prerun.connect
def _started(task_id: str = "", task: Any = None, args: Any = None, **_: Any) -> None:
    if task is not None and task.name == TASK:
        _current.update(task=task_id, event=args[0] if args else 0)
        _install_hold()
        _mark("start")
        time.sleep(HOLD)


@task_postrun.connect
def _ended(task_id: str = "", task: Any = None, **_: Any) -> None:
    if task is not None and task.name == TASK:
        _mark("end")
        _current.clear()


__all__ = ["app"]
