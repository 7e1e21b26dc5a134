"""One consistent picture of the database for a read that rebuilds derived data (a leaderboard,
the club's ratings): :func:`read_snapshot`. Moved here from ``tournaments.services.leaderboard``
(which imports it) so that both apps share one copy."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection, transaction

__all__ = ["read_snapshot"]


@contextmanager
def read_snapshot() -> Iterator[None]:
    """Read one consistent picture of the database inside: every statement sees the same state.

    * PostgreSQL: a ``REPEATABLE READ, READ ONLY`` transaction;
    * SQLite: a *deferred* read transaction (``BEGIN DEFERRED``, not the ``IMMEDIATE`` the
      settings give every other transaction): with the write-ahead log its first read fixes a
      snapshot the later reads share, and it takes no write lock, so writers (the next ván) are
      not held up while the board is computed;
    * inside a caller's transaction: the caller's (its isolation applies).
    """
    if connection.in_atomic_block:
        yield
        return
    if connection.vendor == "postgresql":
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield
        return
    mode = getattr(connection, "transaction_mode", None)
    if connection.vendor != "sqlite" or mode is None:
        with transaction.atomic():
            yield
        return
    connection.ensure_connection()  # connecting sets the mode from the settings: set ours after
    connection.transaction_mode = "DEFERRED"
    try:
        with transaction.atomic():
            connection.transaction_mode = mode  # BEGIN DEFERRED has run: the next ones are the settings'
            yield
    finally:
        connection.transaction_mode = mode
