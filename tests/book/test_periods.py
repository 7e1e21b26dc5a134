"""The club book's periods: the lunar calendar both ways (moved to ``scoring.lunar``), lunar years,
months (leap months included), seasons, dates, and the errors a user sees for bad input."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.lunar import LunarDate, leap_month, month_days, to_lunar, to_solar
from scoring.periods import (
    PeriodError,
    dates,
    in_vietnamese,
    lunar_month,
    lunar_year,
    month_choices,
    period_between,
    period_from,
    season,
    shown_label,
)

# Tết (the first day of the lunar year) as Vietnamese calendars print it.
TET = {
    2020: dt.date(2020, 1, 25),
    2023: dt.date(2023, 1, 22),
    2024: dt.date(2024, 2, 10),
    2025: dt.date(2025, 1, 29),
    2026: dt.date(2026, 2, 17),
    2027: dt.date(2027, 2, 6),
}


@pytest.mark.parametrize(("year", "day"), TET.items())
def test_tet_is_the_first_day_of_the_lunar_year(year: int, day: dt.date) -> None:
    assert to_solar(year, 1) == day
    assert to_lunar(day) == LunarDate(1, 1, year)
    assert to_lunar(day - dt.timedelta(days=1)).year == year - 1


def test_leap_months_are_those_of_the_vietnamese_calendar() -> None:
    assert {y: leap_month(y) for y in range(2017, 2032)} == {
        2017: 6,
        2018: None,
        2019: None,
        2020: 4,
        2021: None,
        2022: None,
        2023: 2,
        2024: None,
        2025: 6,
        2026: None,
        2027: None,
        2028: 5,
        2029: None,
        2030: None,
        2031: 3,
    }


@settings(max_examples=400, deadline=None)
@given(st.dates(min_value=dt.date(1950, 1, 1), max_value=dt.date(2099, 12, 31)))
def test_solar_to_lunar_and_back_is_the_same_day(day: dt.date) -> None:
    lunar = to_lunar(day)
    assert 1 <= lunar.day <= month_days(lunar.year, lunar.month, leap=lunar.leap)
    assert to_solar(lunar.year, lunar.month, lunar.day, leap=lunar.leap) == day


def test_a_rounding_edge_of_the_old_conversion_no_longer_gives_day_zero() -> None:
    assert to_lunar(dt.date(2054, 5, 7)).day != 0
    assert to_solar(
        *(lambda d: (d.year, d.month, d.day))(to_lunar(dt.date(2054, 5, 7))),
        leap=to_lunar(dt.date(2054, 5, 7)).leap,
    ) == dt.date(2054, 5, 7)


def test_lunar_year_runs_from_tet_to_the_eve_of_the_next() -> None:
    year = lunar_year(2025)
    assert (year.start, year.end, year.key) == (dt.date(2025, 1, 29), dt.date(2026, 2, 16), "nam-2025")
    assert year.label == "Năm Ất Tỵ (2025)"


def test_months_tile_the_year_with_the_leap_month_after_its_month() -> None:
    months = month_choices(2025)
    assert len(months) == 13
    assert [m.key for m in months[5:8]] == ["thang-2025-06", "thang-2025-06n", "thang-2025-07"]
    assert months[6].label == "Tháng Sáu nhuận năm Ất Tỵ"
    assert months[0].start == lunar_year(2025).start and months[-1].end == lunar_year(2025).end
    for a, b in zip(months, months[1:], strict=False):
        assert a.end + dt.timedelta(days=1) == b.start
        assert a.days in (29, 30)


def test_seasons_are_three_lunar_months_each() -> None:
    spring, summer = season(2025, "xuan"), season(2025, "ha")
    assert spring.start == lunar_year(2025).start and spring.end + dt.timedelta(days=1) == summer.start
    assert summer.end == lunar_month(2025, 6, leap=True).end  # the leap sixth month is summer's
    assert season(2025, "dong").end == lunar_year(2025).end


def test_period_from_a_request() -> None:
    today = dt.date(2025, 11, 25)
    assert period_from({}, today).key == "nam-2025"
    assert period_from({"ky": "thang-2025-12"}).start == dt.date(2026, 1, 19)
    dates = period_from({"from": "2025-03-01", "to": "2025-03-31"})
    assert (dates.start, dates.end, dates.key) == (dt.date(2025, 3, 1), dt.date(2025, 3, 31), "")
    assert period_from({"from": "2025-03-01"}).end == dt.date(2026, 2, 16)  # that lunar year's end
    assert period_from({"to": "2025-03-01"}).start == dt.date(2025, 1, 29)  # that lunar year's Tết


@pytest.mark.parametrize(
    ("params", "vi", "en"),
    [
        (
            {"from": "2025-13-01"},
            "'from' phải là một ngày dạng YYYY-MM-DD",
            "'from' must be a date as YYYY-MM-DD",
        ),
        ({"from": "2025-03-02", "to": "2025-03-01"}, "phải từ ngày đầu", "must not be before the first day"),
        ({"ky": "thang-2024-06n"}, "không có tháng 6 nhuận", "has no leap month 6"),
        ({"ky": "tuan-3"}, "Không hiểu kỳ", "Unknown period"),
    ],
)
def test_bad_periods_are_explained_in_the_page_s_language(params: dict[str, str], vi: str, en: str) -> None:
    with pytest.raises(PeriodError) as exc:
        period_from(params)
    assert vi in exc.value.message
    with translation.override("en"):
        with pytest.raises(PeriodError) as exc:
            period_from(params)
        assert en in exc.value.message  # translated when read, in the language of the reader


@pytest.mark.parametrize(
    "period",
    [lunar_year(2025), season(2025, "thu"), lunar_month(2025, 12), lunar_month(2025, 6, leap=True)],
    ids=["year", "season", "month", "leap-month"],
)
def test_a_stored_close_label_reads_in_the_reader_s_language(period) -> None:
    stored = in_vietnamese(period).label
    assert period_between(period.start, period.end).key == period.key
    with translation.override("en"):
        english = shown_label(period.start, period.end, stored)
    with translation.override("vi"):
        assert shown_label(period.start, period.end, stored) == stored
    assert english != stored and "năm" not in english and "Ất Tỵ" in english


def test_a_close_of_plain_dates_and_a_label_of_other_words() -> None:
    start, end = dt.date(2025, 3, 2), dt.date(2025, 3, 20)
    stored = in_vietnamese(dates(start, end)).label
    with translation.override("en"):
        assert shown_label(start, end, stored) == "From 02/03/2025 to 20/03/2025"
        assert shown_label(start, end, "Kỳ của làng") == "Kỳ của làng"  # not a period's label: as stored
