"""The API's one exception handler (``REST_FRAMEWORK["EXCEPTION_HANDLER"]``): every refusal of the
project's API views is ``{"error": "<message>", "code": "<code>", …}`` in the language of the request.

A user error (:class:`scoring.engine.EngineError`) is answered by :func:`scoring.respond.body_of`
with its status from the one table (:func:`scoring.errors.status_of`): its message in the active
language, its stable code, its extra fields (``state`` of a 409 ván conflict…); so is a refusal of
:mod:`scoring.refusals` (a body too large, 413; an account over its quota, 429 ``over_quota`` with
``Retry-After``), on any view. For DRF's refusals
DRF's own handler decides the status and the headers (``WWW-Authenticate`` with a 401, 403 when a
view has no challenge) and the code is DRF's (``not_authenticated``, ``throttled``…); this one words
the message: a body that is not JSON, a media type or
method the address does not take, a refused credential, a rate limit (with ``Retry-After`` in whole
seconds). A view words a refusal its own way with :attr:`ApiErrors.refusals`. Views that are not the
project's (the schema's) keep DRF's answers.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from scoring.api.parsers import UnsafeJSON
from scoring.engine import EngineError
from scoring.errors import body_of, status_of

__all__ = [
    "AUTHENTICATE",
    "BAD_MEDIA",
    "BAD_TOKEN",
    "CSRF_FAILED",
    "LOGIN_FIRST",
    "NO_SUCH_METHOD",
    "TOO_MANY",
    "ApiErrors",
    "exception_handler",
]

#: The challenge sent with a 401: a session cookie (the site's sign-in page) or a token header.
AUTHENTICATE = 'Token realm="so-tom", Bearer realm="so-tom", Session realm="so-tom"'
BAD_MEDIA = gettext_lazy("Nội dung yêu cầu phải là JSON (tiêu đề Content-Type: application/json).")
NO_SUCH_METHOD = gettext_lazy("Địa chỉ này không nhận phương thức {method}: xem /api/docs/.")
LOGIN_FIRST = gettext_lazy(
    "Cần đăng nhập: gửi kèm phiên đăng nhập của trang (cookie), tiêu đề "
    "'Authorization: Token <mã>' của tài khoản, hoặc 'Authorization: Bearer <mã nền tảng>'."
)
BAD_TOKEN = gettext_lazy("Mã đăng nhập (token) không đúng hoặc tài khoản đã bị khóa: hãy lấy mã mới.")
CSRF_FAILED = gettext_lazy(
    "Yêu cầu bị từ chối vì thiếu hoặc sai mã chống giả mạo (CSRF) của trang: hãy tải lại trang rồi gửi lại."
)
TOO_MANY = gettext_lazy("Gửi quá nhiều yêu cầu: hãy chờ {seconds} giây rồi gửi lại.")

#: How a refusal is worded: a message, or a function of the exception and the request.
Wording = str | Promise | Callable[[Any, Any], str]


def bad_json(exc: exceptions.ParseError, _request: Any = None) -> str:
    """Why a body was not read: what the parser says of an unsafe one, else where the JSON breaks
    (as the CLI says it, ``scoring/management/commands/_jsonio.py``)."""
    if isinstance(exc, UnsafeJSON):
        return str(exc.detail)
    cause = exc.__cause__ or exc.__context__
    if isinstance(cause, json.JSONDecodeError):
        return gettext("JSON không hợp lệ (dòng {line}, cột {column}): {why}.").format(
            line=cause.lineno, column=cause.colno, why=cause.msg
        )
    return gettext("JSON không hợp lệ: nội dung yêu cầu không đọc được (phải là JSON, UTF-8).")


def _refused(exc: exceptions.PermissionDenied, _request: Any = None) -> str:
    detail = str(exc.detail)
    return f"{CSRF_FAILED} ({detail})" if detail.startswith("CSRF Failed") else detail


def _wait(exc: exceptions.Throttled) -> int:
    return max(1, math.ceil(exc.wait or 1))


class ApiErrors:
    """Mixed into the project's API base views: their refusals are ``{"error": …}``."""

    #: How this view words a refusal, by exception type (the first class of the exception's MRO
    #: listed here wins over :data:`WORDING`).
    refusals: ClassVar[Mapping[type[Exception], Wording]] = {}


#: How every project view words a refusal, unless its :attr:`ApiErrors.refusals` says otherwise.
WORDING: Mapping[type[Exception], Wording] = {
    EngineError: lambda exc, _request: exc.message,
    exceptions.NotAuthenticated: LOGIN_FIRST,
    exceptions.AuthenticationFailed: BAD_TOKEN,
    exceptions.PermissionDenied: _refused,
    exceptions.ParseError: bad_json,
    exceptions.UnsupportedMediaType: BAD_MEDIA,
    exceptions.MethodNotAllowed: lambda _exc, request: NO_SUCH_METHOD.format(method=request.method),
    exceptions.Throttled: lambda exc, _request: TOO_MANY.format(seconds=_wait(exc)),
}


def _wording(exc: Exception, view: ApiErrors) -> Wording | None:
    for kind in type(exc).__mro__:
        if kind in view.refusals:
            return view.refusals[kind]
        if kind in WORDING:
            return WORDING[kind]
    return None


def exception_handler(exc: Exception, context: Mapping[str, Any]) -> Response | None:
    """DRF's answer to ``exc`` (status, headers), worded as the project's API words its refusals."""
    view = context.get("view")
    if isinstance(exc, EngineError):  # a user error or a refusal: status and body from the one table
        set_rollback()  # as DRF does for the refusals it answers
        answer = Response(body_of(exc), status=status_of(exc))
        retry_after = getattr(exc, "retry_after", None)
        if retry_after:  # an account over its quota (``over_quota``)…
            answer["Retry-After"] = str(retry_after)
        return answer
    if not isinstance(view, ApiErrors):
        return drf_exception_handler(exc, context)  # type: ignore[arg-type]
    response = drf_exception_handler(exc, context)  # type: ignore[arg-type]
    if response is None:
        return None  # not a refusal: a bug, a 500 as Django answers it
    # Django's Http404 / PermissionDenied arrive here as DRF's NotFound / PermissionDenied.
    shown = _as_api_exception(exc)
    wording = _wording(shown, view)
    if wording is None:
        detail = getattr(shown, "detail", None)
        if not isinstance(detail, str):
            return response  # a structured detail (a serializer's errors): DRF's shape
        message = detail
    else:
        message = wording if isinstance(wording, str | Promise) else wording(shown, context.get("request"))
    response.data = {"error": str(message), "code": _code(shown)}
    if isinstance(exc, exceptions.Throttled):
        response["Retry-After"] = str(_wait(exc))
    return response


def _code(exc: Exception) -> str:
    """A DRF refusal's stable code: DRF's (``not_authenticated``, ``permission_denied``,
    ``not_found``, ``throttled``…)."""
    detail = getattr(exc, "detail", None)
    code = getattr(detail, "code", None) or getattr(exc, "default_code", None)
    return str(code or "error")


def _as_api_exception(exc: Exception) -> Exception:
    if isinstance(exc, Http404):
        return exceptions.NotFound(*exc.args)
    if isinstance(exc, PermissionDenied):
        return exceptions.PermissionDenied(*exc.args)
    return exc
