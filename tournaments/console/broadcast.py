"""Sending a table's live events to its displays (SSE by django-eventstream, one channel per table).

An event is stored (:class:`~tournaments.console.models.DisplayEvent`, numbered by the table's
``stream_seq``) in the transaction of the write that caused it, and delivered once that commits
(never for a rolled-back write) by :func:`deliver`, the one place that hands events to
django-eventstream. Its storage here (:class:`DisplayEventStorage`, ``EVENTSTREAM_STORAGE_CLASS``)
reads them back, so a display that reconnects with ``Last-Event-ID`` gets every event it missed,
in order; one whose missed events are gone (trimmed by age) gets a ``snapshot`` of the table.

Events carry the change (a signal given, the fields that moved), not the table's whole state:
the display folds them into the state it was given with the page or the last snapshot.
"""

from __future__ import annotations

import json
import re
from contextvars import ContextVar
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.utils import timezone
from django_eventstream import send_event
from django_eventstream.channelmanager import DefaultChannelManager
from django_eventstream.event import Event
from django_eventstream.storage import StorageBase

from scoring.services import rows
from tournaments.console.models import DisplayEvent, FestivalTable
from tournaments.console.selectors import table_state

__all__ = [
    "DisplayChannels",
    "DisplayEventStorage",
    "EventType",
    "channel_for",
    "deliver",
    "encode",
    "next_seq",
    "publish",
    "snapshot",
    "stream_reads",
]

CHANNEL = re.compile(r"^ban-(\d{1,18})$")

#: Set by an open display stream (:func:`tournaments.console.views.display.events`) to a one-item
#: list; the channel manager marks it each time the stream reads the database (it is asked before
#: every read of the storage), so the stream knows to hand its connection back before it waits.
stream_reads: ContextVar[list[bool] | None] = ContextVar("stream_reads", default=None)

#: The number of the event :func:`deliver` is handing to django-eventstream (already stored).
_stored_seq: ContextVar[int | None] = ContextVar("display_event_stored", default=None)


class EventType:
    SIGNAL = "signal"  #: a signal was given: {"signal": …} (the display folds it into its state)
    STATE = (
        "state"  #: nọc, dealer, turn…: {"change": {field: value}}, or {"state": …} (a new ván, a new canh)
    )
    ANNOUNCE = "announce"  #: a ván was recorded: {"announcement": …, "state": …}
    SNAPSHOT = "snapshot"  #: the whole state, to a display whose missed events are gone: {"state": …}


def channel_for(table_id: int) -> str:
    return f"ban-{table_id}"


def encode(data: dict[str, Any]) -> str:
    """Compact UTF-8 JSON: every display receives every event, so bytes count (Vietnamese names
    would take 6 bytes a letter as \\u escapes)."""
    return json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False, separators=(",", ":"))


