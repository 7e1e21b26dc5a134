"""Combinations of cước no hand could hold, derived from what each cước needs (its data).

A winning hand of a game has the game's size, its deck's kinds and at most four copies of each.
Each cước states its :class:`~scoring.engine.cuoc.needs.Needs`; a combination is possible only if
some count of each card satisfies them all at once. The test is exact for the kinds of need there
are: per-card ranges, the number of red cards, cards each occurrence takes, kinds held four
times, and (Tài Bàn) the lưng range and the dealt khàn. Nothing here lists pairs: a village's
own cước that states its needs is refused in the same way.

* :func:`check_combination` raises :class:`ConflictError`, naming the cước and what each needs
  ("Bạch Định cần cả 21 quân đen; Thập Điều cần đúng 10 quân đỏ").
* :func:`conflict_table` lists, for the pages and the offline preview, every smallest set (up to
  three) of a rule set's cước that cannot go together, with the reason.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any

from scoring.engine.cards import CARD_BY_CODE, CARDS
from scoring.engine.cuoc.base import Cuoc
from scoring.engine.cuoc.needs import MAX_TIMES, Needs, describe
from scoring.engine.errors import N_, ConflictError, Joined, Msg
from scoring.engine.games import MIN_CHAN, DeckKind, Game, ScoringFamily, get_game
from scoring.engine.rules import RuleSet

__all__ = [
    "Conflict",
    "ConflictTable",
    "check_combination",
    "combination_problem",
    "conflict_table",
    "most_times",
]

#: Copies of each card kind in a deck.
COPIES = 4


@dataclass(frozen=True, slots=True)
class _Space:
    """What a winning hand of a game can be."""

    size: int
    kinds: tuple[str, ...]
    #: Fewest weighted lưng (Tài Bàn), else 0.
    lung_min: int
    #: Chắn: the chắn a winning hand holds (6 to 10), else None.
    chan: tuple[int, int] | None = None


@lru_cache(maxsize=16)
def _space(game: Game) -> _Space | None:
    if game.hand_size is None or game.family is ScoringFamily.PHOM:
        return None
    kinds = tuple(c.code for c in CARDS if game.deck is not DeckKind.CHAN or c.in_chan_deck)
    lung_min = (game.min_lung or 0) if game.family is ScoringFamily.TAI_BAN else 0
    chan = (MIN_CHAN, game.hand_size // 2) if game.family is ScoringFamily.CHAN else None
    return _Space(game.hand_size, kinds, lung_min, chan)


def _meet(a: tuple[int, int | None], b: tuple[int, int | None]) -> tuple[int, int | None]:
    high = a[1] if b[1] is None else b[1] if a[1] is None else min(a[1], b[1])
    return max(a[0], b[0]), high


def _narrow(low: dict[str, int], high: dict[str, int], need: Needs) -> bool:
    """Narrow each card's count range to what ``need`` allows; False when it names a card the
    game's deck does not have but needs it."""
    for code, span in need.cards.items():
        if code not in low:
            if span[0] > 0:
                return False
            continue
        low[code], top = _meet((low[code], high[code]), span)
        high[code] = COPIES if top is None else top
    return True


def _agree(have: bool | None, need: bool | None) -> bool:
    return have is None or need is None or have == need


def _feasible(space: _Space, entries: Iterable[tuple[Needs, int]]) -> bool:
    """Whether some hand of ``space`` meets every need (each ``(needs, times declared)``)."""
    low = dict.fromkeys(space.kinds, 0)
    high = dict.fromkeys(space.kinds, COPIES)
    added: Counter[str] = Counter()
    red: tuple[int, int | None] = (0, space.size)
    lung: tuple[int, int | None] = (space.lung_min, None)
    khan: bool | None = None
    dealer: bool | None = None
    chan: tuple[int, int | None] = (0, None) if space.chan is None else space.chan
    quads = 0
    for need, times in entries:
        if times <= 0:
            continue
        if need.red is not None:
            red = _meet(red, need.red)
        if not _narrow(low, high, need):
            return False
        for code, count in need.each.items():
            added[code] += count * times
        quads += need.quads * times
        if need.lung is not None:
            lung = _meet(lung, need.lung)
        if not _agree(khan, need.khan) or not _agree(dealer, need.dealer):
            return False  # a khàn dealt and none; the dealer only and never the dealer
        khan = need.khan if need.khan is not None else khan
        dealer = need.dealer if need.dealer is not None else dealer
        if need.chan is not None:
            if space.chan is None:
                return False  # chắn are pairs of Chắn: no other game's win has them
            chan = _meet(chan, need.chan)
    for code, count in added.items():
        if code not in low:
            return False
        low[code] = max(low[code], count)
    if any(low[k] > high[k] for k in low) or (lung[1] is not None and lung[0] > lung[1]):
        return False
    if chan[1] is not None and chan[0] > chan[1]:
        return False
    # every card in a chắn (Thập Thành): each kind held an even number of times
    return _counts_fit(space, low, high, red, quads, even=chan[0] * 2 >= space.size)


