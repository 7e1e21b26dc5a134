"""Impossible wins refused from facts on the cước, never from a list of pairs (issue 31, item 4).

Thập Thành needs 10 chắn, Bạch Thủ (Chắn) exactly 6 (seed 002 items 11, 13); Thiên Ù is the dealer's,
Địa Ù never the dealer's ("bài có cái thì không bao giờ có thể Địa Ù", item 5). What else follows
from the same facts is refused too; five copies of one card is its own verdict.
"""

from __future__ import annotations

import pytest

from scoring.engine import ConflictError, load_rules, score
from scoring.engine.checker import Verdict, check_hand
from scoring.engine.conflicts import combination_problem, conflict_table
from scoring.engine.cuoc.needs import parse_needs
from scoring.engine.rules import RuleSet

CHAN = load_rules("chan")


@pytest.mark.parametrize(
    ("cuoc", "why"),
    [
        (["thap_thanh", "bach_thu"], "đúng 10 chắn; Bạch Thủ cần đúng 6 chắn"),
        (["thien_u", "dia_u"], "người ù là nhà cái; Địa Ù cần người ù không phải nhà cái"),
        # what follows from the same facts
        (["thap_thanh", "bach_thu_chi"], "đúng 6 chắn"),
        (["thap_thanh", "hoa_roi_cua_phat"], "đúng 6 chắn"),
        (["thap_thanh", "ngu_ong_bat_ca"], "đúng 6 chắn"),
        (["bach_thu", "thap_thanh", "tom"], "Thập Thành"),
    ],
)
def test_chan_combinations_no_hand_holds_are_refused(cuoc: list[str], why: str) -> None:
    with pytest.raises(ConflictError, match=why):
        score("chan", CHAN, cuoc)


@pytest.mark.parametrize(
    "cuoc",
    [
        ["thap_thanh", "tam_do"],  # 4 red chắn
        ["thap_thanh", "kinh_tu_chi"],
        ["thap_thanh", "leo", "leo"],
        ["thap_thanh", "co_chiu"],
        ["bach_thu", "leo"],
        ["thien_u", "bach_thu"],  # seed 002 item 121: "Thiên ù Bạch thủ" is a declaration
        ["dia_u", "bach_thu"],
        ["thien_u", "thap_thanh"],
    ],
)
def test_possible_chan_combinations_still_score(cuoc: list[str]) -> None:
    assert combination_problem("chan", CHAN, cuoc) is None
    assert score("chan", CHAN, cuoc).points > 0


def test_the_chip_table_greys_them_out() -> None:
    pairs = {frozenset(c.cuoc) for c in conflict_table("chan", CHAN).conflicts}
    assert frozenset({"thap_thanh", "bach_thu"}) in pairs
    assert frozenset({"thien_u", "dia_u"}) in pairs
    assert frozenset({"thap_thanh", "tam_do"}) not in pairs


def test_a_village_cuoc_states_the_same_facts() -> None:
    """A custom cước with ``chan`` or ``dealer`` needs is refused in the same way: nothing lists pairs."""
    rules = RuleSet.from_dict(
        {
            **CHAN.to_dict(),
            "custom_cuoc": {
                "ca_nhay": {"name": "Cá Nhảy Đầu Thuyền", "needs": {"dealer": False, "chan": [6, 7]}},
            },
            "cuoc": {**CHAN.to_dict()["cuoc"], "ca_nhay": {"main": 5, "dich": 2, "boi": None}},
        }
    )
    assert combination_problem("chan", rules, ["ca_nhay", "thien_u"]) is not None
    assert combination_problem("chan", rules, ["ca_nhay", "thap_thanh"]) is not None
    assert combination_problem("chan", rules, ["ca_nhay", "bach_thu"]) is None
    assert parse_needs("x", {"chan": [10, 10], "dealer": True}).to_dict() == {
        "chan": [10, 10],
        "dealer": True,
    }


def test_all_chan_hands_hold_each_card_an_even_number_of_times() -> None:
    rules = RuleSet.from_dict(
        {
            **CHAN.to_dict(),
            "custom_cuoc": {"mot_ngu": {"name": "Một Ngũ Vạn", "needs": {"cards": {"5m": [1, 1]}}}},
            "cuoc": {**CHAN.to_dict()["cuoc"], "mot_ngu": {"main": 5, "dich": 2, "boi": None}},
        }
    )
    assert combination_problem("chan", rules, ["mot_ngu", "thap_thanh"]) is not None
    assert combination_problem("chan", rules, ["mot_ngu", "bach_thu"]) is None


def test_chan_facts_mean_nothing_in_to_tom() -> None:
    assert combination_problem("to-tom-5", load_rules("luat-2005"), ["thien_u", "bach_thu"]) is None


FIVE_SEVENS = "7v " * 5 + "3m 3s 4v 5v 6v 2v 2m 2s 5m 6m 7m 9v 9m 9s 1v 1m"


@pytest.mark.parametrize(
    ("game", "hand", "verdict", "message"),
    [
        ("to-tom-5", FIVE_SEVENS, Verdict.QUA_BON_QUAN, "có 5 quân Thất Văn, mỗi loại chỉ có 4 quân"),
        # a wrong count stays "sai số quân", naming the five copies too
        ("to-tom-5", FIVE_SEVENS + " 8v", Verdict.SAI_SO_QUAN, "có 22 quân; lại có 5 quân Thất Văn"),
        (
            "chan",
            "2v " * 5 + "2m 3v 3v 3m 3m 4v 4v 4m 4m 5v 5v 5m 5m 6v 6v",
            Verdict.QUA_BON_QUAN,
            "5 quân Nhị Văn",
        ),
        ("to-tom-5", FIVE_SEVENS.replace("7v ", "", 1), Verdict.SAI_SO_QUAN, "phải có 21 quân"),
    ],
)
def test_five_copies_of_a_card_say_so(game: str, hand: str, verdict: Verdict, message: str) -> None:
    result = check_hand(game, hand)
    assert result.verdict is verdict and message in result.message
    assert result.to_dict()["verdict"] == verdict.value
