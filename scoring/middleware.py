"""Two checks every request passes through.

:class:`CallerMiddleware` makes the request the one being served
(:func:`scoring.services.idempotency.serving`): idempotency keys belong to its caller.

:class:`IdRangeMiddleware`: ids in URLs beyond what a database column can hold answer 404, not 500.

A path converter ``<int:pk>`` takes any run of digits. PostgreSQL compares a bigint with a larger
number and finds nothing; the embedded default (SQLite) cannot bind an integer beyond 64 bits at
all (``OverflowError``), so ``/api/v1/sittings/9223372036854775808`` was a 500 there (issue 20,
finding 9). One check for every URL, before any view runs: no object has such an id.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext

from scoring.api.parsers import INT_MAX
from scoring.services.idempotency import serving
from scoring.services.quotas import QuotaExceeded, settle

__all__ = ["CallerMiddleware", "IdRangeMiddleware", "QuotaMiddleware"]


class CallerMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with serving(request):
            return self.get_response(request)


class IdRangeMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Any, args: Any, kwargs: dict[str, Any]
    ) -> HttpResponse | None:
        for value in (*args, *kwargs.values()):
            if (
                isinstance(value, int)
                and not isinstance(value, bool)
                and not -INT_MAX - 1 <= value <= INT_MAX
            ):
                message = gettext("Không có mục mang số %(n)s: mọi mã số đều nhỏ hơn 2^63.") % {"n": value}
                if request.path.startswith("/api/"):
                    return JsonResponse(
                        {"error": message}, status=404, json_dumps_params={"ensure_ascii": False}
                    )
                raise Http404(message)
        return None


class QuotaMiddleware:
    """The pages' answer to an account over its quota (:mod:`scoring.services.quotas`): 429 with
    ``Retry-After`` and the message in the page's language (htmx gets the message only). The API
    answers it through its one exception handler (``scoring/api/errors.py``). On every answer, pages
    and API, what a request was charged is given back unless its write happened."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        # Only a write that happened uses up a quota: a refused or replayed one is given back.
        kept = response.status_code < 400 and not response.has_header("Idempotent-Replayed")
        settle(request, kept=kept)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, QuotaExceeded):
            return None
        template = "accounts/quota.html"
        if request.headers.get("HX-Request") == "true":
            template += "#quota"
        response = render(request, template, {"message": exception.message}, status=429)
        response["Retry-After"] = str(exception.retry_after)
        return response
