"""Retention of the displays' stored events: trimmed by age, in bulk (one DELETE a batch), by a
periodic task on the bulk lane; a display away for longer is sent a snapshot (tests/console/test_api.py)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tournaments.console.models import DisplayEvent

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]


def _events(table: Any, ages: list[int]) -> None:
    now = timezone.now()
    DisplayEvent.objects.bulk_create(
        DisplayEvent(table=table, seq=n, type="signal", data="{}", created_at=now - timedelta(seconds=age))
        for n, age in enumerate(ages, start=1)
    )


def test_events_older_than_the_retention_go_in_one_delete_a_batch(festival: Any, settings: Any) -> None:
    from tournaments.console.services import trim_display_events

    settings.DISPLAY_EVENT_RETENTION = 600
    _events(festival.table, [4000, 3000, 2000, 1000, 700, 500, 10, 0])  # five older than 10 minutes
    with CaptureQueriesContext(connection) as queries:
        trimmed = trim_display_events(batch=2)
    assert trimmed == 5
    assert list(DisplayEvent.objects.order_by("seq").values_list("seq", flat=True)) == [6, 7, 8]
    sql = [q["sql"] for q in queries.captured_queries]
    assert len(sql) == 3 and all(s.startswith("DELETE") for s in sql)  # 2 + 2 + 1: no row read first
    assert trim_display_events(batch=2) == 0


def test_the_retention_is_a_setting(festival: Any, settings: Any) -> None:
    from tournaments.console.services import trim_display_events

    _events(festival.table, [4000, 1000])
    settings.DISPLAY_EVENT_RETENTION = 3600
    assert trim_display_events() == 1
    settings.DISPLAY_EVENT_RETENTION = 60
    assert trim_display_events() == 1
    assert not DisplayEvent.objects.exists()


def test_the_trim_is_scheduled_on_the_bulk_lane(festival: Any, settings: Any) -> None:
    from totom_site.celery import BULK, app, route_by_name

    [entry] = [e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "bulk.trim_display_events"]
    assert entry["schedule"] == settings.DISPLAY_EVENT_TRIM_EVERY
    assert route_by_name(entry["task"]) == {"queue": BULK}
    app.loader.import_default_modules()
    settings.DISPLAY_EVENT_RETENTION = 60
    _events(festival.table, [120, 0])
    app.tasks[entry["task"]].apply()  # what beat's message runs on the bulk worker
    assert list(DisplayEvent.objects.values_list("seq", flat=True)) == [2]
