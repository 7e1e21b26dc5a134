"""The cards of the Tổ Tôm deck and the Chắn deck, and reading them from text (docs/rules.md §1).

A :class:`Card` is a card *kind* (there are four identical copies of each kind in a deck). The
canonical notation is the project's ASCII code (``7v``, ``3m``, ``8s``, ``cc``, ``tt``, ``oc``);
every reader also accepts the Vietnamese name with or without diacritics, in any case
(``"Thất Văn"``, ``"that van"``, ``"ông cụ"``, ``"ONG CU"``).

Without diacritics *Văn* and *Vạn* are both spelt "van": a bare "van" means **Văn**; write
Vạn as "vạn", as "man" (its mahjong reading, as in the code ``m``) or use the code.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from scoring.engine.errors import N_, CardError, shown

__all__ = [
    "CARDS",
    "CARD_BY_CODE",
    "CHAN_CARDS",
    "Card",
    "Deck",
    "Suit",
    "card_counts",
    "format_hand",
    "parse_card",
    "parse_hand",
]


class Suit(StrEnum):
    """The suit (hàng chất) of a card kind; the three red honours share :attr:`HONOUR`."""

    VAN = "v"  #: Văn
    MAN = "m"  #: Vạn (萬, *man* as in mahjong)
    SACH = "s"  #: Sách
    HONOUR = "h"  #: Chi Chi, Thang Thang, Ông Cụ

    @property
    def name_vi(self) -> str:
        """Vietnamese name of the suit."""
        return _SUIT_NAMES[self]


class Deck(StrEnum):
    """Which deck a hand is read against (same values as ``games.DeckKind``)."""

    TO_TOM = "to_tom"  #: 120 cards, 30 kinds × 4
    CHAN = "chan"  #: 100 cards, 25 kinds × 4 (no Nhất Văn/Vạn/Sách, Thang Thang, Ông Cụ)


_SUIT_NAMES = {Suit.VAN: "Văn", Suit.MAN: "Vạn", Suit.SACH: "Sách", Suit.HONOUR: "Yêu đỏ"}
_RANK_NAMES = ("Nhất", "Nhị", "Tam", "Tứ", "Ngũ", "Lục", "Thất", "Bát", "Cửu")
_SUIT_ORDER = (Suit.VAN, Suit.MAN, Suit.SACH)
_HONOURS = (("cc", "Chi Chi"), ("tt", "Thang Thang"), ("oc", "Ông Cụ"))
_RED_CODES = frozenset({"cc", "tt", "oc", "8m", "8s", "9m", "9s"})
_YEU_CODES = frozenset({"1v", "1m", "1s", "cc", "tt", "oc"})
_TAI_CODES = _YEU_CODES | {"2v", "9v", "5m", "8m", "4s", "7s"}
_NOT_IN_CHAN = frozenset({"1v", "1m", "1s", "tt", "oc"})


@dataclass(frozen=True, slots=True, repr=False)
class Card:
    """One card kind of the Tổ Tôm deck."""

    #: Canonical ASCII code: ``"7v"``, ``"3m"``, ``"8s"``, ``"cc"``, ``"tt"``, ``"oc"``.
    code: str
    #: Rank 1–9; None for the three honours.
    rank: int | None
    #: Suit (Văn, Vạn, Sách) or :attr:`Suit.HONOUR`.
    suit: Suit
    #: Vietnamese name with diacritics ("Thất Văn", "Ông Cụ").
    name: str
    #: One of the 7 red kinds (Chi Chi, Thang Thang, Ông Cụ, Bát/Cửu Vạn, Bát/Cửu Sách).
    is_red: bool
    #: A yêu: Nhất Văn, Nhất Vạn, Nhất Sách, Chi Chi, Thang Thang, Ông Cụ (never junk).
    is_yeu: bool
    #: A tài card of Tài Bàn (all yêu; 2v, 9v; 5m, 8m; 4s, 7s), whose trùng count double.
    is_tai: bool
    #: Whether the kind is in the 100-card Chắn deck.
    in_chan_deck: bool
    #: Position 0..29 in deck order (Văn 1–9, Vạn 1–9, Sách 1–9, cc, tt, oc).
    index: int

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"


def _build_cards() -> tuple[Card, ...]:
    cards: list[Card] = []
    for suit in _SUIT_ORDER:
        for rank in range(1, 10):
            code = f"{rank}{suit.value}"
            cards.append(
                Card(
                    code,
                    rank,
                    suit,
                    f"{_RANK_NAMES[rank - 1]} {_SUIT_NAMES[suit]}",
                    code in _RED_CODES,
                    code in _YEU_CODES,
                    code in _TAI_CODES,
                    code not in _NOT_IN_CHAN,
                    len(cards),
                )
            )
    for code, name in _HONOURS:
        cards.append(
            Card(code, None, Suit.HONOUR, name, True, True, True, code not in _NOT_IN_CHAN, len(cards))
        )
    return tuple(cards)


#: The 30 card kinds in deck order; ``CARDS[i].index == i``.
CARDS: tuple[Card, ...] = _build_cards()
#: The 25 kinds of the Chắn deck, in deck order.
CHAN_CARDS: tuple[Card, ...] = tuple(c for c in CARDS if c.in_chan_deck)
#: Every kind by its canonical code.
CARD_BY_CODE: Mapping[str, Card] = MappingProxyType({c.code: c for c in CARDS})


def _fold(text: str) -> str:
    """Lower-case, strip diacritics (đ → d) and collapse whitespace."""
    decomposed = unicodedata.normalize("NFD", text.lower().replace("đ", "d"))
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(stripped.split())


def _exact(text: str) -> str:
    """Lower-case, NFC, whitespace collapsed: keeps the diacritics."""
    return " ".join(unicodedata.normalize("NFC", text.lower()).split())


def _build_lookups() -> tuple[dict[str, Card], dict[str, Card]]:
    exact: dict[str, Card] = {}
    folded: dict[str, Card] = {}
    suit_words = {Suit.VAN: ("văn",), Suit.MAN: ("vạn",), Suit.SACH: ("sách",)}
    folded_words = {Suit.VAN: ("van",), Suit.MAN: ("man",), Suit.SACH: ("sach",)}
    for card in CARDS:
        exact[card.code] = card
        exact[_exact(card.name)] = card
        folded[_fold(card.name)] = card
        if card.rank is None:
            continue
        rank_word = _RANK_NAMES[card.rank - 1]
        for word in suit_words[card.suit]:
            exact[f"{_exact(rank_word)} {word}"] = card
            exact[f"{card.rank} {word}"] = card
        for word in folded_words[card.suit]:
            folded[f"{_fold(rank_word)} {word}"] = card
            folded[f"{card.rank} {word}"] = card
    # "that van" is Thất Văn (set last so Văn wins over Vạn's folded spelling).
    for card in CARDS:
        if card.suit is Suit.VAN:
            folded[_fold(card.name)] = card
    return exact, folded


_EXACT, _FOLDED = _build_lookups()


def _lookup(text: str) -> Card | None:
    key = _exact(text)
    found = _EXACT.get(key)
    if found is None:
        found = _FOLDED.get(_fold(text))
    return found


def parse_card(text: str | Card) -> Card:
    """Read one card from its code or Vietnamese name (any case, with or without diacritics).

    Raises :class:`CardError` with a Vietnamese message when the text names no card.
    """
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise CardError(
            N_("Không nhận ra quân bài {value}: cần một mã như '7v' hoặc tên như 'Thất Văn'."),
            value=shown(text),
        )
    found = _lookup(text)
    if found is None:
        raise CardError(N_("Không nhận ra quân bài '{text}'."), text=text.strip())
    return found


_SPLIT = re.compile(r"[\s,;]+")


def _tokens_to_cards(tokens: list[str]) -> list[Card]:
    """Greedy reading of string tokens: a two-word name first, else a one-word code."""
    cards: list[Card] = []
    i = 0
    while i < len(tokens):
        if i + 1 < len(tokens):
            pair = _lookup(f"{tokens[i]} {tokens[i + 1]}")
            if pair is not None:
                cards.append(pair)
                i += 2
                continue
        single = _lookup(tokens[i])
        if single is None:
            raise CardError(
                N_("Không nhận ra quân bài thứ {position}: {text}."),
                position=len(cards) + 1,
                text=f"'{tokens[i]}'",
            )
        cards.append(single)
        i += 1
    return cards


def _items_to_cards(items: Iterable[object]) -> list[Card]:
    cards: list[Card] = []
    for position, item in enumerate(items, start=1):
        if isinstance(item, Card):
            cards.append(item)
            continue
        found = _lookup(item) if isinstance(item, str) else None
        if found is None:
            raise CardError(
                N_("Không nhận ra quân bài thứ {position}: {text}."), position=position, text=_show(item)
            )
        cards.append(found)
    return cards


def _show(item: object) -> str:
    return f"'{item.strip()}'" if isinstance(item, str) else shown(item)


def parse_hand(
    hand: str | Iterable[str | Card],
    deck: str | Deck = Deck.TO_TOM,
    *,
    max_copies: int | None = None,
) -> tuple[Card, ...]:
    """Read a hand: a space- or comma-separated string, or a list of codes, names or cards.

    In a string, two-word names are read greedily ("thất văn tam vạn 3s"); in a list every element
    is one card. ``deck="chan"`` refuses the five kinds missing from the Chắn deck. With
    ``max_copies`` (usually 4), more copies of one kind than that are refused too. Raises
    :class:`CardError` naming the bad card and its position (1-based), in Vietnamese.
    """
    deck_kind = _deck(deck)
    if isinstance(hand, str):
        cards = _tokens_to_cards([t for t in _SPLIT.split(hand) if t])
    else:
        cards = _items_to_cards(hand)
    if deck_kind is Deck.CHAN:
        for position, card in enumerate(cards, start=1):
            if not card.in_chan_deck:
                raise CardError(
                    N_("Quân bài thứ {position} ({card}) không có trong bộ bài Chắn."),
                    position=position,
                    card=card.name,
                )
    if max_copies is not None:
        counts = card_counts(cards)
        for card in CARDS:
            if counts[card.index] > max_copies:
                raise CardError(
                    N_("Có {count} quân {card}, nhiều hơn {most} quân cùng loại."),
                    count=counts[card.index],
                    card=card.name,
                    most=max_copies,
                )
    return tuple(cards)


def _deck(deck: str | Deck) -> Deck:
    try:
        return Deck(str(deck).strip().lower())
    except ValueError:
        raise CardError(N_("Không có bộ bài '{deck}': dùng 'to_tom' hoặc 'chan'."), deck=deck) from None


def card_counts(cards: Iterable[Card]) -> list[int]:
    """A count vector of 30 ints, indexed by :attr:`Card.index`."""
    counts = [0] * len(CARDS)
    for card in cards:
        counts[card.index] += 1
    return counts


def format_hand(cards: Iterable[Card]) -> str:
    """The hand as a space-separated string of codes, in deck order."""
    return " ".join(c.code for c in sorted(cards, key=lambda c: c.index))
