"""Gà ngoài (docs/rules.md §9): extra dịch for listed tiếng, paid like the win (quăng: by each payer;
gom: from the pool)."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine.errors import RuleError
from scoring.engine.settlement import replay

FIVE = ["An", "Bình", "Chi", "Dũng", "Em"]


def _replay(van: list[dict[str, Any]], mode: str, rules: Any, ga_ngoai: dict[str, Any]) -> dict[str, Any]:
    return replay(
        {"game": "to-tom-5", "rules": rules, "mode": mode, "players": FIVE, "van": van, "ga_ngoai": ga_ngoai}
    )


@pytest.mark.parametrize(
    ("kind", "cuoc", "gain"),
    [
        # Thập Điều 18, dịch 3 -> gà 3 x 2 = 6: four pay 18 + 6 -> +96
        pytest.param("don", ["thap_dieu"], 96, id="đơn Thập Điều: 4 x (18 + 6)"),
        # Thập Điều + Tôm = 18 + 2 = 20; đơn counts the largest cước's dịch: 3 x 2 = 6 -> 4 x 26
        pytest.param("don", ["thap_dieu", "tom"], 104, id="đơn Thập Điều+Tôm: 4 x (20 + 6)"),
        # chồng counts every cước: (3 + 1) x 2 = 8 -> 4 x 28
        pytest.param("chong", ["thap_dieu", "tom"], 112, id="chồng Thập Điều+Tôm: 4 x (20 + 8)"),
        # Tôm is not a listed tiếng: no gà, 4 x 8
        pytest.param("chong", ["tom"], 32, id="Tôm earns no gà ngoài"),
        # Bạch Định 24 (dịch 4) + Tôm 1 dịch x 2 = 26; chồng (4 + 1) x 2 = 10 -> 4 x 36
        pytest.param("chong", ["bach_dinh", "tom"], 144, id="chồng Bạch Định+Tôm: 4 x (26 + 10)"),
    ],
)
def test_ga_ngoai_in_quang_is_paid_by_every_payer(kind: str, cuoc: list[str], gain: int) -> None:
    answer = _replay([{"winner": "An", "cuoc": cuoc}], "quang", "luat-2005", {"kind": kind})
    assert answer["balances"]["An"] == gain
    assert sum(answer["balances"].values()) == 0


def test_ga_ngoai_is_a_separate_transfer_with_its_reason() -> None:
    answer = _replay([{"winner": "An", "cuoc": ["thap_dieu"]}], "quang", "luat-2005", {"kind": "don"})
    whys = [t["why"] for t in answer["van"][0]["transfers"] if t["from"] == "Bình"]
    assert whys == ["Bình trả An 18 điểm: ù Thập Điều", "Bình trả An 6 điểm: gà ngoài (ù Thập Điều)"]


def test_ga_ngoai_in_gom_comes_from_the_pool() -> None:
    # hoi-50: pool 50; Chi Thập Điều 3 x 4 = 12, gà đơn 3 dịch x 2 = 6 -> pool 32, Chi -10 + 18
    answer = _replay([{"winner": "Chi", "cuoc": ["thap_dieu"]}], "gom", "hoi-50", {"kind": "don"})
    assert answer["pool"] == 32
    assert answer["balances"]["Chi"] == 8


def test_ga_ngoai_in_gom_stops_when_the_pool_is_empty() -> None:
    # hoi-50: Bình Chi Nẩy 24 + gà 6 dịch x 2 = 12 -> pool 14; An Chi Nẩy 24: takes the 14 left,
    # nothing remains for the gà; the hội closes
    answer = _replay(
        [{"winner": "Bình", "cuoc": ["chi_nay"]}, {"winner": "An", "cuoc": ["chi_nay"]}],
        "gom",
        "hoi-50",
        {"kind": "don"},
    )
    assert answer["balances"]["Bình"] == 26
    assert answer["balances"]["An"] == 4
    assert answer["pool"] == 0
    assert answer["hoi"][0]["closed_after_van"] == 2


def test_ga_ngoai_listed_tieng_can_be_chosen() -> None:
    # only Lèo earns gà here: Lèo 10, dịch 2 -> 4 x (10 + 4) = 56
    answer = _replay(
        [{"winner": "An", "cuoc": ["leo"]}], "quang", "luat-2005", {"kind": "don", "tieng": ["leo"]}
    )
    assert answer["balances"]["An"] == 56


def test_ga_ngoai_with_a_substitute_payer_is_paid_by_the_substitute() -> None:
    # Em broke "một thành hai chờ": pays Thập Điều 18 x 4 and the gà 6 x 4 alone
    answer = _replay(
        [{"winner": "An", "cuoc": ["thap_dieu"], "discarder": "Em", "fault": "danh_u_den"}],
        "quang",
        "luat-2005",
        {"kind": "don"},
    )
    assert answer["balances"] == {"An": 96, "Bình": 0, "Chi": 0, "Dũng": 0, "Em": -96}


def test_unknown_ga_ngoai_kind_is_refused_in_vietnamese() -> None:
    with pytest.raises(RuleError, match="ga_ngoai"):
        _replay([{"result": "hoa"}], "quang", "luat-2005", {"kind": "kep"})
