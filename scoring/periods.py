"""Periods of the club book: a lunar year (the default: since Tết), a lunar month, a season, or dates.

A period is a range of solar dates, both ends included; a canh belongs to the period of the day
it was opened (in the site's time zone). Periods are named by a short key in URLs (``ky``):
``nam-2025`` (the lunar year Ất Tỵ, from Tết 2025 to the eve of Tết 2026), ``thang-2025-12``
(tháng Chạp), ``thang-2025-06n`` (the leap sixth month), ``mua-2025-xuan`` (spring: months 1 to 3;
``ha``, ``thu``, ``dong`` the next three), or by ``from`` / ``to`` dates (``YYYY-MM-DD``).
Bad input raises :class:`PeriodError` with a message in the active language.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from functools import lru_cache

from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scoring.engine import N_, EngineError
from scoring.lunar import MONTH_NAMES, LunarDate, leap_month, to_lunar, to_solar

__all__ = [
    "SEASONS",
    "Period",
    "PeriodError",
    "dates",
    "in_vietnamese",
    "lunar_day_label",
    "lunar_shown",
    "period_between",
    "shown_label",
    "stored_label_shown",
    "lunar_month",
    "lunar_year",
    "month_choices",
    "parse_date",
    "period_from",
    "season",
    "this_lunar_year",
]

#: Seasons of the lunar year: key → (first month, Vietnamese name).
SEASONS = {"xuan": (1, "xuân"), "ha": (4, "hạ"), "thu": (7, "thu"), "dong": (10, "đông")}
#: A period longer than this is refused (a typo in a year, not a real question).
LONGEST = timedelta(days=366 * 20)
KEY = re.compile(r"^(?:nam-(\d{4})|thang-(\d{4})-(\d{1,2})(n?)|mua-(\d{4})-(xuan|ha|thu|dong))$")


class PeriodError(EngineError):
    """A period that cannot be read (a bad date, an end before the start, an unknown key)."""

    code = "bad_period"


@dataclass(frozen=True, slots=True)
class Period:
    start: date
    #: The last day, included.
    end: date
    #: The period's key in URLs ("" for plain dates).
    key: str
    label: str

    def bounds(self) -> tuple[datetime, datetime]:
        """The aware datetimes [start, end + 1 day) in the site's time zone."""
        zone = timezone.get_current_timezone()
        return (
            timezone.make_aware(datetime.combine(self.start, time.min), zone),
            timezone.make_aware(datetime.combine(self.end + timedelta(days=1), time.min), zone),
        )

    def contains(self, day: date) -> bool:
        return self.start <= day <= self.end

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1


def _year_name(year: int) -> str:
    return LunarDate(1, 1, year).year_name


def _month_name(month: int, leap: bool) -> str:
    """ "Hai", "Tư nhuận" in Vietnamese; "2nd month", "leap 4th month" in English."""
    name = pgettext("lunar month", MONTH_NAMES[month - 1])
    return _("%(month)s nhuận") % {"month": name} if leap else name


def lunar_day_label(day: date) -> str:
    """A solar day as a lunar date in the active language: "mùng 6 tháng Giêng năm Ất Tỵ" (as
    :func:`scoring.lunar.lunar_label`), "day 6 of the 1st month of Ất Tỵ" in English."""
    lunar = to_lunar(day)
    if lunar.day <= 10:
        label = _("mùng %(day)d tháng %(month)s năm %(year)s")
    elif lunar.day == 15:
        label = _("rằm tháng %(month)s năm %(year)s")
    else:
        label = _("ngày %(day)d tháng %(month)s năm %(year)s")
    return label % {"day": lunar.day, "month": _month_name(lunar.month, lunar.leap), "year": lunar.year_name}


def lunar_year(year: int) -> Period:
    """From Tết of lunar ``year`` to the eve of the next Tết."""
    start = to_solar(year, 1)
    end = to_solar(year + 1, 1) - timedelta(days=1)
    return Period(
        start, end, f"nam-{year}", _("Năm %(name)s (%(year)d)") % {"name": _year_name(year), "year": year}
    )


def lunar_month(year: int, month: int, *, leap: bool = False) -> Period:
    """One lunar month (``leap``: the leap month that follows ``month``)."""
    try:
        start = to_solar(year, month, leap=leap)
    except ValueError:
        if leap:
            raise PeriodError(
                N_("Năm âm lịch {year} không có tháng {month} nhuận."), year=year, month=month
            ) from None
        raise PeriodError(N_("Tháng âm lịch phải từ 1 đến 12 (nhận được {month})."), month=month) from None
    end = start + timedelta(days=28)
    while to_lunar(end + timedelta(days=1)).day != 1:
        end += timedelta(days=1)
    key = f"thang-{year}-{month:02d}{'n' if leap else ''}"
    label = _("Tháng %(month)s năm %(name)s") % {"month": _month_name(month, leap), "name": _year_name(year)}
    return Period(start, end, key, label)


