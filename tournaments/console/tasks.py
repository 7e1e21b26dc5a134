"""Celery tasks of the console: the periodic trim of the displays' stored events (bulk lane)."""

from __future__ import annotations

from celery import shared_task

from tournaments.console.services.retention import trim_display_events

__all__ = ["trim_display_events_task"]


@shared_task(name="bulk.trim_display_events", ignore_result=True)
def trim_display_events_task() -> int:
    """Delete the display events older than ``DISPLAY_EVENT_RETENTION`` (scheduled by beat:
    ``CELERY_BEAT_SCHEDULE``; a missed or repeated run only trims later or finds nothing)."""
    return trim_display_events()
