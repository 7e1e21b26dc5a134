"""Reports of a sitting: the "in và xuất" page (links and the balance chart), CSV/XLSX of the
ledger, the ván and a player's statement, PDF report, statement and score sheet, JSON backup."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from scoring.access import Refusal, refuse, sitting_for
from scoring.backup import sitting_document
from scoring.models import Sitting
from scoring.permissions import VIEW
from scoring.reports import data
from scoring.reports.jobs import XLSX, report_or_job, sitting_size_version
from scoring.reports.pdf import pdf_response
from scoring.reports.sheets import score_sheet
from scoring.reports.tabular import sheet_response, sheet_stream_response
from scoring.respond import respond
from scoring.text import vi_slugify

FORMATS = ("csv", "xlsx")


def _sitting(request: HttpRequest, pk: int) -> Sitting:
    """The sitting, if the request may see it (every report is as private as the sitting)."""
    return sitting_for(request, pk, VIEW)


def _guarded(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A sitting the request may not see: the sign-in page, or a Vietnamese 403."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except Refusal as refusal:
            return refuse(request, refusal)

    return wrapper


def _name(sitting: Sitting, what: str) -> str:
    return f"canh-bai-{sitting.pk}-{what}"


def _big(
    request: HttpRequest,
    sitting: Sitting,
    kind: str,
    filename: str,
    build: Callable[[], HttpResponse],
    **params: Any,
) -> HttpResponse:
    """A PDF or XLSX of the sitting: built here when the sitting is small, else rendered on the
    bulk lane and served from there (:func:`scoring.reports.jobs.report_or_job`)."""
    size, version = sitting_size_version(sitting.pk)
    pdf = filename.endswith(".pdf")
    return report_or_job(
        request,
        kind=kind,
        params={"sitting": sitting.pk, **params},
        size=size,
        version=lambda: version,
        filename=filename,
        content_type="application/pdf" if pdf else XLSX,
        inline=pdf,
        build=build,
    )


@require_GET
@_guarded
def exports_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Every print and export of the sitting, and the chart of the balances over the ván."""
    sitting = _sitting(request, pk)
    seats = list(sitting.seats.order_by("position"))
    return render(
        request,
        "reports/sitting_exports.html",
        {
            "nav": "sitting",
            "sitting": sitting,
            "seats": seats,
            "formats": FORMATS,
            "chart_url": reverse("scoring:report_chart", args=[pk]),
        },
    )


@require_GET
@_guarded
def ledger_export(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    sitting = _sitting(request, pk)
    name = _name(sitting, "so-cai")
    build = lambda: sheet_stream_response(data.ledger_sheet(sitting), fmt, name)  # noqa: E731
    if fmt == "xlsx":
        return _big(request, sitting, "sitting.ledger_xlsx", f"{name}.xlsx", build)
    return build()


@require_GET
@_guarded
def van_export(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    sitting = _sitting(request, pk)
    name = _name(sitting, "cac-van")
    build = lambda: sheet_stream_response(data.van_sheet(sitting), fmt, name)  # noqa: E731
    if fmt == "xlsx":
        return _big(request, sitting, "sitting.van_xlsx", f"{name}.xlsx", build)
    return build()


@require_GET
@_guarded
def report_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    sitting = _sitting(request, pk)
    name = _name(sitting, "bao-cao")
    return _big(
        request,
        sitting,
        "sitting.report_pdf",
        f"{name}.pdf",
        lambda: pdf_response("reports/sitting_report.html", data.sitting_report(sitting), request, name),
    )


@require_GET
@_guarded
def statement_export(request: HttpRequest, pk: int, position: int, fmt: str) -> HttpResponse:
    sitting = _sitting(request, pk)
    seat = sitting.seats.filter(position=position).first()
    if seat is None or fmt == "csv":  # a CSV is small and streamed; an unknown seat answers as before
        return _statement(request, sitting, position, fmt)
    filename = _name(sitting, "sao-ke-" + (vi_slugify(seat.name) or str(position)))
    return _big(
        request,
        sitting,
        f"sitting.statement_{fmt}",
        f"{filename}.{fmt}",
        lambda: _statement(request, sitting, position, fmt),
        position=position,
    )


def _statement(request: HttpRequest, sitting: Sitting, position: int, fmt: str) -> HttpResponse:
    context = data.statement(sitting, position)
    filename = _name(sitting, "sao-ke-" + (vi_slugify(context["name"]) or str(position)))
    if fmt == "pdf":
        return pdf_response("reports/statement.html", context, request, filename)
    return sheet_response(data.statement_sheet(context), fmt, filename)


@require_GET
@_guarded
def score_sheet_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    """A blank score sheet for this sitting; its QR code opens the sitting's page."""
    sitting = _sitting(request, pk)
    url = request.build_absolute_uri(reverse("scoring:sitting", args=[pk]))
    sheet = score_sheet(sitting, url, rows=_rows(request))
    return pdf_response(
        "reports/score_sheets.html", {"sheets": [sheet]}, request, _name(sitting, "phieu-ghi")
    )


def _rows(request: HttpRequest) -> int | None:
    try:
        return int(request.GET.get("van", ""))
    except ValueError:
        return None


@require_GET
@_guarded
def backup_json(request: HttpRequest, pk: int) -> HttpResponse:
    """The sitting in the backup format (see :mod:`scoring.backup`)."""
    sitting = _sitting(request, pk)
    document = sitting_document(sitting)
    response = HttpResponse(
        json.dumps(document, ensure_ascii=False, indent=1), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{_name(sitting, "sao-luu")}.json"'
    return response


@require_GET
def chart_json(request: HttpRequest, pk: int) -> JsonResponse:
    """Each player's balance after every ván: the data of the chart (Chart.js line datasets)."""
    try:
        sitting = _sitting(request, pk)
    except Refusal as refusal:  # 401 / 403 JSON
        return respond(refusal, request)
    series: dict[str, Any] = data.balance_series(sitting)
    return JsonResponse(series, json_dumps_params={"ensure_ascii": False})
