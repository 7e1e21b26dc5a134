"""Retention of the displays' stored events: kept ``DISPLAY_EVENT_RETENTION`` seconds, so a display
that was away for less gets what it missed; one away longer gets a snapshot instead
(:class:`tournaments.console.broadcast.DisplayEventStorage`). At a Tết season's rate an hour of
events is ~13 GB: they are trimmed in bulk, one DELETE by age per batch (no row read into Python),
by a periodic task on the bulk lane (:mod:`tournaments.console.tasks`)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection
from django.utils import timezone

from tournaments.console.models import DisplayEvent

__all__ = ["trim_display_events"]


def trim_display_events(*, now: datetime | None = None, batch: int | None = None) -> int:
    """Delete the display events older than the retention, ``batch`` rows a statement (each its
    own transaction, so a writer never waits behind the whole trim); returns how many."""
    cutoff = (now or timezone.now()) - timedelta(seconds=settings.DISPLAY_EVENT_RETENTION)
    size = batch or settings.DISPLAY_EVENT_TRIM_BATCH
    table = connection.ops.quote_name(DisplayEvent._meta.db_table)
    # The id sub-select takes the batch by the created_at index; PostgreSQL and SQLite alike.
    sql = f"DELETE FROM {table} WHERE id IN (SELECT id FROM {table} WHERE created_at < %s LIMIT %s)"
    cutoff_db = DisplayEvent._meta.get_field("created_at").get_db_prep_value(cutoff, connection)
    total = 0
    while True:
        with connection.cursor() as cursor:
            cursor.execute(sql, [cutoff_db, size])
            deleted = cursor.rowcount
        total += deleted
        if deleted < size:
            return total