def season(year: int, name: str) -> Period:
    """Three lunar months (with a leap month among them, if any): xuân 1–3, hạ 4–6, thu 7–9, đông 10–12."""
    if name not in SEASONS:
        raise PeriodError(N_("Mùa phải là xuan, ha, thu hoặc dong (nhận được '{name}')."), name=name)
    first, title = SEASONS[name]
    start = to_solar(year, first)
    end = (to_solar(year, first + 3) if first < 10 else to_solar(year + 1, 1)) - timedelta(days=1)
    label = _("Mùa %(season)s năm %(name)s") % {"season": _(title), "name": _year_name(year)}
    return Period(start, end, f"mua-{year}-{name}", label)


def dates(start: date, end: date) -> Period:
    if end < start:
        raise PeriodError(
            N_("Ngày cuối ({end}) phải từ ngày đầu ({start}) trở đi."),
            end=end.isoformat(),
            start=start.isoformat(),
        )
    if end - start > LONGEST:
        raise PeriodError(N_("Khoảng ngày dài quá 20 năm: hãy xem lại năm đã nhập."))
    label = _("Từ %(start)s đến %(end)s") % {
        "start": start.strftime("%d/%m/%Y"),
        "end": end.strftime("%d/%m/%Y"),
    }
    return Period(start, end, "", label)


def in_vietnamese(period: Period) -> Period:
    """The same period labelled in Vietnamese (what the ledger records, whatever the page's language)."""
    with translation.override("vi"):
        return _from_key(period.key) if period.key else dates(period.start, period.end)


def period_between(start: date, end: date) -> Period:
    """The period from ``start`` to ``end`` in the active language: the lunar year, season or month
    those dates make, if they make one, else plain dates."""
    year = to_lunar(start).year
    leap = leap_month(year)
    candidates = [lambda: lunar_year(year), *(lambda n=n: season(year, n) for n in SEASONS)]
    for month in range(1, 13):
        candidates.append(lambda m=month: lunar_month(year, m))
        if leap == month:
            candidates.append(lambda m=month: lunar_month(year, m, leap=True))
    for candidate in candidates:
        period = candidate()
        if (period.start, period.end) == (start, end):
            return period
    return dates(start, end)


def shown_label(start: date, end: date, stored: str) -> str:
    """A stored period label (a close's, written in Vietnamese as the ledger records it) in the
    active language, when it is the label of the period from ``start`` to ``end``; else as stored."""
    period = period_between(start, end)
    # Not the named period's label: the dates' own ("Từ 23/08/2025 đến 21/09/2025", a close made
    # from dates that happen to be a lunar month), or any other computed label, or as written.
    return period.label if stored == in_vietnamese(period).label else stored_label_shown(stored)


#: A period's label as :func:`in_vietnamese` writes it (what a close stores), read back into its parts.
_STORED = re.compile(
    r"Năm (?P<y_name>.+) \((?P<year>\d{4})\)"
    r"|Tháng (?P<month>\S+)(?P<leap> nhuận)? năm (?P<m_name>.+)"
    r"|Mùa (?P<season>\S+) năm (?P<s_name>.+)"
    r"|Từ (?P<start>\d{2}/\d{2}/\d{4}) đến (?P<end>\d{2}/\d{2}/\d{4})"
)


def _years_named(name: str) -> list[int]:
    """The lunar years the calendar converts that bear ``name`` (Ất Tỵ: 1965, 2025, 2085), this
    year's nearest first."""
    now = to_lunar(timezone.localdate()).year
    return sorted(
        (y for y in range(FIRST_DAY.year, LAST_DAY.year) if _year_name(y) == name), key=lambda y: abs(y - now)
    )


def _stored_period(stored: str) -> Period | None:
    """The period whose Vietnamese label is ``stored``; None when no period's is."""
    found = _STORED.fullmatch(stored)
    if found is None:
        return None
    parts = found.groupdict()
    candidates: list[Callable[[], Period]] = []
    if parts["year"]:
        candidates.append(lambda: lunar_year(int(parts["year"])))
    elif parts["month"]:
        if parts["month"] not in MONTH_NAMES:
            return None
        month = MONTH_NAMES.index(parts["month"]) + 1
        leap = bool(parts["leap"])
        candidates += [lambda y=y: lunar_month(y, month, leap=leap) for y in _years_named(parts["m_name"])]
    elif parts["season"]:
        key = next((k for k, (_first, title) in SEASONS.items() if title == parts["season"]), None)
        if key is None:
            return None
        candidates += [lambda y=y: season(y, key) for y in _years_named(parts["s_name"])]
    else:
        try:
            start, end = (datetime.strptime(parts[k], "%d/%m/%Y").date() for k in ("start", "end"))
        except ValueError:
            return None
        candidates.append(lambda: dates(start, end))
    for candidate in candidates:
        try:
            period = candidate()
        except (PeriodError, ValueError):
            continue
        if in_vietnamese(period).label == stored:
            return period
    return None


