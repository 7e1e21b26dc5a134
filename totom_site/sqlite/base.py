"""SQLite, the embedded default, keeping the ledger append-only as PostgreSQL does.

PostgreSQL refuses UPDATE and DELETE of postings and ledger transactions row by row, while its
TRUNCATE (Django's ``flush``: a whole database emptied at once, as the test suite does) is a
different statement. SQLite has no TRUNCATE: ``flush`` deletes the rows. Its triggers
(``scoring`` migration 0007) refuse a DELETE unless ``sotom_ledger_flushing()`` answers 1, which
only this backend's flush makes it do. A connection without the function (the ``sqlite3`` shell)
cannot delete ledger rows at all.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

from django.db.backends.sqlite3 import base, operations

__all__ = ["DatabaseWrapper"]

_flushing: ContextVar[bool] = ContextVar("sotom_ledger_flushing", default=False)


def _is_flushing() -> int:
    return 1 if _flushing.get() else 0


class DatabaseOperations(operations.DatabaseOperations):
    def execute_sql_flush(self, sql_list: list[str]) -> None:
        token = _flushing.set(True)
        try:
            super().execute_sql_flush(sql_list)
        finally:
            _flushing.reset(token)


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations

    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        conn = super().get_new_connection(conn_params)
        conn.create_function("sotom_ledger_flushing", 0, _is_flushing)
        return conn
