"""The Vietnamese lunar calendar (âm lịch): pure functions, no Django.

The conversion is Hồ Ngọc Đức's well-known algorithm (astronomical new moons and solar terms,
computed for the UTC+7 meridian, which is what makes the Vietnamese calendar differ from the
Chinese one in some years). :func:`lunar_label` gives the label festivals print:
"mùng 6 tháng Giêng năm Ất Tỵ"; :func:`to_solar` goes back (the first day of a lunar month, Tết),
which the club book's periods (a lunar year, month or season) need.

Moved here from ``tournaments/lunar.py`` (which re-exports it) so that both apps share one copy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date

__all__ = ["MONTH_NAMES", "LunarDate", "leap_month", "lunar_label", "month_days", "to_lunar", "to_solar"]

TZ = 7.0
_SYNODIC = 29.530588853
MONTH_NAMES = _MONTHS = [
    "Giêng",
    "Hai",
    "Ba",
    "Tư",
    "Năm",
    "Sáu",
    "Bảy",
    "Tám",
    "Chín",
    "Mười",
    "Một",
    "Chạp",
]
_CAN = ["Giáp", "Ất", "Bính", "Đinh", "Mậu", "Kỷ", "Canh", "Tân", "Nhâm", "Quý"]
_CHI = ["Tý", "Sửu", "Dần", "Mão", "Thìn", "Tỵ", "Ngọ", "Mùi", "Thân", "Dậu", "Tuất", "Hợi"]


@dataclass(frozen=True, slots=True)
class LunarDate:
    day: int
    month: int
    year: int
    leap: bool = False

    @property
    def year_name(self) -> str:
        """The year's name in the sexagenary cycle (Can Chi), e.g. "Ất Tỵ" for 2025."""
        return f"{_CAN[(self.year + 6) % 10]} {_CHI[(self.year + 8) % 12]}"


def _jd(d: date) -> int:
    a = (14 - d.month) // 12
    y = d.year + 4800 - a
    m = d.month + 12 * a - 3
    return d.day + (153 * m + 2) // 5 + 365 * y + y // 4 - y // 100 + y // 400 - 32045


def _new_moon(k: int) -> float:
    """Julian day of the k-th new moon after 1900-01-01 (Meeus, simplified)."""
    t = k / 1236.85
    t2, t3 = t * t, t * t * t
    dr = math.pi / 180
    jd1 = 2415020.75933 + 29.53058868 * k + 0.0001178 * t2 - 0.000000155 * t3
    jd1 += 0.00033 * math.sin((166.56 + 132.87 * t - 0.009173 * t2) * dr)
    m = 359.2242 + 29.10535608 * k - 0.0000333 * t2 - 0.00000347 * t3
    mpr = 306.0253 + 385.81691806 * k + 0.0107306 * t2 + 0.00001236 * t3
    f = 21.2964 + 390.67050646 * k - 0.0016528 * t2 - 0.00000239 * t3
    c1 = (0.1734 - 0.000393 * t) * math.sin(m * dr) + 0.0021 * math.sin(2 * dr * m)
    c1 = c1 - 0.4068 * math.sin(mpr * dr) + 0.0161 * math.sin(dr * 2 * mpr)
    c1 = c1 - 0.0004 * math.sin(dr * 3 * mpr)
    c1 = c1 + 0.0104 * math.sin(dr * 2 * f) - 0.0051 * math.sin(dr * (m + mpr))
    c1 = c1 - 0.0074 * math.sin(dr * (m - mpr)) + 0.0004 * math.sin(dr * (2 * f + m))
    c1 = c1 - 0.0004 * math.sin(dr * (2 * f - m)) - 0.0006 * math.sin(dr * (2 * f + mpr))
    c1 = c1 + 0.0010 * math.sin(dr * (2 * f - mpr)) + 0.0005 * math.sin(dr * (2 * mpr + m))
    if t < -11:
        delta = 0.001 + 0.000839 * t + 0.0002261 * t2 - 0.00000845 * t3 - 0.000000081 * t * t3
    else:
        delta = -0.000278 + 0.000265 * t + 0.000262 * t2
    return jd1 + c1 - delta


def _new_moon_day(k: int) -> int:
    return math.floor(_new_moon(k) + 0.5 + TZ / 24)


def _sun_longitude(jdn: float) -> float:
    t = (jdn - 2451545.0) / 36525
    t2 = t * t
    dr = math.pi / 180
    m = 357.52910 + 35999.05030 * t - 0.0001559 * t2 - 0.00000048 * t * t2
    l0 = 280.46645 + 36000.76983 * t + 0.0003032 * t2
    dl = (1.914600 - 0.004817 * t - 0.000014 * t2) * math.sin(dr * m)
    dl += (0.019993 - 0.000101 * t) * math.sin(dr * 2 * m) + 0.000290 * math.sin(dr * 3 * m)
    lon = (l0 + dl) * dr
    return lon - math.pi * 2 * math.floor(lon / (math.pi * 2))


