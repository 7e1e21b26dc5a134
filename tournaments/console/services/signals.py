"""Giving a signal: stored with its time, seat and ván, idempotent by key, sent to the displays."""

from __future__ import annotations

from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Q, Subquery

from scoring.engine import N_
from scoring.models import Seat, Sitting
from scoring.services import rows
from scoring.services.idempotency import Answer, Outcome, check_key, run_once
from scoring.services.people import User, Written, acting_user
from scoring.services.sittings import FINAL, ResultsFinal
from tournaments.console.broadcast import EventType, publish
from tournaments.console.catalogue import SIGNALS, TRUNG_QUAN
from tournaments.console.models import FestivalTable, Signal, SignalEvent, SignalKind
from tournaments.console.selectors import TRUNG_QUAN_NAME, signal_json, signals_for
from tournaments.console.services.errors import ConsoleError
from tournaments.models import Event, Table

__all__ = ["ensure_catalogue", "parse_seat", "signal_send", "signal_table"]

SEATS = 5
_TQ_WORDS = {"trung_quan", "trung-quan", "trungquan", "tq", "trung quân"}


def ensure_catalogue() -> int:
    """Create the seeded signals that are missing (the data migration's rows); returns how many."""
    made = 0
    for row in SIGNALS:
        _, created = Signal.objects.get_or_create(
            slug=row["slug"], defaults={k: v for k, v in row.items() if k != "slug"}
        )
        made += created
    return made


def parse_seat(*, value: Any) -> int:
    """A seat from a request: 1–5, or ``"trung_quan"`` (stored as 0)."""
    if isinstance(value, str):
        text = value.strip().lower()
        if text in _TQ_WORDS:
            return TRUNG_QUAN
        if text.isascii() and text.isdigit():  # not "²": a digit to str.isdigit, not to int()
            value = int(text)
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= SEATS:
        return value
    raise ConsoleError(
        N_('Chỗ ngồi phải là số từ 1 đến {n} hoặc "trung_quan" (nhận được {value}).'),
        n=SEATS,
        value=repr(value),
    )


#: The festival table a signal is posted to, with only what the POST reads: who may run it (its
#: Trung Quân; its event's chiếu, the event, whether that is public) and its canh's village (the
#: signals it may use); and, when the request names them, the signal it asks for and the name of
#: the seat that gives it (``{wanted}``, ``{join}``: :data:`_WANTED`). One statement, its text
#: written once (the ORM's 4-table ``select_related`` of every column was most of the signal's CPU).
_TABLE = """
SELECT f.id, f.sitting_id, f.event_table_id, f.trung_quan_id, s.club_id, t.event_id, e.is_public{wanted}
FROM {table} f JOIN {sitting} s ON s.id = f.sitting_id
LEFT JOIN {chieu} t ON t.id = f.event_table_id LEFT JOIN {event} e ON e.id = t.event_id{join}
WHERE f.id = %s
"""
#: The signal a table may use (the common ones and its village's own, active; as
#: :func:`signals_for` scopes them) and the name of the seat that gave it.
_WANTED = (
    ", {columns}, (SELECT name FROM {seat} WHERE sitting_id = f.sitting_id AND position = %s)",
    "\nLEFT JOIN {signal} g ON g.slug = %s AND g.is_active AND (g.club_id IS NULL OR g.club_id = s.club_id)",
)
#: In the model's order of fields, as ``Model.from_db`` takes a subset.
_TABLE_FIELDS = ["id", "sitting_id", "event_table_id", "trung_quan_id"]
_FIELDS = [f.attname for f in Signal._meta.concrete_fields]


def signal_table(
    *, table_id: int, seat: int | None = None, signal: str | None = None
) -> FestivalTable | None:
    """The festival table ``table_id`` as a signal needs it, or None: its own fields
    ``id``, ``sitting_id``, ``event_table_id`` and ``trung_quan_id``, its ``sitting`` (``club_id``)
    and ``event_table.event`` (``is_public``) loaded (any other field is read when first asked
    for, as a deferred field). The checks of :mod:`tournaments.console.permissions` run on it as on
    the whole rows.

    With ``seat`` (as :func:`parse_seat` gives it) and ``signal`` (a slug), the same statement also
    reads that signal of the table's catalogue and the seat's name, which :func:`signal_send` then
    uses for that seat and slug instead of reading them again. Nothing of it is answered before the
    caller has checked who asks."""
    wanted = signal.strip().lower() if seat is not None and isinstance(signal, str) else ""
    sql = _sql(connection.vendor)["table+signal" if wanted else "table"]
    fields = [*_TABLE_FIELDS, "sitting__club_id", "event_table__event_id", "event_table__event__is_public"]

    def orm() -> Any:
        found = [tuple(row) for row in FestivalTable.objects.filter(pk=table_id).values_list(*fields)]
        if not found or not wanted:
            return found
        sig = list(_signal_orm(found[0][1], found[0][4], wanted, seat)) or [(None,) * (len(_FIELDS) + 1)]
        return [found[0] + tuple(sig[0])]

    params: list[Any] = [seat, wanted, table_id] if wanted else [table_id]
    found = rows.values(sql=sql, params=params, orm=orm)
    if not found:
        return None
    row = found[0]
    own, (club_id, event_id, is_public) = list(row[:4]), row[4:7]
    sitting_id, event_table_id = own[1], own[2]
    alias = connection.alias
    table = FestivalTable.from_db(alias, _TABLE_FIELDS, own)
    table.sitting = Sitting.from_db(alias, ["id", "club_id"], [sitting_id, club_id])
    if event_table_id is not None:
        chieu = Table.from_db(alias, ["id", "event_id"], [event_table_id, event_id])
        chieu.event = Event.from_db(alias, ["id", "is_public"], [event_id, bool(is_public)])
        table.event_table = chieu
    if wanted:
        table._signal_read = (wanted, seat, _signal_of(row[7:]))  # type: ignore[attr-defined]
    return table


