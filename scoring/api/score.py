"""``POST /api/v1/score``: the same contract as ``python manage.py score``."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.engine.contract import run_batch, score_request
from scoring.services.rules import resolve_rules

from .common import ERROR_EXAMPLE, contract_response

ScoreRequest = inline_serializer(
    "ScoreRequest",
    {
        "game": serializers.ChoiceField(
            choices=["to-tom-5", "to-tom-4", "tai-ban", "to-tom-diem", "chan"], help_text="Trò chơi"
        ),
        "rules": serializers.JSONField(
            help_text='Mã bộ luật ("luat-2005"), mã lệ làng đã lưu, hoặc {"preset": ..., thay đổi...}'
        ),
        "cuoc": serializers.ListField(child=serializers.CharField(), required=False, help_text="Các cước"),
        "streak": serializers.IntegerField(min_value=1, required=False, default=1, help_text="Ù liền"),
    },
)
SCORE_LINE_FIELDS = {
    "cuoc": serializers.CharField(),
    "name": serializers.CharField(),
    "points": serializers.IntegerField(),
    "dich": serializers.IntegerField(required=False),
    "why": serializers.CharField(),
}
ScoreResponse = inline_serializer(
    "ScoreResponse",
    {
        "points": serializers.IntegerField(),
        "main": serializers.CharField(),
        "lines": inline_serializer("ScoreLine", SCORE_LINE_FIELDS, many=True),
        "rules_fingerprint": serializers.CharField(),
    },
)
ErrorResponse = inline_serializer("ErrorResponse", {"error": serializers.CharField()})


class ScoreView(APIView):
    """Tính điểm một ván ù (hoặc một danh sách) theo lệ làng."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(
        operation_id="score",
        summary="Tính điểm và dịch của một ván ù",
        request={"application/json": ScoreRequest},
        responses={200: ScoreResponse, 400: ErrorResponse},
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
