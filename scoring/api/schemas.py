"""The API's OpenAPI description: what each endpoint accepts and answers, exactly as the code does.

The answers are built by the selectors (:mod:`scoring.selectors.ledger`), the services and the
engine's contracts (:mod:`scoring.engine.contract`); the components here describe those shapes,
so schemathesis (``tests/reliability/test_api_schema.py``) can hold the API to them. A request
body whose unknown keys are refused is *closed* (``additionalProperties: false``: made with
``shape(..., closed=True)`` and an AutoSchema of :class:`ContractSchema`).

What JSON Schema cannot say stays in the descriptions: names must be those seated in the sitting,
a cước must belong to the game, a rule set slug must exist, an Idempotency-Key must not have
been used for another request.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drf_spectacular.authentication import SessionScheme
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import force_instance
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema_field,
)
from rest_framework import serializers as s

from scoring.engine import BaoRegime, Fault, GameSlug, get_game
from scoring.models import ClubKind, VanOutcome, VanStatus
from scoring.services.idempotency import MAX_KEY_LENGTH


class SiteSessionScheme(SessionScheme):
    """The schema's ``cookieAuth`` for the API's own session class (``scoring.api.auth``: the
    cookie is read only when no ``Authorization`` header is sent)."""

    target_class = "scoring.api.auth.SessionAuthentication"


__all__ = [
    "GAMES",
    "NOT_BLANK",
    "SCORED_GAMES",
    "Balances",
    "Club",
    "Conflict",
    "ContractSchema",
    "Error",
    "HistoryEntry",
    "Player",
    "Preview",
    "Reviewed",
    "RuleSetInfo",
    "SettledUp",
    "Sitting",
    "SittingCreate",
    "SittingSummary",
    "Transfer",
    "Van",
    "VanCorrect",
    "VanCreate",
    "VanPreview",
    "VanReject",
    "VanWritten",
    "answers",
    "batch",
    "choice",
    "idempotency_key",
    "raw",
    "shape",
    "text",
]


class Closed(s.Serializer):  # type: ignore[type-arg]
    # A request body that refuses the keys it does not name (``additionalProperties: false``). No
    # docstring: drf-spectacular would show it as the description of every closed component.
    pass


class ContractSchema(AutoSchema):
    """drf-spectacular's AutoSchema, closing the :class:`Closed` bodies."""

    def _map_serializer(
        self, serializer: Any, direction: str, bypass_extensions: bool = False
    ) -> dict[str, Any]:
        schema: dict[str, Any] = super()._map_serializer(serializer, direction, bypass_extensions)
        if isinstance(force_instance(serializer), Closed):
            schema["additionalProperties"] = False
        return schema


def shape(name: str, fields: Mapping[str, s.Field], *, closed: bool = False, **kwargs: Any) -> Any:  # type: ignore[type-arg]
    """An inline serializer (a schema component named ``name``), closed or not."""
    return type(name, (Closed if closed else s.Serializer,), dict(fields))(**kwargs)


def raw(schema: dict[str, Any], **kwargs: Any) -> s.Field:  # type: ignore[type-arg]
    """A field the schema describes by ``schema`` (any JSON on the wire)."""
    return extend_schema_field(schema)(type("RawField", (s.JSONField,), {}))(**kwargs)


def choice(values: list[str], **kwargs: Any) -> s.Field:  # type: ignore[type-arg]
    """One of ``values``, kept inline (``allOf``: drf-spectacular's enum hook leaves it alone), for
    a field whose name other components use with other choices ("game", "kind")."""
    return raw({"allOf": [{"type": "string", "enum": list(values)}]}, **kwargs)


#: Text the services strip and refuse when blank: at least one character that is not a space.
NOT_BLANK = r"\S"


def text(max_length: int | None = None, **kwargs: Any) -> s.Field:  # type: ignore[type-arg]
    return s.RegexField(NOT_BLANK, max_length=max_length, **kwargs)


