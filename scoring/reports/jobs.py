"""Big reports as jobs on the bulk lane.

A report view answers through :func:`report_or_job`: a small report (``size`` ván at most
``REPORT_JOB_MIN_VAN``) is built in the request exactly as before; a big one is never built in the
request. The request writes one row (:func:`scoring.services.report_files.report_file_request`)
keyed by the report and the ledger version it shows, and the Celery task ``bulk.render_report``
renders it on a worker with the renderer registered here under the report's ``kind``. Until the
file is there, the report's own address answers its progress page (htmx polls the progress; without
JavaScript the page refreshes itself); once it is, the same address serves the stored file, to
whoever passes the view's own access check, for as long as the ledger shows that version. A new
ván makes a new version, hence a new render; the older file is deleted when the new one is done.

The events app registers its own renderers (``tournaments/reports.py``): the ledger never imports it.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connection
from django.db.models import Count, OuterRef, Subquery
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from scoring.models import LedgerTransaction, ReportFile, ReportFileState, Sitting, Van, VanReview
from scoring.reports.tabular import XLSX, Sheet, xlsx_file
from scoring.services.report_files import (
    Progress,
    report_file_alive,
    report_file_fail,
    report_file_finish,
    report_file_request,
)

__all__ = [
    "RENDERERS",
    "STAGES",
    "XLSX",
    "counted_sheet",
    "pdf_stages",
    "register",
    "render_file",
    "report_or_job",
    "sitting_size_version",
    "xlsx_rows",
]

log = logging.getLogger(__name__)

#: A renderer: the row's parameters and a progress callback in, the file's bytes out.
Renderer = Callable[[dict[str, Any], Progress], bytes]
RENDERERS: dict[str, Renderer] = {}

#: The stages a render reports, as the progress page names them.
STAGES = {
    "data": _("Đọc sổ"),
    "layout": _("Dàn trang"),
    "write": _("Ghi tệp PDF"),
    "rows": _("Ghi các dòng"),
}

#: The heartbeat of a render in a stage without figures (a PDF's layout), in seconds.
HEARTBEAT = 5.0


def register(kind: str, renderer: Renderer) -> None:
    """Make ``kind`` renderable on the bulk lane (the same kind twice: the last one)."""
    RENDERERS[kind] = renderer


# -- what a request does ------------------------------------------------------------------------


def sitting_size_version(sitting_id: int) -> tuple[int, str]:
    """The sitting's current ván and the version of its ledger, in one query: the last ledger
    transaction, ván version and review (each only ever added, never edited), and the end of the
    sitting. Any ván, correction, confirmation or settlement makes a new version."""
    last = {
        "t": Subquery(
            LedgerTransaction.objects.filter(sitting=OuterRef("pk")).order_by("-pk").values("pk")[:1]
        ),
        "v": Subquery(Van.objects.filter(sitting=OuterRef("pk")).order_by("-pk").values("pk")[:1]),
        "r": Subquery(VanReview.objects.filter(van__sitting=OuterRef("pk")).order_by("-pk").values("pk")[:1]),
    }
    count = (
        Van.objects.filter(sitting=OuterRef("pk"), is_current=True)
        .order_by()
        .values("sitting")
        .annotate(c=Count("pk"))
        .values("c")[:1]
    )
    row = (
        Sitting.objects.filter(pk=sitting_id)
        .annotate(**last, n=Subquery(count))
        .values("t", "v", "r", "n", "final_at", "ended_at")
        .get()
    )
    ended = "".join(str(int(row[k].timestamp())) if row[k] else "-" for k in ("ended_at", "final_at"))
    return row["n"] or 0, f"t{row['t'] or 0}v{row['v'] or 0}r{row['r'] or 0}e{ended}"


def report_or_job(
    request: HttpRequest,
    *,
    kind: str,
    params: dict[str, Any],
    size: int,
    version: Callable[[], str],
    filename: str,
    content_type: str,
    inline: bool,
    build: Callable[[], HttpResponse],
) -> HttpResponse:
    """The report: built here (``build``) when ``size`` is small; else the stored file of this
    version, or its progress page while the bulk lane renders it. The caller has already checked
    that the request may see the report (the file is served only from behind that check)."""
    if size <= settings.REPORT_JOB_MIN_VAN:
        return build()
    if kind not in RENDERERS:  # a renderer that was not registered is a programming error
        raise LookupError(f"no renderer registered for {kind!r}")
    language = translation.get_language() or settings.LANGUAGE_CODE
    canonical = json.dumps(params, sort_keys=True, separators=(",", ":"))
    row = report_file_request(
        kind=kind,
        params=params,
        language=language,
        subject=f"{kind}:{canonical}:{language}"[:200],
        version=version(),
        filename=filename,
        content_type=content_type,
        inline=inline,
    )
    if row.state == ReportFileState.DONE and "tien-do" not in request.GET:
        return _serve(row)
    return _progress(request, row)


def _serve(row: ReportFile) -> HttpResponse:
    data = ReportFile.objects.filter(pk=row.pk).values_list("data", flat=True).first()
    response = HttpResponse(bytes(data or b""), content_type=row.content_type)
    disposition = "inline" if row.inline else "attachment"
    response["Content-Disposition"] = f'{disposition}; filename="{row.filename}"'
    response["Cache-Control"] = "private, no-store"
    return response


def _progress(request: HttpRequest, row: ReportFile) -> HttpResponse:
    ahead = 0
    if row.state == ReportFileState.QUEUED:
        ahead = ReportFile.objects.filter(state=ReportFileState.RUNNING).count() + (
            ReportFile.objects.filter(state=ReportFileState.QUEUED, created_at__lt=row.created_at).count()
        )
    percent = min(100, row.done * 100 // row.total) if row.total else 0
    done = row.state == ReportFileState.DONE
    context = {
        "row": row,
        "done": done,
        "file_url": request.path,
        "ahead": ahead,
        "percent": percent,
        "stage": STAGES.get(row.stage, ""),
        "poll": request.path + "?tien-do=1",
        "failed": row.state == ReportFileState.FAILED,
    }
    template = "reports/report_job.html"
    if getattr(request, "htmx", False):
        template += "#progress"
    response = render(request, template, context, status=200 if done else 202)
    response["Cache-Control"] = "no-store"
    return response


# -- what a worker does -----------------------------------------------------------------------


def render_file(file_id: int) -> None:
    """Render the row (already claimed by the caller) with its registered renderer, in its language,
    and store the file; a failure is stored on the row (the page says it) and raised."""
    row = ReportFile.objects.defer("data").get(pk=file_id)
    progress = Progress(file_id)
    try:
        renderer = RENDERERS[row.kind]
        with translation.override(row.language), _heartbeat(file_id):
            data = renderer(dict(row.params), progress)
    except Exception as exc:
        report_file_fail(file_id=file_id, error=f"{type(exc).__name__}: {exc}")
        raise
    report_file_finish(file_id=file_id, data=data)


class _heartbeat:
    """While a render runs, a thread marks its row alive every :data:`HEARTBEAT` seconds (a PDF's
    layout says nothing for a minute or more; the row must not look dead meanwhile)."""

    def __init__(self, file_id: int) -> None:
        self.file_id = file_id
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._beat, daemon=True, name=f"report-{file_id}")

    def _beat(self) -> None:
        try:
            while not self.stop.wait(HEARTBEAT):
                try:
                    report_file_alive(file_id=self.file_id)
                except Exception:  # a busy database: the next beat tries again
                    log.warning("heartbeat of report file %s failed", self.file_id, exc_info=True)
        finally:
            connection.close()

    def __enter__(self) -> _heartbeat:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()
        close_old_connections()


def pdf_stages(template: str, context: Callable[[], dict[str, Any]], progress: Progress) -> bytes:
    """A PDF in three reported stages: the ledger read (``context``), the layout, the writing
    (with its page count)."""
    from weasyprint import HTML  # imported here: loading pango is slow and only PDFs need it

    from scoring.reports.pdf import no_fetch

    progress("data", 0, 3, force=True)
    html = render_to_string(template, context())
    progress("layout", 1, 3, force=True)
    document = HTML(string=html, url_fetcher=no_fetch).render()
    progress("write", 2, 3, force=True)
    out: bytes = document.write_pdf()
    progress("write", 3, 3, force=True)
    return out


def xlsx_rows(rows: Iterable[Sequence[Any]], total: int, progress: Progress) -> Iterator[Sequence[Any]]:
    """``rows``, telling the progress as they are written (``done`` of ``total`` rows)."""
    done = 0
    for row in rows:
        yield row
        done += 1
        progress("rows", done, max(total, done))
    progress("rows", done, max(total, done), force=True)


def counted_sheet(sheet: Sheet, total: int, progress: Progress) -> bytes:
    """The sheet as XLSX bytes (written row by row on disk), its first table's rows counted."""
    progress("data", 0, max(total, 1), force=True)
    with xlsx_file(replace(sheet, rows=xlsx_rows(sheet.rows, total, progress))) as out:
        data: bytes = out.read()
    return data
