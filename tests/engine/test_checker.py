"""Kiểm bài for the Tổ Tôm games (Bí Ngũ, Bí Tứ, Điếm): tròn, lưng, card cước, xướng (RULES §4–§5)."""

from __future__ import annotations

from collections import Counter

import pytest

from scoring.engine.checker import CheckResult, Verdict, arrangements, check, check_hand
from scoring.engine.errors import CuocError, GameError, HandError

EXAMPLE = "7v 3m 3s 4v 5v 6v 2v 2m 2s 5m 6m 7m 9v 9m 9s 1v oc 4s 5s 6s 1m"
#: 10 red cards (Lèo, Yêu Đỏ Đơn, Yêu Đỏ Kép, an Ông Cụ) and 11 black.
THAP_DIEU_LEO = "cc 9m 8s tt 9m 9s tt oc 9s oc 1v 2v 3v 4v 5v 6v 2m 3m 4m 1m 1s"
KINH_TU_CO = "oc oc oc oc 1v 2v 3v 4v 5v 6v 7v 8v 9v 2m 3m 4m 5m 6m 7m 1m 1s"
BACH_DINH = "1v 2v 3v 4v 5v 6v 7v 8v 9v 2m 3m 4m 5m 6m 7m 2s 3s 4s 5s 6s 7s"
KINH_CU = "1v 2v 3v 4v 5v 6v 7v 8v 9v 2m 3m 4m 5m 6m 7m 2s 3s 4s 1m 1s oc"
NO_LUNG_21 = "4v 5v 6v 4m 5m 6m 4s 5s 6s 7s 8s 9s 7m 8m 9m 5v 6v 7v 1v 1m cc"
TWO_LEO_TOM = "cc 9m 8s cc 9m 8s 7v 3m 3s 4v 5v 6v 4m 5m 6m 4s 5s 6s 1v 1m 1s"
GRID = "2v 3v 4v 2m 3m 4m 2s 3s 4s 5v 6v 7v 5m 6m 7m 5s 6s 7s cc 9m 8s"
# Bí Tứ (25 cards)
TT4_ONE_LUNG = "1v 2v 3v 4v 5v 6v 4m 5m 6m 4s 5s 6s 5m 6m 7m 5s 6s 7s 5v 6v 7v cc tt oc 1m"
TT4_GHEP = "7v 7v 7v 3m 3s 4v 5v 6v 4m 5m 6m 4s 5s 6s 5m 6m 7m 5s 6s 7s 1v 1m cc tt oc"
KINH_2_CU = "1v 2v 3v 9v 1m 1s 4v 5v 6v 2m 3m 4m 5m 6m 7m 2s 3s 4s 5s 6s 7s oc oc 1v 1m"
THAP_NHI_DIEU = "cc 9m 8s tt 9m 9s tt oc 9s 8m 8s 8v oc 1v 2v 3v 4v 5v 6v 2m 3m 4m 1m 1s 1v"


def test_the_example_of_the_brief() -> None:
    answer = check("to-tom-5", EXAMPLE, ["tom"])
    assert answer["tron"] is True and answer["valid"] is True
    assert answer["verdict"] == "ok" and "tom" in answer["cuoc"] and answer["lung"] == ["tom"]
    assert ["7v", "3m", "3s"] in answer["arrangement"]
    assert sorted(c for phu in answer["arrangement"] for c in phu) == sorted(EXAMPLE.split())
    assert set(answer) == {"tron", "valid", "lung", "cuoc", "verdict", "arrangement", "message"}


