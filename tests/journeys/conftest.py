"""Journeys: what people do, in real Chromium, against the app started as `make run` starts it,
on each configuration (``stack``: ``sqlite``, the embedded default; ``postgres``, PostgreSQL +
Redis). The journeys need no pytest-django database: everything goes through the pages.

To work on a journey against an app you started yourself (`make run`), set JOURNEYS_URL to its
address and pick one configuration (``-k sqlite``): nothing is started or stopped then.

At the end of the run a summary names the configuration each journey ran on and how long it took.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.journeys import stack as stacks
from tests.journeys.browsing import Screens

#: (configuration, what, seconds, outcome) for the summary.
TIMINGS: list[tuple[str, str, float, str]] = []


@pytest.fixture(scope="package", params=list(stacks.CONFIGS))
def stack(request: pytest.FixtureRequest) -> Iterator[stacks.Stack]:
    """The app, started through `make run`'s script on a configuration of its own; stopped (each
    process by its PID) when the journeys of that configuration are done (package scope: at the
    latest when the journeys are, never left running for the rest of the suite)."""
    if os.environ.get(
        "JOURNEYS_URL"
    ):  # working on a journey: an app already running (make run), never stopped here
        yield stacks.Stack(
            request.param, os.environ["JOURNEYS_URL"].rstrip("/"), Path(tempfile.gettempdir()), {}
        )
        return
    running = stacks.start(request.param)
    TIMINGS.append((request.param, "make run: migrate, demo, worker, server up", running.started_in, "ok"))
    try:
        yield running
    finally:
        stacks.stop(running)


@pytest.fixture
def screens(browser: Any, stack: stacks.Stack) -> Iterator[Screens]:
    """The journey's browsers; the journey fails on any console error they logged. What a person
    sees may take a while on a loaded 2-core machine: expectations wait up to 10 s (5 s elsewhere)."""
    people = Screens(browser, stack)
    expect.set_options(timeout=10_000)
    try:
        yield people
        people.check()
    finally:
        expect.set_options(timeout=5_000)
        people.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """A failed journey's report ends with the app's own output (server, worker): a task that
    failed in the worker shows there, not on the page."""
    outcome = yield
    report = outcome.get_result()
    running = getattr(item, "funcargs", {}).get("stack")
    if report.failed and isinstance(running, stacks.Stack) and running.proc is not None:
        report.sections.append(("make run's output (the last 60 lines)", running.log_tail(60)))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when != "call" or "tests/journeys/" not in report.nodeid.replace("\\", "/"):
        return
    name, _, param = report.nodeid.split("::")[-1].partition("[")
    config = param.rstrip("]").split("-")[0] or "?"
    TIMINGS.append((config, name, report.duration, report.outcome))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Which configuration each journey ran on, and how long it took (with or without -s)."""
    if not TIMINGS:
        return
    terminalreporter.section("journeys: configuration and time")
    for config in stacks.CONFIGS:
        rows = [t for t in TIMINGS if t[0] == config]
        if not rows:
            continue
        terminalreporter.write_line(f"{config}: {stacks.CONFIGS[config]}")
        for _config, what, seconds, outcome in rows:
            terminalreporter.write_line(f"  {seconds:7.1f} s  {outcome:<7} {what}")
        terminalreporter.write_line(f"  {sum(t[2] for t in rows):7.1f} s  in all")
