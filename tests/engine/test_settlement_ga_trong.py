"""Gà trong (docs/rules.md §9): a pot fed by contributions (in dịch, by regime), taken whole by the
winner of an eligible tiếng (default: Tứ Trụ, Kính Tứ Cố)."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine.errors import SettlementError
from scoring.engine.settlement import replay

FIVE = ["An", "Bình", "Chi", "Dũng", "Em"]


def _replay(
    van: list[dict[str, Any]], ga_trong: dict[str, Any], mode: str = "quang", rules: Any = "luat-2005"
) -> dict[str, Any]:
    return replay(
        {"game": "to-tom-5", "rules": rules, "mode": mode, "players": FIVE, "van": van, "ga_trong": ga_trong}
    )


def test_ga_lang_danh_u_and_thong_then_a_tu_tru_takes_the_pot() -> None:
    # luat-2005, D = 2, gà làng: đánh ù 1 dịch, thông by the winner's nhà trên
    answer = _replay(
        [
            {"winner": "An", "cuoc": ["tom"], "discarder": "Bình"},  # Bình feeds 2: pot 2
            # Lèo + Thông = 12; Chi feeds 2 (đánh ù), Em (An's nhà trên) feeds Thông 1 dịch = 2: pot 6
            {"winner": "An", "cuoc": ["leo"], "discarder": "Chi"},
            # Em feeds 2 (pot 8); Dũng's Thập Điều takes the pot
            {"winner": "Dũng", "cuoc": ["thap_dieu"], "discarder": "Em"},
        ],
        {"regime": "lang"},
    )
    # An 32 + 48 - 18 = 62; Bình -8 - 2 - 12 - 18; Chi -8 - 12 - 2 - 18; Dũng -8 - 12 + 72 + 8;
    # Em -8 - 12 - 2 - 18 - 2
    assert answer["balances"] == {"An": 62, "Bình": -40, "Chi": -40, "Dũng": 60, "Em": -42}
    assert answer["ga_trong"] == 0
    last = answer["van"][2]["transfers"][-1]
    assert last == {
        "from": "ga_trong",
        "to": "Dũng",
        "amount": 8,
        "why": "Dũng ăn gà trong 8 điểm: ù Thập Điều",
    }


def test_ga_cong_nghiep_collects_every_contribution() -> None:
    answer = _replay(
        [
            # đầu hội 2 dịch + đầu ván 1 dịch = 6 from each: 30; Bình nhái a second time in a row:
            # the four others pay 2 x 1 dịch = 4 each: 16; Chi lays 3 cards in excess: 3 x 2 = 6 -> 52
            {
                "result": "hoa",
                "ga": [
                    {"kind": "nhai", "player": "Bình", "count": 2},
                    {"kind": "quan_lo", "player": "Chi", "count": 3},
                ],
            },
            # đầu ván 2 each: 62; An's Bạch Định (24) takes the 62
            {"winner": "An", "cuoc": ["bach_dinh"]},
        ],
        {"regime": "cong_nghiep", "amounts": {"dau_hoi": 2, "dau_van": 1}},
    )
    assert [t["amount"] for t in answer["van"][1]["transfers"] if t["from"] == "ga_trong"] == [62]
    # An: -6 - 4 - 2 + 4 x 24 + 62 = 146
    assert answer["balances"]["An"] == 146
    assert answer["ga_trong"] == 0


@pytest.mark.parametrize(
    ("regime", "pot"),
    [
        # lành làng winner feeds 1 dịch (2) under công nghiệp, nhà; not under rừng, làng
        pytest.param("cong_nghiep", 10 + 2, id="công nghiệp: đầu ván 5 x 2 + lành làng 2"),
        pytest.param("nha", 2, id="nhà: faults only -> 2"),
        pytest.param("rung", 0, id="rừng: no đầu ván, no lành làng"),
        pytest.param("lang", 0, id="làng: only đánh ù and thông"),
    ],
)
def test_regimes_choose_which_contributions_apply(regime: str, pot: int) -> None:
    answer = _replay(
        [{"winner": "Chi", "cuoc": ["tom"], "fault": "lanh_lang"}],
        {"regime": regime, "amounts": {"dau_hoi": 0}},
    )
    assert answer["ga_trong"] == pot


@pytest.mark.parametrize(
    ("regime", "pot"),
    [
        # ù báo: the winner pays đền làng 4 to each (gom: into the pool) and gà ù báo 1 dịch = 2
        pytest.param("rung", 2 + 2 * 5, id="rừng: đầu hội 1 dịch x 5 + ù báo 2"),
        pytest.param("nha", 2, id="nhà: ù báo 2"),
    ],
)
def test_heavy_faults_feed_the_pot(regime: str, pot: int) -> None:
    answer = _replay(
        [{"winner": "Chi", "cuoc": ["tom"], "fault": "u_bao"}], {"regime": regime, "amounts": {"dau_hoi": 1}}
    )
    assert answer["ga_trong"] == pot
    assert answer["balances"]["Chi"] == -16 - 2 - (2 if regime == "rung" else 0)


def test_the_pot_stays_for_a_win_that_is_not_eligible_or_not_paid() -> None:
    answer = _replay(
        [
            {"winner": "An", "cuoc": ["tom"], "discarder": "Bình"},  # Tôm: not eligible, pot 2
            {
                "winner": "Chi",
                "cuoc": ["thap_dieu"],
                "fault": "lanh_lang",
                "discarder": "Dũng",
            },  # unpaid: pot 4
        ],
        {"regime": "lang"},
    )
    assert answer["ga_trong"] == 4
    assert sum(answer["balances"].values()) + answer["ga_trong"] == 0


def test_ga_trong_in_gom_is_fed_from_balances_not_from_the_pool() -> None:
    # hoi-50 (D 2): pool 50; Bình discards An's Tôm: feeds 2; An takes 6 from the pool
    answer = _replay(
        [{"winner": "An", "cuoc": ["tom"], "discarder": "Bình"}], {"regime": "lang"}, "gom", "hoi-50"
    )
    assert (answer["pool"], answer["ga_trong"]) == (44, 2)
    assert answer["balances"] == {"An": -4, "Bình": -12, "Chi": -10, "Dũng": -10, "Em": -10}


def test_bi_de_u_and_bo_u_are_paid_by_the_named_player() -> None:
    answer = _replay(
        [{"result": "hoa", "ga": [{"kind": "bi_de_u", "player": "Em"}, {"kind": "bo_u", "player": "An"}]}],
        {"regime": "cong_nghiep", "amounts": {"dau_hoi": 0, "dau_van": 0, "bi_de_u": 1, "bo_u": 2}},
    )
    # Em 1 dịch = 2, An 2 dịch = 4
    assert answer["balances"] == {"An": -4, "Bình": 0, "Chi": 0, "Dũng": 0, "Em": -2}
    assert answer["ga_trong"] == 6


def test_unknown_ga_kind_names_the_van() -> None:
    with pytest.raises(SettlementError, match=r"Ván 2: không có loại gà 'vit'"):
        _replay(
            [{"result": "hoa"}, {"result": "hoa", "ga": [{"kind": "vit", "player": "An"}]}],
            {"regime": "lang"},
        )