@pytest.mark.parametrize(
    ("game", "hand", "cuoc", "lung"),
    [
        ("to-tom-5", EXAMPLE, ["tom"], ["tom"]),
        ("to-tom-diem", EXAMPLE, ["tom"], ["tom"]),
        ("to-tom-5", THAP_DIEU_LEO, ["thap_dieu", "leo"], ["leo"]),
        ("to-tom-5", KINH_TU_CO, ["kinh_tu_co"], ["trung_tu"]),
        ("to-tom-5", BACH_DINH, ["bach_dinh"], ["yeu_den_don"]),
        ("to-tom-5", KINH_CU, ["kinh_cu"], ["yeu_den_kep"]),
        ("to-tom-5", TWO_LEO_TOM, ["leo", "leo", "tom"], ["tom", "leo", "leo"]),
        ("to-tom-5", NO_LUNG_21.replace("cc", "tt"), ["suong"], ["yeu_do_don"]),
        ("to-tom-4", TT4_GHEP, ["tom"], ["tom", "trung_tam"]),
        ("to-tom-4", KINH_2_CU, ["kinh_2_cu"], ["yeu_den_don", "yeu_den_kep"]),
        ("to-tom-4", THAP_NHI_DIEU, ["thap_nhi_dieu", "leo"], ["leo"]),
    ],
)
def test_valid_hands_and_their_card_cuoc(game: str, hand: str, cuoc: list[str], lung: list[str]) -> None:
    # the arrangement shown is one of the best; ``lung`` lists the lưng every best one carries
    result = check_hand(game, hand)
    assert result.verdict is Verdict.OK and result.valid and result.tron
    assert list(result.cuoc) == cuoc
    assert not Counter(lung) - Counter(result.lung)
    assert sorted(c for phu in result.arrangement for c in phu) == sorted(hand.split())


@pytest.mark.parametrize(
    ("game", "hand", "verdict", "message"),
    [
        ("to-tom-5", EXAMPLE.rsplit(" ", 1)[0], Verdict.SAI_SO_QUAN, "phải có 21 quân, bài này có 20 quân"),
        ("to-tom-5", EXAMPLE + " 8v", Verdict.SAI_SO_QUAN, "bài này có 22 quân"),
        (
            "to-tom-5",
            "7v " * 5 + "3m 3s 4v 5v 6v 2v 2m 2s 5m 6m 7m 9v 9m 9s 1v 1m",
            Verdict.QUA_BON_QUAN,  # 21 cards: the count is right, the deck has four of each (issue 31)
            "có 5 quân Thất Văn",
        ),
        ("to-tom-4", EXAMPLE, Verdict.SAI_SO_QUAN, "phải có 25 quân"),
        (
            "to-tom-5",
            EXAMPLE.replace("1m", "8s"),
            Verdict.KHONG_TRON,
            "Quân không vào được phu nào: Bát Sách",
        ),
        ("to-tom-5", EXAMPLE.replace("1m", "5m"), Verdict.KHONG_TRON, "còn quân rác"),
        ("to-tom-5", NO_LUNG_21, Verdict.KHONG_LUNG, "không có lưng"),
        ("to-tom-4", TT4_ONE_LUNG, Verdict.KHONG_LUNG, "chỉ có 1 lưng; Tổ Tôm Bí Tứ cần 2 lưng"),
    ],
)
def test_hands_that_do_not_win(game: str, hand: str, verdict: Verdict, message: str) -> None:
    result = check_hand(game, hand)
    assert result.verdict is verdict
    assert not result.valid
    assert message in result.message
    assert result.cuoc == ()


def test_khong_lung_still_shows_the_complete_arrangement() -> None:
    result = check_hand("to-tom-4", TT4_ONE_LUNG)
    assert result.tron and result.lung == ("yeu_den_don",)
    assert sum(len(p) for p in result.arrangement) == 25


def test_a_lung_ghep_counts_two_lung_in_bi_tu() -> None:
    # phỗng Thất Văn with Tam Vạn and Tam Sách: a trùng tam and a Tôm in one phu (seed 000, Bí Tứ)
    result = check_hand("to-tom-4", TT4_GHEP)
    assert ("7v", "7v", "7v", "3m", "3s") in result.arrangement


def test_the_most_valuable_arrangement_is_shown() -> None:
    # the 2-3-4 grid reads as runs or as bí; only one reading frees 7v 3m 3s for a Tôm
    readings = list(arrangements("to-tom-5", GRID))
    assert len(readings) > 5
    assert len({tuple(sorted(a.phu)) for a in readings}) == len(readings)
    assert {a.cuoc for a in readings} == {("leo",), ("leo", "tom")}
    assert check_hand("to-tom-5", GRID).cuoc == ("leo", "tom")


def test_arrangements_of_a_losing_hand_are_empty() -> None:
    assert list(arrangements("to-tom-5", NO_LUNG_21)) == []
    assert list(arrangements("to-tom-5", EXAMPLE.rsplit(" ", 1)[0])) == []


