"""The sổ điểm API: sittings, ván (record, preview, correct), balances, history and settling up
(clubs, players and rule sets: :mod:`scoring.api.people`). Thin views: parse, authorise
(:class:`~scoring.api.access.CanKeepScore`: an account sees the sittings it may see and writes
where it may keep score), call a service or a selector, answer JSON. Errors are
``{"error": "<Vietnamese message>"}`` (401 without an account, 403 not allowed, 404 no such thing).

Every write needs an ``Idempotency-Key`` header: a repeat with the same key and body answers the
first answer again (header ``Idempotent-Replayed: true``) and writes nothing; the same key with
another body is refused with 422; a ván for a number already taken is refused with 409 and the
sitting's current state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import Q, QuerySet
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.api import schemas as sc
from scoring.api.access import KEEP, SIGNED_IN, VIEW, CanKeepScore, LedgerView
from scoring.api.schemas import answers, idempotency_key
from scoring.engine import N_, EngineError
from scoring.models import Club, Player, Van
from scoring.permissions import credential_scope, entry_via, visible_sittings
from scoring.respond import answer_status
from scoring.selectors import ledger as sel
from scoring.services import sittings
from scoring.services.people import Written, acting_user
from scoring.services.quotas import VAN, charge
from scoring.text import iso

__all__ = [
    "BalancesView",
    "CanKeepScore",
    "HistoryView",
    "LedgerView",
    "SettleUpView",
    "SittingDetailView",
    "SittingsView",
    "VanCorrectView",
    "VanListView",
    "VanPreviewView",
]


def _user(request: Request) -> Any:
    return acting_user(user=request.user)


def _write(request: Request, call: Callable[[str], Written[Any]]) -> Response:
    """Run a write service with the request's Idempotency-Key and answer what it wrote; a user
    error propagates to the API's handler, which answers it with its status and code
    (:mod:`scoring.errors`: 409 and the sitting's ``state`` for a taken ván number, 422 for a reused key…)."""
    key = request.headers.get("Idempotency-Key")
    if not key:
        raise EngineError(N_("Thiếu tiêu đề Idempotency-Key: mỗi lần ghi cần một khóa do máy khách tạo."))
    written = call(key)
    response = Response(written.answer.body, status=answer_status(written.answer))
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


NUL_MESSAGE = N_("Dữ liệu có ký tự NUL (\\u0000), không lưu được: hãy bỏ ký tự đó.")


def _body(request: Request) -> dict[str, Any]:
    if not isinstance(request.data, dict):
        raise EngineError(N_("Nội dung yêu cầu phải là một đối tượng JSON."))
    if _has_nul(request.data):
        raise EngineError(NUL_MESSAGE)
    return dict(request.data)


def _query(request: Request, name: str) -> str | None:
    value = request.query_params.get(name)
    if value is not None and "\x00" in value:
        raise EngineError(NUL_MESSAGE)
    return value


# -- schema pieces (scoring/api/schemas.py) ------------------------------------------------------

IDEMPOTENCY_KEY = idempotency_key()
VAN_EXAMPLE = OpenApiExample(
    "Ù Tôm", value={"seq": 1, "winner": "An", "cuoc": ["tom"], "discarder": "Bình"}, request_only=True
)
ALL = OpenApiParameter(
    "all",
    {"type": "string", "enum": ["true", "false", "1", "0"]},
    description="true (hoặc 1): cả các bản đã được sửa; mặc định chỉ các bản hiện hành",
)
#: The refusals of a call that reads a sitting (VIEW) and of one that writes with a key.
READ = (401, 403, 404)
WRITE = (400, 401, 403, 415, 422)


# -- sittings ----------------------------------------------------------------------------------------


def _club(slug: Any) -> Club | None:
    if slug in (None, ""):
        return None
    if not isinstance(slug, str):
        raise EngineError(
            N_("'club' phải là mã làng hoặc câu lạc bộ (một chuỗi), nhận được {slug}."), slug=repr(slug)
        )
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise EngineError(N_("Không có làng hoặc câu lạc bộ mang mã '{slug}'."), slug=slug)
    return club


def visible_players(user: Any) -> QuerySet[Player]:
    """The players ``user`` may know of: those of the clubs where the user holds a role, and those
    seated in the sittings the user may see (staff: everyone)."""
    if user.is_staff:
        return Player.objects.all()
    known = Q(club__roles__user=user) | Q(seats__sitting__in=visible_sittings(user))
    return Player.objects.filter(pk__in=Player.objects.filter(known).values("pk"))


def _seatable(request: Request, body: dict[str, Any], club: Club | None) -> None:
    """Refuse (403) a club the account may not open sittings in, or a player id it may not know."""
    scope = credential_scope(request)
    if scope is not None and not scope.allows_club(club.pk if club is not None else None):
        raise exceptions.PermissionDenied(
            "Mã nền tảng này không mở được canh bài ở đây: chỉ trong làng hoặc câu lạc bộ đã cấp nó.",
        )
    if club is not None and not request.user.has_perm("scoring.open_sitting", club):
        raise exceptions.PermissionDenied(
            f"Bạn không mở được canh bài trong '{club.name}': chỉ chủ sổ và thư ký ghi điểm của nơi đó "
            "mới mở được.",
        )
    players = body.get("players")
    ids = (
        [p for p in players if isinstance(p, int) and not isinstance(p, bool)]
        if isinstance(players, list)
        else []
    )
    if ids and visible_players(request.user).filter(pk__in=ids).count() != len(set(ids)):
        raise exceptions.PermissionDenied(
            "Có mã số người chơi bạn không được dùng (người của làng khác hoặc không có): hãy ghi tên "
            "người chơi, hoặc mã số người trong làng của bạn.",
        )
    return None


class SittingsView(LedgerView):
    needs = {"GET": SIGNED_IN, "POST": SIGNED_IN}
    scoped = frozenset({"GET", "POST"})

    @extend_schema(
        operation_id="sittings_list",
        summary="Các canh bài gần đây (mà tài khoản được xem)",
        responses=answers({200: sc.SittingSummary.__class__(many=True)}, 401),
    )
    def get(self, request: Request) -> Response:
        visible = visible_sittings(request.user)
        scope = credential_scope(request)
        if scope is not None:
            visible = scope.narrow(visible)
        recent = visible.select_related("club").order_by("-created_at", "-id")[:50]
        return Response(
            [
                {
                    "id": s.pk,
                    "title": s.title,
                    "game": s.game,
                    "mode": s.mode,
                    "created_at": s.created_at.isoformat(),
                    "ended_at": iso(s.ended_at),
                    "club": s.club.slug if s.club_id else None,
                }
                for s in recent
            ]
        )

    @extend_schema(
        operation_id="sittings_create",
        summary="Mở một canh bài",
        parameters=[IDEMPOTENCY_KEY],
        request=sc.SittingCreate,
        responses=answers({201: sc.Sitting}, *WRITE),
    )
    def post(self, request: Request) -> Response:
        """Open a sitting: the account is its opener; a club only where it keeps score."""
        body = _body(request)
        club = _club(body.get("club"))
        if not isinstance(body.get("title") or "", str):
            raise EngineError(N_("'title' (tên canh bài) phải là một chuỗi."))
        _seatable(request, body, club)

        def call(key: str) -> Written[Any]:
            return sittings.sitting_open(
                game=body.get("game", ""),
                rules=body.get("rules"),
                mode=body.get("mode", "quang"),
                players=body.get("players"),
                title=body.get("title", ""),
                club=club,
                created_by=_user(request),
                idempotency_key=key,
            )

        return _write(request, call)


class SittingDetailView(LedgerView):
    needs = {"GET": VIEW}

    @extend_schema(
        operation_id="sittings_detail",
        summary="Một canh bài: chỗ ngồi, số dư, điểm làng, gà, hội",
        responses=answers({200: sc.Sitting}, *READ),
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(sel.sitting_json(self.sitting))


class BalancesView(LedgerView):
    needs = {"GET": VIEW}

    @extend_schema(
        operation_id="sittings_balances",
        summary="Số dư (từ sổ), điểm làng, gà và dòng kiểm tra",
        responses=answers({200: sc.Balances}, *READ),
    )
    def get(self, request: Request, pk: int) -> Response:
        sitting = self.sitting
        check = sel.integrity(sitting)
        return Response(
            {
                **sel.balances(sitting).to_dict(),
                "play_balances": sel.balances(sitting, play_only=True).players,
                "integrity": {
                    "ok": check.ok,
                    "unbalanced": check.unbalanced,
                    "pool_ok": check.pool_ok,
                    "pot_ok": check.pot_ok,
                },
            }
        )


class HistoryView(LedgerView):
    needs = {"GET": VIEW}

    @extend_schema(
        operation_id="sittings_history",
        summary="Ai đã ghi, sửa gì, lúc nào; mọi bút toán",
        responses=answers({200: sc.HistoryEntry.__class__(many=True)}, *READ),
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(sel.sitting_history(self.sitting))


class SettleUpView(LedgerView):
    needs = {"POST": KEEP}

    @extend_schema(
        operation_id="sittings_settle_up",
        summary="Thanh toán cuối canh (ít khoản chuyển nhất) và kết thúc",
        parameters=[IDEMPOTENCY_KEY],
        request=None,
        responses=answers({200: sc.SettledUp}, 400, 401, 403, 404, 409, 422),
    )
    def post(self, request: Request, pk: int) -> Response:
        return _write(
            request,
            lambda key: sittings.sitting_settle_up(
                sitting=pk, settled_by=_user(request), idempotency_key=key
            ),
        )


# -- ván ---------------------------------------------------------------------------------------------


def _van_input(request: Request, *extra: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Split a ván request into the record (the engine's keys) and the other fields."""
    body = _body(request)
    others = {k: body.pop(k) for k in ("cards", *extra) if k in body}
    cards = others.get("cards", "")
    if cards is not None and not isinstance(cards, str):
        raise EngineError(N_("'cards' phải là một chuỗi quân bài."))
    return body, others


def _seq(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise EngineError(
            N_("'seq' (số thứ tự ván) phải là số nguyên dương (nhận được {value})."), value=repr(value)
        )
    return value


def _version(sitting: int, seq: int, replaces: Any, current: int) -> int:
    if replaces is not None and (isinstance(replaces, bool) or not isinstance(replaces, int)):
        raise EngineError(
            N_("'replaces' (mã phiên bản ván được sửa) phải là số nguyên (nhận được {replaces})."),
            replaces=repr(replaces),
        )
    return sittings.correction_target(sitting=sitting, seq=seq, replaces=replaces, current=current)


class VanListView(LedgerView):
    needs = {"GET": VIEW, "POST": KEEP}
    loads = {"POST": ()}  # the service locks and reads the sitting itself

    @extend_schema(
        operation_id="van_list",
        summary="Các ván của canh bài (?all=1: cả các bản đã sửa)",
        parameters=[ALL],
        responses=answers({200: sc.Van.__class__(many=True)}, 400, *READ),
    )
    def get(self, request: Request, pk: int) -> Response:
        every = request.query_params.get("all", "false")
        if every not in ("true", "false", "1", "0"):
            raise EngineError(
                N_("'all' phải là true hoặc false (nhận được {value})."), value=repr(every[:40])
            )
        return Response(sel.van_list(self.sitting, include_superseded=every in ("1", "true")))

    @extend_schema(
        operation_id="van_create",
        summary="Ghi một ván (số tiếp theo); điểm, ù liền và các khoản chuyển do máy tính",
        parameters=[IDEMPOTENCY_KEY],
        request=sc.VanCreate,
        examples=[VAN_EXAMPLE],
        responses=answers({201: sc.VanWritten}, *WRITE, 404, 409, 429),
    )
    def post(self, request: Request, pk: int) -> Response:
        charge(request=request, quota=VAN, sitting=self.sitting)

        def call(key: str) -> Written[Any]:
            record, others = _van_input(request, "seq")
            return sittings.van_record(
                sitting=pk,
                seq=_seq(others.get("seq")),
                record=record,
                idempotency_key=key,
                entered_by=_user(request),
                cards=others.get("cards") or "",
                via=entry_via(request, pk),
            )

        return _write(request, call)


class VanPreviewView(LedgerView):
    needs = {"POST": KEEP}

    @extend_schema(
        operation_id="van_preview",
        summary="Xem trước một ván: điểm, ù liền, mọi khoản chuyển; không ghi gì",
        request=sc.VanPreview,
        responses=answers({200: sc.Preview}, 400, *READ, 415),
    )
    def post(self, request: Request, pk: int) -> Response:
        sitting = self.sitting
        record, others = _van_input(request, "seq")
        seq = _seq(others["seq"]) if others.get("seq") is not None else None
        return Response(sittings.van_preview(sitting=sitting, record=record, seq=seq).to_dict())


class VanCorrectView(LedgerView):
    needs = {"POST": KEEP}

    @extend_schema(
        operation_id="van_correct",
        summary="Sửa một ván (kèm lý do): đảo bút toán của ván đó và các ván sau, ghi lại theo bản sửa",
        parameters=[IDEMPOTENCY_KEY],
        request=sc.VanCorrect,
        responses=answers({201: sc.VanWritten}, *WRITE, 404, 409, 429),
    )
    def post(self, request: Request, pk: int, seq: int) -> Response:
        van = Van.objects.filter(sitting_id=pk, seq=seq, is_current=True).first()
        if van is None:
            raise exceptions.NotFound(f"Canh bài số {pk} không có ván số {seq}.")
        charge(
            request=request, quota=VAN, sitting=self.sitting
        )  # a correction writes again every later ván: it counts

        def call(key: str) -> Written[Any]:
            record, others = _van_input(request, "reason", "replaces")
            return sittings.van_correct(
                van=_version(pk, seq, others.get("replaces"), van.pk),
                record=record,
                reason=others.get("reason", ""),
                corrected_by=_user(request),
                idempotency_key=key,
                cards=others.get("cards") or "",
                via=entry_via(request, pk),
            )

        return _write(request, call)
