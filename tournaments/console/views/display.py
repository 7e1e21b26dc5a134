"""Public, read-only pages of a festival table: the audience display, the timeline of signals and
the display's SSE stream. Public as its event is (:func:`tournaments.permissions.visible`): a
private event's tables are 404 to whoever may not see the event."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import aclosing

from asgiref.sync import sync_to_async
from django.db import connections
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET
from django_eventstream.utils import make_id
from django_eventstream.views import events as event_stream

from tournaments.console.broadcast import channel_for, snapshot, stream_reads
from tournaments.console.models import FestivalTable
from tournaments.console.permissions import seen
from tournaments.console.selectors import recent_signals, timeline

__all__ = ["display", "events", "stream", "timeline_page"]


def _table(request: HttpRequest, pk: int) -> FestivalTable:
    table = FestivalTable.objects.select_related("sitting", "event_table__event").filter(pk=pk).first()
    if not seen(request.user, table) or table is None:  # the same checks where there is no table
        raise Http404(gettext("Không có chiếu này."))
    return table


@require_GET
def display(request: HttpRequest, pk: int) -> HttpResponse:
    """The projector / LED page: seats, signals, flags, nọc, dealer, timer, wins, balances (SSE)."""
    table = _table(request, pk)
    # The state and the stream position it is at, read together (events are changes the display
    # folds into this state: one applied twice, or one missed, would be wrong).
    found = snapshot(table.pk)
    if found is None:
        raise Http404(gettext("Không có chiếu này."))
    seq, state = found
    since = make_id({channel_for(table.pk): seq})
    return render(
        request,
        "console/display.html",
        {
            "table": table,
            "state": state,
            "recent": recent_signals(table),
            "stream_id": since,
            "events_url": reverse("console-events", args=[table.pk]),
        },
    )


@require_GET
def timeline_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Every ván's signals in order, with their times, to replay afterwards (with sound)."""
    table = _table(request, pk)
    vans = timeline(table)
    return render(
        request,
        "console/timeline.html",
        {"table": table, "vans": vans, "nav": "console", "several_canh": len({v.canh for v in vans}) > 1},
    )


def events(request: HttpRequest, table_id: int) -> HttpResponse:
    """The display's SSE stream (django-eventstream), one channel per table: 404 before any stream
    for a table the request may not see; the channel manager
    (:class:`tournaments.console.broadcast.DisplayChannels`) asks the same rule on every read.

    An open display holds no database connection while it waits for the next event: after each
    read (the table here, then the stored events the stream catches up with) the connection goes
    back to the pool (PostgreSQL) or is closed (SQLite). Otherwise every open display kept one of
    its server's pooled connections for as long as it stayed open, and with more displays than
    the pool holds the next display, and every page and API request, waited for one and failed."""
    _table(request, table_id)
    return stream(request, channel_for(table_id))


def stream(request: HttpRequest, channel: str) -> HttpResponse:
    """django-eventstream's stream of ``channel`` (a table's, an event board's), holding no database
    connection while it waits."""
    response = event_stream(request, channels=[channel])
    if isinstance(response, StreamingHttpResponse) and response.is_async:
        response.streaming_content = _releasing(response.streaming_content)
    return response


def _release() -> None:
    """Hand this thread's database connections back (the pool) or close them (no pool)."""
    for conn in connections.all(initialized_only=True):
        if not conn.in_atomic_block:
            conn.close()


async def _releasing(content: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    """``content``, releasing the stream's database connection after each chunk that followed a
    read of the database (django-eventstream reads in a thread of the request's own, where the
    view ran, and yields a chunk after every read, before it waits on its channel). A chunk that
    only relays an event (through Redis or this process) read nothing: no thread hand-over."""
    reads = [True]  # the view has just read the table
    stream_reads.set(reads)
    async with aclosing(content) as chunks:
        async for chunk in chunks:
            if reads[0]:
                reads[0] = False
                await sync_to_async(_release)()
            yield chunk
