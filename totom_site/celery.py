"""The Celery app. The broker comes from settings (CELERY_* names); there is no result backend.

Lanes (settings ``CELERY_TASK_ROUTES``, docs/scaling.md): every task goes to the queue
its name says (:func:`route_by_name`), and each queue has its own worker(s), so the bulk lane
(imports, reports) and the webhook lane (receivers outside) never wait in front of the live lane
(leaderboards, board sweeps, club ratings).
"""

import logging
import os
import warnings
from typing import Any

from celery import Celery
from celery.exceptions import SecurityWarning
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "totom_site.settings")

#: The queues, as workers consume them (``-Q live``, ``-Q webhooks,bulk``).
LIVE, WEBHOOKS, BULK = "live", "webhooks", "bulk"
QUEUES = (LIVE, WEBHOOKS, BULK)


def route_by_name(
    name: str, args: Any = None, kwargs: Any = None, options: Any = None, **_: Any
) -> dict[str, str]:
    """The queue of a task, by its name: ``bulk.…`` and a club's rating recompute (a whole club's
    ván when forced; no board waits on it) the bulk lane; ``online.deliver_webhook`` and
    ``webhooks.…`` the webhook lane; everything else the live lane."""
    if name.startswith("bulk.") or name == "scoring.update_club_ratings":
        return {"queue": BULK}
    if name == "online.deliver_webhook" or name.startswith("webhooks."):
        return {"queue": WEBHOOKS}
    return {"queue": LIVE}


class _NoDefaultHostname(logging.Filter):
    """kombu's filesystem transport has no host, and kombu says so at every connection ("No hostname
    was supplied. Reverting to default 'localhost'") — under `make run`'s welcome, about nothing."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("No hostname was supplied.")


logging.getLogger("kombu.connection").addFilter(_NoDefaultHostname())
# Celery warns a worker run as root that pickled messages would run code as root; this app accepts
# JSON only (CELERY_ACCEPT_CONTENT, with pickle Celery refuses to start as root), and `make run`
# runs as whoever types it (a container's root, say): only that one warning is dropped.
warnings.filterwarnings(
    "ignore", message=r"You're running the worker with superuser privileges", category=SecurityWarning
)


@worker_init.connect
def _worker_bounds(**_: Any) -> None:
    """A worker's PostgreSQL statements are not held to the request's time bound (settings
    ``DATABASE_STATEMENT_TIMEOUT_MS``, which a worker sharing the app servers' environment reads
    too): they get ``DATABASE_WORKER_STATEMENT_TIMEOUT_MS`` (none by default), before any task
    runs. Why: :func:`totom_site.dbtime.unbound_worker`."""
    from totom_site.dbtime import unbound_worker

    unbound_worker()


app = Celery("totom_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
