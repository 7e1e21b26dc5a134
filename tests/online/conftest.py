"""Fixtures of the online tests: an event with ten checked-in players and its organiser, a club
with its organiser, platform tokens, a webhook receiver on 127.0.0.1, and a real Celery worker
(Redis, or kombu's filesystem broker in the SQLite pass) allowed to deliver to that receiver."""

from __future__ import annotations

import datetime as dt
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest

from tests.online.receiver import Receiver
from tests.subprocesses import WORKER_ENV, celery_worker

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
#: The environment the worker (and a test's own settings) run webhooks with: the receiver is on
#: 127.0.0.1, and retries come after one second, not thirty.
WEBHOOK_ENV = WORKER_ENV


@pytest.fixture(autouse=True)
def _fresh_caches() -> None:
    """Pages and the throttle keep state in caches: start every test with them empty."""
    from django.core.cache import caches

    caches["default"].clear()
    caches["throttle"].clear()


@pytest.fixture
def organiser(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("ban-to-chuc-online", password="mat-khau-dai-123")


@pytest.fixture
def make_event(organiser: Any) -> Any:
    from tournaments.services.events import check_in, event_create, registration_add

    def make(*, players: int = 10, checked_in: int | None = None, **options: Any) -> Any:
        fields = {
            "name": "Hội làng trực tuyến",
            "date": dt.date(2025, 2, 3),
            "game": "to-tom-5",
            "rules": "luat-2005",
            "mode": "quang",
            "created_by": organiser,
            **options,
        }
        event = event_create(**fields)
        for i, (name, team) in enumerate(PLAYERS[:players]):
            reg = registration_add(event=event, name=name, team=team)
            if i < (players if checked_in is None else checked_in):
                check_in(registration=reg)
        return event

    return make


@pytest.fixture
def club(organiser: Any) -> Any:
    from scoring.services.roles import club_open

    return club_open(name="Làng Đông Online", kind="lang", organiser=organiser, idempotency_key=None).obj


def bearer(raw: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {raw}"}


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    found = Receiver()
    yield found
    found.stop()


@pytest.fixture
def webhook_settings(settings: Any) -> Any:
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    settings.WEBHOOK_RETRY_SECONDS = 1.0
    settings.WEBHOOK_TIMEOUT = 5.0
    return settings


@pytest.fixture
def queued(monkeypatch: Any) -> list[int]:
    """Delivery ids queued for the worker (no worker here: the test runs each attempt itself)."""
    from tournaments.online import tasks

    ids: list[int] = []
    monkeypatch.setattr(tasks.deliver_webhook, "delay", lambda pk: ids.append(pk))
    return ids


@pytest.fixture(scope="session")
def online_worker(django_db_setup: Any, django_db_blocker: Any) -> Iterator[subprocess.Popen[bytes]]:
    """A real Celery worker (``--pool=solo``) on the suite's broker and the test database."""
    with celery_worker("online-tests", "Các bài kiểm tra trực tuyến") as proc:
        yield proc
