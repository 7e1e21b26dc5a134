"""A throwaway database for a benchmark: PostgreSQL next to the one DATABASE_URL names, or a
SQLite file; and the run every database benchmark shares (:func:`bench_main`: its common options,
the database, Django set up, the database dropped afterwards, exit 1 when the check fails)."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit, urlunsplit


def bench_database(url: str, suffix: str, keep: bool) -> tuple[str, Callable[[], None]]:
    """Create ``<name>_<suffix>`` on the same server; return its URL and a dropper."""
    import psycopg

    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql", "pgsql"):
        sys.exit(f"bench ({suffix}) needs DATABASE_URL=postgres://… (PostgreSQL).")
    name = parts.path.lstrip("/") + "_" + suffix
    admin = psycopg.connect(url, autocommit=True)
    admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin.execute(f'CREATE DATABASE "{name}"')

    def drop() -> None:
        if not keep:
            from django.db import connections

            connections.close_all()
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()

    return urlunsplit(parts._replace(path="/" + name)), drop


def sqlite_database(keep: bool) -> tuple[str, Callable[[], None]]:
    """A SQLite file in a temporary folder (removed after the run unless ``keep``)."""
    folder = tempfile.mkdtemp(prefix="bench-")

    def drop() -> None:
        from django.db import connections

        connections.close_all()
        if keep:
            print(f"kept: {folder}/bench.sqlite3")
        else:
            shutil.rmtree(folder, ignore_errors=True)

    return f"sqlite:///{folder}/bench.sqlite3", drop


def bench_parser(doc: str) -> argparse.ArgumentParser:
    """The options every database benchmark takes (``--seed``, ``--keep``, ``--quick``, ``--here``);
    the caller adds its own sizes."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=2025)
    parser.add_argument("--keep", action="store_true", help="keep the benchmark database")
    parser.add_argument("--quick", action="store_true", help="a few seconds: the run make test makes")
    parser.add_argument(
        "--here",
        action="store_true",
        help="use the database DATABASE_URL names as it is (a test database), not a throwaway one",
    )
    return parser


def bench_main(args: argparse.Namespace, suffix: str, run: Callable[[], bool]) -> None:
    """Run ``run`` on the benchmark's database (``--here``: DATABASE_URL's as it is; PostgreSQL: a
    throwaway ``<name>_<suffix>``; otherwise a throwaway SQLite file), Django set up and nothing
    queued to a real worker; drop the database afterwards; exit 1 when ``run`` answers False."""
    url = os.environ.get("DATABASE_URL", "")
    if args.here:
        drop: Callable[[], None] = lambda: None  # noqa: E731
    elif url.startswith(("postgres://", "postgresql://", "pgsql://")):
        url, drop = bench_database(url, suffix, args.keep)
    else:
        url, drop = sqlite_database(args.keep)
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "totom_site.settings")
    os.environ["CELERY_BROKER_URL"] = "memory://"  # nothing is queued to a real worker
    import django

    django.setup()
    try:
        same = run()
    finally:
        drop()
    if not same:
        sys.exit(1)


def best_of(n: int, fn: Callable[[], Any]) -> tuple[float, Any]:
    """The shortest of ``n`` timings of ``fn`` (seconds), and its last result."""
    best, result = float("inf"), None
    for _ in range(n):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def target(ok: bool) -> str:
    return "ok" if ok else "MISSED"
