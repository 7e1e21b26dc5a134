"""Waits (chờ ù): which cards complete a hand one short, with their cước and wait cước (RULES §5)."""

from __future__ import annotations

import pytest

from scoring.engine.cards import CARDS
from scoring.engine.checker import Verdict, check_hand, find_waits, waits
from scoring.engine.errors import HandError

# 18 cards tròn with a Tôm, plus a pair of Bát Vạn: only the phỗng completes (Bạch Thủ).
BACH_THU = "7v 3m 3s 4v 5v 6v 2v 2m 2s 5m 6m 7m 9v 9m 9s 4s 5s 6s 8m 8m"
# 16 cards with a Lèo, plus 3s 4s _ 6s 7s (Xuyên Năm Gian on 5s).
NAM_GIAN = "cc 9m 8s 1v 2v 3v 4v 5v 6v 2m 3m 4m 5m 6m 7m 1m 3s 4s 6s 7s"
# 16 cards with a Lèo, plus two Ngũ Vạn and two Ngũ Sách (Xuyên Bí Tư on 5v).
BI_TU = "cc 9m 8s 1v 2v 3v 6v 7v 8v 2m 3m 4m 2s 3s 4s 1m 5m 5m 5s 5s"
# As above with Tam: 3v completes the bí, 7v the Bí Tôm: two ways, so no Xuyên (seed 000 §14.2).
BI_TU_TWO_WAYS = "cc 9m 8s 4v 5v 6v 4m 5m 6m 4s 5s 6s 1v 1m 1s tt 3m 3m 3s 3s"
# No lưng yet: only 7v (Bí Tôm) completes, and that is a Xuyên Bí Tư (seed 000 §14.3).
BI_TU_NO_LUNG = "4v 5v 6v 4m 5m 6m 4s 5s 6s 7s 8s 9s 1v 1m 1s tt 3m 3m 3s 3s"
# 18 cards tròn with a Tôm, plus Cửu Vạn and Bát Sách as junk: only Chi Chi completes.
CHI_NAY = "7v 3m 3s 1v 2v 3v 4v 5v 6v 4m 5m 6m 2s 3s 4s 1m 1s oc 9m 8s"
# Complete 20 cards with a lưng: every yêu completes, and so does anything joining a phu.
TRON_20 = "7v 3m 3s 4v 5v 6v 2v 2m 2s 5m 6m 7m 9v 9m 9s 1v oc 4s 5s 6s"


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        (BACH_THU, [("8m", ["tom"], ["bach_thu"])]),
        (NAM_GIAN, [("5s", ["leo"], ["xuyen_nam_gian"])]),
        (BI_TU, [("5v", ["leo"], ["xuyen_bi_tu"])]),
        (BI_TU_TWO_WAYS, [("3v", ["leo"], []), ("7v", ["leo", "tom"], [])]),
        (BI_TU_NO_LUNG, [("7v", ["tom"], ["xuyen_bi_tu"])]),
        (CHI_NAY, [("cc", ["leo", "tom"], ["chi_nay"])]),
    ],
)
def test_waits_and_what_they_allow(hand: str, expected: list[tuple[str, list[str], list[str]]]) -> None:
    answer = waits("to-tom-5", hand)
    assert answer == {"waits": [{"card": c, "cuoc": cuoc, "allows": allows} for c, cuoc, allows in expected]}


def test_a_complete_hand_waits_on_many_cards_in_deck_order() -> None:
    found = find_waits("to-tom-5", TRON_20)
    assert {"1v", "1m", "1s", "cc", "tt", "oc"} <= {w.card.code for w in found.waits}
    indexes = [w.card.index for w in found.waits]
    assert indexes == sorted(indexes)
    assert all(w.allows == () for w in found.waits)  # many tiếng: no Bạch Thủ, no Xuyên
    assert found.get("cc") is not None and "leo" not in found.get("cc").cuoc  # type: ignore[union-attr]


def test_every_wait_really_completes_and_no_other_card_does() -> None:
    found = {w.card.code for w in find_waits("to-tom-5", BI_TU_TWO_WAYS).waits}
    for card in CARDS:
        result = check_hand("to-tom-5", f"{BI_TU_TWO_WAYS} {card.code}")
        assert result.valid == (card.code in found), card.code


@pytest.mark.parametrize(
    ("hand", "win", "declared", "verdict"),
    [
        (BACH_THU, "8m", ["tom", "bach_thu"], Verdict.OK),
        (BACH_THU, "8m", ["tom"], Verdict.XUONG_THIEU),
        (NAM_GIAN, "5s", ["leo", "xuyen_nam_gian"], Verdict.OK),
        (NAM_GIAN, "5s", ["leo", "xuyen_bi_tu"], Verdict.XUONG_THUA),
        (BI_TU_TWO_WAYS, "7v", ["leo", "tom", "xuyen_bi_tu"], Verdict.XUONG_THUA),
        (BI_TU_TWO_WAYS, "7v", ["leo", "tom"], Verdict.OK),
        (CHI_NAY, "cc", ["chi_nay", "tom"], Verdict.OK),  # Chi Nẩy carries its Lèo
        (CHI_NAY, "cc", ["leo", "tom"], Verdict.XUONG_THIEU),
    ],
)
def test_wait_cuoc_are_judged_when_the_winning_card_is_given(
    hand: str, win: str, declared: list[str], verdict: Verdict
) -> None:
    assert check_hand("to-tom-5", f"{hand} {win}", declared, win_card=win).verdict is verdict


def test_wait_cuoc_are_taken_as_declared_without_the_winning_card() -> None:
    assert check_hand("to-tom-5", f"{NAM_GIAN} 5s", ["leo", "xuyen_bi_tu"]).verdict is Verdict.OK


def test_waiting_hand_must_be_one_short() -> None:
    with pytest.raises(HandError, match="phải có 20 quân"):
        find_waits("to-tom-5", f"{TRON_20} 1m")
    with pytest.raises(HandError, match="5 quân Thất Văn"):
        find_waits("to-tom-5", "7v 7v 7v 7v 7v " + " ".join(TRON_20.split()[5:]))


def test_bi_tu_waits() -> None:
    # 25-card Bí Tứ needs two lưng: junk 5m 5m 5s 5s on top of 20 cards with a Lèo and a Tôm
    hand = "cc 9m 8s 7v 3m 3s 1v 2v 3v 6v 7v 8v 2m 3m 4m 2s 3s 4s 1m 1s 5m 5m 5s 5s"
    assert waits("to-tom-4", hand) == {
        "waits": [{"card": "5v", "cuoc": ["leo", "tom"], "allows": ["xuyen_bi_tu"]}]
    }
