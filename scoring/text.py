"""Vietnamese-aware text helpers for the Django side."""

from __future__ import annotations

from django.utils.text import slugify


def vi_slugify(text: str) -> str:
    """Slug of a Vietnamese name: "Làng Đông" → "lang-dong" (Django's slugify drops Đ/đ)."""
    return slugify(text.replace("Đ", "D").replace("đ", "d"))
