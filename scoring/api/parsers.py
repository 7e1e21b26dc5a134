"""The one JSON parser of the API: what DRF's parser reads, refused with 400 when a client could
not mean it and the app could not store or answer it.

DRF's ``JSONParser`` lets three things through that later turned into 500s:

* nesting deeper than Python's recursion limit (``RecursionError`` while decoding, or later while
  hashing or storing the body);
* a lone UTF-16 surrogate written as an escape (``"\\ud800"``): valid JSON, but no UTF-8 string,
  so hashing the request for its idempotency key or storing it fails;
* integers beyond 64 bits: the embedded default (SQLite) cannot even compare them with an id.

:class:`SafeJSONParser` parses as DRF does, then walks the result once (no recursion) and refuses
each of these with :class:`UnsafeJSON`, a ``ParseError`` carrying a message for the client. It is
the project's JSON parser (``REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]``, and the JSON-only API
views name it).
"""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.utils.translation import gettext, gettext_lazy
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from scoring.engine import N_
from scoring.refusals import BodyTooLarge

__all__ = ["INT_MAX", "INT_MIN", "MAX_DEPTH", "BodyTooLarge", "SafeJSONParser", "UnsafeJSON", "unsafe_json"]

#: Deepest nesting of arrays and objects a body may have (the deepest real body, a rule set's
#: ``{"cuoc": {"tom": {"main": …}}}`` inside a sitting, is 4 deep).
MAX_DEPTH = 32
#: The integers a body may hold: a signed 64-bit integer (every id and amount column).
INT_MIN, INT_MAX = -(2**63), 2**63 - 1

TOO_DEEP = gettext_lazy("JSON lồng quá sâu: tối đa %(depth)d tầng mảng và đối tượng lồng nhau.")
SURROGATE = gettext_lazy(
    "JSON có ký tự không hợp lệ (%(escape)s: nửa cặp UTF-16 đứng một mình); hãy gửi văn bản UTF-8 đúng."
)
TOO_BIG = gettext_lazy("Số %(number)s quá lớn: mọi số nguyên phải nằm trong khoảng %(low)d đến %(high)d.")
TOO_LARGE = N_("Yêu cầu quá lớn: tối đa {most} KiB.")
NOT_FINITE = gettext_lazy("Số thực %(number)s không dùng được: chỉ nhận số hữu hạn.")


class UnsafeJSON(ParseError):
    """A body that is JSON but cannot be taken (400); ``detail`` says why."""


def _surrogate(text: str) -> str | None:
    for char in text:
        if "\ud800" <= char <= "\udfff":
            return f"\\u{ord(char):04x}"
    return None


def _short(number: Any) -> str:
    text = str(number)
    return text if len(text) <= 30 else f"{text[:12]}…{text[-6:]} ({len(text)} chữ số)"


def unsafe_json(data: Any) -> str | None:
    """Why ``data`` (parsed JSON) cannot be taken, or None. Iterative: no depth can crash it."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list):
            if depth >= MAX_DEPTH:
                return gettext(TOO_DEEP) % {"depth": MAX_DEPTH}
            items = value.items() if isinstance(value, dict) else ((None, v) for v in value)
            for key, item in items:
                if key is not None and (bad := _surrogate(key)):
                    return gettext(SURROGATE) % {"escape": bad}
                stack.append((item, depth + 1))
        elif isinstance(value, str):
            if bad := _surrogate(value):
                return gettext(SURROGATE) % {"escape": bad}
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, int):
            if not INT_MIN <= value <= INT_MAX:
                return gettext(TOO_BIG) % {"number": _short(value), "low": INT_MIN, "high": INT_MAX}
        elif isinstance(value, float) and not math.isfinite(value):
            return gettext(NOT_FINITE) % {"number": value}
    return None


class SafeJSONParser(JSONParser):
    """DRF's JSON parser, refusing what :func:`unsafe_json` finds (and a body too deep to decode)."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        request = (parser_context or {}).get("request")
        meta = getattr(request, "META", {}) if request is not None else {}
        try:
            length = int(meta.get("CONTENT_LENGTH") or 0)
        except (TypeError, ValueError):
            length = 0
        if length > settings.API_MAX_BODY_BYTES:  # before reading it (bounded input): 413, ``too_large``
            raise BodyTooLarge(TOO_LARGE, most=settings.API_MAX_BODY_BYTES // 1024)
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise UnsafeJSON(gettext(TOO_DEEP) % {"depth": MAX_DEPTH}) from exc
        problem = unsafe_json(data)
        if problem is not None:
            raise UnsafeJSON(problem)
        return data
