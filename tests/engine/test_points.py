"""Points of a win and the breakdown that explains them (docs/rules.md §6, §11, §12)."""

from __future__ import annotations

import pytest

from scoring.engine.errors import CuocError, GameError, RuleError
from scoring.engine.points import Breakdown, score
from scoring.engine.rules import load_rules


@pytest.mark.parametrize(
    ("game", "rules", "cuoc", "streak", "points"),
    [
        ("to-tom-5", "luat-2005", ["leo", "leo"], 1, 14),  # each Lèo counts
        ("to-tom-5", "luat-2005", ["chi_nay", "leo"], 1, 36),  # Chi Nẩy's own Lèo is not scored again
        ("to-tom-5", "luat-2005", ["chi_nay", "leo", "leo"], 1, 40),  # the second Lèo scores
        ("to-tom-5", "luat-2005", ["suong", "tom"], 1, 8),  # a Suông beside other cước adds nothing
        ("to-tom-5", "luat-2005", ["suong"], 2, 6),
        ("to-tom-5", "luat-2005", ["thong"], 2, 6),  # Thông listed and from the streak: once
        ("to-tom-5", "luat-2005", ["thong"], 1, 6),  # Thông declared by the scorekeeper
        ("to-tom-5", "luat-2005", ["thong", "leo"], 3, 12),  # the Khôi replaces a listed Thông
        ("to-tom-5", "luat-2005", ["khoi", "leo"], 3, 12),
        ("to-tom-5", "luat-2005", ["tom"], 2, 10),
        ("to-tom-5", "luat-2005", ["kinh_tu_co", "tom"], 1, 72 + 1 * 2),
        ("to-tom-5", "luat-2005", [], 12, 4 + 2 * 11),
        ("to-tom-diem", "luat-2005", ["thap_dieu", "leo"], 1, 22),
        ("to-tom-5", "hoi-50", ["xuyen"], 1, 6),
        ("to-tom-5", "hoi-50", ["xuyen", "leo"], 1, 10),
        ("to-tom-5", "hoi-50", [], 3, 8),
        ("to-tom-5", "suong2-dich1", ["tom", "leo"], 2, 5 + 1 + 1),
        ("to-tom-5", {"preset": "luat-2005", "suong": 3}, [], 1, 3),
        ("to-tom-5", {"preset": "luat-2005", "kinh_tu_co_policy": "het_hoi"}, ["kinh_tu_co"], 1, 72),
        ("tai-ban", {"preset": "tai-ban", "stake": 20}, ["suu_ban"], 1, 60),
        ("tai-ban", "tai-ban", [], 1, 10),
        ("tai-ban", "tai-ban", [], 5, 10),  # no Thông in Tài Bàn
        ("chan", "chan", [], 1, 2),
        ("chan", "chan", ["leo", "leo", "tom"], 1, 5 + 2 + 1),
        ("chan", "chan", ["tam_do"], 2, 8 + 1),  # Thông from the streak
        ("chan", "chan", ["tam_do"], 5, 8 + 1),  # Chắn has no Khôi
        ("chan", "chan", ["tam_do", "thong"], 3, 8 + 1),
        (
            "chan",
            {"preset": "chan", "chan_ga_cuoc": ["tam_do", "bach_dinh"]},
            ["tam_do", "leo"],
            1,
            8 + 2 + 5,
        ),
        (
            "chan",
            {"preset": "chan", "chan_ga_cuoc": ["tam_do", "bach_thu_chi"]},
            ["tam_do", "bach_thu_chi"],
            1,
            8 + 3 + 10,
        ),
        ("chan", {"preset": "chan", "chan_ga_cuoc": ["chi+bach_thu"]}, ["chi", "bach_thu"], 1, 4 + 1 + 5),
        ("chan", {"preset": "chan", "chan_ga_cuoc": ["chi+bach_thu"]}, ["bach_thu"], 1, 4),
    ],
)
def test_points(game, rules, cuoc, streak, points):
    assert score(game, rules, cuoc, streak).points == points


def test_breakdown_dict_shape():
    rules = load_rules("luat-2005")
    result = score("to-tom-5", rules, ["xuyen_bi_tu", "thap_dieu", "chi_nay"])
    assert result.to_dict() == {
        "points": 46,
        "main": "chi_nay",
        "lines": [
            {"cuoc": "chi_nay", "name": "Chi Nẩy", "points": 36, "why": "bội lục: 6 × 4 + 6 dịch × 2"},
            {"cuoc": "thap_dieu", "name": "Thập Điều", "dich": 3, "points": 6, "why": "3 dịch × 2 điểm"},
            {"cuoc": "xuyen_bi_tu", "name": "Xuyên Bí Tư", "dich": 2, "points": 4, "why": "2 dịch × 2 điểm"},
        ],
        "rules_fingerprint": rules.fingerprint,
    }


