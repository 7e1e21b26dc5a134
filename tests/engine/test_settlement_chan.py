"""Chắn (docs/rules.md §12, seed 002): points = điểm of the largest cước + dịch of the others (+ gà);
fines "8 đỏ 2 lèo" = 12; treo tranh unpaid; báo = ngồi đấy; the gà nuôi pot."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine.errors import CuocError, SettlementError
from scoring.engine.settlement import replay

FOUR = ["An", "Bình", "Chi", "Dũng"]
#: The chan preset without the gà nuôi đầu ván, to isolate each rule.
NO_DAU_VAN = {"preset": "chan", "chan_ga_nuoi_amounts": {"dau_van": 0}}


def _replay(van: list[dict[str, Any]], rules: Any = None, mode: str = "quang") -> dict[str, Any]:
    return replay({"game": "chan", "rules": rules or NO_DAU_VAN, "mode": mode, "players": FOUR, "van": van})


def _b(*values: int) -> dict[str, int]:
    return dict(zip(FOUR, values, strict=True))


@pytest.mark.parametrize(
    ("van", "balances"),
    [
        # Chì + Tám Đỏ + Lèo + Tôm + Có Chíu = 8 + 2 + 1 + 1 + 1 = 13 (seed 002): three pay 13
        pytest.param(
            [{"winner": "Chi", "cuoc": ["chi", "tam_do", "leo", "tom", "co_chiu"]}],
            _b(-13, -13, 39, -13),
            id="13 x 3",
        ),
        # Xuông 2; then the same winner: Thông 3 (Chắn has no Khôi: still Thông at 3 in a row)
        pytest.param(
            [{"winner": "An", "cuoc": ["xuong"]}] * 3,
            _b(2 * 3 + 3 * 3 + 3 * 3, -8, -8, -8),
            id="Xuông, Thông, Thông",
        ),
        # xướng sai (declared Lèo on a Tôm hand): fine 8 đỏ 2 lèo = 12 to each of three
        pytest.param(
            [{"winner": "Bình", "cuoc": ["tom"], "declared": ["leo"]}],
            _b(12, -36, 12, 12),
            id="xướng sai: 12 x 3",
        ),
        # xướng thiếu is also xướng sai in Chắn: declared Tôm on a Tôm + Lèo hand
        pytest.param(
            [{"winner": "Bình", "cuoc": ["tom", "leo"], "declared": ["tom"]}],
            _b(12, -36, 12, 12),
            id="xướng thiếu = sai",
        ),
        # ù láo (ù báo): the same fine
        pytest.param(
            [{"winner": "Bình", "cuoc": ["tom"], "fault": "u_bao"}], _b(12, -36, 12, 12), id="ù láo: 12 x 3"
        ),
        # treo tranh / trái vỉ: the win is unpaid
        pytest.param(
            [{"winner": "Bình", "cuoc": ["tam_do"], "fault": "lanh_lang"}], _b(0, 0, 0, 0), id="treo tranh"
        ),
        # báo (the preset's regime: ngồi đấy): Dũng pays An's Xuông 2 for the three = 6
        pytest.param([{"bao": "Dũng", "winner": "An", "cuoc": ["xuong"]}], _b(6, 0, 0, -6), id="báo: 2 x 3"),
        # bỏ ù fined in a ván An wins Tôm 4: An 3 x 4 + 12 = 24; Bình, Dũng 12 - 4; Chi -4 - 3 x 12
        pytest.param(
            [{"winner": "An", "cuoc": ["tom"], "den_lang": ["Chi"]}], _b(24, 8, -40, 8), id="bỏ ù fine + Tôm"
        ),
    ],
)
def test_chan_settlement(van: list[dict[str, Any]], balances: dict[str, int]) -> None:
    assert _replay(van)["balances"] == balances


def test_chan_ga_cuoc_add_ga_points() -> None:
    rules = {"preset": "chan", "chan_ga_nuoi_amounts": {"dau_van": 0}, "chan_ga_cuoc": ["tam_do"]}
    # Tám Đỏ 8 + 1 gà x 5 = 13, three pay
    assert _replay([{"winner": "An", "cuoc": ["tam_do"]}], rules)["balances"]["An"] == 39


def test_ga_nuoi_is_fed_by_dau_van_chiu_and_nhai_and_taken_by_chi_bach_thu() -> None:
    answer = _replay(
        [
            {
                "result": "hoa",
                "ga": [
                    {"kind": "chiu_noc", "player": "An"},  # Bình, Chi, Dũng pay 1
                    {"kind": "chiu_noc", "player": "Bình", "chi_chi": True},  # An, Chi, Dũng pay 2
                    {"kind": "chiu_discard", "player": "Chi"},  # Chi pays 1
                    {"kind": "nhai", "player": "Dũng", "count": 2},  # An, Bình, Chi pay 2
                ],
            },
            # đầu ván 1 each (4): pot 3 + 6 + 1 + 6 + 4 + 4 (ván 1's đầu ván) = 24
            # Chì Bạch Thủ = Bạch Thủ 4 + Chì 1 dịch = 5 from each; An takes the pot
            {"winner": "An", "cuoc": ["chi", "bach_thu"]},
        ],
        rules="chan",
    )
    taken = [t for t in answer["van"][1]["transfers"] if t["from"] == "ga_trong"]
    assert taken == [
        {"from": "ga_trong", "to": "An", "amount": 24, "why": "An ăn gà nuôi 24 điểm: ù Bạch Thủ, Chì"}
    ]
    assert answer["ga_trong"] == 0
    # An: -2 - 2 (nhái) - 1 - 1 (đầu ván) + 15 + 24 = 33
    assert answer["balances"]["An"] == 33


def test_a_win_without_chi_bach_thu_leaves_the_ga_nuoi() -> None:
    answer = _replay([{"winner": "An", "cuoc": ["tam_do"]}], rules="chan")
    assert answer["ga_trong"] == 4  # đầu ván 1 x 4
    assert answer["balances"] == _b(-1 + 24, -9, -9, -9)


def test_chan_in_gom_takes_from_the_pool() -> None:
    # gom 15 each -> 60; Tám Đỏ 8 -> 52; xướng sai by Bình: 12 x 3 = 36 into the pool -> 88
    rules = {"preset": "chan", "chan_ga_nuoi_amounts": {"dau_van": 0}, "gom": 15}
    answer = _replay(
        [{"winner": "An", "cuoc": ["tam_do"]}, {"winner": "Bình", "cuoc": ["tom"], "declared": ["leo"]}],
        rules,
        "gom",
    )
    assert answer["pool"] == 88
    assert answer["balances"] == _b(-7, -51, -15, -15)


def test_chan_refuses_to_tom_cuoc_and_to_tom_ga() -> None:
    with pytest.raises(CuocError, match="Ván 1"):
        _replay([{"winner": "An", "cuoc": ["thap_dieu"]}])
    with pytest.raises(SettlementError, match="Ván 1: không có loại gà 'quan_lo' trong Chắn"):
        _replay([{"result": "hoa", "ga": [{"kind": "quan_lo", "player": "An"}]}])
