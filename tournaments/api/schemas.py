"""The OpenAPI description of the events API and of the import, exactly as the code answers
(:mod:`tournaments.selectors.api`, :mod:`tournaments.online.services.imports`): schemathesis holds
the API to it (``tests/reliability/test_api_schema.py``)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers as s

from scoring.api import schemas as sc
from scoring.engine import MAX_PLAYER_NAME
from tournaments.models import EventKind, RegistrationStatus, RoundFormat, TieBreak
from tournaments.seating import Method, Remainder

NULL = {"allow_null": True}
MODES = ["quang", "gom"]

#: What each refusal of the events API means (the body is always ``{"error": …, "code": …}``, with more keys
#: where :data:`ROUND_OPEN` and :data:`BAD_VAN` say so).
WHY = {
    400: "Yêu cầu sai (JSON hỏng, khóa thiếu hoặc thừa, giá trị không hợp lệ, thiếu Idempotency-Key) / bad request",
    401: "Chưa đăng nhập, hoặc token sai / not signed in, or a wrong token",
    403: "Không có quyền (hoặc mã nền tảng của nơi khác, hay chỉ đọc) / not allowed",
    404: "Không có giải hay chiếu này, hoặc giải không công khai / no such event or table",
    409: "Không hợp lúc này (giải đã kết thúc; vòng trước còn chiếu đang chơi; chiếu đã có ván hay đã đóng) / conflict",
    413: "Yêu cầu quá lớn (API_MAX_BODY_BYTES) / body too large",
    415: sc.WHY[415],
    422: "Idempotency-Key đã dùng cho yêu cầu khác; hoặc một ván sai (khóa 'van': số ván) / key reused; a bad ván",
    429: "Mã nền tảng gửi quá nhiều yêu cầu (tiêu đề Retry-After) / rate limited",
}

Rules = sc.shape(
    "EventRules",
    {"preset": s.CharField(), "name": s.CharField(allow_blank=True), "fingerprint": s.CharField()},
)
EVENT_FIELDS = {
    "slug": s.CharField(),
    "name": s.CharField(),
    "kind": s.ChoiceField(choices=EventKind.choices),
    "date": s.DateField(),
    "lunar_label": s.CharField(
        allow_blank=True,
        help_text="Ngày âm lịch: ngày tự tính theo ngôn ngữ của yêu cầu (Accept-Language: en), "
        "ngày ban tổ chức tự ghi thì giữ nguyên",
    ),
    "game": s.ChoiceField(choices=sc.GAMES),
    "mode": s.ChoiceField(choices=MODES),
    "rules": Rules,
    "is_public": s.BooleanField(),
    "round_format": s.ChoiceField(choices=RoundFormat.values),
    "van_per_round": s.IntegerField(min_value=0),
    "minutes_per_round": s.IntegerField(min_value=0),
    "van_per_sitting": s.IntegerField(min_value=0),
    "tie_breaks": s.ListField(child=s.ChoiceField(choices=TieBreak.values)),
    "confirmation_required": s.BooleanField(),
    "count_confirmed_only": s.BooleanField(),
    "finished_at": s.DateTimeField(**NULL),
    "rounds": s.IntegerField(min_value=0, help_text="Số vòng đã xếp"),
}
Event = sc.shape("Event", EVENT_FIELDS)
EventDetail = sc.shape(
    "EventDetail",
    {
        **EVENT_FIELDS,
        "registrations": sc.shape(
            "EventRegistrationCounts",
            {
                "registered": s.IntegerField(min_value=0),
                "checked_in": s.IntegerField(min_value=0),
                "withdrawn": s.IntegerField(min_value=0),
            },
        ),
        "round_list": sc.shape(
            "EventRound",
            {
                "number": s.IntegerField(min_value=1),
                "method": s.ChoiceField(choices=[m.value for m in Method]),
                "remainder": s.ChoiceField(choices=[r.value for r in Remainder]),
                "tables": s.IntegerField(min_value=0),
                "open_tables": s.IntegerField(min_value=0),
                "created_at": s.DateTimeField(),
            },
            many=True,
        ),
        "can_manage": s.BooleanField(help_text="Người gọi là ban tổ chức giải (đăng ký, xếp vòng được)"),
    },
)
ROW_FIELDS = {
    "rank": s.IntegerField(min_value=1),
    "tied": s.BooleanField(help_text="Đồng hạng với hàng trên"),
    "name": s.CharField(),
    "team": s.CharField(allow_blank=True),
    "withdrawn": s.BooleanField(),
    "points": s.IntegerField(),
    "van": s.IntegerField(min_value=0),
    "wins": s.IntegerField(min_value=0),
    "best_win": s.IntegerField(),
    "per_van": s.FloatField(),
    "players": s.IntegerField(min_value=0),
    "cuoc": s.DictField(child=s.IntegerField(), help_text="Số lần ù mỗi cước"),
}
StandingsRow = sc.shape("StandingsRow", {"key": s.IntegerField(help_text="Mã người chơi"), **ROW_FIELDS})
TeamRow = sc.shape("StandingsTeam", {"key": s.CharField(help_text="Làng / giáp / đội"), **ROW_FIELDS})
Standings = sc.shape(
    "Standings",
    {
        "event": s.CharField(),
        "version": s.IntegerField(min_value=0, help_text="Tăng mỗi lần bảng được lưu lại"),
        "computed_at": s.DateTimeField(**NULL, help_text="Lúc bảng được tính"),
        "ledger_seq": s.IntegerField(help_text="Số lần sổ thay đổi mà bảng đã tính đến"),
        "event_ledger_seq": s.IntegerField(help_text="Số lần sổ của giải đã thay đổi"),
        "pending": s.BooleanField(help_text="Có thay đổi chưa vào bảng: đang chờ tính lại"),
        "recompute_due_at": s.DateTimeField(**NULL, help_text="Lần tính lại đã hẹn"),
        "provisional": s.BooleanField(help_text="Tạm tính: giải chưa kết thúc hoặc đang chờ tính lại"),
        "finished": s.BooleanField(),
        "count_confirmed_only": s.BooleanField(help_text="Chỉ tính ván đã xác nhận"),
        "unconfirmed": s.IntegerField(min_value=0, help_text="Ván còn chờ người thứ hai xác nhận"),
        "van_count": s.IntegerField(min_value=0),
        "built_by": s.ChoiceField(choices=["full", "canh"]),
        "failed_at": s.DateTimeField(
            **NULL, help_text="Lần tính lại lỗi gần nhất (chưa có lần nào thành công sau đó)"
        ),
        "failure": s.CharField(allow_blank=True, help_text="Lỗi của lần ấy"),
        "tie_breaks": s.ListField(child=s.ChoiceField(choices=TieBreak.values)),
        "rows": StandingsRow.__class__(many=True),
        "teams": TeamRow.__class__(many=True),
    },
)
Seat = sc.shape(
    "TableSeat",
    {"position": s.IntegerField(min_value=1), "name": s.CharField(), "player_id": s.IntegerField()},
)
Canh = sc.shape(
    "TableCanh",
    {
        "number": s.IntegerField(min_value=1),
        "sitting_id": s.IntegerField(),
        "van": s.IntegerField(min_value=0),
        "ended_at": s.DateTimeField(**NULL),
    },
)
Table = sc.shape(
    "EventTable",
    {
        "id": s.IntegerField(),
        "round": s.IntegerField(min_value=1),
        "number": s.IntegerField(min_value=1),
        "sitting_id": s.IntegerField(help_text="Canh đang chơi"),
        "seats": Seat.__class__(many=True),
        "canh": Canh.__class__(many=True),
        "van": s.IntegerField(min_value=0, help_text="Ván đã chơi ở chiếu vòng này"),
        "started_at": s.DateTimeField(),
        "ends_at": s.DateTimeField(**NULL),
        "closed_at": s.DateTimeField(**NULL),
        "open": s.BooleanField(),
    },
)
Registration = sc.shape(
    "Registration",
    {
        "id": s.IntegerField(),
        "player_id": s.IntegerField(),
        "name": s.CharField(),
        "team": s.CharField(allow_blank=True),
        "status": s.ChoiceField(choices=RegistrationStatus.choices),
        "checked_in_at": s.DateTimeField(**NULL),
        "created_at": s.DateTimeField(),
    },
)
RegistrationCreate = sc.shape(
    "RegistrationCreate",
    {
        "name": sc.text(max_length=MAX_PLAYER_NAME, help_text="Tên người chơi (duy nhất trong giải)"),
        "team": s.CharField(required=False, allow_blank=True, max_length=120, help_text="Làng / giáp / đội"),
        "check_in": s.BooleanField(required=False, help_text="Điểm danh luôn (mặc định: không)"),
    },
    closed=True,
)
Round = sc.shape(
    "Round",
    {
        "number": s.IntegerField(min_value=1),
        "method": s.ChoiceField(choices=[m.value for m in Method]),
        "remainder": s.ChoiceField(choices=[r.value for r in Remainder]),
        "seed": s.IntegerField(),
        "byes": sc.shape(
            "RoundBye", {"player_id": s.IntegerField(), "name": s.CharField(allow_blank=True)}, many=True
        ),
        "tables": Table.__class__(many=True),
        "created_at": s.DateTimeField(),
    },
)
RoundCreate = sc.shape(
    "RoundCreate",
    {
        "method": s.ChoiceField(
            choices=[m.value for m in Method],
            required=False,
            help_text="random (bốc thăm, mặc định), rotation (xoay vòng, tránh gặp lại), standings "
            "(theo bảng điểm)",
        ),
        "remainder": s.ChoiceField(
            choices=[r.value for r in Remainder],
            required=False,
            help_text="bye (người dư nghỉ vòng, mặc định) hoặc smaller (chiếu ít người hơn)",
        ),
        "seed": s.IntegerField(
            required=False,
            allow_null=True,
            min_value=0,
            max_value=2**31 - 1,
            help_text="Hạt giống bốc thăm (để trống: ngẫu nhiên)",
        ),
        "force": s.BooleanField(required=False, help_text="Xếp cả khi vòng trước còn chiếu đang chơi"),
    },
    closed=True,
)
RoundOpen = sc.shape(
    "RoundOpen",
    {
        "error": s.CharField(),
        "code": sc.error_code(),
        "round": s.IntegerField(min_value=1),
        "tables": sc.shape(
            "OpenTable", {"id": s.IntegerField(), "number": s.IntegerField(min_value=1)}, many=True
        ),
    },
)

# -- the import --------------------------------------------------------------------------------------

ImportVan = sc.shape("ImportVan", {k: v for k, v in sc.VAN_FIELDS.items() if k != "cards"}, closed=True)
ImportRequest = sc.shape(
    "SittingImport",
    {
        "game": s.ChoiceField(choices=sc.GAMES),
        "rules": sc.rules(),
        "mode": s.ChoiceField(choices=MODES, required=False, help_text="Mặc định quang"),
        "players": s.ListField(
            child=s.CharField(), help_text="Tên người chơi theo thứ tự chỗ ngồi (ngược chiều kim đồng hồ)"
        ),
        "van": ImportVan.__class__(many=True, help_text="Các ván theo thứ tự, như manage.py replay"),
        "gom": s.IntegerField(
            required=False, allow_null=True, min_value=1, help_text="Tiền gom (thay bộ luật)"
        ),
        "ga_ngoai": s.DictField(required=False, allow_null=True),
        "ga_trong": s.DictField(required=False, allow_null=True),
        "club": s.CharField(
            required=False, allow_null=True, help_text="Mã làng / câu lạc bộ (một canh mới của làng)"
        ),
        "table": s.IntegerField(
            required=False,
            allow_null=True,
            help_text="Mã chiếu của giải (canh đang chơi của chiếu, chưa có ván)",
        ),
        "event": s.CharField(required=False, allow_null=True, help_text="Mã giải của chiếu (để kiểm tra)"),
        "platform": s.CharField(
            required=False,
            allow_null=True,
            allow_blank=True,
            max_length=80,
            help_text="Tên nền tảng (mặc định: tên của mã nền tảng)",
        ),
        "title": s.CharField(required=False, allow_null=True, allow_blank=True, max_length=160),
    },
    closed=True,
)
Imported = sc.shape(
    "SittingImported",
    {
        "balances": sc.points(),
        "pool": s.IntegerField(),
        "ga_trong": s.IntegerField(),
        "hoi": sc.Hoi.__class__(many=True),
        "van": sc.shape(
            "ImportedVan",
            {
                "points": s.IntegerField(),
                "streak": s.IntegerField(min_value=0),
                "transfers": sc.Transfer.__class__(many=True),
            },
            many=True,
        ),
        "sitting_id": s.IntegerField(),
        "van_ids": s.ListField(child=s.IntegerField()),
        "import_id": s.IntegerField(),
        "platform": s.CharField(),
        "club": s.CharField(**NULL),
        "event": s.CharField(**NULL),
        "table_id": s.IntegerField(**NULL),
    },
)
BadVan = sc.shape(
    "BadVan",
    {
        "error": s.CharField(),
        "code": sc.error_code(),
        "van": s.IntegerField(min_value=1, required=False, help_text="Số ván sai đầu tiên"),
    },
)

#: A big import's job (``GET /api/v1/jobs/{id}``; the 202 of the import is the job as queued).
Job = sc.shape(
    "ImportJob",
    {
        "id": s.IntegerField(),
        "state": s.ChoiceField(choices=["queued", "running", "done", "failed"]),
        "progress": sc.shape(
            "ImportJobProgress",
            {
                "done": s.IntegerField(min_value=0, help_text="Số ván đã ghi"),
                "total": s.IntegerField(min_value=0, help_text="Số ván được gửi"),
            },
        ),
        "sitting_id": s.IntegerField(**NULL, help_text="Canh bài, khi xong"),
        "created_at": s.DateTimeField(),
        "finished_at": s.DateTimeField(**NULL),
        "location": s.CharField(help_text="Địa chỉ của việc này"),
        "result": Imported.__class__(
            required=False, help_text="Khi xong: như câu trả lời 201 của một lần nhập nhỏ"
        ),
        "error": BadVan.__class__(
            required=False, help_text="Khi không thành: như câu trả lời lỗi (422: số ván sai)"
        ),
        "error_status": s.IntegerField(required=False, help_text="Mã HTTP của lỗi, khi không thành"),
    },
)

IDEMPOTENCY_KEY = sc.idempotency_key()
#: Round numbers are small positive integers (PositiveSmallIntegerField).
MAX_ROUND = 32767
ROUND = OpenApiParameter(
    "round",
    {"type": "integer", "minimum": 1, "maximum": MAX_ROUND},
    OpenApiParameter.QUERY,
    required=False,
    description="Chỉ các chiếu của vòng này",
)
LANGUAGE = OpenApiParameter(
    "Accept-Language",
    {"type": "string"},
    OpenApiParameter.HEADER,
    required=False,
    description="en: thông báo lỗi bằng tiếng Anh (mặc định tiếng Việt)",
)


def answers(ok: dict[int, Any], *codes: int, bodies: dict[int, Any] | None = None) -> dict[int, Any]:
    """``responses=``: the success answer, then each refusal (``bodies``: other than ``{"error"}``)."""
    bodies = bodies or {}
    return {
        **ok,
        **{code: OpenApiResponse(bodies.get(code, sc.Error), description=WHY[code]) for code in codes},
    }
