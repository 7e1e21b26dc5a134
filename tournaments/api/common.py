"""Shared pieces of the events API: finding an event the caller may see or manage, and running a
keyed write. Its views are :class:`scoring.api.access.LedgerView` (refusals as JSON); messages
follow ``Accept-Language`` through :class:`scoring.i18n.ApiLanguageMiddleware`, as on every API path."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.engine import N_, EngineError
from scoring.permissions import credential_scope
from scoring.respond import answer_status
from scoring.services.people import Written
from tournaments.access import NO_EVENT
from tournaments.models import Event

__all__ = ["event_for", "keyed_write", "scope_allows_event"]


def scope_allows_event(request: Request, event: Event) -> bool:
    """A scoped credential (a platform token) reaches its own event only; without one, any."""
    scope = credential_scope(request)
    return scope is None or bool(getattr(scope, "allows_event", lambda _pk: False)(event.pk))


def event_for(request: Request, slug: str, *, manage: bool = False) -> Event:
    """The event, if the caller may see it (a public event; a private one as
    ``tournaments.view_event`` says, and for a platform token only its own event): else 404.
    ``manage``: also ``tournaments.manage_event`` (and a token of this event): else 403."""
    event = Event.objects.select_related("rules").filter(slug=slug).first()
    user = request.user
    # No such event and a private one are told apart by nothing: the same check (on a stand-in
    # where there is no event, so the same queries run), the same 404.
    target = event if event is not None else NO_EVENT
    visible = target.is_public or (
        user.has_perm("tournaments.view_event", target) and scope_allows_event(request, target)
    )
    if event is None or not visible:
        raise exceptions.NotFound(
            gettext("Không có giải “%(slug)s” (hoặc giải không công khai).") % {"slug": slug}
        )
    if manage and not (
        user.has_perm("tournaments.manage_event", event) and scope_allows_event(request, event)
    ):
        raise exceptions.PermissionDenied(gettext("Chỉ ban tổ chức giải mới làm được việc này."))
    return event


def keyed_write(request: Request, call: Callable[[str], Written[Any]]) -> Response:
    """Run a write with the request's ``Idempotency-Key`` and answer it (``Idempotent-Replayed: true``
    for a repeat); a user error propagates to the API's handler, which answers it
    (:func:`scoring.respond.respond`'s table: 400, 409 for a conflict, 422 for a reused key…)."""
    key = request.headers.get("Idempotency-Key")
    if not key:
        raise EngineError(N_("Thiếu tiêu đề Idempotency-Key: mỗi lần ghi cần một khóa do máy khách tạo."))
    written = call(key)
    response = Response(written.answer.body, status=answer_status(written.answer))
    if written.answer.replayed:
        response["Idempotent-Replayed"] = "true"
    return response