def next_seq(table_id: int) -> int:
    """Number the table's next display event (the row stays locked until the transaction ends)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE console_festivaltable SET stream_seq = stream_seq + 1 WHERE id = %s RETURNING stream_seq",
            [table_id],
        )
        return int(cursor.fetchone()[0])


def publish(table_id: int, event_type: str, data: dict[str, Any], *, seq: int | None = None) -> int:
    """Store ``data`` as the table's next display event (``seq``: already numbered by the caller's
    own UPDATE of the row) and send it to the displays once the current transaction commits."""

    body = encode(data)
    with transaction.atomic(savepoint=False):
        if seq is None:
            seq = next_seq(table_id)
        rows.insert(
            objs=[
                DisplayEvent(
                    table_id=table_id, seq=seq, type=event_type, data=body, created_at=timezone.now()
                )
            ]
        )
        transaction.on_commit(lambda: deliver(table_id, event_type, body, seq))
    return seq


def deliver(table_id: int, event_type: str, body: str, seq: int) -> None:
    """Hand a stored event to the displays: the storage answers its number without writing it
    again. How it travels is settings, not code here:

    * ``GRIP_URL`` set (production, ``PUSHPIN=1 make run``): published once to Pushpin, which holds
      the displays and sends it to each (``totom_site/pushpin.py``); publishing is asynchronous
      (django-grip's publisher thread), so the caller does not wait for the fan-out;
    * else, with ``REDIS_URL``: through Redis to every app process, each sending it to the displays
      it holds; without either (``make run``): to the displays this process holds."""
    token = _stored_seq.set(seq)
    try:
        send_event(channel_for(table_id), event_type, body, json_encode=False)
    finally:
        _stored_seq.reset(token)


def snapshot(table_id: int) -> tuple[int, dict[str, Any]] | None:
    """The table's stream position and its whole state at that position (one consistent read:
    REPEATABLE READ on PostgreSQL, SQLite's read transaction), or None for no such table."""

    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        table = FestivalTable.objects.select_related("sitting").filter(pk=table_id).first()
        if table is None:
            return None
        return table.stream_seq, table_state(table)


def _table_id(channel: str) -> int | None:
    found = CHANNEL.match(channel)
    return int(found[1]) if found else None


class DisplayEventStorage(StorageBase):
    """django-eventstream's storage (``EVENTSTREAM_STORAGE_CLASS``) on the console's own
    :class:`~tournaments.console.models.DisplayEvent` rows and ``FestivalTable.stream_seq``."""

    def append_event(self, channel: str, event_type: str, data: Any) -> Event:
        seq = _stored_seq.get()
        if seq is None:  # sent with send_event by someone else: stored here, as publish() would
            table_id = _table_id(channel)
            if table_id is None:
                raise ValueError(f"not a table's channel: {channel}")
            body = data if isinstance(data, str) else encode(data)

            with transaction.atomic():
                seq = next_seq(table_id)
                DisplayEvent.objects.create(table_id=table_id, seq=seq, type=event_type, data=body)
        return Event(channel, event_type, data, id=seq)

    def get_current_id(self, channel: str) -> int:

        table_id = _table_id(channel)
        if table_id is None:
            return 0
        found = FestivalTable.objects.filter(pk=table_id).values_list("stream_seq", flat=True).first()
        return found or 0

    def get_events(self, channel: str, last_id: int, limit: int = 100) -> list[Event]:
        """The events after ``last_id``; a snapshot (numbered as the newest event) when some of
        them are gone or ``last_id`` is ahead of the table (a restored backup)."""

        table_id = _table_id(channel)
        current = self.get_current_id(channel)
        if table_id is None or last_id == current:
            return []
        if last_id < current:
            rows = list(
                DisplayEvent.objects.filter(table_id=table_id, seq__gt=last_id)
                .order_by("seq")
                .values_list("seq", "type", "data")[:limit]
            )
            if rows and rows[0][0] == last_id + 1:
                return [Event(channel, kind, data, id=seq) for seq, kind, data in rows]
        found = snapshot(table_id)
        if found is None:
            return []
        seq, state = found
        return [Event(channel, EventType.SNAPSHOT, encode({"state": state}), id=seq)]


class DisplayChannels(DefaultChannelManager):
    """django-eventstream's channel permission hook (``EVENTSTREAM_CHANNELMANAGER_CLASS``): a
    table's channel is readable by whoever may see the table
    (:func:`tournaments.permissions.visible`: public unless its event is private), an event
    board's by whoever may see the event; any other channel name is refused. Asked when a stream
    opens and again whenever it re-reads the storage."""

    def is_channel_reliable(self, channel: str) -> bool:
        """A table's events are stored and numbered (a display resumes from the last it had); an
        event board's are not (each is the whole board, :mod:`tournaments.board`)."""
        return CHANNEL.match(channel) is not None

    def can_read_channel(self, user: Any, channel: str) -> bool:
        from tournaments.board import CHANNEL as BOARD
        from tournaments.models import Event
        from tournaments.permissions import visible

        board = BOARD.match(channel)
        found = CHANNEL.match(channel)
        if board is None and found is None:
            return False
        reads = stream_reads.get()
        if reads is not None:
            reads[0] = True
        if board is not None:
            event = Event.objects.filter(pk=int(board[1])).first()
            return event is not None and visible(user, event)
        table = FestivalTable.objects.select_related("event_table__event").filter(pk=int(found[1])).first()
        return table is not None and visible(user, table)
