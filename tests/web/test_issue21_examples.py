"""Every example of issue 21 answers as the rules require, from the CLI and the API (the pages:
tests/web/test_cuoc_chips.py, tests/browser/test_cuoc_chips.py)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories import without_code
from tests.web.test_conflicts_entry_points import cli

pytestmark = [pytest.mark.django_db]

IMPOSSIBLE = [
    (
        "to-tom-5",
        "luat-2005",
        ["bach_dinh", "thap_dieu"],
        "Bạch Định cần cả 21 quân đen; Thập Điều cần đúng 10 quân đỏ",
    ),
    ("to-tom-5", "luat-2005", ["kinh_cu", "kinh_tu_co"], "Kính Cụ cần 20 quân đen và 1 Ông Cụ"),
    ("to-tom-5", "luat-2005", ["kinh_cu", "leo"], "Lèo cần Cửu Vạn, Bát Sách, Chi Chi (3 quân đỏ)"),
    ("to-tom-5", "luat-2005", ["bach_dinh", "leo"], "Bạch Định cần cả 21 quân đen"),
    ("to-tom-5", "luat-2005", ["chi_nay", "kinh_tu_co"], "Kính Tứ Cố cần 17 quân đen và 4 Ông Cụ"),
    (
        "tai-ban",
        "tai-ban",
        ["tai_ban", "suu_ban"],
        "Sửu Bàn cần từ 9 lưng trở lên, không có khàn trong bài chia",
    ),
    ("tai-ban", "tai-ban", ["suong", "tai_ban"], "Tài Bàn cần từ 19 lưng trở lên, có khàn trong bài chia"),
    ("chan", "chan", ["leo"] * 5, "một ván ù Chắn có nhiều nhất 4 lần"),
    ("chan", "chan", ["bach_dinh", "tam_do"], "Bạch Định cần cả 20 quân đen; Tám Đỏ cần đúng 8 quân đỏ"),
]


@pytest.mark.parametrize(("game", "rules", "cuoc", "why"), IMPOSSIBLE)
def test_each_impossible_combination_is_refused_by_the_cli_and_the_api(
    game: str, rules: str, cuoc: list[str], why: str
) -> None:
    request = {"game": game, "rules": rules, "cuoc": cuoc}
    code, answer = cli("score", request)
    assert code == 2 and why in answer["error"]
    response = APIClient().post("/api/v1/score", request, format="json")
    assert (response.status_code, without_code(response.json())) == (400, answer)


@pytest.mark.parametrize(
    ("request_", "points"),
    [
        ({"game": "to-tom-5", "rules": "luat-2005", "cuoc": ["xuyen_bi_tu", "thap_dieu", "chi_nay"]}, 46),
        ({"game": "chan", "rules": "chan", "cuoc": ["chi", "tam_do", "leo", "tom", "co_chiu"]}, 13),
    ],
)
def test_the_worked_examples_still_score(request_: dict[str, Any], points: int) -> None:
    assert cli("score", request_) == (0, APIClient().post("/api/v1/score", request_, format="json").json())
    assert cli("score", request_)[1]["points"] == points


def test_a_replayed_van_with_bach_dinh_and_thap_dieu_makes_nobody_pay() -> None:
    request = {
        "game": "to-tom-5",
        "rules": "luat-2005",
        "mode": "quang",
        "players": ["An", "Bình", "Chi", "Dũng", "Em"],
        "van": [{"winner": "An", "cuoc": ["bach_dinh", "thap_dieu"]}],
    }
    code, answer = cli("replay", request)
    assert code == 2 and answer["error"].startswith(
        "Ván 1: Không bài ù Tổ Tôm Bí Ngũ nào có cùng lúc Bạch Định"
    )


@pytest.mark.parametrize("ga_trong", [{"regime": "none"}, {"amounts": {"dau_van": 0}}])
def test_chan_without_ga_nuoi_puts_nothing_in_the_pot(ga_trong: dict[str, Any]) -> None:
    request = {
        "game": "chan",
        "rules": "chan",
        "mode": "quang",
        "players": ["An", "Bình", "Chi", "Dũng"],
        "ga_trong": ga_trong,
        "van": [{"winner": "An", "cuoc": ["tam_do", "leo"]}],
    }
    code, answer = cli("replay", request)
    assert code == 0
    assert answer["balances"] == {"An": 30, "Bình": -10, "Chi": -10, "Dũng": -10}
    assert answer["ga_trong"] == 0


WAITING = "2v 2v 2v 2v 9v 9v 9v 6m 6m 6m 7v 3m 3s cc 9m 8s 4v 5v 6v 4s 5s 6s 2m 3m 4m 7m 8m 9m 1m 1s"


@pytest.mark.parametrize(("dealt_khan", "cuoc"), [(True, ["suong"]), (False, ["suu_ban"])])
def test_tai_ban_waits_name_their_cuoc_like_the_full_check(dealt_khan: bool, cuoc: list[str]) -> None:
    request = {"game": "tai-ban", "hand": WAITING, "waits": True, "dealt_khan": dealt_khan}
    code, answer = cli("check_hand", request)
    assert code == 0
    wait = next(w for w in answer["waits"] if w["card"] == "tt")
    assert wait["cuoc"] == cuoc
    full = cli("check_hand", {"game": "tai-ban", "hand": WAITING + " tt", "dealt_khan": dealt_khan})[1]
    assert full["cuoc"] == cuoc
    assert APIClient().post("/api/v1/check-hand", request, format="json").json() == answer
