"""Seating a round: pure functions, table-driven cases and properties (no database)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.seating import (
    Method,
    Remainder,
    SeatingError,
    draw_by_standings,
    draw_random,
    draw_rotation,
    meetings,
    repeated_pairs,
    seat_round,
    table_sizes,
)


@pytest.mark.parametrize(
    ("count", "size", "min_size", "remainder", "sizes", "byes"),
    [
        (10, 5, 5, Remainder.BYE, [5, 5], 0),
        (12, 5, 5, Remainder.BYE, [5, 5], 2),
        (7, 4, 2, Remainder.BYE, [4], 3),
        (7, 4, 2, Remainder.SMALLER, [4, 3], 0),
        (10, 4, 2, Remainder.SMALLER, [4, 3, 3], 0),
        (9, 4, 3, Remainder.SMALLER, [3, 3, 3], 0),
        (5, 4, 2, Remainder.SMALLER, [3, 2], 0),
        (3, 3, 3, Remainder.BYE, [3], 0),
    ],
)
def test_table_sizes(count, size, min_size, remainder, sizes, byes) -> None:
    assert table_sizes(count, size=size, min_size=min_size, remainder=remainder) == (sizes, byes)


@pytest.mark.parametrize(
    ("count", "size", "min_size", "remainder", "message"),
    [
        (4, 5, 5, Remainder.BYE, "Cần ít nhất 5 người"),
        (12, 5, 5, Remainder.SMALLER, "hãy chọn cho người dư nghỉ"),
        (1, 4, 2, Remainder.SMALLER, "Cần ít nhất 2 người"),
    ],
)
def test_impossible_rounds_say_why_in_vietnamese(count, size, min_size, remainder, message) -> None:
    with pytest.raises(SeatingError, match=message):
        table_sizes(count, size=size, min_size=min_size, remainder=remainder)


def test_a_random_draw_is_reproducible_from_its_seed() -> None:
    players = list(range(1, 21))
    first = draw_random(players, size=5, seed=42)
    assert first == draw_random(players, size=5, seed=42)
    assert first != draw_random(players, size=5, seed=43)


def test_byes_go_first_to_players_who_had_none() -> None:
    players = list(range(1, 13))
    seating = draw_random(players, size=5, seed=1, bye_counts={p: 1 for p in players if p not in (3, 9)})
    assert sorted(seating.byes) == [3, 9]


def test_standings_seat_leaders_together_and_give_the_bye_to_the_last() -> None:
    ranked = [7, 3, 9, 1, 4, 8, 2, 6, 5, 10, 11]
    seating = draw_by_standings(ranked, size=5)
    assert seating.tables == ((7, 3, 9, 1, 4), (8, 2, 6, 5, 10))
    assert seating.byes == (11,)
    smaller = draw_by_standings(ranked[:7], size=4, min_size=2, remainder=Remainder.SMALLER)
    assert smaller.tables == ((7, 3, 9, 1), (4, 8, 2))


def test_duplicate_players_are_refused() -> None:
    with pytest.raises(SeatingError, match="lặp lại"):
        draw_random([1, 2, 2, 3], size=2, seed=0)


@pytest.mark.parametrize(
    ("count", "size", "seed"),
    [(16, 4, 1), (16, 4, 2), (9, 3, 5), (25, 5, 3), (20, 4, 7)],
)
def test_rotation_avoids_repeated_opponents_when_possible(count, size, seed) -> None:
    """Round 2 after a round 1: a seating with no pair meeting again exists (the 'transpose')."""
    players = list(range(1, count + 1))
    round1 = draw_random(players, size=size, seed=seed).tables
    round2 = draw_rotation(players, size=size, seed=seed, history=round1)
    assert round2.repeats == 0
    assert repeated_pairs(round2.tables, meetings(round1)) == 0
    # Plain random draws of the same players do meet again (so the test can fail).
    assert any(
        repeated_pairs(draw_random(players, size=size, seed=s).tables, meetings(round1)) > 0
        for s in range(10)
    )


def test_rotation_over_three_rounds_of_sixteen_keeps_everyone_new() -> None:
    players = list(range(1, 17))
    history: list[tuple[int, ...]] = []
    for n in range(3):
        seating = draw_rotation(players, size=4, seed=n, history=history)
        assert seating.repeats == 0, f"round {n + 1}"
        history.extend(seating.tables)


def test_rotation_cannot_avoid_every_repeat_of_ten_on_two_tables_but_minimises() -> None:
    players = list(range(1, 11))
    round1 = draw_random(players, size=5, seed=0).tables
    round2 = draw_rotation(players, size=5, seed=0, history=round1)
    # Two tables of 5 from two earlier tables of 5: at best 3+2 from each side: 3+1 pairs at each table.
    assert round2.repeats == 8


@settings(max_examples=150, deadline=None)
@given(
    count=st.integers(min_value=2, max_value=40),
    size=st.integers(min_value=2, max_value=5),
    spread=st.integers(min_value=0, max_value=3),
    remainder=st.sampled_from(list(Remainder)),
    method=st.sampled_from(list(Method)),
    seed=st.integers(min_value=0, max_value=2**32),
    earlier=st.integers(min_value=0, max_value=2),
)
def test_everyone_is_seated_or_given_a_bye_exactly_once(
    count, size, spread, remainder, method, seed, earlier
):
    min_size = max(2, size - spread)
    players = [p * 7 + 1 for p in range(count)]
    try:
        table_sizes(count, size=size, min_size=min_size, remainder=remainder)
    except SeatingError:
        with pytest.raises(SeatingError):
            seat_round(method, players, size=size, min_size=min_size, remainder=remainder, seed=seed)
        return
    history = [
        t
        for n in range(earlier)
        for t in draw_random(players, size=size, min_size=min_size, remainder=remainder, seed=seed + n).tables
    ]
    seating = seat_round(
        method, players, size=size, min_size=min_size, remainder=remainder, seed=seed, history=history
    )
    placed = Counter(p for t in seating.tables for p in t) + Counter(seating.byes)
    assert placed == Counter(players)
    for table in seating.tables:
        assert len(set(table)) == len(table)
        assert min_size <= len(table) <= size
    if remainder == Remainder.SMALLER:
        assert seating.byes == ()
    else:
        assert len(seating.byes) < size
    if method == Method.ROTATION:
        plain = draw_random(players, size=size, min_size=min_size, remainder=remainder, seed=seed)
        assert seating.repeats <= repeated_pairs(plain.tables, meetings(history))