def _signal_of(row: Any) -> Signal | None:
    """A signal from its columns (:data:`_FIELDS`) and the seat's name; None for no signal."""
    *values, seat_name = row
    if values[_FIELDS.index("id")] is None:
        return None
    signal = Signal.from_db(connection.alias, _FIELDS, values)
    signal.seat_name = seat_name  # type: ignore[attr-defined]
    return signal


def _signal_orm(sitting_id: int, club_id: int | None, wanted: str, seat: int) -> Any:
    """The ORM's twin of the signal's read: its columns and the seat's name."""
    seat_name = Seat.objects.filter(sitting_id=sitting_id, position=seat).values("name")[:1]
    return (
        Signal.objects.filter(Q(club__isnull=True) | Q(club_id=club_id), slug=wanted, is_active=True)
        .annotate(seat_name=Subquery(seat_name))
        .values_list(*_FIELDS, "seat_name")
    )


#: The signal alone, for a table read without it (:func:`signal_table`): one statement.
_FIND = """
SELECT {columns}, (SELECT name FROM {seat} WHERE sitting_id = %s AND position = %s)
FROM {signal} WHERE slug = %s AND is_active AND (club_id IS NULL OR club_id = %s)
"""


def _find_signal(table: FestivalTable, slug: Any, seat: int) -> Signal:
    """The signal of the table's catalogue (as :func:`signals_for` scopes it), with the name of
    whoever gave it (``seat_name``): read with the table when :func:`signal_table` was asked for
    it, else one query; before the write's transaction (signals and seats do not change during a
    canh)."""
    if not isinstance(slug, str) or not slug.strip():
        raise ConsoleError(N_('Hãy gửi mã hiệu trong "signal", ví dụ "tung-tung".'))
    wanted = slug.strip().lower()
    read = getattr(table, "_signal_read", None)
    if read is not None and read[0] == wanted and read[1] == seat:
        signal = read[2]
    else:
        sql = _sql(connection.vendor)["find"]
        club_id = table.sitting.club_id
        found = rows.values(
            sql=sql,
            params=[table.sitting_id, seat, wanted, club_id],
            orm=lambda: _signal_orm(table.sitting_id, club_id, wanted, seat),
        )
        signal = _signal_of(found[0]) if found else None
    if signal is None:
        known = ", ".join(signals_for(table).values_list("slug", flat=True))
        raise ConsoleError(
            N_("Không có hiệu '{slug}'. Các hiệu của chiếu này: {known}."), slug=slug, known=known
        )
    return signal


#: The signal's write locks the table's row, numbers its display event and clears the last ván's
#: announcement (its banner gives way to play) in one statement, and reads back what the
#: signal is stored with and whether the canh still takes signals. Guarded by the canh the
#: signal was checked against (an event's chiếu may have moved on to its next one).
_TAKE = """
UPDATE {table} SET stream_seq = stream_seq + 1, announcement = NULL
WHERE id = %s AND sitting_id = %s
RETURNING stream_seq, van_seq, noc_left,
    (SELECT final_at IS NOT NULL FROM {sitting} WHERE id = {table}.sitting_id),
    (SELECT ended_at IS NOT NULL FROM {sitting} WHERE id = {table}.sitting_id)
"""


@cache
def _sql(vendor: str) -> dict[str, str]:
    """The signal's statements, written once per process (per database vendor)."""
    qn = connection.ops.quote_name
    names = {
        "table": qn(FestivalTable._meta.db_table),
        "sitting": qn(Sitting._meta.db_table),
        "chieu": qn(Table._meta.db_table),
        "event": qn(Event._meta.db_table),
    }
    columns = [qn(f.column) for f in Signal._meta.concrete_fields]
    seat, signal = qn(Seat._meta.db_table), qn(Signal._meta.db_table)
    wanted, join = _WANTED
    return {
        "table": _TABLE.format(**names, wanted="", join=""),
        "table+signal": _TABLE.format(
            **names,
            wanted=wanted.format(columns=", ".join(f"g.{c}" for c in columns), seat=seat),
            join=join.format(signal=signal),
        ),
        "find": _FIND.format(columns=", ".join(columns), seat=seat, signal=signal),
        "take": _TAKE.format(table=FestivalTable._meta.db_table, sitting=Sitting._meta.db_table),
    }


