"""Phỏm (docs/rules.md §13, seed 003): settled by rank, by ù, or by đền."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine.errors import SettlementError
from scoring.engine.settlement import replay

FOUR = ["An", "Bình", "Chi", "Dũng"]


def _replay(
    van: list[dict[str, Any]], players: list[str] = FOUR, rules: Any = "phom", mode: str = "quang"
) -> dict[str, Any]:
    return replay({"game": "phom", "rules": rules, "mode": mode, "players": players, "van": van})


def test_ranks_pay_the_first_by_place() -> None:
    # Chi 1st; An 2nd pays 1, Dũng 3rd pays 2, Bình last pays 3 -> Chi +6
    answer = _replay([{"ranks": ["Chi", "An", "Dũng", "Bình"]}])
    assert answer["balances"] == {"An": -1, "Bình": -3, "Chi": 6, "Dũng": -2}
    assert answer["van"][0]["transfers"][2]["why"] == "Bình trả Chi 3 điểm: về thứ 4"


def test_three_players_use_the_first_two_stakes() -> None:
    answer = _replay([{"ranks": ["An", "Bình", "Chi"]}], players=["An", "Bình", "Chi"])
    assert answer["balances"] == {"An": 3, "Bình": -1, "Chi": -2}


def test_u_wins_outright_and_the_others_lose_equally() -> None:
    # ù stake 5 from each of three
    assert _replay([{"winner": "Dũng"}])["balances"] == {"An": -5, "Bình": -5, "Chi": -5, "Dũng": 15}


def test_den_pays_for_every_loser() -> None:
    # Bình fed Dũng three cards: pays 5 x 3 alone
    assert _replay([{"winner": "Dũng", "den": "Bình"}])["balances"] == {
        "An": 0,
        "Bình": -15,
        "Chi": 0,
        "Dũng": 15,
    }


def test_custom_rank_stakes() -> None:
    answer = _replay(
        [{"ranks": ["An", "Bình", "Chi", "Dũng"]}], rules={"preset": "phom", "phom_rank_stakes": [2, 4, 6]}
    )
    assert answer["balances"] == {"An": 12, "Bình": -2, "Chi": -4, "Dũng": -6}


@pytest.mark.parametrize(
    ("van", "message"),
    [
        ({"ranks": ["An", "Bình", "Chi"]}, "Ván 1: 'ranks' phải xếp hạng đủ mọi người chơi"),
        ({"ranks": ["An", "Bình", "Chi", "Dũng"], "winner": "An"}, "Ván 1: Phỏm cần 'ranks'"),
        ({"winner": "An", "cuoc": ["tom"]}, "Ván 1: Phỏm không dùng khóa cuoc"),
        ({"winner": "An", "den": "An"}, "Ván 1: 'den' phải là người khác người ù"),
        ({"ranks": ["An", "Bình", "Chi", "Bin"]}, "Ván 1: không có người chơi 'Bin'"),
    ],
)
def test_bad_phom_van_is_refused(van: dict[str, Any], message: str) -> None:
    with pytest.raises(SettlementError) as caught:
        _replay([van])
    assert message in caught.value.message


def test_phom_is_not_played_gom() -> None:
    with pytest.raises(SettlementError, match="Phỏm"):
        _replay([{"winner": "An"}], mode="gom")
