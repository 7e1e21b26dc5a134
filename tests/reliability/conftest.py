"""Fixtures of the fault and security suite, and the end-of-run summary of its figures.

The servers are subprocesses on pytest-django's PostgreSQL *test* database (tests that use them
are ``django_db(transaction=True)`` so the servers see their commits); each is stopped, or killed,
by its own PID. Long variants are marked ``slow`` (``make test-slow``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.reliability import probes
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


# -- probes (tests/reliability/probes.py): every attempt counted for docs/reliability.md -----------


@pytest.fixture
def probe(request: Any) -> Iterator[probes.Probe]:
    """Count this test's attempts in its probe module's tally; the test fails if one got through."""
    counter = probes.Probe(probes.tally_for(request.module))
    yield counter
    counter.done()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: Any, call: Any) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    module = getattr(item, "module", None)
    if not probes.is_probe_module(module):
        return
    if report.skipped:
        probes.tally_for(module).skipped += 1
        return
    if report.when == "call" or (report.when == "setup" and report.failed):
        tally = probes.tally_for(module)
        tally.items.add(item.nodeid)
        counter = item.funcargs.get("probe") if hasattr(item, "funcargs") else None
        if counter is None or not counter.used:  # a test without the fixture is one attempt
            tally.attempts += 1
            tally.failures += int(report.failed)
        elif report.failed and not counter.wrong:  # failed outside its counted attempts
            tally.failures += 1
