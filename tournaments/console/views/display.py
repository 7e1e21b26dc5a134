"""Public, read-only pages of a festival table: the audience display and the timeline of signals."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from tournaments.console.models import FestivalTable
from tournaments.console.selectors import recent_signals, table_state, timeline
from tournaments.console.views.common import stream_id

__all__ = ["display", "timeline_page"]


def _table(pk: int) -> FestivalTable:
    return get_object_or_404(FestivalTable.objects.select_related("sitting"), pk=pk)


@require_GET
def display(request: HttpRequest, pk: int) -> HttpResponse:
    """The projector / LED page: seats, signals, flags, nọc, dealer, timer, wins, balances (SSE)."""
    table = _table(pk)
    # The stream position is read *before* the state: an event in between is replayed, never lost.
    since = stream_id(table)
    state = table_state(table)
    return render(request, "console/display.html", {
        "table": table,
        "state": state,
        "recent": recent_signals(table),
        "stream_id": since,
        "events_url": reverse("console-events", args=[table.pk]),
    })


@require_GET
def timeline_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Every ván's signals in order, with their times, to replay afterwards (with sound)."""
    table = _table(pk)
    vans = timeline(table)
    return render(request, "console/timeline.html", {"table": table, "vans": vans, "nav": "console",
                                                     "several_canh": len({v.canh for v in vans}) > 1})
