"""Tables as CSV (UTF-8 with a byte-order mark, so Excel opens Vietnamese names correctly) and
XLSX (tablib / openpyxl), with numbers kept as numbers and formula-looking text neutralised.

This is the project's **one** CSV writer (:func:`csv_table`, :func:`csv_download`): every CSV the
app serves (the sitting's ledger, ván and statements; the event's standings and statements; every
audit trail) is written here, so none can skip the formula escaping (issue 20, finding 6; a test
fails if another module calls ``csv.writer``). The tournaments app imports it from here (``scoring``
never imports ``tournaments``).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import tablib
from django.http import HttpResponse

__all__ = ["BOM", "Sheet", "csv_bytes", "csv_download", "csv_table", "safe", "sheet_response", "xlsx_bytes"]

BOM = "\ufeff"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
#: Excel limits a sheet's title to 31 characters.
TITLE_MAX = 31


@dataclass(frozen=True)
class Sheet:
    """One table: its title (the XLSX sheet's name), its header and its rows."""

    title: str
    headers: Sequence[str]
    rows: Sequence[Sequence[Any]]
    #: Extra sheets of the same workbook (XLSX only; CSV has one table).
    more: Sequence[Sheet] = field(default_factory=tuple)


#: What a spreadsheet reads as the start of a formula (OWASP's list: = + - @, tab, carriage return).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe(value: Any) -> Any:
    """Text a spreadsheet would run as a formula ("=…", "+…", "-…", "@…") gets an apostrophe;
    numbers stay numbers."""
    if isinstance(value, str) and value[:1] in FORMULA_START:
        return "'" + value
    return value


def _padded(sheet: Sheet) -> list[list[Any]]:
    width = len(sheet.headers)
    return [[safe(v) for v in row] + [""] * (width - len(row)) for row in sheet.rows]


def csv_table(headers: Sequence[Any], rows: Iterable[Sequence[Any]]) -> bytes:
    """A header and rows as CSV bytes: UTF-8 with a byte-order mark, every cell through :func:`safe`."""
    buffer = io.StringIO()
    buffer.write(BOM)
    writer = csv.writer(buffer)
    writer.writerow([safe(h) for h in headers])
    writer.writerows([safe(v) for v in row] for row in rows)
    return buffer.getvalue().encode("utf-8")


def csv_bytes(sheet: Sheet) -> bytes:
    return csv_table(sheet.headers, _padded(sheet))


def csv_download(filename: str, headers: Sequence[Any], rows: Iterable[Sequence[Any]]) -> HttpResponse:
    """A CSV download (``filename`` with its extension) of a header and rows."""
    response = HttpResponse(csv_table(headers, rows), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _dataset(sheet: Sheet) -> tablib.Dataset:
    data = tablib.Dataset(headers=[safe(h) for h in sheet.headers], title=sheet.title[:TITLE_MAX])
    for row in _padded(sheet):
        data.append(row)
    return data


def xlsx_bytes(sheet: Sheet) -> bytes:
    """The sheet (and its ``more`` sheets) as an XLSX workbook, the header row frozen and bold."""
    book = tablib.Databook([_dataset(s) for s in (sheet, *sheet.more)])
    out: bytes = book.export("xlsx")
    return out


def sheet_response(sheet: Sheet, fmt: str, filename: str) -> HttpResponse:
    """A download of ``sheet`` as ``fmt`` ("csv" or "xlsx"); ``filename`` without extension."""
    if fmt == "xlsx":
        response = HttpResponse(xlsx_bytes(sheet), content_type=XLSX)
    else:
        response = HttpResponse(csv_bytes(sheet), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}.{fmt}"'
    return response
