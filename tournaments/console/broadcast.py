"""Sending a table's live events to its displays (SSE by django-eventstream, one channel per table).

Events are sent after the commit of the write that caused them (never for a rolled-back write)
and stored by the eventstream storage (``EVENTSTREAM_STORAGE_CLASS``), so a display that
reconnects with ``Last-Event-ID`` gets every event it missed, in order. Each event carries the
table's whole state, so a display that applies the newest event is always right.
"""

from __future__ import annotations

import json
import re
from contextvars import ContextVar
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django_eventstream import send_event
from django_eventstream.channelmanager import DefaultChannelManager

__all__ = ["DisplayChannels", "EventType", "channel_for", "deliver", "publish", "stream_reads"]

CHANNEL = re.compile(r"^ban-(\d{1,18})$")

#: Set by an open display stream (:func:`tournaments.console.views.display.events`) to a one-item
#: list; the channel manager marks it each time the stream reads the database (it is asked before
#: every read of the storage), so the stream knows to hand its connection back before it waits.
stream_reads: ContextVar[list[bool] | None] = ContextVar("stream_reads", default=None)


class EventType:
    SIGNAL = "signal"  #: a signal was given: {"signal": …, "state": …}
    STATE = "state"  #: nọc, dealer, turn, ván start…: {"state": …}
    ANNOUNCE = "announce"  #: a ván was recorded: {"announcement": …, "state": …}


def channel_for(table_id: int) -> str:
    return f"ban-{table_id}"


def publish(table_id: int, event_type: str, data: dict[str, Any]) -> None:
    """Send ``data`` to the table's displays once the current transaction commits."""
    channel = channel_for(table_id)
    # Compact UTF-8 JSON: every display receives every event, so bytes count (Vietnamese names
    # would take 6 bytes a letter as \u escapes).
    body = json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False, separators=(",", ":"))
    transaction.on_commit(lambda: deliver(channel, event_type, body))


def deliver(channel: str, event_type: str, body: str) -> None:
    """Store an event (``EVENTSTREAM_STORAGE_CLASS``: a display resumes from ``Last-Event-ID``) and
    send it to the channel's displays: how it travels is settings, not code here.

    * ``GRIP_URL`` set (production, ``PUSHPIN=1 make run``): published once to Pushpin, which holds
      the displays and sends it to each (``totom_site/pushpin.py``); publishing is asynchronous
      (django-grip's publisher thread), so the caller does not wait for the fan-out;
    * else, with ``REDIS_URL``: through Redis to every app process, each sending it to the displays
      it holds; without either (``make run``): to the displays this process holds."""
    send_event(channel, event_type, body, json_encode=False)


class DisplayChannels(DefaultChannelManager):
    """django-eventstream's channel permission hook (``EVENTSTREAM_CHANNELMANAGER_CLASS``): a
    table's channel is readable by whoever may see the table
    (:func:`tournaments.permissions.visible`: public unless its event is private); any other
    channel name is refused. Asked when a stream opens and again whenever it re-reads the storage."""

    def can_read_channel(self, user: Any, channel: str) -> bool:
        from tournaments.console.models import FestivalTable
        from tournaments.permissions import visible

        found = CHANNEL.match(channel)
        if found is None:
            return False
        reads = stream_reads.get()
        if reads is not None:
            reads[0] = True
        table = FestivalTable.objects.select_related("event_table__event").filter(pk=int(found[1])).first()
        return table is not None and visible(user, table)
