"""The club book's benchmark (``bench/club_book.py``) runs in ``make test``, briefly (``--quick``:
200 members, 5,000 ván), on PostgreSQL and again on SQLite, so that it cannot rot: it must load
its club, time the book against the raw ``GROUP BY`` of the same postings, serve the page and the
API, and find the book's points equal to the raw sums. Its figures are printed with the run's
figures, not asserted (timings on a shared machine); the full run is ``make bench-club-book``.

PostgreSQL: the bench writes into the test database (``--here``), which this test's teardown
empties. SQLite: into a copy of the (empty, migrated) test database made with ``VACUUM INTO``."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from tests.reliability.harness import figure
from tests.subprocesses import shared_database_url

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
RATIO = re.compile(r"book / raw GROUP BY = ([\d.]+)")


def test_the_club_book_benchmark_runs_and_the_book_equals_the_raw_sums(tmp_path: Path) -> None:
    url = shared_database_url("bench/club_book.py --quick")
    if connection.vendor == "sqlite":
        copy = tmp_path / "bench.sqlite3"
        with connection.cursor() as cursor:
            cursor.execute("VACUUM INTO %s", [str(copy)])
        url = f"sqlite:///{copy}"
    env = {**os.environ, "DATABASE_URL": url}
    done = subprocess.run(
        [sys.executable, "bench/club_book.py", "--quick", "--here"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    out = done.stdout
    database = "PostgreSQL" if connection.vendor == "postgresql" else "SQLite"
    assert f"bench/club_book.py on {database}" in out
    assert "built: 200 members, 5,000 ván, 40,000 postings" in out
    assert "(5,000 ván, 50 canh; best of 5" in out
    assert "book == raw GROUP BY: True" in out
    ratio = RATIO.search(out)
    assert ratio is not None and float(ratio.group(1)) > 0, out
    for line in out[out.find("(a)") :].strip().splitlines():
        figure(f"bench/club_book.py --quick on {database}", line.strip())