def _counts_fit(
    space: _Space,
    low: dict[str, int],
    high: dict[str, int],
    red: tuple[int, int | None],
    quads: int,
    *,
    even: bool = False,
) -> bool:
    """Whether counts within ``low``–``high`` sum to the hand size with ``red`` red cards and at
    least ``quads`` kinds held four times (each side taking its cheapest quads); ``even``: every
    count even (a hand of chắn only)."""
    if even:
        low = {k: n + n % 2 for k, n in low.items()}
        high = {k: n - n % 2 for k, n in high.items()}
        if any(low[k] > high[k] for k in low) or space.size % 2:
            return False
    reds = [k for k in low if CARD_BY_CODE[k].is_red]
    blacks = [k for k in low if not CARD_BY_CODE[k].is_red]
    red_hi = space.size if red[1] is None else red[1]
    for red_quads in range(quads + 1):
        sides = []
        for kinds, wanted in ((reds, red_quads), (blacks, quads - red_quads)):
            steps = sorted(COPIES - low[k] for k in kinds if high[k] == COPIES)
            if len(steps) < wanted:
                break
            sides.append((sum(low[k] for k in kinds) + sum(steps[:wanted]), sum(high[k] for k in kinds)))
        else:
            (r_lo, r_hi), (b_lo, b_hi) = sides
            lowest = max(red[0], r_lo, space.size - b_hi)
            highest = min(red_hi, r_hi, space.size - b_lo)
            if even:
                lowest += lowest % 2  # sums of even counts are even
            if lowest <= highest:
                return True
    return False


# -- explaining ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Conflict:
    """A smallest set of cước that cannot go together, and why (a message)."""

    cuoc: tuple[str, ...]
    why: Msg

    def to_dict(self, render: Any = None) -> dict[str, Any]:
        return {"cuoc": list(self.cuoc), "why": self.why.render(render)}


def _needs_of(game: Game, rules: RuleSet, slug: str) -> tuple[Cuoc, Needs]:
    entry = rules.cuoc_info(slug)
    return entry, entry.needs_for(game.slug)


def _wants(game: Game, entry: Cuoc, need: Needs) -> Msg:
    parts = describe(need, game.hand_size)
    return Msg(N_("{name} cần {needs}"), name=entry.name, needs=parts)


def _named(entry: Cuoc, times: int) -> str:
    return entry.name if times == 1 else f"{times} × {entry.name}"


def most_times(game: Game, need: Needs) -> int:
    """How many times a cước with ``need`` can count in one win of ``game`` (up to MAX_TIMES)."""
    space = _space(game)
    limit = MAX_TIMES if need.times is None else min(need.times, MAX_TIMES)
    if space is None:
        return limit
    best = 0
    for times in range(1, limit + 1):
        if not _feasible(space, [(need, times)]):
            break
        best = times
    return best


def combination_problem(game: str | Game, rules: RuleSet, slugs: Sequence[str]) -> Msg | None:
    """Why no hand of ``game`` could hold these cước together (None: some hand could)."""
    return _problem(get_game(game), rules, tuple(slugs))


@lru_cache(maxsize=4096)
def _problem(the_game: Game, rules: RuleSet, slugs: tuple[str, ...]) -> Msg | None:
    space = _space(the_game)
    counts = Counter(slugs)
    info = {slug: _needs_of(the_game, rules, slug) for slug in counts}
    for slug, times in counts.items():
        entry, need = info[slug]
        if times > 1 and (need.times is not None and times > need.times):
            if need.times == 1:
                return Msg(N_("{name} chỉ được tính một lần trong một ván ù."), name=entry.name)
            return Msg(
                N_("{name} chỉ được tính tối đa {n} lần trong một ván ù."), name=entry.name, n=need.times
            )
    if space is None:
        return None
    if _feasible(space, [(info[s][1], n) for s, n in counts.items()]):
        return None
    return _explain(the_game, space, info, counts)


