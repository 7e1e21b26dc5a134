"""The club book is read from the ledger: for any period, each member's points, open balance, ván,
wins and canh equal the sums of their canh's own numbers (the sitting pages' balances), across
corrections, a canh's settle-up, a period close and a close undone (Hypothesis over periods)."""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from typing import Any

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import Sitting, VanOutcome
from scoring.periods import dates, lunar_year
from scoring.selectors.book import book
from scoring.selectors.ledger import balances, ledger_differences
from scoring.services.sittings import van_correct
from tests.book.conftest import FIVE_A, canh, season
from tests.factories import new_key

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db]


def expected(club: Any, start: dt.date, end: dt.date) -> dict[int, dict[str, Any]]:
    """Each player's numbers summed canh by canh from the sitting's own selectors."""
    out: dict[int, dict[str, Any]] = defaultdict(lambda: Counter())
    for sitting in Sitting.objects.filter(club=club).order_by("created_at"):
        if not start <= timezone.localtime(sitting.created_at).date() <= end:
            continue
        play, final = balances(sitting, play_only=True).players, balances(sitting).players
        van = sitting.van.filter(is_current=True)
        for seat in sitting.seats.all():
            row = out[seat.player_id]
            row["points"] += play[seat.name]
            row["open"] += final[seat.name]
            row["van"] += van.count()
            row["wins"] += van.filter(winner=seat, outcome=VanOutcome.U).count()
            row["sittings"] += 1
    return out


def got(club: Any, start: dt.date, end: dt.date) -> dict[int, dict[str, Any]]:
    the_book = book(club, dates(start, end))
    return {
        m.player_id: Counter(
            {"points": m.points, "open": m.open, "van": m.van, "wins": m.wins, "sittings": m.sittings}
        )
        for m in the_book.members
    }


@pytest.fixture
def world(club: Any, organiser: Any) -> dict[str, Any]:
    return season(club, organiser)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    start=st.dates(min_value=dt.date(2025, 1, 1), max_value=dt.date(2026, 3, 31)),
    days=st.integers(min_value=0, max_value=420),
)
def test_the_book_is_the_sum_of_each_member_s_canh_balances(
    world: dict[str, Any], club: Any, start: dt.date, days: int
) -> None:
    end = start + dt.timedelta(days=days)
    assert got(club, start, end) == {k: v for k, v in expected(club, start, end).items()}


def test_the_season_is_what_the_book_must_follow(world: dict[str, Any], club: Any) -> None:
    """The world does hold what the property must survive, and the ledger replays cleanly."""
    the_book = book(club, lunar_year(2025))
    assert len(the_book.canh) == 7 and the_book.van == 18
    assert [c.reversed for c in the_book.closes] == [False, True]
    assert sum(m.settled for m in the_book.members) != 0  # settle-ups did clear something
    spring = world["canh"]["spring"]
    assert spring.van.filter(is_current=False).count() == 1
    for sitting in Sitting.objects.filter(club=club):
        assert ledger_differences(sitting) == []


def test_a_correction_in_a_past_canh_moves_the_book(world: dict[str, Any], club: Any, organiser: Any) -> None:
    year = lunar_year(2025)
    before = {m.name: m.points for m in book(club, year).members}
    autumn = world["canh"]["autumn"]
    van = autumn.van.get(seq=3, is_current=True)  # Cô Tám's Tôm: 4 × 8 points
    van_correct(
        van=van,
        record={"winner": "Bác Năm", "cuoc": ["tom"]},
        reason="Nhầm người",
        corrected_by=organiser,
        idempotency_key=new_key(),
    )
    after = {m.name: m.points for m in book(club, year).members}
    assert after["Cô Tám"] == before["Cô Tám"] - 40 and after["Bác Năm"] == before["Bác Năm"] + 40
    assert after == {
        name: sum(
            balances(s, play_only=True).players.get(name, 0)
            for s in Sitting.objects.filter(club=club, pk__in=[c.id for c in book(club, year).canh])
        )
        for name in after
    }


def test_a_canh_belongs_to_the_day_it_was_opened_in_the_site_s_time_zone(club: Any) -> None:
    """23:30 in Hà Nội is 16:30 UTC the same day; 00:30 is the day before in UTC."""
    late = canh(club, dt.date(2025, 2, 27), FIVE_A, [{"winner": "Cụ Tư", "cuoc": ["tom"]}], hour=23)
    early = canh(club, dt.date(2025, 2, 28), FIVE_A, [{"winner": "Bác Năm", "cuoc": ["tom"]}], hour=0)
    assert [c.id for c in book(club, dates(dt.date(2025, 2, 27), dt.date(2025, 2, 27))).canh] == [late.pk]
    assert [c.id for c in book(club, dates(dt.date(2025, 2, 28), dt.date(2025, 2, 28))).canh] == [early.pk]
