"""The club book's API: a club's balances for a period and a member's statement.

* ``GET /api/v1/clubs/{slug}/balances?from=YYYY-MM-DD&to=YYYY-MM-DD``: every member's points, ván,
  wins, canh and rating in the period, and the fewest transfers that settle what is still open;
* ``GET /api/v1/clubs/{slug}/members/{player}/statement?from=&to=``: one member's statement
  (``player``: the player's id, or their name).

The club's organisers and treasurers (thủ quỹ) see every member; a member with an account (a player
linked to it) sees their own row, the transfers they are part of and their own statement; anyone
else signed in gets 403, a visitor 401. Without ``from`` and ``to`` the period is this lunar year;
with one of them, the other end's lunar year bounds it. Errors are ``{"error": …}`` in Vietnamese,
in English with ``Accept-Language: en``; so are the statement's ``reason`` and ``why`` (the ledger's
words, stored in Vietnamese: :func:`scoring.i18n.reason`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation.trans_real import parse_accept_lang_header
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions
from rest_framework import serializers as s
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.api import schemas as sc
from scoring.api.access import SIGNED_IN, LedgerView
from scoring.engine import N_, EngineError
from scoring.i18n import reason
from scoring.models import Club, Player, Sitting
from scoring.names import name_key
from scoring.periods import Period, period_from
from scoring.permissions import book_member, book_players
from scoring.selectors.book import book
from scoring.selectors.statement import Statement, statement

__all__ = ["ClubBalancesView", "MemberStatementView"]

FROM = OpenApiParameter(
    "from",
    {"type": "string", "format": "date"},
    description="Ngày đầu (YYYY-MM-DD). Không có: Tết của năm âm lịch chứa ngày cuối "
    "(không có cả hai: năm âm lịch này)",
)
TO = OpenApiParameter(
    "to",
    {"type": "string", "format": "date"},
    description="Ngày cuối, tính cả ngày đó (YYYY-MM-DD). Không có: ngày cuối năm âm lịch chứa ngày đầu",
)
LANGUAGE = OpenApiParameter(
    "Accept-Language",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="en: thông báo lỗi bằng tiếng Anh (mặc định tiếng Việt)",
)

BalanceRow = sc.shape(
    "ClubBalanceRow",
    {
        "player": s.CharField(help_text="Tên người chơi"),
        "points": s.IntegerField(help_text="Điểm chơi trong kỳ (tổng số dư chơi của các canh trong kỳ)"),
        "van": s.IntegerField(help_text="Số ván của các canh người đó ngồi"),
        "wins": s.IntegerField(help_text="Số ván ù hợp lệ"),
        "sittings": s.IntegerField(help_text="Số canh đã ngồi"),
        "rating": s.FloatField(
            allow_null=True, help_text="Trình độ OpenSkill μ − 3σ (null: chưa có ván được tính)"
        ),
    },
)
SettleRow = sc.shape(
    "ClubSettleTransfer", {"from": s.CharField(), "to": s.CharField(), "amount": s.IntegerField()}
)
ClubBalances = sc.shape(
    "ClubBalances",
    {
        "club": s.CharField(help_text="Mã làng / câu lạc bộ"),
        "from": s.DateField(),
        "to": s.DateField(),
        "members": BalanceRow.__class__(many=True),
        "settle_up": SettleRow.__class__(
            many=True, help_text="Ít khoản chuyển nhất để mọi số dư còn lại về 0"
        ),
    },
)
Line = sc.shape("StatementLine", {"amount": s.IntegerField(), "other": s.CharField(), "why": s.CharField()})
StatementVan = sc.shape(
    "StatementVan",
    {
        "seq": s.IntegerField(),
        "outcome": s.CharField(),
        "summary": s.CharField(),
        "delta": s.IntegerField(),
        "running": s.IntegerField(),
        "lines": Line.__class__(many=True),
        "corrected": s.CharField(allow_null=True, help_text="Lý do sửa, nếu ván đã được sửa"),
    },
)
StatementSettle = sc.shape(
    "StatementSettlement",
    {
        "at": s.DateTimeField(),
        "reason": s.CharField(),
        "delta": s.IntegerField(),
        "running": s.IntegerField(),
        "reversal": s.BooleanField(),
        "lines": Line.__class__(many=True),
    },
)
StatementCanh = sc.shape(
    "StatementCanh",
    {
        "sitting": s.IntegerField(),
        "title": s.CharField(),
        "date": s.DateField(),
        "seat": s.CharField(),
        "position": s.IntegerField(),
        "van": StatementVan.__class__(many=True),
        "settlements": StatementSettle.__class__(many=True),
        "points": s.IntegerField(),
        "open": s.IntegerField(),
    },
)
MemberStatement = sc.shape(
    "MemberStatement",
    {
        "club": s.CharField(),
        "player": s.CharField(),
        "player_id": s.IntegerField(),
        "from": s.DateField(),
        "to": s.DateField(),
        "points": s.IntegerField(),
        "settled": s.IntegerField(),
        "open": s.IntegerField(),
        "van": s.IntegerField(),
        "canh": StatementCanh.__class__(many=True),
    },
)


@contextmanager
def language(request: Request) -> Iterator[None]:
    """The messages in English when ``Accept-Language`` prefers it (the API is under no language
    prefix, so the site's middleware keeps Vietnamese)."""
    code = "vi"
    for lang, _q in parse_accept_lang_header(request.headers.get("Accept-Language", "")):
        base = lang.split("-")[0].lower()
        if base in ("vi", "en"):
            code = base
            break
    with translation.override(code):
        yield


def _club(slug: str) -> Club | None:
    return Club.objects.filter(slug=slug).first()


def _rating(value: Any) -> float | None:
    return None if value is None else round(value.ordinal, 2)


class _BookView(LedgerView):
    """The club book's reads: the club, who may see what, the period."""

    needs = {"GET": SIGNED_IN}

    def _open(self, request: Request, slug: str) -> tuple[Club, bool, list[int], Period] | Response:
        club = _club(slug)
        if club is None:
            raise exceptions.NotFound(
                _("Không có làng hoặc câu lạc bộ mang mã '%(slug)s'.") % {"slug": slug[:60]}
            )
        if not book_member(request.user, club):
            raise exceptions.PermissionDenied(
                _(
                    "Bạn không xem được sổ của làng hoặc câu lạc bộ này: chỉ chủ sổ, thủ quỹ và thành viên "
                    "có tài khoản gắn với người chơi của làng mới xem được."
                )
            )
        for key in ("from", "to"):  # present means a date, as the schema says (absent: the default)
            value = request.query_params.get(key)
            if value is not None and (not value or value != value.strip()):
                raise EngineError(N_("'{key}' phải là một ngày dạng YYYY-MM-DD."), key=key)
        period = period_from(request.query_params)  # a PeriodError: the API's handler answers it
        whole = request.user.has_perm("scoring.keep_club_book", club)
        return club, whole, book_players(request.user, club), period


class ClubBalancesView(_BookView):
    """Every member's points, ván, wins, canh and rating in the period, and the fewest transfers that
    settle every open balance (a member sees only their own row and transfers)."""

    @extend_schema(
        operation_id="club_balances",
        summary="Sổ câu lạc bộ: số dư của các thành viên trong một kỳ",
        parameters=[FROM, TO, LANGUAGE],
        responses=sc.answers({200: ClubBalances}, 400, 401, 403, 404),
    )
    def get(self, request: Request, slug: str) -> Response:
        with language(request):
            opened = self._open(request, slug)
            if isinstance(opened, Response):
                return opened
            club, whole, own, period = opened
            the_book = book(club, period, with_closes=False)
            if not whole:
                the_book = the_book.only(own)
            return Response(
                {
                    "club": club.slug,
                    "from": period.start.isoformat(),
                    "to": period.end.isoformat(),
                    "members": [
                        {
                            "player": m.name,
                            "points": m.points,
                            "van": m.van,
                            "wins": m.wins,
                            "sittings": m.sittings,
                            "rating": _rating(m.rating),
                        }
                        for m in the_book.members
                    ],
                    "settle_up": [{"from": a.name, "to": b.name, "amount": n} for a, b, n in the_book.plan],
                }
            )


def statement_json(st: Statement) -> dict[str, Any]:
    return {
        "club": st.club.slug,
        "player": st.player.name,
        "player_id": st.player.pk,
        "from": st.period.start.isoformat(),
        "to": st.period.end.isoformat(),
        "points": st.points,
        "settled": st.settled,
        "open": st.open,
        "van": st.van,
        "canh": [
            {
                "sitting": part.canh.id,
                "title": part.canh.name,
                "date": part.canh.day.isoformat(),
                "seat": part.seat,
                "position": part.position,
                "points": part.play,
                "open": part.open,
                "van": [
                    {
                        "seq": v.seq,
                        "outcome": v.outcome,
                        "summary": v.summary,
                        "delta": v.delta,
                        "running": v.running,
                        "corrected": v.corrected or None,
                        "lines": [
                            {"amount": x.amount, "other": x.other, "why": reason(x.why)} for x in v.lines
                        ],
                    }
                    for v in part.van
                ],
                "settlements": [
                    {
                        "at": x.at.isoformat(),
                        "reason": reason(x.reason),
                        "delta": x.delta,
                        "running": x.running,
                        "reversal": x.reversal,
                        "lines": [
                            {"amount": y.amount, "other": y.other, "why": reason(y.why)} for y in x.lines
                        ],
                    }
                    for x in part.settled
                ],
            }
            for part in st.canh
        ],
    }


def find_member(club: Club, ref: str) -> Player | None:
    """The player of the club's book named by ``ref`` (an id, or a name compared as people read it:
    "chú sáu" finds "Chú Sáu"); an ambiguous name is refused (:class:`EngineError`)."""
    in_book = Player.objects.filter(
        pk__in=Sitting.objects.filter(club=club).values("seats__player")
    ) | Player.objects.filter(club=club)
    ref = ref.strip()
    if ref.isdigit():
        found = in_book.filter(pk=int(ref)).first()
        if found is not None:
            return found
    named = list(in_book.filter(name_key=name_key(ref)).distinct()[:2])  # as people read names
    if len(named) > 1:
        raise EngineError(
            N_("Có nhiều người chơi tên '{name}' trong sổ: hãy dùng mã số người chơi."), name=ref[:80]
        )
    return named[0] if named else None


class MemberStatementView(_BookView):
    """A member's statement: each canh, each ván (what they won or paid, and why), each settle-up."""

    @extend_schema(
        operation_id="club_member_statement",
        summary="Sao kê của một thành viên trong một kỳ",
        parameters=[
            OpenApiParameter(
                "player",
                str,
                OpenApiParameter.PATH,
                description="Mã số người chơi, hoặc tên người chơi trong sổ",
            ),
            FROM,
            TO,
            LANGUAGE,
        ],
        responses=sc.answers({200: MemberStatement}, 400, 401, 403, 404),
    )
    def get(self, request: Request, slug: str, player: str) -> Response:
        with language(request):
            opened = self._open(request, slug)
            if isinstance(opened, Response):
                return opened
            club, whole, own, period = opened
            found = find_member(club, player)
            if found is None:
                if not whole:
                    raise exceptions.PermissionDenied(_("Bạn chỉ xem được sao kê của chính mình."))
                raise exceptions.NotFound(
                    _("Không có người chơi '%(player)s' trong sổ của '%(club)s'.")
                    % {"player": player[:80], "club": club.name}
                )
            if not whole and found.pk not in own:
                raise exceptions.PermissionDenied(_("Bạn chỉ xem được sao kê của chính mình."))
            return Response(statement_json(statement(club, period, found)))
