"""Text helpers for the Django side: Vietnamese-aware slugs, and moments in ISO form as the API
answers and the backup file write them (and read back)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils.text import slugify

__all__ = ["iso", "vi_slugify", "when"]


def vi_slugify(text: str) -> str:
    """Slug of a Vietnamese name: "Làng Đông" → "lang-dong" (Django's slugify drops Đ/đ)."""
    return slugify(text.replace("Đ", "D").replace("đ", "d"))


def iso(moment: Any) -> str | None:
    """A date or a moment in ISO form (None stays None)."""
    return moment.isoformat() if moment is not None else None


def when(value: str | None) -> dt.datetime | None:
    """A moment read back from its ISO form (None or "" gives None)."""
    return dt.datetime.fromisoformat(value) if value else None
