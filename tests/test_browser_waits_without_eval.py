"""Every page answers with a CSP without 'unsafe-eval'. Playwright's wait_for_function evaluates its
string in the page when it polls, so a browser test that uses it passes while the condition is
already true on the first try and fails under the CSP when the page is slower (as on CI). Tests wait
on locators (wait_for, expect) instead."""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_no_browser_test_waits_through_an_evaluated_string() -> None:
    offenders = [
        f"{path.relative_to(TESTS)}:{n}"
        for path in sorted(TESTS.rglob("*.py"))
        if path.name != Path(__file__).name
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if re.search(r"\.wait_for_function\(", line)
    ]
    assert offenders == [], offenders
