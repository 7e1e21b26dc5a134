"""Đánh gom (docs/rules.md §8): a pool per hội, wins taken from it, the hội lifecycle."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine.errors import RuleError
from scoring.engine.settlement import replay

FIVE = ["An", "Bình", "Chi", "Dũng", "Em"]


def _replay(van: list[dict[str, Any]], rules: Any = "hoi-50", **extra: Any) -> dict[str, Any]:
    return replay({"game": "to-tom-5", "rules": rules, "mode": "gom", "players": FIVE, "van": van, **extra})


def _balances(*values: int) -> dict[str, int]:
    return dict(zip(FIVE, values, strict=True))


def test_gom_is_collected_before_the_first_van() -> None:
    # hoi-50: five gom 10 -> pool 50; An Tôm 6 from the pool -> 44
    answer = _replay([{"winner": "An", "cuoc": ["tom"]}])
    assert answer["pool"] == 44
    assert answer["balances"] == _balances(-4, -10, -10, -10, -10)
    collect = answer["van"][0]["transfers"][:5]
    assert [(t["from"], t["to"], t["amount"]) for t in collect] == [(p, "pool", 10) for p in FIVE]
    assert collect[0]["why"] == "An góp 10 điểm vào điểm làng: gom đầu hội 1"
    assert answer["van"][0]["transfers"][5]["why"] == "Làng trả An 6 điểm: ù Tôm"


SITTING = [
    {"winner": "An", "cuoc": ["tom"]},  # pool 50 - 6 = 44
    {"winner": "Bình", "cuoc": ["chi_nay"]},  # Chi Nẩy 6 x 4 = 24: pool 20
    {"winner": "Chi", "cuoc": ["kinh_tu_co"]},  # 48 > 20: takes the 20 left, hội 1 closes
    {"winner": "Dũng", "cuoc": ["suong"]},  # hội 2 opens: +50; suông 4 -> pool 46
]


def test_a_payout_that_empties_the_pool_closes_the_hoi_and_the_next_van_reopens_it() -> None:
    answer = _replay(SITTING)
    # An -10 + 6 - 10 = -14; Bình -10 + 24 - 10 = 4; Chi -10 + 20 - 10 = 0; Dũng -20 + 4; Em -20
    assert answer["balances"] == _balances(-14, 4, 0, -16, -20)
    assert answer["pool"] == 46
    assert answer["hoi"] == [
        {"index": 1, "opened_before_van": 1, "closed_after_van": 3},
        {"index": 2, "opened_before_van": 4, "closed_after_van": None},
    ]
    assert answer["van"][2]["transfers"] == [
        {
            "from": "pool",
            "to": "Chi",
            "amount": 20,
            "why": "Làng trả Chi 20 điểm (hết điểm làng; ván đáng 48 điểm): ù Kính Tứ Cố",
        }
    ]


def test_a_sitting_that_ends_right_after_a_closing_collects_nothing_more() -> None:
    answer = _replay(SITTING[:3])
    assert answer["pool"] == 0
    assert answer["balances"] == _balances(-4, 14, 10, -10, -10)
    assert answer["hoi"] == [{"index": 1, "opened_before_van": 1, "closed_after_van": 3}]


def test_an_exact_payout_also_closes_the_hoi() -> None:
    # suong4-dich2 with gom 10: pool 50; Chi Nẩy 24 -> 26; Chi Nẩy 24 + Thông 1 dịch x 2 = 26 -> 0
    answer = _replay(
        [{"winner": "An", "cuoc": ["chi_nay"]}, {"winner": "An", "cuoc": ["chi_nay"]}], rules="suong4-dich2"
    )
    assert answer["pool"] == 0
    assert answer["van"][1]["points"] == 26
    assert answer["hoi"][0]["closed_after_van"] == 2


def test_default_gom_is_two_chi_nay_plus_one_dich_shared() -> None:
    # luat-2005: ceil((2 x 36 + 2) / 5) = 15 each -> pool 75; draw
    assert _replay([{"result": "hoa"}], rules="luat-2005")["pool"] == 75
    # suong4-dich2: (2 x 24 + 2) / 5 = 10 each -> 50
    assert _replay([{"result": "hoa"}], rules="suong4-dich2")["pool"] == 50


def test_top_level_gom_overrides_the_rule_set() -> None:
    # 8 each -> 40; An Lèo 10 (luat-2005) -> 30
    answer = _replay([{"winner": "An", "cuoc": ["leo"]}], rules="luat-2005", gom=8)
    assert answer["pool"] == 30
    assert answer["balances"]["An"] == 2


def test_kinh_tu_co_het_hoi_takes_the_whole_pool() -> None:
    rules = {"preset": "hoi-50", "kinh_tu_co_policy": "het_hoi"}
    # An Tôm 6 -> 44; Bình Kính Tứ Cố takes all 44, hội closes
    answer = _replay([{"winner": "An", "cuoc": ["tom"]}, {"winner": "Bình", "cuoc": ["kinh_tu_co"]}], rules)
    assert answer["pool"] == 0
    assert answer["balances"] == _balances(-4, 34, -10, -10, -10)
    assert answer["hoi"][0]["closed_after_van"] == 2
    assert answer["van"][1]["transfers"][0]["why"] == "Bình ăn cả điểm làng 44 điểm: ù Kính Tứ Cố, hết hội"


def test_kinh_tu_co_with_points_policy_takes_only_its_points() -> None:
    # hoi-50 default policy "points": Kính Tứ Cố 48 out of 50 -> pool 2, hội still open
    answer = _replay([{"winner": "Bình", "cuoc": ["kinh_tu_co"]}])
    assert answer["pool"] == 2
    assert answer["hoi"][0]["closed_after_van"] is None


def test_small_pool_is_topped_up_for_a_het_hoi_win() -> None:
    rules = {
        "preset": "hoi-50",
        "kinh_tu_co_policy": "het_hoi",
        "gom_topup_below": 30,
        "gom_topup_amount": 20,
    }
    # An Chi Nẩy 24 -> pool 26 (< 30); Bình Kính Tứ Cố: four others add 20 each (80) + the 26 left
    answer = _replay(
        [{"winner": "An", "cuoc": ["chi_nay"]}, {"winner": "Bình", "cuoc": ["kinh_tu_co"]}], rules
    )
    # An -10 + 24 - 20 = -6; Bình -10 + 80 + 26 = 96; Chi, Dũng, Em -10 - 20 = -30
    assert answer["balances"] == _balances(-6, 96, -30, -30, -30)
    assert answer["pool"] == 0


def test_a_pool_of_fifty_or_more_is_not_topped_up() -> None:
    rules = {"preset": "hoi-50", "kinh_tu_co_policy": "het_hoi", "gom_topup_below": 30}
    answer = _replay([{"winner": "Bình", "cuoc": ["kinh_tu_co"]}], rules)
    assert answer["balances"] == _balances(-10, 40, -10, -10, -10)  # the 50 of the pool, no top-up


def test_a_draw_keeps_the_hoi_open_and_the_pool_untouched() -> None:
    answer = _replay([{"result": "hoa"}, {"result": "hoa"}])
    assert answer["pool"] == 50
    assert len(answer["hoi"]) == 1


def test_gom_without_any_way_to_derive_the_amount_is_refused() -> None:
    with pytest.raises(RuleError, match="gom"):
        replay(
            {
                "game": "tai-ban",
                "rules": "tai-ban",
                "mode": "gom",
                "players": ["A", "B", "C"],
                "van": [{"result": "hoa"}],
            }
        )
