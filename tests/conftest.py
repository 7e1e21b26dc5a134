"""Suite-wide fixtures. Engine tests need no Django; web tests use pytest-django; browser tests
drive Debian's headless Chromium through Playwright (never Playwright's own browser download)."""

from __future__ import annotations

import json
import os
import weakref
from collections import Counter
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
    """Run :data:`RUN_FIRST` before everything else, whatever the directories' name order.

    Under xdist (``.ci/test.sh`` passes ``--no-loadscope-reorder``, so files are handed to the
    workers in this order) the other files follow by their number of tests, most first, as
    xdist's own reordering would put them: the long files start early and the run ends on short
    ones. xdist's reordering itself would put :data:`RUN_FIRST` late, after a worker had started
    the session's Celery workers."""
    first = [item for item in items if item.nodeid.startswith(RUN_FIRST)]
    rest = [item for item in items if not item.nodeid.startswith(RUN_FIRST)]
    if os.environ.get("PYTEST_XDIST_WORKER"):
        sizes = Counter(item.nodeid.split("::")[0] for item in rest)
        last = "tests/reliability/test_zz_"  # after every probe (tests/xdist_env.py)
        rest.sort(  # stable: each file's own order kept
            key=lambda item: (item.nodeid.startswith(last), -sizes[item.nodeid.split("::")[0]])
        )
    items[:] = first + rest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """A test's measured figures (``tests.reliability.harness.figure``) travel in its report, so the
    end-of-run summary has them under xdist too, where the test ran in a worker process."""
    from tests.reliability.harness import FIGURES

    outcome = yield
    if FIGURES:
        outcome.get_result().user_properties.extend(("figure", tuple(f)) for f in FIGURES)
        FIGURES.clear()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Where the summary is printed (the only process, or xdist's controller), keep the figures."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    from tests.reliability.harness import FIGURES

    FIGURES.extend(tuple(value) for key, value in report.user_properties if key == "figure")


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


#: Tables whose rows Django's post_migrate signal writes back after every flush: kept instead.
KEPT_BY_FLUSH = frozenset({"django_content_type", "auth_permission"})


def _flush_only_tables_with_rows() -> None:
    """A transactional test's flush (pytest-django: after every ``transaction=True`` or live-server
    test) empties, on PostgreSQL, only the tables that hold rows. Django's flush truncates all 57
    tables, about 1 s a test on the loaded 2-core machine (2 s when other sessions write), most of
    it for tables no test wrote; the rows of a test sit in a few.

    As the suite's superuser (``.ci/services.sh``), those tables are emptied by DELETE with
    triggers off (``session_replication_role = replica``, local to the flush's transaction): like
    TRUNCATE, no row trigger fires (the ledger's append-only triggers refuse a DELETE otherwise)
    and no foreign key is checked; about 0.05 s. Otherwise by TRUNCATE of those tables and every
    table that refers to one of them (TRUNCATE refuses to leave those out, rows or not).

    The content types and permissions are kept (:data:`KEPT_BY_FLUSH`): Django's flush empties
    them and its post_migrate signal writes the same rows again at once (0.3–0.7 s a test here);
    kept, the signal would write nothing, so the flush does not send it (while its only
    receivers are those two). No test writes either table.

    The other tables left out are empty already, so the database ends as Django's flush leaves it.
    Sequences are not reset by this flush (reset_sequences=False); a flush that resets them goes
    through Django's own, every table truncated."""
    from django.core.management.commands import flush

    whole = flush.sql_flush
    superuser: dict[str, bool] = {}  # database alias -> may set session_replication_role

    def is_superuser(connection: Any) -> bool:
        if connection.alias not in superuser:
            with connection.cursor() as cursor:
                cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
                row = cursor.fetchone()
            superuser[connection.alias] = bool(row and row[0])
        return superuser[connection.alias]

    def with_rows(
        style: Any, connection: Any, reset_sequences: bool = True, allow_cascade: bool = False
    ) -> Any:
        if connection.vendor != "postgresql" or reset_sequences:
            return whole(style, connection, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
        if not tables:
            return []
        quote = connection.ops.quote_name
        with connection.cursor() as cursor:
            cursor.execute(
                " UNION ALL ".join(f"SELECT %s WHERE EXISTS (SELECT 1 FROM {quote(t)})" for t in tables),
                tables,
            )
            chosen = {row[0] for row in cursor.fetchall()} - KEPT_BY_FLUSH
        if not chosen:
            return []
        if is_superuser(connection):
            # execute_sql_flush runs these in one transaction: SET LOCAL ends with it.
            return ["SET LOCAL session_replication_role = replica"] + [
                f"DELETE FROM {quote(t)}" for t in tables if t in chosen
            ]
        keep = _with_tables_referring(connection, chosen, tables)
        return connection.ops.sql_flush(style, keep, reset_sequences=False, allow_cascade=allow_cascade)

    flush.sql_flush = with_rows


def _flush_without_post_migrate() -> None:
    """See :func:`_flush_only_tables_with_rows`: the post_migrate signal is not sent by a flush
    that keeps :data:`KEPT_BY_FLUSH` while it would write nothing else."""
    from django.core.management.commands import flush

    handle = flush.Command.handle

    def without_rewriting_kept_rows(self: Any, **options: Any) -> Any:
        from django.db import connections

        connection = connections[options.get("database") or "default"]
        if (
            connection.vendor == "postgresql"
            and not options.get("reset_sequences")
            and _only_kept_by_post_migrate()
        ):
            options["inhibit_post_migrate"] = True  # it would write nothing: its rows are kept
        return handle(self, **options)

    flush.Command.handle = without_rewriting_kept_rows


_flush_without_post_migrate()


def _only_kept_by_post_migrate() -> bool:
    """Whether the post_migrate signal's only receivers are the ones that write the rows of
    :data:`KEPT_BY_FLUSH` (content types, permissions): then a flush that keeps those rows need
    not send it. Any other receiver (an app added later) and the signal is sent as Django does."""
    from django.db.models.signals import post_migrate

    names = set()
    for receiver in post_migrate.receivers:
        target = receiver[1]
        if isinstance(target, weakref.ReferenceType):
            target = target()
        names.add(f"{getattr(target, '__module__', '?')}.{getattr(target, '__qualname__', '?')}")
    return names <= {
        "django.contrib.auth.management.create_permissions",
        "django.contrib.contenttypes.management.create_contenttypes",
    }


#: database alias -> table -> the tables that refer to it by a foreign key
_REFERRERS: dict[str, dict[str, set[str]]] = {}


def _with_tables_referring(connection: Any, chosen: set[str], tables: list[str]) -> list[str]:
    """``chosen`` and every table that refers to one of them, directly or not, in ``tables``' order."""
    if connection.alias not in _REFERRERS:
        found: dict[str, set[str]] = {}
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT DISTINCT target.relname, source.relname FROM pg_constraint c "
                "JOIN pg_class source ON source.oid = c.conrelid "
                "JOIN pg_class target ON target.oid = c.confrelid WHERE c.contype = 'f'"
            )
            for target, source in cursor.fetchall():
                found.setdefault(target, set()).add(source)
        _REFERRERS[connection.alias] = found
    refer, chosen, todo = _REFERRERS[connection.alias], set(chosen), list(chosen)
    while todo:
        for source in refer.get(todo.pop(), ()):
            if source not in chosen:
                chosen.add(source)
                todo.append(source)
    return [t for t in tables if t in chosen]


_flush_only_tables_with_rows()


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
