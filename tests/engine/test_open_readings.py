"""The reading docs/rules.md §16 states for each point the rules leave open (issue 31, item 5),
pinned: if the engine changes its reading, this fails and the doc must say the new one."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine.checker import check_hand
from scoring.engine.rules import load_rules
from scoring.engine.settlement import replay

FIVE = ["An", "Bình", "Chi", "Dũng", "Em"]


def _replay(
    van: list[dict[str, Any]], rules: Any = "luat-2005", mode: str = "quang", **extra: Any
) -> dict[str, Any]:
    request = {"game": "to-tom-5", "rules": rules, "mode": mode, "players": FIVE, "van": van}
    return replay({**request, **extra})


def test_a_sitting_with_no_van_collects_nothing() -> None:
    for mode in ("quang", "gom"):
        answer = _replay([], "hoi-50", mode)
        assert set(answer["balances"].values()) == {0} and answer["pool"] == 0 and answer["hoi"] == []


def test_bao_den_lang_and_a_win_in_the_same_van_are_both_paid() -> None:
    answer = _replay(
        [{"bao": "Bình", "winner": "An", "cuoc": ["tom"]}], {"preset": "luat-2005", "bao_regime": "den_lang"}
    )
    # Bình: đền làng S = 4 to each of four, then Tôm 8 like everyone
    assert answer["balances"] == {"An": 4 + 32, "Bình": -16 - 8, "Chi": 4 - 8, "Dũng": 4 - 8, "Em": 4 - 8}


def test_a_cheo_do_win_neither_continues_nor_starts_a_streak_and_quang_never_charges_the_debt() -> None:
    rules = {"preset": "luat-2005", "bao_regime": "cheo_do"}
    answer = _replay(
        [{"bao": "Bình"}, {"winner": "Bình", "cuoc": ["tom"]}, {"winner": "Bình", "cuoc": ["tom"]}], rules
    )
    assert answer["balances"]["Bình"] == 32  # the repaying win unpaid; the next one is a first win (no Thông)
    assert [v["streak"] for v in answer["van"]][2] == 1
    open_debt = _replay([{"bao": "Bình"}], rules)
    assert set(open_debt["balances"].values()) == {0}


def test_xuong_on_a_streak() -> None:
    thua = _replay(
        [{"winner": "An", "cuoc": ["tom"]}, {"winner": "An", "cuoc": ["tom"], "declared": ["tom", "leo"]}]
    )
    # đền làng at the declared value with the streak: Lèo 10 + Tôm 1 dịch + Thông 1 dịch (× D 2) = 14
    assert thua["balances"]["Bình"] == -8 + 14
    thieu = _replay(
        [
            {"winner": "An", "cuoc": ["tom"]},
            {"winner": "An", "cuoc": ["leo", "tom"], "declared": ["tom"]},
            {"winner": "An", "cuoc": ["tom"]},
        ]
    )
    assert [v["streak"] for v in thieu["van"]] == [1, 2, 3]  # xướng thiếu is paid: the streak goes on


def test_the_gom_pool_pays_what_it_holds_and_the_van_keeps_its_points() -> None:
    big = {"cuoc": ["chi_nay", "thap_dieu"]}
    answer = _replay([{"winner": "An", **big}, {"winner": "Bình", **big}], "hoi-50", "gom")
    second = answer["van"][1]
    assert second["points"] == 30 and sum(t["amount"] for t in second["transfers"]) == 20
    assert answer["hoi"][0]["closed_after_van"] == 2


def test_the_gom_top_up_is_only_for_kinh_tu_co_het_hoi() -> None:
    rules = {"preset": "hoi-50", "gom_topup_below": 100, "gom_topup_amount": 20}
    low = _replay([{"winner": "An", "cuoc": ["tom"]}, {"winner": "Bình", "cuoc": ["leo"]}], rules, "gom")
    assert not any("góp thêm" in t["why"] for v in low["van"] for t in v["transfers"])
    het_hoi = _replay(
        [{"winner": "An", "cuoc": ["kinh_tu_co"]}], {**rules, "kinh_tu_co_policy": "het_hoi"}, "gom"
    )
    assert sum("góp thêm" in t["why"] for t in het_hoi["van"][0]["transfers"]) == 4


@pytest.mark.parametrize(
    ("players", "balances"), [(["An", "Bình"], [1, -1]), (["An", "Bình", "Chi"], [3, -1, -2])]
)
def test_phom_stakes_at_two_and_three_players_are_the_first_of_the_list(
    players: list[str], balances: list[int]
) -> None:
    answer = replay(
        {"game": "phom", "rules": "phom", "mode": "quang", "players": players, "van": [{"ranks": players}]}
    )
    assert list(answer["balances"].values()) == balances


def test_the_chan_ga_defaults() -> None:
    rules = load_rules("chan")
    assert (rules.chan_ga_points, rules.chan_ga_cuoc) == (5, ())


# Tài Bàn: four Nhị Vạn, the fourth needed in the run 2m 3m 4m: the thiên khai is split. The three
# laid together weigh as a khàn (3) when named, else as a phỗng (1): 10 lưng or 8 (not enough).
SPLIT = "2m 2m 2m 2m 3m 4m 7v 3m 3s cc 9m 8s 5v 6v 7v 4s 5s 6s 9v 9v 9v 6s 6s 6s 2v 3v 4v 8v 8v 8v 1v"


def test_a_split_thien_khai_counts_as_a_khan_only_when_named() -> None:
    plain = check_hand("tai-ban", SPLIT, dealt_khan=True)
    assert ("2m", "3m", "4m") in plain.arrangement and ("2m", "2m", "2m") in plain.arrangement
    assert (plain.verdict, plain.lung_count) == ("khong_lung", 8)
    named = check_hand("tai-ban", SPLIT, dealt_khan=True, khans=["2m"])
    assert (named.verdict, named.lung_count) == ("ok", 10)
    as_khan = load_rules({"preset": "tai-ban", "tai_ban_triple": "khan"})
    # the bare triples 6s, 8v, 9v become khàn (+2 each); the split 2m stays a phỗng (else 16)
    assert check_hand("tai-ban", SPLIT, dealt_khan=True, rules=as_khan).lung_count == 8 + 3 * 2
