"""Cards: the 30 kinds, their properties, and reading codes and Vietnamese names (RULES §1)."""

from __future__ import annotations

import pytest

from scoring.engine.cards import (
    CARD_BY_CODE,
    CARDS,
    CHAN_CARDS,
    Deck,
    Suit,
    card_counts,
    format_hand,
    parse_card,
    parse_hand,
)
from scoring.engine.errors import CardError


def test_deck_has_30_kinds_in_deck_order_with_matching_indexes() -> None:
    assert len(CARDS) == 30
    assert [c.index for c in CARDS] == list(range(30))
    assert [c.code for c in CARDS[:3]] == ["1v", "2v", "3v"]
    assert [c.code for c in CARDS[-3:]] == ["cc", "tt", "oc"]


def test_chan_deck_drops_the_five_yeu_but_keeps_chi_chi() -> None:
    assert len(CHAN_CARDS) == 25
    assert {c.code for c in CARDS} - {c.code for c in CHAN_CARDS} == {"1v", "1m", "1s", "tt", "oc"}


@pytest.mark.parametrize(
    ("code", "name", "rank", "suit"),
    [
        ("7v", "Thất Văn", 7, Suit.VAN),
        ("3m", "Tam Vạn", 3, Suit.MAN),
        ("8s", "Bát Sách", 8, Suit.SACH),
        ("1v", "Nhất Văn", 1, Suit.VAN),
        ("9m", "Cửu Vạn", 9, Suit.MAN),
        ("cc", "Chi Chi", None, Suit.HONOUR),
        ("tt", "Thang Thang", None, Suit.HONOUR),
        ("oc", "Ông Cụ", None, Suit.HONOUR),
    ],
)
def test_card_identity(code: str, name: str, rank: int | None, suit: Suit) -> None:
    card = CARD_BY_CODE[code]
    assert (card.name, card.rank, card.suit) == (name, rank, suit)


def test_red_cards_are_the_seven_kinds_of_rules() -> None:
    assert {c.code for c in CARDS if c.is_red} == {"cc", "tt", "oc", "8m", "8s", "9m", "9s"}
    assert not CARD_BY_CODE["8v"].is_red and not CARD_BY_CODE["9v"].is_red


def test_yeu_and_tai() -> None:
    assert {c.code for c in CARDS if c.is_yeu} == {"1v", "1m", "1s", "cc", "tt", "oc"}
    assert {c.code for c in CARDS if c.is_tai} == {
        "1v",
        "1m",
        "1s",
        "cc",
        "tt",
        "oc",
        "2v",
        "9v",
        "5m",
        "8m",
        "4s",
        "7s",
    }


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("7v", "7v"),
        ("7V", "7v"),
        (" 3M ", "3m"),
        ("CC", "cc"),
        ("thất văn", "7v"),
        ("Thất Văn", "7v"),
        ("THẤT VĂN", "7v"),
        ("that van", "7v"),
        ("thất vạn", "7m"),
        ("that man", "7m"),
        ("tam sách", "3s"),
        ("tam sach", "3s"),
        ("Ông Cụ", "oc"),
        ("ong cu", "oc"),
        ("ÔNG CỤ", "oc"),
        ("chi chi", "cc"),
        ("Thang Thang", "tt"),
        ("7 văn", "7v"),
        ("9 vạn", "9m"),
        ("8 sach", "8s"),
        ("nhị văn", "2v"),
        ("cửu sách", "9s"),
    ],
)
def test_parse_card_accepts_codes_and_names(text: str, code: str) -> None:
    assert parse_card(text).code == code


@pytest.mark.parametrize("text", ["x7", "10v", "văn", "", "7q"])
def test_parse_card_refuses_in_vietnamese(text: str) -> None:
    with pytest.raises(CardError, match="Không nhận ra quân bài"):
        parse_card(text)


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("7v 3m 3s", ["7v", "3m", "3s"]),
        ("7v,3m, 3s", ["7v", "3m", "3s"]),
        ("thất văn tam vạn 3s", ["7v", "3m", "3s"]),
        ("ông cụ chi chi chi chi tt", ["oc", "cc", "cc", "tt"]),
        ("that van, ong cu, 9M", ["7v", "oc", "9m"]),
    ],
)
def test_parse_hand_from_a_string(text: str, codes: list[str]) -> None:
    assert [c.code for c in parse_hand(text)] == codes


def test_parse_hand_from_a_list_takes_each_element_as_one_card() -> None:
    hand = parse_hand(["Thất Văn", "tam vạn", "3s", CARD_BY_CODE["oc"]])
    assert [c.code for c in hand] == ["7v", "3m", "3s", "oc"]


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        ("7v 3m x7", "Không nhận ra quân bài thứ 3: 'x7'"),
        ("thất văn zz", "Không nhận ra quân bài thứ 2: 'zz'"),
        (["7v", "tam vạn", "bad card"], "Không nhận ra quân bài thứ 3: 'bad card'"),
    ],
)
def test_parse_hand_names_the_bad_token_and_its_position(hand: str | list[str], message: str) -> None:
    with pytest.raises(CardError) as exc:
        parse_hand(hand)
    assert message in str(exc.value)


def test_chan_deck_refuses_the_missing_kinds() -> None:
    assert len(parse_hand("2v cc 9m", deck="chan")) == 3
    with pytest.raises(CardError, match="thứ 2 .*Ông Cụ.* không có trong bộ bài Chắn"):
        parse_hand("2v oc", deck=Deck.CHAN)


def test_max_copies_only_when_asked() -> None:
    assert len(parse_hand("7v 7v 7v 7v 7v")) == 5
    with pytest.raises(CardError, match="Có 5 quân Thất Văn"):
        parse_hand("7v 7v 7v 7v 7v", max_copies=4)


def test_unknown_deck_is_refused() -> None:
    with pytest.raises(CardError, match="Không có bộ bài"):
        parse_hand("7v", deck="western")


def test_counts_and_format() -> None:
    hand = parse_hand("3s 7v 3s oc")
    counts = card_counts(hand)
    assert counts[CARD_BY_CODE["3s"].index] == 2 and sum(counts) == 4
    assert format_hand(hand) == "7v 3s 3s oc"
