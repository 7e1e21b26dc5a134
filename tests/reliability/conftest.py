"""Fixtures of the fault and security suite, and the end-of-run summary of its figures.

The servers are subprocesses on pytest-django's PostgreSQL *test* database (tests that use them
are ``django_db(transaction=True)`` so the servers see their commits); each is stopped, or killed,
by its own PID. Long variants are marked ``slow`` (``make test-slow``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.reliability.harness import FIGURES, AppServer


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Print every figure the reliability tests measured, whether or not output was captured."""
    if not FIGURES:
        return
    terminalreporter.section("reliability figures")
    for test, what, value in FIGURES:
        terminalreporter.write_line(f"{test}: {what}: {value}")


@pytest.fixture
def app_server(django_db_setup: Any) -> Iterator[AppServer]:
    """A daphne server on the test database (started; stopped at the end by its PID)."""
    server = AppServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()
