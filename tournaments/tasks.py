"""Celery tasks of the tournaments app. Thin: an id in, a rebuild from the ledger, idempotent."""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from celery.signals import worker_ready
from django.db import OperationalError

from tournaments.models import Event
from tournaments.services.leaderboard import recompute, sweep_stale_boards
from tournaments.signals import standings_changed

log = logging.getLogger(__name__)


@shared_task(
    name="tournaments.recompute_leaderboard",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    # A database busy for longer than its timeout (SQLite) or a dropped connection: try again a
    # little later (2, 4, 8 s). Every failed try is recorded on the board (recompute()), and the
    # organiser's page shows it until a run succeeds.
    autoretry_for=(OperationalError,),
    retry_backoff=2,
    retry_backoff_max=30,
    retry_jitter=False,
    max_retries=3,
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


@worker_ready.connect
def _catch_up_on_start(**_: Any) -> None:
    """A worker that starts (the one restarted after a crash, say) asks for every board left behind
    its ledger (a whole worker SIGKILLed left its board wrong until the
    broker's visibility timeout ran out)."""
    try:
        stale = sweep_stale_boards()
    except Exception:  # the worker must start even if the database is not there yet
        log.exception("Could not look for leaderboards behind their ledger")
        return
    if stale:
        log.warning("Leaderboards behind their ledger at start, recomputing: %s", stale)
