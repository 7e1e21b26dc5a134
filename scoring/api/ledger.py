"""The sổ điểm API: clubs, players, rule sets, sittings, ván (record, preview, correct), balances,
history and settling up. Thin views: parse, authorise (:class:`CanKeepScore`), call a service or a
selector, answer JSON. Errors are ``{"error": "<Vietnamese message>"}``.

Every write needs an ``Idempotency-Key`` header: a repeat with the same key and body answers the
first answer again (header ``Idempotent-Replayed: true``) and writes nothing; the same key with
another body is refused with 422; a ván for a number already taken is refused with 409 and the
sitting's current state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.engine.errors import EngineError
from scoring.engine.games import get_game
from scoring.models import Club, Player, Sitting, Van
from scoring.selectors import ledger as sel
from scoring.services import people, sittings
from scoring.services.idempotency import IdempotencyMismatch
from scoring.services.people import Written

__all__ = [
    "BalancesView",
    "ClubsView",
    "HistoryView",
    "PlayersView",
    "RuleSetsView",
    "SettleUpView",
    "SittingDetailView",
    "SittingsView",
    "VanCorrectView",
    "VanListView",
    "VanPreviewView",
]


class CanKeepScore(BasePermission):
    """Who may read and write the sổ điểm. Everyone for now: roles come later, here and only here."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return True


class LedgerView(APIView):
    permission_classes = [CanKeepScore]


def _user(request: Request) -> Any:
    return request.user if request.user and request.user.is_authenticated else None


def _error(message: str, code: int, **extra: Any) -> Response:
    return Response({"error": message, **extra}, status=code)


def _write(request: Request, call: Callable[[str], Written[Any]]) -> Response:
    """Run a write service with the request's Idempotency-Key; map its errors to HTTP statuses."""
    key = request.headers.get("Idempotency-Key")
    if not key:
        return _error("Thiếu tiêu đề Idempotency-Key: mỗi lần ghi cần một khóa do máy khách tạo.", 400)
    try:
        written = call(key)
    except IdempotencyMismatch as exc:
        return _error(exc.message, status.HTTP_422_UNPROCESSABLE_ENTITY)
    except sittings.SequenceConflict as exc:
        return _error(exc.message, status.HTTP_409_CONFLICT, state=exc.state)
    except EngineError as exc:
        return _error(exc.message, status.HTTP_400_BAD_REQUEST)
    response = Response(written.answer.body, status=written.answer.status)
    if written.answer.replayed:
        response["Idempotent-Replayed"] = "true"
    return response


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_nul(v) for v in value)
    return False


NUL_MESSAGE = "Dữ liệu có ký tự NUL (\\u0000), không lưu được: hãy bỏ ký tự đó."


def _body(request: Request) -> dict[str, Any]:
    if not isinstance(request.data, dict):
        raise EngineError("Nội dung yêu cầu phải là một đối tượng JSON.")
    if _has_nul(request.data):
        raise EngineError(NUL_MESSAGE)
    return dict(request.data)


def _query(request: Request, name: str) -> str | None:
    value = request.query_params.get(name)
    if value is not None and "\x00" in value:
        raise EngineError(NUL_MESSAGE)
    return value


def _sitting(pk: int) -> Sitting | None:
    return Sitting.objects.select_related("rules", "club", "created_by").filter(pk=pk).first()


def _no_sitting(pk: int) -> Response:
    return _error(f"Không có canh bài số {pk}.", status.HTTP_404_NOT_FOUND)