def batch(name: str, one: Any) -> PolymorphicProxySerializer:
    """One object, or a list of them (the contracts of :mod:`scoring.engine.contract`)."""
    many = type(one)(many=True)
    return PolymorphicProxySerializer(
        name, serializers=[one, many], resource_type_field_name=None, many=False
    )


def idempotency_key(*, required: bool = True, description: str = "") -> OpenApiParameter:
    """The ``Idempotency-Key`` header (:func:`scoring.services.idempotency.check_key`: 1 to 255
    printable characters once the surrounding spaces are stripped)."""
    return OpenApiParameter(
        "Idempotency-Key",
        {"type": "string", "minLength": 1, "maxLength": MAX_KEY_LENGTH, "pattern": NOT_BLANK},
        OpenApiParameter.HEADER,
        required=required,
        description=description
        or "Khóa do máy khách tạo (ví dụ một UUID) cho mỗi lần ghi; gửi lại cùng khóa thì "
        "nhận lại câu trả lời cũ (tiêu đề Idempotent-Replayed: true); cùng khóa mà nội dung khác thì bị từ chối (422).",
    )


GAMES = [g.value for g in GameSlug]
#: The games the score and check-hand contracts know (Phỏm is ranked, not scored by cước).
SCORED_GAMES = [g.value for g in GameSlug if not get_game(g).traits.ranked]
STAMP = {"allow_null": True}


def points() -> s.DictField:
    return s.DictField(child=s.IntegerField(), help_text="Điểm của từng người chơi (theo tên trong canh)")


def rules(**kwargs: Any) -> s.Field:  # type: ignore[type-arg]
    """A rule set in a request (:func:`scoring.services.rules.resolve_rules`)."""
    return raw(
        {
            "oneOf": [
                {"type": "string", "minLength": 1},
                {
                    "type": "object",
                    "required": ["preset"],
                    "properties": {"preset": {"type": "string", "minLength": 1}},
                },
            ]
        },
        help_text='Mã bộ luật ("luat-2005"), mã lệ làng đã lưu, hoặc {"preset": ..., các thay đổi}',
        **kwargs,
    )


# -- errors ------------------------------------------------------------------------------------------


def error_code() -> s.CharField:
    """The ``code`` of every error body: stable, for programs (``scoring/errors.py``)."""
    return s.CharField(
        help_text=(
            "Mã lỗi cố định cho máy đọc, giống nhau ở mọi ngôn ngữ / a stable machine code, the same in "
            "every language: bad_van, bad_card, bad_rule, bad_cuoc, bad_game, engine_error, "
            "sequence_conflict, sitting_closed, results_final, idempotency_mismatch, review_conflict, "
            "not_authenticated, authentication_failed, permission_denied, not_found, throttled, over_quota…"
        )
    )


Error = shape(
    "Error",
    {
        "error": s.CharField(help_text="Vì sao, bằng tiếng Việt (tiếng Anh với Accept-Language: en)"),
        "code": error_code(),
    },
)

# -- answers: people and rules -------------------------------------------------------------------------

Club = shape(
    "Club",
    {
        "id": s.IntegerField(),
        "name": s.CharField(),
        "slug": s.CharField(),
        "kind": s.ChoiceField(choices=ClubKind.values),
    },
)
Player = shape("Player", {"id": s.IntegerField(), "name": s.CharField(), "club": s.CharField(**STAMP)})
RuleSetOwner = shape(
    "RuleSetOwner",
    {
        "kind": choice(
            ["club", "person"],
            help_text="club: một làng / câu lạc bộ (chủ sổ của nơi đó sửa); person: một người",
        ),
        "slug": s.CharField(help_text="Mã làng / câu lạc bộ (null nếu là một người)", **STAMP),
        "name": s.CharField(help_text="Tên làng / câu lạc bộ, hoặc tên tài khoản của người"),
    },
    **STAMP,
    help_text="Chủ của lệ làng đã lưu (null: bộ luật có sẵn, hoặc lệ làng chưa có chủ)",
)
RuleSetInfo = shape(
    "RuleSetInfo",
    {
        "slug": s.CharField(),
        "name": s.CharField(),
        "family": s.CharField(),
        "saved": s.BooleanField(help_text="Lệ làng đã lưu (không phải bộ luật có sẵn)"),
        "fingerprint": s.CharField(),
        "owner": RuleSetOwner,
        "version": s.IntegerField(
            min_value=1, help_text="Phiên bản mới nhất của lệ làng (null: bộ luật có sẵn)", **STAMP
        ),
    },
)

