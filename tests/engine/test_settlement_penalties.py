"""Penalties (docs/rules.md §7, §10) in both modes: đền làng, báo ngồi đấy, báo chèo đò, đánh ù đền,
đền chồng. luat-2005 (S 4) in quăng, hoi-50 (S 4, pool 50) in gom; five players."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine.errors import SettlementError
from scoring.engine.settlement import replay

FIVE = ["An", "Bình", "Chi", "Dũng", "Em"]


def _replay(van: list[dict[str, Any]], mode: str = "quang", rules: Any = None) -> dict[str, Any]:
    rules = rules or ("luat-2005" if mode == "quang" else "hoi-50")
    return replay({"game": "to-tom-5", "rules": rules, "mode": mode, "players": FIVE, "van": van})


def _b(*values: int) -> dict[str, int]:
    return dict(zip(FIVE, values, strict=True))


QUANG_CASES = [
    # ù báo: A = S = 4 to each of the four others
    pytest.param(
        [{"winner": "Chi", "cuoc": ["tom"], "fault": "u_bao"}], _b(4, 4, -16, 4, 4), None, id="ù báo: 4 x 4"
    ),
    # xướng thừa: declared Lèo (10) on a Tôm hand, inferred from 'declared' alone: 10 x 4
    pytest.param(
        [{"winner": "Chi", "cuoc": ["tom"], "declared": ["leo"]}],
        _b(10, 10, -40, 10, 10),
        None,
        id="xướng thừa 10 x 4",
    ),
    # xướng thừa of Tôm + Lèo (12) on a Tôm hand: "xướng sao đền vậy" 12 x 4
    pytest.param(
        [{"winner": "Chi", "cuoc": ["tom"], "declared": ["tom", "leo"], "fault": "xuong_thua"}],
        _b(12, 12, -48, 12, 12),
        None,
        id="xướng thừa Tôm+Lèo 12 x 4",
    ),
    # báo đền làng with no win: Dũng pays 4 to each
    pytest.param([{"bao": "Dũng", "regime": "den_lang"}], _b(4, 4, 4, -16, 4), None, id="báo đền làng"),
    # báo đền làng and An's Tôm in the same ván: Dũng pays 4 to each and still his 8
    pytest.param(
        [{"bao": "Dũng", "regime": "den_lang", "winner": "An", "cuoc": ["tom"]}],
        _b(36, -4, -4, -24, -4),
        None,
        id="báo đền làng + Tôm",
    ),
    # báo ngồi đấy, then a draw: nothing
    pytest.param(
        [{"bao": "Dũng", "regime": "ngoi_day", "result": "hoa"}], _b(0, 0, 0, 0, 0), None, id="ngồi đấy, hòa"
    ),
    # báo ngồi đấy, Em folded: Dũng pays Tôm 8 for the three payers Bình, Chi, Dũng = 24
    pytest.param(
        [{"bao": "Dũng", "regime": "ngoi_day", "winner": "An", "cuoc": ["tom"], "chiu": ["Em"]}],
        _b(24, 0, 0, -24, 0),
        None,
        id="ngồi đấy with a fold: 8 x 3",
    ),
    # đánh ù đền: Em pays Lèo 10 x 4
    pytest.param(
        [{"winner": "Chi", "cuoc": ["leo"], "discarder": "Em", "fault": "danh_u_den"}],
        _b(0, 0, 40, 0, -40),
        None,
        id="đánh ù đền 10 x 4",
    ),
    # đền chồng: Em pays Lèo 10 x 4 and đền làng 4 to each of the four others
    pytest.param(
        [{"winner": "Chi", "cuoc": ["leo"], "discarder": "Em", "fault": "den_chong"}],
        _b(4, 4, 44, 4, -56),
        None,
        id="đền chồng 40 + 4 x 4",
    ),
    # đền làng amount set by the rule set: 6 x 4
    pytest.param(
        [{"winner": "Chi", "cuoc": ["tom"], "fault": "u_bao"}],
        _b(6, 6, -24, 6, 6),
        {"preset": "luat-2005", "den_lang_amount": 6},
        id="den_lang_amount 6",
    ),
]


@pytest.mark.parametrize(("van", "balances", "rules"), QUANG_CASES)
def test_penalties_in_quang(van: list[dict[str, Any]], balances: dict[str, int], rules: Any) -> None:
    assert _replay(van, "quang", rules)["balances"] == balances


GOM_CASES = [
    # ù báo: Chi pays 4 x (5 - 1) = 16 into the pool: 50 + 16
    pytest.param(
        [{"winner": "Chi", "cuoc": ["tom"], "fault": "u_bao"}], _b(-10, -10, -26, -10, -10), 66, id="ù báo"
    ),
    # xướng thừa Lèo (hoi-50: 8): 8 x 4 = 32 into the pool
    pytest.param(
        [{"winner": "Chi", "cuoc": ["suong"], "declared": ["leo"], "fault": "xuong_thua"}],
        _b(-10, -10, -42, -10, -10),
        82,
        id="xướng thừa 8 x 4 into the pool",
    ),
    # ngồi đấy: Dũng pays An's Tôm 6 instead of the pool
    pytest.param(
        [{"bao": "Dũng", "regime": "ngoi_day", "winner": "An", "cuoc": ["tom"]}],
        _b(-4, -10, -10, -16, -10),
        50,
        id="ngồi đấy: Dũng pays 6",
    ),
    # đánh ù đền: Em pays Chi's Lèo 8 instead of the pool
    pytest.param(
        [{"winner": "Chi", "cuoc": ["leo"], "discarder": "Em", "fault": "danh_u_den"}],
        _b(-10, -10, -2, -10, -18),
        50,
        id="đánh ù đền: Em pays 8",
    ),
    # đền chồng: Em pays 8 to Chi and 4 x 4 into the pool
    pytest.param(
        [{"winner": "Chi", "cuoc": ["leo"], "discarder": "Em", "fault": "den_chong"}],
        _b(-10, -10, -2, -10, -34),
        66,
        id="đền chồng: 8 + 16 into the pool",
    ),
]


@pytest.mark.parametrize(("van", "balances", "pool"), GOM_CASES)
def test_penalties_in_gom(van: list[dict[str, Any]], balances: dict[str, int], pool: int) -> None:
    answer = _replay(van, "gom")
    assert answer["balances"] == balances
    assert answer["pool"] == pool


@pytest.mark.parametrize("mode", ["quang", "gom"])
def test_lanh_lang_wins_are_not_paid(mode: str) -> None:
    answer = _replay([{"winner": "Chi", "cuoc": ["thap_dieu"], "fault": "lanh_lang"}], mode)
    assert answer["van"][0]["points"] == (18 if mode == "quang" else 12)  # scored, shown, not paid
    assert answer["balances"]["Chi"] == (0 if mode == "quang" else -10)


def test_cheo_do_debt_makes_the_next_win_unpaid() -> None:
    answer = _replay(
        [
            {"bao": "Dũng", "regime": "cheo_do"},  # nothing paid now
            {"winner": "Dũng", "cuoc": ["tom"]},  # unpaid: the debt is repaid
            {"winner": "Dũng", "cuoc": ["tom"]},  # paid, and streak 1 (the unpaid win is no valid win)
        ]
    )
    assert [len(v["transfers"]) for v in answer["van"]] == [0, 0, 4]
    assert answer["van"][2]["streak"] == 1
    assert answer["balances"] == _b(-8, -8, -8, 32, -8)


def test_cheo_do_unpaid_when_the_hoi_ends_is_paid_as_den_lang() -> None:
    rules = {"preset": "hoi-50", "kinh_tu_co_policy": "het_hoi"}
    answer = _replay(
        [
            {"bao": "Dũng", "regime": "cheo_do"},
            {"winner": "An", "cuoc": ["kinh_tu_co"]},  # An takes the 50: hội closes; Dũng owes 4 x 4
            {"result": "hoa"},  # hội 2: 16 + 50
        ],
        "gom",
        rules,
    )
    assert answer["van"][1]["transfers"][-1]["why"] == (
        "Dũng đền làng 16 điểm vào điểm làng (4 × 4): báo chèo đò chưa trả khi hết hội"
    )
    # An -10 + 50 - 10 = 30; Dũng -10 - 16 - 10 = -36; others -20
    assert answer["balances"] == _b(30, -20, -20, -36, -20)
    assert answer["pool"] == 66


def test_rule_set_bao_regime_is_the_default() -> None:
    # Chắn-like house: báo means ngồi đấy unless the ván says otherwise
    rules = {"preset": "luat-2005", "bao_regime": "ngoi_day"}
    answer = _replay([{"bao": "Bình", "winner": "An", "cuoc": ["leo"]}], "quang", rules)
    assert answer["balances"] == _b(40, -40, 0, 0, 0)


@pytest.mark.parametrize(
    ("van", "message"),
    [
        (
            {"winner": "An", "cuoc": ["tom"], "fault": "danh_u_den"},
            "Ván 1: 'fault' danh_u_den cần 'discarder'",
        ),
        (
            {"winner": "An", "cuoc": ["tom"], "fault": "xuong_thua"},
            "Ván 1: 'fault' xuong_thua cần 'declared'",
        ),
        ({"bao": "An", "winner": "An", "cuoc": ["tom"]}, "Ván 1: người bị báo 'An' không thể ù"),
        ({"winner": "An", "cuoc": ["tom"], "fault": "gian"}, "Ván 1: 'fault' không hợp lệ"),
        ({"bao": "An", "regime": "phat_tien"}, "Ván 1: 'regime' không hợp lệ"),
        (
            {
                "bao": "Bình",
                "regime": "ngoi_day",
                "winner": "An",
                "cuoc": ["tom"],
                "discarder": "Em",
                "fault": "danh_u_den",
            },
            "Ván 1: không thể vừa có người báo ngồi đấy vừa có người đánh ù đền",
        ),
    ],
)
def test_impossible_penalties_are_refused(van: dict[str, Any], message: str) -> None:
    with pytest.raises(SettlementError) as caught:
        _replay([van])
    assert message in caught.value.message
