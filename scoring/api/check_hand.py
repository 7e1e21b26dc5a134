"""``POST /api/v1/check-hand``: the same contract as ``python manage.py check_hand``."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.engine.contract import check_request, run_batch

from .common import contract_response

EXAMPLE_HAND = "7v 3m 3s 4v 5v 6v 2v 2m 2s 5m 6m 7m 9v 9m 9s 1v oc 4s 5s 6s 1m"

CheckRequest = inline_serializer(
    "CheckHandRequest",
    {
        "game": serializers.ChoiceField(choices=["to-tom-5", "to-tom-4", "tai-ban", "to-tom-diem", "chan"]),
        "hand": serializers.CharField(help_text="Mã quân cách nhau bởi dấu cách hoặc dấu phẩy, hoặc một danh sách"),
        "declared": serializers.ListField(child=serializers.CharField(), required=False, help_text="Cước đã xướng"),
        "waits": serializers.BooleanField(required=False, help_text="Bài thiếu một quân: liệt kê quân chờ"),
        "dealt_khan": serializers.BooleanField(required=False, help_text="Tài Bàn: có khàn lúc chia bài"),
    },
)
CheckResponse = inline_serializer(
    "CheckHandResponse",
    {
        "tron": serializers.BooleanField(),
        "valid": serializers.BooleanField(),
        "lung": serializers.ListField(child=serializers.CharField()),
        "cuoc": serializers.ListField(child=serializers.CharField()),
        "verdict": serializers.ChoiceField(
            choices=["sai_so_quan", "khong_tron", "khong_lung", "xuong_thua", "xuong_thieu", "ok"]
        ),
        "arrangement": serializers.ListField(child=serializers.ListField(child=serializers.CharField())),
        "message": serializers.CharField(),
        "lung_count": serializers.IntegerField(required=False),
        "waits": serializers.ListField(child=serializers.DictField(), required=False),
    },
)


class CheckHandView(APIView):
    """Kiểm bài: một bài ù có tròn, có lưng, có đúng cước đã xướng không; hoặc bài chờ quân nào."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(
        operation_id="check_hand",
        summary="Kiểm bài ù theo quân, hoặc liệt kê quân chờ",
        request={"application/json": CheckRequest},
        responses={200: CheckResponse, 400: inline_serializer("CheckHandError", {"error": serializers.CharField()})},
        examples=[
            OpenApiExample(
                "Bài Tôm", value={"game": "to-tom-5", "hand": EXAMPLE_HAND, "declared": ["tom"]}, request_only=True
            )
        ],
    )
    def post(self, request: Request) -> Response:
        return contract_response(request, lambda payload: run_batch(payload, check_request))
