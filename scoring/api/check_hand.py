"""``POST /api/v1/check-hand``: the same contract as ``python manage.py check_hand``."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, PolymorphicProxySerializer, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.api import schemas as sc
from scoring.engine import check_request, run_batch
from scoring.services.rules import resolve_rules

from .common import ContractView, contract_response

#: The checker's verdicts (scoring.engine.checker.Verdict, not imported here: the checker loads lazily;
#: tests/web/test_check_hand_phom.py checks the two agree).
VERDICTS = ["qua_bon_quan", "sai_so_quan", "khong_tron", "khong_lung", "xuong_thua", "xuong_thieu", "ok"]
EXAMPLE_HAND = "7v 3m 3s 4v 5v 6v 2v 2m 2s 5m 6m 7m 9v 9m 9s 1v oc 4s 5s 6s 1m"

CheckRequest = sc.shape(
    "CheckHandRequest",
    {
        "game": sc.choice(sc.SCORED_GAMES, help_text="Trò chơi"),
        "hand": sc.raw(
            {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
            help_text="Mã quân cách nhau bởi dấu cách hoặc dấu phẩy, hoặc một danh sách mã quân",
        ),
        "declared": serializers.ListField(
            child=serializers.CharField(allow_blank=True),
            required=False,
            allow_null=True,
            help_text="Cước đã xướng (null: không kiểm cước)",
        ),
        "waits": serializers.BooleanField(required=False, help_text="Bài thiếu một quân: liệt kê quân chờ"),
        "dealt_khan": serializers.BooleanField(
            required=False, allow_null=True, help_text="Tài Bàn: có khàn lúc chia bài (null: như không gửi)"
        ),
        "rules": sc.rules(required=False, allow_null=True),
    },
    closed=True,
)
Verdict = sc.shape(
    "CheckHandResponse",
    {
        "tron": serializers.BooleanField(),
        "valid": serializers.BooleanField(),
        "lung": serializers.ListField(child=serializers.CharField()),
        "cuoc": serializers.ListField(child=serializers.CharField()),
        "verdict": serializers.ChoiceField(choices=VERDICTS),
        "arrangement": serializers.ListField(child=serializers.ListField(child=serializers.CharField())),
        "message": serializers.CharField(),
        "lung_count": serializers.IntegerField(required=False),
    },
)
Waits = sc.shape(
    "CheckHandWaits",
    {
        "waits": sc.shape(
            "CheckHandWait",
            {
                "card": serializers.CharField(),
                "cuoc": serializers.ListField(child=serializers.CharField()),
                "allows": serializers.ListField(child=serializers.CharField()),
                "lung_count": serializers.IntegerField(required=False),
            },
            many=True,
        ),
    },
)


def _answer(many: bool) -> PolymorphicProxySerializer:
    """A verdict, or the waits of a hand one card short (``"waits": true``)."""
    return PolymorphicProxySerializer(
        "CheckHandAnswer", serializers=[Verdict, Waits], resource_type_field_name=None, many=many
    )


CheckAnswers = PolymorphicProxySerializer(
    "CheckHandAnswers", serializers=[_answer(False), _answer(True)], resource_type_field_name=None, many=False
)


class CheckHandView(ContractView):
    """Kiểm bài: một bài ù có tròn, có lưng, có đúng cước đã xướng không; hoặc bài chờ quân nào."""

    @extend_schema(
        operation_id="check_hand",
        summary="Kiểm bài ù theo quân, hoặc liệt kê quân chờ (một yêu cầu hoặc một danh sách)",
        request={"application/json": sc.batch("CheckHandRequests", CheckRequest)},
        responses={
            200: CheckAnswers,
            400: OpenApiResponse(
                sc.Error, description="Yêu cầu sai (với một danh sách: số thứ tự phần tử sai)"
            ),
            415: OpenApiResponse(sc.Error, description=sc.WHY[415]),
        },
        auth=[],
        examples=[
            OpenApiExample(
                "Bài Tôm",
                value={"game": "to-tom-5", "hand": EXAMPLE_HAND, "declared": ["tom"]},
                request_only=True,
            )
        ],
    )
    def post(self, request: Request) -> Response:
        return contract_response(
            request,
            lambda payload: run_batch(payload, lambda r: check_request(r, resolve_rules=resolve_rules)),
        )
