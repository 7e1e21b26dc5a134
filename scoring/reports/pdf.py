"""PDF by WeasyPrint from a template: DejaVu fonts (Debian's fonts-dejavu-core) so every
Vietnamese diacritic renders; no network access (images and SVG are inline)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

__all__ = ["no_fetch", "pdf_bytes", "pdf_response"]


def no_fetch(url: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
    """The PDF never fetches anything (a festival laptop may have no network)."""
    raise ValueError(f"PDF không tải tài nguyên ngoài: {url}")


def pdf_bytes(template: str, context: dict[str, Any], request: HttpRequest | None = None) -> bytes:
    from weasyprint import HTML  # imported here: loading pango is slow and only PDFs need it

    html = render_to_string(template, context, request)
    out: bytes = HTML(string=html, url_fetcher=no_fetch).write_pdf()
    return out


def pdf_response(
    template: str, context: dict[str, Any], request: HttpRequest, filename: str, *, inline: bool = True
) -> HttpResponse:
    """The PDF, shown in the browser (``inline``) or downloaded; ``filename`` without extension."""
    response = HttpResponse(pdf_bytes(template, context, request), content_type="application/pdf")
    disposition = "inline" if inline else "attachment"
    response["Content-Disposition"] = f'{disposition}; filename="{filename}.pdf"'
    return response
