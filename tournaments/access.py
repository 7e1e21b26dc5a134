"""Who may reach an event, answered at the edge (its pages, reports and exports): the event an
organiser manages, the event a visitor may see (its state cached briefly), a player's statement.

Shared by the page views and the reports, so neither imports the other; the rules themselves are
:mod:`tournaments.permissions`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext

from tournaments.models import Event, Registration
from tournaments.permissions import visible
from tournaments.selectors.pages import events_with_board_state

__all__ = ["NO_EVENT", "STATE_SECONDS", "organised_event", "public_event", "statement_access"]

#: Asked whether a visitor may see it where the address names no event: no such event and a private
#: event are answered after the same check (the same queries), and the same way.
NO_EVENT = Event(pk=0, is_public=False)


def organised_event(request: HttpRequest, slug: str) -> Event:
    """The event, if the signed-in user may manage it (``tournaments.manage_event``: organisers, staff)."""
    event = get_object_or_404(Event, slug=slug)
    if not request.user.has_perm("tournaments.manage_event", event):
        raise PermissionDenied(gettext("Chỉ ban tổ chức giải mới làm được việc này."))
    return event


def statement_access(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A player's statement (CSV, XLSX, PDF) only for ``tournaments.view_statement``: the player's
    own account, the organisers and scorekeepers of the event. A visitor is sent to sign in;
    another signed-in person gets 403. Players not registered in the event are 404."""

    @wraps(view)
    def checked(request: HttpRequest, slug: str, player_id: int, *args: Any, **kwargs: Any) -> HttpResponse:
        event = public_event(request, slug, fresh=True)
        registration = (
            Registration.objects.filter(event=event, player_id=player_id).select_related("player").first()
        )
        if registration is None:
            raise Http404(gettext("Người này không chơi ở giải."))
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not request.user.has_perm("tournaments.view_statement", registration):
            raise PermissionDenied(
                gettext("Chỉ người chơi ấy, ban tổ chức và thư ký ghi điểm của giải mới xem được sao kê.")
            )
        return view(request, slug, player_id, *args, **kwargs)

    return checked


#: How long a public event's state (its board's version) is reused by the pages of one process.
STATE_SECONDS = 0.5


def public_event(request: HttpRequest, slug: str, *, fresh: bool = False) -> Event:
    """The event with its stored leaderboard's state but not its rows (one small query, or none:
    a public event's state is reused for :data:`STATE_SECONDS` by this process, a delay well
    under the pages' 2 s polling); a private event only for whom ``tournaments.view_event`` lets
    see it (organisers, role holders, its registered players), 404 for everyone else."""
    key = f"tournaments:event:{slug}"
    event = None if fresh else cache.get(key)
    if event is None:
        event = events_with_board_state().filter(slug=slug).first()
        if event is not None and event.is_public:
            cache.set(key, event, STATE_SECONDS)
    if not visible(request.user, event if event is not None else NO_EVENT) or event is None:
        raise Http404(gettext("Không có giải này."))
    return event
