"""``{{ hand|card_names }}`` and ``{{ code|card_name }}``: card codes shown as names (a
player reads "Chi Chi", never "cc"), in the page's language. See :mod:`scoring.selectors.cards`."""

from __future__ import annotations

from collections.abc import Iterable

from django import template

from scoring.selectors import cards

register = template.Library()


@register.filter
def card_name(code: str) -> str:
    """``"7v"`` → ``"Thất Văn"`` (``"7 of Văn"`` in English)."""
    return cards.card_name(code)


@register.filter
def card_names(hand: str | Iterable[str]) -> str:
    """``"7v 3m cc"`` → ``"Thất Văn, Tam Vạn, Chi Chi"``."""
    return ", ".join(cards.card_names(hand or ""))
