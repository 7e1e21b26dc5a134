"""Helpers shared by the tournaments views."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.cache import patch_vary_headers

from tournaments.models import Event
from tournaments.selectors.pages import is_organiser


def is_htmx(request: HttpRequest) -> bool:
    return bool(getattr(request, "htmx", False))


def page(request: HttpRequest, template: str, context: dict[str, Any], *, partial: str | None = None,
         status: int = 200) -> HttpResponse:
    """Render the page, or only its partial for an htmx request; always ``Vary: HX-Request``."""
    name = f"{template}#{partial}" if partial and is_htmx(request) else template
    response = render(request, name, {"nav": "tournaments", **context}, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response


def organised_event(request: HttpRequest, slug: str) -> Event:
    """The event, if the signed-in user organises it (staff organise every event)."""
    event = get_object_or_404(Event, slug=slug)
    if not is_organiser(request.user, event):
        raise PermissionDenied("Chỉ ban tổ chức giải mới làm được việc này.")
    return event


#: How long a public event's state (its board's version) is reused by the pages of one process.
STATE_SECONDS = 0.5


def public_event(request: HttpRequest, slug: str, *, fresh: bool = False) -> Event:
    """The event with its stored leaderboard's state but not its rows (one small query, or none:
    a public event's state is reused for :data:`STATE_SECONDS` by this process, a delay well
    under the pages' 2 s polling); private events only for organisers."""
    key = f"tournaments:event:{slug}"
    event = None if fresh else cache.get(key)
    if event is None:
        event = (
            Event.objects.select_related("leaderboard").defer("leaderboard__rows", "leaderboard__teams")
            .filter(slug=slug).first()
        )
        if event is not None and event.is_public:
            cache.set(key, event, STATE_SECONDS)
    if event is None or (not event.is_public and not is_organiser(request.user, event)):
        raise Http404("Không có giải này.")
    return event
