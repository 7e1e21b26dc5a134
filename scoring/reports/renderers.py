"""The sitting's big reports rendered on the bulk lane (:mod:`scoring.reports.jobs`): the report PDF,
the ledger and ván XLSX, a player's statement as PDF and XLSX. Registered when the app is ready."""

from __future__ import annotations

from typing import Any

from scoring.models import Posting, Sitting, Van
from scoring.reports import data, tasks  # noqa: F401  (tasks: bulk.render_report, registered)
from scoring.reports.jobs import counted_sheet, pdf_stages, register
from scoring.services.report_files import Progress

__all__ = ["KINDS"]


def _sitting(params: dict[str, Any]) -> Sitting:
    return Sitting.objects.select_related("rules").get(pk=params["sitting"])


def _current(sitting: Sitting) -> int:
    return Van.objects.filter(sitting=sitting, is_current=True).count()


def report_pdf(params: dict[str, Any], progress: Progress) -> bytes:
    sitting = _sitting(params)
    return pdf_stages("reports/sitting_report.html", lambda: data.sitting_report(sitting), progress)


def ledger_xlsx(params: dict[str, Any], progress: Progress) -> bytes:
    sitting = _sitting(params)
    total = Posting.objects.filter(sitting=sitting).count()
    return counted_sheet(data.ledger_sheet(sitting), total, progress)


def van_xlsx(params: dict[str, Any], progress: Progress) -> bytes:
    sitting = _sitting(params)
    return counted_sheet(data.van_sheet(sitting), _current(sitting), progress)


def statement_pdf(params: dict[str, Any], progress: Progress) -> bytes:
    sitting = _sitting(params)
    return pdf_stages("reports/statement.html", lambda: data.statement(sitting, params["position"]), progress)


def statement_xlsx(params: dict[str, Any], progress: Progress) -> bytes:
    sitting = _sitting(params)
    progress("data", 0, 1, force=True)
    sheet = data.statement_sheet(data.statement(sitting, params["position"]))
    return counted_sheet(sheet, _current(sitting), progress)


KINDS = {
    "sitting.report_pdf": report_pdf,
    "sitting.ledger_xlsx": ledger_xlsx,
    "sitting.van_xlsx": van_xlsx,
    "sitting.statement_pdf": statement_pdf,
    "sitting.statement_xlsx": statement_xlsx,
}
for _kind, _renderer in KINDS.items():
    register(_kind, _renderer)
