"""Tables as CSV (UTF-8 with a byte-order mark, so Excel opens Vietnamese names correctly) and
XLSX (tablib / openpyxl), with numbers kept as numbers and formula-looking text neutralised.

This is the project's **one** CSV writer (:func:`csv_table`, :func:`csv_download`): every CSV the
app serves (the sitting's ledger, ván and statements; the event's standings and statements; every
audit trail) is written here, so none can skip the formula escaping (issue 20, finding 6; a test
fails if another module calls ``csv.writer``). The events app uses it from here (the ledger never
depends on the events app: an import contract checks it, see docs/architecture.md).
"""

from __future__ import annotations

import csv
import io
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import tablib
from django.http import FileResponse, HttpResponse, StreamingHttpResponse
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Font

__all__ = [
    "BOM",
    "Sheet",
    "csv_bytes",
    "csv_download",
    "csv_table",
    "safe",
    "sheet_response",
    "sheet_stream_response",
    "xlsx_bytes",
]

BOM = "\ufeff"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
#: Excel limits a sheet's title to 31 characters.
TITLE_MAX = 31


@dataclass(frozen=True)
class Sheet:
    """One table: its title (the XLSX sheet's name), its header and its rows."""

    title: str
    headers: Sequence[str]
    #: Any iterable: a generator is read once, row by row (:func:`sheet_stream_response`).
    rows: Iterable[Sequence[Any]]
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


def _padded(sheet: Sheet) -> Iterator[list[Any]]:
    width = len(sheet.headers)
    return ([safe(v) for v in row] + [""] * (width - len(row)) for row in sheet.rows)


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


#: Bytes of CSV gathered before a chunk of a streamed download is sent.
CHUNK = 64 * 1024


def csv_chunks(sheet: Sheet) -> Iterator[bytes]:
    """:func:`csv_bytes` in chunks, its rows read as they come (nothing but a chunk is held)."""
    buffer = io.StringIO()
    buffer.write(BOM)
    writer = csv.writer(buffer)
    writer.writerow([safe(h) for h in sheet.headers])
    for row in _padded(sheet):
        writer.writerow(row)
        if buffer.tell() >= CHUNK:
            yield buffer.getvalue().encode("utf-8")
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue().encode("utf-8")


def xlsx_file(sheet: Sheet) -> Any:
    """:func:`xlsx_bytes` written row by row to a temporary file (openpyxl's write-only workbook:
    rows go to disk as they are appended), answered open at its start."""
    book = Workbook(write_only=True)
    bold = Font(bold=True)
    for one in (sheet, *sheet.more):
        ws = book.create_sheet(one.title[:TITLE_MAX])
        ws.freeze_panes = "A2"
        header = []
        for h in one.headers:
            cell = WriteOnlyCell(ws, value=safe(h))
            cell.font = bold
            header.append(cell)
        ws.append(header)
        for row in _padded(one):
            ws.append(row)
    out = tempfile.TemporaryFile()  # noqa: SIM115 (closed by the response once sent)
    book.save(out)
    out.seek(0)
    return out


def sheet_stream_response(sheet: Sheet, fmt: str, filename: str) -> StreamingHttpResponse | FileResponse:
    """:func:`sheet_response` for a long table whose rows are a generator: CSV streamed as its rows
    are read, XLSX built on disk and streamed from there; the table is never held in memory."""
    name = f"{filename}.{fmt}"
    if fmt == "xlsx":
        return FileResponse(xlsx_file(sheet), as_attachment=True, filename=name, content_type=XLSX)
    response = StreamingHttpResponse(csv_chunks(sheet), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def sheet_response(sheet: Sheet, fmt: str, filename: str) -> HttpResponse:
    """A download of ``sheet`` as ``fmt`` ("csv" or "xlsx"); ``filename`` without extension."""
    if fmt == "xlsx":
        response = HttpResponse(xlsx_bytes(sheet), content_type=XLSX)
    else:
        response = HttpResponse(csv_bytes(sheet), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}.{fmt}"'
    return response
