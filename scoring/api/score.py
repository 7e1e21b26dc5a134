"""``POST /api/v1/score``: the same contract as ``python manage.py score``."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.api import schemas as sc
from scoring.engine import run_batch, score_request
from scoring.services.rules import resolve_rules

from .common import ERROR_EXAMPLE, ContractView, contract_response

ScoreRequest = sc.shape(
    "ScoreRequest",
    {
        "game": sc.choice(sc.SCORED_GAMES, help_text="Trò chơi"),
        "rules": sc.rules(),
        "cuoc": serializers.ListField(
            child=serializers.CharField(allow_blank=True),
            required=False,
            help_text="Các cước (mã của trò chơi; có thể lặp: hai Lèo)",
        ),
        "streak": serializers.IntegerField(min_value=1, required=False, default=1, help_text="Ù liền"),
    },
    closed=True,
)
SCORE_LINE_FIELDS = {
    "cuoc": serializers.CharField(),
    "name": serializers.CharField(),
    "points": serializers.IntegerField(),
    "dich": serializers.IntegerField(required=False),
    "why": serializers.CharField(),
}
ScoreResponse = sc.shape(
    "ScoreResponse",
    {
        "points": serializers.IntegerField(),
        "main": serializers.CharField(),
        "lines": sc.shape("ScoreLine", SCORE_LINE_FIELDS, many=True),
        "rules_fingerprint": serializers.CharField(),
    },
)


class ScoreView(ContractView):
    """Tính điểm một ván ù (hoặc một danh sách) theo lệ làng."""

    @extend_schema(
        operation_id="score",
        summary="Tính điểm và dịch của một ván ù (hoặc một danh sách ván: trả lời một danh sách)",
        request={"application/json": sc.batch("ScoreRequests", ScoreRequest)},
        responses={
            200: sc.batch("ScoreResponses", ScoreResponse),
            400: OpenApiResponse(
                sc.Error, description="Yêu cầu sai (với một danh sách: số thứ tự phần tử sai)"
            ),
            415: OpenApiResponse(sc.Error, description=sc.WHY[415]),
        },
        auth=[],
        examples=[
            OpenApiExample(
                "Xuyên Bí Tư + Thập Điều + Chi Nẩy",
                value={
                    "game": "to-tom-5",
                    "rules": "luat-2005",
                    "cuoc": ["xuyen_bi_tu", "thap_dieu", "chi_nay"],
                },
                request_only=True,
            ),
            OpenApiExample("Lỗi", value=ERROR_EXAMPLE, response_only=True, status_codes=["400"]),
        ],
    )
    def post(self, request: Request) -> Response:
        return contract_response(
            request,
            lambda payload: run_batch(payload, lambda r: score_request(r, resolve_rules=resolve_rules)),
        )


__all__ = ["ScoreView"]
