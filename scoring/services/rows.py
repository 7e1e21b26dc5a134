"""Plain SQL for the busiest path (recording a ván): the statements the ORM would send, without
its per-query cost.

On this project's machines a Django ORM query costs 0.5 to 1.5 ms of Python (building and
compiling the query, then the model instances) against about 0.1 ms for the same statement sent
through the connection's cursor; a ván is a dozen statements, so the ORM was most of its time
(``docs/reliability.md``, "Load"). The ván path once ran on the ORM instead; ``make bench-all``
then measured the ván POST on the ORM at less than half the requests a second of this module's
(the ``A/B van`` line of ``docs/performance.md``), past the 15 % that keeps it, so it is back on
the ván path and on that path only. These helpers write the SQL once per shape (cached), send it
through Django's cursor (same connection, transaction, query log and test assertions), convert
values both ways with the fields' own code (``get_db_prep_save``, the backend's and the field's
converters: JSON, dates, booleans on SQLite) and build instances with ``Model.from_db``: the
instances are the ORM's own. What :func:`insert` and :func:`update` skip: ``save()`` overrides and
``pre_save`` / ``post_save`` signals, so they are only for models that have neither (asserted on
first use). A model with a generated column or a database default goes in through ``bulk_create``,
which leaves those columns to the database and reads them back.

Only the ván path imports this module (the ``rows-van-path`` contract in ``pyproject.toml`` names
its importers). Every call has its ORM twin: inside :func:`on_the_orm` the same calls run through
the ORM (a plain SELECT through the query set its caller gives as ``orm=``), and
``tests/ledger/test_van_path_both_ways.py`` plays the whole ván path both ways and compares the rows.

Used for PostgreSQL and SQLite alike (``RETURNING`` needs SQLite 3.35, Django's
``can_return_rows_from_bulk_insert``; without it :func:`insert` falls back to ``bulk_create``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from django.db import connection, models
from django.db.models.signals import post_save, pre_save

__all__ = [
    "AT_ONCE",
    "column",
    "insert",
    "on_the_orm",
    "select_one",
    "select_one_with",
    "update",
    "value",
    "values",
]

#: Inside :func:`on_the_orm`: every call runs through the ORM instead of plain SQL.
_ORM: ContextVar[bool] = ContextVar("rows_on_the_orm", default=False)


@contextmanager
def on_the_orm() -> Iterator[None]:
    """Run this module's reads and writes through the ORM (what the ván path was before it): the
    test that compares both ways, and an A/B measure."""
    token = _ORM.set(True)
    try:
        yield
    finally:
        _ORM.reset(token)


M = TypeVar("M", bound=models.Model)

#: One model of a SELECT: its class, attribute names, column converters, primary key's place.
_Part = tuple[type[models.Model], list[str], list[Any], int]
_SELECTS: dict[tuple[Any, ...], tuple[str, list[_Part]]] = {}
_PLAIN: set[type[models.Model]] = set()


def _plain(model: type[models.Model]) -> None:
    """Refuse a model whose writes need its own ``save()`` or signal receivers."""
    if model in _PLAIN:
        return
    if model.save is not models.Model.save:
        raise TypeError(f"{model.__name__} overrides save(): write it through the ORM")
    if pre_save.has_listeners(model) or post_save.has_listeners(model):
        raise TypeError(f"{model.__name__} has save signal receivers: write it through the ORM")
    _PLAIN.add(model)


def _converters(field: models.Field, alias: str) -> tuple[list[Any], Any]:
    """What the compiler would apply to the column: the backend's converters, then the field's."""
    col = field.get_col(alias)
    return [*connection.ops.get_db_converters(col), *col.get_db_converters(connection)], col


def _select_sql(
    model: type[models.Model], where: Sequence[str], related: Sequence[str], for_update: bool, extra: str = ""
) -> tuple[str, list[_Part]]:
    shape = (connection.vendor, model, tuple(where), tuple(related), for_update, extra)
    cached = _SELECTS.get(shape)
    if cached is not None:
        return cached
    qn = connection.ops.quote_name
    meta = model._meta
    parts: list[_Part] = []
    columns: list[str] = []
    joins: list[str] = []
    for alias, (kind, fk) in enumerate([(model, None), *((None, meta.get_field(name)) for name in related)]):
        target: type[models.Model] = kind if fk is None else fk.related_model  # type: ignore[assignment]
        table = f"t{alias}"
        fields = list(target._meta.concrete_fields)
        columns += [f"{table}.{qn(f.column)}" for f in fields]
        parts.append(
            (
                target,
                [f.attname for f in fields],
                [_converters(f, table) for f in fields],
                fields.index(target._meta.pk),
            )
        )
        if fk is not None:
            joins.append(
                f"LEFT OUTER JOIN {qn(target._meta.db_table)} {table} "
                f"ON {table}.{qn(target._meta.pk.column)} = t0.{qn(fk.column)}"
            )
    if extra:
        columns.append(extra)
    conditions = " AND ".join(f"t0.{qn(meta.get_field(name).column)} = %s" for name in where)
    sql = f"SELECT {', '.join(columns)} FROM {qn(meta.db_table)} t0 {' '.join(joins)} WHERE {conditions}"
    if for_update and connection.features.has_select_for_update:
        strength = "NO KEY UPDATE" if connection.features.has_select_for_no_key_update else "UPDATE"
        sql += f" FOR {strength}" + (" OF t0" if connection.features.has_select_for_update_of else "")
    _SELECTS[shape] = (sql, parts)
    return sql, parts


def select_one(
    *, model: type[M], where: Mapping[str, Any], related: Sequence[str] = (), for_update: bool = False
) -> M | None:
    """The row of ``model`` whose fields equal ``where`` (at most one, e.g. by primary key or a
    unique field), with the foreign keys named in ``related`` loaded as well (like
    ``select_related``) and, with ``for_update``, the row locked (``FOR NO KEY UPDATE OF`` the row
    only, as ``select_for_update(of=("self",), no_key=True)``: writers of the row wait for each
    other, a foreign key check on it does not wait, so a worker's cache write that references the
    row never waits on a ván while holding what the ván needs). ``None`` when there is no such row."""
    return select_one_with(model=model, where=where, related=related, for_update=for_update)[0]


def select_one_with(
    *,
    model: type[M],
    where: Mapping[str, Any],
    related: Sequence[str] = (),
    for_update: bool = False,
    extra: tuple[str, Sequence[Any]] = ("", ()),
) -> tuple[M | None, Any]:
    """:func:`select_one`, and in the same statement ``extra``: a scalar SQL expression on the
    row (``t0``; a subquery, e.g. the account's roles in the row's club) with its parameters.
    Gives the instance (or ``None``) and the expression's value (``None`` inside
    :func:`on_the_orm`, where the caller reads it its own way)."""
    if _ORM.get():
        query = model._default_manager.filter(**where).select_related(*related)
        if for_update:
            query = query.select_for_update(of=("self",), no_key=True)
        return next(iter(query), None), None
    meta = model._meta
    names = [meta.pk.name if name == "pk" else name for name in where]
    sql, parts = _select_sql(model, names, related, for_update, extra[0])
    params = [
        *extra[1],
        *(
            meta.get_field(name).get_db_prep_value(value, connection)
            for name, value in zip(names, where.values(), strict=True)
        ),
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None, None
    instances: list[models.Model | None] = []
    start = 0
    for target, attnames, converters, pk_index in parts:
        values = list(row[start : start + len(attnames)])
        start += len(attnames)
        for i, (convs, col) in enumerate(converters):
            for convert in convs:
                values[i] = convert(values[i], col, connection)
        instances.append(
            None if values[pk_index] is None else target.from_db(connection.alias, attnames, values)
        )
    found = instances[0]
    assert found is not None
    for name, related_obj in zip(related, instances[1:], strict=True):
        meta.get_field(name).set_cached_value(found, related_obj)  # type: ignore[union-attr]
    return found, (row[start] if extra[0] else None)  # type: ignore[return-value]


def values(
    *, sql: str, params: Sequence[Any] = (), orm: Callable[[], Iterable[Sequence[Any]]]
) -> list[tuple[Any, ...]]:
    """The rows of a plain SELECT (values as the driver returns them: use for ids and numbers);
    ``orm`` gives the same rows through the ORM (``values_list``), run inside :func:`on_the_orm`."""
    if _ORM.get():
        return [tuple(row) for row in orm()]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def column(*, sql: str, params: Sequence[Any] = (), orm: Callable[[], Iterable[Any]]) -> list[Any]:
    """The first column of a plain SELECT's rows (e.g. ids); ``orm`` gives them through the ORM
    (``values_list(…, flat=True)``)."""
    if _ORM.get():
        return list(orm())
    return [row[0] for row in values(sql=sql, params=params, orm=lambda: ())]


def value(*, sql: str, params: Sequence[Any] = (), orm: Callable[[], Any]) -> Any:
    """The first column of a plain SELECT's first row, or ``None`` when there is no row; ``orm``
    gives it through the ORM."""
    if _ORM.get():
        return orm()
    found = values(sql=sql, params=params, orm=lambda: ())
    return found[0][0] if found else None


#: Field types whose ``get_db_prep_save`` returns a value of these Python types unchanged (on
#: PostgreSQL and SQLite): such values skip the call; anything else goes through it.
_AS_IS: dict[str, tuple[type, ...]] = {
    **dict.fromkeys(
        [
            "AutoField",
            "BigAutoField",
            "SmallAutoField",
            "IntegerField",
            "BigIntegerField",
            "SmallIntegerField",
            "PositiveIntegerField",
            "PositiveSmallIntegerField",
            "PositiveBigIntegerField",
        ],
        (int, type(None)),
    ),
    **dict.fromkeys(["CharField", "TextField", "SlugField"], (str, type(None))),
    "BooleanField": (bool, type(None)),
}


class _InsertShape:
    """A model's INSERT, written once: its columns, how each value is prepared, and on
    PostgreSQL (when every column is a plain scalar) the one-array-per-column ``UNNEST`` form,
    whose text stays the same however many rows go in (so psycopg keeps it parsed)."""

    def __init__(self, model: type[models.Model]) -> None:
        _plain(model)
        meta = model._meta
        qn = connection.ops.quote_name
        #: Columns the database fills (generated, or a default of its own): ``bulk_create`` leaves
        #: them out of the INSERT and reads them back, this module does not.
        self.orm_only = any(
            getattr(f, "generated", False) or f.has_db_default() for f in meta.concrete_fields
        )
        self.fields = [f for f in meta.concrete_fields if f is not meta.auto_field]
        # A foreign key is prepared by the field it points to (an integer key here).
        kinds = [(f.target_field if f.is_relation else f).get_internal_type() for f in self.fields]
        self.as_is = [_AS_IS.get(kind, ()) for kind in kinds]
        self.head = f"INSERT INTO {qn(meta.db_table)} ({', '.join(qn(f.column) for f in self.fields)}) "
        self.returning = f" RETURNING {qn(meta.pk.column)}"
        self.row = f"({', '.join(['%s'] * len(self.fields))})"
        self.unnest = None
        if connection.vendor == "postgresql" and all(self.as_is):
            arrays = ", ".join(f"%s::{f.db_type(connection)}[]" for f in self.fields)
            self.unnest = f"{self.head}SELECT * FROM UNNEST({arrays}){self.returning}"

    def prepare(self, obj: models.Model) -> list[Any]:
        """The row's values for the database, as ``save()`` prepares them."""
        row = []
        for field, as_is in zip(self.fields, self.as_is, strict=True):
            value = field.pre_save(obj, True)
            row.append(value if type(value) in as_is else field.get_db_prep_save(value, connection))
        return row


