"""Đánh quăng (docs/rules.md §8): every other seated, non-folded player pays the winner directly."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine.settlement import initial_state, replay, settle_van

FIVE = ["An", "Bình", "Chi", "Dũng", "Em"]


def _replay(van: list[dict[str, Any]], rules: Any = "luat-2005", **extra: Any) -> dict[str, Any]:
    return replay({"game": "to-tom-5", "rules": rules, "mode": "quang", "players": FIVE, "van": van, **extra})


@pytest.mark.parametrize(
    ("van", "balances"),
    [
        # Tôm 8: four pay 8 -> An +32
        pytest.param([{"winner": "An", "cuoc": ["tom"]}], [32, -8, -8, -8, -8], id="Tôm 8 x4 = 32"),
        # Lèo 10: "with 5 players a 10-point Lèo moves 40 points to the winner" (RULES §8)
        pytest.param([{"winner": "Chi", "cuoc": ["leo"]}], [-10, -10, 40, -10, -10], id="Lèo 10 x4 = 40"),
        # suông 4, two folded: Bình, Dũng pay 4 each -> Em +8
        pytest.param(
            [{"winner": "Em", "cuoc": ["suong"], "chiu": ["An", "Chi"]}],
            [0, -4, 0, -4, 8],
            id="two folds: 4x2",
        ),
        # Thập Điều 18 + Tôm 1 dịch x 2 = 20: four pay 20 -> +80
        pytest.param(
            [{"winner": "Dũng", "cuoc": ["thap_dieu", "tom"]}],
            [-20, -20, -20, 80, -20],
            id="Thập Điều+Tôm 20",
        ),
        # xướng thiếu: hand has Lèo + Tôm (12) but An declared only Tôm: paid 8 x 4
        pytest.param(
            [{"winner": "An", "cuoc": ["leo", "tom"], "declared": ["tom"]}],
            [32, -8, -8, -8, -8],
            id="xướng thiếu paid as declared",
        ),
        # draw: nothing moves
        pytest.param([{"result": "hoa"}], [0, 0, 0, 0, 0], id="hòa"),
    ],
)
def test_quang_payments(van: list[dict[str, Any]], balances: list[int]) -> None:
    answer = _replay(van)
    assert answer["balances"] == dict(zip(FIVE, balances, strict=True))
    assert answer["pool"] == 0


def test_quang_folded_player_pays_when_the_rule_set_says_so() -> None:
    # chiu_pays: Em folded but still pays: Tôm 8 x 4 = 32
    answer = _replay(
        [{"winner": "An", "cuoc": ["tom"], "chiu": ["Em"]}], {"preset": "luat-2005", "chiu_pays": True}
    )
    assert answer["balances"]["An"] == 32
    assert answer["balances"]["Em"] == -8


def test_quang_reports_one_hoi_opened_before_the_first_van() -> None:
    answer = _replay([{"winner": "An", "cuoc": ["tom"]}, {"result": "hoa"}])
    assert answer["hoi"] == [{"index": 1, "opened_before_van": 1, "closed_after_van": None}]


def test_quang_transfers_name_payer_winner_amount_and_cuoc() -> None:
    (van,) = _replay([{"winner": "An", "cuoc": ["leo"], "chiu": ["Bình", "Chi", "Dũng"]}])["van"]
    # only Em is left to pay: Lèo 10
    assert van["transfers"] == [{"from": "Em", "to": "An", "amount": 10, "why": "Em trả An 10 điểm: ù Lèo"}]


def test_settle_van_is_pure_and_folds_the_state() -> None:
    state = initial_state(FIVE, "to-tom-5", "luat-2005", "quang")
    first = settle_van(
        state, {"winner": "An", "cuoc": ["tom"]}, game="to-tom-5", rules="luat-2005", mode="quang"
    )
    second = settle_van(
        first.state, {"winner": "An", "cuoc": ["tom"]}, game="to-tom-5", rules="luat-2005", mode="quang"
    )
    assert state.balances == (0, 0, 0, 0, 0)  # the input state is untouched
    assert first.state.balance_map()["An"] == 32
    # Tôm 8 + Thông 1 dịch x 2 = 10 at streak 2: 32 + 40
    assert (second.points, second.streak) == (10, 2)
    assert second.state.balance_map()["An"] == 72
    assert second.state.dealer == "An"  # the winner gets cái (RULES §3)
    assert second.state.van_count == 2


@pytest.mark.parametrize(
    ("van", "dealer"),
    [
        pytest.param({"winner": "Chi", "cuoc": ["tom"]}, "Chi", id="the winner"),
        pytest.param(
            {"winner": "Chi", "cuoc": ["tom"], "fault": "lanh_lang"}, "Chi", id="a lành làng winner too"
        ),
        pytest.param({"winner": "Chi", "cuoc": ["tom"], "fault": "u_bao"}, "Chi", id="cái báo after ù báo"),
        pytest.param({"bao": "Dũng", "regime": "den_lang"}, "Dũng", id="cái báo after a báo"),
        pytest.param({"result": "hoa", "dau_ke": "Em"}, "Em", id="đầu kê after a draw"),
        pytest.param({"result": "hoa", "chiu": ["Bình", "An"]}, "Bình", id="the first to fold after a draw"),
        pytest.param({"result": "hoa"}, None, id="unknown"),
        pytest.param({"result": "hoa", "chiu": FIVE}, None, id="everyone folds: chosen afresh"),
    ],
)
def test_next_dealer_follows_rules_section_3(van: dict[str, Any], dealer: str | None) -> None:
    state = initial_state(FIVE, "to-tom-5", "luat-2005", "quang")
    assert settle_van(state, van, game="to-tom-5", rules="luat-2005").state.dealer == dealer
