"""The backup file's name and version, and the small pieces every app's part of it shares: dates
in ISO form, inserting rows with the file's ids and timestamps, history rows (django-simple-history)
written and read back."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.db import models

from scoring.engine import EngineError
from scoring.text import iso, when

__all__ = ["FORMAT", "VERSION", "BackupError", "history_json", "insert", "iso", "restore_history", "when"]

FORMAT = "so-tom-backup"
VERSION = 1


class BackupError(EngineError):
    """The file is not a backup this version can restore, or the database already holds it."""

    code = "bad_backup"


def insert(obj: models.Model) -> models.Model:
    """INSERT exactly these values (ids and ``auto_now_add`` timestamps of the backup kept)."""
    obj.save_base(raw=True, force_insert=True)
    return obj


def history_json(rows: Iterable[Any], refs: Mapping[str, Callable[[Any], Any]]) -> list[dict[str, Any]]:
    """History rows (django-simple-history) in backup form, in the order given: every plain field
    (dates in ISO form; ``id`` is the object's id in this database, for the restorer to map), and
    the foreign keys named in ``refs`` as ``refs[name](row)`` gives them (a username, a rule set's
    fingerprint, a table's round and number). Other foreign keys (the event itself) and the row's
    own ``history_id`` are the restoring database's to set."""
    out = []
    for row in rows:
        item: dict[str, Any] = {}
        for f in row._meta.concrete_fields:
            if f.name == "history_id":
                continue
            if f.is_relation:
                if f.name in refs:
                    item[f.name] = refs[f.name](row)
                continue
            value = f.value_from_object(row)
            item[f.name] = value.isoformat() if isinstance(value, dt.date) else value
        out.append(item)
    return out


def restore_history(
    model: type[models.Model],
    items: list[Mapping[str, Any]],
    *,
    refs: Mapping[str, Callable[[Any], Any]],
    fixed: Callable[[Mapping[str, Any]], dict[str, Any]],
) -> list[models.Model]:
    """History rows written by :func:`history_json`, in order (so their new ``history_id`` keep it):
    plain fields as written, the foreign keys in ``refs`` resolved from what the file names, and
    ``fixed(item)``'s values (the object's id here, the event) over them."""
    rows = []
    for item in items:
        values: dict[str, Any] = {}
        for f in model._meta.concrete_fields:
            if f.name == "history_id" or f.name not in item:
                continue
            raw = item[f.name]
            values[f.name] = (
                refs[f.name](raw) if f.is_relation else (None if raw is None else f.to_python(raw))
            )
        rows.append(insert(model(**{**values, **fixed(item)})))
    return rows
