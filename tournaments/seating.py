"""Seating a round on tables (chiếu): pure functions, no Django.

Players are ids (ints). A :class:`Seating` is the tables of a round (each a tuple of players in
seat order) plus the players given a bye. Three methods:

* :func:`draw_random`: a seeded random draw;
* :func:`draw_rotation`: as few repeated opponents as possible given the earlier rounds' tables
  (never worse than the random draw of the same seed, which it starts from);
* :func:`draw_by_standings`: strong with strong, players given in ranking order (the event's
  standings, or ``Method.RATING``: the club ratings of the players, best first).

When the number of players does not divide by the table size the organiser chooses
(:class:`Remainder`): the players left over sit out this round (a bye, given first to those who
have had the fewest byes), or some tables are smaller (never below the game's minimum).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations

from scoring.engine import N_, EngineError

__all__ = [
    "Method",
    "Remainder",
    "Seating",
    "SeatingError",
    "draw_by_standings",
    "draw_random",
    "draw_rotation",
    "meetings",
    "repeated_pairs",
    "seat_round",
    "table_sizes",
]

Pair = frozenset[int]


class SeatingError(EngineError):
    """A round cannot be seated as asked (too few players, impossible table sizes...)."""

    code = "seating_refused"


class Method(StrEnum):
    RANDOM = "random"
    ROTATION = "rotation"
    STANDINGS = "standings"
    #: Strong with strong by the players' ratings in their clubs (scoring's club book).
    RATING = "rating"


class Remainder(StrEnum):
    """What to do with the players left over when the count does not divide by the table size."""

    BYE = "bye"
    SMALLER = "smaller"


@dataclass(frozen=True, slots=True)
class Seating:
    #: Each table's players in seat order (table 1 first).
    tables: tuple[tuple[int, ...], ...]
    #: Players who sit out this round.
    byes: tuple[int, ...]
    #: How many pairs at these tables already met in the history given (0 for a fresh draw).
    repeats: int = 0


def table_sizes(count: int, *, size: int, min_size: int, remainder: Remainder) -> tuple[list[int], int]:
    """The sizes of the round's tables and how many players get a bye."""
    if size < 1 or not 1 <= min_size <= size:
        raise SeatingError(
            N_("Cỡ chiếu không hợp lệ: từ {min_size} đến {size} người."), min_size=min_size, size=size
        )
    if remainder == Remainder.BYE:
        tables = count // size
        if tables == 0:
            raise SeatingError(
                N_("Cần ít nhất {size} người đã điểm danh để xếp một chiếu; mới có {count} người."),
                size=size,
                count=count,
            )
        return [size] * tables, count - tables * size
    if count < min_size:
        raise SeatingError(
            N_("Cần ít nhất {min_size} người đã điểm danh để xếp một chiếu; mới có {count} người."),
            min_size=min_size,
            count=count,
        )
    tables = -(-count // size)
    base, extra = divmod(count, tables)
    if base < min_size:
        raise SeatingError(
            N_(
                "Không chia được {count} người thành các chiếu từ {min_size} đến {size} người; hãy "
                "chọn cho người dư nghỉ vòng này."
            ),
            count=count,
            min_size=min_size,
            size=size,
        )
    return [base + 1] * extra + [base] * (tables - extra), 0


def meetings(history: Iterable[Sequence[int]]) -> Counter[Pair]:
    """How many times each pair of players sat at the same table in ``history`` (earlier tables)."""
    met: Counter[Pair] = Counter()
    for table in history:
        for a, b in combinations(table, 2):
            met[frozenset((a, b))] += 1
    return met


def repeated_pairs(tables: Iterable[Sequence[int]], met: Mapping[Pair, int]) -> int:
    """How many pairs sitting together at ``tables`` already met."""
    return sum(1 for t in tables for a, b in combinations(t, 2) if met.get(frozenset((a, b)), 0))


def _check_players(players: Sequence[int]) -> list[int]:
    out = list(players)
    if len(set(out)) != len(out):
        raise SeatingError(N_("Danh sách người chơi có người bị lặp lại."))
    return out


def _chunk(players: Sequence[int], sizes: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    tables, start = [], 0
    for n in sizes:
        tables.append(tuple(players[start : start + n]))
        start += n
    return tuple(tables)


def _byes(order: Sequence[int], count: int, bye_counts: Mapping[int, int] | None) -> tuple[int, ...]:
    """The ``count`` players who sit out: fewest earlier byes first, then from the end of ``order``."""
    if count == 0:
        return ()
    counts = bye_counts or {}
    ranked = sorted(range(len(order)), key=lambda i: (counts.get(order[i], 0), -i))
    return tuple(order[i] for i in ranked[:count])


def draw_random(
    players: Sequence[int],
    *,
    size: int,
    min_size: int | None = None,
    remainder: Remainder = Remainder.BYE,
    seed: int,
    bye_counts: Mapping[int, int] | None = None,
) -> Seating:
    """A random draw, reproducible from ``seed``."""
    order = _check_players(players)
    sizes, bye_count = table_sizes(len(order), size=size, min_size=min_size or size, remainder=remainder)
    random.Random(seed).shuffle(order)
    byes = _byes(order, bye_count, bye_counts)
    seated = [p for p in order if p not in set(byes)]
    return Seating(_chunk(seated, sizes), byes)


def _cost(table: Sequence[int], met: Mapping[Pair, int]) -> int:
    return sum(met.get(frozenset((a, b)), 0) for a, b in combinations(table, 2))


def _greedy(seated: list[int], sizes: Sequence[int], met: Mapping[Pair, int]) -> list[list[int]]:
    """Fill tables one by one, each time adding the player who met the table's players least."""
    remaining = list(seated)
    tables = []
    for n in sizes:
        table = [remaining.pop(0)]
        while len(table) < n:
            best = min(
                range(len(remaining)),
                key=lambda i: sum(met.get(frozenset((remaining[i], q)), 0) for q in table),
            )
            table.append(remaining.pop(best))
        tables.append(table)
    return tables


def _improve(tables: list[list[int]], met: Mapping[Pair, int]) -> None:
    """Swap players between tables while a swap lowers the number of repeated meetings."""
    improved = True
    while improved:
        improved = False
        costs = [_cost(t, met) for t in tables]
        for i, j in combinations(range(len(tables)), 2):
            if costs[i] + costs[j] == 0:
                continue
            for a in range(len(tables[i])):
                for b in range(len(tables[j])):
                    ti, tj = list(tables[i]), list(tables[j])
                    ti[a], tj[b] = tj[b], ti[a]
                    ci, cj = _cost(ti, met), _cost(tj, met)
                    if ci + cj < costs[i] + costs[j]:
                        tables[i], tables[j] = ti, tj
                        costs[i], costs[j] = ci, cj
                        improved = True


def draw_rotation(
    players: Sequence[int],
    *,
    size: int,
    min_size: int | None = None,
    remainder: Remainder = Remainder.BYE,
    seed: int,
    history: Iterable[Sequence[int]] = (),
    bye_counts: Mapping[int, int] | None = None,
    attempts: int = 24,
) -> Seating:
    """Seat players so that as few pairs as possible meet again (``history``: earlier tables).

    Starts from :func:`draw_random` with the same seed and keeps it unless a greedy fill plus
    swaps between tables does better, so it is never worse than the random draw.
    """
    met = meetings(history)
    start = draw_random(
        players, size=size, min_size=min_size, remainder=remainder, seed=seed, bye_counts=bye_counts
    )
    best_tables = [list(t) for t in start.tables]
    best = repeated_pairs(best_tables, met) * 1000 + sum(_cost(t, met) for t in best_tables)
    rng = random.Random(seed)
    seated = [p for t in start.tables for p in t]
    sizes = [len(t) for t in start.tables]
    for _ in range(attempts):
        if best == 0:
            break
        rng.shuffle(seated)
        tables = _greedy(seated, sizes, met)
        _improve(tables, met)
        score = repeated_pairs(tables, met) * 1000 + sum(_cost(t, met) for t in tables)
        if score < best:
            best, best_tables = score, tables
    final = tuple(tuple(t) for t in best_tables)
    return Seating(final, start.byes, repeated_pairs(final, met))


def draw_by_standings(
    ranked: Sequence[int],
    *,
    size: int,
    min_size: int | None = None,
    remainder: Remainder = Remainder.BYE,
    bye_counts: Mapping[int, int] | None = None,
) -> Seating:
    """Strong with strong: ``ranked`` is best first; table 1 seats the leaders.

    Byes go to the players with the fewest earlier byes, the lowest ranked first.
    """
    order = _check_players(ranked)
    sizes, bye_count = table_sizes(len(order), size=size, min_size=min_size or size, remainder=remainder)
    byes = _byes(order, bye_count, bye_counts)
    seated = [p for p in order if p not in set(byes)]
    return Seating(_chunk(seated, sizes), byes)


def seat_round(
    method: Method,
    players: Sequence[int],
    *,
    size: int,
    min_size: int | None = None,
    remainder: Remainder = Remainder.BYE,
    seed: int = 0,
    history: Iterable[Sequence[int]] = (),
    bye_counts: Mapping[int, int] | None = None,
) -> Seating:
    """Seat a round by ``method`` (for standings and rating, ``players`` must be in ranking order)."""
    if method in (Method.STANDINGS, Method.RATING):
        seating = draw_by_standings(
            players, size=size, min_size=min_size, remainder=remainder, bye_counts=bye_counts
        )
        return Seating(seating.tables, seating.byes, repeated_pairs(seating.tables, meetings(history)))
    if method == Method.ROTATION:
        return draw_rotation(
            players,
            size=size,
            min_size=min_size,
            remainder=remainder,
            seed=seed,
            history=history,
            bye_counts=bye_counts,
        )
    seating = draw_random(
        players, size=size, min_size=min_size, remainder=remainder, seed=seed, bye_counts=bye_counts
    )
    return Seating(seating.tables, seating.byes, repeated_pairs(seating.tables, meetings(history)))
