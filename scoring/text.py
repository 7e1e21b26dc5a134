"""Text helpers for the Django side: Vietnamese-aware slugs, and moments in ISO form as the API
answers and the backup file write them (and read back)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext, gettext_noop

__all__ = ["canh_name", "iso", "vi_slugify", "when"]


def vi_slugify(text: str) -> str:
    """Slug of a Vietnamese name: "Làng Đông" → "lang-dong" (Django's slugify drops Đ/đ)."""
    return slugify(text.replace("Đ", "D").replace("đ", "d"))


def iso(moment: Any) -> str | None:
    """A date or a moment in ISO form (None stays None)."""
    return moment.isoformat() if moment is not None else None


def when(value: str | None) -> dt.datetime | None:
    """A moment read back from its ISO form (None or "" gives None)."""
    return dt.datetime.fromisoformat(value) if value else None


#: How an untitled canh is named: by the day and time it was opened ("Canh 28/11/26 19:30"),
#: never by its database id ("Canh bài #27"). Short enough for one line of a 390 px
#: phone's heading: a second line pushed the ván form's winner row under its sticky "Lưu ván" bar
#: (a tap there went to the bar).
CANH_NAME = gettext_noop("Canh %(date)s %(time)s")
CANH_NAME_NEW = gettext_noop("Canh bài mới")


def canh_name(title: str, opened_at: dt.datetime | None, *, translate: bool = True) -> str:
    """A canh's name: its title, else the local time and date it was opened (Vietnamese when
    ``translate`` is false, e.g. where it is stored)."""
    if title:
        return title
    words = gettext if translate else str
    if opened_at is None:
        return words(CANH_NAME_NEW)
    local = timezone.localtime(opened_at) if timezone.is_aware(opened_at) else opened_at
    return words(CANH_NAME) % {"time": local.strftime("%H:%M"), "date": local.strftime("%d/%m/%y")}
