"""Shared pieces of the JSON contract endpoints (``POST /api/v1/score``, ``POST /api/v1/check-hand``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext, gettext_lazy
from rest_framework import exceptions, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.api.parsers import UnsafeJSON
from scoring.api.schemas import ContractSchema
from scoring.engine import EngineError

__all__ = ["BAD_MEDIA", "ERROR_EXAMPLE", "NO_SUCH_METHOD", "ContractView", "contract_response"]


def contract_response(request: Request, handler: Callable[[Any], Any]) -> Response:
    """Run a contract handler on the request body: 200 with its answer, or 400 ``{"error": ...}``."""
    try:
        return Response(handler(request.data))
    except EngineError as exc:
        return Response({"error": exc.message}, status=status.HTTP_400_BAD_REQUEST)


ERROR_EXAMPLE = {"error": "Không có cước 'tomm'. Có phải ý bạn là: 'tom'?"}
#: Refusals every JSON API view answers the same way (the contracts here, the sổ điểm's API), in
#: the language the client asks for (scoring/i18n.py).
BAD_MEDIA = gettext_lazy("Nội dung yêu cầu phải là JSON (tiêu đề Content-Type: application/json).")
NO_SUCH_METHOD = gettext_lazy("Địa chỉ này không nhận phương thức {method}: xem /api/docs/.")


def _bad_json(exc: exceptions.ParseError) -> str:
    """The CLI's message for a body that is not JSON (``scoring/management/commands/_jsonio.py``)."""
    if isinstance(exc, UnsafeJSON):
        return str(exc.detail)
    cause = exc.__cause__ or exc.__context__
    if isinstance(cause, json.JSONDecodeError):
        return gettext("JSON không hợp lệ (dòng {line}, cột {column}): {why}.").format(
            line=cause.lineno, column=cause.colno, why=cause.msg
        )
    return gettext("JSON không hợp lệ: nội dung yêu cầu không đọc được (phải là JSON, UTF-8).")


class ContractView(APIView):
    """A contract endpoint: public, no account read, every error ``{"error": "<Vietnamese>"}`` as
    the contract (and its CLI) answers bad input, a body that is not JSON included."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []
    schema = ContractSchema()

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, exceptions.ParseError):
            return Response({"error": _bad_json(exc)}, status=status.HTTP_400_BAD_REQUEST)
        if isinstance(exc, exceptions.UnsupportedMediaType):
            return Response({"error": BAD_MEDIA}, status=status.HTTP_415_UNSUPPORTED_MEDIA_TYPE)
        if isinstance(exc, exceptions.MethodNotAllowed):
            return Response(
                {"error": NO_SUCH_METHOD.format(method=self.request.method)},
                status=status.HTTP_405_METHOD_NOT_ALLOWED,
            )
        return super().handle_exception(exc)
