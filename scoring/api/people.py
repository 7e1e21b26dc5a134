"""The sổ điểm API's people and rules: clubs, players, rule sets.

Clubs and rule sets are public (names and numbers, nothing personal). Creating a club needs an
account, which becomes the club's organiser. Players are personal: an account sees the players
of the clubs where it holds a role and the players seated in the sittings it may see, and adds
players only to a club where it keeps score (or as guests, with no club).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.api import schemas as sc
from scoring.api.access import PUBLIC, SIGNED_IN, LedgerView
from scoring.api.ledger import (
    IDEMPOTENCY_KEY,
    WRITE,
    _body,
    _club,
    _query,
    _write,
    visible_players,
)
from scoring.api.pagination import CURSOR, LINK, page_of
from scoring.engine import MAX_PLAYER_NAME, N_, EngineError, get_game
from scoring.models import Club
from scoring.selectors import ledger as sel
from scoring.services import people
from scoring.services.people import Written
from scoring.services.quotas import CLUBS, charge
from scoring.services.roles import club_open

ClubCreate = sc.shape(
    "ClubCreate",
    {
        "name": sc.text(max_length=120, help_text="Tên làng hoặc câu lạc bộ"),
        "kind": sc.choice(["lang", "clb"], required=False, help_text="Mặc định lang"),
        "slug": serializers.CharField(required=False, allow_blank=True, help_text="Mã (mặc định: từ tên)"),
    },
)
PlayerCreate = sc.shape(
    "PlayerCreate",
    {
        "name": sc.text(max_length=MAX_PLAYER_NAME, help_text="Tên người chơi"),
        "club": serializers.CharField(
            required=False,
            allow_null=True,
            allow_blank=True,
            help_text="Mã làng / câu lạc bộ (không có: khách)",
        ),
    },
)
GAME = OpenApiParameter(
    "game",
    {"type": "string", "enum": ["", *sc.GAMES]},
    description="Chỉ bộ luật dùng được cho trò chơi này (để trống: tất cả)",
)

__all__ = ["ClubsView", "PlayersView", "RuleSetsView"]


class ClubsView(LedgerView):
    needs = {"GET": PUBLIC, "POST": SIGNED_IN}

    @extend_schema(
        operation_id="clubs_list",
        summary="Các làng và câu lạc bộ (theo tên, mỗi trang 100; trang sau: tiêu đề Link)",
        parameters=[CURSOR, LINK],
        responses=sc.answers({200: sc.Club.__class__(many=True)}, 400, 401),
    )
    def get(self, request: Request) -> Response:
        return page_of(Club.objects.all(), request, self, sel.club_json)

    @extend_schema(
        operation_id="clubs_create",
        summary="Thêm làng hoặc câu lạc bộ (người tạo là chủ sổ)",
        parameters=[IDEMPOTENCY_KEY],
        request=ClubCreate,
        responses=sc.answers({201: sc.Club}, *WRITE, 429),
    )
    def post(self, request: Request) -> Response:
        charge(request, CLUBS)

        def call(key: str) -> Written[Any]:
            body = _body(request)
            if not isinstance(body.get("slug", ""), str):
                raise EngineError(N_("'slug' (mã làng) phải là một chuỗi."))
            return club_open(
                name=body.get("name", ""),
                kind=body.get("kind", "lang"),
                slug=body.get("slug", ""),
                organiser=request.user,
                idempotency_key=key,
            )

        return _write(request, call)


class PlayersView(LedgerView):
    needs = {"GET": SIGNED_IN, "POST": SIGNED_IN}

    @extend_schema(
        operation_id="players_list",
        summary="Người chơi mà tài khoản được biết (lọc theo ?club=mã; mỗi trang 100, trang sau: tiêu đề Link)",
        parameters=[OpenApiParameter("club", str, description="Mã làng / câu lạc bộ"), CURSOR, LINK],
        responses=sc.answers({200: sc.Player.__class__(many=True)}, 400, 401, 403),
    )
    def get(self, request: Request) -> Response:
        players = visible_players(request.user).select_related("club")
        club = _query(request, "club")
        if club:
            players = players.filter(club__slug=club)
        return page_of(players, request, self, sel.player_json)

    @extend_schema(
        operation_id="players_create",
        summary="Thêm người chơi (vào làng mình ghi điểm, hoặc khách)",
        parameters=[IDEMPOTENCY_KEY],
        request=PlayerCreate,
        responses=sc.answers({201: sc.Player}, *WRITE),
    )
    def post(self, request: Request) -> Response:
        body = _body(request)
        club = _club(body.get("club"))
        if club is not None and not request.user.has_perm("scoring.open_sitting", club):
            raise exceptions.PermissionDenied(
                f"Bạn không thêm được người chơi vào '{club.name}': chỉ chủ sổ và thư ký ghi điểm của "
                "nơi đó mới thêm được."
            )
        return _write(
            request,
            lambda key: people.player_create(name=body.get("name", ""), club=club, idempotency_key=key),
        )


class RuleSetsView(LedgerView):
    needs = {"GET": PUBLIC}

    @extend_schema(
        operation_id="rule_sets_list",
        summary="Bộ luật có sẵn và lệ làng đã lưu (lọc theo ?game=)",
        parameters=[GAME],
        responses=sc.answers({200: sc.RuleSetInfo.__class__(many=True)}, 400, 401),
    )
    def get(self, request: Request) -> Response:
        game = request.query_params.get("game")
        family = get_game(game).family.value if game else None
        return Response(sel.rule_sets(family=family))
