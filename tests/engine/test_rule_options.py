"""The choices where the sources disagree are rule-set options; the engine obeys each (issue 21).

Each default is what the engine did before the choice became an option, named in the test.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine.checker import Verdict, check_hand, find_waits
from scoring.engine.contract import check_request
from scoring.engine.points import score
from scoring.engine.rules import load_rules
from scoring.engine.settlement import replay

FIVE = ["An", "Bình", "Chi", "Dũng", "Em"]
# Bí Tôm with phỗng 7 Văn and phỗng 3 Vạn and a double Lèo (tests/engine/test_checker_tai_ban.py):
# 5 lưng when the triples are phỗng, 9 when they are khàn.
W_GHEP = "cc cc 9m 9m 8s 8s 7v 7v 7v 3m 3m 3m 3s 4m 5m 6m 5s 6s 7s 4v 5v 6v 2v 3v 4v 4s 5s 6s 1m 1s oc"


def _rules(preset: str, **options: Any) -> Any:
    return load_rules({"preset": preset, **options})


# -- main_cuoc: Cửu Khôi + Thập Điều --------------------------------------------------------------


def test_main_cuoc_default_takes_the_reading_worth_most() -> None:
    # Thập Điều 18 + Cửu Khôi's 7 dịch × 2 = 32 (Cửu Khôi's own main value, 20, is higher)
    result = score("to-tom-5", "luat-2005", ["thap_dieu"], 9)
    assert (result.points, result.main) == (32, "thap_dieu")
    assert load_rules("luat-2005").main_cuoc == "most_points"


def test_main_cuoc_highest_counts_the_highest_tieng_at_its_main_value() -> None:
    result = score("to-tom-5", _rules("luat-2005", main_cuoc="highest"), ["thap_dieu"], 9)
    assert (result.points, result.main) == (20 + 3 * 2, "khoi")
    # below Cửu Khôi both readings agree: Bát Khôi 18 ties Thập Điều 18
    assert score("to-tom-5", _rules("luat-2005", main_cuoc="highest"), ["thap_dieu"], 7).points == 18 + 5 * 2


# -- main_tie: ties in hội 50 ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "points", "main"),
    [
        ({}, 20, "thap_dieu"),  # default: the reading worth most
        ({"main_cuoc": "highest"}, 20, "thap_dieu"),  # tie broken by points (main_tie default)
        ({"main_cuoc": "highest", "main_tie": "most_dich"}, 18, "khoi"),
    ],
)
def test_ngu_khoi_and_thap_dieu_tie_at_12_in_hoi_50(options: dict[str, str], points: int, main: str) -> None:
    # hội 50: Ngũ Khôi = 4 + 2 × 4 = 12 and 4 dịch; Thập Điều = 3 × 4 = 12 and 3 dịch
    result = score("to-tom-5", _rules("hoi-50", **options), ["thap_dieu"], 5)
    assert (result.points, result.main) == (points, main)


def test_bach_thu_and_thien_u_tie_at_8_in_hoi_50() -> None:
    assert (
        score("to-tom-5", _rules("hoi-50", main_cuoc="highest"), ["bach_thu", "thien_u"]).points == 8 + 2 * 2
    )
    tie = _rules("hoi-50", main_cuoc="highest", main_tie="most_dich")
    assert score("to-tom-5", tie, ["bach_thu", "thien_u"]).points == 8 + 1 * 2


# -- tom_leo_repeat: a repeated Tôm or Lèo ----------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "preset", "cuoc", "each", "once"),
    [
        ("to-tom-5", "luat-2005", ["leo", "leo"], 10 + 4, 10),
        ("to-tom-5", "luat-2005", ["tom", "tom", "leo"], 10 + 2 + 2, 10 + 2),
        ("chan", "chan", ["leo", "leo", "tom"], 5 + 2 + 1, 5 + 1),
    ],
)
def test_repeated_tom_and_leo_count_each_by_default_or_once(
    game: str, preset: str, cuoc: list[str], each: int, once: int
) -> None:
    assert score(game, preset, cuoc).points == each
    assert score(game, _rules(preset, tom_leo_repeat="once"), cuoc).points == once


def test_counting_once_still_refuses_more_lèo_than_a_hand_holds() -> None:
    with pytest.raises(ValueError, match="nhiều nhất 4 lần"):
        score("chan", _rules("chan", tom_leo_repeat="once"), ["leo"] * 5)


# -- ga_dau_hoi_quang: gà đầu hội in đánh quăng -----------------------------------------------------


def _pot_after_a_draw(mode: str, **options: Any) -> int:
    request = {
        "game": "to-tom-5",
        "rules": {"preset": "luat-2005", "ga_trong": "rung", **options},
        "mode": mode,
        "players": FIVE,
        "van": [{"result": "hoa"}],
    }
    return int(replay(request)["ga_trong"])


def test_ga_dau_hoi_is_collected_once_in_quang_by_default_or_not_at_all() -> None:
    # gà rừng: đầu hội is 2 dịch × D 2 = 4 from each of five players
    assert _pot_after_a_draw("quang") == 20
    assert _pot_after_a_draw("quang", ga_dau_hoi_quang="none") == 0
    assert _pot_after_a_draw("gom", ga_dau_hoi_quang="none") == 20  # gom's hội keep theirs


# -- tai_ban_triple: bare triples in Tài Bàn ------------------------------------------------------


def test_bare_triples_count_as_phong_by_default_or_as_khan() -> None:
    assert check_hand("tai-ban", W_GHEP).lung_count == 5
    as_khan = _rules("tai-ban", tai_ban_triple="khan")
    result = check_hand("tai-ban", W_GHEP, rules=as_khan)
    assert (result.lung_count, result.verdict, result.cuoc) == (9, Verdict.OK, ("suong",))
    # a hand that says no khàn was dealt keeps them as phỗng
    assert check_hand("tai-ban", W_GHEP, dealt_khan=False, rules=as_khan).lung_count == 5


def test_the_check_contract_takes_the_rule_set() -> None:
    answer = check_request(
        {"game": "tai-ban", "hand": W_GHEP, "rules": {"preset": "tai-ban", "tai_ban_triple": "khan"}}
    )
    assert (answer["lung_count"], answer["valid"]) == (9, True)
    with pytest.raises(ValueError, match="dành cho nhóm 'to_tom'"):
        check_request({"game": "tai-ban", "hand": W_GHEP, "rules": "luat-2005"})


# -- chan_ga_nuoi and the replay's ga_trong in Chắn ------------------------------------------------


FOUR = ["An", "Bình", "Chi", "Dũng"]


@pytest.mark.parametrize(
    ("ga_trong", "balances", "pot"),
    [
        (None, [29, -11, -11, -11], 4),  # gà nuôi đầu ván: 1 each
        ({"regime": "none"}, [30, -10, -10, -10], 0),
        ({"amounts": {"dau_van": 0}}, [30, -10, -10, -10], 0),
    ],
)
def test_chan_ga_nuoi_none_or_a_zero_dau_van_puts_nothing_in_the_pot(
    ga_trong: dict[str, Any] | None, balances: list[int], pot: int
) -> None:
    # Tám Đỏ 8 + Lèo 2 dịch = 10 from each of the three others (the example)
    request: dict[str, Any] = {
        "game": "chan",
        "rules": "chan",
        "mode": "quang",
        "players": FOUR,
        "van": [{"winner": "An", "cuoc": ["tam_do", "leo"]}],
    }
    if ga_trong is not None:
        request["ga_trong"] = ga_trong
    answer = replay(request)
    assert [answer["balances"][p] for p in FOUR] == balances
    assert answer["ga_trong"] == pot


def test_chan_ga_nuoi_option_on_the_rule_set() -> None:
    request = {
        "game": "chan",
        "rules": {"preset": "chan", "chan_ga_nuoi": "none"},
        "mode": "quang",
        "players": FOUR,
        "van": [{"winner": "An", "ga": [{"kind": "chiu_noc", "player": "Bình"}]}],
    }
    assert replay(request)["ga_trong"] == 0


# -- Tài Bàn waits name their cước -----------------------------------------------------------------


EIGHTEEN = "2v 2v 2v 2v 9v 9v 9v 6m 6m 6m 7v 3m 3s cc 9m 8s 4v 5v 6v 4s 5s 6s 2m 3m 4m 7m 8m 9m 1m 1s tt"


@pytest.mark.parametrize(("dealt_khan", "cuoc"), [(True, ["suong"]), (False, ["suu_ban"]), (None, [])])
def test_tai_ban_waits_through_the_contract_name_each_wait_s_cuoc(
    dealt_khan: bool | None, cuoc: list[str]
) -> None:
    waiting = EIGHTEEN.replace(" tt", "")
    request: dict[str, Any] = {"game": "tai-ban", "hand": waiting, "waits": True}
    if dealt_khan is not None:
        request["dealt_khan"] = dealt_khan
    waits = check_request(request)["waits"]
    tt = next(w for w in waits if w["card"] == "tt")
    assert tt["cuoc"] == cuoc
    full = check_request(
        {
            "game": "tai-ban",
            "hand": EIGHTEEN,
            **({"dealt_khan": dealt_khan} if dealt_khan is not None else {}),
        }
    )
    assert tt["cuoc"] == full["cuoc"]
    assert find_waits("tai-ban", waiting, dealt_khan=dealt_khan).get("tt").cuoc == tuple(cuoc)  # type: ignore[union-attr]
