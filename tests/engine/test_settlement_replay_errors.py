"""Bad replay input is refused with a Vietnamese message naming the ván (1-based) and the key."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine.errors import CuocError, EngineError, GameError, RuleError, SettlementError
from scoring.engine.settlement import replay

FIVE = ["An", "Bình", "Chi", "Dũng", "Em"]
OK = {"winner": "An", "cuoc": ["tom"]}


def _request(van: list[Any], **extra: Any) -> dict[str, Any]:
    return {"game": "to-tom-5", "rules": "luat-2005", "mode": "quang", "players": FIVE, "van": van, **extra}


@pytest.mark.parametrize(
    ("van", "error", "message"),
    [
        (
            [OK, OK, {"winner": "Bin", "cuoc": ["tom"]}],
            SettlementError,
            "Ván 3: không có người chơi 'Bin' (khóa 'winner')",
        ),
        (
            [{"winner": "An", "cuoc": ["tom"], "discarder": "Bin"}],
            SettlementError,
            "Ván 1: không có người chơi 'Bin' (khóa 'discarder')",
        ),
        ([OK, {"winner": "An", "cuoc": ["tomm"]}], CuocError, "Ván 2: Không có cước 'tomm'"),
        (
            [OK, {"winner": "An", "cuoc": ["tom"], "who": "x"}],
            SettlementError,
            "Ván 2: khóa không hợp lệ: who",
        ),
        ([{"winner": "An", "result": "hoa"}], SettlementError, "Ván 1: không thể vừa có người ù"),
        ([{}], SettlementError, "Ván 1: thiếu kết quả"),
        ([{"result": "thua"}], SettlementError, "Ván 1: 'result' chỉ nhận \"hoa\""),
        ([{"cuoc": ["tom"], "result": "hoa"}], SettlementError, "Ván 1: 'cuoc' chỉ dùng khi có người ù"),
        ([{"winner": "An", "cuoc": ["tom"], "chiu": ["An"]}], SettlementError, "Ván 1: 'An' đã chịu"),
        (
            [{"winner": "An", "cuoc": ["tom"], "discarder": "An"}],
            SettlementError,
            "Ván 1: người ù 'An' không thể là người đánh",
        ),
        ([{"winner": "An", "cuoc": "tom"}], SettlementError, "Ván 1: 'cuoc' phải là một danh sách cước"),
        (
            [{"result": "hoa", "ga": [{"kind": "nhai", "player": "An", "count": 0}]}],
            SettlementError,
            "Ván 1: 'ga.count'",
        ),
        (["hoa"], SettlementError, "Ván 1: mỗi ván phải là một đối tượng JSON"),
        (
            [{"winner": "An", "cuoc": ["tam_do"]}],
            CuocError,
            "Ván 1: Cước 'tam_do' (Tám Đỏ) không có trong Tổ Tôm Bí Ngũ",
        ),
    ],
)
def test_bad_van_names_the_van_and_the_key(van: list[Any], error: type[EngineError], message: str) -> None:
    with pytest.raises(error) as caught:
        replay(_request(van))
    assert message in caught.value.message


@pytest.mark.parametrize(
    ("change", "error", "message"),
    [
        ({"players": ["An", "Bình", "Chi", "Dũng"]}, GameError, "Tổ Tôm Bí Ngũ cần 5 người chơi"),
        ({"players": ["An", "An", "Chi", "Dũng", "Em"]}, SettlementError, "tên người chơi lặp lại"),
        ({"players": ["An", "pool", "Chi", "Dũng", "Em"]}, SettlementError, "trùng với tên tài khoản"),
        ({"rules": "luat-2099"}, RuleError, "Không có bộ luật 'luat-2099'"),
        ({"rules": "chan"}, RuleError, "không dùng được cho trò chơi 'to-tom-5'"),
        ({"mode": "quay"}, SettlementError, "'mode' phải là 'quang'"),
        ({"game": "co-tuong"}, GameError, "Không có trò chơi 'co-tuong'"),
        ({"extra": 1}, SettlementError, "Khóa không hợp lệ: extra"),
        ({"ga_trong": {"regime": "vit"}}, RuleError, "ga_trong"),
        ({"ga_ngoai": {"loai": "don"}}, RuleError, "'ga_ngoai': khóa không hợp lệ loai"),
    ],
)
def test_bad_request_is_refused(change: dict[str, Any], error: type[EngineError], message: str) -> None:
    with pytest.raises(error) as caught:
        replay(_request([OK]) | change)
    assert message in caught.value.message


def test_missing_required_keys_are_named() -> None:
    with pytest.raises(SettlementError, match="Thiếu khóa bắt buộc: players"):
        replay({"game": "to-tom-5", "rules": "luat-2005", "van": []})


def test_rules_may_be_an_object_with_overrides() -> None:
    # Thập Điều valued 16 in this village: 4 x 16
    answer = replay(
        _request(
            [{"winner": "An", "cuoc": ["thap_dieu"]}],
            rules={"preset": "luat-2005", "cuoc": {"thap_dieu": {"main": 16}}},
        )
    )
    assert answer["balances"]["An"] == 64


def test_mode_defaults_to_quang_and_an_empty_sitting_has_no_hoi() -> None:
    request = _request([])
    del request["mode"]
    assert replay(request) == {
        "balances": dict.fromkeys(FIVE, 0),
        "pool": 0,
        "ga_trong": 0,
        "hoi": [],
        "van": [],
    }
