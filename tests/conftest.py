"""Suite-wide fixtures. Engine tests need no Django; web tests use pytest-django; browser tests
drive Debian's headless Chromium through Playwright (never Playwright's own browser download)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

DATA = Path(__file__).parent / "data"
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-dev-shm-usage",
]


#: Test files that must run before any session-wide Celery worker starts (the fixtures of
#: tests/book, tests/online and tests/tournaments keep theirs until the session ends): they kill
#: workers of their own and would see those consume their tasks.
RUN_FIRST = ("tests/reliability/test_worker_kill.py",)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run :data:`RUN_FIRST` before everything else, whatever the directories' name order."""
    first = [item for item in items if item.nodeid.startswith(RUN_FIRST)]
    if first:
        items[:] = first + [item for item in items if not item.nodeid.startswith(RUN_FIRST)]


def load_cases(name: str) -> list[dict[str, Any]]:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


@pytest.fixture(autouse=True)
def _site_language() -> Iterator[None]:
    """Each test starts in the site's language (Vietnamese): a request under /en/ or with
    ``Accept-Language: en`` leaves English active in the thread, and a later test's messages would
    be English (tests/online/test_import.py then tests/book/test_close.py failed that way)."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A Vietnamese phone-sized browser page."""
    context = browser.new_context(locale="vi-VN", viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def wait_for_quiet_database(seconds: float = 15) -> None:
    """Wait until no other connection to the test database is running a statement or holds a
    transaction open (PostgreSQL): a live server may still be answering what a closed browser
    (its service worker) asked for, and the test database's flush would deadlock with it."""
    import time

    from django.db import connection

    if connection.vendor != "postgresql":
        return
    deadline, quiet = time.monotonic() + seconds, 0
    while quiet < 3 and time.monotonic() < deadline:  # quiet three times running, 0.1 s apart
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid() AND state IS NOT NULL AND state <> 'idle'"
            )
            quiet = quiet + 1 if cursor.fetchone()[0] == 0 else 0
        time.sleep(0.1)


def _flush_retrying_deadlocks() -> None:
    """A transactional test's flush (TRUNCATE of every table) that PostgreSQL picks as a deadlock's
    victim, because a server or worker the test started still reads the tables as the test ends,
    is tried again once the database is quiet: the other side has finished by then. Any other
    failure to flush is raised as Django raises it."""
    from django.core.management.base import CommandError
    from django.core.management.commands import flush
    from django.db import OperationalError

    handle = flush.Command.handle

    def retrying(self: Any, **options: Any) -> Any:
        for attempt in range(6):
            try:
                return handle(self, **options)
            except CommandError as exc:
                deadlock = isinstance(exc.__cause__, OperationalError) and "deadlock" in str(exc.__cause__)
                if not deadlock or attempt == 5:
                    raise
                wait_for_quiet_database(5)
        return None

    flush.Command.handle = retrying


_flush_retrying_deadlocks()


# -- accounts (the sổ điểm needs one: scoring/permissions.py) ------------------------------------

#: The password of :func:`keeper` (for tests that sign in through the page).
KEEPER_PASSWORD = "so-tom-thu-ky-2025"


@pytest.fixture
def keeper(django_user_model: Any) -> Any:
    """A scorekeeper's account with no role anywhere: the sittings it opens are its own."""
    return django_user_model.objects.create_user("thu-ky-test", password=KEEPER_PASSWORD)


@pytest.fixture
def signed_in(client: Any, keeper: Any) -> Any:
    """Django's test ``client``, signed in as :func:`keeper` (use with ``usefixtures``)."""
    client.force_login(keeper)
    return keeper


@pytest.fixture
def keeper_api(keeper: Any) -> Any:
    """DRF's test client with :func:`keeper`'s token (``Authorization: Token …``)."""
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=keeper).key}")
    return api


def sign_in(context: Any, base_url: str, user: Any) -> None:
    """Give a Playwright browser context the session of ``user``, as if signed in on the page."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base_url}])
