"""The embedded default (SQLite, what `make run` serves a club on one machine) keeps the ledger
append-only too: no posting or ledger transaction is updated or deleted, through the app or its
database connection, while ``manage.py flush`` still empties a database, as on PostgreSQL.

Run on a SQLite file of its own, in a subprocess (the suite's database is PostgreSQL)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import json
from django.db import DatabaseError, connection, transaction
from scoring.models import Posting
from tests.factories import open_sitting, record_all

sitting = open_sitting()
record_all(sitting, [{"winner": "An", "cuoc": ["tom"]}, {"winner": "Bình", "cuoc": ["leo"]}])
posting = Posting.objects.order_by("id").first()
attempts = {
    "delete a posting": lambda: posting.delete(),
    "delete a sitting's postings": lambda: Posting.objects.filter(sitting=sitting).delete(),
    "delete postings with SQL": lambda: connection.cursor().execute("DELETE FROM scoring_posting"),
    "delete a transaction with SQL": lambda: connection.cursor().execute(
        "DELETE FROM scoring_ledgertransaction WHERE id = (SELECT max(id) FROM scoring_ledgertransaction)"),
    "update with SQL": lambda: connection.cursor().execute("UPDATE scoring_posting SET amount = amount + 1"),
}
refused = {}
for what, attempt in attempts.items():
    try:
        with transaction.atomic():
            attempt()
        refused[what] = None
    except DatabaseError as exc:
        refused[what] = str(exc)
print(json.dumps({"refused": refused, "kept": Posting.objects.count(), "engine": connection.settings_dict["ENGINE"]},
                 ensure_ascii=False))
"""
FLUSH = r"""
from django.core.management import call_command
from scoring.models import LedgerTransaction, Posting
call_command("flush", interactive=False, verbosity=0)
print(Posting.objects.count() + LedgerTransaction.objects.count())
"""


def _manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""


def test_the_embedded_default_refuses_to_delete_or_change_the_ledger_and_still_flushes(
    tmp_path: Path,
) -> None:
    database = tmp_path / "so-tom.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "CELERY_BROKER_URL": "memory://"}
    env.pop("REDIS_URL", None)
    _manage(env, "migrate", "--noinput", "-v", "0")
    found = json.loads(_manage(env, "shell", "-c", SCRIPT))
    assert found["engine"] == "totom_site.sqlite"
    for what, message in found["refused"].items():
        assert message and "chỉ được ghi thêm" in message, f"{what}: not refused ({message})"
    assert found["kept"] > 0

    # A connection without the app (the sqlite3 shell) cannot delete ledger rows either.
    raw = sqlite3.connect(database)
    with pytest.raises(sqlite3.OperationalError, match="sotom_ledger_flushing"):
        raw.execute("DELETE FROM scoring_posting")
    raw.close()

    # Emptying the whole database (``flush``, the test suite's teardown) works, as TRUNCATE does on PostgreSQL.
    assert _manage(env, "shell", "-c", FLUSH) == "0"
