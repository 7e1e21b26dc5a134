"""Roles on the organiser's page (quan-ly/vai-tro/…): add an organiser, a scorekeeper (for the
whole event or one table) or a Trung Quân by account name; revoke them. htmx swaps the panel;
without htmx the page reloads with a message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from scoring.engine import N_, EngineError
from scoring.htmx import is_htmx
from tournaments.access import organised_event
from tournaments.models import Event, EventRole, Table
from tournaments.services.roles import (
    ORGANISER,
    ROLE_KINDS,
    organiser_add,
    organiser_remove,
    role_grant,
    role_revoke,
)
from tournaments.views.common import error_status, page

__all__ = ["organiser_revoke", "role_add", "role_end", "roles_context"]


def roles_context(event: Event) -> dict[str, Any]:
    """What the roles panel of the organiser's page shows."""
    return {
        "organisers": list(event.organisers.order_by(get_user_model().USERNAME_FIELD)),
        "event_roles": list(
            EventRole.objects.filter(event=event)
            .select_related("user", "table__round", "granted_by")
            .order_by("role", "user__username", "table__round__number", "table__number")
        ),
        "role_kinds": ROLE_KINDS,
        "role_tables": list(
            Table.objects.filter(event=event).select_related("round").order_by("round__number", "number")
        ),
    }


def _answer(request: HttpRequest, event: Event, action: Callable[[], str]) -> HttpResponse:
    """Run the change; htmx gets the roles panel again (with the outcome), a plain form the page."""
    failed = None
    try:
        done, error = action(), None
    except EngineError as exc:
        done, error, failed = None, exc.message, exc
    if not is_htmx(request):
        if error:
            messages.error(request, error)
        else:
            messages.success(request, done)
        return redirect(reverse("tournaments:manage", args=[event.slug]) + "#roles")
    context = {"event": event, "role_error": error, "role_done": done, **roles_context(event)}
    return page(request, "tournaments/manage.html", context, partial="roles", status=error_status(failed))


def _table(event: Event, raw: str) -> Table | None:
    if not raw:
        return None
    if not raw.isdigit():
        raise EngineError(N_("Không có chiếu này."))
    table = Table.objects.select_related("round").filter(event=event, pk=int(raw)).first()
    if table is None:
        raise EngineError(N_("Không có chiếu này."))
    return table


@login_required
@require_POST
def role_add(request: HttpRequest, slug: str) -> HttpResponse:
    event = organised_event(request, slug)
    data = request.POST

    def action() -> str:
        kind, username = data.get("role", ""), data.get("username", "")
        if kind == ORGANISER:
            user = organiser_add(event=event, username=username, by=request.user)
            return gettext("Đã thêm “{user}” vào ban tổ chức.").format(user=user)
        table = _table(event, data.get("table", ""))
        grant = role_grant(event=event, username=username, role=kind, table=table, by=request.user)
        role, user = grant.get_role_display(), grant.user
        if table is None:
            return gettext("Đã cấp vai trò {role} cho “{user}” cho cả giải.").format(role=role, user=user)
        return gettext("Đã cấp vai trò {role} cho “{user}” ở vòng {round} · chiếu {table}.").format(
            role=role, user=user, round=table.round.number, table=table.number
        )

    return _answer(request, event, action)


@login_required
@require_POST
def role_end(request: HttpRequest, slug: str, role_id: int) -> HttpResponse:
    event = organised_event(request, slug)
    grant = get_object_or_404(EventRole.objects.select_related("user"), event=event, pk=role_id)

    def action() -> str:
        role_revoke(role=grant, by=request.user)
        return gettext("Đã thu hồi vai trò {role} của “{user}”.").format(
            role=grant.get_role_display(), user=grant.user
        )

    return _answer(request, event, action)


@login_required
@require_POST
def organiser_revoke(request: HttpRequest, slug: str, user_id: int) -> HttpResponse:
    event = organised_event(request, slug)
    user = get_object_or_404(get_user_model(), pk=user_id)

    def action() -> str:
        organiser_remove(event=event, user=user, by=request.user)
        return gettext("Đã bỏ “{user}” khỏi ban tổ chức.").format(user=user)

    return _answer(request, event, action)
