"""Celery tasks of the online app. Thin: a delivery id in, one attempt, a retry with backoff."""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from celery.signals import worker_ready
from django.db import OperationalError

from tournaments.online.services.delivery import attempt

log = logging.getLogger(__name__)


@shared_task(
    name="online.deliver_webhook",
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    max_retries=None,
)
def deliver_webhook(self: Any, delivery_id: int) -> None:
    """Send one webhook delivery; on failure, try again later (the service counts the attempts and
    says how long to wait, or that it has given up). Running it again after it was delivered
    sends nothing."""
    wait = attempt(delivery_id=delivery_id)
    if wait is not None:
        raise self.retry(countdown=wait)


@shared_task(
    name="bulk.import_sitting",  # the bulk lane (totom_site.celery.route_by_name)
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,  # a worker that dies midway: the job runs again from where it stopped
    ignore_result=True,
    max_retries=None,
)
def import_sitting(self: Any, job_id: int) -> str:
    """Run one import job (``POST /api/v1/sittings/import`` above the threshold). The database busy
    past its timeout (SQLite) or a dropped connection: the job keeps what its committed chunks
    wrote and continues a little later; the job held by another run (a task delivered twice):
    later too, once that run has finished it or stopped touching it."""
    from tournaments.online.services.import_jobs import LEASE, Busy, run_import_job

    try:
        return run_import_job(job_id=job_id)
    except Busy as exc:
        raise self.retry(countdown=LEASE.total_seconds()) from exc
    except OperationalError as exc:
        if self.request.retries >= 5:
            raise
        raise self.retry(countdown=2 ** (self.request.retries + 1)) from exc


@worker_ready.connect
def _requeue_stalled_imports(sender: Any = None, **_: Any) -> None:
    """A worker of the bulk lane that starts queues again the import jobs whose run died with a
    worker (the filesystem broker never hands an unacknowledged task out again)."""
    consumer = getattr(sender, "task_consumer", None)
    queues = {q.name for q in getattr(consumer, "queues", [])} if consumer is not None else set()
    if queues and "bulk" not in queues:
        return
    from tournaments.online.services.import_jobs import requeue_stalled_jobs

    try:
        stalled = requeue_stalled_jobs()
    except Exception:  # the worker must start even if the database is not there yet
        log.exception("Could not look for stalled import jobs")
        return
    if stalled:
        log.warning("Import jobs stalled at start, queued again: %s", stalled)
