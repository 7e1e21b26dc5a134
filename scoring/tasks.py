"""Celery tasks of the scoring app. Thin: ids in, rebuild from the database, idempotent."""

from __future__ import annotations

from celery import shared_task
from django.db import connection


@shared_task(name="scoring.health_check")
def health_check() -> dict[str, str]:
    """Proves a worker is consuming the broker and can reach the database."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"worker": "ok", "database": connection.vendor}
