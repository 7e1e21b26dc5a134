"""What a cước needs of the winning hand, as data (docs/rules.md §5, §11, §12).

Each catalogue entry (and each custom cước of a rule set) states its :class:`Needs`: how many red
cards the whole hand holds, how many of given cards, what every occurrence of it takes (a Lèo takes
a Chi Chi, a Cửu Vạn and a Bát Sách), how many kinds held four times each occurrence takes (a chíu),
the Tài Bàn lưng range, whether a khàn was dealt, and how many times it may count in one win.
:mod:`scoring.engine.conflicts` intersects the needs of a win's cước with what a hand of the game
can be (its size, its deck, four copies of each card) and refuses what no hand could hold.

Needs are necessary conditions read from docs/rules.md, never sufficient ones: a cước whose cards are
not pinned down (Xuyên, Bạch Thủ…) states nothing and combines with anything.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scoring.engine.cards import CARD_BY_CODE, parse_card
from scoring.engine.errors import N_, CardError, Msg, RuleError, shown
from scoring.engine.frozen import FrozenMap

__all__ = ["MAX_TIMES", "Needs", "Span", "parse_needs"]

#: A closed range of counts; ``None`` as the upper end means "no upper end".
Span = tuple[int, int | None]

#: The most times a repeatable cước may be declared in one request (a bound on input, far above
#: any hand: four Lèo, five chíu).
MAX_TIMES = 30


@dataclass(frozen=True, slots=True)
class Needs:
    """What one cước needs of a winning hand; every field is optional (None / empty: no need)."""

    #: Red cards in the whole hand ("Thập Điều": exactly 10; "Bạch Định": none).
    red: Span | None = None
    #: Copies of given cards in the whole hand, by card code ("Kính Cụ": exactly 1 Ông Cụ).
    cards: FrozenMap[Span] = field(default_factory=FrozenMap)
    #: Cards every occurrence takes, by card code ("Lèo": one Chi Chi, Cửu Vạn and Bát Sách).
    each: FrozenMap[int] = field(default_factory=FrozenMap)
    #: Kinds held four times that every occurrence takes ("Có Chíu": one).
    quads: int = 0
    #: Tài Bàn: weighted lưng of the hand.
    lung: Span | None = None
    #: Tài Bàn: whether a khàn was dealt (True), was not (False), or either (None).
    khan: bool | None = None
    #: How many times the cước may count in one win; None = as often as its cards allow.
    times: int | None = 1
    #: Chắn: chắn (pairs of identical cards) in the winning hand ("Thập Thành": 10; "Bạch Thủ":
    #: exactly 6, five chắn waiting for the sixth, seed 002 item 11).
    chan: Span | None = None
    #: Who can win it: the dealer only (True: "Thiên Ù", the dealer's dealt hand), never the dealer
    #: (False: "Địa Ù", "bài có cái thì không bao giờ có thể Địa Ù", seed 002 item 5), or anyone.
    dealer: bool | None = None

    @property
    def empty(self) -> bool:
        """Whether the cước needs nothing of the hand (it combines with anything)."""
        return (
            self.red is None
            and not self.cards
            and not self.each
            and not self.quads
            and self.lung is None
            and self.khan is None
            and self.chan is None
            and self.dealer is None
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON form :func:`parse_needs` reads back."""
        out: dict[str, Any] = {}
        if self.red is not None:
            out["red"] = list(self.red)
        if self.cards:
            out["cards"] = {code: list(span) for code, span in self.cards.items()}
        if self.each:
            out["each"] = dict(self.each)
        if self.quads:
            out["quads"] = self.quads
        if self.lung is not None:
            out["lung"] = list(self.lung)
        if self.khan is not None:
            out["khan"] = self.khan
        if self.times != 1:
            out["times"] = self.times
        if self.chan is not None:
            out["chan"] = list(self.chan)
        if self.dealer is not None:
            out["dealer"] = self.dealer
        return out


