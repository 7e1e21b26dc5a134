"""Kiểm bài for Tài Bàn: 31 cards, 9+ weighted lưng, lưng ghép and tài, three cước (RULES §11)."""

from __future__ import annotations

import pytest

from scoring.engine.checker import Verdict, arrangements, check, check_hand, find_waits
from scoring.engine.errors import HandError

# Thiên khai 2v (tài: 12), phỗng 9v (tài: 2) ghép with 1m 1s into Yêu Đen Kép (+1), phỗng 6m (1),
# a Tôm (1) and a Lèo (1): 18 lưng.
EIGHTEEN = "2v 2v 2v 2v 9v 9v 9v 6m 6m 6m 7v 3m 3s cc 9m 8s 4v 5v 6v 4s 5s 6s 2m 3m 4m 7m 8m 9m 1m 1s tt"
# Thiên khai 5 Văn (6) and phỗng 8 Vạn (tài: 2) among phu carrying no lưng: 8 lưng.
W_TRUNG = "5v 5v 5v 5v 8m 8m 8m 2m 3m 4m 5m 6m 7m 2s 3s 4s 5s 6s 7s 2v 3v 4v 4m 5m 6m 3s 4s 5s 1m 1s tt"
# Bí Tôm with phỗng 7 Văn and phỗng 3 Vạn (3 lưng, seed 000 Điều 4) and a double Lèo (2): 5 lưng.
W_GHEP = "cc cc 9m 9m 8s 8s 7v 7v 7v 3m 3m 3m 3s 4m 5m 6m 5s 6s 7s 4v 5v 6v 2v 3v 4v 4s 5s 6s 1m 1s oc"


@pytest.mark.parametrize(
    ("dealt_khan", "khans", "cuoc", "count"),
    [
        (True, None, ["suong"], 18),
        (False, None, ["suu_ban"], 18),
        (None, None, [], 18),
        (None, ["6m"], ["tai_ban"], 20),  # a khàn 6 Vạn counts 3, not 1: 19+ lưng with a khàn
        (True, ["9v", "6m"], ["tai_ban"], 24),  # khàn 9 Văn (tài) counts 6
    ],
)
def test_lung_count_and_the_three_cuoc(
    dealt_khan: bool | None, khans: list[str] | None, cuoc: list[str], count: int
) -> None:
    answer = check("tai-ban", EIGHTEEN, dealt_khan=dealt_khan, khans=khans)
    assert answer["verdict"] == "ok" and answer["valid"]
    assert answer["cuoc"] == cuoc and answer["lung_count"] == count
    assert ["9v", "9v", "9v", "1m", "1s"] in answer["arrangement"]  # the lưng ghép is taken


@pytest.mark.parametrize(
    ("hand", "khans", "count", "verdict"),
    [
        (W_TRUNG, None, 8, Verdict.KHONG_LUNG),
        (W_TRUNG, ["8m"], 12, Verdict.OK),  # khàn of a tài kind: 6
        (W_GHEP, None, 5, Verdict.KHONG_LUNG),
        (W_GHEP, ["3m", "7v"], 9, Verdict.OK),  # two ordinary khàn: 3 each
    ],
)
def test_lung_weights(hand: str, khans: list[str] | None, count: int, verdict: Verdict) -> None:
    result = check_hand("tai-ban", hand, khans=khans)
    assert (result.lung_count, result.verdict) == (count, verdict)
    assert result.tron


def test_lung_ghep_is_one_phu_with_three_lung() -> None:
    result = check_hand("tai-ban", W_GHEP)
    assert ("7v", "7v", "7v", "3m", "3m", "3m", "3s") in result.arrangement
    assert sorted(result.lung) == ["leo", "leo", "tom", "trung_tam", "trung_tam"]
    assert "chỉ có 5 lưng; Tài Bàn cần ít nhất 9 lưng" in result.message


def test_exact_weights_on_a_clean_hand() -> None:
    # 4s×4 (tài: 12) + 5v×3 (1) + phu without lưng: exactly 13; a khàn 5 Văn makes it 15
    hand = "4s 4s 4s 4s 5v 5v 5v 2m 3m 4m 5m 6m 7m 6v 7v 8v 3v 4v 5v 5s 6s 7s 6m 7m 8m 1v 1m 1s tt oc cc"
    assert check_hand("tai-ban", hand, dealt_khan=True).lung_count == 13
    assert check_hand("tai-ban", hand, khans=["5v"]).lung_count == 15


def test_every_reading_of_a_short_hand_is_short() -> None:
    assert list(arrangements("tai-ban", W_GHEP)) == []
    readings = list(arrangements("tai-ban", W_GHEP, khans=["3m", "7v"]))
    assert readings and all(a.count >= 9 for a in readings)


@pytest.mark.parametrize(
    ("declared", "verdict"),
    [
        (["suong"], Verdict.OK),
        (["tai_ban"], Verdict.XUONG_THUA),
        (["suu_ban"], Verdict.XUONG_THUA),
        ([], Verdict.XUONG_THIEU),
    ],
)
def test_tai_ban_declarations(declared: list[str], verdict: Verdict) -> None:
    assert check_hand("tai-ban", EIGHTEEN, declared, dealt_khan=True).verdict is verdict


def test_declaration_accepted_when_the_khan_is_unknown() -> None:
    assert check_hand("tai-ban", EIGHTEEN, ["tai_ban"]).verdict is Verdict.OK


def test_khans_conflicting_with_no_dealt_khan_are_refused() -> None:
    with pytest.raises(HandError, match="khàn"):
        check_hand("tai-ban", EIGHTEEN, dealt_khan=False, khans=["6m"])
    with pytest.raises(HandError, match="Chỉ Tài Bàn"):
        check_hand("to-tom-5", EIGHTEEN, khans=["6m"])


def test_wrong_size() -> None:
    assert check_hand("tai-ban", EIGHTEEN.rsplit(" ", 1)[0]).verdict is Verdict.SAI_SO_QUAN


def test_tai_ban_waits() -> None:
    waiting = EIGHTEEN.replace(" tt", "")
    found = find_waits("tai-ban", waiting, dealt_khan=True)
    assert {w.card.code for w in found.waits} >= {"1v", "cc", "tt", "oc"}
    assert all(w.lung_count is not None and w.lung_count >= 9 for w in found.waits)
    assert found.get("tt").cuoc == ("suong",)  # type: ignore[union-attr]