# -- answers: sittings and ván ---------------------------------------------------------------------

Transfer = shape(
    "Transfer",
    {"from": s.CharField(), "to": s.CharField(), "amount": s.IntegerField(min_value=1), "why": s.CharField()},
)
Hoi = shape(
    "Hoi",
    {
        "index": s.IntegerField(),
        "opened_before_van": s.IntegerField(),
        "closed_after_van": s.IntegerField(**STAMP),
    },
)
Van = shape(
    "Van",
    {
        "id": s.IntegerField(),
        "seq": s.IntegerField(min_value=1),
        "record": s.DictField(help_text="Ván như đã gửi"),
        "outcome": s.ChoiceField(choices=VanOutcome.values),
        "outcome_label": s.CharField(),
        "winner": s.CharField(**STAMP),
        "fault": s.ChoiceField(choices=[f.value for f in Fault], **STAMP),
        "cuoc": s.ListField(child=s.CharField()),
        "declared": s.ListField(child=s.CharField(), **STAMP),
        "streak": s.IntegerField(min_value=0),
        "streak_label": s.CharField(allow_blank=True),
        "points": s.IntegerField(),
        "transfers": Transfer.__class__(many=True),
        "cards": s.CharField(**STAMP),
        "kiem_bai": s.DictField(**STAMP),
        "entered_by": s.CharField(**STAMP),
        "created_at": s.DateTimeField(),
        "is_current": s.BooleanField(),
        "replaces": s.IntegerField(**STAMP),
        "correction_reason": s.CharField(**STAMP),
        "status": s.ChoiceField(choices=VanStatus.values),
        "status_label": s.CharField(),
        "confirmed_by": s.CharField(**STAMP),
        "confirmed_at": s.DateTimeField(**STAMP),
        "rejected_reason": s.CharField(**STAMP),
    },
)
STATE_FIELDS = {
    "sitting_id": s.IntegerField(),
    "next_seq": s.IntegerField(min_value=1),
    "balances": points(),
    "pool": s.IntegerField(help_text="Điểm làng"),
    "ga_trong": s.IntegerField(help_text="Gà trong"),
    "hoi": Hoi.__class__(many=True),
    "ended_at": s.DateTimeField(**STAMP),
}
SittingState = shape(
    "SittingState",
    {
        **STATE_FIELDS,
        "van": Van.__class__(required=False, help_text="Ván đã ghi ở số đó (khi trùng số)"),
    },
)
SittingSummary = shape(
    "SittingSummary",
    {
        "id": s.IntegerField(),
        "title": s.CharField(allow_blank=True),
        "game": s.ChoiceField(choices=GAMES),
        "mode": s.ChoiceField(choices=["quang", "gom"]),
        "created_at": s.DateTimeField(),
        "ended_at": s.DateTimeField(**STAMP),
        "club": s.CharField(**STAMP),
    },
)
Sitting = shape(
    "Sitting",
    {
        "id": s.IntegerField(),
        "title": s.CharField(allow_blank=True),
        "game": s.ChoiceField(choices=GAMES),
        "mode": s.ChoiceField(choices=["quang", "gom"]),
        "rules": shape(
            "SittingRules",
            {"preset": s.CharField(), "name": s.CharField(allow_blank=True), "fingerprint": s.CharField()},
        ),
        "club": s.CharField(**STAMP),
        "seats": shape(
            "Seat",
            {"position": s.IntegerField(min_value=1), "name": s.CharField(), "player_id": s.IntegerField()},
            many=True,
        ),
        "created_by": s.CharField(**STAMP),
        "created_at": s.DateTimeField(),
        **STATE_FIELDS,
        "play_balances": s.DictField(
            child=s.IntegerField(), help_text="Số dư chỉ tính các ván (không tính thanh toán)"
        ),
    },
)
Balances = shape(
    "Balances",
    {
        "balances": points(),
        "pool": s.IntegerField(),
        "ga_trong": s.IntegerField(),
        "play_balances": s.DictField(child=s.IntegerField()),
        "integrity": shape(
            "Integrity",
            {
                "ok": s.BooleanField(),
                "unbalanced": s.ListField(child=s.IntegerField()),
                "pool_ok": s.BooleanField(),
                "pot_ok": s.BooleanField(),
            },
        ),
    },
)
HistoryEntry = shape(
    "HistoryEntry",
    {
        "event": s.ChoiceField(choices=["ghi_van", "sua_van", "but_toan", "xac_nhan_van", "bac_bo_van"]),
        "at": s.DateTimeField(),
        "by": s.CharField(**STAMP),
        "player": s.CharField(
            required=False,
            help_text="Người chơi đã ghi (người cầm máy ghi bằng mã PIN / QR) hay đã xác nhận / bác",
            **STAMP,
        ),
        "seq": s.IntegerField(**STAMP),
        "reason": s.CharField(allow_blank=True, **STAMP),
        "van_id": s.IntegerField(required=False),
        "replaces": s.IntegerField(required=False, **STAMP),
        "record": s.DictField(required=False),
        "transaction_id": s.IntegerField(required=False),
        "kind": s.CharField(required=False),
        "kind_label": s.CharField(required=False),
        "reverses": s.IntegerField(required=False, **STAMP),
        "points_moved": s.IntegerField(required=False),
    },
)
VanWritten = shape("VanWritten", {"van": Van, "sitting": SittingState})
Reviewed = shape("Reviewed", {"van": Van})
SettledUp = shape("SettledUp", {"sitting": Sitting, "transfers": Transfer.__class__(many=True)})
Preview = shape(
    "Preview",
    {
        "seq": s.IntegerField(min_value=1),
        "points": s.IntegerField(),
        "streak": s.IntegerField(min_value=0),
        "streak_label": s.CharField(allow_blank=True),
        "transfers": Transfer.__class__(many=True),
        "balances": points(),
        "pool": s.IntegerField(),
        "ga_trong": s.IntegerField(),
        "hoi_opened": s.BooleanField(),
        "hoi_closed": s.BooleanField(),
        "breakdown": s.DictField(**STAMP),
    },
)
Conflict = shape(
    "Conflict",
    {
        "error": s.CharField(),
        "code": error_code(),
        "state": SittingState.__class__(required=False, help_text="Canh bài lúc này"),
    },
)

