"""Shared helpers of the ledger tests: ledger sums straight from the database, CLI runs."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.db.models import Sum

from scoring.models import Account, LedgerTransaction, Posting, Sitting

ROOT = Path(__file__).resolve().parents[2]

on_postgres = pytest.mark.skipif(connection.vendor != "postgresql", reason="needs real PostgreSQL")


def unbalanced_transactions(sitting: Sitting | None = None) -> list[int]:
    """Ids of transactions whose postings do not sum to zero (or that have none)."""
    txns = LedgerTransaction.objects.all() if sitting is None else sitting.transactions.all()
    return [t.pk for t in txns.annotate(total=Sum("postings__amount")) if t.total != 0]


def ledger_balances(sitting: Sitting, *, play_only: bool = True) -> dict[str, Any]:
    """Balances summed from raw postings (independently of the selectors)."""
    postings = Posting.objects.filter(sitting=sitting)
    if play_only:
        postings = postings.exclude(transaction__kind="thanh_toan")
    players = {seat.name: 0 for seat in sitting.seats.order_by("position")}
    pool = pot = 0
    for p in postings.select_related("seat"):
        if p.account == Account.PLAYER:
            players[p.seat.name] += p.amount
        elif p.account == Account.POOL:
            pool += p.amount
        else:
            pot += p.amount
    return {"balances": players, "pool": pool, "ga_trong": pot}


def database_url() -> str:
    """A DATABASE_URL for a subprocess that points at the test database (PostgreSQL only)."""
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s.get("PASSWORD") else "")
    return f"postgres://{auth}@{s['HOST']}:{s['PORT']}/{s['NAME']}"


def manage(args: list[str], stdin: str = "", env: dict[str, str] | None = None) -> tuple[int, str]:
    proc = subprocess.run(
        [sys.executable, "manage.py", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONIOENCODING": "utf-8", **(env or {})},
        timeout=180,
    )
    return proc.returncode, proc.stdout


_SQLITE_TEMPLATE: list[Path] = []


def cli_env(tmp_path: Path) -> dict[str, str]:
    """Environment for a manage.py subprocess: the test database on PostgreSQL; on SQLite (whose
    test database lives in memory) a copy of a file migrated once per session."""
    if connection.vendor == "postgresql":
        return {"DATABASE_URL": database_url()}
    if not _SQLITE_TEMPLATE:
        template = tmp_path / "template.sqlite3"
        status, _ = manage(["migrate", "--noinput", "-v", "0"], env={"DATABASE_URL": f"sqlite:///{template}"})
        assert status == 0
        _SQLITE_TEMPLATE.append(template)
    target = tmp_path / "cli.sqlite3"
    if not target.exists():
        shutil.copyfile(_SQLITE_TEMPLATE[0], target)
    return {"DATABASE_URL": f"sqlite:///{target}"}


def run_json(args: list[str], payload: Any, env: dict[str, str]) -> tuple[int, Any]:
    status, out = manage(args, payload if isinstance(payload, str) else json.dumps(payload), env)
    return status, json.loads(out)