def _take(table: FestivalTable) -> tuple[int, int, int, bool, bool] | None:
    """Lock and number (see :data:`_TAKE`): (stream_seq, van_seq, noc_left, final, ended), None
    when the table is no longer at ``table``'s canh."""
    sql = _sql(connection.vendor)["take"]
    with connection.cursor() as cursor:
        cursor.execute(sql, [table.pk, table.sitting_id])
        row = cursor.fetchone()
    return None if row is None else (row[0], row[1], row[2], bool(row[3]), bool(row[4]))


def _open_for_play(final: bool, ended: bool) -> None:
    if final:
        raise ResultsFinal(FINAL)
    if ended:
        raise ConsoleError(N_("Canh bài của chiếu này đã thanh toán và kết thúc: không nhận hiệu nữa."))


def _as_json(event: SignalEvent, sig: Signal, seat_name: str) -> dict[str, Any]:
    names = {event.seat: seat_name}
    event.signal = sig
    return signal_json(event, names)


def _check_who(signal: Signal, seat: int) -> None:
    if signal.kind == SignalKind.BIG_DRUM and seat != TRUNG_QUAN:
        raise ConsoleError(
            N_('{signal} là trống cái của Trung Quân: hãy gửi với chỗ "trung_quan".'), signal=signal.label
        )
    if signal.kind != SignalKind.BIG_DRUM and seat == TRUNG_QUAN:
        raise ConsoleError(
            N_("{signal} là hiệu của người chơi: hãy chọn chỗ từ 1 đến {n}."), signal=signal.label, n=SEATS
        )


def signal_send(
    *,
    table: FestivalTable | int,
    seat: Any,
    signal: Any,
    by: User | None = None,
    idempotency_key: str | None = None,
) -> Written[SignalEvent]:
    """Store a signal given at ``seat`` during the ván under way and send it to the displays.

    One transaction of at most five statements (three without a key): the table's UPDATE (lock,
    order, the canh's check), the key's look-up, the signal, its display event, the key's answer.
    The display event carries the signal only; the display folds it into its state.
    A repeat with the same key answers the first answer and stores nothing; the same key with
    another seat or signal raises ``IdempotencyMismatch`` (HTTP 422).
    """
    the_seat = parse_seat(value=seat)
    key = check_key(key=idempotency_key)
    if not isinstance(table, FestivalTable):
        found = signal_table(table_id=table)
        if found is None:
            raise ConsoleError(N_("Không có chiếu số {n}."), n=table)
        table = found
    t = table
    the_signal = _find_signal(t, signal, the_seat)
    _check_who(the_signal, the_seat)
    box: dict[str, Any] = {}

    def lock() -> None:
        taken = _take(t)
        if taken is None:  # the chiếu moved on to its next canh: read it again, check again
            raise _Moved
        box["taken"] = taken

    def action() -> Answer:
        seq, van_seq, noc_left, final, ended = box["taken"]
        _open_for_play(final, ended)  # an error rolls back the UPDATE and stores no key
        event = box["event"] = SignalEvent(
            table_id=t.pk,
            sitting_id=t.sitting_id,
            van_seq=van_seq,
            seat=the_seat,
            signal=the_signal,
            noc_left=noc_left,
            created_by=acting_user(user=by),
            idempotency_key=key or "",
        )
        rows.insert(objs=[event])
        seat_name = the_signal.seat_name or (TRUNG_QUAN_NAME if the_seat == TRUNG_QUAN else str(the_seat))
        body = _as_json(event, the_signal, seat_name)
        publish(t.pk, EventType.SIGNAL, {"signal": body}, seq=seq)
        return Answer(Outcome.CREATED, body)

    slug = signal.strip().lower() if isinstance(signal, str) else signal
    try:
        answer = run_once(
            key=key,
            operation="console_signal",
            target=t.pk,
            payload={"seat": the_seat, "signal": slug},
            action=action,
            lock=lock,
            undo_lock=True,
            read_key_first=False,
        )
    except _Moved:
        return signal_send(table=t.pk, seat=seat, signal=signal, by=by, idempotency_key=idempotency_key)
    event = box.get("event")
    if answer.replayed or event is None:
        return Written(
            None,
            answer,
            load=lambda: SignalEvent.objects.select_related("signal").get(pk=answer.body["id"]),
        )
    return Written(event, answer)


class _Moved(Exception):
    """The table moved on to another canh between its read and its lock."""
