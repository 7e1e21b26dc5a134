"""Celery tasks of the online app. Thin: a delivery id in, one attempt, a retry with backoff."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from tournaments.online.services.delivery import attempt


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
