"""Shared pieces of the JSON contract endpoints."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.engine.errors import EngineError


def contract_response(request: Request, handler: Callable[[Any], Any]) -> Response:
    """Run a contract handler on the request body: 200 with its answer, or 400 ``{"error": ...}``."""
    try:
        return Response(handler(request.data))
    except EngineError as exc:
        return Response({"error": exc.message}, status=status.HTTP_400_BAD_REQUEST)


ERROR_EXAMPLE = {"error": "Không có cước 'tomm'. Có phải ý bạn là 'tom'?"}