# -- schema pieces ------------------------------------------------------------------------------

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key", OpenApiTypes.STR, OpenApiParameter.HEADER, required=True,
    description="Khóa do máy khách tạo (ví dụ một UUID) cho mỗi lần ghi; gửi lại cùng khóa thì nhận lại câu trả lời cũ.",
)
Error = inline_serializer("LedgerError", {"error": serializers.CharField()})
Conflict = inline_serializer("LedgerConflict", {"error": serializers.CharField(), "state": serializers.JSONField()})
WRITE_ERRORS = {400: Error, 409: Conflict, 422: Error}
VAN_FIELDS = {
    "winner": serializers.CharField(required=False, help_text="Người ù"),
    "cuoc": serializers.ListField(child=serializers.CharField(), required=False, help_text="Cước thực có"),
    "declared": serializers.ListField(child=serializers.CharField(), required=False, help_text="Cước đã xướng"),
    "discarder": serializers.CharField(required=False, help_text="Người đánh quân ù"),
    "chiu": serializers.ListField(child=serializers.CharField(), required=False, help_text="Người chịu"),
    "fault": serializers.CharField(required=False, help_text="lanh_lang, u_bao, xuong_thua, danh_u_den, den_chong"),
    "result": serializers.CharField(required=False, help_text='"hoa" khi hòa'),
    "bao": serializers.CharField(required=False, help_text="Người bị báo"),
    "regime": serializers.CharField(required=False, help_text="den_lang, ngoi_day, cheo_do"),
    "ga": serializers.ListField(child=serializers.JSONField(), required=False, help_text="Các gà: {kind, player}"),
    "cards": serializers.CharField(required=False, help_text="Quân bài (tùy chọn, để kiểm bài)"),
}
VanCreate = inline_serializer("VanCreate", {"seq": serializers.IntegerField(min_value=1), **VAN_FIELDS})
VanCorrect = inline_serializer("VanCorrect", {"reason": serializers.CharField(), **VAN_FIELDS})
VanPreview = inline_serializer("VanPreview", {"seq": serializers.IntegerField(required=False), **VAN_FIELDS})
SittingCreate = inline_serializer(
    "SittingCreate",
    {
        "game": serializers.CharField(help_text="to-tom-5, to-tom-4, tai-ban, to-tom-diem, chan, phom"),
        "rules": serializers.JSONField(help_text='Mã bộ luật, mã lệ làng đã lưu, hoặc {"preset": ..., thay đổi...}'),
        "mode": serializers.ChoiceField(choices=["quang", "gom"]),
        "players": serializers.ListField(
            child=serializers.JSONField(), help_text="Theo thứ tự chỗ ngồi, ngược chiều kim đồng hồ: mã số hoặc tên"
        ),
        "title": serializers.CharField(required=False),
        "club": serializers.CharField(required=False, help_text="Mã làng / câu lạc bộ"),
    },
)
VAN_EXAMPLE = OpenApiExample("Ù Tôm", value={"seq": 1, "winner": "An", "cuoc": ["tom"], "discarder": "Bình"},
                             request_only=True)


# -- clubs, players, rule sets ---------------------------------------------------------------------


class ClubsView(LedgerView):
    @extend_schema(operation_id="clubs_list", summary="Các làng và câu lạc bộ", responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request) -> Response:
        return Response([sel.club_json(c) for c in Club.objects.all()])

    @extend_schema(
        operation_id="clubs_create", summary="Thêm làng hoặc câu lạc bộ", parameters=[IDEMPOTENCY_KEY],
        request=inline_serializer("ClubCreate", {"name": serializers.CharField(),
                                                 "kind": serializers.ChoiceField(choices=["lang", "clb"])}),
        responses={201: OpenApiTypes.OBJECT, **WRITE_ERRORS},
    )
    def post(self, request: Request) -> Response:
        def call(key: str) -> Written[Any]:
            body = _body(request)
            return people.club_create(name=body.get("name", ""), kind=body.get("kind", "lang"),
                                      slug=body.get("slug", ""), idempotency_key=key)

        return _write(request, call)


class PlayersView(LedgerView):
    @extend_schema(
        operation_id="players_list", summary="Người chơi (lọc theo ?club=mã)",
        parameters=[OpenApiParameter("club", OpenApiTypes.STR)], responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request: Request) -> Response:
        players = Player.objects.select_related("club")
        try:
            club = _query(request, "club")
        except EngineError as exc:
            return _error(exc.message, status.HTTP_400_BAD_REQUEST)
        if club:
            players = players.filter(club__slug=club)
        return Response([sel.player_json(p) for p in players])

    @extend_schema(
        operation_id="players_create", summary="Thêm người chơi", parameters=[IDEMPOTENCY_KEY],
        request=inline_serializer("PlayerCreate", {"name": serializers.CharField(),
                                                   "club": serializers.CharField(required=False)}),
        responses={201: OpenApiTypes.OBJECT, **WRITE_ERRORS},
    )
    def post(self, request: Request) -> Response:
        def call(key: str) -> Written[Any]:
            body = _body(request)
            return people.player_create(name=body.get("name", ""), club=_club(body.get("club")), idempotency_key=key)

        return _write(request, call)


