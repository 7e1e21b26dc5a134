"""Exact arrangement search over packed counts, memoised on the cards left (docs/rules.md §4).

The search always covers the lowest card left with every phu that can hold it, so every
arrangement of the hand is reachable and a hand is found complete exactly when it is.
:class:`ToTomSearch` (Tổ Tôm Bí Ngũ, Bí Tứ, Điếm) answers two questions:

* :meth:`ToTomSearch.mask`: every reachable *signature* (lưng count capped at the game's minimum,
  cước index: Tôm phu, Lèo phu, Ông Cụ trùng tứ; see :mod:`.signature`) as a bit mask, memoised;
* :meth:`ToTomSearch.find`: the first arrangement reaching a target, remembering only failures,
  much faster when the target is reachable (the common case of a real win).

Tài Bàn's weighted search lives in :mod:`.tai_ban`; it shares :func:`options`.

The searches are shared (one per minimum lưng) and their caches only ever hold facts about a set
of cards (its mask, or "this target is unreachable"), so clearing them between hands, or from
another thread, costs time but never changes an answer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache

from scoring.engine.checker.phu import (
    GUARD,
    KIND_AT,
    NON_YEU,
    PHU_CATALOGUE,
    Option,
    Phu,
    PhuShape,
    Steps,
    compile_steps,
    families_holding,
    find_phu,
)
from scoring.engine.checker.signature import LEVEL_BITS, LEVEL_MASK, need_after, tt_sig

__all__ = ["MEMO_LIMIT", "ToTomSearch", "as_tuples", "options", "tt_search"]

#: Entries kept in one search's memo before it is emptied (bounds memory across many hands).
MEMO_LIMIT = 200_000

StepTuple = tuple[
    int,
    int,
    tuple[tuple[Option, ...], ...],
    tuple[tuple[Option, ...], ...],
    tuple[tuple[int, int, int, tuple[tuple[Option, ...], ...]], ...],
]


def _yeu_tail_phu() -> tuple[tuple[int, int, int, int], ...]:
    """Per yêu field: (field shift, single id, trùng tam id, trùng tứ id)."""
    out = []
    for field in range(24, 30):
        kind = KIND_AT[field]
        single, tam, tu = (
            PHU_CATALOGUE.index(find_phu(shape, {kind: n}))
            for shape, n in ((PhuShape.YEU, 1), (PhuShape.TRUNG, 3), (PhuShape.TRUNG, 4))
        )
        out.append((4 * field, single, tam, tu))
    return tuple(out)


_YEU_TAIL_PHU = _yeu_tail_phu()
_OC_SHIFT = 4 * 29
_TAILS: dict[int, tuple[int, bool, list[int]]] = {}


def _yeu_tail(state: int, need: int) -> list[int] | None:
    """:meth:`ToTomSearch.find` on yêu alone: each kind of 3+ is a trùng (lưng), the rest singles.

    No arrangement of yêu does better (a bí of Nhất carries no more lưng than its trùng), and
    none can hold a Tôm or a Lèo. Cached: there are at most 5⁶ such states.
    """
    found = _TAILS.get(state)
    if found is None:
        lung, ids = 0, []
        for shift, single, tam, tu in _YEU_TAIL_PHU:
            n = (state >> shift) & 15
            if n >= 3:
                lung += 1
                ids.append(tu if n == 4 else tam)
            else:
                ids += [single] * n
        found = _TAILS[state] = (lung, (state >> _OC_SHIFT) & 15 == 4, ids)
    lung, ktc, ids = found
    if (need & 3) > lung or need & 0b111100 or (need & 64 and not ktc):
        return None
    return list(reversed(ids))


def as_tuples(steps: tuple[Steps, ...]) -> tuple[StepTuple, ...]:
    return tuple((s.shift, s.mask, s.local, s.chains, s.far) for s in steps)


_AFTER: dict[int, int] = {}


def _left(need: int, psig: int) -> int:
    """What is left of ``need`` once a phu of signature ``psig`` is laid (cached)."""
    left = _AFTER.get((need << 12) | psig)
    if left is None:
        left = _AFTER[(need << 12) | psig] = need_after(need, psig)
    return left


def _affordable_runs(state: int, chains: tuple[tuple[Option, ...], ...]) -> list[Option]:
    """The runs of the chains the hand can afford (each chain stops at its first gap)."""
    guarded = state | GUARD
    found = []
    for chain in chains:
        for opt in chain:
            if (guarded - opt[0]) & GUARD != GUARD:
                break
            found.append(opt)
    return found


def options(state: int, steps: tuple[StepTuple, ...]) -> list[Option]:
    """Every phu holding the lowest card of ``state`` that the hand can afford."""
    shift, mask, local, chains, far = steps[((state & -state).bit_length() - 1) >> 2]
    found = [*local[(state >> shift) & mask], *_affordable_runs(state, chains)]
    for s0, s1, s2, table in far:
        found.extend(table[((state >> s0) & 15) + 5 * ((state >> s1) & 15) + 25 * ((state >> s2) & 15)])
    return found


class ToTomSearch:
    """Signature-mask search for the Tổ Tôm games; ``cap`` is the minimum lưng.

    The answer for a set of cards is a *mask*: bit ``LEVEL_BITS * level + index`` is set when an
    arrangement with ``min(lưng, cap) == level`` and cước index ``index`` exists (0: not tròn).
    """

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.steps = as_tuples(compile_steps(tt_sig))
        self.memo: dict[int, int] = {0: 1}
        self.solve: Callable[[int], int] = self._make_solver()
        self.failed: set[int] = set()
        self._find = self._make_finder()
        self.holding = families_holding(tt_sig)

    def lift(self, mask: int, psig: int) -> int:
        """The mask of arrangements of the rest once a phu of signature ``psig`` is added."""
        lung, index = psig >> 8, psig & 255
        if not lung:
            return mask << index
        out = 0
        cap = self.cap
        for level in range(cap + 1):
            part = (mask >> (LEVEL_BITS * level)) & LEVEL_MASK
            if part:
                out |= part << (LEVEL_BITS * min(level + lung, cap))
        return out << index

    def _make_solver(self) -> Callable[[int], int]:
        steps, memo, guard, lift, get = self.steps, self.memo, GUARD, self.lift, self.memo.get
        one_level = self.cap == 1  # Bí Ngũ: any lưng lifts the whole mask to level 1
        low_mask, width = LEVEL_MASK, LEVEL_BITS

        def solve(state: int) -> int:
            shift, mask, local, chains, far = steps[((state & -state).bit_length() - 1) >> 2]
            opts: Sequence[Option] = local[(state >> shift) & mask]
            if chains:
                guarded = state | guard
                more_runs = list(opts)
                for chain in chains:
                    for opt in chain:
                        if (guarded - opt[0]) & guard != guard:
                            break
                        more_runs.append(opt)
                opts = more_runs
            for s0, s1, s2, table in far:
                more = table[((state >> s0) & 15) + 5 * ((state >> s1) & 15) + 25 * ((state >> s2) & 15)]
                if more:
                    opts = [*opts, *more]
            out = 0
            for delta, psig, _ in opts:
                child = state - delta
                sub = get(child)
                if sub is None:
                    sub = solve(child)
                if not sub:
                    continue
                if not psig:
                    out |= sub
                elif one_level:
                    out |= ((sub & low_mask) | (sub >> width)) << (width + (psig & 255))
                else:
                    out |= lift(sub, psig)
            memo[state] = out
            return out

        def solve_cached(state: int) -> int:
            found = get(state)
            return solve(state) if found is None else found

        return solve_cached

    def find(self, state: int, needs: Iterable[int]) -> tuple[int, list[int]] | None:
        """The first reachable need and the catalogue ids of an arrangement meeting it, or None.

        ``needs`` are :func:`need_code` targets, most wanted first (0: just tròn). A depth-first
        search that stops at the first arrangement found, remembering only failures (kept across
        the targets): much faster than :meth:`mask` when a target is reachable.
        """
        self.failed.clear()
        for need in needs:
            path = self._find(state, need)
            if path is not None:
                path.reverse()
                return need, path
        return None

    def _make_finder(self) -> Callable[[int, int], list[int] | None]:
        steps, failed, guard, non_yeu, yeu_tail, nxt = (
            self.steps,
            self.failed,
            GUARD,
            NON_YEU,
            _yeu_tail,
            _left,
        )

        def find(state: int, need: int) -> list[int] | None:
            if not state & non_yeu:
                return yeu_tail(state, need)
            key = state | (need << 124)
            if key in failed:
                return None
            shift, mask, local, chains, far = steps[((state & -state).bit_length() - 1) >> 2]
            opts: Sequence[Option] = local[(state >> shift) & mask]
            for s0, s1, s2, table in far:
                more = table[((state >> s0) & 15) + 5 * ((state >> s1) & 15) + 25 * ((state >> s2) & 15)]
                if more:
                    opts = [*opts, *more]
            if chains:  # runs last, longest first (largest phu first strand fewer cards)
                guarded = state | guard
                runs = []
                for chain in chains:
                    for opt in chain:
                        if (guarded - opt[0]) & guard != guard:
                            break
                        runs.append(opt)
                if runs:
                    runs.reverse()
                    opts = [*opts, *runs]
            for delta, psig, pid in opts:
                found = find(state - delta, nxt(need, psig) if psig and need else need)
                if found is not None:
                    found.append(pid)
                    return found
            failed.add(key)
            return None

        return find

    def reset(self) -> None:
        """Forget what was learnt (a small memo per hand is faster than a huge shared one)."""
        self.memo.clear()
        self.memo[0] = 1

    def mask(self, state: int) -> int:
        """The signature mask of ``state`` (0: the cards never form a complete arrangement)."""
        if len(self.memo) > MEMO_LIMIT:
            self.reset()
        return self.solve(state)

    def mask_holding(self, state: int, kind: int) -> int:
        """:meth:`mask` of ``state``, got by first laying each phu that holds a card of ``kind``.

        Every arrangement has such a phu, so the answer is the same; but what is left is then a
        part of ``state`` without that card, which is what the waits of one hand (``state`` = the
        waiting hand + ``kind``) have in common: their sub-searches are shared in the memo.
        """
        guarded = state | GUARD
        out = 0
        for base, opts in self.holding[kind]:
            if (guarded - base) & GUARD != GUARD:
                continue
            for delta, psig, _ in opts:
                if (guarded - delta) & GUARD == GUARD:
                    sub = self.solve(state - delta)
                    if sub:
                        out |= self.lift(sub, psig) if psig else sub
        return out

    def with_phu(self, state: int, phu: Phu) -> int:
        """The mask of the arrangements of ``state`` that contain ``phu`` (0: none)."""
        if ((state | GUARD) - phu.packed) & GUARD != GUARD:
            return 0
        sub = self.solve(state - phu.packed)
        return self.lift(sub, tt_sig(phu)) if sub else 0

    def level(self, mask: int, level: int) -> int:
        """The cước indexes reachable at one lưng level, as a bit set."""
        return (mask >> (LEVEL_BITS * level)) & LEVEL_MASK

    def build(self, state: int, level: int, index: int) -> list[int]:
        """Catalogue ids of one arrangement of ``state`` at (lưng level, cước index)."""
        path: list[int] = []
        while state:
            step = self._step(state, level, index)
            if step is None:  # pragma: no cover - the memo said the target was reachable
                raise AssertionError("arrangement search lost its target")
            delta, pid, level, index = step
            path.append(pid)
            state -= delta
        return path

    def _step(self, state: int, level: int, index: int) -> tuple[int, int, int, int] | None:
        """One phu of an arrangement at (level, index): its packed count, id, and what is left."""
        for delta, psig, pid in options(state, self.steps):
            sub = self.solve(state - delta)
            if not sub:
                continue
            if not psig:
                if (sub >> (LEVEL_BITS * level + index)) & 1:
                    return delta, pid, level, index
                continue
            rest = index - (psig & 255)
            src = self._source(sub, psig >> 8, level, rest) if rest >= 0 else -1
            if src >= 0:
                return delta, pid, src, rest
        return None

    def _source(self, sub: int, lung: int, level: int, index: int) -> int:
        """The lưng level of ``sub`` holding ``index`` that ``lung`` more lưng lift to ``level``."""
        for src in range(self.cap + 1):
            if min(src + lung, self.cap) == level and (sub >> (LEVEL_BITS * src + index)) & 1:
                return src
        return -1

    def walk(self, state: int, need: int) -> Iterator[list[int]]:
        """Every arrangement (catalogue ids) carrying at least ``need`` lưng, maybe repeated."""
        yield from self._walk(state, 0, min(need, self.cap))

    def _walk(self, state: int, acc: int, need: int) -> Iterator[list[int]]:
        if not state:
            if acc >= need:
                yield []
            return
        for delta, psig, pid in options(state, self.steps):
            acc2 = min(acc + (psig >> 8), self.cap)
            sub = self.solve(state - delta)
            if not any(self.level(sub, lv) for lv in range(max(need - acc2, 0), self.cap + 1)):
                continue
            for rest in self._walk(state - delta, acc2, need):
                yield [pid, *rest]


@lru_cache(maxsize=8)
def tt_search(cap: int) -> ToTomSearch:
    """The shared Tổ Tôm search for a minimum of ``cap`` lưng."""
    return ToTomSearch(cap)