_INSERTS: dict[tuple[str, type[models.Model]], _InsertShape] = {}


#: Up to this many instances go in as one statement (a ván's rows); more (a correction re-posting
#: every later ván) through ``bulk_create``, which splits them into batches the database takes.
AT_ONCE = 100


def insert(*, objs: Iterable[M]) -> list[M]:
    """INSERT new instances of one model in one statement (``auto_now_add`` and defaults applied
    as ``save()`` would); their primary keys are set, in order. Returns them."""
    objs = list(objs)
    if not objs:
        return objs
    model = type(objs[0])
    shape = _INSERTS.get((connection.vendor, model))
    if shape is None:
        shape = _INSERTS[(connection.vendor, model)] = _InsertShape(model)
    if (
        _ORM.get()
        or shape.orm_only
        or len(objs) > AT_ONCE
        or not connection.features.can_return_rows_from_bulk_insert  # SQLite before 3.35
    ):
        return model._default_manager.bulk_create(objs)
    prepared = [shape.prepare(obj) for obj in objs]
    if shape.unnest is not None and len(objs) > 1:
        sql, params = shape.unnest, [list(column) for column in zip(*prepared, strict=True)]
    else:
        sql = f"{shape.head}VALUES {', '.join([shape.row] * len(objs))}{shape.returning}"
        params = [value for row in prepared for value in row]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        keys = cursor.fetchall()
    for obj, (key,) in zip(objs, keys, strict=True):
        obj.pk = key
        obj._state.adding = False
        obj._state.db = connection.alias
    return objs


def update(*, obj: models.Model, **changes: Any) -> None:
    """UPDATE the named fields of ``obj``'s row (by primary key) and set them on ``obj`` (like
    ``QuerySet.update``, no ``save()`` and no signals: refused, as by :func:`insert`, for a model
    whose writes need them)."""
    _plain(type(obj))
    if _ORM.get():
        type(obj)._default_manager.filter(pk=obj.pk).update(**changes)
        for name, change in changes.items():
            setattr(obj, name, change)
        return
    meta = type(obj)._meta
    qn = connection.ops.quote_name
    fields = [meta.get_field(name) for name in changes]
    generated = [f.name for f in fields if getattr(f, "generated", False)]
    if generated:
        raise TypeError(f"{', '.join(generated)}: generated by the database, never written")
    sql = (
        f"UPDATE {qn(meta.db_table)} SET {', '.join(f'{qn(f.column)} = %s' for f in fields)} "
        f"WHERE {qn(meta.pk.column)} = %s"
    )
    params = [
        f.get_db_prep_save(value, connection) for f, value in zip(fields, changes.values(), strict=True)
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, obj.pk])
    for name, value in changes.items():
        setattr(obj, name, value)
