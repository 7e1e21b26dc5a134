"""Recording and correcting the ván of an event's table: the ledger's services, plus a recompute.

:func:`event_van_record` and :func:`event_van_correct` call the scoring services (which own the
ván and the postings) inside one transaction; the leaderboard recompute is queued after commit,
so a rolled-back ván queues nothing. Recording also keeps the round's format: no ván beyond a fixed-ván round, and the next
canh opened when one reaches the event's ván per canh (:mod:`tournaments.services.tables`).

Every write to an event's canh, through these services or by other means (the scorekeeper's own
pages, the API, a review, an import), bumps the event's ledger number and stamps the canh one way
only: :func:`on_sitting_written`, connected to the scoring app's ``sitting_written`` signal, which
is sent inside the write's own transaction.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction

from scoring.engine import N_, EngineError
from scoring.models import Van
from scoring.services import rows
from scoring.services.people import NO_VIA, EntryVia, User, Written
from scoring.services.sittings import van_correct, van_record
from tournaments.models import RoundFormat, Table, TableSitting
from tournaments.services.events import EventFinished as FinishedEvent
from tournaments.services.leaderboard import ledger_changed
from tournaments.services.tables import locked_table, maybe_next_canh, table_van

__all__ = ["CanhMoved", "EventFinished", "event_van_correct", "event_van_record", "on_sitting_written"]


class CanhMoved(EngineError):
    """The page recorded into a canh the table has moved on from (a stale page)."""

    code = "canh_moved"


class EventFinished(FinishedEvent):
    """The organiser has made the results final (:func:`tournaments.services.events.event_finish`):
    a ván is refused like every other change (a ``ResultsFinal``: 409 on every page and the API)."""

    code = "event_finished_van"


class _NotReplay(Exception):
    pass


def _replay_only(sitting_id: int, **kwargs: Any) -> Written[Van]:
    """A ván posted to a canh that is no longer the table's current one: only an idempotent
    repeat of a ván already recorded there is answered (a double tap on the last ván of a canh)."""
    try:
        with transaction.atomic():
            written = van_record(sitting=sitting_id, **kwargs)
            if not written.answer.replayed:
                raise _NotReplay
            return written
    except _NotReplay:
        raise CanhMoved(N_("Chiếu đã sang canh mới; hãy tải lại trang rồi ghi ván vào canh mới.")) from None


def event_van_record(
    *,
    table: Table | int,
    seq: int,
    record: Mapping[str, Any],
    idempotency_key: str | None,
    entered_by: User | None = None,
    cards: str = "",
    sitting: int | None = None,
    via: EntryVia = NO_VIA,
) -> Written[Van]:
    """Record ván ``seq`` at an event's table (see :func:`scoring.services.sittings.van_record`),
    in the table's current canh (``sitting``: the canh the page showed; a stale one is refused)."""
    kwargs: dict[str, Any] = {
        "seq": seq,
        "record": record,
        "idempotency_key": idempotency_key,
        "entered_by": entered_by,
        "cards": cards,
        "via": via,
    }
    with transaction.atomic():
        the_table = locked_table(table=table)
        event = the_table.event
        if event.finished_at is not None:
            raise EventFinished(N_("Giải đã chốt kết quả chính thức; không ghi thêm ván được nữa."))
        target = the_table.sitting_id if sitting is None else sitting
        if target != the_table.sitting_id:
            if not TableSitting.objects.filter(table=the_table, sitting_id=target).exists():
                raise EngineError(N_("Canh này không thuộc chiếu này."))
            return _replay_only(target, **kwargs)
        with transaction.atomic():
            written = van_record(sitting=target, **kwargs)
            if written.answer.replayed:
                return written
            if event.round_format == RoundFormat.VAN and table_van(table=the_table) > event.van_per_round:
                raise EngineError(
                    N_("Chiếu đã đủ {van_per_round} ván của vòng; không ghi thêm được."),
                    van_per_round=event.van_per_round,
                )
        maybe_next_canh(table=the_table, event=event, by=entered_by)
    return written


def event_van_correct(
    *,
    van: Van | int,
    record: Mapping[str, Any],
    reason: str,
    corrected_by: User | None,
    idempotency_key: str | None,
    cards: str = "",
    via: EntryVia = NO_VIA,
) -> Written[Van]:
    """Correct a ván of an event's table (see :func:`scoring.services.sittings.van_correct`)."""
    return van_correct(
        van=van.pk if isinstance(van, Van) else van,
        record=record,
        reason=reason,
        corrected_by=corrected_by,
        idempotency_key=idempotency_key,
        cards=cards,
        via=via,
    )


def on_sitting_written(sender: Any, *, sitting_id: int, action: str, **kwargs: Any) -> None:
    """Inside the transaction of a write to a sitting: if the sitting is one of an event's canh,
    bump the event's ledger number and stamp the canh (a recompute is asked for on commit).
    Opening a sitting is not a change of the standings (a canh is linked to its table after)."""
    if action == "open":
        return
    # One canh per sitting (one-to-one, unique): its event without a join.
    event_id = rows.value(
        sql=f"SELECT event_id FROM {TableSitting._meta.db_table} WHERE sitting_id = %s",
        params=[sitting_id],
        orm=lambda: (
            TableSitting.objects.filter(sitting_id=sitting_id).values_list("event_id", flat=True).first()
        ),
    )
    if event_id is not None:
        ledger_changed(event_id=event_id, sittings=[sitting_id])
