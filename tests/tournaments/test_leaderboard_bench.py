"""The leaderboard benchmark (``bench/leaderboard.py``) runs in ``make test``, briefly (``--quick``:
500 players, 20,000 ván), on PostgreSQL and again on SQLite, so that it
cannot rot: it must load its festival, time the full recompute against the raw ``GROUP BY``,
store one ván through the incremental path and find the stored board equal to a full rebuild.
Its figures are printed with the run's figures, not asserted: they are timings on a shared
machine at a size where fixed costs weigh; ``make bench-leaderboard`` runs the million ván.

PostgreSQL: the bench writes into the test database (``--here``), which this test's teardown
empties (TRUNCATE). SQLite: into a copy of the (empty, migrated) test database made with
``VACUUM INTO``, removed after: emptying 160,000 postings row by row would cost more than the
bench itself."""

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
RATIO = re.compile(r"full recompute / raw GROUP BY = ([\d.]+)")


def test_the_leaderboard_benchmark_runs_and_its_board_equals_a_full_rebuild(tmp_path: Path) -> None:
    url = shared_database_url("bench/leaderboard.py --quick")
    if connection.vendor == "sqlite":
        copy = tmp_path / "bench.sqlite3"
        with connection.cursor() as cursor:
            cursor.execute("VACUUM INTO %s", [str(copy)])
        url = f"sqlite:///{copy}"
    env = {**os.environ, "DATABASE_URL": url}
    done = subprocess.run(
        [sys.executable, "bench/leaderboard.py", "--quick", "--here"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    out = done.stdout
    database = "PostgreSQL" if connection.vendor == "postgresql" else "SQLite"
    assert f"bench/leaderboard.py on {database}" in out
    assert "built: 500 players, 20,000 ván, 160,000 postings" in out
    assert "(20,000 ván; best of 3" in out  # the full recompute counted every ván loaded
    assert "stored board == full rebuild: True" in out
    ratio = RATIO.search(out)
    assert ratio is not None and float(ratio.group(1)) > 0, out
    for line in out[out.find("(a)") :].strip().splitlines():  # into the run's figures
        figure(f"bench/leaderboard.py --quick on {database}", line.strip())
