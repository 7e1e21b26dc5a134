"""Helpers shared by the tournaments views."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse

from scoring.engine import EngineError
from scoring.htmx import render_htmx
from scoring.services.van import ResultsFinal


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


def error_status(exc: EngineError | None) -> int:
    """The status of a page refusing a write: 409 when the event's results are final (finished),
    422 for any other mistake, 200 when nothing failed."""
    if exc is None:
        return 200
    return 409 if isinstance(exc, ResultsFinal) else 422
