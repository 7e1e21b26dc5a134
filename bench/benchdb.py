"""A throwaway PostgreSQL database for a benchmark, next to the one DATABASE_URL names."""

from __future__ import annotations

import sys
from collections.abc import Callable
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
