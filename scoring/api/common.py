"""Shared pieces of the JSON contract endpoints (``POST /api/v1/score``, ``POST /api/v1/check-hand``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.api.errors import BAD_MEDIA, NO_SUCH_METHOD, ApiErrors
from scoring.api.schemas import ContractSchema

__all__ = ["BAD_MEDIA", "ERROR_EXAMPLE", "NO_SUCH_METHOD", "ContractView", "contract_response"]


def contract_response(request: Request, handler: Callable[[Any], Any]) -> Response:
    """Run a contract handler on the request body: 200 with its answer; a user error is answered
    400 ``{"error": ...}`` by the API's exception handler (:mod:`scoring.api.errors`)."""
    return Response(handler(request.data))


ERROR_EXAMPLE = {"error": "Không có cước 'tomm'. Có phải ý bạn là: 'tom'?"}


class ContractView(ApiErrors, APIView):
    """A contract endpoint: public, no account read, every error ``{"error": "<message>"}`` as
    the contract (and its CLI) answers bad input, a body that is not JSON included
    (:func:`scoring.api.errors.exception_handler`)."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []
    schema = ContractSchema()
