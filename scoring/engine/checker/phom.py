"""Kiểm bài for Phỏm: each player's phỏm, the points left, and the ván's ranks (seed 003, RULES §13).

A *phỏm* is three or four cards of one rank (phỏm ngang), or three or more cards of one suit in
consecutive ranks (phỏm dọc; A is 1 and lowest: A-2-3 is a run, Q-K-A is not). A card is in at most
one phỏm. The cards left out (rác) count A = 1 … 10, J = 11, Q = 12, K = 13: the search is exact,
it finds the phỏm that leave the fewest points.

The ván's ranks (seed 003, "Tính điểm"): fewest points first; equal points rank in the order the
players laid down (the order given); a player with no phỏm (*móm*) ranks after every other, móm
players among themselves by points then order. A player who is *ù* wins outright and the others
lose equally: ù is "0 điểm hoặc có 3 phỏm" (every card in phỏm, or three phỏm with at most the one
card still to discard), and, when the rule set's ``phom_u_khan`` allows it, *ù khan*: no phỏm and
no cạ (no two cards that one more card would make a phỏm). When several hands are ù, the first in
laying order took the ván.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from scoring.engine import bounds
from scoring.engine.errors import N_, CardError, HandError, shown
from scoring.engine.games import Game
from scoring.engine.western import WesternCard, parse_western_hand

__all__ = ["PhomHand", "PhomResult", "best_phom", "check_phom", "has_ca"]

#: Most cards one player may hold at the end of a ván (9 dealt, 10 for the first player; a few
#: more leave room for cards taken and not yet laid).
MAX_HAND = 13

Meld = tuple[WesternCard, ...]


def _melds(cards: Sequence[WesternCard]) -> list[Meld]:
    """Every phỏm these cards can make (sets of 3 or 4 of a rank, runs of 3+ of a suit)."""
    out: list[Meld] = []
    by_rank: dict[int, list[WesternCard]] = {}
    by_suit: dict[str, list[WesternCard]] = {}
    for card in cards:
        by_rank.setdefault(card.rank, []).append(card)
        by_suit.setdefault(card.suit.value, []).append(card)
    for same in by_rank.values():
        for size in (3, 4):
            out.extend(combinations(sorted(same, key=lambda c: c.index), size))
    for suited in by_suit.values():
        ranks = {c.rank: c for c in suited}
        for low in range(1, 12):
            run: list[WesternCard] = []
            for rank in range(low, 14):
                if rank not in ranks:
                    break
                run.append(ranks[rank])
                if len(run) >= 3:
                    out.append(tuple(run))
    return out


def best_phom(cards: Sequence[WesternCard]) -> tuple[tuple[Meld, ...], int]:
    """The phỏm that leave the fewest points (exact), and those points.

    Among arrangements leaving the same points, the one with more phỏm is shown (it decides ù).
    """
    melds = _melds(cards)
    by_card: dict[int, list[Meld]] = {c.index: [] for c in cards}
    for meld in melds:
        for card in meld:
            by_card[card.index].append(meld)
    order = sorted(cards, key=lambda c: -c.rank)  # high cards first: good arrangements come early
    best: list[Any] = [(sum(c.rank for c in cards) + 1, 0), ()]

    def search(i: int, used: frozenset[int], chosen: tuple[Meld, ...], left: int) -> None:
        if left > best[0][0]:
            return  # already worse than an arrangement found
        while i < len(order) and order[i].index in used:
            i += 1
        if i == len(order):
            key = (left, -len(chosen))
            if key < best[0]:
                best[0], best[1] = key, chosen
            return
        card = order[i]
        for meld in by_card[card.index]:
            if not any(c.index in used for c in meld):
                search(i + 1, used | {c.index for c in meld}, (*chosen, meld), left)
        search(i + 1, used | {card.index}, chosen, left + card.rank)

    search(0, frozenset(), (), 0)
    return tuple(tuple(sorted(m, key=lambda c: c.index)) for m in best[1]), best[0][0]


def _u_three(cards: Sequence[WesternCard]) -> tuple[Meld, ...] | None:
    """Three phỏm (or more) leaving at most one card, when the cards have them (seed 003's ù)."""
    melds = _melds(cards)
    n = len(cards)
    for k in range(3, n // 3 + 1):
        for group in combinations(melds, k):
            used = [c.index for m in group for c in m]
            if len(used) == len(set(used)) and n - len(used) <= 1:
                return tuple(group)
    return None


def has_ca(cards: Sequence[WesternCard]) -> bool:
    """Whether two of the cards are a cạ: one more card would make them a phỏm (same rank, or
    same suit at most two ranks apart)."""
    for a, b in combinations(cards, 2):
        if a.rank == b.rank or (a.suit is b.suit and abs(a.rank - b.rank) <= 2):
            return True
    return False


@dataclass(frozen=True, slots=True)
class PhomHand:
    """One player's hand, read."""

    name: str
    cards: tuple[WesternCard, ...]
    phom: tuple[Meld, ...]
    left: tuple[WesternCard, ...]
    points: int
    #: No phỏm at all: ranks last.
    mom: bool
    #: Every card in phỏm, or three phỏm and the card to discard.
    u: bool
    #: No phỏm and no cạ, where the rule set counts ù khan.
    u_khan: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "hand": [c.code for c in self.cards],
            "phom": [[c.code for c in m] for m in self.phom],
            "left": [c.code for c in self.left],
            "points": self.points,
            "mom": self.mom,
            "u": self.u or self.u_khan,
            "u_khan": self.u_khan,
        }


@dataclass(frozen=True, slots=True)
class PhomResult:
    """The answer of :func:`check_phom`: each hand, the ranks or the ù winner, and a message."""

    hands: tuple[PhomHand, ...]
    #: Names first to last when nobody is ù (the ``ranks`` a Phỏm ván records), else empty.
    ranks: tuple[str, ...]
    #: The player who is ù (the ``winner`` a Phỏm ván records), else None.
    winner: str | None
    message: str

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of the ``check`` contract for Phỏm."""
        return {
            "players": [h.to_dict() for h in self.hands],
            "ranks": list(self.ranks),
            "winner": self.winner,
            "message": self.message,
        }


def _hand(name: str, cards: tuple[WesternCard, ...], u_khan_counts: bool) -> PhomHand:
    phom, points = best_phom(cards)
    u = points == 0 and bool(cards)
    if not u:
        three = _u_three(cards)
        if three is not None:
            phom = tuple(tuple(sorted(m, key=lambda c: c.index)) for m in three)
            u = True
    used = {c.index for m in phom for c in m}
    left = tuple(sorted((c for c in cards if c.index not in used), key=lambda c: c.index))
    mom = not phom
    u_khan = u_khan_counts and mom and not has_ca(cards)
    return PhomHand(name, cards, phom, left, sum(c.rank for c in left), mom, u, u_khan)


def _players(game: Game, players: Any) -> list[tuple[str, Any]]:
    if not isinstance(players, list) or not game.players_min <= len(players) <= game.players_max:
        raise HandError(
            N_("'players' phải là danh sách từ {lo} đến {hi} người chơi, theo thứ tự hạ bài."),
            lo=game.players_min,
            hi=game.players_max,
        )
    out: list[tuple[str, Any]] = []
    for position, item in enumerate(players, start=1):
        if not isinstance(item, Mapping) or "hand" not in item or set(item) - {"name", "hand"}:
            raise HandError(
                N_('Người chơi thứ {position} phải là {{"name": …, "hand": "kc 10t ab …"}}.'),
                position=position,
            )
        name = item.get("name")
        if name is None or (isinstance(name, str) and not name.strip()):
            name = f"{position}"
        if not isinstance(name, str) or len(name.strip()) > bounds.PLAYER_NAME:
            raise HandError(
                N_("Tên người chơi thứ {position} phải là chuỗi tối đa {most} ký tự (nhận được {value})."),
                position=position,
                most=bounds.PLAYER_NAME,
                value=shown(name, 40),
            )
        hand = item["hand"]
        if not isinstance(hand, str | list) or len(hand) > bounds.HAND_TEXT:
            raise HandError(
                N_("Bài của người chơi thứ {position} phải là chuỗi mã quân hoặc danh sách (tối đa {most})."),
                position=position,
                most=bounds.HAND_TEXT,
            )
        out.append((name.strip(), hand))
    names = [n for n, _ in out]
    twice = next((n for n in names if names.count(n) > 1), None)
    if twice is not None:
        raise HandError(N_("Hai người chơi cùng tên {name}."), name=twice)
    return out


def check_phom(game: Game, players: Any, *, u_khan: bool = True) -> PhomResult:
    """Read every player's cards (in laying-down order), find their phỏm and rank the ván.

    ``players``: a list of ``{"name": str, "hand": str | list}``. Each card of the 52-card deck is
    in one hand at most. ``u_khan``: whether a hand with no phỏm and no cạ is ù (rule set
    ``phom_u_khan``).
    """
    read: list[PhomHand] = []
    owner: dict[str, str] = {}
    for name, hand in _players(game, players):
        try:
            cards = parse_western_hand(hand)
        except CardError as exc:
            raise exc.within(N_("Bài của {name}: {inner}"), name=name) from exc
        if not cards:
            raise HandError(N_("Bài của {name} chưa có quân nào."), name=name)
        if len(cards) > MAX_HAND:
            raise HandError(
                N_("Bài của {name} có {n} quân: Phỏm cầm nhiều nhất {most} quân."),
                name=name,
                n=len(cards),
                most=MAX_HAND,
            )
        for card in cards:
            if card.code in owner:
                raise HandError(
                    N_("Quân {card} có ở cả bài {a} và bài {b}: bộ bài tây mỗi quân chỉ có một."),
                    card=card.name,
                    a=owner[card.code],
                    b=name,
                )
            owner[card.code] = name
        read.append(_hand(name, tuple(sorted(cards, key=lambda c: c.index)), u_khan))
    return _rank(read)


def _rank(hands: Iterable[PhomHand]) -> PhomResult:
    hands = tuple(hands)
    winner = next((h for h in hands if h.u or h.u_khan), None)
    if winner is not None:
        how = "ù khan" if winner.u_khan else "ù"
        message = f"{winner.name} {how}: thắng cả ván, những người còn lại thua như nhau."
        return PhomResult(hands, (), winner.name, message)
    order = {h.name: i for i, h in enumerate(hands)}
    ranked = sorted(hands, key=lambda h: (h.mom, h.points, order[h.name]))
    parts = [f"{i}. {h.name} ({'móm' if h.mom else f'{h.points} điểm'})" for i, h in enumerate(ranked, 1)]
    return PhomResult(hands, tuple(h.name for h in ranked), None, "Thứ hạng: " + ", ".join(parts) + ".")
