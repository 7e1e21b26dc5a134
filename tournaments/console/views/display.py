"""Public, read-only pages of a festival table: the audience display, the timeline of signals and
the display's SSE stream. Public as its event is (:func:`tournaments.permissions.visible`): a
private event's tables are 404 to whoever may not see the event."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET
from django_eventstream.views import events as event_stream

from tournaments.console.broadcast import channel_for
from tournaments.console.models import FestivalTable
from tournaments.console.selectors import recent_signals, table_state, timeline
from tournaments.console.views.common import stream_id
from tournaments.permissions import visible

__all__ = ["display", "events", "timeline_page"]


def _table(request: HttpRequest, pk: int) -> FestivalTable:
    table = FestivalTable.objects.select_related("sitting", "event_table__event").filter(pk=pk).first()
    if table is None or not visible(request.user, table):
        raise Http404(gettext("Không có chiếu này."))
    return table


@require_GET
def display(request: HttpRequest, pk: int) -> HttpResponse:
    """The projector / LED page: seats, signals, flags, nọc, dealer, timer, wins, balances (SSE)."""
    table = _table(request, pk)
    # The stream position is read *before* the state: an event in between is replayed, never lost.
    since = stream_id(table)
    state = table_state(table)
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
    (:class:`tournaments.console.broadcast.DisplayChannels`) asks the same rule on every read."""
    _table(request, table_id)
    return event_stream(request, channels=[channel_for(table_id)])