def test_sum_of_lines_is_the_points():
    result = score("to-tom-5", "luat-2005", ["leo", "tom", "thap_dieu", "chi_nay", "leo"], 4)
    assert sum(line.points for line in result.lines) == result.points
    assert result.lines[0].cuoc == result.main and result.lines[0].dich is None
    rest = [(-line.points, line.cuoc) for line in result.lines[1:]]
    assert rest == sorted(rest)


def test_why_texts_are_vietnamese_explanations():
    result = score("to-tom-5", "luat-2005", ["thap_dieu"], 8)
    assert result.main == "thap_dieu"
    assert result.lines[0].why == "bội tam: 3 × 4 + 3 dịch × 2"
    khoi = result.lines[1]
    assert (khoi.cuoc, khoi.name, khoi.dich, khoi.points) == ("khoi", "Bát Khôi", 6, 12)
    assert score("to-tom-5", "suong4-dich2", ["thap_dieu"]).lines[0].why == "bội tam: 3 × 4"
    assert score("to-tom-5", "luat-2005", []).lines[0].why == "ù suông: 4 điểm"
    assert score("tai-ban", "tai-ban", ["tai_ban"]).lines[0].why == "2 × mức cược N = 2 × 10"
    assert "Tam Khôi" in score("to-tom-5", "luat-2005", [], 3).lines[0].why


def test_subsumed_leo_is_shown_at_zero_points():
    result = score("to-tom-5", "luat-2005", ["chi_nay", "leo"])
    assert [(line.cuoc, line.points) for line in result.lines] == [("chi_nay", 36), ("leo", 0)]
    assert "Chi Nẩy" in result.lines[1].why


def test_chan_ga_line():
    result = score("chan", {"preset": "chan", "chan_ga_cuoc": ["tam_do"]}, ["tam_do"])
    ga = result.lines[-1]
    assert (ga.cuoc, ga.name, ga.points, ga.dich) == ("ga", "Gà", 5, None)
    assert "dich" not in ga.to_dict()


def test_tie_picks_the_main_with_the_larger_total():
    rules = {"preset": "luat-2005", "cuoc": {"tom": {"main": 10, "dich": 3}}}
    result = score("to-tom-5", rules, ["leo", "tom"])
    assert (result.main, result.points) == ("leo", 10 + 3 * 2)


def test_order_of_cuoc_never_matters():
    a = score("to-tom-5", "luat-2005", ["tom", "leo", "chi_nay", "bach_thu"], 3)
    b = score("to-tom-5", "luat-2005", ["bach_thu", "chi_nay", "leo", "tom"], 3)
    assert a == b


def test_result_is_immutable():
    result = score("to-tom-5", "luat-2005", ["tom"])
    assert isinstance(result, Breakdown)
    with pytest.raises(AttributeError):
        result.points = 0  # type: ignore[misc]


@pytest.mark.parametrize(
    ("game", "rules", "cuoc", "streak", "error", "named"),
    [
        ("to-tom-5", "luat-2005", ["thap_diu"], 1, CuocError, "thap_dieu"),
        ("to-tom-5", "luat-2005", ["thap_nhi_dieu"], 1, CuocError, "Thập Nhị Điều"),
        ("to-tom-4", "luat-2005", ["kinh_cu"], 1, CuocError, "Kính Cụ"),
        ("to-tom-5", "luat-2005", ["xuyen"], 1, CuocError, "'xuyen'"),
        ("to-tom-4", "hoi-50", ["kinh_2_cu"], 1, CuocError, "'kinh_2_cu'"),
        ("to-tom-5", "luat-2005", ["khoi"], 2, CuocError, "'khoi'"),
        ("to-tom-5", "luat-2005", [7], 1, CuocError, "7"),
        ("to-tom-5", "luat-2005", "leo", 1, CuocError, "'leo'"),
        ("to-tom-5", "luat-2005", [], 0, CuocError, "streak"),
        ("to-tom-5", "luat-2005", [], "2", CuocError, "streak"),
        ("to-tom-5", "luat-2005", [], True, CuocError, "streak"),
        ("to-tom-5", "chan", ["leo"], 1, RuleError, "'chan'"),
        ("chan", "luat-2005", ["leo"], 1, RuleError, "Chắn"),
        ("tai-ban", "luat-2005", [], 1, RuleError, "Tài Bàn"),
        ("chan", "chan", ["suong"], 1, CuocError, "Chắn"),
        ("to-tom-5", "luat-2005", ["xuong"], 1, CuocError, "Xuông"),
        ("phom", "phom", [], 1, CuocError, "Phỏm"),
        ("bai-cao", "luat-2005", [], 1, GameError, "bai-cao"),
        ("to-tom-5", "luat-2099", [], 1, RuleError, "luat-2099"),
    ],
)
def test_errors_name_the_faulty_item(game, rules, cuoc, streak, error, named):
    with pytest.raises(error) as exc:
        score(game, rules, cuoc, streak)
    assert named in str(exc.value)
