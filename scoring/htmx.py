"""htmx at the edge, once: :func:`render_htmx` renders a page or, for an htmx request, only the
partial of it that the request swaps; :class:`VaryOnHtmxMiddleware` says ``Vary: HX-Request`` on
every answer, so no cache hands a fragment to a full-page load (or the reverse)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers

__all__ = ["VaryOnHtmxMiddleware", "is_htmx", "render_htmx"]


def is_htmx(request: HttpRequest) -> bool:
    return bool(getattr(request, "htmx", False))


def render_htmx(
    request: HttpRequest,
    template: str,
    context: dict[str, Any],
    *,
    partial: str | None = None,
    status: int = 200,
) -> HttpResponse:
    """The whole page ``template``, or only its ``partial`` (django-template-partials) for htmx."""
    name = f"{template}#{partial}" if partial and is_htmx(request) else template
    return render(request, name, context, status=status)


class VaryOnHtmxMiddleware:
    """``Vary: HX-Request`` on every response of the app's pages and API (static files are served
    before it, by WhiteNoise)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        patch_vary_headers(response, ("HX-Request",))
        return response
