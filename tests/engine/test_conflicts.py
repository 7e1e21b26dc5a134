"""Combinations of cước no hand could hold are refused, derived from each cước's needs (issue 21).

The refusal names the cước and what each needs; legitimate combinations (docs/rules.md's worked
examples, every golden case) still score.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine.conflicts import combination_problem, conflict_table, most_times
from scoring.engine.cuoc import CATALOGUE
from scoring.engine.errors import ConflictError, CuocError, RuleError
from scoring.engine.games import get_game
from scoring.engine.points import score
from scoring.engine.rules import load_rules
from scoring.engine.settlement import replay

FIVE = ["An", "Bình", "Chi", "Dũng", "Em"]


@pytest.mark.parametrize(
    ("game", "rules", "cuoc", "names", "why"),
    [
        (
            "to-tom-5",
            "luat-2005",
            ["bach_dinh", "thap_dieu"],
            ("Bạch Định", "Thập Điều"),
            "Bạch Định cần cả 21 quân đen; Thập Điều cần đúng 10 quân đỏ",
        ),
        (
            "to-tom-5",
            "luat-2005",
            ["kinh_cu", "kinh_tu_co"],
            ("Kính Cụ", "Kính Tứ Cố"),
            "Kính Cụ cần 20 quân đen và 1 Ông Cụ; Kính Tứ Cố cần 17 quân đen và 4 Ông Cụ",
        ),
        (
            "to-tom-5",
            "luat-2005",
            ["kinh_cu", "leo"],
            ("Kính Cụ", "Lèo"),
            "Kính Cụ cần 20 quân đen và 1 Ông Cụ; Lèo cần Cửu Vạn, Bát Sách, Chi Chi (3 quân đỏ)",
        ),
        (
            "to-tom-5",
            "luat-2005",
            ["bach_dinh", "leo"],
            ("Bạch Định", "Lèo"),
            "Bạch Định cần cả 21 quân đen; Lèo cần Cửu Vạn, Bát Sách, Chi Chi (3 quân đỏ)",
        ),
        (
            "to-tom-5",
            "luat-2005",
            ["chi_nay", "kinh_tu_co"],
            ("Chi Nẩy", "Kính Tứ Cố"),
            "Kính Tứ Cố cần 17 quân đen và 4 Ông Cụ",
        ),
        (
            "tai-ban",
            "tai-ban",
            ["tai_ban", "suu_ban"],
            ("Tài Bàn", "Sửu Bàn"),
            "Tài Bàn cần từ 19 lưng trở lên, có khàn trong bài chia; "
            "Sửu Bàn cần từ 9 lưng trở lên, không có khàn trong bài chia",
        ),
        (
            "tai-ban",
            "tai-ban",
            ["suong", "tai_ban"],
            ("Suông", "Tài Bàn"),
            "Suông cần từ 9 đến 18 lưng, có khàn trong bài chia",
        ),
        (
            "chan",
            "chan",
            ["bach_dinh", "tam_do"],
            ("Bạch Định", "Tám Đỏ"),
            "Bạch Định cần cả 20 quân đen; Tám Đỏ cần đúng 8 quân đỏ",
        ),
        (
            "to-tom-4",
            "luat-2005",
            ["kinh_2_cu", "thap_nhi_dieu"],
            ("Kính 2 Cụ", "Thập Nhị Điều"),
            "Kính 2 Cụ cần 23 quân đen và 2 Ông Cụ",
        ),
    ],
)
def test_the_issue_s_impossible_pairs_are_refused_naming_both_and_why(
    game: str, rules: str, cuoc: list[str], names: tuple[str, str], why: str
) -> None:
    with pytest.raises(ConflictError) as caught:
        score(game, rules, cuoc)
    message = caught.value.message
    assert f"có cùng lúc {names[0]} và {names[1]}" in message
    assert why in message


def test_five_leo_in_chan_are_refused_four_score() -> None:
    with pytest.raises(ConflictError, match="Lèo có 5 lần nhưng một ván ù Chắn có nhiều nhất 4 lần"):
        score("chan", "chan", ["leo"] * 5)
    assert score("chan", "chan", ["leo"] * 4).points == 5 + 3 * 2


def test_a_cuoc_that_counts_once_cannot_be_given_twice() -> None:
    with pytest.raises(ConflictError, match="Thiên Ù chỉ được tính một lần"):
        score("to-tom-5", "luat-2005", ["thien_u", "thien_u"])


@pytest.mark.parametrize(
    ("game", "rules", "cuoc", "points"),
    [
        ("to-tom-5", "luat-2005", ["xuyen_bi_tu", "thap_dieu", "chi_nay"], 46),  # docs/rules.md §6
        ("chan", "chan", ["chi", "tam_do", "leo", "tom", "co_chiu"], 13),  # docs/rules.md §6 (seed 002)
        ("to-tom-5", "luat-2005", ["kinh_tu_co", "tom"], 74),
        ("to-tom-5", "luat-2005", ["thap_dieu", "leo", "leo", "tom"], 18 + 2 * 2 + 2 * 2 + 2),
        ("to-tom-5", "luat-2005", ["chi_nay", "leo"], 36),  # its own Lèo, not a second one
        ("to-tom-5", "luat-2005", ["bach_dinh", "tom", "tom"], 24 + 2 + 2),
        ("chan", "chan", ["kinh_tu_chi", "co_chiu"], 12 + 1),  # the chíu may be the four Chi Chi
        ("chan", "chan", ["co_chiu"] * 5, 3 + 4),
        ("tai-ban", "tai-ban", ["suu_ban"], 30),
    ],
)
def test_combinations_a_hand_can_hold_still_score(
    game: str, rules: str, cuoc: list[str], points: int
) -> None:
    assert score(game, rules, cuoc).points == points


def test_a_replayed_van_with_an_impossible_combination_is_refused_naming_the_van() -> None:
    request: dict[str, Any] = {
        "game": "to-tom-5",
        "rules": "luat-2005",
        "mode": "quang",
        "players": FIVE,
        "van": [{"winner": "An", "cuoc": ["tom"]}, {"winner": "Bình", "cuoc": ["bach_dinh", "thap_dieu"]}],
    }
    with pytest.raises(ConflictError) as caught:
        replay(request)
    assert caught.value.message.startswith(
        "Ván 2: Không bài ù Tổ Tôm Bí Ngũ nào có cùng lúc Bạch Định và Thập Điều"
    )


def test_a_declaration_no_hand_could_hold_is_refused_too() -> None:
    request: dict[str, Any] = {
        "game": "to-tom-5",
        "rules": "luat-2005",
        "mode": "quang",
        "players": FIVE,
        "van": [
            {"winner": "An", "cuoc": ["tom"], "declared": ["tom", "bach_dinh", "leo"], "fault": "xuong_thua"}
        ],
    }
    with pytest.raises(ConflictError, match="Bạch Định và Lèo"):
        replay(request)


# -- a village's own cước gets the same refusal, from its own needs -----------------------------


def _village(needs: dict[str, Any], **extra: Any) -> Any:
    return load_rules(
        {
            "preset": "luat-2005",
            "custom_cuoc": {"pha_thien": {"name": "Phá Thiên", "needs": needs}},
            "cuoc": {"pha_thien": {"main": 20, "dich": 5}},
            **extra,
        }
    )


def test_a_custom_cuoc_scores_and_is_refused_with_what_its_needs_contradict() -> None:
    rules = _village({"red": [0, 0]})
    assert score("to-tom-5", rules, ["pha_thien", "tom"]).points == 20 + 2
    assert score("to-tom-5", rules, ["pha_thien"]).lines[0].name == "Phá Thiên"
    with pytest.raises(ConflictError) as caught:
        score("to-tom-5", rules, ["pha_thien", "thap_dieu"])
    assert "Phá Thiên cần cả 21 quân đen; Thập Điều cần đúng 10 quân đỏ" in caught.value.message


def test_custom_needs_per_card_and_per_occurrence() -> None:
    rules = _village({"each": {"oc": 2}, "times": None})
    assert score("to-tom-5", rules, ["pha_thien", "pha_thien"]).points == 20 + 10
    with pytest.raises(ConflictError, match="nhiều nhất 2 lần"):
        score("to-tom-5", rules, ["pha_thien"] * 3)
    with pytest.raises(ConflictError, match="Phá Thiên và Kính Cụ"):
        score("to-tom-5", rules, ["pha_thien", "kinh_cu"])


def test_a_custom_cuoc_no_hand_can_hold_is_refused_alone() -> None:
    rules = _village({"red": [22, None]})
    with pytest.raises(ConflictError, match="không bài ù Tổ Tôm Bí Ngũ nào có được"):
        score("to-tom-5", rules, ["pha_thien"])


@pytest.mark.parametrize(
    ("custom", "fragment"),
    [
        ({"Bad Slug": {"name": "X"}}, "cần một mã mới"),
        ({"tom": {"name": "X"}}, "cần một mã mới"),
        ({"pha_thien": {}}, "thiếu khóa 'custom_cuoc.pha_thien.name'"),
        ({"pha_thien": {"name": "X", "needs": {"red": [5, 2]}}}, "custom_cuoc.pha_thien.needs.red"),
        ({"pha_thien": {"name": "X", "needs": {"cards": {"zz": [1, 1]}}}}, "Không nhận ra quân bài"),
        ({"pha_thien": {"name": "X", "needs": {"colour": 1}}}, "custom_cuoc.pha_thien.needs.colour"),
    ],
)
def test_custom_cuoc_are_read_strictly(custom: dict[str, Any], fragment: str) -> None:
    with pytest.raises(RuleError, match=fragment):
        load_rules({"preset": "luat-2005", "custom_cuoc": custom})


def test_a_custom_cuoc_is_unknown_to_other_rule_sets() -> None:
    with pytest.raises(CuocError, match="Không có cước 'pha_thien'"):
        score("to-tom-5", "luat-2005", ["pha_thien"])


def test_custom_cuoc_round_trip_and_keep_presets_fingerprints() -> None:
    rules = _village({"each": {"cc": 1}, "khan": None, "times": None})
    again = type(rules).from_dict(rules.to_dict())
    assert again == rules and again.fingerprint == rules.fingerprint
    assert rules.fingerprint != load_rules("luat-2005").fingerprint
    # the fields added for issue 21 leave every preset's fingerprint as it was
    assert load_rules("luat-2005").fingerprint == "97886876e15dafdb"
    assert load_rules("chan").fingerprint == "62dfcf4e1eef84d1"
    assert load_rules("tai-ban").fingerprint == "49bf1132d92b1bc8"


# -- the conflict table the pages and the offline preview look up --------------------------------


def test_the_conflict_table_lists_smallest_impossible_sets_with_their_reason() -> None:
    table = conflict_table("to-tom-5", load_rules("luat-2005"))
    pairs = {c.cuoc: c.why.render() for c in table.conflicts}
    assert ("thap_dieu", "bach_dinh") in pairs or ("bach_dinh", "thap_dieu") in pairs
    assert not any({"tom", "leo"} <= set(c) for c in pairs)
    blocked = table.blocked(["bach_dinh"])
    assert {"thap_dieu", "kinh_cu", "leo", "chi_nay", "kinh_tu_co"} <= set(blocked)
    assert "tom" not in blocked and "xuyen_bi_tu" not in blocked
    assert "cả 21 quân đen" in blocked["leo"].render()
    assert dict(table.most) == {"tom": 4, "leo": 4}


def test_every_pair_the_table_lists_is_refused_by_score_and_no_other_pair_is() -> None:
    for game, preset in (
        ("to-tom-5", "luat-2005"),
        ("to-tom-4", "luat-2005"),
        ("chan", "chan"),
        ("tai-ban", "tai-ban"),
    ):
        rules = load_rules(preset)
        table = conflict_table(game, rules)
        listed = {frozenset(c.cuoc) for c in table.conflicts if len(c.cuoc) == 2}
        slugs = [s for s in rules.cuoc if CATALOGUE[s].in_game(get_game(game).slug)]
        for i, a in enumerate(slugs):
            for b in slugs[i + 1 :]:
                refused = combination_problem(game, rules, [a, b]) is not None
                assert refused == (frozenset((a, b)) in listed), (game, a, b)


def test_most_times_follows_the_deck() -> None:
    assert most_times(get_game("chan"), CATALOGUE["leo"].needs) == 4
    assert most_times(get_game("chan"), CATALOGUE["co_chiu"].needs) == 5
    assert most_times(get_game("to-tom-5"), CATALOGUE["tom"].needs) == 4
