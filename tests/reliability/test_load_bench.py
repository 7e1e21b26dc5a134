"""The load benchmark (``bench/load.py``) runs from ``make test-slow``, briefly (20 s on each
endpoint, 50 users, 3 app servers, on its own throwaway PostgreSQL database): its table is printed
with the suite's reliability figures at the end of the run, and every request must be answered
without error. Its speed targets (ratios to the bare endpoint, the scoreboard's p95) are printed,
not asserted: they are timings on a shared machine; ``make bench-load`` runs the full 60 s both
ways and ``docs/reliability.md`` keeps the figures."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from tests.reliability.harness import figure
from tests.subprocesses import shared_database_url

pytestmark = [pytest.mark.slow, pytest.mark.measuring, pytest.mark.postgres]

ROOT = Path(__file__).resolve().parents[2]
ROW = re.compile(
    r"^(bare DRF|ván entry|scoreboard)\s.*?\s+(\d+)\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+(\d+)\s+[\d.]+$"
)


def test_the_load_benchmark_answers_every_request_and_prints_its_figures() -> None:
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        pytest.skip("bench/load.py runs on PostgreSQL")
    env = {**os.environ, "DATABASE_URL": shared_database_url("bench/load.py")}
    done = subprocess.run(
        [sys.executable, "bench/load.py", "--seconds", "20"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    table = done.stdout[done.stdout.find("bench/load.py:") :]
    assert done.returncode == 0, done.stderr[-3000:]
    for line in table.strip().splitlines():  # into the run's "reliability figures" summary
        figure("bench/load.py 20 s", line)
    rows = {
        m.group(1): (int(m.group(2)), int(m.group(3)))
        for line in table.splitlines()
        if (m := ROW.match(line))
    }
    assert set(rows) == {"bare DRF", "ván entry", "scoreboard"}, table
    assert all(served > 0 for served, _errors in rows.values()), table
    assert [errors for _served, errors in rows.values()] == [0, 0, 0], table
    assert "errors 0: ok" in table
