"""The audit pages (nhật ký) of a sitting, a club and the village rule sets, for the people allowed
to audit them; :func:`audit_page` also renders the event's trail (tournaments).

A page shows one page of entries (``?trang=``), newest first, times in Vietnam's time zone;
``?dinh-dang=csv`` downloads the trail (the newest :data:`EXPORT_LIMIT` entries, the same columns)
as UTF-8 CSV with a byte-order mark, so Excel opens the Vietnamese text as it is, by the project's
one CSV writer (:func:`scoring.reports.tabular.csv_download`: names and reasons that look like a
formula are neutralised).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext, gettext_noop
from django.views.decorators.http import require_http_methods

from scoring.access import denied, get_sitting, to_login
from scoring.models import Club
from scoring.permissions import AUDIT, can
from scoring.reports.tabular import csv_download
from scoring.selectors.audit import PAGE_SIZE, AuditEntry, club_audit, rules_audit, sitting_audit
from scoring.views.sitting.common import missing_in_vietnamese

__all__ = [
    "EXPORT_LIMIT",
    "audit_page",
    "club_audit_view",
    "refuse",
    "rules_audit_view",
    "sitting_audit_view",
]

TEMPLATE = "scoring/audit.html"
VIETNAM = ZoneInfo("Asia/Ho_Chi_Minh")
#: The CSV holds at most this many entries (the newest).
EXPORT_LIMIT = 5000
#: Pages beyond this are not served (the CSV holds the long tail).
MAX_PAGE = EXPORT_LIMIT // PAGE_SIZE
#: The CSV's columns, the page's own headers: in the request's language (English on ``/en/``).
CSV_HEADER = [
    gettext_noop("Thời gian"),
    gettext_noop("Người làm"),
    gettext_noop("Việc"),
    gettext_noop("Đối tượng"),
    gettext_noop("Chi tiết"),
]

#: (offset, limit) → entries newest first.
Fetch = Callable[[int, int], list[AuditEntry]]


def local_time(when: datetime) -> str:
    return when.astimezone(VIETNAM).strftime("%d/%m/%Y %H:%M:%S")


def refuse(request: HttpRequest, message: str) -> HttpResponse:
    """Not signed in: to the login page (and back here). Signed in but not allowed: 403 in Vietnamese."""
    if not request.user.is_authenticated:
        return to_login(request)
    return denied(request, message)


def _page_number(request: HttpRequest) -> int:
    raw = request.GET.get("trang", "1")
    return min(max(int(raw), 1), MAX_PAGE) if raw.isdigit() else 1


def _csv(entries: list[AuditEntry], filename: str) -> HttpResponse:
    rows = ([local_time(e.when), e.who, e.action, e.object, e.detail] for e in entries)
    return csv_download(f"{filename}.csv", [gettext(h) for h in CSV_HEADER], rows)


def audit_page(
    request: HttpRequest,
    *,
    fetch: Fetch,
    subject: str,
    filename: str,
    back: tuple[str, str] | None = None,
    **extra: Any,
) -> HttpResponse:
    """One page of the trail of ``subject`` (``?trang=``), or the CSV of it (``?dinh-dang=csv``);
    ``back`` is a link (url, text) to the subject's own page."""
    if request.GET.get("dinh-dang") == "csv":
        return _csv(fetch(0, EXPORT_LIMIT), filename)
    page = _page_number(request)
    entries = fetch((page - 1) * PAGE_SIZE, PAGE_SIZE + 1)
    context = {
        "subject": subject,
        "back": back,
        "page": page,
        "has_next": len(entries) > PAGE_SIZE,
        "rows": [
            {"entry": e, "time": local_time(e.when), "iso": e.when.isoformat()} for e in entries[:PAGE_SIZE]
        ],
        **extra,
    }
    response = render(request, TEMPLATE, context)
    patch_vary_headers(response, ("Cookie",))
    response["Cache-Control"] = "private, no-store"
    return response


@require_http_methods(["GET", "HEAD"])
@missing_in_vietnamese
def sitting_audit_view(request: HttpRequest, pk: int) -> HttpResponse:
    sitting = get_sitting(pk)
    if not can(request, AUDIT, sitting):
        return refuse(
            request,
            gettext("Chỉ người mở canh bài, chủ sổ của làng và ban tổ chức mới xem được nhật ký này."),
        )
    return audit_page(
        request,
        fetch=lambda offset, limit: sitting_audit(sitting, offset=offset, limit=limit),
        subject=sitting.display_name,
        filename=f"nhat-ky-canh-{sitting.pk}",
        back=(reverse("scoring:sitting", args=[sitting.pk]), sitting.display_name),
        nav="sitting",
    )


@require_http_methods(["GET", "HEAD"])
def club_audit_view(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    if not request.user.has_perm("scoring.manage_club", club):
        return refuse(request, gettext("Chỉ chủ sổ (ban tổ chức) của làng mới xem được nhật ký của làng."))
    return audit_page(
        request,
        fetch=lambda offset, limit: club_audit(club, offset=offset, limit=limit),
        subject=club.name,
        filename=f"nhat-ky-{club.slug}",
        nav="sitting",
    )


@require_http_methods(["GET", "HEAD"])
def rules_audit_view(request: HttpRequest) -> HttpResponse:
    if not (request.user.is_authenticated and request.user.is_active and request.user.is_staff):
        return refuse(request, gettext("Chỉ quản trị viên mới xem được nhật ký lệ làng."))
    return audit_page(
        request,
        fetch=lambda offset, limit: rules_audit(offset=offset, limit=limit),
        subject=gettext("Lệ làng"),
        filename="nhat-ky-le-lang",
        back=(reverse("scoring:rules"), gettext("Lệ làng")),
        nav="rules",
    )
