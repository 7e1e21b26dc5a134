"""``POST /api/v1/check-hand``: the same contract as ``python manage.py check_hand``."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, PolymorphicProxySerializer, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.api import schemas as sc
from scoring.engine import MAX_PLAYER_NAME, check_request, run_batch
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
PhomRequest = sc.shape(
    "CheckPhomRequest",
    {
        "game": sc.choice(["phom"], help_text="Phỏm"),
        "players": sc.shape(
            "CheckPhomPlayer",
            {
                "name": serializers.CharField(
                    required=False,
                    allow_null=True,
                    max_length=MAX_PLAYER_NAME,
                    help_text="Tên (mặc định: số thứ tự)",
                ),
                "hand": sc.raw(
                    {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
                    help_text="Quân bài tây khi hạ: 'kc 10t ab' (K Cơ, 10 Tép, A Bích; b t r c = Bích Tép Rô Cơ)",
                ),
            },
            closed=True,
            many=True,
            min_length=2,
            max_length=4,
            help_text="Bài của từng người, theo thứ tự hạ bài (bằng điểm thì ai hạ trước xếp trên)",
        ),
        "rules": sc.rules(required=False, allow_null=True),
    },
    closed=True,
)
PhomAnswer = sc.shape(
    "CheckPhomResponse",
    {
        "players": sc.shape(
            "CheckPhomHand",
            {
                "name": serializers.CharField(),
                "hand": serializers.ListField(child=serializers.CharField()),
                "phom": serializers.ListField(child=serializers.ListField(child=serializers.CharField())),
                "left": serializers.ListField(child=serializers.CharField(), help_text="Quân lẻ (rác)"),
                "points": serializers.IntegerField(help_text="Điểm quân lẻ: A = 1 … K = 13"),
                "mom": serializers.BooleanField(help_text="Không có phỏm nào: về bét"),
                "u": serializers.BooleanField(),
                "u_khan": serializers.BooleanField(),
            },
            many=True,
        ),
        "ranks": serializers.ListField(
            child=serializers.CharField(), help_text="Thứ hạng từ nhất đến bét (rỗng khi có người ù)"
        ),
        "winner": serializers.CharField(allow_null=True, help_text="Người ù (null: không ai ù)"),
        "message": serializers.CharField(),
    },
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
        "CheckHandAnswer", serializers=[Verdict, Waits, PhomAnswer], resource_type_field_name=None, many=many
    )


_ONE = PolymorphicProxySerializer(
    "CheckHandOne", serializers=[CheckRequest, PhomRequest], resource_type_field_name=None, many=False
)
_MANY = PolymorphicProxySerializer(
    "CheckHandOne", serializers=[CheckRequest, PhomRequest], resource_type_field_name=None, many=True
)
#: One request (a hand, or a Phỏm ván's hands) or a list of them.
REQUESTS = PolymorphicProxySerializer(
    "CheckHandRequests", serializers=[_ONE, _MANY], resource_type_field_name=None, many=False
)

CheckAnswers = PolymorphicProxySerializer(
    "CheckHandAnswers", serializers=[_answer(False), _answer(True)], resource_type_field_name=None, many=False
)


class CheckHandView(ContractView):
    """Kiểm bài: một bài ù có tròn, có lưng, có đúng cước đã xướng không; hoặc bài chờ quân nào;
    hoặc (Phỏm) bài của mỗi người khi hạ: phỏm, điểm quân lẻ và thứ hạng của ván."""

    @extend_schema(
        operation_id="check_hand",
        summary="Kiểm bài ù theo quân, hoặc liệt kê quân chờ (một yêu cầu hoặc một danh sách)",
        request={"application/json": REQUESTS},
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
            ),
            OpenApiExample(
                "Một ván Phỏm",
                value={
                    "game": "phom",
                    "players": [
                        {"name": "An", "hand": "ab 2b 3b 4b 7c 7r 7t kc qc"},
                        {"name": "Bình", "hand": "5c 6c 8c 9r 10r jr 2t 3t 4t"},
                    ],
                },
                request_only=True,
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        return contract_response(
            request,
            lambda payload: run_batch(payload, lambda r: check_request(r, resolve_rules=resolve_rules)),
        )
