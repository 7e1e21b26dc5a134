"""Four checks every request passes through, and the answer to a statement out of time.

:class:`TrustworthyOriginMiddleware` sends no header the request's origin cannot honour: on plain
HTTP to another host than this machine (``make run HOST=0.0.0.0``: phones at
``http://192.168.x.y:8000/``) the browser ignores ``Cross-Origin-Opener-Policy`` and says so in
every page's console; it is sent on HTTPS and on localhost / 127.0.0.1, which are secure.

:class:`CallerMiddleware` makes the request the one being served
(:func:`scoring.services.idempotency.serving`): idempotency keys belong to its caller.

:class:`IdRangeMiddleware`: ids in URLs beyond what a database column can hold answer 404, not 500.

A path converter ``<int:pk>`` takes any run of digits. PostgreSQL compares a bigint with a larger
number and finds nothing; the embedded default (SQLite) cannot bind an integer beyond 64 bits at
all (``OverflowError``), so ``/api/v1/sittings/9223372036854775808`` was a 500 there. One check for every URL, before any view runs: no object has such an id.

:class:`StatementTimeoutMiddleware`: a view's PostgreSQL statement cancelled by its time bound
(``DATABASE_STATEMENT_TIMEOUT_MS``, ``totom_site/dbtime.py``) answers 503 with a message, logged,
instead of a bare 500 (pages and API alike: the API's handler leaves it to Django).
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import OperationalError
from django.http import Http404, HttpRequest, HttpResponse
from django.http.request import split_domain_port
from django.utils.translation import gettext

from scoring.api.parsers import INT_MAX
from scoring.refusals import Missing
from scoring.respond import respond, site_error
from scoring.services.idempotency import serving
from scoring.services.quotas import QuotaExceeded, settle

__all__ = [
    "CallerMiddleware",
    "IdRangeMiddleware",
    "QuotaMiddleware",
    "StatementTimeoutMiddleware",
    "TrustworthyOriginMiddleware",
    "origin",
    "too_slow",
    "trustworthy",
]

logger = logging.getLogger(__name__)

#: PostgreSQL's code of a statement cancelled (by ``statement_timeout``, or by an operator's
#: ``pg_cancel_backend``): psycopg's ``QueryCanceled``.
QUERY_CANCELED = "57014"
#: The status of a request whose statement ran out of time: the server could not answer it now.
UNAVAILABLE = 503

#: Headers a browser honours only in a secure context (and logs as ignored elsewhere).
SECURE_CONTEXT_HEADERS = (
    "Cross-Origin-Opener-Policy",
    "Cross-Origin-Embedder-Policy",
    "Origin-Agent-Cluster",
    "Strict-Transport-Security",
)


def trustworthy(request: HttpRequest) -> bool:
    """Whether the page's origin is a secure context: HTTPS, or this machine by a loopback name
    (what browsers count as "potentially trustworthy")."""
    if request.is_secure():
        return True
    host, _port = split_domain_port(request.META.get("HTTP_HOST", "") or request.META.get("SERVER_NAME", ""))
    if host == "localhost" or host.endswith(".localhost") or host == "[::1]":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def origin(request: HttpRequest) -> dict[str, bool]:
    """Context processor: ``plain_lan`` when the page is on plain HTTP to another host than this
    machine (the LAN's http://192.168.x.y:8000/) while the LAN's HTTPS is served: a page reloaded
    offline cannot come back there; the sổ điểm says so and points to the HTTPS (``/mang-noi-bo/``)."""
    return {"plain_lan": bool(settings.SOTOM_HTTPS_PORT) and not trustworthy(request)}


class TrustworthyOriginMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not trustworthy(request):
            for name in SECURE_CONTEXT_HEADERS:
                if name in response:
                    del response[name]
        return response


class CallerMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with serving(request=request):
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
                    return respond(Missing(message), request)
                raise Http404(message)  # a page: Django's 404 page
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
        settle(request=request, kept=kept)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, QuotaExceeded):
            return None
        return respond(exception, request, page=True)  # the quota page, 429 with Retry-After


class StatementTimeoutMiddleware:
    """503 with a message (:func:`too_slow`) when a view's statement was cancelled for running
    longer than ``DATABASE_STATEMENT_TIMEOUT_MS``; logged with the request."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError):
            return None
        if getattr(exception.__cause__, "sqlstate", None) != QUERY_CANCELED:
            return None  # another database failure: Django's 500, as before
        user = getattr(request, "user", None)
        logger.warning(
            "statement cancelled (time bound %s ms): %s %s, account %s: %s",
            settings.DATABASE_STATEMENT_TIMEOUT_MS,
            request.method,
            request.path,
            getattr(user, "pk", None),
            str(exception).strip().splitlines()[0] if str(exception).strip() else type(exception).__name__,
        )
        return too_slow(request)


def too_slow(request: HttpRequest) -> HttpResponse:
    """A request whose database statement was cancelled for running longer than its bound: 503,
    the message in the request's language; under ``/api/`` JSON ``{"error", "code"}`` as every API
    error, elsewhere ``templates/503.html``."""
    message = gettext(
        "Yêu cầu này chạy quá lâu nên máy chủ đã dừng nó. Hãy thử lại sau ít phút; nếu vẫn không được, "
        "hãy báo người quản trị trang."
    )
    try:
        return site_error(
            request, message=message, code="statement_timeout", status=UNAVAILABLE, template="503.html"
        )
    except Exception:  # the page itself needs the database (the signed-in user…): the message alone
        return HttpResponse(message, status=UNAVAILABLE, content_type="text/plain; charset=utf-8")