@pytest.mark.parametrize(
    ("hand", "declared", "verdict", "thua", "thieu"),
    [
        (EXAMPLE, ["tom"], Verdict.OK, (), ()),
        (EXAMPLE, ["tom", "thong"], Verdict.OK, (), ()),  # Thông is history: taken as declared
        (EXAMPLE, ["tom", "bach_thu"], Verdict.OK, (), ()),  # needs the waiting hand
        (EXAMPLE, ["leo"], Verdict.XUONG_THUA, ("leo",), ("tom",)),
        (EXAMPLE, ["tom", "thap_dieu"], Verdict.XUONG_THUA, ("thap_dieu",), ()),
        (EXAMPLE, [], Verdict.XUONG_THIEU, (), ("tom",)),
        (EXAMPLE, ["suong"], Verdict.XUONG_THIEU, (), ("tom",)),
        (THAP_DIEU_LEO, ["thap_dieu", "leo"], Verdict.OK, (), ()),
        (THAP_DIEU_LEO, ["leo"], Verdict.XUONG_THIEU, (), ("thap_dieu",)),
        (THAP_DIEU_LEO, ["thap_dieu", "leo", "leo"], Verdict.XUONG_THUA, ("leo",), ()),
        (TWO_LEO_TOM, ["leo", "tom"], Verdict.OK, (), ()),  # one "leo" covers both (house rule)
        (TWO_LEO_TOM, ["leo"], Verdict.XUONG_THIEU, (), ("tom",)),
        (KINH_TU_CO, ["kinh_cu"], Verdict.XUONG_THUA, ("kinh_cu",), ("kinh_tu_co",)),
        (BACH_DINH, ["bach_dinh", "thien_u"], Verdict.OK, (), ()),
    ],
)
def test_declarations(
    hand: str, declared: list[str], verdict: Verdict, thua: tuple[str, ...], thieu: tuple[str, ...]
) -> None:
    result = check_hand("to-tom-5", hand, declared)
    assert result.verdict is verdict
    assert (result.thua, result.thieu) == (thua, thieu)
    assert result.message.startswith(verdict.label if verdict is not Verdict.OK else "Bài ù hợp lệ")


def test_a_bad_hand_is_judged_on_the_cards_before_the_declaration() -> None:
    assert check_hand("to-tom-5", NO_LUNG_21, ["leo"]).verdict is Verdict.KHONG_LUNG


@pytest.mark.parametrize(
    ("game", "declared", "error", "message"),
    [
        ("to-tom-5", ["xyz"], CuocError, "Không có cước 'xyz'"),
        ("to-tom-5", ["thap_nhi_dieu"], CuocError, "không có trong Tổ Tôm Bí Ngũ"),
        ("to-tom-4", ["thap_dieu"], CuocError, "không có trong Tổ Tôm Bí Tứ"),
    ],
)
def test_unknown_or_foreign_cuoc_are_refused(
    game: str, declared: list[str], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        check_hand(game, EXAMPLE, declared)


def test_unknown_game_and_phom_are_refused() -> None:
    with pytest.raises(GameError):
        check_hand("mahjong", EXAMPLE)
    with pytest.raises(HandError, match="Phỏm"):
        check_hand("phom", EXAMPLE)


def test_win_card_must_be_in_the_hand() -> None:
    with pytest.raises(HandError, match="Quân ù Bát Văn không có trong bài"):
        check_hand("to-tom-5", EXAMPLE, ["tom"], win_card="8v")


def test_verdict_labels_are_vietnamese() -> None:
    assert [v.label for v in Verdict] == [
        "Quá 4 quân một loại",
        "Sai số quân",
        "Không tròn bài",
        "Không đủ lưng",
        "Xướng thừa",
        "Xướng thiếu",
        "Hợp lệ",
    ]


def test_result_is_immutable_and_explains_itself() -> None:
    result = check_hand("to-tom-5", EXAMPLE, ["leo"])
    assert isinstance(result, CheckResult)
    with pytest.raises(AttributeError):
        result.verdict = Verdict.OK  # type: ignore[misc]
    assert result.to_dict()["message"] == "Xướng thừa: bài không có Lèo. Bài còn có Tôm chưa xướng."


def test_hand_may_be_a_list_of_names() -> None:
    names = ["Thất Văn", "Tam Vạn", "tam sach", *EXAMPLE.split()[3:]]
    assert check_hand("to-tom-5", names).cuoc == ("tom",)
