"""Time bounds of the PostgreSQL statements a process runs: one slow or hostile request must not hold
a database core (a request's query once ran on for minutes after its client had gone). PostgreSQL
enforces them itself, from the connection's startup ``options`` (no extra round trip per request,
and psycopg's pool opens every connection with them):

* ``statement_timeout``: a statement running longer is cancelled (``QueryCanceled``, SQLSTATE
  57014; waiting for a lock counts), whether or not its HTTP client is still there;
* ``idle_in_transaction_session_timeout``: a session left idle inside a transaction (its thread
  died, or hangs, between two statements) is ended, and the row locks it held are released.

The app servers get both (``DATABASE_STATEMENT_TIMEOUT_MS``, ``DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS``:
``totom_site/serve.py`` sets their defaults for the servers it starts); a Celery worker replaces them
with its own (:func:`unbound_worker`, from ``totom_site/celery.py``). 0 sets nothing (the server's own
setting, normally none).
"""

from __future__ import annotations

import re

__all__ = ["bounded", "unbound_worker"]

#: A bound already in the options (from DATABASE_URL's ``?options=``, or set before): replaced.
_BOUND = re.compile(r"(?:-c\s*|--)(?:statement_timeout|idle_in_transaction_session_timeout)=\S+")


def bounded(options: str, *, statement_ms: int, idle_ms: int) -> str:
    """libpq ``options`` with these two bounds (in milliseconds; 0: not set) instead of any given."""
    parts = [_BOUND.sub("", options).strip()]
    if statement_ms > 0:
        parts.append(f"-c statement_timeout={statement_ms}")
    if idle_ms > 0:
        parts.append(f"-c idle_in_transaction_session_timeout={idle_ms}")
    return " ".join(p for p in parts if p)


def unbound_worker() -> None:
    """In a Celery worker, before it runs any task: its PostgreSQL connections get the workers' own
    bound (``DATABASE_WORKER_STATEMENT_TIMEOUT_MS``, none by default) instead of the request's, and
    no idle-in-transaction bound. Why: a worker's statements are as long as the data (a big event's
    leaderboard or a club's ratings recomputed in one read snapshot while Python works between
    statements, a 300+-ván report, an import, a replay); a lane runs one task at a time per worker
    process, so it cannot pile up as requests can; and its result is still wanted (no client went
    away), so a cancelled task would only be run again later on the same core."""
    from django.conf import settings
    from django.db import connections

    for alias in connections:
        conn = connections[alias]
        if conn.vendor != "postgresql":
            continue
        options = conn.settings_dict.setdefault("OPTIONS", {})  # settings.DATABASES' own dict
        given = bounded(
            options.get("options", ""), statement_ms=settings.DATABASE_WORKER_STATEMENT_TIMEOUT_MS, idle_ms=0
        )
        if given:
            options["options"] = given
        else:
            options.pop("options", None)
        conn.close()  # a connection opened before (none is, normally) is not kept with the old bound
        if alias in type(conn)._connection_pools:
            conn.close_pool()