# -- requests ------------------------------------------------------------------------------------------


def name() -> s.CharField:
    return s.CharField(
        required=False, allow_null=True, allow_blank=True, help_text="Tên một người ngồi trong canh"
    )


def names() -> s.ListField:
    return s.ListField(
        child=s.CharField(allow_blank=True),
        required=False,
        help_text="Tên những người ngồi trong canh, mỗi người một lần",
    )


GaEvent = shape(
    "GaEvent",
    {
        "kind": text(help_text='Loại gà, ví dụ "nhai", "quan_lo"'),
        "player": s.CharField(),
        "count": s.IntegerField(min_value=1, required=False),
        "chi_chi": s.JSONField(required=False),
    },
    closed=True,
)
VAN_FIELDS = {
    "winner": name(),
    "cuoc": s.ListField(
        child=s.CharField(allow_blank=True), required=False, help_text="Mã cước của trò chơi, ví dụ tom, leo"
    ),
    "declared": s.ListField(child=s.CharField(), required=False, allow_null=True),
    "discarder": name(),
    "chiu": names(),
    "fault": s.ChoiceField(choices=[f.value for f in Fault], required=False, allow_null=True),
    "result": s.ChoiceField(choices=["hoa"], required=False, allow_null=True, help_text='"hoa" khi hòa'),
    "bao": name(),
    "regime": s.ChoiceField(choices=[r.value for r in BaoRegime], required=False, allow_null=True),
    "ga": GaEvent.__class__(many=True, required=False),
    "den_lang": names(),
    "stake": s.IntegerField(min_value=1, required=False, allow_null=True),
    "ranks": names(),
    "den": name(),
    "dau_ke": name(),
    "cards": s.CharField(
        required=False, allow_null=True, allow_blank=True, help_text="Quân bài (tùy chọn, để kiểm bài)"
    ),
}
VanCreate = shape(
    "VanCreate", {"seq": s.IntegerField(min_value=1, help_text="Số ván tiếp theo"), **VAN_FIELDS}, closed=True
)
VanCorrect = shape(
    "VanCorrect",
    {
        "reason": text(help_text="Lý do sửa"),
        "replaces": s.IntegerField(
            required=False,
            allow_null=True,
            help_text=(
                "Mã (id) phiên bản ván mà bản sửa này thay, như máy gửi đã thấy; nếu ván đã được sửa bằng một "
                "bản khác từ đó thì bị từ chối (409). Bỏ trống: bản hiện hành."
            ),
        ),
        **VAN_FIELDS,
    },
    closed=True,
)
VanPreview = shape(
    "VanPreview",
    {"seq": s.IntegerField(min_value=1, required=False, allow_null=True), **VAN_FIELDS},
    closed=True,
)
VanReject = shape("VanReject", {"reason": text(help_text="Lý do bác ván")})
SittingCreate = shape(
    "SittingCreate",
    {
        "game": s.ChoiceField(choices=GAMES),
        "rules": rules(),
        "mode": s.ChoiceField(
            choices=["quang", "gom"], required=False, help_text="Mặc định quang (đánh quăng)"
        ),
        "players": s.ListField(
            child=raw({"oneOf": [{"type": "string"}, {"type": "integer"}]}),
            help_text="Theo thứ tự chỗ ngồi, ngược chiều kim đồng hồ: mã số hoặc tên",
        ),
        "title": s.CharField(required=False, allow_null=True, allow_blank=True),
        "club": s.CharField(
            required=False, allow_null=True, allow_blank=True, help_text="Mã làng / câu lạc bộ"
        ),
    },
)

