"""``{{ line.why|reason }}``: a stored ledger reason in the reader's language (scoring.i18n.reason)."""

from __future__ import annotations

from django import template

from scoring import i18n

register = template.Library()


@register.filter(name="reason")
def reason(text: object) -> str:
    """The reason as the reader's language says it; Vietnamese (as stored) by default."""
    return i18n.reason("" if text is None else str(text))
