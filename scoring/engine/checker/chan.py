"""Kiểm bài for Chắn: 20 cards in 10 pairs with at least 6 chắn, and its card cước (RULES §12).

A *chắn* is two identical cards, a *cạ* two cards of one rank in different suits; Chi Chi only
pairs with Chi Chi. Pairs never cross ranks, so each rank is paired on its own: choosing how many
chắn each kind gives fixes the cạ of the rest (``x`` Văn-Vạn, ``y`` Văn-Sách, ``z`` Vạn-Sách
solve ``x+y = v, x+z = m, y+z = s``).

Card-derived cước (seeds 002, 004): Bạch Định (no red card), Tám Đỏ (exactly 8 red), Kính Tứ Chi
(the 4 Chi Chi and no other red), Thập Thành (10 chắn), Lèo (Chi Chi + Cửu Vạn + Bát Sách, each
set counts) and Tôm (Thất Văn + Tam Vạn + Tam Sách, each set counts).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import product

from scoring.engine.cards import CARD_BY_CODE, CARDS, CHAN_CARDS, Card, card_counts
from scoring.engine.checker.common import Arrangement, count_problem, diff_message, result
from scoring.engine.checker.result import CheckResult, Wait
from scoring.engine.checker.verdict import Verdict, cuoc_names, diff_declared
from scoring.engine.games import MIN_CHAN, Game

__all__ = ["arrangements_chan", "chan_cuoc", "check_chan", "waits_chan"]

JUDGED = frozenset({"bach_dinh", "tam_do", "kinh_tu_chi", "thap_thanh", "leo", "tom"})
WAIT_CUOC = frozenset({"bach_thu", "bach_thu_chi"})
_CC = CARD_BY_CODE["cc"].index
_RED = tuple(c.index for c in CHAN_CARDS if c.is_red)
_LEO = tuple(CARD_BY_CODE[c].index for c in ("cc", "9m", "8s"))
_TOM = tuple(CARD_BY_CODE[c].index for c in ("7v", "3m", "3s"))

#: One way to pair a rank: (number of chắn, pairs as kind-index tuples).
Pairing = tuple[int, tuple[tuple[int, int], ...]]


def _rank_pairings(kinds: tuple[int, int, int], counts: Sequence[int]) -> list[Pairing]:
    """Every way to pair the cards of one rank (empty list: impossible)."""
    have = [counts[k] for k in kinds]
    out = []
    for chan in product(*(range(n // 2 + 1) for n in have)):
        rest = [n - 2 * c for n, c in zip(have, chan, strict=True)]
        total = sum(rest)
        if total % 2 or max(rest) * 2 > total:
            continue
        vm, vs, ms = (
            (rest[0] + rest[1] - rest[2]) // 2,
            (rest[0] + rest[2] - rest[1]) // 2,
            (rest[1] + rest[2] - rest[0]) // 2,
        )
        pairs = [(k, k) for k, c in zip(kinds, chan, strict=True) for _ in range(c)]
        pairs += [(kinds[0], kinds[1])] * vm + [(kinds[0], kinds[2])] * vs + [(kinds[1], kinds[2])] * ms
        out.append((sum(chan), tuple(pairs)))
    return sorted(out, key=lambda p: -p[0])


def _pairings(counts: Sequence[int]) -> list[list[Pairing]] | None:
    """Per rank (and Chi Chi), the ways to pair; None when some rank cannot be paired."""
    groups: list[list[Pairing]] = []
    for rank in range(2, 10):
        kinds = (rank - 1, rank + 8, rank + 17)
        if not any(counts[k] for k in kinds):
            continue
        ways = _rank_pairings(kinds, counts)
        if not ways:
            return None
        groups.append(ways)
    if counts[_CC] % 2:
        return None
    if counts[_CC]:
        groups.append([(counts[_CC] // 2, ((_CC, _CC),) * (counts[_CC] // 2))])
    return groups


def max_chan(counts: Sequence[int]) -> int:
    """Most chắn of a pairing of every card (-1: the cards cannot all be paired)."""
    groups = _pairings(counts)
    return -1 if groups is None else sum(ways[0][0] for ways in groups)


def chan_cuoc(counts: Sequence[int], n_chan: int) -> tuple[str, ...]:
    """Card-derived cước of a winning Chắn hand ("xuong" if none)."""
    red = sum(counts[i] for i in _RED)
    out = []
    if n_chan == 10:
        out.append("thap_thanh")
    if counts[_CC] == 4 and red == 4:
        out.append("kinh_tu_chi")
    if red == 8:
        out.append("tam_do")
    if red == 0:
        out.append("bach_dinh")
    out += ["leo"] * min(counts[k] for k in _LEO)
    out += ["tom"] * min(counts[k] for k in _TOM)
    return tuple(out) or ("xuong",)


def _codes(pairs: Sequence[tuple[int, int]]) -> tuple[tuple[str, ...], ...]:
    ordered = sorted(pairs, key=lambda p: (p[0] != p[1], p))
    return tuple((CARDS[a].code, CARDS[b].code) for a, b in ordered)


def check_chan(
    game: Game, cards: tuple[Card, ...], declared: Sequence[str] | None, win_card: Card | None
) -> CheckResult:
    """Check a Chắn winning hand (and a declaration, when given)."""
    counts = card_counts(cards)
    problem = count_problem(game, cards, counts)
    if problem:
        return result(game, cards, *problem)
    groups = _pairings(counts)
    if groups is None:
        message = "Không tròn bài: không chia được hết thành chắn và cạ, còn quân lẻ."
        return result(game, cards, Verdict.KHONG_TRON, message)
    n_chan = sum(ways[0][0] for ways in groups)
    pairs = _codes([pair for ways in groups for pair in ways[0][1]])
    if n_chan < MIN_CHAN:
        message = f"Bài đủ 10 cặp nhưng chỉ có {n_chan} chắn; Chắn cần ít nhất {MIN_CHAN} chắn."
        return result(
            game, cards, Verdict.KHONG_LUNG, message, tron=True, arrangement=pairs, chan_count=n_chan
        )
    cuoc = chan_cuoc(counts, n_chan)
    if declared is None:
        verdict, message = Verdict.OK, f"Bài ù hợp lệ: {n_chan} chắn, {cuoc_names(cuoc)}."
        thua: tuple[str, ...] = ()
        thieu: tuple[str, ...] = ()
    else:
        judged, shown = JUDGED, cuoc
        if win_card is not None:
            judged |= WAIT_CUOC
            shown += _allowed_for(game, cards, win_card)
        diff = diff_declared(declared, shown, judged, count_repeats=frozenset({"leo", "tom"}))
        verdict, message = diff_message(diff, declared)
        thua, thieu = diff.thua, diff.thieu
    return result(
        game,
        cards,
        verdict,
        message,
        tron=True,
        valid=True,
        cuoc=cuoc,
        arrangement=pairs,
        chan_count=n_chan,
        thua=thua,
        thieu=thieu,
        declared=None if declared is None else tuple(declared),
    )


def _allowed_for(game: Game, cards: tuple[Card, ...], win_card: Card) -> tuple[str, ...]:
    waiting = list(cards)
    waiting.remove(win_card)
    wait = next((w for w in waits_chan(game, card_counts(waiting)) if w.card == win_card), None)
    return wait.allows if wait else ()


def waits_chan(game: Game, counts: list[int]) -> tuple[Wait, ...]:
    """Every card completing 19 Chắn cards into a win, in deck order (RULES §12, seed 002).

    Chi Chi wins only as Bạch Thủ Chi (exactly 6 chắn with it); Bạch Thủ needs a single winning
    kind whose chắn makes exactly the sixth.
    """
    complete: dict[int, int] = {}
    for card in CHAN_CARDS:
        if counts[card.index] >= 4:
            continue
        full = list(counts)
        full[card.index] += 1
        n_chan = max_chan(full)
        if n_chan >= MIN_CHAN and (card.index != _CC or n_chan == MIN_CHAN):
            complete[card.index] = n_chan
    out = []
    for kind, n_chan in complete.items():
        full = list(counts)
        full[kind] += 1
        allows: tuple[str, ...] = ()
        if kind == _CC:
            allows = ("bach_thu_chi",)
        elif len(complete) == 1 and n_chan == MIN_CHAN:
            allows = ("bach_thu",)
        out.append(Wait(CARDS[kind], chan_cuoc(full, n_chan), allows))
    return tuple(out)


def arrangements_chan(counts: list[int]) -> Iterator[Arrangement]:
    """Every distinct pairing into 10 pairs with at least 6 chắn, most chắn first."""
    groups = _pairings(counts)
    if groups is None:
        return
    found = []
    for choice in product(*groups):
        n_chan = sum(c[0] for c in choice)
        if n_chan >= MIN_CHAN:
            found.append((n_chan, [pair for c in choice for pair in c[1]]))
    for n_chan, pairs in sorted(found, key=lambda f: -f[0]):
        yield Arrangement(_codes(pairs), (), chan_cuoc(counts, n_chan), n_chan)