def _club(slug: Any) -> Club | None:
    if slug in (None, ""):
        return None
    club = Club.objects.filter(slug=str(slug)).first()
    if club is None:
        raise EngineError(f"Không có làng hoặc câu lạc bộ mang mã '{slug}'.")
    return club


class RuleSetsView(LedgerView):
    @extend_schema(
        operation_id="rule_sets_list", summary="Bộ luật có sẵn và lệ làng đã lưu (lọc theo ?game=)",
        parameters=[OpenApiParameter("game", OpenApiTypes.STR)], responses={200: OpenApiTypes.OBJECT, 400: Error},
    )
    def get(self, request: Request) -> Response:
        game = request.query_params.get("game")
        try:
            family = get_game(game).family.value if game else None
        except EngineError as exc:
            return _error(exc.message, 400)
        return Response(sel.rule_sets(family=family))


# -- sittings ----------------------------------------------------------------------------------------


class SittingsView(LedgerView):
    @extend_schema(operation_id="sittings_list", summary="Các canh bài gần đây", responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request) -> Response:
        recent = Sitting.objects.select_related("club").order_by("-created_at", "-id")[:50]
        return Response([
            {"id": s.pk, "title": s.title, "game": s.game, "mode": s.mode, "created_at": s.created_at.isoformat(),
             "ended_at": s.ended_at.isoformat() if s.ended_at else None, "club": s.club.slug if s.club_id else None}
            for s in recent
        ])

    @extend_schema(
        operation_id="sittings_create", summary="Mở một canh bài", parameters=[IDEMPOTENCY_KEY],
        request=SittingCreate, responses={201: OpenApiTypes.OBJECT, **WRITE_ERRORS},
    )
    def post(self, request: Request) -> Response:
        def call(key: str) -> Written[Any]:
            body = _body(request)
            return sittings.sitting_open(
                game=body.get("game", ""), rules=body.get("rules"), mode=body.get("mode", "quang"),
                players=body.get("players"), title=body.get("title", ""), club=_club(body.get("club")),
                created_by=_user(request), idempotency_key=key,
            )

        return _write(request, call)


class SittingDetailView(LedgerView):
    @extend_schema(
        operation_id="sittings_detail", summary="Một canh bài: chỗ ngồi, số dư, điểm làng, gà, hội",
        responses={200: OpenApiTypes.OBJECT, 404: Error},
    )
    def get(self, request: Request, pk: int) -> Response:
        sitting = _sitting(pk)
        return Response(sel.sitting_json(sitting)) if sitting else _no_sitting(pk)


class BalancesView(LedgerView):
    @extend_schema(
        operation_id="sittings_balances", summary="Số dư (từ sổ), điểm làng, gà và dòng kiểm tra",
        responses={200: OpenApiTypes.OBJECT, 404: Error},
    )
    def get(self, request: Request, pk: int) -> Response:
        sitting = _sitting(pk)
        if sitting is None:
            return _no_sitting(pk)
        check = sel.integrity(sitting)
        return Response({
            **sel.balances(sitting).to_dict(),
            "play_balances": sel.balances(sitting, play_only=True).players,
            "integrity": {"ok": check.ok, "unbalanced": check.unbalanced, "pool_ok": check.pool_ok,
                          "pot_ok": check.pot_ok},
        })


class HistoryView(LedgerView):
    @extend_schema(
        operation_id="sittings_history", summary="Ai đã ghi, sửa gì, lúc nào; mọi bút toán",
        responses={200: OpenApiTypes.OBJECT, 404: Error},
    )
    def get(self, request: Request, pk: int) -> Response:
        sitting = _sitting(pk)
        return Response(sel.sitting_history(sitting)) if sitting else _no_sitting(pk)


