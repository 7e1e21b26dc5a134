"""Pieces shared by the game checkers: reading hands, count checks, shaping results."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.engine.cards import CARDS, Card, card_counts, parse_hand
from scoring.engine.checker.phu import PHU_CATALOGUE, Phu
from scoring.engine.checker.result import CheckResult
from scoring.engine.checker.verdict import Verdict, XuongDiff, cuoc_names
from scoring.engine.errors import N_, HandError
from scoring.engine.games import DeckKind, Game

__all__ = [
    "Arrangement",
    "HandInput",
    "count_problem",
    "diff_message",
    "order_phu",
    "read_hand",
    "result",
]

#: A hand as callers give it: a string, or a list of codes, names or cards.
HandInput = str | Iterable[str | Card]


@dataclass(frozen=True, slots=True)
class Arrangement:
    """One complete arrangement of a hand: phu (Chắn: pairs), lưng, and the cước it carries."""

    phu: tuple[tuple[str, ...], ...]
    lung: tuple[str, ...]
    cuoc: tuple[str, ...]
    #: Tài Bàn: weighted lưng count; Chắn: number of chắn; Tổ Tôm: number of lưng.
    count: int


_CARD_ONLY = frozenset({Card})


def read_hand(game: Game, hand: HandInput) -> tuple[Card, ...]:
    """Read a hand for ``game`` (Chắn refuses cards missing from its deck)."""
    if type(hand) is tuple and game.deck is DeckKind.TO_TOM and set(map(type, hand)) <= _CARD_ONLY:
        return hand  # already read (the fast path of the benchmark)
    return parse_hand(hand, game.deck.value)


def count_problem(game: Game, cards: Sequence[Card], counts: Sequence[int]) -> tuple[Verdict, str] | None:
    """Verdict and message of a hand no deal could give: the wrong number of cards ("sai số quân",
    naming a kind held more than 4 times too), or the right number with more than 4 copies of a
    kind ("có 5 quân Thất Văn", its own verdict: the count is right)."""
    extra = next((card for card in CARDS if counts[card.index] > 4), None)
    copies = "" if extra is None else f"có {counts[extra.index]} quân {extra.name}, mỗi loại chỉ có 4 quân"
    if game.hand_size is not None and len(cards) != game.hand_size:
        also = f"; lại {copies}" if copies else ""
        return (
            Verdict.SAI_SO_QUAN,
            f"Sai số quân: bài ù {game.name_vi} phải có {game.hand_size} quân, bài này có {len(cards)} quân{also}.",
        )
    if copies:
        return Verdict.QUA_BON_QUAN, f"Bài không thể có: đủ {len(cards)} quân nhưng {copies}."
    return None


def waiting_counts(game: Game, cards: Sequence[Card]) -> list[int]:
    """Counts of a waiting hand (one card short of a win); HandError when it is not one."""
    counts = card_counts(cards)
    size = game.hand_size
    if size is not None and len(cards) != size - 1:
        raise HandError(
            N_("Bài chờ {game} phải có {size} quân (thiếu đúng một quân để ù), bài này có {n} quân."),
            game=game.name_vi,
            size=size - 1,
            n=len(cards),
        )
    for card in CARDS:
        if counts[card.index] > 4:
            raise HandError(
                N_("Bài chờ có {n} quân {card}, mỗi loại chỉ có 4 quân."),
                n=counts[card.index],
                card=card.name,
            )
    return counts


def order_phu(ids: Iterable[int]) -> list[Phu]:
    """Phu of an arrangement for display: the ones carrying lưng first, then search order."""
    phu = [PHU_CATALOGUE[i] for i in ids]
    return [p for p in phu if p.lung] + [p for p in phu if not p.lung]


def diff_message(diff: XuongDiff, declared: Sequence[str]) -> tuple[Verdict, str]:
    """Verdict and message of a declaration checked against the cards."""
    if diff.thua:
        extra = f" Bài còn có {cuoc_names(diff.thieu)} chưa xướng." if diff.thieu else ""
        return Verdict.XUONG_THUA, f"Xướng thừa: bài không có {cuoc_names(diff.thua)}.{extra}"
    if diff.thieu:
        return Verdict.XUONG_THIEU, f"Xướng thiếu: bài còn có {cuoc_names(diff.thieu)}."
    shown = cuoc_names(declared) if declared else "Suông"
    return Verdict.OK, f"Bài ù hợp lệ, xướng đúng: {shown}."


def result(game: Game, cards: tuple[Card, ...], verdict: Verdict, message: str, **fields: Any) -> CheckResult:
    """A CheckResult with the defaults of a hand that is not a win."""
    return CheckResult(
        game.slug,
        cards,
        fields.pop("tron", False),
        fields.pop("valid", False),
        fields.pop("lung", ()),
        fields.pop("cuoc", ()),
        verdict,
        fields.pop("arrangement", ()),
        message,
        **fields,
    )


def junk_message(kinds: Sequence[int]) -> str:
    """The "không tròn" message, naming the cards that fit no phu when there are some."""
    text = "Không tròn bài: không xếp được hết các quân vào phu, còn quân rác."
    if kinds:
        text += f" Quân không vào được phu nào: {', '.join(CARDS[k].name for k in kinds)}."
    return text


__all__ += ["junk_message", "waiting_counts"]
