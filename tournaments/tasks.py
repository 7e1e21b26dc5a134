"""Celery tasks of the tournaments app. Thin: an id in, a rebuild from the ledger, idempotent."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from tournaments.models import Event
from tournaments.services.leaderboard import recompute
from tournaments.signals import standings_changed


@shared_task(
    name="tournaments.recompute_leaderboard", acks_late=True, reject_on_worker_lost=True, ignore_result=True
)
def recompute_leaderboard(event_id: int, force: bool = False) -> dict[str, Any] | None:
    """Bring the event's leaderboard up to the ledger: only the canh changed since the stored
    board (``force``: the full rebuild). Running it twice, late or concurrently stores the same
    table (a stale result is never written over a newer one)."""
    if not Event.objects.filter(pk=event_id).exists():
        return None
    rebuilt = recompute(event_id=event_id, force=force)
    if rebuilt.written:  # a new version of the board: tell who listens (webhooks)
        standings_changed.send(sender=None, event_id=event_id, version=rebuilt.version)
    return rebuilt.to_dict()
