"""The club book's benchmark (``bench/club_book.py``) runs in ``make test``, briefly (``--quick``:
200 members, 5,000 ván), on PostgreSQL and again on SQLite, so that it cannot rot: it must load
its club, time the book against the raw ``GROUP BY`` of the same postings, serve the page and the
API, and find the book's points equal to the raw sums. Its figures are printed with the run's
figures, not asserted (timings on a shared machine); the full run is ``make bench-club-book``.

PostgreSQL: the bench writes into the test database (``--here``), which this test's teardown
empties. SQLite: into a copy of the (empty, migrated) test database made with ``VACUUM INTO``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.subprocesses import run_quick_bench

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db(transaction=True)]

RATIO = re.compile(r"book / raw GROUP BY = ([\d.]+)")


def test_the_club_book_benchmark_runs_and_the_book_equals_the_raw_sums(tmp_path: Path) -> None:
    out, database = run_quick_bench("bench/club_book.py", tmp_path)
    assert f"bench/club_book.py on {database}" in out
    assert "built: 200 members, 5,000 ván, 40,000 postings" in out
    assert "(5,000 ván, 50 canh; best of 5" in out
    assert "book == raw GROUP BY: True" in out
    ratio = RATIO.search(out)
    assert ratio is not None and float(ratio.group(1)) > 0, out
