"""Tài Bàn (docs/rules.md §11): three players, cước in multiples of the stake N fixed for the hội."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine.errors import SettlementError
from scoring.engine.settlement import replay

THREE = ["An", "Bình", "Chi"]


def _replay(
    van: list[dict[str, Any]], rules: Any = "tai-ban", mode: str = "quang", **extra: Any
) -> dict[str, Any]:
    return replay({"game": "tai-ban", "rules": rules, "mode": mode, "players": THREE, "van": van, **extra})


@pytest.mark.parametrize(
    ("cuoc", "gain"),
    [
        pytest.param("suong", 20, id="Suông 1·N = 10, two pay"),
        pytest.param("tai_ban", 40, id="Tài Bàn 2·N = 20, two pay"),
        pytest.param("suu_ban", 60, id="Sửu Bàn 3·N = 30, two pay"),
    ],
)
def test_tai_ban_cuoc_are_stake_multiples(cuoc: str, gain: int) -> None:
    answer = _replay([{"winner": "An", "cuoc": [cuoc]}])
    assert answer["balances"] == {"An": gain, "Bình": -gain // 2, "Chi": -gain // 2}


def test_tai_ban_has_no_thong() -> None:
    answer = _replay([{"winner": "An", "cuoc": ["suong"]}] * 2)
    assert [v["points"] for v in answer["van"]] == [10, 10]


def test_stake_set_in_a_van_holds_from_then_on() -> None:
    # N = 10: Suông 10 x 2; then N = 5: Tài Bàn 2 x 5 = 10 x 2; Sửu Bàn 3 x 5 = 15 x 2
    answer = _replay(
        [
            {"winner": "An", "cuoc": ["suong"]},
            {"winner": "Bình", "cuoc": ["tai_ban"], "stake": 5},
            {"winner": "Chi", "cuoc": ["suu_ban"]},
        ]
    )
    assert [v["points"] for v in answer["van"]] == [10, 10, 15]
    assert answer["balances"] == {"An": 20 - 10 - 15, "Bình": -10 + 20 - 15, "Chi": -10 - 10 + 30}


def test_stake_from_the_rule_set() -> None:
    assert (
        _replay([{"winner": "An", "cuoc": ["suu_ban"]}], {"preset": "tai-ban", "stake": 20})["balances"]["An"]
        == 120
    )


def test_u_bao_pays_one_stake_to_each() -> None:
    # đền làng A = 1·N = 10 to each of the two others
    answer = _replay([{"winner": "Bình", "cuoc": ["tai_ban"], "fault": "u_bao"}])
    assert answer["balances"] == {"An": 10, "Bình": -20, "Chi": 10}


def test_tai_ban_in_gom_with_an_explicit_gom() -> None:
    # 30 each -> 90; Tài Bàn 20 -> 70; a new stake is refused mid-hội
    answer = _replay([{"winner": "Chi", "cuoc": ["tai_ban"]}], mode="gom", gom=30)
    assert answer["pool"] == 70
    with pytest.raises(SettlementError, match="Ván 2: 'stake' chỉ được đặt ở ván mở hội mới"):
        _replay([{"result": "hoa"}, {"result": "hoa", "stake": 5}], mode="gom", gom=30)


def test_stake_outside_tai_ban_is_refused() -> None:
    with pytest.raises(SettlementError, match="Ván 1: 'stake'"):
        replay(
            {
                "game": "to-tom-5",
                "rules": "luat-2005",
                "mode": "quang",
                "players": list("ABCDE"),
                "van": [{"result": "hoa", "stake": 5}],
            }
        )
