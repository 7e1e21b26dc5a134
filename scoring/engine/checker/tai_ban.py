"""Kiểm bài for Tài Bàn: 31 cards, tròn, at least 9 weighted lưng, three cước (RULES §11).

Lưng are counted with the weights of seed 000 (Luật Tài Bàn, Điều 4): each lưng triple counts 1,
also when it shares cards with a trùng (*lưng ghép*: Bí Tôm with phỗng 7 Văn and phỗng 3 Vạn is
3 lưng); three identical cards count as a phỗng (1, tài 2) unless the caller names their kind as a
khàn (3, tài 6); four identical count as a thiên khai / dậy khàn (6, tài 12). From the cards
alone a phỗng cannot be told from a khàn, so the count is a floor unless khàn are named.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache

from scoring.engine.cards import CARDS, Card, card_counts
from scoring.engine.checker.common import (
    Arrangement,
    count_problem,
    junk_message,
    order_phu,
    result,
)
from scoring.engine.checker.phu import ONE, Phu, compile_steps, isolated_kinds, pack
from scoring.engine.checker.result import CheckResult, Wait
from scoring.engine.checker.search import MEMO_LIMIT, as_tuples, options
from scoring.engine.checker.verdict import Verdict, cuoc_names
from scoring.engine.games import Game

__all__ = [
    "TaiBanSearch",
    "arrangements_tai_ban",
    "check_tai_ban",
    "tai_ban_cuoc",
    "tai_ban_search",
    "waits_tai_ban",
]

#: Lưng from which a win is Tài Bàn rather than Suông (with a khàn dealt).
TAI_BAN_FROM = 19
_VALUE = {"suong": 1, "tai_ban": 2, "suu_ban": 3}


def tai_ban_cuoc(lung_count: int, dealt_khan: bool | None) -> tuple[str, ...]:
    """The cước of a valid Tài Bàn win; empty when it is unknown whether a khàn was dealt."""
    if dealt_khan is None:
        return ()
    if not dealt_khan:
        return ("suu_ban",)
    return ("tai_ban",) if lung_count >= TAI_BAN_FROM else ("suong",)


class TaiBanSearch:
    """Largest-weighted-lưng search for Tài Bàn (docs/rules.md §11)."""

    def __init__(self, khans: frozenset[int]) -> None:
        self.khans = khans
        self.steps = as_tuples(compile_steps(self.weight))
        self.memo: dict[int, int] = {0: 0}
        self.solve: Callable[[int], int] = self._make_solver()

    def weight(self, phu: Phu) -> int:
        """Weighted lưng of one phu: 1 per lưng triple, trùng by kind (phỗng/khàn, tài or not)."""
        total = 1 if phu.base_lung is not None else 0
        for kind, n in phu.counts:
            if n < 3:
                continue
            tai = CARDS[kind].is_tai
            if n == 4:
                total += 12 if tai else 6
            elif kind in self.khans:
                total += 6 if tai else 3
            else:
                total += 2 if tai else 1
        return total

    def _make_solver(self) -> Callable[[int], int]:
        steps, memo = self.steps, self.memo

        def solve(state: int) -> int:
            found = memo.get(state)
            if found is not None:
                return found
            best = -1
            for delta, weight, _ in options(state, steps):
                sub = solve(state - delta)
                if sub >= 0 and sub + weight > best:
                    best = sub + weight
            memo[state] = best
            return best

        return solve

    def reset(self) -> None:
        """Forget what was learnt."""
        self.memo.clear()
        self.memo[0] = 0

    def best(self, state: int) -> int:
        """The largest weighted lưng count of a complete arrangement (-1: never tròn)."""
        if len(self.memo) > MEMO_LIMIT:
            self.reset()
        return self.solve(state)

    def build(self, state: int, target: int) -> list[int]:
        """Catalogue ids of one complete arrangement of ``state`` worth ``target`` lưng."""
        path: list[int] = []
        while state:
            for delta, weight, pid in options(state, self.steps):
                sub = self.solve(state - delta)
                if sub >= 0 and sub + weight == target:
                    path.append(pid)
                    state, target = state - delta, sub
                    break
            else:  # pragma: no cover
                raise AssertionError("arrangement search lost its target")
        return path

    def walk(self, state: int, need: int) -> Iterator[list[int]]:
        """Every arrangement worth at least ``need`` lưng, maybe repeated."""
        if not state:
            if need <= 0:
                yield []
            return
        for delta, weight, pid in options(state, self.steps):
            sub = self.solve(state - delta)
            if sub < 0 or sub + weight < need:
                continue
            for rest in self.walk(state - delta, need - weight):
                yield [pid, *rest]


@lru_cache(maxsize=32)
def tai_ban_search(khans: frozenset[int]) -> TaiBanSearch:
    """The shared Tài Bàn search for the given khàn kinds."""
    return TaiBanSearch(khans)


def _search(khans: frozenset[int]) -> TaiBanSearch:
    search = tai_ban_search(khans)
    search.reset()
    return search


def check_tai_ban(
    game: Game,
    cards: tuple[Card, ...],
    declared: Sequence[str] | None,
    dealt_khan: bool | None,
    khans: frozenset[int],
) -> CheckResult:
    """Check a Tài Bàn winning hand (and a declaration, when given)."""
    counts = card_counts(cards)
    problem = count_problem(game, cards, counts)
    if problem:
        return result(game, cards, *problem)
    state = pack(counts)
    isolated = isolated_kinds(state)
    search = _search(khans)
    best = -1 if isolated else search.best(state)
    if best < 0:
        return result(game, cards, Verdict.KHONG_TRON, junk_message(isolated))
    phu = order_phu(search.build(state, best))
    shown = {
        "tron": True,
        "lung": tuple(str(s) for p in phu for s in p.lung),
        "arrangement": tuple(tuple(p.codes()) for p in phu),
        "lung_count": best,
    }
    need = game.min_lung or 9
    if best < need:
        message = f"Bài tròn nhưng chỉ có {best} lưng; Tài Bàn cần ít nhất {need} lưng."
        return result(game, cards, Verdict.KHONG_LUNG, message, **shown)
    cuoc = tai_ban_cuoc(best, dealt_khan)
    verdict, message, thua, thieu = _judge(best, cuoc, declared)
    return result(
        game,
        cards,
        verdict,
        message,
        valid=True,
        cuoc=cuoc,
        thua=thua,
        thieu=thieu,
        declared=None if declared is None else tuple(declared),
        **shown,
    )


def _judge(
    best: int, cuoc: tuple[str, ...], declared: Sequence[str] | None
) -> tuple[Verdict, str, tuple[str, ...], tuple[str, ...]]:
    """Compare the declared cước with the one the lưng count and the khàn flag give."""
    if not cuoc:
        note = "cần biết bài chia có khàn hay không để định cước"
        return Verdict.OK, f"Bài ù hợp lệ: {best} lưng ({note}).", (), ()
    if declared is None:
        return Verdict.OK, f"Bài ù hợp lệ: {best} lưng, {cuoc_names(cuoc)}.", (), ()
    said = [s for s in declared if s in _VALUE]
    actual = cuoc[0]
    top = max(said, key=_VALUE.__getitem__, default=None)
    if top is not None and (_VALUE[top] > _VALUE[actual] or len(set(said)) > 1):
        wrong = tuple(s for s in dict.fromkeys(said) if s != actual)
        text = f"Xướng thừa: bài {best} lưng là {cuoc_names(cuoc)}, không phải {cuoc_names(wrong)}."
        return Verdict.XUONG_THUA, text, wrong, ()
    if top != actual:
        return Verdict.XUONG_THIEU, f"Xướng thiếu: bài {best} lưng là {cuoc_names(cuoc)}.", (), cuoc
    return Verdict.OK, f"Bài ù hợp lệ, xướng đúng: {cuoc_names(cuoc)} ({best} lưng).", (), ()


def waits_tai_ban(
    game: Game, counts: list[int], dealt_khan: bool | None, khans: frozenset[int]
) -> tuple[Wait, ...]:
    """Every card kind completing a 30-card Tài Bàn hand into a win, in deck order."""
    search = _search(khans)
    state = pack(counts)
    need = game.min_lung or 9
    out = []
    for kind in range(len(counts)):
        if counts[kind] >= 4:
            continue
        full = state + ONE[kind]
        if isolated_kinds(full):
            continue
        best = search.best(full)
        if best >= need:
            out.append(Wait(CARDS[kind], tai_ban_cuoc(best, dealt_khan), (), lung_count=best))
    return tuple(out)


def arrangements_tai_ban(
    game: Game, counts: list[int], dealt_khan: bool | None, khans: frozenset[int]
) -> Iterator[Arrangement]:
    """Every distinct complete arrangement worth at least the 9 lưng Tài Bàn needs."""
    search = _search(khans)
    seen: set[tuple[int, ...]] = set()
    for ids in search.walk(pack(counts), game.min_lung or 9):
        key = tuple(sorted(ids))
        if key in seen:
            continue
        seen.add(key)
        phu = order_phu(ids)
        weight = sum(search.weight(p) for p in phu)
        yield Arrangement(
            tuple(tuple(p.codes()) for p in phu),
            tuple(str(s) for p in phu for s in p.lung),
            tai_ban_cuoc(weight, dealt_khan),
            weight,
        )
