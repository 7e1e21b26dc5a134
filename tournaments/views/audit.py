"""The event's audit page (nhật ký) for its organisers: the trail of :func:`event_audit`, one page
at a time, or as CSV (``?dinh-dang=csv``)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from scoring.views.audit import audit_page, refuse
from tournaments.models import Event
from tournaments.permissions import visible
from tournaments.selectors.audit import event_audit

__all__ = ["event_audit_view"]


@require_http_methods(["GET", "HEAD"])
def event_audit_view(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    if not request.user.has_perm("tournaments.manage_event", event):
        if request.user.is_authenticated and not visible(request.user, event):
            raise Http404(gettext("Không có giải này."))  # a private event's existence is private too
        return refuse(request, gettext("Chỉ ban tổ chức giải mới xem được nhật ký của giải."))
    return audit_page(
        request,
        fetch=lambda offset, limit: event_audit(event, offset=offset, limit=limit),
        subject=event.name,
        filename=f"nhat-ky-{event.slug}",
        back=(reverse("tournaments:manage", args=[event.slug]), event.name),
        nav="tournaments",
    )
