"""The 52-card western deck of Phỏm (seed 003), and reading its cards from text (docs/rules.md §1).

A :class:`WesternCard` is one card (each is in the deck once). The canonical notation follows the
Tổ Tôm codes (docs/rules.md §1: a rank, then a one-letter suit, lower case): the rank is ``a``,
``2`` … ``10``, ``j``, ``q``, ``k``; the suit is the first letter of its Vietnamese name:

======  =====  ===================
suit    code   example
======  =====  ===================
Bích ♠  ``b``  ``ab`` = A Bích
Tép ♣   ``t``  ``10t`` = 10 Tép (Nhép)
Rô ♦    ``r``  ``qr`` = Q Rô
Cơ ♥    ``c``  ``kc`` = K Cơ
======  =====  ===================

Readers also accept any case (``Kc``), ``1`` for the ace, the suit symbols (``K♥``, ``10♣``) and
the Vietnamese names with or without diacritics (``"K Cơ"``, ``"10 nhep"``, ``"át bích"``). Points
(seed 003): A = 1 … 10 = 10, J = 11, Q = 12, K = 13.
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
    "WESTERN_BY_CODE",
    "WESTERN_CARDS",
    "WesternCard",
    "WesternSuit",
    "parse_western",
    "parse_western_hand",
]


class WesternSuit(StrEnum):
    """The four suits of the western deck, by the first letter of their Vietnamese names."""

    BICH = "b"  #: Bích ♠
    TEP = "t"  #: Tép (Nhép) ♣
    RO = "r"  #: Rô ♦
    CO = "c"  #: Cơ ♥

    @property
    def name_vi(self) -> str:
        """Vietnamese name of the suit."""
        return _SUIT_NAMES[self]

    @property
    def symbol(self) -> str:
        """The suit's symbol (♠ ♣ ♦ ♥)."""
        return _SYMBOLS[self]


_SUIT_NAMES = {WesternSuit.BICH: "Bích", WesternSuit.TEP: "Tép", WesternSuit.RO: "Rô", WesternSuit.CO: "Cơ"}
_SYMBOLS = {WesternSuit.BICH: "♠", WesternSuit.TEP: "♣", WesternSuit.RO: "♦", WesternSuit.CO: "♥"}
_RANK_CODES = ("a", "2", "3", "4", "5", "6", "7", "8", "9", "10", "j", "q", "k")
_RANK_SHOWN = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


@dataclass(frozen=True, slots=True, repr=False)
class WesternCard:
    """One card of the 52-card deck."""

    #: Canonical code: ``"ab"``, ``"10t"``, ``"qr"``, ``"kc"``.
    code: str
    #: Rank 1 (A) … 13 (K); also its points in Phỏm.
    rank: int
    suit: WesternSuit
    #: Vietnamese name ("K Cơ", "10 Tép").
    name: str
    #: Rô and Cơ are red.
    is_red: bool
    #: Position 0..51 in deck order (Bích A–K, Tép, Rô, Cơ).
    index: int

    @property
    def points(self) -> int:
        """Points of the card left out of phỏm (seed 003: A = 1 … K = 13)."""
        return self.rank

    @property
    def label(self) -> str:
        """Short form with the suit symbol ("K♥")."""
        return f"{_RANK_SHOWN[self.rank - 1]}{self.suit.symbol}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"WesternCard({self.code!r})"


def _build() -> tuple[WesternCard, ...]:
    out: list[WesternCard] = []
    for suit in WesternSuit:
        for rank in range(1, 14):
            out.append(
                WesternCard(
                    f"{_RANK_CODES[rank - 1]}{suit.value}",
                    rank,
                    suit,
                    f"{_RANK_SHOWN[rank - 1]} {_SUIT_NAMES[suit]}",
                    suit in (WesternSuit.RO, WesternSuit.CO),
                    len(out),
                )
            )
    return tuple(out)


#: The 52 cards in deck order; ``WESTERN_CARDS[i].index == i``.
WESTERN_CARDS: tuple[WesternCard, ...] = _build()
#: Every card by its canonical code.
WESTERN_BY_CODE: Mapping[str, WesternCard] = MappingProxyType({c.code: c for c in WESTERN_CARDS})


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text.lower().replace("đ", "d"))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


_RANK_WORDS = {code: i + 1 for i, code in enumerate(_RANK_CODES)} | {"1": 1, "at": 1, "xi": 1, "t": 10}
_SUIT_WORDS = {
    "b": WesternSuit.BICH,
    "bich": WesternSuit.BICH,
    "♠": WesternSuit.BICH,
    "t": WesternSuit.TEP,
    "tep": WesternSuit.TEP,
    "nhep": WesternSuit.TEP,
    "♣": WesternSuit.TEP,
    "r": WesternSuit.RO,
    "ro": WesternSuit.RO,
    "♦": WesternSuit.RO,
    "c": WesternSuit.CO,
    "co": WesternSuit.CO,
    "♥": WesternSuit.CO,
}
_ONE = re.compile(r"^(10|[2-9]|1|a|j|q|k|at|xi)\s*(bich|tep|nhep|ro|co|[btrc♠♣♦♥])$")


def _lookup(text: str) -> WesternCard | None:
    key = (
        " ".join(_fold(text).split()).replace("♤", "♠").replace("♧", "♣").replace("♢", "♦").replace("♡", "♥")
    )
    match = _ONE.match(key)
    if match is None:
        return None
    rank = _RANK_WORDS[match.group(1)]
    suit = _SUIT_WORDS[match.group(2)]
    return WESTERN_CARDS[(list(WesternSuit).index(suit)) * 13 + rank - 1]


def parse_western(text: str | WesternCard) -> WesternCard:
    """Read one card of the 52-card deck; :class:`CardError` (Vietnamese) when it names none."""
    if isinstance(text, WesternCard):
        return text
    found = _lookup(text) if isinstance(text, str) else None
    if found is None:
        raise CardError(
            N_("Không nhận ra quân bài tây {value}: cần một mã như 'kc' (K Cơ), '10t' hay 'ab'."),
            value=f"'{text.strip()}'" if isinstance(text, str) else shown(text),
        )
    return found


_SPLIT = re.compile(r"[\s,;]+")


def parse_western_hand(hand: str | Iterable[str | WesternCard]) -> tuple[WesternCard, ...]:
    """Read a hand of the 52-card deck: a string ("kc 10t ab", "K Cơ, 10 Tép") or a list.

    In a string, a rank followed by a suit word ("K Cơ") is one card. Each card is in the deck
    once: a card twice is refused, naming it. Raises :class:`CardError` naming the position.
    """
    cards: list[WesternCard] = []
    if isinstance(hand, str):
        tokens = [t for t in _SPLIT.split(hand) if t]
        i = 0
        while i < len(tokens):
            pair = _lookup(f"{tokens[i]} {tokens[i + 1]}") if i + 1 < len(tokens) else None
            if pair is not None and _lookup(tokens[i]) is None:
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
    else:
        for position, item in enumerate(hand, start=1):
            found = (
                item if isinstance(item, WesternCard) else _lookup(item) if isinstance(item, str) else None
            )
            if found is None:
                raise CardError(
                    N_("Không nhận ra quân bài thứ {position}: {text}."),
                    position=position,
                    text=f"'{item.strip()}'" if isinstance(item, str) else shown(item),
                )
            cards.append(found)
    seen: set[str] = set()
    for card in cards:
        if card.code in seen:
            raise CardError(N_("Quân {card} có hai lần: bộ bài tây mỗi quân chỉ có một."), card=card.name)
        seen.add(card.code)
    return tuple(cards)
