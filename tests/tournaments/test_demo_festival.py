"""The demo festival of `make run` (tournaments/demo.py, loaded by ``load_demo --with-demo-user``):
every part is there once however often it is loaded, and its leaderboard is computed by the
Celery worker from the recompute the demo's ván queued, as a recorded ván queues it."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from scoring.models import Van
from tests.tournaments.conftest import settled_board
from tournaments.console.models import FestivalTable, SignalEvent
from tournaments.models import Event, Registration, RegistrationStatus, ScorekeeperToken, Table

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def test_the_demo_festival_has_every_part_once_and_the_worker_ranks_it(capsys) -> None:
    call_command("load_demo", "--with-demo-user")
    call_command("load_demo", "--with-demo-user")  # again: nothing doubled
    out = capsys.readouterr().out
    event = Event.objects.get(slug="hoi-lang-dong-ngac")
    console = FestivalTable.objects.get(event_table__event=event)
    for path in (
        "/giai/hoi-lang-dong-ngac/",
        "/giai/hoi-lang-dong-ngac/quan-ly/",
        f"/trung-quan/{console.pk}/",
        f"/man-hinh/{console.pk}/",
        "/so-diem/",
    ):
        assert f"  {path} " in out  # the pages to open first
    regs = Registration.objects.filter(event=event)
    assert regs.count() == 10 and not regs.exclude(status=RegistrationStatus.CHECKED_IN).exists()
    assert regs.filter(checked_in_own_link=True).count() == 1
    tables = list(Table.objects.filter(event=event).order_by("number"))
    assert len(tables) == 2 and console.event_table == tables[0]
    assert Van.objects.filter(sitting=tables[0].sitting, is_current=True).count() == 2
    assert Van.objects.filter(sitting=tables[1].sitting, is_current=True).count() == 3
    assert SignalEvent.objects.filter(table=console).count() == 9
    assert console.announcement["van_seq"] == 2 and console.van_seq == 3  # the display shows the last win
    assert ScorekeeperToken.objects.filter(table=tables[1], revoked_at__isnull=True).count() == 1

    board = settled_board(event)  # the worker's, from the recompute the demo queued
    assert len(board.rows) == 10 and board.van_count == 5
    assert sum(r["points"] for r in board.rows) == 0
    assert [r["rank"] for r in board.rows][0] == 1 and board.rows[0]["points"] > 0
