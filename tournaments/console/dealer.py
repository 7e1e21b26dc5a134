"""Choosing the dealer (bắt cái) and resolving ù đè (docs/rules.md §3). Pure Python, no Django.

Seats are numbered 1…n **counter-clockwise** (the order of play, as in ``scoring.Seat``):
seat ``s + 1`` is the right-hand neighbour (nhà dưới) of seat ``s``. The parts (phần bài) left
on the mat after the nọc is lifted are numbered 1…n counter-clockwise from the gap (khe) the nọc
left. Who turns the card(s) is the *chooser* (người bắt cái / cho cái).

The three methods of the seeds:

1. :attr:`BatCaiMethod.MOT_QUAN` (seed 000, TT5): one card is turned from the nọc; its rank is
   counted counter-clockwise from the nọc's gap (the nọc is lifted at the chooser's place); the
   count stops at the cái part and, at the opening of a hội, at the dealer. Red yêu count 10,
   so with five players every seat is equally likely.
2. :attr:`BatCaiMethod.HAI_QUAN` (seed 001): two cards are turned; their sum is taken modulo the
   number of players. 3 and 4 count forward (the 3rd / 4th part, the 3rd / 4th player to the
   chooser's right); 1 and 2 stay with the first part (*nhất nhị tại vị*) and the chooser's right
   neighbour; a multiple of the player count goes backwards (*lùi*): the part and the player on
   the chooser's left.
3. :attr:`BatCaiMethod.CHAN` (seed 004, Chắn): counting **clockwise** with the chooser as 1; the
   cái part is the one the card was turned onto. With four players: *nhị (lục) tiến, tứ (bát)
   tụt, tam (thất) đối*: 2/6 → next, 4/8 → back, 3/7 → opposite.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from scoring.engine import N_, Card, EngineError, Msg, parse_card

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "BatCaiMethod",
    "DealerChoice",
    "DealerError",
    "UDeResult",
    "card_count",
    "choose_dealer",
    "u_de",
    "u_de_order",
]

MIN_PLAYERS = 3
MAX_PLAYERS = 5
#: What a red yêu (Chi Chi, Thang Thang, Ông Cụ) counts when choosing the dealer.
RED_YEU_COUNT = 10


class DealerError(EngineError):
    """A helper was asked something impossible (bad seat, card, player count); Vietnamese message."""

    code = "dealer_refused"


class BatCaiMethod(StrEnum):
    """The three ways of choosing the dealer in the seeds (docs/rules.md §3)."""

    MOT_QUAN = "mot_quan"  #: seed 000: one card, count counter-clockwise, red yêu = 10
    HAI_QUAN = "hai_quan"  #: seed 001: two cards, sum modulo the players, nhất nhị tại vị
    CHAN = "chan"  #: seed 004: count clockwise with the chooser as 1 (tiến, tụt, đối)

    @property
    def label(self) -> str:
        return {
            BatCaiMethod.MOT_QUAN: "Một quân, đếm ngược chiều kim đồng hồ (yêu đỏ là 10)",
            BatCaiMethod.HAI_QUAN: "Hai quân, lấy tổng (nhất nhị tại vị, bội số thì lùi)",
            BatCaiMethod.CHAN: "Kiểu Chắn: đếm xuôi chiều kim đồng hồ (nhị tiến, tứ tụt, tam đối)",
        }[self]

    @property
    def cards_needed(self) -> int:
        return 2 if self is BatCaiMethod.HAI_QUAN else 1


@dataclass(frozen=True, slots=True)
class DealerChoice:
    """Who gets cái and which part, with the reasoning in Vietnamese."""

    method: BatCaiMethod
    #: The number counted (the card's rank, or the sum of the two cards).
    count: int
    #: The seat that gets cái (1…n, counter-clockwise).
    seat: int
    #: The cái part, counted counter-clockwise from the nọc's gap (1…n); None for the Chắn
    #: method, where the cái part is the one the card was turned face up onto.
    part: int | None
    #: Where the dealer sits from the chooser: "tiến", "tụt", "đối", "tại vị", "lùi", …
    relation: str
    #: One Vietnamese sentence a Trung Quân can read out.
    explanation: str


def _check_players(n_players: int) -> None:
    if (
        isinstance(n_players, bool)
        or not isinstance(n_players, int)
        or not MIN_PLAYERS <= n_players <= MAX_PLAYERS
    ):
        raise DealerError(
            N_("Số người chơi phải từ {least} đến {most} (nhận được {n_players})."),
            least=MIN_PLAYERS,
            most=MAX_PLAYERS,
            n_players=repr(n_players),
        )


def _check_seat(seat: int, n_players: int, what: Msg) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= n_players:
        raise DealerError(
            N_("{what} phải là chỗ ngồi từ 1 đến {n_players} (nhận được {seat})."),
            what=what,
            n_players=n_players,
            seat=repr(seat),
        )


def _seat_at(start: int, steps: int, n_players: int) -> int:
    """The seat ``steps`` places counter-clockwise from ``start`` (negative: clockwise)."""
    return (start - 1 + steps) % n_players + 1


def card_count(card: str | Card | int) -> int:
    """The number a card counts when choosing the dealer: its rank, 10 for a red yêu.

    An int 1–10 is taken as an already-read count (a card shown by number on a tablet).
    """
    if isinstance(card, int) and not isinstance(card, bool):
        if not 1 <= card <= RED_YEU_COUNT:
            raise DealerError(
                N_("Số đếm của quân bắt cái phải từ 1 đến {most} (nhận được {card})."),
                most=RED_YEU_COUNT,
                card=card,
            )
        return card
    if isinstance(card, bool):
        raise DealerError(N_("Không nhận ra quân bắt cái {card}."), card=repr(card))
    found = parse_card(card)  # raises CardError (Vietnamese) for an unknown card
    return found.rank if found.rank is not None else RED_YEU_COUNT


def _relation_mot_quan(steps: int, n_players: int) -> str:
    offset = steps % n_players
    if offset == 0:
        return "chính người bắt cái"
    if offset == n_players - 1:
        return "người bên trái người bắt cái"
    return "người bên phải người bắt cái" if offset == 1 else f"người thứ {offset} bên phải người bắt cái"


def _mot_quan(count: int, n_players: int, chooser: int) -> DealerChoice:
    part = (count - 1) % n_players + 1
    seat = _seat_at(chooser, count, n_players)
    relation = _relation_mot_quan(count, n_players)
    return DealerChoice(
        BatCaiMethod.MOT_QUAN,
        count,
        seat,
        part,
        relation,
        f"Quân bắt cái đếm {count}: đếm ngược chiều kim đồng hồ từ chỗ nhấc nọc, dừng ở phần thứ {part}; "
        f"cái về chỗ {seat} ({relation}).",
    )


def _hai_quan(total: int, n_players: int, chooser: int) -> DealerChoice:
    rest = total % n_players
    if rest == 0:
        seat, part, relation = _seat_at(chooser, -1, n_players), n_players, "lùi"
        why = f"tổng {total} là bội số của {n_players} nên lùi: phần và người bên trái người cho cái"
    elif rest in (1, 2):
        seat, part, relation = _seat_at(chooser, 1, n_players), 1, "tại vị"
        why = f"tổng {total} còn {rest} (nhất nhị tại vị): phần đầu tiên và người bên phải người cho cái"
    else:
        seat, part, relation = _seat_at(chooser, rest, n_players), rest, "tiến"
        why = (
            f"tổng {total} còn {rest} (cái tiến): phần thứ {rest} và người thứ {rest} bên phải người cho cái"
        )
    return DealerChoice(BatCaiMethod.HAI_QUAN, total, seat, part, relation, f"{why}; cái về chỗ {seat}.")


_CHAN_RELATIONS_4 = {0: "tại vị", 1: "tiến", 2: "đối", 3: "tụt"}


def _chan(count: int, n_players: int, chooser: int) -> DealerChoice:
    offset = (count - 1) % n_players
    seat = _seat_at(chooser, -offset, n_players)
    if n_players == 4:
        relation = _CHAN_RELATIONS_4[offset]
    elif offset == 0:
        relation = "tại vị"
    else:
        relation = "tiến" if offset == 1 else "tụt" if offset == n_players - 1 else f"thứ {offset + 1}"
    return DealerChoice(
        BatCaiMethod.CHAN,
        count,
        seat,
        None,
        relation,
        f"Quân cái đếm {count}: đếm xuôi chiều kim đồng hồ, người bắt cái là 1, dừng ở chỗ {seat} ({relation}); "
        "người ấy lấy phần có quân cái lật ngửa.",
    )


def choose_dealer(
    method: BatCaiMethod | str,
    cards: Sequence[str | Card | int],
    *,
    n_players: int = 5,
    chooser: int = 1,
) -> DealerChoice:
    """Who gets cái and which part, by ``method``, for the ``cards`` turned (codes, names or counts).

    ``chooser`` is the seat of whoever turns the card(s). Raises :class:`DealerError` (or the
    engine's ``CardError``) with a Vietnamese message on bad input.
    """
    try:
        the_method = BatCaiMethod(method)
    except ValueError:
        valid = ", ".join(m.value for m in BatCaiMethod)
        raise DealerError(
            N_("Không có cách bắt cái '{method}'. Các cách: {valid}."), method=method, valid=valid
        ) from None
    _check_players(n_players)
    _check_seat(chooser, n_players, Msg(N_("Người bắt cái")))
    if isinstance(cards, str | Card | int):
        cards = [cards]
    if len(cards) != the_method.cards_needed:
        raise DealerError(
            N_("Cách bắt cái này cần {cards_needed} quân (nhận được {count})."),
            cards_needed=the_method.cards_needed,
            count=len(cards),
        )
    counts = [card_count(c) for c in cards]
    if the_method is BatCaiMethod.MOT_QUAN:
        return _mot_quan(counts[0], n_players, chooser)
    if the_method is BatCaiMethod.HAI_QUAN:
        return _hai_quan(sum(counts), n_players, chooser)
    return _chan(counts[0], n_players, chooser)


# -- ù đè ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class UDeResult:
    """Who wins a card two or more players can ù on, and who is overridden (bị đè ù)."""

    winner: int
    #: The other claimants, nearest first: each may owe a *gà bị đè ù* (docs/rules.md §9).
    overridden: tuple[int, ...]
    #: Every seat that may claim the card, in priority order.
    order: tuple[int, ...]
    explanation: str


def u_de_order(*, door: int, n_players: int = 5, from_noc: bool = False) -> tuple[int, ...]:
    """Priority for a card lying at ``door`` (the cửa trì of that seat, the gap on its right).

    Nearer counter-clockwise wins: the right neighbour first, then the next… A card the door's
    owner drew from the nọc is first his own; a card he discarded is never his.
    """
    _check_players(n_players)
    _check_seat(door, n_players, Msg(N_("Cửa")))
    after = tuple(_seat_at(door, k, n_players) for k in range(1, n_players))
    return (door, *after) if from_noc else after


def u_de(*, door: int, claimants: Iterable[int], n_players: int = 5, from_noc: bool = False) -> UDeResult:
    """Resolve ù đè: which of ``claimants`` wins the card at ``door`` (docs/rules.md §3)."""
    order = u_de_order(door=door, n_players=n_players, from_noc=from_noc)
    wanted = list(dict.fromkeys(claimants))
    if not wanted:
        raise DealerError(N_("Hãy chọn ít nhất một người báo ù."))
    for seat in wanted:
        _check_seat(seat, n_players, Msg(N_("Người báo ù")))
        if seat not in order:
            raise DealerError(
                N_("Chỗ {seat} vừa đánh quân này ra ở cửa mình: không thể ù quân mình đánh."), seat=seat
            )
    ranked = tuple(s for s in order if s in wanted)
    winner = ranked[0]
    if from_noc and winner == door:
        why = f"Quân bốc nọc ở cửa chỗ {door} thuộc trước hết về người bốc: chỗ {door} được ù."
    else:
        why = f"Chỗ {winner} gần quân bài ở cửa chỗ {door} nhất theo chiều ngược kim đồng hồ: chỗ {winner} được ù."
    if len(ranked) > 1:
        why += " Bị đè ù: " + ", ".join(f"chỗ {s}" for s in ranked[1:]) + "."
    return UDeResult(winner, ranked[1:], order, why)