def stored_label_shown(stored: str) -> str:
    """A period's label as the ledger stored it (in Vietnamese), in the active language when it is
    the computed label of a lunar year, season or month or of dates; any other text as stored.

    For a label met without its dates (a close's, inside a stored reason: "Chốt sổ {close}"): a
    month's or a season's label names its year only by its name (Ất Tỵ comes back every 60 years),
    and so does its rendering in any language. Where the dates are at hand, :func:`shown_label`."""
    if not stored:
        return stored
    return _stored_label_shown(stored, translation.get_language() or settings.LANGUAGE_CODE)


@lru_cache(maxsize=1024)
def _stored_label_shown(stored: str, language: str) -> str:
    if language.split("-")[0] == settings.LANGUAGE_CODE:
        return stored
    period = _stored_period(stored)
    if period is None:
        return stored
    with translation.override(language):
        return _from_key(period.key).label if period.key else dates(period.start, period.end).label


def lunar_shown(day: date, stored: str) -> str:
    """An event's lunar date as stored, in the active language when it is the computed default
    ("mùng 6 tháng Giêng năm Ất Tỵ" → "day 6 of the 1st month of Ất Tỵ"); a text the organiser
    wrote stays as written."""
    from scoring.lunar import lunar_label

    return lunar_day_label(day) if stored and stored == lunar_label(day) else stored


def this_lunar_year(today: date | None = None) -> Period:
    """The lunar year holding ``today`` (the site's today by default): the book's default period."""
    return lunar_year(to_lunar(today or timezone.localdate()).year)


#: The dates the lunar calendar here converts (its new moons are counted from 1900; schemathesis
#: sent year 446 and the club book's API answered 500).
FIRST_DAY, LAST_DAY = date(1901, 1, 1), date(2099, 12, 31)
OUT_OF_RANGE = N_("'{what}' phải là một ngày từ {first} đến {last} (nhận được '{value}').")


def parse_date(value: str, what: str) -> date:
    """A ``YYYY-MM-DD`` date, or a :class:`PeriodError` naming ``what`` (the parameter)."""
    text = (value or "").strip()
    try:
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            raise ValueError
        day = date.fromisoformat(text)
    except ValueError:
        raise PeriodError(
            N_("'{what}' phải là một ngày dạng YYYY-MM-DD, ví dụ 2025-01-29 (nhận được '{value}')."),
            what=what,
            value=text[:40],
        ) from None
    if not FIRST_DAY <= day <= LAST_DAY:
        raise PeriodError(
            OUT_OF_RANGE, what=what, value=text, first=FIRST_DAY.isoformat(), last=LAST_DAY.isoformat()
        )
    return day


def _from_key(key: str) -> Period:
    found = KEY.match(key.strip())
    if found is None:
        raise PeriodError(
            N_("Không hiểu kỳ '{key}': dùng nam-2025, thang-2025-12, thang-2025-06n hoặc mua-2025-xuan."),
            key=key[:40],
        )
    year_y, year_m, month, leap, year_s, name = found.groups()
    if year_y:
        return lunar_year(int(year_y))
    if year_m:
        return lunar_month(int(year_m), int(month), leap=bool(leap))
    return season(int(year_s), name)


def period_from(params: Mapping[str, str], today: date | None = None) -> Period:
    """The period a request asks for: ``from`` / ``to`` dates (either may be left out: the other
    end's lunar year bounds it), else a key ``ky``, else this lunar year."""
    start_text, end_text = (params.get("from") or "").strip(), (params.get("to") or "").strip()
    if start_text or end_text:
        start = parse_date(start_text, "from") if start_text else None
        end = parse_date(end_text, "to") if end_text else None
        if start is None:
            assert end is not None
            start = lunar_year(to_lunar(end).year).start
        if end is None:
            end = lunar_year(to_lunar(start).year).end
        return dates(start, end)
    key = (params.get("ky") or "").strip()
    if key:
        return _from_key(key)
    return this_lunar_year(today)


def month_choices(year: int) -> list[Period]:
    """The lunar months of ``year`` in order, the leap month after its month."""
    leap = leap_month(year)
    out = []
    for month in range(1, 13):
        out.append(lunar_month(year, month))
        if month == leap:
            out.append(lunar_month(year, month, leap=True))
    return out
