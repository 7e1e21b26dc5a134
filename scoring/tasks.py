"""Celery tasks of the scoring app. Thin: ids in, rebuild from the database, idempotent."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import OperationalError


@shared_task(
    name="scoring.update_club_ratings",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    # A database busy for longer than its timeout (SQLite) or a dropped connection: try again a
    # little later (2, 4, 8 s); every failed try is recorded on the club's rating board.
    autoretry_for=(OperationalError,),
    retry_backoff=2,
    retry_backoff_max=30,
    retry_jitter=False,
    max_retries=3,
)
def update_club_ratings(club_id: int, force: bool = False) -> dict[str, Any] | None:
    """Bring the club's ratings up to its ván (``force``: the full rebuild). Running it twice, late or
    concurrently stores the same ratings (a result from an older snapshot is never stored)."""
    from scoring.models import Club
    from scoring.services.ratings import recompute

    if not Club.objects.filter(pk=club_id).exists():
        return None
    return recompute(club_id=club_id, force=force).to_dict()