def _sun_sector(day: int) -> int:
    """Which twelfth of the ecliptic the sun is in at the start of ``day`` (local time)."""
    return math.floor(_sun_longitude(day - 0.5 - TZ / 24) / math.pi * 6)


def _month11(year: int) -> int:
    """Julian day of the first day of the 11th lunar month (the one holding the winter solstice)."""
    off = _jd(date(year, 12, 31)) - 2415021
    k = math.floor(off / _SYNODIC)
    nm = _new_moon_day(k)
    return _new_moon_day(k - 1) if _sun_sector(nm) >= 9 else nm


def _leap_offset(a11: int) -> int:
    k = math.floor((a11 - 2415021.076998695) / _SYNODIC + 0.5)
    i = 1
    arc = _sun_sector(_new_moon_day(k + i))
    while True:
        last = arc
        i += 1
        arc = _sun_sector(_new_moon_day(k + i))
        if arc == last or i >= 14:
            return i - 1


def _from_jd(jd: int) -> date:
    return date.fromordinal(jd - 1721425)


def to_lunar(d: date) -> LunarDate:
    """The Vietnamese lunar date of a solar date."""
    day = _jd(d)
    k = math.floor((day - 2415021.076998695) / _SYNODIC)
    start = _new_moon_day(k + 1)
    while start > day:  # (twice only at a rare rounding edge, e.g. 7 May 2054)
        k -= 1
        start = _new_moon_day(k + 1)
    a11 = _month11(d.year)
    b11 = a11
    if a11 >= start:
        year = d.year
        a11 = _month11(d.year - 1)
    else:
        year = d.year + 1
        b11 = _month11(d.year + 1)
    diff = math.floor((start - a11) / 29)
    month, leap = diff + 11, False
    if b11 - a11 > 365:
        leap_diff = _leap_offset(a11)
        if diff >= leap_diff:
            month = diff + 10
            leap = diff == leap_diff
    if month > 12:
        month -= 12
    if month >= 11 and diff < 4:
        year -= 1
    return LunarDate(day - start + 1, month, year, leap)


def lunar_label(d: date, *, with_year: bool = True) -> str:
    """ "mùng 6 tháng Giêng năm Ất Tỵ", "rằm tháng Tám năm Giáp Thìn", "ngày 23 tháng Chạp"."""
    lunar = to_lunar(d)
    if lunar.day <= 10:
        day = f"mùng {lunar.day}"
    elif lunar.day == 15:
        day = "rằm"
    else:
        day = f"ngày {lunar.day}"
    month = _MONTHS[lunar.month - 1] + (" nhuận" if lunar.leap else "")
    label = f"{day} tháng {month}"
    return f"{label} năm {lunar.year_name}" if with_year else label


def _month11_pair(year: int, month: int) -> tuple[int, int]:
    """The 11th months that bracket lunar ``month`` of lunar ``year`` (Julian days)."""
    if month < 11:
        return _month11(year - 1), _month11(year)
    return _month11(year), _month11(year + 1)


def leap_month(year: int) -> int | None:
    """The lunar month of ``year`` that is followed by a leap month (tháng nhuận), or None."""
    for month in range(1, 13):
        try:
            first = to_solar(year, month, leap=True)
        except ValueError:
            continue
        if to_lunar(first) == LunarDate(1, month, year, True):
            return month
    return None


def to_solar(year: int, month: int, day: int = 1, *, leap: bool = False) -> date:
    """The solar date of lunar ``day`` of ``month`` (``leap``: the leap month after it) of ``year``.

    Raises ValueError for a leap month the year does not have, or a day the month does not have.
    """
    if not 1 <= month <= 12:
        raise ValueError(f"lunar month {month} is not 1 to 12")
    a11, b11 = _month11_pair(year, month)
    k = math.floor(0.5 + (a11 - 2415021.076998695) / _SYNODIC)
    off = (month - 11) % 12
    if b11 - a11 > 365:
        leap_off = _leap_offset(a11)
        leap_of = (leap_off - 2) % 12
        if leap and month != leap_of:
            raise ValueError(f"lunar year {year} has no leap month after month {month}")
        if leap or off >= leap_off:
            off += 1
    elif leap:
        raise ValueError(f"lunar year {year} has no leap month")
    start = _new_moon_day(k + off)
    length = _new_moon_day(k + off + 1) - start
    if not 1 <= day <= length:
        raise ValueError(f"lunar month {month} of {year} has {length} days, not {day}")
    return _from_jd(start + day - 1)


def month_days(year: int, month: int, *, leap: bool = False) -> int:
    """How many days lunar ``month`` (or its leap month) of ``year`` has: 29 or 30."""
    start = to_solar(year, month, leap=leap)
    return 30 if to_lunar(date.fromordinal(start.toordinal() + 29)).day == 30 else 29
