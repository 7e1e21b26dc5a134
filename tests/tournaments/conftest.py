"""Fixtures of the tournaments tests: an event with its players, and a real Celery worker.

The worker is a subprocess (``celery -A totom_site worker --pool=solo``) on the suite's broker
(Redis; or, in the SQLite pass of ``make test``, kombu's filesystem broker as ``make run`` uses
it) and pytest-django's *test* database (PostgreSQL, or the SQLite test database kept in a
file), started once per session after the test database exists and stopped by its own PID.
Tests that need it are marked ``celery`` and use ``django_db(transaction=True)`` so the worker
sees their commits.
"""

from __future__ import annotations

import datetime as dt
import subprocess
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.subprocesses import celery_worker

PLAYERS = [
    ("An", "Giáp Đông"),
    ("Bình", "Giáp Đông"),
    ("Chi", "Giáp Đông"),
    ("Dũng", "Giáp Đông"),
    ("Em", "Giáp Đông"),
    ("Giang", "Giáp Đoài"),
    ("Hà", "Giáp Đoài"),
    ("Khánh", "Giáp Đoài"),
    ("Lan", "Giáp Đoài"),
    ("Minh", "Giáp Đoài"),
]


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup: Any, django_db_blocker: Any) -> Iterator[subprocess.Popen[bytes]]:
    with celery_worker("tournaments-tests", "Các bài kiểm tra Celery") as proc:
        yield proc


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """The pages keep rendered boards and event states in the (per-process) cache: start empty."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def _worker_for_celery_tests(request: pytest.FixtureRequest) -> None:
    """Tests marked ``celery`` get the session's real worker (started on first use)."""
    if request.node.get_closest_marker("celery"):
        request.getfixturevalue("celery_worker_process")


def wait_for(check: Callable[[], Any], *, timeout: float = 15.0, every: float = 0.1) -> Any:
    """Poll ``check`` until it returns something truthy; fail with its last value on timeout."""
    deadline = time.monotonic() + timeout
    value = check()
    while not value:
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout} s waiting (last value: {value!r})")
        time.sleep(every)
        value = check()
    return value


@pytest.fixture
def make_event() -> Callable[..., Any]:
    """An event of Tổ Tôm Bí Ngũ (luật 2005, đánh quăng) with the 10 players registered."""
    from tournaments.services.events import check_in, event_create, registration_add

    def make(*, checked_in: int = 10, **options: Any) -> Any:
        fields = {
            "name": "Hội làng Xuân Ất Tỵ",
            "date": dt.date(2025, 2, 3),
            "game": "to-tom-5",
            "rules": "luat-2005",
            "mode": "quang",
            **options,
        }
        event = event_create(**fields)
        for i, (name, team) in enumerate(PLAYERS):
            reg = registration_add(event=event, name=name, team=team)
            if i < checked_in:
                check_in(registration=reg)
        return event

    return make


@pytest.fixture
def organiser(django_user_model: Any) -> Any:
    """A plain account (not staff) who will organise the event of :func:`own`."""
    return django_user_model.objects.create_user("bantochuc", password="mat-khau-dai-123")


@pytest.fixture
def own(seated: tuple[Any, list[Any]], organiser: Any) -> tuple[Any, list[Any]]:
    """The seated event, organised by :func:`organiser`."""
    event, tables = seated
    event.organisers.add(organiser)
    return event, tables


def seat_names(table: Any) -> list[str]:
    return [s.name for s in table.sitting.seats.order_by("position")]


@pytest.fixture
def seated(make_event: Callable[..., Any]) -> tuple[Any, list[Any]]:
    """The event with round 1 seated (random draw, seed 11): two tables of five."""
    from tournaments.models import Table
    from tournaments.services.rounds import round_seat

    event = make_event()
    round_seat(event=event, method="random", seed=11)
    return event, list(Table.objects.filter(event=event).order_by("number").select_related("sitting"))


def record(table: Any, seq: int, winner: str, cuoc: list[str]) -> None:
    """Record a won ván at an event's table through the tournaments service."""
    from tournaments.services.van import event_van_record

    event_van_record(table=table, seq=seq, record={"winner": winner, "cuoc": cuoc}, idempotency_key=None)


def settled_board(event: Any) -> Any:
    """Wait until no recompute is due and the stored board reflects every change; return it."""
    from django.utils import timezone

    from tournaments.models import Event, Leaderboard

    def check() -> Any:
        fresh = Event.objects.get(pk=event.pk)
        board = Leaderboard.objects.get(event=event)
        due = fresh.recompute_due_at
        quiet = due is None or due < timezone.now() - dt.timedelta(milliseconds=300)
        return quiet and board.ledger_seq == fresh.ledger_seq and board

    return wait_for(check)
