"""Pages of a list that grows without bound (clubs, players): at most :data:`PAGE_SIZE` rows a
call, in a stable order, the next page named by an opaque cursor.

The body stays the plain JSON list it always was (a client that reads one page reads what it read
before, now bounded); the next and previous pages are links in the ``Link`` header (RFC 8288,
``<…?cursor=…>; rel="next"``), as GitHub's API gives them. A cursor (DRF's
:class:`~rest_framework.pagination.CursorPagination`) stays right while rows are added: no row is
seen twice or skipped, as an offset would. The other lists are short by nature and capped (the
50 newest sittings, the 100 newest events, a sitting's ván).
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import NotFound
from rest_framework.pagination import CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.engine import N_, EngineError

__all__ = ["CURSOR", "LINK", "PAGE_SIZE", "ByName", "page_of"]

#: Rows a page holds.
PAGE_SIZE = 100

#: The query parameter, as documented in the schema.
CURSOR = OpenApiParameter(
    "cursor",
    OpenApiTypes.STR,
    description=(
        f'Trang tiếp theo: giá trị trong liên kết rel="next" của tiêu đề Link (mỗi trang {PAGE_SIZE} '
        f'dòng) / the next page, from the Link header\'s rel="next" link ({PAGE_SIZE} rows a page)'
    ),
)
#: The response header, as documented in the schema.
LINK = OpenApiParameter(
    "Link",
    OpenApiTypes.STR,
    location=OpenApiParameter.HEADER,
    response=[200],
    description=(
        'Các trang khác: <…?cursor=…>; rel="next", <…>; rel="prev" (không có: trang cuối) / '
        "the other pages (RFC 8288); absent on a single page"
    ),
)


class ByName(CursorPagination):
    """Pages of :data:`PAGE_SIZE` rows by name (then id), the body a plain list."""

    page_size = PAGE_SIZE
    ordering = ("name", "id")
    cursor_query_param = "cursor"

    def decode_cursor(self, request: Request) -> Any:
        try:
            return super().decode_cursor(request)
        except NotFound:  # DRF's NotFound("Invalid cursor"): a cursor not given by a Link header
            raise EngineError(
                N_("Giá trị 'cursor' không đúng: hãy dùng liên kết trong tiêu đề Link của trang trước."),
                code="bad_cursor",
            ) from None

    def get_paginated_response(self, data: Any) -> Response:
        response = Response(data)
        links = [
            f'<{url}>; rel="{rel}"'
            for rel, url in (("next", self.get_next_link()), ("prev", self.get_previous_link()))
            if url
        ]
        if links:
            response["Link"] = ", ".join(links)
        return response


def page_of(rows: QuerySet[Any], request: Request, view: Any, shown: Any) -> Response:
    """One page of ``rows`` (each written by ``shown``), with its ``Link`` header."""
    pages = ByName()
    page = pages.paginate_queryset(rows, request, view=view) or []
    return pages.get_paginated_response([shown(row) for row in page])
