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

import re
from pathlib import Path

import pytest

from tests.subprocesses import run_quick_bench

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db(transaction=True)]

RATIO = re.compile(r"full recompute / raw GROUP BY = ([\d.]+)")


def test_the_leaderboard_benchmark_runs_and_its_board_equals_a_full_rebuild(tmp_path: Path) -> None:
    out, database = run_quick_bench("bench/leaderboard.py", tmp_path)
    assert f"bench/leaderboard.py on {database}" in out
    assert "built: 500 players, 20,000 ván, 160,000 postings" in out
    assert "(20,000 ván; best of 3" in out  # the full recompute counted every ván loaded
    assert "stored board == full rebuild: True" in out
    ratio = RATIO.search(out)
    assert ratio is not None and float(ratio.group(1)) > 0, out
