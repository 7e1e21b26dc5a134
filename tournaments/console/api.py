"""The API for hardware: drum pads and buttons at a festival table send their signals here.

``POST /api/v1/tables/{table_id}/signals`` with ``{"seat": 1-5 | "trung_quan", "signal": "<slug>"}``,
token auth (only the table's Trung Quân, its event's organisers and staff; a private event's table is
404 to whoever may neither run it nor see the event, as a missing one, after the same checks), an optional
``Idempotency-Key`` header (a repeat answers the first answer and stores nothing; the same key
with another body is refused with 422). ``GET`` lists the signals given (public, read-only, as
visible as the table's event: a private event's table is 404 to whoever may not see it).
Errors are ``{"error": "<Vietnamese message>"}`` (a body that is not JSON: 400; sent as another
media type: 415; a wrong token, even on ``GET``: 401).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.permissions import AllowAny, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.api import schemas as sc
from scoring.api.auth import SessionAuthentication, TokenAuthentication
from scoring.api.common import ContractView
from scoring.api.parsers import SafeJSONParser
from scoring.engine import N_, EngineError
from scoring.respond import answer_status
from tournaments.console.models import FestivalTable
from tournaments.console.permissions import RUN, CanRunTable, reach, seen
from tournaments.console.selectors import signals_json
from tournaments.console.services import ConsoleError, parse_seat, signal_send, signal_table

__all__ = ["TableSignalsView"]

NOT_AUTHENTICATED = gettext_lazy('Cần đăng nhập: gửi tiêu đề "Authorization: Token <khóa của Trung Quân>".')

SignalIn = sc.shape(
    "SignalCreate",
    {
        "seat": sc.raw(
            {
                "oneOf": [
                    {"type": "integer", "minimum": 1, "maximum": 5},
                    {"type": "string", "enum": ["trung_quan"]},
                ]
            },
            help_text='Chỗ ngồi 1–5 (ngược chiều kim đồng hồ), hoặc "trung_quan" (cũng nhận "tq" và số '
            'viết bằng chữ số, ví dụ "3").',
        ),
        "signal": serializers.CharField(help_text='Mã hiệu, ví dụ "tung-tung" (phỗng), "co-do" (ù).'),
    },
)
SignalOut = sc.shape(
    "SignalGiven",
    {
        "id": serializers.IntegerField(),
        "table": serializers.IntegerField(),
        "sitting": serializers.IntegerField(help_text="Canh bài (mỗi canh đánh lại từ ván 1)"),
        "van_seq": serializers.IntegerField(help_text="Ván đang chơi (của canh)"),
        "seat": sc.raw(
            {"oneOf": [{"type": "integer"}, {"type": "string", "enum": ["trung_quan"]}]},
            help_text='1–5 hoặc "trung_quan"',
        ),
        "seat_name": serializers.CharField(),
        "signal": serializers.CharField(),
        "label": serializers.CharField(help_text="Tên hiệu: “Tùng tùng”"),
        "display": serializers.CharField(help_text="Chữ trên màn hình: “Phỗng”"),
        "meaning": serializers.CharField(),
        "kind": serializers.ChoiceField(choices=["drum", "big_drum", "flag"]),
        "pattern": serializers.CharField(help_text="T tùng, C cắc, R hồi dài, B trống cái"),
        "icon": serializers.CharField(),
        "color": serializers.CharField(),
        "effect": serializers.CharField(),
        "noc_left": serializers.IntegerField(),
        "created_at": serializers.DateTimeField(),
    },
)
IDEMPOTENCY_KEY = sc.idempotency_key(
    required=False,
    description="Khóa do thiết bị tạo cho mỗi lần bấm (ví dụ một UUID). Gửi lại cùng khóa (mạng chập chờn) "
    "thì nhận lại câu trả lời cũ và không có hiệu trùng; cùng khóa mà nội dung khác thì bị từ chối (422).",
)
VAN = OpenApiParameter(
    "van",
    {"type": "string", "pattern": "^[0-9]+$"},
    OpenApiParameter.QUERY,
    required=False,
    description="Chỉ các hiệu của ván số này trong canh đang chơi",
)


DESCRIPTION = (
    "Cho trống, nút bấm hay bảng trống điện tử ở từng chiếu gửi hiệu lên màn hình khán giả. "
    'Gửi {"seat": 1–5 hoặc "trung_quan", "signal": "<mã hiệu>"} với tiêu đề "Authorization: Token <khóa>" '
    "của Trung Quân chiếu ấy (hoặc ban tổ chức). Nên gửi kèm Idempotency-Key: gửi lại cùng khóa thì nhận "
    "lại câu trả lời cũ, không có hiệu trùng; cùng khóa mà nội dung khác thì bị từ chối (422). "
    "Mã hiệu: cac, cac-cac-cac, tung, tung-cac, tung-tung (phỗng), tung-tung-tung (dậy khàn), "
    "tung-x4 (dậy thiên khai), hoi-dai (ù), ba-hoi-dai (ù Chi Nẩy), tung-tung-cac, tung-tung-tung-cac, "
    "khai-hoi, trong-nhac (trống cái, chỉ Trung Quân), co-do (ù), co-trang (chịu), co-vang (bất thực), "
    "và các hiệu riêng của làng."
)


def _table(table_id: int) -> FestivalTable | None:
    return FestivalTable.objects.select_related("sitting", "event_table__event").filter(pk=table_id).first()


def _wanted(data: Any) -> dict[str, Any]:
    """The seat and signal a body names, when both are well formed (else the signal is read later,
    and a bad seat or signal answered as :func:`signal_send` answers it)."""
    if not isinstance(data, dict) or not isinstance(data.get("signal"), str):
        return {}
    try:
        return {"seat": parse_seat(value=data.get("seat")), "signal": data["signal"]}
    except ConsoleError:
        return {}


def _no_table(table_id: int) -> exceptions.NotFound:
    return exceptions.NotFound(gettext("Không có chiếu số %(n)s.") % {"n": table_id})


class TableSignalsView(ContractView):
    """Errors as the contract endpoints answer them (400 / 415 / 405 ``{"error": …}``), and 401 /
    403 with the console's own messages."""

    authentication_classes = [TokenAuthentication, SessionAuthentication]
    parser_classes = [SafeJSONParser]
    refusals = {
        exceptions.NotAuthenticated: NOT_AUTHENTICATED,
        exceptions.AuthenticationFailed: NOT_AUTHENTICATED,
        exceptions.PermissionDenied: CanRunTable.message,
    }

    def get_permissions(self) -> list[BasePermission]:
        return [CanRunTable()] if self.request.method == "POST" else [AllowAny()]  # else: read, or 405

    @extend_schema(
        operation_id="table_signals_create",
        summary="Gửi một hiệu trống / cờ từ chiếu (thiết bị của làng)",
        description=DESCRIPTION,
        parameters=[IDEMPOTENCY_KEY],
        request=SignalIn,
        responses=sc.answers({201: SignalOut}, 400, 401, 403, 404, 409, 415, 422),
        examples=[
            OpenApiExample("Phỗng ở chỗ 3", value={"seat": 3, "signal": "tung-tung"}, request_only=True),
            OpenApiExample(
                "Trống cái khai hội", value={"seat": "trung_quan", "signal": "khai-hoi"}, request_only=True
            ),
        ],
        tags=["Tổ Tôm Điếm"],
    )
    def post(self, request: Request, table_id: int) -> Response:
        # The body is read first so that the table's read can bring the signal it names as well
        # (one statement); a body refused (400, 413, 415) is answered after the checks, as before.
        try:
            data, refused = request.data, None
        except exceptions.APIException as exc:
            data, refused = None, exc
        table = signal_table(table_id=table_id, **_wanted(data))  # the columns the checks read
        may = reach(request.user, table)
        if may is None or table is None:  # no such table, or a private event's to one taking no part
            raise _no_table(table_id)
        if may != RUN:
            self.permission_denied(request, message=CanRunTable.message)
        if refused is not None:
            raise refused
        if not isinstance(request.data, dict):
            raise EngineError(
                N_('Nội dung phải là một đối tượng JSON như {"seat": 3, "signal": "tung-tung"}.')
            )
        written = signal_send(  # a user error: the API's handler answers it (scoring.respond)
            table=table,
            seat=request.data.get("seat"),
            signal=request.data.get("signal"),
            by=request.user,
            idempotency_key=request.headers.get("Idempotency-Key"),
        )
        response = Response(written.answer.body, status=answer_status(written.answer))
        if written.answer.replayed:
            response["Idempotent-Replayed"] = "true"
        return response

    @extend_schema(
        operation_id="table_signals_list",
        summary="Các hiệu đã đánh ở một chiếu, mọi canh (theo thứ tự; ?van=N: ván N của canh đang chơi)",
        parameters=[VAN],
        auth=[],
        responses={
            200: SignalOut.__class__(many=True),
            400: OpenApiResponse(sc.Error, description="'van' không phải số ván"),
            401: OpenApiResponse(sc.Error, description="Token gửi kèm bị sai (không cần gửi token)"),
            404: OpenApiResponse(sc.Error, description="Không có chiếu này"),
        },
        tags=["Tổ Tôm Điếm"],
    )
    def get(self, request: Request, table_id: int) -> Response:
        table = _table(table_id)
        if not seen(request.user, table) or table is None:  # a private event's table is not public
            raise _no_table(table_id)
        rows = table.signals.select_related("signal").order_by("id")
        van: Any = request.query_params.get("van")
        if van is not None:
            if not (van.isascii() and van.isdigit()):
                raise EngineError(N_("'van' phải là số ván (nhận được {van})."), van=repr(van[:40]))
            rows = rows.filter(sitting_id=table.sitting_id, van_seq=int(van))
        return Response(signals_json(rows))
