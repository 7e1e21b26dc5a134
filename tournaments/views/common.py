"""Helpers shared by the tournaments views."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse

from scoring.engine import EngineError
from scoring.htmx import render_htmx
from scoring.respond import status_of


def page(
    request: HttpRequest,
    template: str,
    context: dict[str, Any],
    *,
    partial: str | None = None,
    status: int = 200,
) -> HttpResponse:
    """The page, or only its partial for an htmx request (:func:`scoring.htmx.render_htmx`)."""
    return render_htmx(request, template, {"nav": "tournaments", **context}, partial=partial, status=status)


def error_status(exc: EngineError | None, *, invalid: bool = False) -> int:
    """The status of a page that refused a write: the error's own (:func:`scoring.respond.status_of`:
    409 when the event's results are final, 400 for a mistake, as on every page and the API); a form
    that Django refused (``invalid``) as any bad input; 200 when nothing failed."""
    if exc is not None:
        return status_of(exc)
    return status_of(EngineError) if invalid else 200