class SettleUpView(LedgerView):
    @extend_schema(
        operation_id="sittings_settle_up", summary="Thanh toán cuối canh (ít khoản chuyển nhất) và kết thúc",
        parameters=[IDEMPOTENCY_KEY], request=None, responses={200: OpenApiTypes.OBJECT, **WRITE_ERRORS},
    )
    def post(self, request: Request, pk: int) -> Response:
        if not Sitting.objects.filter(pk=pk).exists():
            return _no_sitting(pk)
        return _write(request, lambda key: sittings.sitting_settle_up(
            sitting=pk, settled_by=_user(request), idempotency_key=key))


# -- ván ---------------------------------------------------------------------------------------------


def _van_input(request: Request, *extra: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Split a ván request into the record (the engine's keys) and the other fields."""
    body = _body(request)
    others = {k: body.pop(k) for k in ("cards", *extra) if k in body}
    cards = others.get("cards", "")
    if cards is not None and not isinstance(cards, str):
        raise EngineError("'cards' phải là một chuỗi quân bài.")
    return body, others


def _seq(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise EngineError(f"'seq' (số thứ tự ván) phải là số nguyên dương (nhận được {value!r}).")
    return value


class VanListView(LedgerView):
    @extend_schema(
        operation_id="van_list", summary="Các ván của canh bài (?all=1: cả các bản đã sửa)",
        parameters=[OpenApiParameter("all", OpenApiTypes.BOOL)], responses={200: OpenApiTypes.OBJECT, 404: Error},
    )
    def get(self, request: Request, pk: int) -> Response:
        sitting = _sitting(pk)
        if sitting is None:
            return _no_sitting(pk)
        return Response(sel.van_list(sitting, include_superseded=request.query_params.get("all") in ("1", "true")))

    @extend_schema(
        operation_id="van_create", summary="Ghi một ván (số tiếp theo); điểm, ù liền và các khoản chuyển do máy tính",
        parameters=[IDEMPOTENCY_KEY], request=VanCreate, examples=[VAN_EXAMPLE],
        responses={201: OpenApiTypes.OBJECT, 404: Error, **WRITE_ERRORS},
    )
    def post(self, request: Request, pk: int) -> Response:
        if not Sitting.objects.filter(pk=pk).exists():
            return _no_sitting(pk)

        def call(key: str) -> Written[Any]:
            record, others = _van_input(request, "seq")
            return sittings.van_record(
                sitting=pk, seq=_seq(others.get("seq")), record=record, idempotency_key=key,
                entered_by=_user(request), cards=others.get("cards") or "",
            )

        return _write(request, call)


class VanPreviewView(LedgerView):
    @extend_schema(
        operation_id="van_preview", summary="Xem trước một ván: điểm, ù liền, mọi khoản chuyển; không ghi gì",
        request=VanPreview, responses={200: OpenApiTypes.OBJECT, 400: Error, 404: Error},
    )
    def post(self, request: Request, pk: int) -> Response:
        sitting = _sitting(pk)
        if sitting is None:
            return _no_sitting(pk)
        try:
            record, others = _van_input(request, "seq")
            seq = _seq(others["seq"]) if others.get("seq") is not None else None
            return Response(sittings.van_preview(sitting=sitting, record=record, seq=seq).to_dict())
        except EngineError as exc:
            return _error(exc.message, 400)


class VanCorrectView(LedgerView):
    @extend_schema(
        operation_id="van_correct",
        summary="Sửa một ván (kèm lý do): đảo bút toán của ván đó và các ván sau, ghi lại theo bản sửa",
        parameters=[IDEMPOTENCY_KEY], request=VanCorrect, responses={201: OpenApiTypes.OBJECT, 404: Error, **WRITE_ERRORS},
    )
    def post(self, request: Request, pk: int, seq: int) -> Response:
        van = Van.objects.filter(sitting_id=pk, seq=seq, is_current=True).first()
        if van is None:
            return _error(f"Canh bài số {pk} không có ván số {seq}.", status.HTTP_404_NOT_FOUND)

        def call(key: str) -> Written[Any]:
            record, others = _van_input(request, "reason")
            return sittings.van_correct(
                van=van.pk, record=record, reason=others.get("reason", ""), corrected_by=_user(request),
                idempotency_key=key, cards=others.get("cards") or "",
            )

        return _write(request, call)
