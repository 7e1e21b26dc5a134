"""Helpers shared by the tournaments views."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers

from scoring.engine import EngineError
from scoring.services.van import ResultsFinal


def is_htmx(request: HttpRequest) -> bool:
    return bool(getattr(request, "htmx", False))


def page(request: HttpRequest, template: str, context: dict[str, Any], *, partial: str | None = None,
         status: int = 200) -> HttpResponse:
    """Render the page, or only its partial for an htmx request; always ``Vary: HX-Request``."""
    name = f"{template}#{partial}" if partial and is_htmx(request) else template
    response = render(request, name, {"nav": "tournaments", **context}, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response


def error_status(exc: EngineError | None) -> int:
    """The status of a page refusing a write: 409 when the event's results are final (finished),
    422 for any other mistake, 200 when nothing failed."""
    if exc is None:
        return 200
    return 409 if isinstance(exc, ResultsFinal) else 422
