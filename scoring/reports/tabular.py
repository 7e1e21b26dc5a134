"""Tables as CSV (UTF-8 with a byte-order mark, so Excel opens Vietnamese names correctly) and
XLSX (openpyxl), with numbers kept as numbers and formula-looking text neutralised.

CSV numbers: a comma between cells, a point before decimals, decimals always two ("68.00"), in
every CSV the app serves: the file is read by programs and by spreadsheets in any language. The
page shows the same digits with the Vietnamese comma ("68,00"); the XLSX holds real numbers that a
spreadsheet shows in its own language (README: "CSV and XLSX files").

Formulas: in CSV a cell that starts with = + - @ (or a tab, a carriage return) gets an apostrophe,
as OWASP advises (a CSV cell has no type); the XLSX writes every text cell as text (type "s"), so
nothing runs and nothing is prefixed.

This is the project's **one** CSV writer (:func:`csv_table`, :func:`csv_download`): every CSV the
app serves (the sitting's ledger, ván and statements; the event's standings and statements; every
audit trail) is written here, so none can skip the formula escaping (a test
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

from django.http import FileResponse, HttpResponse, StreamingHttpResponse
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Font

__all__ = [
    "BOM",
    "Sheet",
    "csv_bytes",
    "csv_cell",
    "detail_line",
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


#: Decimals of a fractional number in a CSV (points per ván): the same on every row.
CSV_DECIMALS = 2


def csv_cell(value: Any) -> Any:
    """A cell as a CSV writes it: formula-looking text neutralised (:func:`safe`), a fractional
    number with a point and :data:`CSV_DECIMALS` decimals ("68.00")."""
    if isinstance(value, float):
        return f"{value:.{CSV_DECIMALS}f}"
    return safe(value)


def detail_line(other: str, amount: int, why: str) -> str:
    """One transfer in a statement's detail cell, "An: +8 (ù Tôm)": the account first, so the cell
    never starts with a sign (a CSV would prefix it with an apostrophe)."""
    return f"{other}: {amount:+d} ({why})"


def _padded(sheet: Sheet, cell: Any = csv_cell) -> Iterator[list[Any]]:
    width = len(sheet.headers)
    return ([cell(v) for v in row] + [""] * (width - len(row)) for row in sheet.rows)


def csv_table(headers: Sequence[Any], rows: Iterable[Sequence[Any]]) -> bytes:
    """A header and rows as CSV bytes: UTF-8 with a byte-order mark, every cell through :func:`csv_cell`."""
    buffer = io.StringIO()
    buffer.write(BOM)
    writer = csv.writer(buffer)
    writer.writerow([safe(h) for h in headers])
    writer.writerows([csv_cell(v) for v in row] for row in rows)
    return buffer.getvalue().encode("utf-8")


def csv_bytes(sheet: Sheet) -> bytes:
    return csv_table(sheet.headers, _padded(sheet))


def csv_download(filename: str, headers: Sequence[Any], rows: Iterable[Sequence[Any]]) -> HttpResponse:
    """A CSV download (``filename`` with its extension) of a header and rows."""
    response = HttpResponse(csv_table(headers, rows), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def xlsx_bytes(sheet: Sheet) -> bytes:
    """The sheet (and its ``more`` sheets) as an XLSX workbook, the header row frozen and bold."""
    with xlsx_file(sheet) as out:
        data: bytes = out.read()
    return data


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


def _xlsx_cell(ws: Any, value: Any, *, font: Font | None = None) -> Any:
    """A cell of a write-only sheet: text stays text (type "s": "=1+1" or "-8 (An)" is shown as
    typed, never run as a formula and never prefixed with an apostrophe); numbers stay numbers."""
    cell = WriteOnlyCell(ws, value=value)
    if isinstance(value, str):
        cell.data_type = "s"
    if font is not None:
        cell.font = font
    return cell


def xlsx_file(sheet: Sheet) -> Any:
    """:func:`xlsx_bytes` written row by row to a temporary file (openpyxl's write-only workbook:
    rows go to disk as they are appended), answered open at its start."""
    book = Workbook(write_only=True)
    bold = Font(bold=True)
    for one in (sheet, *sheet.more):
        ws = book.create_sheet(one.title[:TITLE_MAX])
        ws.freeze_panes = "A2"
        ws.append([_xlsx_cell(ws, h, font=bold) for h in one.headers])
        for row in _padded(one, cell=lambda v: v):
            ws.append([_xlsx_cell(ws, v) for v in row])
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
