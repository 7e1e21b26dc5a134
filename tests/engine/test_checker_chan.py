"""Kiểm bài for Chắn: 10 pairs, at least 6 chắn, card cước, waits (RULES §12, seeds 002 and 004)."""

from __future__ import annotations

import pytest

from scoring.engine.cards import parse_hand
from scoring.engine.checker import Verdict, arrangements, check, check_hand, waits
from scoring.engine.errors import CardError

SIX_CHAN = "2v 2v 3m 3m 4s 4s 5v 5v 6m 6m 7s 7s 2m 2s 3v 3s 8v 8m 9v 9s"
FIVE_CHAN = "2v 2v 3m 3m 4s 4s 5v 5v 6m 6m 7s 2m 2s 3v 3s 8v 8m 9v 9s 7v"
THAP_THANH = "2v 2v 3m 3m 4s 4s 5v 5v 6m 6m 7s 7s 8v 8v 9m 9m 2m 2m 3v 3v"
TAM_DO = "cc cc 8m 8m 9s 9s 8s 8s 2v 2v 3m 3m 4v 4m 5v 5s 6m 6s 7v 7s"
KINH_TU_CHI = "cc cc cc cc 2v 2v 3m 3m 4s 4s 5v 5v 6m 6s 7v 7s 8v 8v 3v 3s"
TWO_LEO_TWO_TOM = "cc 9m 8s cc 9m 8s 7v 3m 3s 7v 3m 3s 2v 2v 4v 4v 5m 5s 6m 6s"


@pytest.mark.parametrize(
    ("hand", "cuoc", "n_chan"),
    [
        (SIX_CHAN, ["xuong"], 6),
        (THAP_THANH, ["thap_thanh"], 10),
        (TAM_DO, ["tam_do"], 6),
        (KINH_TU_CHI, ["kinh_tu_chi", "tom"], 7),
        (TWO_LEO_TWO_TOM, ["leo", "leo", "tom", "tom"], 8),
        ("2v 2v 3m 3m 4s 4s 5v 5v 6m 6m 7s 7s 2m 2s 3v 3s 8v 8v 6v 6s", ["bach_dinh"], 7),
    ],
)
def test_winning_chan_hands(hand: str, cuoc: list[str], n_chan: int) -> None:
    result = check_hand("chan", hand)
    assert result.verdict is Verdict.OK and result.valid
    assert list(result.cuoc) == cuoc
    assert result.chan_count == n_chan
    assert len(result.arrangement) == 10
    assert sum(a == b for a, b in result.arrangement) == n_chan  # a chíu shows as two chắn
    assert sorted(c for pair in result.arrangement for c in pair) == sorted(hand.split())


def test_pairs_are_chan_then_ca_of_one_rank() -> None:
    for a, b in check_hand("chan", SIX_CHAN).arrangement:
        assert a == b or (a[0] == b[0] and a != b)


@pytest.mark.parametrize(
    ("hand", "verdict", "message"),
    [
        (FIVE_CHAN, Verdict.KHONG_LUNG, "chỉ có 5 chắn; Chắn cần ít nhất 6 chắn"),
        (FIVE_CHAN.replace("7v", "6v"), Verdict.KHONG_TRON, "không chia được hết"),
        (SIX_CHAN.replace("9s", "cc"), Verdict.KHONG_TRON, "không chia được hết"),
        (SIX_CHAN + " 2v", Verdict.SAI_SO_QUAN, "phải có 20 quân"),
    ],
)
def test_losing_chan_hands(hand: str, verdict: Verdict, message: str) -> None:
    result = check_hand("chan", hand)
    assert result.verdict is verdict and not result.valid
    assert message in result.message


def test_a_chan_count_may_need_the_right_pairing() -> None:
    # two chắn Văn and two chắn Vạn of one rank could be paired as four cạ: the best reading wins
    hand = "2v 2v 2m 2m 3v 3v 3m 3m 4s 4s 5v 5v 6m 6m 7s 7s 8v 8m 9v 9s"
    assert check_hand("chan", hand).chan_count == 8
    counts = sorted(a.count for a in arrangements("chan", hand))
    assert counts[0] == 6 and counts[-1] == 8


def test_cards_outside_the_chan_deck_are_refused() -> None:
    with pytest.raises(CardError, match="không có trong bộ bài Chắn"):
        check_hand("chan", SIX_CHAN.replace("9s", "1v"))


@pytest.mark.parametrize(
    ("hand", "declared", "verdict"),
    [
        (TWO_LEO_TWO_TOM, ["leo", "leo", "tom", "tom"], Verdict.OK),
        (TWO_LEO_TWO_TOM, ["leo", "tom"], Verdict.XUONG_THIEU),  # each Lèo must be said
        (TWO_LEO_TWO_TOM, ["leo", "leo", "leo", "tom", "tom"], Verdict.XUONG_THUA),
        (SIX_CHAN, ["xuong"], Verdict.OK),
        (SIX_CHAN, ["thong", "chi"], Verdict.OK),
        (SIX_CHAN, ["bach_dinh"], Verdict.XUONG_THUA),
        (THAP_THANH, [], Verdict.XUONG_THIEU),
    ],
)
def test_chan_declarations(hand: str, declared: list[str], verdict: Verdict) -> None:
    assert check_hand("chan", hand, declared).verdict is verdict


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        # 5 chắn, 4 cạ and a lone Thất Sách: only its twin wins (Bạch Thủ)
        ("2v 2v 3m 3m 4s 4s 5v 5v 6m 6m 2m 2s 3v 3s 8v 8m 9v 9s 7s", [("7s", ["xuong"], ["bach_thu"])]),
        # the lone card is Chi Chi: only Bạch Thủ Chi
        ("2v 2v 3m 3m 4s 4s 5v 5v 6m 6m 2m 2s 3v 3s 8v 8m 9v 9s cc", [("cc", ["xuong"], ["bach_thu_chi"])]),
        # 6 chắn already: any Thất wins (ù rộng), no Bạch Thủ
        (
            "2v 2v 3m 3m 4s 4s 5v 5v 6m 6m 6v 6v 2m 2s 3v 3s 8v 8m 7s",
            [("7v", ["tom"], []), ("7m", ["xuong"], []), ("7s", ["xuong"], [])],
        ),
        # 6 chắn and a lone Chi Chi: never won on (it must be Bạch Thủ Chi)
        ("2v 2v 3m 3m 4s 4s 5v 5v 6m 6m 6v 6v 2m 2s 3v 3s 8v 8m cc", []),
    ],
)
def test_chan_waits(hand: str, expected: list[tuple[str, list[str], list[str]]]) -> None:
    assert waits("chan", hand) == {"waits": [{"card": c, "cuoc": k, "allows": a} for c, k, a in expected]}


def test_bach_thu_judged_with_the_winning_card() -> None:
    hand = "2v 2v 3m 3m 4s 4s 5v 5v 6m 6m 2m 2s 3v 3s 8v 8m 9v 9s 7s 7s"
    assert check_hand("chan", hand, ["bach_thu"], win_card="7s").verdict is Verdict.OK
    assert check_hand("chan", hand, [], win_card="7s").verdict is Verdict.XUONG_THIEU
    assert check("chan", hand, ["bach_thu"])["verdict"] == "ok"


def test_cards_already_read_are_checked_against_the_chan_deck_too() -> None:
    with pytest.raises(CardError, match="không có trong bộ bài Chắn"):
        check_hand("chan", parse_hand(SIX_CHAN.replace("9s", "1v")))