# -- statuses ------------------------------------------------------------------------------------------

#: What each refusal means (the body is always :data:`Error`, or :data:`Conflict` for a 409).
WHY = {
    400: "Yêu cầu sai: JSON hỏng, khóa thiếu hoặc thừa, giá trị không hợp lệ, thiếu Idempotency-Key",
    401: "Chưa đăng nhập (không có phiên hay token), hoặc token sai (kèm tiêu đề WWW-Authenticate)",
    403: "Tài khoản không có quyền làm việc này (hoặc phiên đăng nhập thiếu mã CSRF)",
    404: "Không có canh bài, ván hay chiếu mang số này",
    409: "Không hợp với canh bài lúc này: số ván đã có, canh đã kết thúc, ván không còn tạm tính, giải đã chốt "
    "kết quả",
    415: "Nội dung yêu cầu không phải JSON (Content-Type: application/json)",
    422: "Idempotency-Key này đã được dùng cho một yêu cầu khác",
    429: "Mã nền tảng (Bearer) gửi quá nhiều yêu cầu: chờ số giây trong tiêu đề Retry-After",
}


def answers(ok: Mapping[int, Any], *codes: int) -> dict[int, Any]:
    """``responses=`` of an operation: its success answer(s), then each refusal it can answer."""
    refusals = {
        code: OpenApiResponse(Conflict if code == 409 else Error, description=WHY[code]) for code in codes
    }
    return {**ok, **refusals}