def _explain(game: Game, space: _Space, info: dict[str, tuple[Cuoc, Needs]], counts: Counter[str]) -> Msg:
    for slug in counts:  # one cước alone
        entry, need = info[slug]
        if not _feasible(space, [(need, 1)]):
            return Msg(
                N_("{wants}: không bài ù {game} nào có được."),
                wants=_wants(game, entry, need),
                game=game.name_vi,
            )
    for slug, times in counts.items():  # one cước too many times
        entry, need = info[slug]
        if times > 1 and not _feasible(space, [(need, times)]):
            return Msg(
                N_("{name} có {n} lần nhưng một ván ù {game} có nhiều nhất {most} lần: mỗi {wants}."),
                name=entry.name,
                n=times,
                game=game.name_vi,
                most=most_times(game, need),
                wants=_wants(game, entry, need),
            )
    slugs = list(counts)
    for a, b in combinations(slugs, 2):  # two cước, in the order given
        if not _feasible(space, [(info[a][1], counts[a]), (info[b][1], counts[b])]):
            return _together(game, info, counts, (a, b))
    # a larger set: drop what is not needed to keep it impossible (a smallest set, by deletion)
    kept = list(slugs)
    for slug in slugs:
        trial = [s for s in kept if s != slug]
        if not _feasible(space, [(info[s][1], counts[s]) for s in trial]):
            kept = trial
    return _together(game, info, counts, tuple(kept))


def _together(
    game: Game, info: dict[str, tuple[Cuoc, Needs]], counts: Counter[str], slugs: Sequence[str]
) -> Msg:
    names = [_named(info[s][0], counts[s]) for s in slugs]
    why = Joined([_wants(game, *info[s]) for s in slugs])
    if len(slugs) == 2:
        return Msg(
            N_("Không bài ù {game} nào có cùng lúc {a} và {b}: {why}."),
            game=game.name_vi,
            a=names[0],
            b=names[1],
            why=why,
        )
    return Msg(
        N_("Không bài ù {game} nào có cùng lúc {names}: {why}."), game=game.name_vi, names=names, why=why
    )


def check_combination(game: str | Game, rules: RuleSet, slugs: Sequence[str]) -> None:
    """Raise :class:`ConflictError` when no hand of ``game`` could hold these cước together."""
    problem = combination_problem(game, rules, slugs)
    if problem is not None:
        raise ConflictError(problem)


# -- the table the pages and the offline preview look up ------------------------------------------


@dataclass(frozen=True, slots=True)
class ConflictTable:
    """The conflicts among the cước a rule set values for a game (for chips that grey out)."""

    game: str
    #: Every smallest impossible set of up to three distinct cước, with the reason.
    conflicts: tuple[Conflict, ...]
    #: How many times each repeatable cước can count in one win.
    most: tuple[tuple[str, int], ...]

    def to_dict(self, render: Any = None) -> dict[str, Any]:
        """JSON data: ``{"conflicts": [{"cuoc": [...], "why": "..."}], "most": {slug: n}}``."""
        return {"conflicts": [c.to_dict(render) for c in self.conflicts], "most": dict(self.most)}

    def blocked(self, chosen: Iterable[str]) -> dict[str, Msg]:
        """The cước that can no longer be added to ``chosen``, each with the reason."""
        have = set(chosen)
        out: dict[str, Msg] = {}
        for conflict in self.conflicts:
            missing = [s for s in conflict.cuoc if s not in have]
            if len(missing) == 1 and missing[0] not in out:
                out[missing[0]] = conflict.why
        return out


@lru_cache(maxsize=64)
def conflict_table(game: str | Game, rules: RuleSet) -> ConflictTable:
    """The :class:`ConflictTable` of ``game`` under ``rules`` (derived once per pair, then cached)."""
    the_game = get_game(game)
    slugs = [s for s in rules.cuoc if rules.cuoc_info(s).in_game(the_game.slug)]
    space = _space(the_game)
    found: list[Conflict] = []
    most: list[tuple[str, int]] = []
    if space is not None:
        needs = {s: _needs_of(the_game, rules, s)[1] for s in slugs}
        for slug in slugs:
            if needs[slug].times != 1:
                most.append((slug, most_times(the_game, needs[slug])))
        active = [s for s in slugs if not needs[s].empty]
        bad: list[frozenset[str]] = []
        for size in (1, 2, 3):
            for group in combinations(active, size):
                if any(b <= set(group) for b in bad):
                    continue
                if not _feasible(space, [(needs[s], 1) for s in group]):
                    bad.append(frozenset(group))
                    problem = combination_problem(the_game, rules, group)
                    assert problem is not None
                    found.append(Conflict(group, problem))
    return ConflictTable(the_game.slug.value, tuple(found), tuple(most))