def needs(
    *,
    red: Span | None = None,
    cards: Mapping[str, Span] | None = None,
    each: Mapping[str, int] | None = None,
    quads: int = 0,
    lung: Span | None = None,
    khan: bool | None = None,
    times: int | None = 1,
    chan: Span | None = None,
    dealer: bool | None = None,
) -> Needs:
    """A :class:`Needs` written with plain dicts (the catalogue's spelling)."""
    return Needs(red, FrozenMap(cards or {}), FrozenMap(each or {}), quads, lung, khan, times, chan, dealer)


# -- reading needs from a rule set (custom cước) --------------------------------------------------

_KEYS = ("red", "cards", "each", "quads", "lung", "khan", "times", "chan", "dealer")
#: Largest count a need may name (a Tài Bàn hand holds 31 cards; weighted lưng stay far below).
_MAX_COUNT = 200


def _fail(key: str, what: Msg, value: Any) -> RuleError:
    return RuleError(
        N_("Luật: '{key}' phải là {what} (nhận được {value})."), key=key, what=what, value=shown(value)
    )


def _count(key: str, value: Any, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= _MAX_COUNT:
        raise _fail(key, Msg(N_("số nguyên từ {lo} đến {hi}"), lo=minimum, hi=_MAX_COUNT), value)
    return value


def _span(key: str, value: Any) -> Span:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise _fail(key, Msg(N_("một khoảng [thấp nhất, cao nhất] (cao nhất có thể là null)")), value)
    low = _count(f"{key}[0]", value[0])
    if value[1] is None:
        return (low, None)
    high = _count(f"{key}[1]", value[1])
    if high < low:
        raise _fail(key, Msg(N_("một khoảng [thấp nhất, cao nhất] (cao nhất có thể là null)")), value)
    return (low, high)


def _code(key: str, value: Any) -> str:
    try:
        return parse_card(value).code
    except CardError as exc:
        raise RuleError(N_("Luật: '{key}': {inner}"), key=key, inner=exc.msg) from None


def _table(key: str, value: Any) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _fail(key, Msg(N_("một bảng (object JSON)")), value)
    return value


def parse_needs(key: str, value: Any) -> Needs:
    """Read the ``needs`` of a custom cước; RuleError (Vietnamese, naming the key) if impossible."""
    data = _table(key, value)
    for name in data:
        if name not in _KEYS:
            raise _fail(f"{key}.{name}", Msg(N_("một trong {names}"), names=[f"'{k}'" for k in _KEYS]), name)
    cards = {
        _code(f"{key}.cards", c): _span(f"{key}.cards.{c}", s)
        for c, s in _table(f"{key}.cards", data.get("cards", {})).items()
    }
    each = {
        _code(f"{key}.each", c): _count(f"{key}.each.{c}", n, 1)
        for c, n in _table(f"{key}.each", data.get("each", {})).items()
    }
    khan = data.get("khan")
    if khan is not None and not isinstance(khan, bool):
        raise _fail(f"{key}.khan", Msg(N_("true, false hoặc null")), khan)
    dealer = data.get("dealer")
    if dealer is not None and not isinstance(dealer, bool):
        raise _fail(f"{key}.dealer", Msg(N_("true, false hoặc null")), dealer)
    times = data.get("times", 1)
    if times is not None:
        times = _count(f"{key}.times", times, 1)
    return needs(
        red=None if data.get("red") is None else _span(f"{key}.red", data["red"]),
        cards=cards,
        each=each,
        quads=_count(f"{key}.quads", data.get("quads", 0)),
        lung=None if data.get("lung") is None else _span(f"{key}.lung", data["lung"]),
        khan=khan,
        times=min(times, MAX_TIMES) if times is not None else None,
        chan=None if data.get("chan") is None else _span(f"{key}.chan", data["chan"]),
        dealer=dealer,
    )


# -- saying what a cước needs ---------------------------------------------------------------------


def _span_text(span: Span, exact: str, at_least: str, between: str, **params: Any) -> Msg:
    low, high = span
    if high == low:
        return Msg(exact, n=low, **params)
    if high is None:
        return Msg(at_least, n=low, **params)
    return Msg(between, lo=low, hi=high, **params)


def _card_name(code: str) -> str:
    return CARD_BY_CODE[code].name


def _in_deck_order(table: Mapping[str, Any]) -> list[tuple[str, Any]]:
    return sorted(table.items(), key=lambda item: CARD_BY_CODE[item[0]].index)


def describe(need: Needs, hand_size: int | None) -> list[Msg | str]:
    """What ``need`` asks of a hand of ``hand_size`` cards, as message parts ("đúng 10 quân đỏ")."""
    parts: list[Msg | str] = []
    red_exact = need.red is not None and need.red[0] == need.red[1]
    pinned = {c: s for c, s in need.cards.items() if s[0] == s[1] and CARD_BY_CODE[c].is_red}
    if (
        red_exact
        and need.red is not None
        and hand_size is not None
        and sum(s[0] for s in pinned.values()) == need.red[0]
    ):
        # "20 quân đen và 1 Ông Cụ": the red cards are all named
        named = [f"{s[0]} {_card_name(c)}" for c, s in _in_deck_order(pinned)]
        if need.red[0] == 0:
            parts.append(Msg(N_("cả {n} quân đen"), n=hand_size))
        else:
            parts.append(Msg(N_("{black} quân đen và {named}"), black=hand_size - need.red[0], named=named))
        others = {c: s for c, s in need.cards.items() if c not in pinned}
    else:
        if need.red is not None:
            parts.append(
                _span_text(
                    need.red,
                    N_("đúng {n} quân đỏ"),
                    N_("ít nhất {n} quân đỏ"),
                    N_("từ {lo} đến {hi} quân đỏ"),
                )
            )
        others = dict(need.cards)
    for code, span in _in_deck_order(others):
        parts.append(
            _span_text(
                span,
                N_("đúng {n} {card}"),
                N_("ít nhất {n} {card}"),
                N_("từ {lo} đến {hi} {card}"),
                card=_card_name(code),
            )
        )
    if need.each:
        names = [_card_name(c) if n == 1 else f"{n} {_card_name(c)}" for c, n in _in_deck_order(need.each)]
        red = sum(n for c, n in need.each.items() if CARD_BY_CODE[c].is_red)
        if red:
            parts.append(Msg(N_("{cards} ({n} quân đỏ)"), cards=names, n=red))
        else:
            parts.append(", ".join(names))
    if need.quads:
        parts.append(Msg(N_("{n} bộ bốn quân giống nhau"), n=need.quads))
    if need.lung is not None:
        low, high = need.lung
        if high is None:
            parts.append(Msg(N_("từ {n} lưng trở lên"), n=low))
        else:
            parts.append(Msg(N_("từ {lo} đến {hi} lưng"), lo=low, hi=high))
    return parts + _facts(need)


def _facts(need: Needs) -> list[Msg | str]:
    """The needs that are not card counts: the khàn, the chắn, who wins."""
    parts: list[Msg | str] = []
    if need.khan is True:
        parts.append(Msg(N_("có khàn trong bài chia")))
    elif need.khan is False:
        parts.append(Msg(N_("không có khàn trong bài chia")))
    if need.chan is not None:
        parts.append(
            _span_text(need.chan, N_("đúng {n} chắn"), N_("ít nhất {n} chắn"), N_("từ {lo} đến {hi} chắn"))
        )
    if need.dealer is True:
        parts.append(Msg(N_("người ù là nhà cái")))
    elif need.dealer is False:
        parts.append(Msg(N_("người ù không phải nhà cái")))
    return parts


__all__ += ["describe", "needs"]
