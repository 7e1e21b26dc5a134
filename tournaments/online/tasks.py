"""Celery tasks of the online app. Thin: a delivery id in, one attempt, a retry with backoff."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import OperationalError

from tournaments.online.services.webhooks import attempt


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
    wait = attempt(delivery_id)
    if wait is not None:
        raise self.retry(countdown=wait)


@shared_task(
    name="bulk.import_sitting",  # the bulk lane (totom_site.celery.route_by_name)
    acks_late=True,
    reject_on_worker_lost=True,  # a worker that dies midway: the job runs again from where it stopped
    ignore_result=True,
    # The database busy past its timeout (SQLite) or a dropped connection: the job keeps what its
    # committed chunks wrote and continues from there a little later.
    autoretry_for=(OperationalError,),
    retry_backoff=2,
    retry_backoff_max=30,
    max_retries=5,
)
def import_sitting(job_id: int) -> str:
    """Run one import job (``POST /api/v1/sittings/import`` above the threshold)."""
    from tournaments.online.services.import_jobs import run_import_job

    return run_import_job(job_id)
